// Spec expressions and the deterministic random number generation behind task inputs.
#include <gtest/gtest.h>

#include <cmath>
#include <map>

#include "tasks/common/expr.h"
#include "tasks/common/rng.h"

namespace kcraft::tasks {
namespace {

double eval(const std::string& text, const std::map<std::string, double>& names = {}) {
  return Expr::parse(text).eval([&](const std::string& name) -> std::optional<double> {
    auto it = names.find(name);
    if (it == names.end()) return std::nullopt;
    return it->second;
  });
}

TEST(Expr, PrecedenceFunctionsAndNames) {
  EXPECT_EQ(eval("2*M*N*K", {{"M", 3}, {"N", 5}, {"K", 7}}), 210.0);
  EXPECT_EQ(eval("1 + 2 * 3 - 4 / 2"), 5.0);
  EXPECT_EQ(eval("(1 + 2) * 3"), 9.0);
  EXPECT_EQ(eval("-2 * -3"), 6.0);
  EXPECT_EQ(eval("8 - 2 - 1"), 5.0);  // left associative
  EXPECT_EQ(eval("16 / 4 / 2"), 2.0);
  EXPECT_EQ(eval("1/sqrt(K)", {{"K", 64}}), 0.125);
  EXPECT_EQ(eval("min(3, 4) + max(3, 4) + ceil(1.5) + floor(1.5) + log2(8)"), 3 + 4 + 2 + 1 + 3);
  EXPECT_EQ(eval("1e-5"), 1e-5);
  EXPECT_EQ(eval(" 2.5e1 "), 25.0);
  EXPECT_EQ(Expr::parse("K").as_name(), std::optional<std::string>("K"));
  EXPECT_FALSE(Expr::parse("2*K").as_name());
  EXPECT_EQ(Expr::parse("M*N + M").names(), (std::vector<std::string>{"M", "N"}));
  EXPECT_EQ(Expr::constant(1e-5).text(), "1e-05");
  EXPECT_EQ(shortest_double(0.1), "0.1");
  EXPECT_EQ(shortest_double(256.0), "256");
}

TEST(Expr, ErrorsSayWhatAndWhere) {
  auto message = [](const std::string& text) {
    try {
      eval(text, {{"M", 1}});
    } catch (const ExprError& error) {
      return std::string(error.what());
    }
    return std::string("no error");
  };
  EXPECT_EQ(message("2*M)"), "unexpected ')' at column 4 in '2*M)'");
  EXPECT_EQ(message("2*"), "expression ends early at column 3 in '2*'");
  EXPECT_EQ(message("(M"), "expected ')' at column 3 in '(M'");
  EXPECT_EQ(message("M $ 2"), "unexpected '$' at column 3 in 'M $ 2'");
  EXPECT_EQ(message("foo(2)"),
            "unknown function 'foo' (known: sqrt, min, max, ceil, floor, log2) at column 1 in 'foo(2)'");
  EXPECT_EQ(message("max(1)"), "max takes 2 argument(s), got 1 at column 7 in 'max(1)'");
  EXPECT_EQ(message("Q + 1"), "unknown name 'Q'");
  EXPECT_EQ(message(""), "empty expression at column 1 in ''");
}

TEST(Rng, Fnv1aKnownVectors) {
  // Reference values of 64-bit FNV-1a.
  EXPECT_EQ(fnv1a64(""), 0xcbf29ce484222325ull);
  EXPECT_EQ(fnv1a64("a"), 0xaf63dc4c8601ec8cull);
  EXPECT_EQ(fnv1a64("foobar"), 0x85944171f73967e8ull);
}

TEST(Rng, SplitmixAndXoshiroKnownVectors) {
  // splitmix64 from state 0 (reference implementation by Vigna): first outputs.
  uint64_t state = 0;
  EXPECT_EQ(splitmix64_next(state), 0xe220a8397b1dcdafull);
  EXPECT_EQ(splitmix64_next(state), 0x6e789e6aa1b965f4ull);
  // Same key, same stream; different keys, different streams.
  Xoshiro256 a(42), b(42), c(43);
  for (int i = 0; i < 100; ++i) {
    uint64_t x = a.next();
    EXPECT_EQ(x, b.next());
    EXPECT_NE(x, c.next());
  }
}

TEST(Rng, StreamKeysSeparateEveryField) {
  const uint64_t base = stream_key(1, "gemm", "C1", "A");
  EXPECT_EQ(base, stream_key(1, "gemm", "C1", "A"));
  EXPECT_NE(base, stream_key(2, "gemm", "C1", "A"));
  EXPECT_NE(base, stream_key(1, "gemv", "C1", "A"));
  EXPECT_NE(base, stream_key(1, "gemm", "C2", "A"));
  EXPECT_NE(base, stream_key(1, "gemm", "C1", "B"));
  EXPECT_NE(stream_key(1, "ab", "c", "x"), stream_key(1, "a", "bc", "x"));
}

TEST(Rng, PortableLogAndTrigAreAccurate) {
  // Only determinism matters for inputs, but the normal sampler needs correct shapes: stay within a few ulp.
  for (double x : {1e-300, 1e-16, 0.001, 0.25, 0.5, 0.7, 0.70710678, 0.9999999, 1.0, 1.5, 2.0, 1e10}) {
    EXPECT_NEAR(portable_log(x), std::log(x), 4e-16 * std::max(1.0, std::fabs(std::log(x)))) << x;
  }
  for (int i = 0; i < 1000; ++i) {
    const double turns = i / 1000.0;
    double c = 0, s = 0;
    portable_cos_sin_turns(turns, c, s);
    EXPECT_NEAR(c, std::cos(2 * M_PI * turns), 1e-15) << turns;
    EXPECT_NEAR(s, std::sin(2 * M_PI * turns), 1e-15) << turns;
  }
}

TEST(Rng, NormalSamplerHasUnitMomentsAndUniformCoversTheInterval) {
  NormalSampler sampler(stream_key(5, "t", "C1", "x"));
  const int n = 200000;
  double sum = 0, sum_sq = 0, sum_4 = 0;
  int beyond_3 = 0;
  for (int i = 0; i < n; ++i) {
    const double z = sampler.next();
    sum += z;
    sum_sq += z * z;
    sum_4 += z * z * z * z;
    beyond_3 += std::fabs(z) > 3 ? 1 : 0;
  }
  EXPECT_NEAR(sum / n, 0.0, 0.01);
  EXPECT_NEAR(sum_sq / n, 1.0, 0.015);
  EXPECT_NEAR(sum_4 / n, 3.0, 0.1);  // kurtosis of a normal
  EXPECT_NEAR(beyond_3 / double(n), 0.0027, 0.0008);
  Xoshiro256 rng(9);
  double lo = 1, hi = 0;
  for (int i = 0; i < 100000; ++i) {
    const double u = rng.uniform();
    ASSERT_GE(u, 0.0);
    ASSERT_LT(u, 1.0);
    lo = std::min(lo, u);
    hi = std::max(hi, u);
    const double v = rng.uniform_open_zero();
    ASSERT_GT(v, 0.0);
    ASSERT_LE(v, 1.0);
  }
  EXPECT_LT(lo, 1e-4);
  EXPECT_GT(hi, 1 - 1e-4);
}

}  // namespace
}  // namespace kcraft::tasks
