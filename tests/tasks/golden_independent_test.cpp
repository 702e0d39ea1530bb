// Every golden reference against straightforward double-precision loops written here, independently of
// tasks/golden (issue 11): each task's C1 plus small hand-made configs (odd sizes, strides, padding,
// causal on and off, GQA groups), to 1e-12 relative.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <map>

#include "tasks/common/inputs.h"
#include "tasks/golden/golden.h"
#include "tasks/golden/references.h"
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

// T5's unidirectional relative-position bucket (num_buckets 32, max_distance 128) of a key p >= 0 positions
// back: exact below 16, then 16 logarithmic buckets up to 128, clipped to 31.
int64_t t5_bucket(int64_t p) {
  if (p < 16) return p;
  return std::min<int64_t>(31,
                           16 + static_cast<int64_t>(std::floor(16.0 * std::log(p / 16.0) / std::log(8.0))));
}

Values rms_rows(const Values& x, const Values& gamma, int64_t rows, int64_t cols, double eps) {
  Values y(x.size());
  for (int64_t m = 0; m < rows; ++m) {
    double squares = 0.0;
    for (int64_t j = 0; j < cols; ++j) squares += x[m * cols + j] * x[m * cols + j];
    for (int64_t j = 0; j < cols; ++j)
      y[m * cols + j] = x[m * cols + j] / std::sqrt(squares / static_cast<double>(cols) + eps) * gamma[j];
  }
  return y;
}

// y[m, j] = sum_p a[m, p] * w[j, p]: an nn.Linear weight [out, in].
Values times_transposed(const Values& a, int64_t m, int64_t k, int64_t n, const Values& w) {
  return matmul(a, m, k, n, [&](int64_t p, int64_t j) { return w[j * k + p]; });
}

