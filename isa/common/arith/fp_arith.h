// Bit-exact FP32/BF16 arithmetic shared by the functional models and the RTL.
//
// Every function here has a twin in rtl/common/kc_fp_pkg.sv that produces the same bits for every input.
// The semantics are those of x86 SSE with MXCSR.FTZ = MXCSR.DAZ = 1 and round-to-nearest-even, plus:
//   - subnormal inputs are read as zero of the same sign (DAZ), subnormal results become signed zero (FTZ);
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

#include <cstdint>

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

 private:
  unsigned saved_mxcsr_;
};

// Conversions.
F32 bf16_to_fp32(Bf16 x);  // exact widening; subnormal -> signed zero; NaN -> canonical
Bf16 fp32_to_bf16(F32 x);  // round to nearest even; subnormal input -> signed zero; NaN -> canonical
F32 int32_to_fp32(int32_t x);  // round to nearest even

// Host-side helpers (not hardware operations): exact views and rounding from double.
float f32_to_float(F32 x);
F32 float_to_f32(float x);
double bf16_to_double(Bf16 x);  // exact value of the BF16 (after DAZ)
Bf16 double_to_bf16(double x);  // single round-to-nearest-even from double, FTZ, canonical NaN
F32 double_to_fp32(double x);   // single round-to-nearest-even from double, FTZ, canonical NaN

// Arithmetic (fast path; needs an FpEnvGuard).
F32 fp32_add(F32 a, F32 b);
F32 fp32_sub(F32 a, F32 b);
F32 fp32_mul(F32 a, F32 b);
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
F32 fp32_max(F32 a, F32 b);
F32 fp32_min(F32 a, F32 b);
F32 fp32_exp(F32 x);
F32 fp32_reci(F32 x);
F32 fp32_rsqrt(F32 x);
F32 fp32_sqrt(F32 x);
}  // namespace ref

}  // namespace kcraft::arith
