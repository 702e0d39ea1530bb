// Conversions: hand-checked values, exhaustive BF16 widening, FP32 -> BF16 rounding against the
// independent double path, and the host helpers double_to_bf16/double_to_fp32 against independent
// oracles (interval midpoints; x86 cvtsd2ss under FTZ).
#include <gtest/gtest.h>

#include <cfloat>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <random>

#include "isa/common/arith/fp_arith.h"

namespace kcraft::arith {
namespace {

double value_of(F32 x) {
  return static_cast<double>(f32_to_float(x));
}

TEST(Conversions, HandCheckedFp32ToBf16) {
  EXPECT_EQ(fp32_to_bf16(0x3F800000u), 0x3F80u);          // 1.0
  EXPECT_EQ(fp32_to_bf16(0xC0200000u), 0xC020u);          // -2.5
  EXPECT_EQ(fp32_to_bf16(0x477FE000u), 0x4780u);          // 65504 rounds up to 65536
  EXPECT_EQ(fp32_to_bf16(0x3F808000u), 0x3F80u);          // tie, even stays
  EXPECT_EQ(fp32_to_bf16(0x3F818000u), 0x3F82u);          // tie, odd rounds up
  EXPECT_EQ(fp32_to_bf16(0x3F808001u), 0x3F81u);          // just above the tie
  EXPECT_EQ(fp32_to_bf16(0x3F817FFFu), 0x3F81u);          // just below the tie
  EXPECT_EQ(fp32_to_bf16(0xBF818000u), 0xBF82u);          // negative tie
  EXPECT_EQ(fp32_to_bf16(0x7F800000u), 0x7F80u);          // +inf
  EXPECT_EQ(fp32_to_bf16(0xFF800000u), 0xFF80u);          // -inf
  EXPECT_EQ(fp32_to_bf16(0x7F800001u), kCanonicalNaN16);  // signalling NaN
  EXPECT_EQ(fp32_to_bf16(0xFFC12345u), kCanonicalNaN16);
  EXPECT_EQ(fp32_to_bf16(0x7F7FFFFFu), 0x7F80u);  // FLT_MAX overflows to inf
  EXPECT_EQ(fp32_to_bf16(0x7F7F8000u), 0x7F80u);  // tie at the top, odd: inf
  EXPECT_EQ(fp32_to_bf16(0x7F7F7FFFu), 0x7F7Fu);
  EXPECT_EQ(fp32_to_bf16(0x00000001u), 0x0000u);  // subnormal input: signed zero
  EXPECT_EQ(fp32_to_bf16(0x807FFFFFu), 0x8000u);  // would round to -FLT_MIN without DAZ
  EXPECT_EQ(fp32_to_bf16(0x00800000u), 0x0080u);  // FLT_MIN
  EXPECT_EQ(fp32_to_bf16(0x80000000u), 0x8000u);
  EXPECT_EQ(ref::fp32_to_bf16(0x3F818000u), 0x3F82u);
}

TEST(Conversions, HandCheckedBf16ToFp32) {
  EXPECT_EQ(bf16_to_fp32(0x3F80u), 0x3F800000u);
  EXPECT_EQ(bf16_to_fp32(0xC020u), 0xC0200000u);
  EXPECT_EQ(bf16_to_fp32(0x7F80u), 0x7F800000u);
  EXPECT_EQ(bf16_to_fp32(0xFF80u), 0xFF800000u);
  EXPECT_EQ(bf16_to_fp32(0x7F81u), kCanonicalNaN32);
  EXPECT_EQ(bf16_to_fp32(0xFFC0u), kCanonicalNaN32);
  EXPECT_EQ(bf16_to_fp32(0x0001u), 0x00000000u);  // subnormal: signed zero
  EXPECT_EQ(bf16_to_fp32(0x807Fu), 0x80000000u);
  EXPECT_EQ(bf16_to_fp32(0x0080u), 0x00800000u);
  EXPECT_EQ(bf16_to_double(0x4049u), 3.140625);
  EXPECT_EQ(bf16_to_double(0x0001u), 0.0);
}

TEST(Conversions, Bf16ToFp32IsExactForAllValues) {
  for (uint32_t x = 0; x < 0x10000u; ++x) {
    const auto b = static_cast<Bf16>(x);
    const F32 wide = bf16_to_fp32(b);
    ASSERT_EQ(wide, ref::bf16_to_fp32(b));
    const uint32_t e = (x >> 7) & 0xFFu;
    const uint32_t frac = x & 0x7Fu;
    if (e == 0xFF && frac != 0) {
      ASSERT_EQ(wide, kCanonicalNaN32);
    } else if (e == 0) {
      ASSERT_EQ(wide, (x & 0x8000u) << 16);
    } else {
      ASSERT_EQ(wide, x << 16);
      ASSERT_EQ(fp32_to_bf16(wide), b);  // round trip
    }
  }
}

// fp32_to_bf16 (integer rounding) against double_to_bf16 (rounding from the exact value): identical for
// every normal input, since rounding a normal value can never produce a subnormal.
TEST(Conversions, Fp32ToBf16MatchesDoubleRounding) {
  std::mt19937_64 rng(11);
  auto check = [](F32 x) {
    const uint32_t e = (x >> 23) & 0xFFu;
    if (e == 0 || e == 0xFF) return;
    ASSERT_EQ(fp32_to_bf16(x), double_to_bf16(value_of(x))) << std::hex << x;
  };
  for (uint32_t high = 0; high < 0x10000u; ++high) {  // every BF16 neighbourhood, at the rounding edges
    for (uint32_t low : {0x0000u, 0x0001u, 0x7FFFu, 0x8000u, 0x8001u, 0xFFFFu}) check((high << 16) | low);
  }
  for (int i = 0; i < 2'000'000; ++i) check(static_cast<F32>(rng()));
}

// Independent oracle for double_to_bf16: consecutive BF16 values lo < hi bound an interval whose midpoint
// is exact in double; values below it round to lo, above it to hi, and the midpoint to the even one.
TEST(Conversions, DoubleToBf16AgainstIntervalMidpoints) {
  std::mt19937_64 rng(12);
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  for (uint32_t sign = 0; sign < 2; ++sign) {
    const double s = sign != 0 ? -1.0 : 1.0;
    for (uint32_t lo_bits = 0x0080u; lo_bits < 0x7F80u; ++lo_bits) {
      const auto lo = static_cast<Bf16>(lo_bits | (sign << 15));
      const auto hi = static_cast<Bf16>(lo + 1);  // 0x7F80 (inf) stands for 2^128 at the top
      const double lo_value = std::fabs(bf16_to_double(lo));
      const double hi_value = lo_bits + 1 == 0x7F80u ? std::ldexp(1.0, 128) : std::fabs(bf16_to_double(hi));
      const double mid = (lo_value + hi_value) / 2;
      const Bf16 even = (lo_bits & 1u) == 0 ? lo : hi;
      ASSERT_EQ(double_to_bf16(s * lo_value), lo);
      ASSERT_EQ(double_to_bf16(s * mid), even) << std::hex << lo;
      ASSERT_EQ(double_to_bf16(s * std::nextafter(mid, 0.0)), lo) << std::hex << lo;
      ASSERT_EQ(double_to_bf16(s * std::nextafter(mid, INFINITY)), hi) << std::hex << lo;
      const double below = lo_value + (mid - lo_value) * unit(rng);
      const double above = mid + (hi_value - mid) * unit(rng);
      if (below < mid) {
        ASSERT_EQ(double_to_bf16(s * below), lo) << below;
      }
      if (above > mid) {
        ASSERT_EQ(double_to_bf16(s * above), hi) << above;
      }
    }
    // Below FLT_MIN: rounding to 8 bits with an unbounded exponent, then FTZ (tininess after rounding).
    const double flt_min = std::ldexp(1.0, -126);
    const double underflow_mid = flt_min * (1 - std::ldexp(1.0, -9));
    const auto signed_zero = static_cast<Bf16>(sign << 15);
    const auto signed_min = static_cast<Bf16>((sign << 15) | 0x0080u);
    EXPECT_EQ(double_to_bf16(s * underflow_mid), signed_min);  // tie to even (2^-126)
    EXPECT_EQ(double_to_bf16(s * std::nextafter(underflow_mid, 0.0)), signed_zero);
    EXPECT_EQ(double_to_bf16(s * std::ldexp(1.0, -130)), signed_zero);
    EXPECT_EQ(double_to_bf16(s * 4.9e-324), signed_zero);  // subnormal double
    EXPECT_EQ(double_to_bf16(s * 1e300), static_cast<Bf16>((sign << 15) | 0x7F80u));
    EXPECT_EQ(double_to_bf16(s * INFINITY), static_cast<Bf16>((sign << 15) | 0x7F80u));
    EXPECT_EQ(double_to_bf16(s * 0.0), signed_zero);
  }
  EXPECT_EQ(double_to_bf16(NAN), kCanonicalNaN16);
  EXPECT_EQ(double_to_bf16(-NAN), kCanonicalNaN16);
  EXPECT_EQ(double_to_bf16(65504.0), 0x4780u);
  EXPECT_EQ(double_to_bf16(-2.5), 0xC020u);
}

// double_to_fp32 must equal x86 cvtsd2ss under FTZ|DAZ|RNE (canonical NaN aside) for every double.
TEST(Conversions, DoubleToFp32MatchesCvtsd2ssUnderFtz) {
  FpEnvGuard guard;
  std::mt19937_64 rng(13);
  auto native = [](double x) {
    asm volatile("" : "+x"(x));  // keep the conversion at run time, under the guard
    return detail::canonicalize_nan32(float_to_f32(static_cast<float>(x)));
  };
  for (int i = 0; i < 2'000'000; ++i) {
    // Doubles spread over (and beyond) the FP32 range, plus values right at FP32 rounding boundaries.
    uint64_t raw = rng();
    const uint64_t biased = 1023 - 160 + (raw >> 52) % 330;
    raw = (raw & 0x800FFFFFFFFFFFFFull) | (biased << 52);
    if (i % 4 == 0) raw = (raw & ~0x1FFFFFFFull) | (uint64_t{1} << 28);  // an exact tie for FP32
    double x;
    std::memcpy(&x, &raw, sizeof x);
    ASSERT_EQ(double_to_fp32(x), native(x)) << std::hexfloat << x;
  }
  // Around FLT_MIN, where FTZ tininess matters: 2^-126 - 2^-150 rounds (24 bits) to itself and is flushed,
  // 2^-126 (1 - 2^-25) is a tie that rounds to 2^-126.
  const double flt_min = std::ldexp(1.0, -126);
  for (double x : {flt_min, flt_min * (1 - std::ldexp(1.0, -25)), flt_min - std::ldexp(1.0, -150),
                   std::nextafter(flt_min * (1 - std::ldexp(1.0, -25)), 0.0), -flt_min * 0.75, 1e-45}) {
    EXPECT_EQ(double_to_fp32(x), native(x)) << std::hexfloat << x;
  }
  EXPECT_EQ(double_to_fp32(flt_min * (1 - std::ldexp(1.0, -25))), 0x00800000u);
  EXPECT_EQ(double_to_fp32(flt_min - std::ldexp(1.0, -150)), 0u);
  EXPECT_EQ(double_to_fp32(-1e-45), 0x80000000u);
  EXPECT_EQ(double_to_fp32(1e39), 0x7F800000u);
  EXPECT_EQ(double_to_fp32(-NAN), kCanonicalNaN32);
  EXPECT_EQ(double_to_fp32(1.0 / 3.0), 0x3EAAAAABu);
  EXPECT_EQ(double_to_fp32(4.9e-324), 0u);
}

}  // namespace
}  // namespace kcraft::arith