// A pre-norm decoder block straight from the spec's steps, on token-major [S, width] tensors where head h
// is the column range [h*DH, (h+1)*DH): LLaMA (RoPE, 1/sqrt(DH), SwiGLU) or T5 (relative bias, no scale,
// ReLU FFN). Causal.
Values decoder_block(const Dims& n, const Inputs& in, const ResolvedConfig& r, bool llama) {
  const int64_t S = n.at("S"), D = n.at("D"), H = n.at("HEADS"), DH = n.at("DH");
  const int64_t KV = llama ? n.at("KV_HEADS") : H;
  const double eps = r.param("eps"), scale = llama ? r.param("scale") : 1.0;
  const Values& x = in.at("x");
  const Values h = rms_rows(x, in.at("g_attn"), S, D, eps);
  Values q = times_transposed(h, S, D, H * DH, in.at("Wq"));
  Values k = times_transposed(h, S, D, KV * DH, in.at("Wk"));
  const Values v = times_transposed(h, S, D, KV * DH, in.at("Wv"));
  if (llama) {
    auto rotate = [&](Values& t, int64_t heads) {
      const Values before = t;
      for (int64_t s = 0; s < S; ++s)
        for (int64_t hd = 0; hd < heads; ++hd)
          for (int64_t d = 0; d < DH; ++d) {
            const int64_t base = s * heads * DH + hd * DH;
            const double partner = d < DH / 2 ? -before[base + d + DH / 2] : before[base + d - DH / 2];
            t[base + d] = before[base + d] * in.at("cos")[s * DH + d] + partner * in.at("sin")[s * DH + d];
          }
    };
    rotate(q, H);
    rotate(k, KV);
  }
  Values attended(static_cast<std::size_t>(S * H * DH), 0.0);
  for (int64_t hd = 0; hd < H; ++hd) {
    const int64_t kv = hd / (H / KV);
    for (int64_t i = 0; i < S; ++i) {
      Values p(static_cast<std::size_t>(S), 0.0);
      double top = -INFINITY, total = 0.0;
      for (int64_t j = 0; j <= i; ++j) {
        double dot = 0.0;
        for (int64_t d = 0; d < DH; ++d) dot += q[i * H * DH + hd * DH + d] * k[j * KV * DH + kv * DH + d];
        p[j] = dot * scale + (llama ? 0.0 : in.at("bias")[hd * 32 + t5_bucket(i - j)]);
        top = std::max(top, p[j]);
      }
      for (int64_t j = 0; j <= i; ++j) total += (p[j] = std::exp(p[j] - top));
      for (int64_t d = 0; d < DH; ++d)
        for (int64_t j = 0; j <= i; ++j)
          attended[i * H * DH + hd * DH + d] += p[j] / total * v[j * KV * DH + kv * DH + d];
    }
  }
  const Values projected = times_transposed(attended, S, H * DH, D, in.at("Wo"));
  Values x2 = x;
  for (std::size_t i = 0; i < x2.size(); ++i) x2[i] += projected[i];
  const Values h2 = rms_rows(x2, in.at("g_ffn"), S, D, eps);
  const int64_t F = n.at("F");
  Values hidden;
  if (llama) {
    const Values g = times_transposed(h2, S, D, F, in.at("Wg"));
    const Values u = times_transposed(h2, S, D, F, in.at("Wu"));
    for (std::size_t i = 0; i < g.size(); ++i) hidden.push_back(silu(g[i]) * u[i]);
  } else {
    hidden = times_transposed(h2, S, D, F, in.at("Wi"));
    for (double& value : hidden) value = std::max(value, 0.0);
  }
  const Values ffn_out = times_transposed(hidden, S, F, D, in.at(llama ? "Wd" : "Wo_ff"));
  for (std::size_t i = 0; i < x2.size(); ++i) x2[i] += ffn_out[i];
  return x2;
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
      {"conv_block",
       [](const Dims& n, const Inputs& in, const ResolvedConfig&) {
         Values y = convolution(n, in, false);
         const int64_t F = n.at("F");
         for (std::size_t i = 0; i < y.size(); ++i) {
           const double pre = y[i] * in.at("scale")[i % F] + in.at("shift")[i % F] +
                              (n.at("RESIDUAL") == 1 ? in.at("x")[i] : 0.0);
           y[i] = pre > 0 ? pre : 0.0;
         }
         return Outputs{{"y", y}};
       }},
      {"decoder_block_llama",
       [](const Dims& n, const Inputs& in, const ResolvedConfig& r) {
         return Outputs{{"y", decoder_block(n, in, r, true)}};
       }},
      {"decoder_block_t5",
       [](const Dims& n, const Inputs& in, const ResolvedConfig& r) {
         return Outputs{{"y", decoder_block(n, in, r, false)}};
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
      {"conv_block",
       {{{"H", 7},
         {"W", 6},
         {"C", 3},
         {"F", 3},
         {"KH", 3},
         {"KW", 3},
         {"STRIDE", 1},
         {"PAD", 1},
         {"RESIDUAL", 1}},
        {{"H", 7},
         {"W", 6},
         {"C", 3},
         {"F", 5},
         {"KH", 3},
         {"KW", 2},
         {"STRIDE", 2},
         {"PAD", 1},
         {"RESIDUAL", 0}}}},
      // D need not be HEADS*DH; groups of 2, 1 (KV_HEADS = HEADS) and 3.
      {"decoder_block_llama",
       {{{"S", 7}, {"D", 10}, {"HEADS", 4}, {"KV_HEADS", 2}, {"DH", 6}, {"F", 9}},
        {{"S", 5}, {"D", 6}, {"HEADS", 3}, {"KV_HEADS", 3}, {"DH", 2}, {"F", 7}},
        {{"S", 6}, {"D", 5}, {"HEADS", 3}, {"KV_HEADS", 1}, {"DH", 4}, {"F", 3}}}},
      // S = 40 reaches distances 16-39: the logarithmic buckets 16-21.
      {"decoder_block_t5",
       {{{"S", 40}, {"D", 8}, {"HEADS", 2}, {"DH", 4}, {"F", 12}},
        {{"S", 5}, {"D", 6}, {"HEADS", 3}, {"DH", 3}, {"F", 7}}}},
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

TEST(GoldenIndependent, T5BucketsAreHuggingFacesUnidirectionalBuckets) {
  // Hugging Face T5Attention._relative_position_bucket(-p, bidirectional=False, num_buckets=32,
  // max_distance=128) for these distances p (worked by hand: 16 + int(16 * ln(p/16) / ln 8)).
  const std::map<int64_t, int64_t> expected = {{0, 0},    {1, 1},    {15, 15},  {16, 16},
                                               {20, 17},  {23, 18},  {32, 21},  {64, 26},
                                               {100, 30}, {127, 31}, {128, 31}, {1000, 31}};
  for (const auto& [distance, bucket] : expected) {
    EXPECT_EQ(golden::t5_relative_bucket(distance, 32, 128), bucket) << distance;
    EXPECT_EQ(t5_bucket(distance), bucket) << distance;
  }
}

TEST(GoldenIndependent, LevelThreeStepsEachChangeTheAnswer) {
  // Guards the checks above against a block whose later steps drown the earlier ones: zeroing the residual,
  // or the relative-position bias, must change the output.
  const TaskSpec& conv = testing::registry().get("conv_block");
  const ResolvedConfig with = conv.resolve("C3", DType::fp32);
  ASSERT_EQ(with.dim("RESIDUAL"), 1);
  const ResolvedConfig without = with_dims(conv, {{"H", 16},
                                                  {"W", 16},
                                                  {"C", 32},
                                                  {"F", 32},
                                                  {"KH", 3},
                                                  {"KW", 3},
                                                  {"STRIDE", 1},
                                                  {"PAD", 1},
                                                  {"RESIDUAL", 0}});
  const auto inputs = make_inputs(with, 3);
  EXPECT_NE(compute_reference(with, conv.golden, inputs)[0].data,
            compute_reference(without, conv.golden, inputs)[0].data);
  const TaskSpec& t5 = testing::registry().get("decoder_block_t5");
  const ResolvedConfig c2 = t5.resolve("C2", DType::fp32);
  std::vector<Tensor> inputs_t5 = make_inputs(c2, 3);
  const auto biased = compute_reference(c2, t5.golden, inputs_t5);
  for (Tensor& t : inputs_t5) {
    if (t.name == "bias") std::fill(t.data.begin(), t.data.end(), 0.0);
  }
  EXPECT_NE(biased[0].data, compute_reference(c2, t5.golden, inputs_t5)[0].data);
}

}  // namespace
}  // namespace kcraft::tasks
