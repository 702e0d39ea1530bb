// Bit-exact FP32/BF16 arithmetic shared by the functional models and the RTL.
//
// Every function here has a twin in rtl/common/kc_fp_pkg.sv that produces the same bits for every input.
// The semantics are those of x86 SSE with MXCSR.FTZ = MXCSR.DAZ = 1 and round-to-nearest-even, plus:
//   - subnormal inputs are read as zero of the same sign (DAZ), subnormal results become signed zero (FTZ);
//     as on x86, a result is "subnormal" when it is below 2^-126 after rounding to 24 bits with an
//     unbounded exponent (tininess after rounding), so products just below 2^-126 that round up to it
//     survive;
//   - every NaN result is the canonical quiet NaN 0x7FC00000 (BF16: 0x7FC0);
//   - max/min order -0 below +0 and return NaN when either operand is NaN.
// exp, reciprocal and rsqrt are hardware approximations (fixed-point algorithms, see docs/arithmetic.md),
// identical in C++ and Verilog; their accuracy bounds are asserted by tests against libm.
//
// Two implementations are provided:
//   - kcraft::arith::ref::*  a bit-level mirror of the Verilog algorithms (integer code only);
//   - kcraft::arith::*       the fast path used by the functional models: native float operations where
//                            they are bit-identical (under FpEnvGuard), ref code otherwise.
// Tests prove fast == ref == RTL.
#pragma once

#include <cassert>
#include <cstdint>
#include <cstring>

#if defined(__x86_64__) || defined(__i386__)
#include <xmmintrin.h>
#define KCRAFT_ARITH_NATIVE_SSE 1
#else
#define KCRAFT_ARITH_NATIVE_SSE 0
#endif

namespace kcraft::arith {

using Bf16 = uint16_t;  // raw BF16 bits
using F32 = uint32_t;   // raw FP32 bits

inline constexpr F32 kCanonicalNaN32 = 0x7FC00000u;
inline constexpr Bf16 kCanonicalNaN16 = 0x7FC0u;

// Sets MXCSR to FTZ|DAZ, round-to-nearest, all exceptions masked for the calling thread, restores on
// destruction. The fast-path functions below require one to be alive in the calling thread.
class FpEnvGuard {
 public:
  FpEnvGuard();
  ~FpEnvGuard();
  FpEnvGuard(const FpEnvGuard&) = delete;
  FpEnvGuard& operator=(const FpEnvGuard&) = delete;

  // True when the calling thread's MXCSR has FTZ, DAZ and round-to-nearest set (always true off x86,
  // where the fast path falls back to the ref code).
  static bool active();

