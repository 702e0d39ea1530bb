// NumPy .npy files (format version 1.0), little-endian, C order.
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include "tasks/common/tensor.h"

namespace kcraft::tasks {

enum class NpyElement {
  f32,        // '<f4', value rounded to float (exact for BF16/FP32 values)
  f64,        // '<f8'
  bf16_bits,  // '<u2', the raw BF16 bits of the value
  fp32_bits,  // '<u4', the raw FP32 bits of the value
};
std::string_view npy_descr(NpyElement element);

// The complete file contents. Throws std::invalid_argument when values.size() does not match the shape.
std::string encode_npy(const Shape& shape, const std::vector<double>& values, NpyElement element);
// Throws std::runtime_error naming the path on I/O failure.
void write_npy(const std::filesystem::path& path, const Shape& shape, const std::vector<double>& values,
               NpyElement element);

}  // namespace kcraft::tasks
