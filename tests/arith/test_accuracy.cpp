// Accuracy of the fixed-point exp/reci/rsqrt (and sqrt = x * rsqrt(x)) against libm in double, plus all
// special values. The worst cases are printed; docs/arithmetic.md quotes them.
//
// Required bounds (relative error, over finite normal inputs whose exact result is a finite normal FP32):
// exp < 2^-21, reci < 2^-22, rsqrt < 2^-22, sqrt < 2^-22.
#include <gtest/gtest.h>

#include <cfloat>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <functional>
#include <random>
#include <string>
#include <vector>

#include "isa/common/arith/fp_arith.h"

namespace kcraft::arith {
namespace {

constexpr int kRandomInputs = 10'000'000;
constexpr F32 kPosInf = 0x7F800000u;
constexpr F32 kNegInf = 0xFF800000u;
constexpr F32 kNegZero = 0x80000000u;

double value_of(F32 x) {
  return static_cast<double>(f32_to_float(x));
}

struct WorstCase {
  double rel_error = 0.0;
  F32 input = 0;
  uint64_t checked = 0;
};

// Checks one result against the exact value `truth`:
//  - truth within the normal range: the result must be a same-signed finite value within the bound;
//  - |truth| above FLT_MAX: infinity of the same sign, or a finite value within the bound;
//  - |truth| below FLT_MIN: zero of the same sign (FTZ), or a normal value within the bound.
::testing::AssertionResult check_result(F32 input, F32 result, double truth, double bound, WorstCase* worst) {
  const double got = value_of(result);
  const bool same_sign = std::signbit(got) == std::signbit(truth);
  const double magnitude = std::fabs(truth);
  const double rel_error = std::isfinite(got) && got != 0.0 ? std::fabs(got - truth) / magnitude : INFINITY;
  const bool within = same_sign && rel_error < bound;
  bool ok;
  if (magnitude >= FLT_MIN && magnitude <= FLT_MAX) {
    ok = within;
    ++worst->checked;
    if (rel_error > worst->rel_error) {
      worst->rel_error = rel_error;
      worst->input = input;
    }
  } else if (magnitude > FLT_MAX) {
    ok = (std::isinf(got) && same_sign) || within;
  } else {
    ok = (got == 0.0 && same_sign) || within;
  }
  if (ok) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure()
         << std::hex << "input 0x" << input << " (" << value_of(input) << ") result 0x" << result << " ("
         << got << "), exact " << truth << ", relative error " << rel_error;
}

// Finite normal inputs: random bit patterns, every exponent with boundary significands, and `extra`.
std::vector<F32> normal_inputs(uint64_t seed, const std::vector<F32>& extra) {
  std::vector<F32> inputs;
  inputs.reserve(kRandomInputs + 200'000);
  std::mt19937_64 rng(seed);
  while (inputs.size() < static_cast<size_t>(kRandomInputs)) {
    const auto x = static_cast<F32>(rng());
    const uint32_t e = (x >> 23) & 0xFFu;
    if (e != 0 && e != 0xFF) inputs.push_back(x);
  }
  for (uint32_t sign = 0; sign < 2; ++sign) {
    for (uint32_t e = 1; e <= 254; ++e) {
      for (uint32_t frac : {0u, 1u, 2u, 0x3FFFFFu, 0x400000u, 0x400001u, 0x7FFFFEu, 0x7FFFFFu}) {
        inputs.push_back((sign << 31) | (e << 23) | frac);
      }
      for (int i = 0; i < 64; ++i) inputs.push_back((sign << 31) | (e << 23) | (rng() & 0x7FFFFFu));
    }
  }
  inputs.insert(inputs.end(), extra.begin(), extra.end());
  return inputs;
}

// `count` consecutive bit patterns on each side of `center`.
std::vector<F32> around(F32 center, uint32_t count) {
  std::vector<F32> values;
  for (uint32_t i = 0; i < count; ++i) {
    values.push_back(center - i);
    values.push_back(center + i);
  }
  return values;
}

void measure(const std::string& name, const std::function<F32(F32)>& fn,
             const std::function<double(double)>& truth, bool positive_only, double bound,
             const std::vector<F32>& extra) {
  WorstCase worst;
  for (F32 x : normal_inputs(42, extra)) {
    if (positive_only) x &= 0x7FFFFFFFu;
    ASSERT_TRUE(check_result(x, fn(x), truth(value_of(x)), bound, &worst)) << name;
  }
  std::printf("%-6s worst relative error 2^%.3f (%.3g) at input 0x%08X (%.9g), %llu inputs in range\n",
              name.c_str(), std::log2(worst.rel_error), worst.rel_error, worst.input, value_of(worst.input),
              static_cast<unsigned long long>(worst.checked));
  ::testing::Test::RecordProperty(name + "_worst_log2_rel_error", std::to_string(std::log2(worst.rel_error)));
  EXPECT_GT(worst.checked, static_cast<uint64_t>(kRandomInputs) / 4);
}

TEST(Accuracy, Exp) {
  std::vector<F32> extra = around(0x42B17218u, 1u << 16);            // ln(FLT_MAX): overflow threshold
  const std::vector<F32> underflow = around(0xC2AEAC50u, 1u << 16);  // ln(FLT_MIN): FTZ threshold
  extra.insert(extra.end(), underflow.begin(), underflow.end());
  // Inputs whose exact result is just above/below 1 and the largest/smallest |x| that is not flushed.
  for (F32 x : {0x33800000u, 0xB3800000u, 0x34000000u, 0xB4000000u, 0x42FFFFFFu, 0xC2FFFFFFu})
    extra.push_back(x);
  measure(
      "exp", [](F32 x) { return fp32_exp(x); }, [](double x) { return std::exp(x); }, false, 0x1p-21, extra);
}

TEST(Accuracy, Reci) {
  // Results around FLT_MIN (x around 2^126) and FLT_MAX (x around 2^-128 is subnormal, so 2^-126).
  std::vector<F32> extra = around(0x7E800000u, 1u << 16);
  const std::vector<F32> large = around(0x7F000000u, 1u << 12);
  extra.insert(extra.end(), large.begin(), large.end());
  measure(
      "reci", [](F32 x) { return fp32_reci(x); }, [](double x) { return 1.0 / x; }, false, 0x1p-22, extra);
}

TEST(Accuracy, Rsqrt) {
  measure(
      "rsqrt", [](F32 x) { return fp32_rsqrt(x); }, [](double x) { return 1.0 / std::sqrt(x); }, true,
      0x1p-22, around(0x3F800000u, 1u << 16));
}

TEST(Accuracy, Sqrt) {
  FpEnvGuard guard;
  measure(
      "sqrt", [](F32 x) { return fp32_sqrt(x); }, [](double x) { return std::sqrt(x); }, true, 0x1p-22,
      around(0x3F800000u, 1u << 16));
}

TEST(Accuracy, SqrtIsXTimesRsqrt) {
  FpEnvGuard guard;
  std::mt19937_64 rng(7);
  for (int i = 0; i < 1'000'000; ++i) {
    const F32 x = static_cast<F32>(rng()) & 0x7FFFFFFFu;
    const uint32_t e = x >> 23;
    if (e == 0 || e == 0xFF) continue;
    ASSERT_EQ(ref::fp32_sqrt(x), ref::fp32_mul(x, ref::fp32_rsqrt(x))) << std::hex << x;
    ASSERT_EQ(fp32_sqrt(x), ref::fp32_sqrt(x)) << std::hex << x;
  }
}

// Powers of two (and of four for rsqrt) come out exact: 2^f is exactly 1 at f = 0 and the Newton-Raphson
// iterates for M = 1 round to 1.
TEST(Accuracy, ExactPowersOfTwo) {
  EXPECT_EQ(fp32_exp(0x00000000u), 0x3F800000u);
  for (int k = -126; k <= 126; ++k) {
    const F32 x = static_cast<F32>(k + 127) << 23;
    const F32 inverse = static_cast<F32>(127 - k) << 23;
    EXPECT_EQ(fp32_reci(x), inverse) << k;
    EXPECT_EQ(fp32_reci(x | 0x80000000u), inverse | 0x80000000u) << k;
    if (k % 2 == 0) {
      EXPECT_EQ(fp32_rsqrt(x), static_cast<F32>(127 - k / 2) << 23) << k;
    }
  }
}

TEST(Accuracy, ExpSpecialValues) {
  EXPECT_EQ(fp32_exp(0x7FC00000u), kCanonicalNaN32);
  EXPECT_EQ(fp32_exp(0xFF800001u), kCanonicalNaN32);
  EXPECT_EQ(fp32_exp(kPosInf), kPosInf);
  EXPECT_EQ(fp32_exp(kNegInf), 0u);
  EXPECT_EQ(fp32_exp(0u), 0x3F800000u);
  EXPECT_EQ(fp32_exp(kNegZero), 0x3F800000u);
  EXPECT_EQ(fp32_exp(0x00000001u), 0x3F800000u);  // DAZ
  EXPECT_EQ(fp32_exp(0x807FFFFFu), 0x3F800000u);
  EXPECT_EQ(fp32_exp(0x42B20000u), kPosInf);      // exp(89) overflows
  EXPECT_EQ(fp32_exp(0x42B17218u), kPosInf);      // just above ln(FLT_MAX)
  EXPECT_EQ(fp32_exp(0x43000000u), kPosInf);      // 128
  EXPECT_EQ(fp32_exp(0xC2B00000u), 0u);           // exp(-88) = 6.05e-39 is subnormal: FTZ
  EXPECT_EQ(fp32_exp(0xC3000000u), 0u);           // -128
  EXPECT_NE(fp32_exp(0xC2AE0000u), 0u);           // exp(-87) = 1.65e-38 is normal
  EXPECT_EQ(fp32_exp(0x3F800000u), 0x402DF854u);  // e, correctly rounded
}

TEST(Accuracy, ReciSpecialValues) {
  EXPECT_EQ(fp32_reci(0x7FC00000u), kCanonicalNaN32);
  EXPECT_EQ(fp32_reci(0u), kPosInf);
  EXPECT_EQ(fp32_reci(kNegZero), kNegInf);
  EXPECT_EQ(fp32_reci(0x00000001u), kPosInf);  // DAZ
  EXPECT_EQ(fp32_reci(0x80400000u), kNegInf);
  EXPECT_EQ(fp32_reci(kPosInf), 0u);
  EXPECT_EQ(fp32_reci(kNegInf), kNegZero);
  EXPECT_EQ(fp32_reci(0x7F000000u), 0u);           // 1/2^127 = 2^-127 is subnormal: FTZ
  EXPECT_EQ(fp32_reci(0xFF7FFFFFu), kNegZero);     // 1/-FLT_MAX
  EXPECT_EQ(fp32_reci(0x7E800000u), 0x00800000u);  // 1/2^126 = FLT_MIN exactly
  EXPECT_EQ(fp32_reci(0x00800000u), 0x7E800000u);  // 1/FLT_MIN = 2^126
  EXPECT_EQ(fp32_reci(0x40400000u), 0x3EAAAAABu);  // 1/3, correctly rounded
}

TEST(Accuracy, RsqrtAndSqrtSpecialValues) {
  FpEnvGuard guard;
  for (F32 x : {0xBF800000u, kNegInf, 0xFF7FFFFFu, 0x80800000u, 0x7FC00000u, 0xFFC00001u}) {
    EXPECT_EQ(fp32_rsqrt(x), kCanonicalNaN32) << std::hex << x;
    EXPECT_EQ(fp32_sqrt(x), kCanonicalNaN32) << std::hex << x;
  }
  EXPECT_EQ(fp32_rsqrt(0u), kPosInf);
  EXPECT_EQ(fp32_rsqrt(kNegZero), kNegInf);
  EXPECT_EQ(fp32_rsqrt(0x00000001u), kPosInf);  // DAZ: +0
  EXPECT_EQ(fp32_rsqrt(0x80000001u), kNegInf);  // DAZ: -0
  EXPECT_EQ(fp32_rsqrt(kPosInf), 0u);
  EXPECT_EQ(fp32_sqrt(0u), 0u);
  EXPECT_EQ(fp32_sqrt(kNegZero), kNegZero);
  EXPECT_EQ(fp32_sqrt(0x00000001u), 0u);
  EXPECT_EQ(fp32_sqrt(0x80000001u), kNegZero);
  EXPECT_EQ(fp32_sqrt(kPosInf), kPosInf);
  EXPECT_EQ(fp32_sqrt(0x40800000u), 0x40000000u);  // sqrt(4) = 2
  EXPECT_EQ(fp32_sqrt(0x3F800000u), 0x3F800000u);
  EXPECT_EQ(fp32_sqrt(0x4E800000u), 0x47000000u);  // sqrt(2^30) = 2^15
}

}  // namespace
}  // namespace kcraft::arith
