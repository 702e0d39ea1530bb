// fast path == ref (integer mirror of the RTL) == native x86 SSE under FTZ|DAZ|RNE, bit for bit.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>

#include "isa/common/arith/fp_arith.h"
#include "tests/arith/arith_test_util.h"

namespace kcraft::arith {
namespace {

using testing::EdgeCaseGenerator;
using testing::kSpecialValues;
using testing::native_add;
using testing::native_int32_to_fp32;
using testing::native_mul;
using testing::native_sub;

constexpr int kRandomPairs = 3'000'000;

TEST(FastRefNative, GuardSetsAndRestoresMxcsr) {
  const unsigned before = _mm_getcsr();
  {
    FpEnvGuard guard;
    EXPECT_TRUE(FpEnvGuard::active());
  }
  EXPECT_EQ(_mm_getcsr(), before);
}

#ifndef NDEBUG
TEST(FastRefNativeDeathTest, NativeOpsWithoutGuardAbortInDebugBuilds) {
  ASSERT_FALSE(FpEnvGuard::active());  // the test process runs with the default MXCSR
  EXPECT_DEATH(fp32_add(0x3F800000u, 0x3F800000u), "sse_env_ok");
  EXPECT_DEATH(bf16_mul(0x3F80u, 0x3F80u), "sse_env_ok");
}
#endif

TEST(FastRefNative, AddSubMulOnEdgeBiasedRandomPairs) {
  FpEnvGuard guard;
  EdgeCaseGenerator gen(1);
  for (int i = 0; i < kRandomPairs; ++i) {
    const auto [a, b] = gen.pair();
    const F32 expected_add = native_add(a, b);
    ASSERT_EQ(ref::fp32_add(a, b), expected_add) << std::hex << a << " + " << b;
    ASSERT_EQ(fp32_add(a, b), expected_add) << std::hex << a << " + " << b;
    const F32 expected_sub = native_sub(a, b);
    ASSERT_EQ(ref::fp32_sub(a, b), expected_sub) << std::hex << a << " - " << b;
    ASSERT_EQ(fp32_sub(a, b), expected_sub) << std::hex << a << " - " << b;
    const F32 expected_mul = native_mul(a, b);
    ASSERT_EQ(ref::fp32_mul(a, b), expected_mul) << std::hex << a << " * " << b;
    ASSERT_EQ(fp32_mul(a, b), expected_mul) << std::hex << a << " * " << b;
  }
}

TEST(FastRefNative, AllPairsOfSpecialValues) {
  FpEnvGuard guard;
  for (F32 a : kSpecialValues) {
    for (F32 b : kSpecialValues) {
      ASSERT_EQ(ref::fp32_add(a, b), native_add(a, b)) << std::hex << a << " + " << b;
      ASSERT_EQ(fp32_add(a, b), native_add(a, b)) << std::hex << a << " + " << b;
      ASSERT_EQ(ref::fp32_sub(a, b), native_sub(a, b)) << std::hex << a << " - " << b;
      ASSERT_EQ(fp32_sub(a, b), native_sub(a, b)) << std::hex << a << " - " << b;
      ASSERT_EQ(ref::fp32_mul(a, b), native_mul(a, b)) << std::hex << a << " * " << b;
      ASSERT_EQ(fp32_mul(a, b), native_mul(a, b)) << std::hex << a << " * " << b;
    }
  }
}

TEST(FastRefNative, HandCheckedSpecialResults) {
  FpEnvGuard guard;
  const F32 kInf = 0x7F800000u;
  const F32 kNegInf = 0xFF800000u;
  EXPECT_EQ(fp32_sub(kInf, kInf), kCanonicalNaN32);  // x86 would give 0xFFC00000
  EXPECT_EQ(ref::fp32_sub(kInf, kInf), kCanonicalNaN32);
  EXPECT_EQ(fp32_add(kInf, kNegInf), kCanonicalNaN32);
  EXPECT_EQ(fp32_mul(0x00000000u, kInf), kCanonicalNaN32);
  EXPECT_EQ(ref::fp32_mul(0x00000001u, kInf), kCanonicalNaN32);     // DAZ: subnormal * inf = 0 * inf
  EXPECT_EQ(fp32_add(0xFFC00001u, 0x3F800000u), kCanonicalNaN32);   // payload and sign dropped
  EXPECT_EQ(ref::fp32_add(0x80000000u, 0x80000000u), 0x80000000u);  // -0 + -0 = -0
  EXPECT_EQ(ref::fp32_add(0x80000000u, 0x00000000u), 0x00000000u);
  EXPECT_EQ(ref::fp32_sub(0x3F800000u, 0x3F800000u), 0x00000000u);  // x - x = +0
  EXPECT_EQ(ref::fp32_sub(0x80000000u, 0x00000000u), 0x80000000u);  // -0 - +0 = -0
  EXPECT_EQ(ref::fp32_add(0x80000001u, 0x00000000u), 0x00000000u);  // DAZ: -0 + +0
  EXPECT_EQ(ref::fp32_add(0x7F7FFFFFu, 0x7F7FFFFFu), kInf);         // overflow
  EXPECT_EQ(ref::fp32_add(0x3F800000u, 0x33800000u), 0x3F800000u);  // 1 + 2^-24: tie to even
  EXPECT_EQ(ref::fp32_add(0x3F800001u, 0x33800000u), 0x3F800002u);  // tie to even, upwards
  EXPECT_EQ(ref::fp32_sub(0x00800001u, 0x00800000u), 0x00000000u);  // 2^-149: FTZ
  EXPECT_EQ(ref::fp32_mul(0x3F800000u, 0x00800000u), 0x00800000u);
  EXPECT_EQ(ref::fp32_mul(0x3F000000u, 0x00800000u), 0x00000000u);  // exact 2^-127: FTZ
  EXPECT_EQ(ref::fp32_mul(0xBF000000u, 0x00800000u), 0x80000000u);  // signed zero
  EXPECT_EQ(ref::fp32_mul(0x7F000000u, 0x40000000u), kInf);
  EXPECT_EQ(ref::fp32_mul(0xFF000000u, 0x40000000u), kNegInf);
}

// The fast path must not be constant-folded by the compiler (which ignores FTZ/DAZ): these calls have
// literal arguments on purpose.
TEST(FastRefNative, ConstantArgumentsStillFlush) {
  FpEnvGuard guard;
  EXPECT_EQ(fp32_mul(0x00000001u, 0x3F800000u), 0u);  // subnormal * 1.0
  EXPECT_EQ(fp32_mul(0x00800000u, 0x3F000000u), 0u);  // 2^-126 * 0.5
  EXPECT_EQ(fp32_sub(0x00000001u, 0x00000000u), 0u);  // subnormal - 0
  EXPECT_EQ(fp32_add(0x80000001u, 0x00000000u), 0u);  // -subnormal + 0 = -0 + +0 = +0
  EXPECT_EQ(fp32_sub(0x00800001u, 0x00800000u), 0u);  // subnormal difference
  EXPECT_EQ(bf16_mul(0x0001u, 0x3F80u), 0u);          // subnormal BF16 * 1.0
  EXPECT_EQ(bf16_mul(0x0080u, 0x3F00u), 0u);          // 2^-126 * 0.5
  EXPECT_EQ(fp32_mul(0x7F800000u, 0x00000001u), kCanonicalNaN32);
}

// x86 detects tininess for FTZ *after* rounding to 24 bits with an unbounded exponent. Products whose
// exact value lies in [2^-126 (1 - 2^-25), 2^-126) round up to 2^-126 and are kept; products in
// [2^-126 - 2^-150, 2^-126 (1 - 2^-25)) round to 2^-126 - 2^-150 and are flushed, although rounding to the
// subnormal grid (what happens without FTZ) would have given the normal 2^-126.
TEST(FastRefNative, FtzTininessIsDetectedAfterRounding) {
  FpEnvGuard guard;
  // a = ma * 2^-23 * 2^-1, b = mb * 2^-23 * 2^-126: the product is P * 2^-173 with P = ma * mb; 2^-126 is
  // P = 2^47 and the 24-bit grid below it has spacing 2^23.
  const uint64_t threshold = uint64_t{1} << 47;
  const uint64_t round_up_from = threshold - (uint64_t{1} << 22);  // midpoint; ties go to even 2^-126
  const uint64_t subnormal_round_up_from = threshold - (uint64_t{1} << 23);
  int kept = 0;
  int flushed = 0;
  int flushed_but_subnormal_rounding_is_normal = 0;
  for (uint64_t ma = 0xB504F3u - 20000; ma < 0xB504F3u + 20000; ++ma) {  // around sqrt(2) * 2^23
    for (uint64_t target : {subnormal_round_up_from - 1, subnormal_round_up_from, round_up_from - 1,
                            round_up_from, threshold - 1}) {
      const uint64_t mb = (target + ma - 1) / ma;  // smallest mb with ma * mb >= target
      const uint64_t product = ma * mb;
      if (mb >= (1u << 24) || product >= threshold) continue;
      const F32 a = (126u << 23) | static_cast<F32>(ma & 0x7FFFFFu);
      const F32 b = (1u << 23) | static_cast<F32>(mb & 0x7FFFFFu);
      const F32 expected = product >= round_up_from ? 0x00800000u : 0u;
      ASSERT_EQ(native_mul(a, b), expected) << std::hex << a << " * " << b;
      ASSERT_EQ(ref::fp32_mul(a, b), expected) << std::hex << a << " * " << b;
      ASSERT_EQ(fp32_mul(a, b), expected) << std::hex << a << " * " << b;
      if (expected != 0) {
        ++kept;
      } else {
        ++flushed;
        if (product >= subnormal_round_up_from) ++flushed_but_subnormal_rounding_is_normal;
      }
    }
  }
  // Each class must actually have been exercised.
  EXPECT_GT(kept, 1000);
  EXPECT_GT(flushed, 1000);
  EXPECT_GT(flushed_but_subnormal_rounding_is_normal, 1000);
}

TEST(FastRefNative, Bf16MulOnRandomPairs) {
  FpEnvGuard guard;
  EdgeCaseGenerator gen(2);
  for (int i = 0; i < kRandomPairs; ++i) {
    const auto a = static_cast<Bf16>(gen.bits());
    const auto b = static_cast<Bf16>(gen.bits());
    const F32 expected = native_mul(F32{a} << 16, F32{b} << 16);
    ASSERT_EQ(ref::bf16_mul(a, b), expected) << std::hex << a << " * " << b;
    ASSERT_EQ(bf16_mul(a, b), expected) << std::hex << a << " * " << b;
  }
}

TEST(FastRefNative, Int32ToFp32) {
  FpEnvGuard guard;
  EdgeCaseGenerator gen(3);
  for (int i = 0; i < kRandomPairs; ++i) {
    // Random magnitudes of every size, so every rounding position is covered.
    const auto x = static_cast<int32_t>(gen.bits()) >> gen.below(32);
    ASSERT_EQ(ref::int32_to_fp32(x), native_int32_to_fp32(x)) << x;
    ASSERT_EQ(int32_to_fp32(x), native_int32_to_fp32(x)) << x;
  }
  for (int shift = 0; shift < 31; ++shift) {
    for (int32_t delta = -300; delta <= 300; ++delta) {
      for (int32_t sign : {1, -1}) {
        const auto x = static_cast<int32_t>(sign * ((int64_t{1} << shift) + delta));
        ASSERT_EQ(ref::int32_to_fp32(x), native_int32_to_fp32(x)) << x;
      }
    }
  }
  EXPECT_EQ(ref::int32_to_fp32(0), 0u);
  EXPECT_EQ(ref::int32_to_fp32(1), 0x3F800000u);
  EXPECT_EQ(ref::int32_to_fp32(-1), 0xBF800000u);
  EXPECT_EQ(ref::int32_to_fp32(INT32_MAX), 0x4F000000u);  // rounds up to 2^31
  EXPECT_EQ(ref::int32_to_fp32(INT32_MIN), 0xCF000000u);
  EXPECT_EQ(ref::int32_to_fp32(16777217), 0x4B800000u);  // 2^24 + 1: tie to even (down)
  EXPECT_EQ(ref::int32_to_fp32(16777219), 0x4B800002u);  // 2^24 + 3: tie to even (up)
}

// Independent oracle for max/min: numeric comparison in double after DAZ, -0 < +0.
F32 oracle_max_min(F32 a, F32 b, bool want_max) {
  const F32 x = detail::daz32(a);
  const F32 y = detail::daz32(b);
  if (std::isnan(f32_to_float(a)) || std::isnan(f32_to_float(b))) return kCanonicalNaN32;
  const double dx = f32_to_float(x);
  const double dy = f32_to_float(y);
  if (dx == dy) {
    if (dx != 0.0) return x;
    const bool x_positive = !std::signbit(dx);
    if (want_max) return x_positive ? x : y;
    return x_positive ? y : x;
  }
  return (dx > dy) == want_max ? x : y;
}

TEST(FastRefNative, MaxMinAgainstDoubleComparison) {
  EdgeCaseGenerator gen(4);
  for (int i = 0; i < kRandomPairs; ++i) {
    const auto [a, b] = gen.pair();
    ASSERT_EQ(ref::fp32_max(a, b), oracle_max_min(a, b, true)) << std::hex << a << " " << b;
    ASSERT_EQ(fp32_max(a, b), oracle_max_min(a, b, true)) << std::hex << a << " " << b;
    ASSERT_EQ(ref::fp32_min(a, b), oracle_max_min(a, b, false)) << std::hex << a << " " << b;
    ASSERT_EQ(fp32_min(a, b), oracle_max_min(a, b, false)) << std::hex << a << " " << b;
  }
  EXPECT_EQ(fp32_max(0x80000000u, 0x00000000u), 0x00000000u);
  EXPECT_EQ(fp32_max(0x00000000u, 0x80000000u), 0x00000000u);
  EXPECT_EQ(fp32_min(0x00000000u, 0x80000000u), 0x80000000u);
  EXPECT_EQ(fp32_min(0x80000000u, 0x00000000u), 0x80000000u);
  EXPECT_EQ(fp32_max(0x7FC00001u, 0x3F800000u), kCanonicalNaN32);
  EXPECT_EQ(fp32_min(0x3F800000u, 0xFF800001u), kCanonicalNaN32);
  EXPECT_EQ(fp32_max(0xFF800000u, 0x7F800000u), 0x7F800000u);
  EXPECT_EQ(fp32_min(0xFF800000u, 0x7F800000u), 0xFF800000u);
  EXPECT_EQ(fp32_max(0x00000001u, 0x80000000u), 0x00000000u);  // DAZ: +subnormal reads as +0
  EXPECT_EQ(fp32_min(0x80000001u, 0x00000000u), 0x80000000u);  // DAZ: -subnormal reads as -0
}

}  // namespace
}  // namespace kcraft::arith
