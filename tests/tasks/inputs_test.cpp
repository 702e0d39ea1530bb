// Seeded inputs: determinism, exact representability, distributions, speed.
#include <gtest/gtest.h>

#include <chrono>
#include <cmath>
#include <cstring>

#include "tasks/common/inputs.h"
#include "tasks/common/rng.h"
#include "tasks/golden/golden.h"
#include "test_util.h"

namespace kcraft::tasks {
namespace {

// Recorded from the first run; see PinnedFingerprintsGuardCrossPlatformDeterminism.
constexpr uint64_t kPinGemmBf16 = 9844490670724758665ull;
constexpr uint64_t kPinGemmFp32 = 17215555934178949884ull;
constexpr uint64_t kPinSiluBf16 = 14409669295783047667ull;
constexpr uint64_t kPinRopeC5Fp32 = 11136826110699865746ull;
constexpr uint64_t kPinRopeC1Bf16 = 16482903978976719235ull;

uint64_t fingerprint(const std::vector<Tensor>& tensors, DType dtype) {
  uint64_t hash = fnv1a64("");
  for (const Tensor& tensor : tensors) {
    for (double v : tensor.data) {
      const uint32_t bits = dtype_bits(v, dtype);
      hash = fnv1a64(std::string_view(reinterpret_cast<const char*>(&bits), sizeof bits), hash);
    }
  }
  return hash;
}

TEST(Inputs, SameSeedSameBitsDifferentSeedDifferentBits) {
  for (const TaskSpec& spec : testing::registry().tasks()) {
    for (DType dtype : {DType::bf16, DType::fp32}) {
      SCOPED_TRACE(spec.name + " " + std::string(dtype_name(dtype)));
      const auto a = make_inputs(spec, "C2", 1234, dtype);
      const auto b = make_inputs(spec, "C2", 1234, dtype);
      const auto c = make_inputs(spec, "C2", 1235, dtype);
      ASSERT_EQ(a.size(), spec.inputs.size());
      for (std::size_t t = 0; t < a.size(); ++t) {
        EXPECT_EQ(a[t].name, spec.inputs[t].name);
        ASSERT_EQ(a[t].data.size(), b[t].data.size());
        EXPECT_EQ(std::memcmp(a[t].data.data(), b[t].data.data(), a[t].data.size() * sizeof(double)), 0);
        std::size_t differing = 0;
        for (std::size_t i = 0; i < a[t].data.size(); ++i) differing += a[t].data[i] != c[t].data[i] ? 1 : 0;
        // Another seed changes (nearly) every element of a random tensor; rotary tables are fixed.
        const InitDist dist = spec.inputs[t].init.dist;
        if (dist == InitDist::rope_cos || dist == InitDist::rope_sin) {
          EXPECT_EQ(differing, 0u);
        } else {
          EXPECT_GT(differing, a[t].data.size() * 9 / 10);
        }
      }
      // Configs and tensors draw from separate streams.
      const auto other_config = make_inputs(spec, "C1", 1234, dtype);
      EXPECT_NE(other_config[0].data[0], a[0].data[0]);
    }
  }
}

TEST(Inputs, PinnedFingerprintsGuardCrossPlatformDeterminism) {
  // Inputs define the benchmark: these values must never change across compilers, libstdc++/libm versions
  // or machines. If they do, scores are no longer comparable; change the generator only deliberately.
  const TaskSpec& gemm = testing::registry().get("gemm");
  const auto bf16 = make_inputs(gemm, "C1", 12345, DType::bf16);
  const auto fp32 = make_inputs(gemm, "C1", 12345, DType::fp32);
  EXPECT_EQ(fingerprint(bf16, DType::bf16), kPinGemmBf16);
  EXPECT_EQ(fingerprint(fp32, DType::fp32), kPinGemmFp32);
  const auto silu = make_inputs(testing::registry().get("silu"), "C1", 1, DType::bf16);
  EXPECT_EQ(fingerprint(silu, DType::bf16), kPinSiluBf16);
}

TEST(Inputs, PortableExpAndCosSinMatchLibm) {
  for (double x : {-700.0, -30.5, -9.21034037197618, -1.0, -1e-9, 0.0, 1e-300, 0.3, 1.0, 2.5, 88.7, 700.0}) {
    EXPECT_NEAR(portable_exp(x), std::exp(x), 4e-16 * std::exp(x)) << x;
  }
  EXPECT_EQ(portable_exp(0.0), 1.0);  // theta_0 = base^0 must be exactly 1
  // Argument reduction: a few hundred radians (RoPE's s * theta) keep ~1e-15 absolute accuracy.
  for (int i = -3000; i <= 3000; ++i) {
    const double x = i * 0.1234567;
    double c = 0.0;
    double s = 0.0;
    portable_cos_sin(x, c, s);
    ASSERT_NEAR(c, std::cos(x), 1e-15) << x;
    ASSERT_NEAR(s, std::sin(x), 1e-15) << x;
  }
}

TEST(Inputs, RopeTablesAreTheRotaryAnglesAndReproducible) {
  // The largest shipped table, S = 256 and D = 128 (rope C5), against libm to 1e-12.
  const int64_t positions = 256, dim = 128;
  const std::vector<double> cos_table = rope_table(positions, dim, 10000.0, false);
  const std::vector<double> sin_table = rope_table(positions, dim, 10000.0, true);
  double worst = 0.0;
  for (int64_t s = 0; s < positions; ++s) {
    for (int64_t d = 0; d < dim; ++d) {
      const double theta = std::pow(10000.0, -2.0 * static_cast<double>(d % (dim / 2)) / dim);
      const auto at = static_cast<std::size_t>(s * dim + d);
      worst = std::max(worst, std::abs(cos_table[at] - std::cos(s * theta)));
      worst = std::max(worst, std::abs(sin_table[at] - std::sin(s * theta)));
    }
  }
  EXPECT_LT(worst, 1e-12);
  // The tensors of the rope task hold exactly these values, rounded once to the dtype.
  const TaskSpec& rope = testing::registry().get("rope");
  for (DType dtype : {DType::bf16, DType::fp32}) {
    const ResolvedConfig config = rope.resolve("C5", dtype);
    const auto inputs = make_inputs(config, 7);
    ASSERT_EQ(inputs[1].name, "cos");
    ASSERT_EQ(inputs[2].name, "sin");
    for (std::size_t i = 0; i < cos_table.size(); ++i) {
      ASSERT_EQ(inputs[1].data[i], round_to_dtype(cos_table[i], dtype)) << i;
      ASSERT_EQ(inputs[2].data[i], round_to_dtype(sin_table[i], dtype)) << i;
    }
    // Fixed tables: another seed changes x but not them.
    const auto other = make_inputs(config, 8);
    EXPECT_EQ(other[1].data, inputs[1].data);
    EXPECT_NE(other[0].data, inputs[0].data);
  }
  EXPECT_EQ(fingerprint(make_inputs(rope, "C5", 1, DType::fp32), DType::fp32), kPinRopeC5Fp32);
  EXPECT_EQ(fingerprint(make_inputs(rope, "C1", 1, DType::bf16), DType::bf16), kPinRopeC1Bf16);
}

TEST(Inputs, EveryValueIsExactlyRepresentable) {
  for (const TaskSpec& spec : testing::registry().tasks()) {
    for (DType dtype : {DType::bf16, DType::fp32}) {
      for (const std::string& config : {std::string("C1"), std::string("C3")}) {
        for (const Tensor& tensor : make_inputs(spec, config, 99, dtype)) {
          for (double v : tensor.data) {
            ASSERT_TRUE(std::isfinite(v));
            ASSERT_TRUE(representable(v, dtype)) << spec.name << " " << tensor.name << " " << v;
            if (dtype == DType::bf16) {
              // BF16 values: float with the low 16 bits clear.
              const float f = static_cast<float>(v);
              uint32_t bits;
              std::memcpy(&bits, &f, sizeof bits);
              ASSERT_EQ(bits & 0xFFFFu, 0u);
              ASSERT_EQ(static_cast<double>(f), v);
            } else {
              ASSERT_EQ(static_cast<double>(static_cast<float>(v)), v);
            }
          }
        }
      }
    }
  }
}

TEST(Inputs, Bf16AndFp32InputsAreTheSameDrawsRounded) {
  const TaskSpec& linear = testing::registry().get("linear");
  const auto bf16 = make_inputs(linear, "C2", 5, DType::bf16);
  const auto fp32 = make_inputs(linear, "C2", 5, DType::fp32);
  for (std::size_t t = 0; t < bf16.size(); ++t) {
    for (std::size_t i = 0; i < bf16[t].data.size(); ++i) {
      ASSERT_LE(std::fabs(bf16[t].data[i] - fp32[t].data[i]), std::ldexp(std::fabs(fp32[t].data[i]), -8));
    }
  }
}

TEST(Inputs, DistributionsFollowTheSpec) {
  for (const TaskSpec& spec : testing::registry().tasks()) {
    const ResolvedConfig config = spec.resolve("C5", DType::fp32);
    const auto inputs = make_inputs(config, 2024);
    for (std::size_t t = 0; t < inputs.size(); ++t) {
      const ResolvedTensor& rt = config.inputs[t];
      SCOPED_TRACE(spec.name + " " + rt.name);
      const double n = static_cast<double>(inputs[t].data.size());
      double sum = 0, sum_sq = 0, lo = INFINITY, hi = -INFINITY;
      for (double v : inputs[t].data) {
        sum += v;
        sum_sq += v * v;
        lo = std::min(lo, v);
        hi = std::max(hi, v);
      }
      const double mean = sum / n;
      const double std_dev = std::sqrt(sum_sq / n - mean * mean);
      if (rt.dist == InitDist::normal) {
        EXPECT_NEAR(mean, rt.init_a, 5 * rt.init_b / std::sqrt(n) + 1e-12);
        EXPECT_NEAR(std_dev, rt.init_b, rt.init_b * (n > 1000 ? 0.02 : 0.3));
      } else if (rt.dist == InitDist::uniform) {
        EXPECT_GE(lo, rt.init_a);
        EXPECT_LE(hi, rt.init_b);
        // Five standard errors of the mean (a uniform's std is (hi - lo) / sqrt(12)).
        EXPECT_NEAR(mean, (rt.init_a + rt.init_b) / 2, 5 * (rt.init_b - rt.init_a) / std::sqrt(12 * n));
      }
    }
  }
  // The task-specific intent: softmax rows span several units; silu covers [-8, 8).
  const auto softmax = make_inputs(testing::registry().get("softmax"), "C1", 3, DType::bf16);
  for (int64_t r = 0; r < softmax[0].shape[0]; ++r) {
    double lo = INFINITY, hi = -INFINITY;
    for (int64_t j = 0; j < softmax[0].shape[1]; ++j) {
      lo = std::min(lo, softmax[0].at2(r, j));
      hi = std::max(hi, softmax[0].at2(r, j));
    }
    EXPECT_GT(hi - lo, 3.0) << "row " << r;
  }
}

TEST(Inputs, GenerationAndReferencesAreFast) {
  for (const TaskSpec& spec : testing::registry().tasks()) {
    for (const std::string& config : spec.config_names()) {
      const auto start = std::chrono::steady_clock::now();
      const ResolvedConfig resolved = spec.resolve(config, DType::bf16);
      const auto inputs = make_inputs(resolved, 1);
      const auto refs = compute_reference(resolved, spec.golden, inputs);
      const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
      ASSERT_FALSE(refs.empty());
      if (config == "C5")
        std::printf("  %-9s C5: inputs + reference in %.1f ms\n", spec.name.c_str(), seconds * 1e3);
      EXPECT_LT(seconds, 1.0) << spec.name << " " << config;
    }
  }
}

}  // namespace
}  // namespace kcraft::tasks