 private:
  unsigned saved_mxcsr_;
};

// Conversions.
F32 bf16_to_fp32(Bf16 x);      // exact widening; subnormal -> signed zero; NaN -> canonical
Bf16 fp32_to_bf16(F32 x);      // round to nearest even; subnormal input -> signed zero; NaN -> canonical
F32 int32_to_fp32(int32_t x);  // round to nearest even

// Host-side helpers (not hardware operations): exact views and rounding from double.
float f32_to_float(F32 x);
F32 float_to_f32(float x);
double bf16_to_double(Bf16 x);  // exact value of the BF16 (after DAZ)
// Single round-to-nearest-even from double with an unbounded exponent, then FTZ (tininess after rounding,
// as in fp32_mul), overflow to infinity, canonical NaN. Independent of the thread's MXCSR.
Bf16 double_to_bf16(double x);
F32 double_to_fp32(double x);

// Arithmetic (fast path). add/sub/mul/bf16_mul/sqrt and int32_to_fp32 run native SSE instructions and need
// an FpEnvGuard alive in the calling thread (checked by assert in debug builds); the others are pure integer
// code.
F32 fp32_add(F32 a, F32 b);
F32 fp32_sub(F32 a, F32 b);
F32 fp32_mul(F32 a, F32 b);
F32 bf16_mul(Bf16 a, Bf16 b);  // exact BF16 x BF16 -> FP32 == fp32_mul(bf16_to_fp32(a), bf16_to_fp32(b))
F32 fp32_max(F32 a, F32 b);
F32 fp32_min(F32 a, F32 b);
F32 fp32_exp(F32 x);
F32 fp32_reci(F32 x);
F32 fp32_rsqrt(F32 x);
F32 fp32_sqrt(F32 x);  // fp32_mul(x, fp32_rsqrt(x)); sqrt(+-0) = +-0, sqrt(+inf) = +inf, sqrt(<0) = NaN

namespace ref {
F32 bf16_to_fp32(Bf16 x);
Bf16 fp32_to_bf16(F32 x);
F32 int32_to_fp32(int32_t x);
F32 fp32_add(F32 a, F32 b);
F32 fp32_sub(F32 a, F32 b);
F32 fp32_mul(F32 a, F32 b);
F32 bf16_mul(Bf16 a, Bf16 b);
F32 fp32_max(F32 a, F32 b);
F32 fp32_min(F32 a, F32 b);
F32 fp32_exp(F32 x);
F32 fp32_reci(F32 x);
F32 fp32_rsqrt(F32 x);
F32 fp32_sqrt(F32 x);
}  // namespace ref

// ---------------------------------------------------------------------------------------------------------
// Inline fast path. The functional models call these hundreds of millions of times, so they live here.

namespace detail {

inline constexpr F32 kSignMask32 = 0x80000000u;
inline constexpr F32 kExpMask32 = 0x7F800000u;
inline constexpr F32 kMagMask32 = 0x7FFFFFFFu;

inline constexpr bool is_nan32(F32 x) {
  return (x & kMagMask32) > kExpMask32;
}
inline constexpr F32 daz32(F32 x) {
  return (x & kExpMask32) == 0 ? (x & kSignMask32) : x;
}
inline constexpr F32 canonicalize_nan32(F32 x) {
  return is_nan32(x) ? kCanonicalNaN32 : x;
}

// Maps FP32 bits to an unsigned key whose integer order is the numeric order, with -0 just below +0.
inline constexpr uint32_t order_key32(F32 x) {
  return (x & kSignMask32) != 0 ? ~x : x | kSignMask32;
}

inline constexpr F32 bf16_to_fp32(Bf16 x) {
  const F32 wide = static_cast<F32>(x) << 16;
  return is_nan32(wide) ? kCanonicalNaN32 : daz32(wide);
}

inline constexpr Bf16 fp32_to_bf16(F32 x) {
  if (is_nan32(x)) return kCanonicalNaN16;
  const F32 flushed = daz32(x);
  // Round to nearest even at bit 16. A carry out of the significand increments the exponent, which is the
  // correct result, including overflow to infinity; it can never reach the sign bit.
  const uint32_t guard = (flushed >> 15) & 1u;
  const uint32_t sticky = (flushed & 0x7FFFu) != 0 ? 1u : 0u;
  const uint32_t round_up = guard & (sticky | ((flushed >> 16) & 1u));
  return static_cast<Bf16>((flushed >> 16) + round_up);
}

inline constexpr F32 fp32_max(F32 a, F32 b) {
  if (is_nan32(a) || is_nan32(b)) return kCanonicalNaN32;
  const F32 x = daz32(a);
  const F32 y = daz32(b);
  return order_key32(x) >= order_key32(y) ? x : y;
}

inline constexpr F32 fp32_min(F32 a, F32 b) {
  if (is_nan32(a) || is_nan32(b)) return kCanonicalNaN32;
  const F32 x = daz32(a);
  const F32 y = daz32(b);
  return order_key32(x) <= order_key32(y) ? x : y;
}

inline float bits_to_float(F32 x) {
  float f;
  std::memcpy(&f, &x, sizeof f);
  return f;
}

inline F32 float_to_bits(float f) {
  F32 x;
  std::memcpy(&x, &f, sizeof x);
  return x;
}

#if KCRAFT_ARITH_NATIVE_SSE
// Forgetting the guard only changes results with subnormal operands or results, which makes it an easy bug
// to miss; debug builds check the MXCSR on every native operation.
inline bool sse_env_ok() {
  const unsigned csr = _mm_getcsr();
  return (csr & 0xE040u) == 0x8040u;  // FTZ (0x8000) and DAZ (0x0040) set, RC (0x6000) = nearest
}

// The instructions are issued through asm so the compiler cannot constant-fold or simplify them under its
// model of the default environment: it knows nothing of FTZ/DAZ and would, for example, fold x * 1.0f to a
// subnormal x or evaluate a product of constants with gradual underflow.
inline float sse_add(float a, float b) {
  assert(sse_env_ok());
  asm("addss %1, %0" : "+x"(a) : "x"(b));
  return a;
}
inline float sse_sub(float a, float b) {
  assert(sse_env_ok());
  asm("subss %1, %0" : "+x"(a) : "x"(b));
  return a;
}
inline float sse_mul(float a, float b) {
  assert(sse_env_ok());
  asm("mulss %1, %0" : "+x"(a) : "x"(b));
  return a;
}
inline float sse_cvtsi2ss(int32_t x) {
  assert(sse_env_ok());
  float f;
  asm("cvtsi2ssl %1, %0" : "=x"(f) : "r"(x));
  return f;
}
#endif

}  // namespace detail

inline F32 bf16_to_fp32(Bf16 x) {
  return detail::bf16_to_fp32(x);
}
inline Bf16 fp32_to_bf16(F32 x) {
  return detail::fp32_to_bf16(x);
}
inline F32 fp32_max(F32 a, F32 b) {
  return detail::fp32_max(a, b);
}
inline F32 fp32_min(F32 a, F32 b) {
  return detail::fp32_min(a, b);
}

#if KCRAFT_ARITH_NATIVE_SSE
// addss/subss/mulss under FTZ|DAZ|RNE are the definition of the contract; only NaN payloads and signs
// differ (x86 propagates input NaNs and produces the negative default NaN 0xFFC00000), hence the
// canonicalisation. cvtsi2ss rounds with MXCSR.RC, which the guard sets to nearest-even.
inline F32 fp32_add(F32 a, F32 b) {
  return detail::canonicalize_nan32(
      detail::float_to_bits(detail::sse_add(detail::bits_to_float(a), detail::bits_to_float(b))));
}
inline F32 fp32_sub(F32 a, F32 b) {
  return detail::canonicalize_nan32(
      detail::float_to_bits(detail::sse_sub(detail::bits_to_float(a), detail::bits_to_float(b))));
}
inline F32 fp32_mul(F32 a, F32 b) {
  return detail::canonicalize_nan32(
      detail::float_to_bits(detail::sse_mul(detail::bits_to_float(a), detail::bits_to_float(b))));
}
// Widening BF16 is exact and DAZ treats subnormal BF16 inputs like their FP32 widening, so a single mulss
// gives exactly fp32_mul(bf16_to_fp32(a), bf16_to_fp32(b)) (input NaN payloads vanish in the
// canonicalisation).
inline F32 bf16_mul(Bf16 a, Bf16 b) {
  return fp32_mul(static_cast<F32>(a) << 16, static_cast<F32>(b) << 16);
}
inline F32 int32_to_fp32(int32_t x) {
  return detail::float_to_bits(detail::sse_cvtsi2ss(x));
}
#else
inline F32 fp32_add(F32 a, F32 b) {
  return ref::fp32_add(a, b);
}
inline F32 fp32_sub(F32 a, F32 b) {
  return ref::fp32_sub(a, b);
}
inline F32 fp32_mul(F32 a, F32 b) {
  return ref::fp32_mul(a, b);
}
inline F32 bf16_mul(Bf16 a, Bf16 b) {
  return ref::bf16_mul(a, b);
}
inline F32 int32_to_fp32(int32_t x) {
  return ref::int32_to_fp32(x);
}
#endif

inline F32 fp32_exp(F32 x) {
  return ref::fp32_exp(x);
}
inline F32 fp32_reci(F32 x) {
  return ref::fp32_reci(x);
}
inline F32 fp32_rsqrt(F32 x) {
  return ref::fp32_rsqrt(x);
}

}  // namespace kcraft::arith
