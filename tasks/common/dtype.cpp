#include "tasks/common/dtype.h"

#include <cmath>
#include <cstring>
#include <stdexcept>

#include "isa/common/arith/fp_arith.h"

namespace kcraft::tasks {

std::string_view dtype_name(DType dtype) {
  return dtype == DType::bf16 ? "bf16" : "fp32";
}

DType parse_dtype(std::string_view text) {
  if (text == "bf16") return DType::bf16;
  if (text == "fp32") return DType::fp32;
  throw std::invalid_argument("unknown dtype '" + std::string(text) + "' (expected bf16 or fp32)");
}

std::size_t dtype_bytes(DType dtype) {
  return dtype == DType::bf16 ? 2 : 4;
}

uint32_t dtype_bits(double value, DType dtype) {
  if (dtype == DType::bf16) return arith::double_to_bf16(value);
  return arith::double_to_fp32(value);
}

double dtype_bits_to_double(uint32_t bits, DType dtype) {
  if (dtype == DType::bf16) return arith::bf16_to_double(static_cast<arith::Bf16>(bits & 0xFFFFu));
  // FP32 bits are read as stored (no DAZ): outputs written by a kernel are compared as they are.
  return static_cast<double>(arith::f32_to_float(bits));
}

double round_to_dtype(double value, DType dtype) {
  return dtype_bits_to_double(dtype_bits(value, dtype), dtype);
}

bool representable(double value, DType dtype) {
  if (std::isnan(value)) return true;
  double rounded = round_to_dtype(value, dtype);
  // Compare bit patterns so that -0 and +0 are told apart.
  return std::memcmp(&rounded, &value, sizeof value) == 0;
}

}  // namespace kcraft::tasks
