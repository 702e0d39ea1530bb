// Golden references against values worked out by hand.
#include <gtest/gtest.h>

#include <cmath>

#include "tasks/common/inputs.h"
#include "tasks/golden/golden.h"
#include "test_util.h"

namespace kcraft::tasks {
namespace {

// A hand-built config: the references only look at tensor shapes and params.
ResolvedConfig config_for(const std::string& task, std::vector<std::pair<std::string, Shape>> inputs,
                          std::vector<std::pair<std::string, Shape>> outputs,
                          std::vector<std::pair<std::string, double>> params = {}) {
  ResolvedConfig config;
  config.task = task;
  config.config = "hand";
  for (auto& [name, shape] : inputs) {
    ResolvedTensor tensor;
    tensor.name = name;
    tensor.shape = shape;
    tensor.elements = element_count(shape);
    config.inputs.push_back(tensor);
  }
  for (auto& [name, shape] : outputs) {
    ResolvedTensor tensor;
    tensor.name = name;
    tensor.shape = shape;
    tensor.elements = element_count(shape);
    tensor.is_output = true;
    config.outputs.push_back(tensor);
  }
  config.params = std::move(params);
  return config;
}

Tensor tensor(const std::string& name, Shape shape, std::vector<double> data) {
  Tensor t(name, std::move(shape));
  EXPECT_EQ(t.data.size(), data.size());
  t.data = std::move(data);
  return t;
}

void expect_values(const Tensor& actual, const std::vector<double>& expected, double tolerance = 1e-15) {
  ASSERT_EQ(actual.data.size(), expected.size());
  for (std::size_t i = 0; i < expected.size(); ++i) {
    EXPECT_NEAR(actual.data[i], expected[i], tolerance * std::max(1.0, std::fabs(expected[i])))
        << "element " << i;
  }
}

TEST(Golden, ReluClampsNegativesAndKeepsPositives) {
  auto config = config_for("relu", {{"x", {2, 3}}}, {{"y", {2, 3}}});
  auto out = compute_reference(config, "relu", {tensor("x", {2, 3}, {-1.5, 0.0, 2.25, -0.0, 1e-3, -7.0})});
  ASSERT_EQ(out.size(), 1u);
  EXPECT_EQ(out[0].name, "y");
  expect_values(out[0], {0.0, 0.0, 2.25, 0.0, 1e-3, 0.0}, 0.0);
}

TEST(Golden, SiluMatchesHandValues) {
  // silu(1) = 1/(1+e^-1) = 0.7310585786300049; silu(-1) = -1/(1+e) = -0.2689414213699951;
  // silu(8) = 8/(1+e^-8) = 7.997317198956269; silu(-8) = -8/(1+e^8) = -0.002682801043731825; silu(0) = 0.
  auto config = config_for("silu", {{"x", {1, 5}}}, {{"y", {1, 5}}});
  auto out = compute_reference(config, "silu", {tensor("x", {1, 5}, {1.0, -1.0, 8.0, -8.0, 0.0})});
  expect_values(out[0],
                {0.7310585786300049, -0.2689414213699951, 7.997317198956269, -0.002682801043731825, 0.0},
                1e-14);
}

TEST(Golden, SoftmaxIsRowWiseAndShiftInvariant) {
  // Row [1,2,3]: e^k / (e + e^2 + e^3) = [0.09003057317038046, 0.24472847105479764, 0.6652409557748219].
  // Row [1001,1002,1003] is the same after subtracting the maximum (a naive exp would overflow).
  // Row [0,0,0] is uniform.
  auto config = config_for("softmax", {{"x", {3, 3}}}, {{"y", {3, 3}}});
  auto out =
      compute_reference(config, "softmax", {tensor("x", {3, 3}, {1, 2, 3, 1001, 1002, 1003, 0, 0, 0})});
  const double a = 0.09003057317038046, b = 0.24472847105479764, c = 0.6652409557748219;
  expect_values(out[0], {a, b, c, a, b, c, 1.0 / 3, 1.0 / 3, 1.0 / 3}, 1e-14);
}

TEST(Golden, RmsNormUsesEpsAndGamma) {
  // eps = 3.5. Row [3, 4]: mean of squares 12.5, + eps = 16, rms 4 -> [0.75, 1.0] * gamma [1, 2] = [0.75, 2].
  // Row [1, 0]: 0.5 + 3.5 = 4, rms 2 -> [0.5, 0] * gamma = [0.5, 0]. Row [0, -1] -> [0, -0.5] * gamma = [0,
  // -1].
  auto config = config_for("rms_norm", {{"x", {3, 2}}, {"gamma", {2}}}, {{"y", {3, 2}}}, {{"eps", 3.5}});
  auto out = compute_reference(config, "rms_norm",
                               {tensor("x", {3, 2}, {3, 4, 1, 0, 0, -1}), tensor("gamma", {2}, {1.0, 2.0})});
  expect_values(out[0], {0.75, 2.0, 0.5, 0.0, 0.0, -1.0}, 0.0);

  // eps = 0: row [3, 4] -> [3, 4] / sqrt(12.5) * [1, 2] = [0.848528137423857, 2.262741699796952].
  auto no_eps = config_for("rms_norm", {{"x", {1, 2}}, {"gamma", {2}}}, {{"y", {1, 2}}}, {{"eps", 0.0}});
  auto out2 =
      compute_reference(no_eps, "rms_norm", {tensor("x", {1, 2}, {3, 4}), tensor("gamma", {2}, {1.0, 2.0})});
  expect_values(out2[0], {0.848528137423857, 2.262741699796952}, 1e-14);
}

TEST(Golden, GemmMultipliesRectangularMatrices) {
  // [[1,0,2],[-1,3,1]] x [[3,1],[2,1],[1,0]]: row 0 = [3+0+2, 1+0+0] = [5, 1]; row 1 = [-3+6+1, -1+3+0] = [4,
  // 2].
  auto config = config_for("gemm", {{"A", {2, 3}}, {"B", {3, 2}}}, {{"C", {2, 2}}});
  auto out = compute_reference(
      config, "gemm", {tensor("A", {2, 3}, {1, 0, 2, -1, 3, 1}), tensor("B", {3, 2}, {3, 1, 2, 1, 1, 0})});
  expect_values(out[0], {5, 1, 4, 2}, 0.0);
}

TEST(Golden, LinearUsesTransposedWeightAndBias) {
  // x [[1,2,3],[0,1,0]], W [[1,0,-1],[2,1,0]] ([N=2, K=3]), b [0.5, -1]:
  // y[0] = [1-3+0.5, 2+2-1] = [-1.5, 3]; y[1] = [0+0.5, 1-1] = [0.5, 0].
  auto config = config_for("linear", {{"x", {2, 3}}, {"W", {2, 3}}, {"b", {2}}}, {{"y", {2, 2}}});
  auto out = compute_reference(config, "linear",
                               {tensor("x", {2, 3}, {1, 2, 3, 0, 1, 0}),
                                tensor("W", {2, 3}, {1, 0, -1, 2, 1, 0}), tensor("b", {2}, {0.5, -1.0})});
  expect_values(out[0], {-1.5, 3.0, 0.5, 0.0}, 0.0);
}

TEST(Golden, RejectsInputsThatDoNotMatchTheConfig) {
  auto config = config_for("gemm", {{"A", {2, 3}}, {"B", {3, 2}}}, {{"C", {2, 2}}});
  EXPECT_THROW(compute_reference(config, "gemm", {tensor("A", {2, 3}, {1, 0, 2, -1, 3, 1})}), GoldenError);
  EXPECT_THROW(
      compute_reference(config, "gemm",
                        {tensor("A", {2, 3}, {1, 0, 2, -1, 3, 1}), tensor("B", {2, 3}, {3, 1, 2, 1, 1, 0})}),
      GoldenError);
  // Shapes that match the config but do not chain (config itself inconsistent) are caught by the reference.
  auto broken = config_for("gemm", {{"A", {2, 3}}, {"B", {2, 3}}}, {{"C", {2, 3}}});
  EXPECT_THROW(
      compute_reference(broken, "gemm",
                        {tensor("A", {2, 3}, {1, 0, 2, -1, 3, 1}), tensor("B", {2, 3}, {3, 1, 2, 1, 1, 0})}),
      GoldenError);
  EXPECT_THROW(compute_reference(config, "no_such_golden", {}), GoldenError);
}

TEST(Golden, PropertiesHoldOnEveryShippedConfig) {
  for (const TaskSpec& spec : testing::registry().tasks()) {
    for (const std::string& config : spec.config_names()) {
      SCOPED_TRACE(spec.name + " " + config);
      const ResolvedConfig resolved = spec.resolve(config, DType::bf16);
      const auto inputs = make_inputs(resolved, 7);
      const auto refs = compute_reference(resolved, spec.golden, inputs);
      ASSERT_EQ(refs.size(), resolved.outputs.size());
      for (std::size_t i = 0; i < refs.size(); ++i) {
        EXPECT_EQ(refs[i].shape, resolved.outputs[i].shape);
        for (double v : refs[i].data) ASSERT_TRUE(std::isfinite(v));
      }
      const Tensor& y = refs[0];
      if (spec.name == "softmax") {
        const int64_t n = y.shape.back();
        for (int64_t r = 0; r < y.shape[0]; ++r) {
          double sum = 0.0;
          for (int64_t j = 0; j < n; ++j) sum += y.at2(r, j);
          EXPECT_NEAR(sum, 1.0, 1e-12);
        }
      } else if (spec.name == "relu") {
        for (std::size_t j = 0; j < y.data.size(); ++j)
          EXPECT_EQ(y.data[j], std::max(inputs[0].data[j], 0.0));
      } else if (spec.name == "rms_norm") {
        // (y / gamma) has mean square ms / (ms + eps) per row.
        const Tensor& x = inputs[0];
        const Tensor& gamma = inputs[1];
        const int64_t n = y.shape.back();
        const double eps = resolved.param("eps");
        for (int64_t r = 0; r < y.shape[0]; ++r) {
          double ms_x = 0.0, ms_y = 0.0;
          for (int64_t j = 0; j < n; ++j) {
            ms_x += x.at2(r, j) * x.at2(r, j) / n;
            const double unscaled = y.at2(r, j) / gamma.data[static_cast<std::size_t>(j)];
            ms_y += unscaled * unscaled / n;
          }
          EXPECT_NEAR(ms_y, ms_x / (ms_x + eps), 1e-12);
        }
      }
    }
  }
}

}  // namespace
}  // namespace kcraft::tasks
