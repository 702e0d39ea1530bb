// Every golden reference against straightforward double-precision loops written here, independently of
// tasks/golden (issue 11): each task's C1 plus small hand-made configs (odd sizes, strides, padding,
// causal on and off, GQA groups), to 1e-12 relative.
#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <map>

#include "tasks/common/inputs.h"
#include "tasks/golden/golden.h"
#include "test_util.h"

namespace kcraft::tasks {
namespace {

using Values = std::vector<double>;
using Dims = std::map<std::string, int64_t>;
using Inputs = std::map<std::string, Values>;
using Outputs = std::map<std::string, Values>;
using Check = std::function<Outputs(const Dims&, const Inputs&, const ResolvedConfig&)>;

double gelu_tanh(double x) {
  return 0.5 * x * (1.0 + std::tanh(std::sqrt(2.0 / M_PI) * (x + 0.044715 * std::pow(x, 3))));
}

double silu(double x) {
  return x / (1.0 + std::exp(-x));
}

// y[m, n] = sum_k a[m, k] * b(k, n), with b given by a function so transposes read naturally.
Values matmul(const Values& a, int64_t m, int64_t k, int64_t n,
              const std::function<double(int64_t, int64_t)>& b) {
  Values y(static_cast<std::size_t>(m * n), 0.0);
  for (int64_t i = 0; i < m; ++i)
    for (int64_t j = 0; j < n; ++j) {
      double sum = 0.0;
      for (int64_t p = 0; p < k; ++p) sum += a[i * k + p] * b(p, j);
      y[i * n + j] = sum;
    }
  return y;
}

Values elementwise(const Values& x, double (*fn)(double)) {
  Values y = x;
  for (double& v : y) v = fn(v);
  return y;
}

// Attention of one head from explicit [S, S] scores, the mask applied as -inf before the softmax.
void one_head(const double* q, const double* k, const double* v, double* o, int64_t s, int64_t d,
              double scale, bool causal) {
  std::vector<std::vector<double>> p(s, std::vector<double>(s));
  for (int64_t i = 0; i < s; ++i) {
    double top = -INFINITY;
    for (int64_t j = 0; j < s; ++j) {
      double dot = 0.0;
      for (int64_t e = 0; e < d; ++e) dot += q[i * d + e] * k[j * d + e];
      p[i][j] = causal && j > i ? -INFINITY : scale * dot;
      top = std::max(top, p[i][j]);
    }
    double total = 0.0;
    for (int64_t j = 0; j < s; ++j) total += (p[i][j] = std::exp(p[i][j] - top));
    for (int64_t e = 0; e < d; ++e) {
      double sum = 0.0;
      for (int64_t j = 0; j < s; ++j) sum += p[i][j] / total * v[j * d + e];
      o[i * d + e] = sum;
    }
  }
}

// heads query heads over kv_heads key/value heads, each [S, D].
Values heads_attention(const Inputs& in, int64_t heads, int64_t kv_heads, int64_t s, int64_t d, double scale,
                       bool causal) {
  Values o(static_cast<std::size_t>(heads * s * d));
  for (int64_t h = 0; h < heads; ++h) {
    const int64_t kv = h * kv_heads / heads;  // groups of heads/kv_heads consecutive query heads
    one_head(in.at("Q").data() + h * s * d, in.at("K").data() + kv * s * d, in.at("V").data() + kv * s * d,
             o.data() + h * s * d, s, d, scale, causal);
  }
  return o;
}

Values convolution(const Dims& n, const Inputs& in, bool depthwise) {
  const int64_t H = n.at("H"), W = n.at("W"), C = n.at("C"), KH = n.at("KH"), KW = n.at("KW");
  const int64_t stride = n.at("STRIDE"), pad = n.at("PAD");
  const int64_t F = depthwise ? C : n.at("F");
  const int64_t OH = (H + 2 * pad - KH) / stride + 1, OW = (W + 2 * pad - KW) / stride + 1;
  const Values& x = in.at("x");
  const Values& w = in.at("w");
  Values y(static_cast<std::size_t>(OH * OW * F), 0.0);
  for (int64_t oh = 0; oh < OH; ++oh)
    for (int64_t ow = 0; ow < OW; ++ow)
      for (int64_t f = 0; f < F; ++f) {
        double sum = 0.0;
        for (int64_t i = 0; i < KH; ++i)
          for (int64_t j = 0; j < KW; ++j) {
            const int64_t h = oh * stride + i - pad, c0 = ow * stride + j - pad;
            if (h < 0 || h >= H || c0 < 0 || c0 >= W) continue;  // zero padding
            if (depthwise) {
              sum += x[(h * W + c0) * C + f] * w[(i * KW + j) * C + f];
            } else {
              for (int64_t c = 0; c < C; ++c)
                sum += x[(h * W + c0) * C + c] * w[((i * KW + j) * C + c) * F + f];
            }
          }
        y[(oh * OW + ow) * F + f] = sum;
      }
  return y;
}

Values row_norm(const Dims& n, const Inputs& in, double eps, bool layer) {
  const int64_t M = n.at("M"), N = n.at("N");
  const Values& x = in.at("x");
  Values y(x.size());
  for (int64_t m = 0; m < M; ++m) {
    double mean = 0.0;
    if (layer) {
      for (int64_t j = 0; j < N; ++j) mean += x[m * N + j] / static_cast<double>(N);
    }
    double var = 0.0;
    for (int64_t j = 0; j < N; ++j) var += std::pow(x[m * N + j] - mean, 2) / static_cast<double>(N);
    for (int64_t j = 0; j < N; ++j) {
      y[m * N + j] =
          (x[m * N + j] - mean) / std::sqrt(var + eps) * in.at("gamma")[j] + (layer ? in.at("beta")[j] : 0.0);
    }
  }
  return y;
}

const std::map<std::string, Check>& checks() {
  static const std::map<std::string, Check> table = {
      {"relu",
       [](const Dims&, const Inputs& in, const ResolvedConfig&) {
         return Outputs{{"y", elementwise(in.at("x"), [](double x) { return x > 0 ? x : 0.0; })}};
       }},
      {"silu",
       [](const Dims&, const Inputs& in, const ResolvedConfig&) {
         return Outputs{{"y", elementwise(in.at("x"), silu)}};
       }},
      {"gelu",
       [](const Dims&, const Inputs& in, const ResolvedConfig&) {
         return Outputs{{"y", elementwise(in.at("x"), gelu_tanh)}};
       }},
      {"softmax",
       [](const Dims& n, const Inputs& in, const ResolvedConfig&) {
         const int64_t M = n.at("M"), N = n.at("N");
         Values y(in.at("x").size());
         for (int64_t m = 0; m < M; ++m) {
           double top = -INFINITY, total = 0.0;
           for (int64_t j = 0; j < N; ++j) top = std::max(top, in.at("x")[m * N + j]);
           for (int64_t j = 0; j < N; ++j) total += std::exp(in.at("x")[m * N + j] - top);
           for (int64_t j = 0; j < N; ++j) y[m * N + j] = std::exp(in.at("x")[m * N + j] - top) / total;
         }
         return Outputs{{"y", y}};
       }},
      {"rms_norm",
       [](const Dims& n, const Inputs& in, const ResolvedConfig& r) {
         return Outputs{{"y", row_norm(n, in, r.param("eps"), false)}};
       }},
      {"layer_norm",
       [](const Dims& n, const Inputs& in, const ResolvedConfig& r) {
         return Outputs{{"y", row_norm(n, in, r.param("eps"), true)}};
       }},
      {"gemm",
       [](const Dims& n, const Inputs& in, const ResolvedConfig&) {
         const int64_t N = n.at("N");
         const Values& b = in.at("B");
         return Outputs{{"C", matmul(in.at("A"), n.at("M"), n.at("K"), N,
                                     [&](int64_t p, int64_t j) { return b[p * N + j]; })}};
       }},
      {"linear",
       [](const Dims& n, const Inputs& in, const ResolvedConfig&) {
         const int64_t K = n.at("K"), N = n.at("N");
         const Values& w = in.at("W");
         Values y = matmul(in.at("x"), n.at("M"), K, N, [&](int64_t p, int64_t j) { return w[j * K + p]; });
         for (std::size_t i = 0; i < y.size(); ++i) y[i] += in.at("b")[i % N];
         return Outputs{{"y", y}};
       }},
      {"gemv",
       [](const Dims& n, const Inputs& in, const ResolvedConfig&) {
         const Values& x = in.at("x");
         return Outputs{
             {"y", matmul(in.at("A"), n.at("M"), n.at("K"), 1, [&](int64_t p, int64_t) { return x[p]; })}};
       }},
      {"batch_matmul",
       [](const Dims& n, const Inputs& in, const ResolvedConfig&) {
         const int64_t B = n.at("BATCH"), M = n.at("M"), K = n.at("K"), N = n.at("N");
         Values c;
         for (int64_t b = 0; b < B; ++b) {
           const Values a(in.at("A").begin() + b * M * K, in.at("A").begin() + (b + 1) * M * K);
           const double* bm = in.at("B").data() + b * K * N;
           const Values part = matmul(a, M, K, N, [&](int64_t p, int64_t j) { return bm[p * N + j]; });
           c.insert(c.end(), part.begin(), part.end());
         }
         return Outputs{{"C", c}};
       }},
      {"conv2d",
       [](const Dims& n, const Inputs& in, const ResolvedConfig&) {
         return Outputs{{"y", convolution(n, in, false)}};
       }},
      {"depthwise_conv",
       [](const Dims& n, const Inputs& in, const ResolvedConfig&) {
         return Outputs{{"y", convolution(n, in, true)}};
       }},
      {"rope",
       [](const Dims& n, const Inputs& in, const ResolvedConfig&) {
         const int64_t H = n.at("HEADS"), S = n.at("S"), D = n.at("D");
         const Values& x = in.at("x");
         Values y(x.size());
         for (int64_t h = 0; h < H; ++h)
           for (int64_t s = 0; s < S; ++s)
             for (int64_t d = 0; d < D; ++d) {
               const int64_t row = (h * S + s) * D;
               const double rotated = d < D / 2 ? -x[row + d + D / 2] : x[row + d - D / 2];
               y[row + d] = x[row + d] * in.at("cos")[s * D + d] + rotated * in.at("sin")[s * D + d];
             }
         return Outputs{{"y", y}};
       }},
      {"ffn",
       [](const Dims& n, const Inputs& in, const ResolvedConfig&) {
         const int64_t M = n.at("M"), D = n.at("D"), F = n.at("F");
         const Values &w1 = in.at("W1"), &w2 = in.at("W2");
         Values h = matmul(in.at("x"), M, D, F, [&](int64_t p, int64_t j) { return w1[j * D + p]; });
         for (std::size_t i = 0; i < h.size(); ++i) h[i] = gelu_tanh(h[i] + in.at("b1")[i % F]);
         Values y = matmul(h, M, F, D, [&](int64_t p, int64_t j) { return w2[j * F + p]; });
         for (std::size_t i = 0; i < y.size(); ++i) y[i] += in.at("b2")[i % D];
         return Outputs{{"y", y}};
       }},
      {"swiglu",
       [](const Dims& n, const Inputs& in, const ResolvedConfig&) {
         const int64_t M = n.at("M"), D = n.at("D"), F = n.at("F");
         const Values &wg = in.at("Wg"), &wu = in.at("Wu"), &wd = in.at("Wd");
         const Values g = matmul(in.at("x"), M, D, F, [&](int64_t p, int64_t j) { return wg[j * D + p]; });
         const Values u = matmul(in.at("x"), M, D, F, [&](int64_t p, int64_t j) { return wu[j * D + p]; });
         Values h(g.size());
         for (std::size_t i = 0; i < h.size(); ++i) h[i] = silu(g[i]) * u[i];
         return Outputs{{"y", matmul(h, M, F, D, [&](int64_t p, int64_t j) { return wd[j * F + p]; })}};
       }},
      {"attention",
       [](const Dims& n, const Inputs& in, const ResolvedConfig&) {
         return Outputs{{"O", heads_attention(in, 1, 1, n.at("S"), n.at("D"), 1.0 / std::sqrt(n.at("D")),
                                              n.at("CAUSAL") == 1)}};
       }},
      {"flash_attention",
       [](const Dims& n, const Inputs& in, const ResolvedConfig&) {
         return Outputs{{"O", heads_attention(in, 1, 1, n.at("S"), n.at("D"), 1.0 / std::sqrt(n.at("D")),
                                              n.at("CAUSAL") == 1)}};
       }},
      {"mha",
       [](const Dims& n, const Inputs& in, const ResolvedConfig&) {
         return Outputs{{"O", heads_attention(in, n.at("HEADS"), n.at("HEADS"), n.at("S"), n.at("D"),
                                              1.0 / std::sqrt(n.at("D")), n.at("CAUSAL") == 1)}};
       }},
      {"gqa",
       [](const Dims& n, const Inputs& in, const ResolvedConfig&) {
         return Outputs{{"O", heads_attention(in, n.at("HEADS"), n.at("KV_HEADS"), n.at("S"), n.at("D"),
                                              1.0 / std::sqrt(n.at("D")), n.at("CAUSAL") == 1)}};
       }},
      {"mqa",
       [](const Dims& n, const Inputs& in, const ResolvedConfig&) {
         return Outputs{{"O", heads_attention(in, n.at("HEADS"), 1, n.at("S"), n.at("D"),
                                              1.0 / std::sqrt(n.at("D")), n.at("CAUSAL") == 1)}};
       }},
  };
  return table;
}

// Small configs beyond C1 (the loader's multiple-of-16 rule does not apply: resolution accepts any size).
const std::map<std::string, std::vector<Dims>>& hand_configs() {
  static const std::map<std::string, std::vector<Dims>> table = {
      {"relu", {{{"M", 3}, {"N", 7}}}},
      {"silu", {{{"M", 3}, {"N", 7}}}},
      {"gelu", {{{"M", 3}, {"N", 7}}}},
      {"softmax", {{{"M", 3}, {"N", 7}}}},
      {"rms_norm", {{{"M", 3}, {"N", 7}}}},
      {"layer_norm", {{{"M", 3}, {"N", 7}}}},
      {"gemm", {{{"M", 5}, {"K", 7}, {"N", 3}}}},
      {"linear", {{{"M", 5}, {"K", 7}, {"N", 3}}}},
      {"gemv", {{{"M", 5}, {"K", 9}}}},
      {"batch_matmul", {{{"BATCH", 3}, {"M", 5}, {"K", 7}, {"N", 3}}}},
      {"conv2d",
       {{{"H", 7}, {"W", 6}, {"C", 3}, {"F", 5}, {"KH", 3}, {"KW", 2}, {"STRIDE", 2}, {"PAD", 1}},
        {{"H", 5}, {"W", 5}, {"C", 2}, {"F", 2}, {"KH", 5}, {"KW", 4}, {"STRIDE", 3}, {"PAD", 2}}}},
      {"depthwise_conv",
       {{{"H", 7}, {"W", 6}, {"C", 3}, {"KH", 3}, {"KW", 2}, {"STRIDE", 2}, {"PAD", 1}},
        {{"H", 5}, {"W", 5}, {"C", 2}, {"KH", 5}, {"KW", 4}, {"STRIDE", 3}, {"PAD", 0}}}},
      {"rope", {{{"HEADS", 2}, {"S", 9}, {"D", 6}}}},
      {"ffn", {{{"M", 3}, {"D", 5}, {"F", 7}}}},
      {"swiglu", {{{"M", 3}, {"D", 5}, {"F", 7}}}},
      {"attention", {{{"S", 7}, {"D", 5}, {"CAUSAL", 1}}, {{"S", 5}, {"D", 3}, {"CAUSAL", 0}}}},
      {"flash_attention", {{{"S", 9}, {"D", 4}, {"CAUSAL", 1}}}},
      {"mha", {{{"HEADS", 3}, {"S", 6}, {"D", 4}, {"CAUSAL", 1}}}},
      {"gqa",
       {{{"HEADS", 6}, {"KV_HEADS", 2}, {"S", 5}, {"D", 4}, {"CAUSAL", 1}},
        {{"HEADS", 3}, {"KV_HEADS", 3}, {"S", 4}, {"D", 3}, {"CAUSAL", 0}},
        {{"HEADS", 4}, {"KV_HEADS", 1}, {"S", 6}, {"D", 2}, {"CAUSAL", 0}}}},
      {"mqa", {{{"HEADS", 3}, {"S", 6}, {"D", 4}, {"CAUSAL", 1}}}},
  };
  return table;
}

// The spec with config C1 replaced by `dims`, resolved.
ResolvedConfig with_dims(const TaskSpec& spec, const Dims& dims) {
  TaskSpec copy = spec;
  ConfigSpec& config = copy.configs.front();
  config.values.clear();
  for (const DimSpec& dim : spec.dims) config.values.push_back(dims.at(dim.name));
  return copy.resolve(config.name, DType::fp32);
}

void expect_matches(const TaskSpec& spec, const ResolvedConfig& config, const std::string& label) {
  SCOPED_TRACE(spec.name + " " + label);
  const std::vector<Tensor> inputs = make_inputs(config, 2024);
  Dims dims;
  for (const auto& [name, value] : config.dims) dims[name] = value;
  Inputs by_name;
  for (const Tensor& tensor : inputs) by_name[tensor.name] = tensor.data;
  const Outputs expected = checks().at(spec.name)(dims, by_name, config);
  const std::vector<Tensor> golden = compute_reference(config, spec.golden, inputs);
  ASSERT_EQ(golden.size(), expected.size());
  for (const Tensor& out : golden) {
    const Values& want = expected.at(out.name);
    ASSERT_EQ(out.data.size(), want.size()) << out.name;
    double largest = 0.0;
    for (double v : want) largest = std::max(largest, std::abs(v));
    ASSERT_GT(largest, 0.0) << out.name << ": an all-zero reference checks nothing";
    for (std::size_t i = 0; i < want.size(); ++i) {
      ASSERT_LE(std::abs(out.data[i] - want[i]), 1e-12 * (std::abs(want[i]) + largest))
          << out.name << "[" << i << "]: golden " << out.data[i] << ", loops " << want[i];
    }
  }
}

TEST(GoldenIndependent, EveryTaskMatchesPlainLoopsOnC1AndHandMadeConfigs) {
  for (const TaskSpec& spec : testing::registry().tasks()) {
    ASSERT_TRUE(checks().count(spec.name)) << spec.name << ": add an independent reference to this test";
    ASSERT_TRUE(hand_configs().count(spec.name)) << spec.name << ": add a hand-made config to this test";
    expect_matches(spec, spec.resolve("C1", DType::fp32), "C1");
    for (const Dims& dims : hand_configs().at(spec.name)) {
      std::string label = "hand";
      for (const auto& [name, value] : dims) label += " " + name + "=" + std::to_string(value);
      expect_matches(spec, with_dims(spec, dims), label);
    }
  }
}

TEST(GoldenIndependent, CausalMaskChangesTheAnswer) {
  // Guards the hand configs: causal and non-causal attention of the same inputs must differ.
  const TaskSpec& spec = testing::registry().get("attention");
  const ResolvedConfig causal = with_dims(spec, {{"S", 6}, {"D", 4}, {"CAUSAL", 1}});
  const ResolvedConfig full = with_dims(spec, {{"S", 6}, {"D", 4}, {"CAUSAL", 0}});
  const auto a = compute_reference(causal, spec.golden, make_inputs(causal, 5));
  const auto b = compute_reference(full, spec.golden, make_inputs(causal, 5));
  EXPECT_NE(a[0].data, b[0].data);
  // The last query sees every key either way.
  for (int64_t d = 0; d < 4; ++d) EXPECT_NEAR(a[0].data[5 * 4 + d], b[0].data[5 * 4 + d], 1e-15);
}

}  // namespace
}  // namespace kcraft::tasks
