// Host-side tensors: a name, a row-major shape and values as doubles.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "tasks/common/dtype.h"

namespace kcraft::tasks {

using Shape = std::vector<int64_t>;

int64_t element_count(const Shape& shape);
// Row-major (C order) strides in elements; the last dimension is contiguous.
std::vector<int64_t> row_major_strides(const Shape& shape);
std::vector<int64_t> unravel_index(int64_t flat_index, const Shape& shape);
std::string format_shape(const Shape& shape);  // "[16, 32]"

struct Tensor {
  std::string name;
  Shape shape;
  std::vector<double> data;  // row-major

  Tensor() = default;
  Tensor(std::string tensor_name, Shape tensor_shape);  // zero-filled
  std::size_t size() const { return data.size(); }
  // Bounds-unchecked 2-D access for the common [rows, cols] case.
  double at2(int64_t row, int64_t col) const {
    return data[static_cast<std::size_t>(row * shape.back() + col)];
  }
};

// Little-endian element bytes of the tensor in `dtype`; values are rounded to the dtype first.
std::vector<uint8_t> encode_tensor(const Tensor& tensor, DType dtype);
// Inverse of encode_tensor. Throws std::invalid_argument when `size` is not the tensor's byte size.
Tensor decode_tensor(std::string name, Shape shape, DType dtype, const uint8_t* bytes, std::size_t size);

}  // namespace kcraft::tasks
