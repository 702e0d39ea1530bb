// Proof that bf16_mul(a, b) == fp32_mul(bf16_to_fp32(a), bf16_to_fp32(b)) for all 2^32 input pairs.
//
// Coverage argument. Split the pairs by operand class:
//  1. Both operands normal (exponent fields 1..254). The exact product is (-1)^(sa^sb) * (1.fa)(1.fb) *
//     2^(ea+eb-254); both sides of the equation are this value rounded to FP32 (the 16-bit significand
//     product is exact, so only the FTZ and overflow decisions remain) and therefore depend on the
//     exponents only through the sum ea + eb. The implementations compute exactly that: ea and eb enter
//     only via `ea + eb + carries` and via the class checks (exponent field 0 or 255), which are false
//     here. Sweeping all 2^16 sign/significand combinations for every sum 2..508 covers the class; each
//     sum is taken with two different splits (the most unequal ones) so an implementation that wrongly
//     used the individual exponents would be caught.
//  2. At least one operand has exponent field 0 (zero or, with DAZ, a subnormal) or 255 (infinity or
//     NaN): swept exhaustively, i.e. all 512 such values against all 65536 values of the other operand,
//     in both positions.
// Together: every pair of class 1 has a representative with identical inputs to every step of both
// functions, and class 2 is enumerated. Runs in about a second.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>

#include "isa/common/arith/fp_arith.h"

namespace kcraft::arith {
namespace {

Bf16 make_bf16(uint32_t sign, uint32_t biased_exp, uint32_t frac) {
  return static_cast<Bf16>((sign << 15) | (biased_exp << 7) | frac);
}

// Checks both implementations and reports the first mismatch.
::testing::AssertionResult products_agree(Bf16 a, Bf16 b) {
  const F32 expected = ref::fp32_mul(ref::bf16_to_fp32(a), ref::bf16_to_fp32(b));
  const F32 ref_result = ref::bf16_mul(a, b);
  const F32 fast_expected = fp32_mul(bf16_to_fp32(a), bf16_to_fp32(b));
  const F32 fast_result = bf16_mul(a, b);
  if (ref_result == expected && fast_result == expected && fast_expected == expected) {
    return ::testing::AssertionSuccess();
  }
  return ::testing::AssertionFailure()
         << std::hex << "a=" << a << " b=" << b << " fp32_mul=" << expected << " ref::bf16_mul=" << ref_result
         << " fast fp32_mul=" << fast_expected << " fast bf16_mul=" << fast_result;
}

TEST(Bf16Mul, EqualsFp32MulOfWidenedOperandsForNormalOperands) {
  FpEnvGuard guard;
  uint64_t checked = 0;
  for (uint32_t exp_sum = 2; exp_sum <= 508; ++exp_sum) {
    const uint32_t low = std::max(1u, exp_sum - std::min(exp_sum, 254u));
    const uint32_t high = std::min(254u, exp_sum - 1);
    for (uint32_t ea : {low, high}) {
      const uint32_t eb = exp_sum - ea;
      ASSERT_TRUE(ea >= 1 && ea <= 254 && eb >= 1 && eb <= 254);
      for (uint32_t signs = 0; signs < 4; ++signs) {
        for (uint32_t fa = 0; fa < 128; ++fa) {
          for (uint32_t fb = 0; fb < 128; ++fb) {
            const Bf16 a = make_bf16(signs & 1u, ea, fa);
            const Bf16 b = make_bf16(signs >> 1, eb, fb);
            ASSERT_TRUE(products_agree(a, b));
            ++checked;
          }
        }
      }
    }
  }
  EXPECT_EQ(checked, 507u * 2u * 4u * 128u * 128u);
}

TEST(Bf16Mul, EqualsFp32MulOfWidenedOperandsWhenAnOperandIsZeroSubnormalInfOrNan) {
  FpEnvGuard guard;
  uint64_t checked = 0;
  for (uint32_t special_exp : {0u, 255u}) {
    for (uint32_t sign = 0; sign < 2; ++sign) {
      for (uint32_t frac = 0; frac < 128; ++frac) {
        const Bf16 special = make_bf16(sign, special_exp, frac);
        for (uint32_t other = 0; other < 0x10000u; ++other) {
          ASSERT_TRUE(products_agree(special, static_cast<Bf16>(other)));
          ASSERT_TRUE(products_agree(static_cast<Bf16>(other), special));
          checked += 2;
        }
      }
    }
  }
  EXPECT_EQ(checked, 2u * 2u * 128u * 0x10000u * 2u);
}

TEST(Bf16Mul, HandCheckedValues) {
  EXPECT_EQ(ref::bf16_mul(0x3F80u, 0x3F80u), 0x3F800000u);      // 1 * 1
  EXPECT_EQ(ref::bf16_mul(0xC020u, 0x4000u), 0xC0A00000u);      // -2.5 * 2 = -5
  EXPECT_EQ(ref::bf16_mul(0x3FFFu, 0x3FFFu), 0x407E0100u);      // (2 - 2^-7)^2, exact
  EXPECT_EQ(ref::bf16_mul(0x0080u, 0x3F00u), 0x00000000u);      // 2^-126 * 0.5: FTZ
  EXPECT_EQ(ref::bf16_mul(0x8080u, 0x3F80u), 0x80800000u);      // -2^-126 * 1
  EXPECT_EQ(ref::bf16_mul(0x7F00u, 0x4000u), 0x7F800000u);      // 2^127 * 2: overflow
  EXPECT_EQ(ref::bf16_mul(0x7F80u, 0x0001u), kCanonicalNaN32);  // inf * subnormal (DAZ zero)
  EXPECT_EQ(ref::bf16_mul(0xFF80u, 0xBF80u), 0x7F800000u);      // -inf * -1
  EXPECT_EQ(ref::bf16_mul(0x7FC1u, 0x3F80u), kCanonicalNaN32);
}

}  // namespace
}  // namespace kcraft::arith
