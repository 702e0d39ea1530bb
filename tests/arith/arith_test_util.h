// Shared helpers for the arithmetic tests: edge-biased random FP32 operands and an independent native
// (SSE intrinsics) evaluation of the x86 reference semantics.
#pragma once

#include <xmmintrin.h>

#include <array>
#include <cstdint>
#include <random>
#include <utility>

#include "isa/common/arith/fp_arith.h"

namespace kcraft::arith::testing {

// Values every generator mixes in: signed zeros, infinities, NaNs (quiet, signalling, negative),
// subnormals, the normal range limits, one and its neighbours.
inline constexpr std::array<F32, 34> kSpecialValues = {
    0x00000000u, 0x80000000u, 0x7F800000u, 0xFF800000u, 0x7FC00000u, 0xFFC00000u, 0x7F800001u,
    0xFFBFFFFFu, 0x7FFFFFFFu, 0x00000001u, 0x80000001u, 0x007FFFFFu, 0x807FFFFFu, 0x00400000u,
    0x00800000u, 0x80800000u, 0x00800001u, 0x00FFFFFFu, 0x7F7FFFFFu, 0xFF7FFFFFu, 0x7F000000u,
    0x3F800000u, 0xBF800000u, 0x3F7FFFFFu, 0x3F800001u, 0x40000000u, 0x3F000000u, 0x4B800000u,
    0x33800000u, 0x34000000u, 0x1F800000u, 0x5F800000u, 0x42B17218u, 0xC2AEAC50u};

class EdgeCaseGenerator {
 public:
  explicit EdgeCaseGenerator(uint64_t seed) : rng_(seed) {}

  uint32_t bits() { return static_cast<uint32_t>(rng_()); }
  uint32_t below(uint32_t n) { return static_cast<uint32_t>(rng_() % n); }

  F32 with_exponent(uint32_t biased_exp) { return (bits() & 0x807FFFFFu) | (biased_exp << 23); }

  // Significand with only the top `kept` fraction bits random: products and sums of such values are often
  // exact or exact ties, which exercises the rounding paths.
  F32 short_significand(F32 x) {
    const uint32_t kept = below(24);
    const uint32_t mask = kept == 0 ? 0u : (0x7FFFFFu >> (23 - kept)) << (23 - kept);
    return (x & ~0x7FFFFFu) | (x & mask);
  }

  // One operand, biased towards edge cases.
  F32 operand() {
    switch (below(10)) {
      case 0:
        return kSpecialValues[below(kSpecialValues.size())];
      case 1:
        return with_exponent(below(4));  // zero/subnormal and the smallest normals
      case 2:
        return with_exponent(251 + below(5));  // largest normals and inf/NaN
      case 3:
        return short_significand(bits());
      case 4:
        return short_significand(with_exponent(100 + below(56)));
      case 5:
        return with_exponent(120 + below(16));  // around 1.0
      default:
        return bits();
    }
  }

  // An operand pair, biased towards interactions: cancellation, alignment shifts around the guard bits,
  // rounding ties, and products near the underflow/overflow thresholds.
  std::pair<F32, F32> pair() {
    const F32 a = operand();
    switch (below(9)) {
      case 0: {  // near-cancellation: b ~= -a
        const F32 b = (a ^ 0x80000000u) + below(64) - 32;
        return {a, b};
      }
      case 1: {  // same sign, small exponent difference: carries and alignment
        const uint32_t ea = (a >> 23) & 0xFFu;
        const uint32_t eb = ea > 30 ? ea - below(30) : ea;
        return {a, short_significand((bits() & 0x807FFFFFu) | (eb << 23))};
      }
      case 2: {  // b is a half-ulp of a (possibly plus a sticky bit): an exact tie for add/sub
        const uint32_t ea = (a >> 23) & 0xFFu;
        if (ea < 25 || ea == 0xFF) return {a, operand()};
        return {a, (bits() & 0x80000000u) | ((ea - 24) << 23) | (below(2) != 0 ? 1u : 0u)};
      }
      case 3: {  // product exponent near underflow: ea + eb ~= 127
        const uint32_t ea = 1 + below(126);
        const uint32_t eb = 125 - ea + below(5);
        return {with_exponent(ea), with_exponent(eb)};
      }
      case 4: {  // product exponent near overflow: ea + eb ~= 381
        const uint32_t ea = 127 + below(128);
        const uint32_t eb = 379 - ea + below(5);
        return {with_exponent(ea), with_exponent(eb > 254 ? 254 : eb)};
      }
      case 5:
        return {short_significand(a), short_significand(operand())};
      default:
        return {a, operand()};
    }
  }

 private:
  std::mt19937_64 rng_;
};

// x86 reference through intrinsics (an implementation independent of the fast path's inline asm);
// needs an FpEnvGuard. NaN results are canonicalised, as the contract requires. The empty asm hides the
// operands from the optimiser so constant arguments cannot be folded under the default environment.
inline __m128 opaque_ss(F32 x) {
  float f = detail::bits_to_float(x);
  asm volatile("" : "+x"(f));
  return _mm_set_ss(f);
}
inline F32 native_result(__m128 v) {
  return detail::canonicalize_nan32(detail::float_to_bits(_mm_cvtss_f32(v)));
}
inline F32 native_add(F32 a, F32 b) {
  return native_result(_mm_add_ss(opaque_ss(a), opaque_ss(b)));
}
inline F32 native_sub(F32 a, F32 b) {
  return native_result(_mm_sub_ss(opaque_ss(a), opaque_ss(b)));
}
inline F32 native_mul(F32 a, F32 b) {
  return native_result(_mm_mul_ss(opaque_ss(a), opaque_ss(b)));
}
inline F32 native_int32_to_fp32(int32_t x) {
  asm volatile("" : "+r"(x));
  return detail::float_to_bits(_mm_cvtss_f32(_mm_cvtsi32_ss(_mm_setzero_ps(), x)));
}

}  // namespace kcraft::arith::testing
