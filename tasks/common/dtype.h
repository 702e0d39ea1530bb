// Element types of tensors in DRAM. The dtype is a property of the platform (BF16 on systolic/vliw, FP32 on
// rvv); values are carried on the host as doubles that are exactly representable in that dtype.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace kcraft::tasks {

enum class DType { bf16, fp32 };

std::string_view dtype_name(DType dtype);
// Throws std::invalid_argument naming the bad text and the accepted names.
DType parse_dtype(std::string_view text);
std::size_t dtype_bytes(DType dtype);

// Rounds to the nearest value of the dtype (ties to even, subnormals flushed to signed zero, NaN canonical),
// exactly as kcraft::arith does, and returns it as a double.
double round_to_dtype(double value, DType dtype);
// Raw bits of round_to_dtype(value) (BF16 in the low 16 bits).
uint32_t dtype_bits(double value, DType dtype);
double dtype_bits_to_double(uint32_t bits, DType dtype);
// True when value survives round_to_dtype unchanged (NaN counts as representable).
bool representable(double value, DType dtype);

}  // namespace kcraft::tasks
