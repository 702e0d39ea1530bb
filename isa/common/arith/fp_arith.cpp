#include "isa/common/arith/fp_arith.h"

#include <cmath>
#include <cstring>

namespace kcraft::arith {

namespace {
constexpr bool is_nan32(F32 x) { return (x & 0x7F800000u) == 0x7F800000u && (x & 0x007FFFFFu) != 0; }
constexpr F32 daz32(F32 x) { return (x & 0x7F800000u) == 0 ? (x & 0x80000000u) : x; }
}  // namespace

namespace ref {
F32 bf16_to_fp32(Bf16 x) {
  F32 w = static_cast<F32>(x) << 16;
  if (is_nan32(w)) return kCanonicalNaN32;
  return daz32(w);
}

Bf16 fp32_to_bf16(F32 x) {
  if (is_nan32(x)) return kCanonicalNaN16;
  x = daz32(x);
  // Round to nearest even on bit 16; overflow carries into the exponent and yields infinity correctly.
  F32 rounded = x + 0x7FFFu + ((x >> 16) & 1u);
  return static_cast<Bf16>(rounded >> 16);
}
}  // namespace ref

F32 bf16_to_fp32(Bf16 x) { return ref::bf16_to_fp32(x); }
Bf16 fp32_to_bf16(F32 x) { return ref::fp32_to_bf16(x); }

float f32_to_float(F32 x) {
  float f;
  std::memcpy(&f, &x, sizeof f);
  return f;
}

F32 float_to_f32(float x) {
  F32 w;
  std::memcpy(&w, &x, sizeof w);
  return w;
}

double bf16_to_double(Bf16 x) { return static_cast<double>(f32_to_float(bf16_to_fp32(x))); }

F32 double_to_fp32(double x) {
  if (std::isnan(x)) return kCanonicalNaN32;
  // double -> float rounds once to nearest even (the default rounding mode).
  F32 w = float_to_f32(static_cast<float>(x));
  return daz32(w);
}

Bf16 double_to_bf16(double x) {
  if (std::isnan(x)) return kCanonicalNaN16;
  if (std::isinf(x)) return x > 0 ? 0x7F80u : 0xFF80u;
  // Round directly from double to 8 significant bits (avoids double rounding through FP32).
  double mag = std::fabs(x);
  Bf16 sign = std::signbit(x) ? 0x8000u : 0;
  if (mag == 0.0) return sign;
  int exp2 = 0;
  std::frexp(mag, &exp2);  // mag = m * 2^exp2, m in [0.5, 1)
  int e = exp2 - 1;        // mag in [2^e, 2^(e+1))
  if (e < -126) {
    // Below the smallest normal: round at the normal grid's 8-bit precision of 2^-126 then flush.
    return sign;
  }
  double scaled = std::ldexp(mag, 7 - e);  // in [128, 256)
  double r = std::nearbyint(scaled);       // ties to even in the default rounding mode
  if (r >= 256.0) {
    r /= 2.0;
    ++e;
  }
  if (e > 127) return sign | 0x7F80u;
  auto mant = static_cast<unsigned>(r) - 128u;
  return static_cast<Bf16>(sign | (static_cast<unsigned>(e + 127) << 7) | mant);
}

}  // namespace kcraft::arith
