#include "tests/tasks/sanity_kernels.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>
#include <utility>

#include "tasks/common/dtype.h"

namespace kcraft::tasks::sanity {
namespace {

constexpr double kPi = 3.14159265358979323846;

float f32(double v) {
  return static_cast<float>(v);
}
// A value the kernel writes to scratch or a vector register of the element type.
double store(double v, DType dtype) {
  return round_to_dtype(v, dtype);
}
std::size_t at(int64_t flat_index) {
  return static_cast<std::size_t>(flat_index);
}
int64_t rows_of(const Tensor& t) {
  return static_cast<int64_t>(t.data.size()) / t.shape.back();
}
int64_t dim_or(const ResolvedConfig& c, const std::string& name, int64_t fallback) {
  for (const auto& [dim_name, value] : c.dims) {
    if (dim_name == name) return value;
  }
  return fallback;
}

// The tanh-form GELU as a vector unit computes it without cancellation: x * sigmoid(2z).
double gelu_stepwise(double x, DType dtype) {
  const float two_sqrt_2_over_pi = f32(2.0 * std::sqrt(2.0 / kPi));
  const double x2 = store(f32(x) * f32(x), dtype);
  const double x3 = store(f32(x2) * f32(x), dtype);
  const double inner = store(f32(x) + f32(store(0.044715f * f32(x3), dtype)), dtype);
  const double z2 = store(two_sqrt_2_over_pi * f32(inner), dtype);
  const double e = store(std::exp(-f32(z2)), dtype);
  const double d = store(1.0f + f32(e), dtype);
  const double r = store(1.0f / f32(d), dtype);
  return store(f32(x) * f32(r), dtype);
}

// The spec's hint taken literally: tanh z = 1 - 2/(exp(2z) + 1), then 0.5x(1 + tanh z), each step stored.
double gelu_one_plus_tanh(double x, DType dtype) {
  const float sqrt_2_over_pi = f32(std::sqrt(2.0 / kPi));
  const double x3 = store(f32(store(f32(x) * f32(x), dtype)) * f32(x), dtype);
  const double inner = store(f32(x) + f32(store(0.044715f * f32(x3), dtype)), dtype);
  const double z = store(sqrt_2_over_pi * f32(inner), dtype);
  const double e2 = store(std::exp(2.0f * f32(z)), dtype);
  const double ratio = store(2.0f / f32(store(f32(e2) + 1.0f, dtype)), dtype);
  const double t = store(1.0f - f32(ratio), dtype);
  const double half_x = store(0.5f * f32(x), dtype);
  return store(f32(half_x) * f32(store(1.0f + f32(t), dtype)), dtype);
}

double silu_stepwise(double x, DType dtype) {
  const double e = store(std::exp(-f32(x)), dtype);
  const double d = store(1.0f + f32(e), dtype);
  const double r = store(1.0f / f32(d), dtype);
  return store(f32(x) * f32(r), dtype);
}

// x * exp(x) / (1 + exp(x)): right for moderate x, NaN once exp(x) overflows FP32.
double silu_naive(double x, DType dtype) {
  const float e = std::exp(f32(x));
  return store(f32(x) * e / (1.0f + e), dtype);
}

// tanh z as (exp(2z) - 1) / (exp(2z) + 1): NaN once exp(2z) overflows FP32.
double gelu_tanh_by_exp(double x, DType dtype) {
  const float xf = f32(x);
  const float z = f32(std::sqrt(2.0 / kPi)) * (xf + 0.044715f * xf * xf * xf);
  const float e2 = std::exp(2.0f * z);
  const float t = (e2 - 1.0f) / (e2 + 1.0f);
  return store(0.5f * xf * (1.0f + t), dtype);
}

}  // namespace

Values relu(const Inputs& in, const ResolvedConfig& c) {
  Values y;
  for (double x : in[0].data) y.push_back(store(std::max(x, 0.0), c.dtype));
  return y;
}

Values silu(const Inputs& in, const ResolvedConfig& c) {
  Values y;
  for (double x : in[0].data) y.push_back(silu_stepwise(x, c.dtype));
  return y;
}

Values silu_exp_form(const Inputs& in, const ResolvedConfig& c) {
  Values y;
  for (double x : in[0].data) y.push_back(silu_naive(x, c.dtype));
  return y;
}

Values gelu(const Inputs& in, const ResolvedConfig& c, GeluForm form) {
  Values y;
  for (double x : in[0].data) {
    switch (form) {
      case GeluForm::sigmoid:
        y.push_back(gelu_stepwise(x, c.dtype));
        break;
      case GeluForm::one_plus_tanh:
        y.push_back(gelu_one_plus_tanh(x, c.dtype));
        break;
      case GeluForm::erf:
        y.push_back(store(0.5 * x * (1.0 + std::erf(x / std::sqrt(2.0))), c.dtype));
        break;
      case GeluForm::plain_sigmoid:
        y.push_back(store(1.0 / (1.0 + std::exp(-x)), c.dtype));
        break;
      case GeluForm::tanh_by_exp:
        y.push_back(gelu_tanh_by_exp(x, c.dtype));
        break;
    }
  }
  return y;
}

Values softmax(const Inputs& in, const ResolvedConfig& c, bool subtract_max) {
  const Tensor& x = in[0];
  const int64_t n = x.shape.back();
  Values y(x.data.size());
  for (int64_t r = 0; r < rows_of(x); ++r) {
    float row_max = -INFINITY;
    for (int64_t j = 0; j < n; ++j) row_max = std::max(row_max, f32(x.at2(r, j)));
    if (!subtract_max) row_max = 0.0f;
    float sum = 0.0f;  // FP32 reduction
    Values e(at(n));
    for (int64_t j = 0; j < n; ++j) {
      e[at(j)] = store(std::exp(f32(x.at2(r, j)) - row_max), c.dtype);
      sum += f32(e[at(j)]);
    }
    const float inv = 1.0f / sum;
    for (int64_t j = 0; j < n; ++j) y[at(r * n + j)] = store(f32(e[at(j)]) * inv, c.dtype);
  }
  return y;
}

Values rms_norm(const Inputs& in, const ResolvedConfig& c, bool use_eps, bool use_gamma) {
  const Tensor& x = in[0];
  const Tensor& gamma = in[1];
  const int64_t n = x.shape.back();
  const float eps = use_eps ? f32(c.param("eps")) : 0.0f;
  Values y(x.data.size());
  for (int64_t r = 0; r < rows_of(x); ++r) {
    float sum_sq = 0.0f;
    for (int64_t j = 0; j < n; ++j) sum_sq += f32(x.at2(r, j)) * f32(x.at2(r, j));
    const float inv_rms = 1.0f / std::sqrt(sum_sq / static_cast<float>(n) + eps);
    for (int64_t j = 0; j < n; ++j) {
      const double normalised = store(f32(x.at2(r, j)) * inv_rms, c.dtype);
      const double g = use_gamma ? gamma.data[at(j)] : 1.0;
      y[at(r * n + j)] = store(f32(normalised) * f32(g), c.dtype);
    }
  }
  return y;
}

Values layer_norm(const Inputs& in, const ResolvedConfig& c, const LayerNormOptions& options) {
  const Tensor& x = in[0];
  const Tensor& gamma = in[1];
  const Tensor& beta = in[2];
  const int64_t n = x.shape.back();
  const float eps = f32(c.param("eps"));
  Values y(x.data.size());
  for (int64_t r = 0; r < rows_of(x); ++r) {
    // Two passes in FP32: the mean, then the biased variance around it. The mean sums x - x[0] (exact
    // for values near x[0]), so a large common offset costs no digits (the range-stress set).
    const float shift = f32(x.at2(r, 0));
    float sum = 0.0f;
    for (int64_t j = 0; j < n; ++j) sum += f32(x.at2(r, j)) - shift;
    const float mean = shift + sum / static_cast<float>(n);
    float sum_sq = 0.0f;
    for (int64_t j = 0; j < n; ++j) {
      const float centred = options.rms_style ? f32(x.at2(r, j)) : f32(x.at2(r, j)) - mean;
      sum_sq += centred * centred;
    }
    float variance = sum_sq / static_cast<float>(n);
    if (options.one_pass_variance) {
      float sum_x2 = 0.0f;
      for (int64_t j = 0; j < n; ++j) sum_x2 += f32(x.at2(r, j)) * f32(x.at2(r, j));
      variance = sum_x2 / static_cast<float>(n) - mean * mean;
    }
    float inv_std = 1.0f / std::sqrt(variance + eps);
    if (!options.divide_by_std) inv_std = 1.0f;
    const float offset = (options.subtract_mean && !options.rms_style) ? mean : 0.0f;
    for (int64_t j = 0; j < n; ++j) {
      const double normalised = store((f32(x.at2(r, j)) - offset) * inv_std, c.dtype);
      const double scaled = store(f32(normalised) * f32(gamma.data[at(j)]), c.dtype);
      y[at(r * n + j)] = options.use_beta ? store(f32(scaled) + f32(beta.data[at(j)]), c.dtype) : scaled;
    }
  }
  return y;
}

Values gemm(const Inputs& in, const ResolvedConfig& c, bool transpose_b) {
  const Tensor& a = in[0];
  const Tensor& b = in[1];
  const int64_t m = a.shape[0], k = a.shape[1], n = b.shape[1];
  Values out(at(m * n));
  for (int64_t i = 0; i < m; ++i) {
    for (int64_t j = 0; j < n; ++j) {
      float acc = 0.0f;
      for (int64_t p = 0; p < k; ++p) {
        const double bv = transpose_b ? b.data[at(j * k + p)] : b.data[at(p * n + j)];
        acc += f32(a.data[at(i * k + p)]) * f32(bv);
      }
      out[at(i * n + j)] = store(acc, c.dtype);
    }
  }
  return out;
}

Values linear(const Inputs& in, const ResolvedConfig& c, bool transposed_weight, bool use_bias) {
  const Tensor& x = in[0];
  const Tensor& w = in[1];
  const Tensor& bias = in[2];
  const int64_t m = x.shape[0], k = x.shape[1], n = w.shape[0];
  Values out(at(m * n));
  for (int64_t i = 0; i < m; ++i) {
    for (int64_t j = 0; j < n; ++j) {
      float acc = 0.0f;
      for (int64_t p = 0; p < k; ++p) {
        const double wv = transposed_weight ? w.data[at(p * n + j)] : w.data[at(j * k + p)];
        acc += f32(x.data[at(i * k + p)]) * f32(wv);
      }
      const double product = store(acc, c.dtype);
      const double b = use_bias ? bias.data[at(j)] : 0.0;
      out[at(i * n + j)] = store(f32(product) + f32(b), c.dtype);
    }
  }
  return out;
}

Values gemv(const Inputs& in, const ResolvedConfig& c, bool transposed_a) {
  const Tensor& a = in[0];
  const Tensor& x = in[1];
  const int64_t m = a.shape[0], k = a.shape[1];
  Values y(at(m));
  for (int64_t i = 0; i < m; ++i) {
    float acc = 0.0f;
    for (int64_t p = 0; p < k; ++p)
      acc += f32(transposed_a ? a.data[at(p * m + i)] : a.data[at(i * k + p)]) * f32(x.data[at(p)]);
    y[at(i)] = store(acc, c.dtype);
  }
  return y;
}

Values batch_matmul(const Inputs& in, const ResolvedConfig& c, bool transpose_b, bool first_b_only) {
  const Tensor& a = in[0];
  const Tensor& b = in[1];
  const int64_t batch = a.shape[0], m = a.shape[1], k = a.shape[2], n = b.shape[2];
  Values out(at(batch * m * n));
  for (int64_t bi = 0; bi < batch; ++bi) {
    const int64_t a_base = bi * m * k;
    const int64_t b_base = first_b_only ? 0 : bi * k * n;
    for (int64_t i = 0; i < m; ++i) {
      for (int64_t j = 0; j < n; ++j) {
        float acc = 0.0f;
        for (int64_t p = 0; p < k; ++p) {
          const double bv = transpose_b ? b.data[at(b_base + j * k + p)] : b.data[at(b_base + p * n + j)];
          acc += f32(a.data[at(a_base + i * k + p)]) * f32(bv);
        }
        out[at((bi * m + i) * n + j)] = store(acc, c.dtype);
      }
    }
  }
  return out;
}

namespace {

// Shared by conv2d and depthwise_conv: the input position and kernel tap for output (oh, ow) and tap
// (i, j), or false where the input position is padding.
struct ConvGeometry {
  int64_t h, w, kh, kw, stride, pad, oh, ow;
  bool input_position(const ConvOptions& o, int64_t out_h, int64_t out_w, int64_t i, int64_t j, int64_t& in_h,
                      int64_t& in_w) const {
    const int64_t s = o.stride_one ? 1 : stride;
    const int64_t p = o.ignore_padding ? 0 : pad;
    in_h = out_h * s + i - p;
    in_w = out_w * s + j - p;
    return in_h >= 0 && in_h < h && in_w >= 0 && in_w < w;
  }
};

ConvGeometry conv_geometry(const ResolvedConfig& c) {
  const Shape& y = c.outputs[0].shape;
  return {c.dim("H"), c.dim("W"), c.dim("KH"), c.dim("KW"), c.dim("STRIDE"), c.dim("PAD"), y[0], y[1]};
}

}  // namespace

Values conv2d(const Inputs& in, const ResolvedConfig& c, const ConvOptions& o) {
  const Tensor& x = in[0];
  const Tensor& w = in[1];
  const ConvGeometry g = conv_geometry(c);
  const int64_t channels = c.dim("C"), filters = c.dim("F");
  Values y(at(g.oh * g.ow * filters));
  for (int64_t oh = 0; oh < g.oh; ++oh) {
    for (int64_t ow = 0; ow < g.ow; ++ow) {
      for (int64_t f = 0; f < filters; ++f) {
        float acc = 0.0f;  // one FP32 accumulation over the im2col row (i, j, c)
        for (int64_t i = 0; i < g.kh; ++i) {
          for (int64_t j = 0; j < g.kw; ++j) {
            int64_t ih = 0, iw = 0;
            if (!g.input_position(o, oh, ow, i, j, ih, iw)) continue;
            const int64_t ki = o.flip_kernel ? g.kh - 1 - i : i;
            const int64_t kj = o.flip_kernel ? g.kw - 1 - j : j;
            for (int64_t ch = 0; ch < channels; ++ch) {
              const double xv = o.input_nchw ? x.data[at((ch * g.h + ih) * g.w + iw)]
                                             : x.data[at((ih * g.w + iw) * channels + ch)];
              const double wv = o.weights_swapped
                                    ? w.data[at(((ki * g.kw + kj) * filters + f) * channels + ch)]
                                    : w.data[at(((ki * g.kw + kj) * channels + ch) * filters + f)];
              acc += f32(xv) * f32(wv);
            }
          }
        }
        y[at((oh * g.ow + ow) * filters + f)] = store(acc, c.dtype);
      }
    }
  }
  return y;
}

Values depthwise_conv(const Inputs& in, const ResolvedConfig& c, const ConvOptions& o) {
  const Tensor& x = in[0];
  const Tensor& w = in[1];
  const ConvGeometry g = conv_geometry(c);
  const int64_t channels = c.dim("C");
  Values y(at(g.oh * g.ow * channels));
  for (int64_t oh = 0; oh < g.oh; ++oh) {
    for (int64_t ow = 0; ow < g.ow; ++ow) {
      for (int64_t ch = 0; ch < channels; ++ch) {
        float acc = 0.0f;
        for (int64_t i = 0; i < g.kh; ++i) {
          for (int64_t j = 0; j < g.kw; ++j) {
            int64_t ih = 0, iw = 0;
            if (!g.input_position(o, oh, ow, i, j, ih, iw)) continue;
            const int64_t ki = o.flip_kernel ? g.kh - 1 - i : i;
            const int64_t kj = o.flip_kernel ? g.kw - 1 - j : j;
            const double xv = o.input_nchw ? x.data[at((ch * g.h + ih) * g.w + iw)]
                                           : x.data[at((ih * g.w + iw) * channels + ch)];
            const double wv = o.weights_swapped ? w.data[at((ch * g.kh + ki) * g.kw + kj)]
                                                : w.data[at((ki * g.kw + kj) * channels + ch)];
            acc += f32(xv) * f32(wv);
          }
        }
        y[at((oh * g.ow + ow) * channels + ch)] = store(acc, c.dtype);
      }
    }
  }
  return y;
}

Values rope(const Inputs& in, const ResolvedConfig& c, const RopeOptions& o) {
  const Tensor& x = in[0];
  const Tensor& cos_table = in[1];
  const Tensor& sin_table = in[2];
  const int64_t seq = c.dim("S"), d_head = c.dim("D"), half = d_head / 2;
  Values y(x.data.size());
  for (int64_t row = 0; row < rows_of(x); ++row) {
    const int64_t s = row % seq;
    const double* v = &x.data[at(row * d_head)];
    for (int64_t d = 0; d < d_head; ++d) {
      double rotated = 0.0;
      if (o.interleaved) {
        rotated = d % 2 == 0 ? -v[d + 1] : v[d - 1];
      } else {
        rotated = d < half ? -v[d + half] : v[d - half];
      }
      if (o.sin_flipped) rotated = -rotated;
      const double x_cos = store(f32(v[d]) * f32(cos_table.at2(s, d)), c.dtype);
      const double rot_sin = store(f32(rotated) * f32(sin_table.at2(s, d)), c.dtype);
      y[at(row * d_head + d)] = store(f32(x_cos) + f32(rot_sin), c.dtype);
    }
  }
  return y;
}

Values ffn(const Inputs& in, const ResolvedConfig& c, const FfnOptions& o) {
  const Tensor& x = in[0];
  const Tensor& w1 = in[1];
  const Tensor& b1 = in[2];
  const Tensor& w2 = in[3];
  const Tensor& b2 = in[4];
  const int64_t m = c.dim("M"), d_model = c.dim("D"), hidden = c.dim("F");
  Values h(at(m * hidden));  // stored to scratch in the dtype
  for (int64_t i = 0; i < m; ++i) {
    for (int64_t f = 0; f < hidden; ++f) {
      float acc = 0.0f;
      for (int64_t d = 0; d < d_model; ++d) {
        const double wv = o.w1_not_transposed ? w1.data[at(d * hidden + f)] : w1.data[at(f * d_model + d)];
        acc += f32(x.data[at(i * d_model + d)]) * f32(wv);
      }
      double pre = store(acc, c.dtype);
      if (o.use_b1) pre = store(f32(pre) + f32(b1.data[at(f)]), c.dtype);
      double act = pre;
      if (o.activation == Activation::gelu)
        act = o.naive_gelu ? gelu_tanh_by_exp(pre, c.dtype) : gelu_stepwise(pre, c.dtype);
      if (o.activation == Activation::relu) act = std::max(pre, 0.0);
      h[at(i * hidden + f)] = act;
    }
  }
  Values y(at(m * d_model));
  for (int64_t i = 0; i < m; ++i) {
    for (int64_t e = 0; e < d_model; ++e) {
      float acc = 0.0f;
      for (int64_t f = 0; f < hidden; ++f)
        acc += f32(h[at(i * hidden + f)]) * f32(w2.data[at(e * hidden + f)]);
      const double product = store(acc, c.dtype);
      y[at(i * d_model + e)] = o.use_b2 ? store(f32(product) + f32(b2.data[at(e)]), c.dtype) : product;
    }
  }
  return y;
}

Values swiglu(const Inputs& in, const ResolvedConfig& c, const SwigluOptions& o) {
  const Tensor& x = in[0];
  const Tensor& wg = in[1];
  const Tensor& wu = in[2];
  const Tensor& wd = in[3];
  const int64_t m = c.dim("M"), d_model = c.dim("D"), hidden = c.dim("F");
  Values h(at(m * hidden));
  for (int64_t i = 0; i < m; ++i) {
    for (int64_t f = 0; f < hidden; ++f) {
      float gate = 0.0f, up = 0.0f;
      for (int64_t d = 0; d < d_model; ++d) {
        const float xv = f32(x.data[at(i * d_model + d)]);
        gate += xv * f32(wg.data[at(f * d_model + d)]);
        up += xv * f32(wu.data[at(f * d_model + d)]);
      }
      const double g = store(gate, c.dtype), u = store(up, c.dtype);
      double product = 0.0;
      if (o.no_activation) {
        product = f32(g) * f32(u);
      } else if (o.gate_up_swapped) {
        product = f32(silu_stepwise(u, c.dtype)) * f32(g);
      } else {
        product = f32(o.naive_silu ? silu_naive(g, c.dtype) : silu_stepwise(g, c.dtype)) * f32(u);
      }
      h[at(i * hidden + f)] = store(product, c.dtype);
    }
  }
  Values y(at(m * d_model));
  for (int64_t i = 0; i < m; ++i) {
    for (int64_t e = 0; e < d_model; ++e) {
      float acc = 0.0f;
      for (int64_t f = 0; f < hidden; ++f) {
        const double wv = o.wd_not_transposed ? wd.data[at(f * d_model + e)] : wd.data[at(e * hidden + f)];
        acc += f32(h[at(i * hidden + f)]) * f32(wv);
      }
      y[at(i * d_model + e)] = store(acc, c.dtype);
    }
  }
  return y;
}

int64_t flash_block_keys(const ResolvedConfig& c) {
  // The score budget holds a block of 64 query rows by this many keys.
  const int64_t element_bytes = c.dtype == DType::bf16 ? 2 : 4;
  return static_cast<int64_t>(c.param("score_budget_bytes")) / (64 * element_bytes);
}

Values attention(const Inputs& in, const ResolvedConfig& c, const AttentionOptions& o) {
  const Tensor& q = in[0];
  const Tensor& k = in[1];
  const Tensor& v = in[2];
  const int64_t heads = q.shape.size() == 3 ? q.shape[0] : 1;
  const int64_t kv_heads = k.shape.size() == 3 ? k.shape[0] : 1;
  const int64_t seq = q.shape[q.shape.size() - 2], d_head = q.shape.back();
  const int64_t group = heads / kv_heads;
  bool causal = dim_or(c, "CAUSAL", 0) == 1;
  if (o.causal == CausalMode::never) causal = false;
  if (o.causal == CausalMode::always) causal = true;
  const float scale = o.scale ? f32(c.param("scale")) : 1.0f;
  const int64_t block = !o.online ? seq : o.block_keys > 0 ? o.block_keys : flash_block_keys(c);
  if (block <= 0) throw std::invalid_argument("attention: key block size must be positive");

  Values out(q.data.size());
  std::vector<float> acc(at(d_head));
  Values p(at(seq));
  for (int64_t h = 0; h < heads; ++h) {
    int64_t kv = h / group;
    if (o.kv_map == KvHeadMap::modulo) kv = h % kv_heads;
    if (o.kv_map == KvHeadMap::first) kv = 0;
    const double* qh = &q.data[at(h * seq * d_head)];
    const double* kh = &k.data[at(kv * seq * d_head)];
    const double* vh = &v.data[at(kv * seq * d_head)];
    auto key = [&](int64_t j, int64_t d) {
      return o.k_not_transposed ? kh[d * seq + j] : kh[j * d_head + d];
    };
    auto value = [&](int64_t j, int64_t d) { return o.v_transposed ? vh[d * seq + j] : vh[j * d_head + d]; };
    for (int64_t i = 0; i < seq; ++i) {
      const int64_t keys = causal ? i + 1 : seq;
      float running_max = -INFINITY;
      float running_sum = 0.0f;
      std::fill(acc.begin(), acc.end(), 0.0f);
      for (int64_t start = 0; start < keys; start += block) {
        const int64_t end = std::min(start + block, keys);
        // Scores: an FP32 dot product, scaled, stored in the dtype (scratch or the score block).
        float block_max = -INFINITY;
        for (int64_t j = start; j < end; ++j) {
          float dot = 0.0f;
          for (int64_t d = 0; d < d_head; ++d) dot += f32(qh[i * d_head + d]) * f32(key(j, d));
          p[at(j)] = store(dot * scale, c.dtype);
          if (o.score_bias) p[at(j)] = store(f32(p[at(j)]) + f32(o.score_bias(h, i, j)), c.dtype);
          block_max = std::max(block_max, f32(p[at(j)]));
        }
        const float new_max = o.subtract_max ? std::max(running_max, block_max) : 0.0f;
        // The first block has nothing to rescale (running_sum and acc are 0).
        const float correction =
            (o.rescale && start > 0 && o.subtract_max) ? std::exp(running_max - new_max) : 1.0f;
        float block_sum = 0.0f;
        for (int64_t j = start; j < end; ++j) {
          p[at(j)] = store(std::exp(f32(p[at(j)]) - new_max), c.dtype);
          block_sum += f32(p[at(j)]);
        }
        running_sum = running_sum * correction + block_sum;
        running_max = new_max;
        if (!o.online) break;  // one block holds every key; normalised below
        for (int64_t d = 0; d < d_head; ++d) {
          float pv = 0.0f;
          for (int64_t j = start; j < end; ++j) pv += f32(p[at(j)]) * f32(value(j, d));
          const float updated =
              acc[at(d)] * correction + (o.store_accumulator ? f32(store(pv, c.dtype)) : pv);
          acc[at(d)] = o.store_accumulator ? f32(store(updated, c.dtype)) : updated;
        }
      }
      double* oi = &out[at((h * seq + i) * d_head)];
      if (o.online) {
        for (int64_t d = 0; d < d_head; ++d)
          oi[d] = store(o.normalise ? acc[at(d)] / running_sum : acc[at(d)], c.dtype);
        continue;
      }
      // Materialised softmax: probabilities stored in the dtype, then P V with FP32 accumulation.
      const float inv_sum = o.normalise ? 1.0f / running_sum : 1.0f;
      for (int64_t j = 0; j < keys; ++j) p[at(j)] = store(f32(p[at(j)]) * inv_sum, c.dtype);
      for (int64_t d = 0; d < d_head; ++d) {
        float dot = 0.0f;
        for (int64_t j = 0; j < keys; ++j) dot += f32(p[at(j)]) * f32(value(j, d));
        oi[d] = store(dot, c.dtype);
      }
    }
  }
  return out;
}

namespace {

const Tensor& named(const Inputs& in, const std::string& name) {
  for (const Tensor& t : in) {
    if (t.name == name) return t;
  }
  throw std::invalid_argument("sanity kernel: no input named '" + name + "'");
}

Tensor make_tensor(const std::string& name, Shape shape, Values values) {
  Tensor t(name, std::move(shape));
  t.data = std::move(values);
  return t;
}

// The config an L1/L2 kernel sees when a block calls it: the block's dtype and the step's own dims.
ResolvedConfig step_config(const ResolvedConfig& c, std::vector<std::pair<std::string, int64_t>> dims,
                           std::vector<std::pair<std::string, double>> params = {}) {
  ResolvedConfig step;
  step.task = c.task;
  step.config = c.config;
  step.dtype = c.dtype;
  step.dims = std::move(dims);
  step.params = std::move(params);
  return step;
}

// out[rows, n] = in[rows, k] W[n, k]^T, FP32 accumulation, stored in the dtype.
Values project(const Values& in, int64_t rows, const Tensor& w, DType dtype) {
  const int64_t n = w.shape[0], k = w.shape[1];
  Values out(at(rows * n));
  for (int64_t i = 0; i < rows; ++i) {
    for (int64_t j = 0; j < n; ++j) {
      float acc = 0.0f;
      for (int64_t p = 0; p < k; ++p) acc += f32(in[at(i * k + p)]) * f32(w.data[at(j * k + p)]);
      out[at(i * n + j)] = store(acc, dtype);
    }
  }
  return out;
}

// Token-major [S, HEADS*DH] to head-major [HEADS, S, DH] and back.
Tensor split_heads(const std::string& name, const Values& rows, int64_t seq, int64_t heads,
                   int64_t head_dim) {
  Tensor out(name, {heads, seq, head_dim});
  for (int64_t h = 0; h < heads; ++h)
    for (int64_t s = 0; s < seq; ++s)
      for (int64_t d = 0; d < head_dim; ++d)
        out.data[at((h * seq + s) * head_dim + d)] = rows[at(s * heads * head_dim + h * head_dim + d)];
  return out;
}
Values merge_heads(const Values& heads_major, int64_t seq, int64_t heads, int64_t head_dim) {
  Values rows(heads_major.size());
  for (int64_t h = 0; h < heads; ++h)
    for (int64_t s = 0; s < seq; ++s)
      for (int64_t d = 0; d < head_dim; ++d)
        rows[at(s * heads * head_dim + h * head_dim + d)] = heads_major[at((h * seq + s) * head_dim + d)];
  return rows;
}

Values add_stored(const Values& a, const Values& b, DType dtype) {
  Values out(a.size());
  for (std::size_t i = 0; i < a.size(); ++i) out[i] = store(f32(a[i]) + f32(b[i]), dtype);
  return out;
}

// T5's unidirectional bucket (32 buckets, max distance 128), as a kernel generator would tabulate it.
int64_t t5_bucket(int64_t distance) {
  // Keys after the query (a wrong kernel that ignores the causal mask asks for them) share bucket 0, as in
  // T5's unidirectional bucketing (-min(key - query, 0)); a negative bucket would index outside the table.
  distance = std::max<int64_t>(distance, 0);
  if (distance < 16) return distance;
  return std::min<int64_t>(31, 16 + static_cast<int64_t>(16.0 * std::log(distance / 16.0) / std::log(8.0)));
}

}  // namespace

Values conv_block(const Inputs& in, const ResolvedConfig& c, const ConvBlockOptions& o) {
  const Values conv = conv2d(in, c, o.conv);  // the convolution stored to scratch in the dtype
  const Tensor& x = named(in, "x");
  const Tensor& scale = named(in, "scale");
  const Tensor& shift = named(in, "shift");
  const int64_t filters = c.dim("F");
  const bool residual = (c.dim("RESIDUAL") == 1) == o.residual_from_config;
  Values y(conv.size());
  for (std::size_t i = 0; i < conv.size(); ++i) {
    const auto f = i % static_cast<std::size_t>(filters);
    double v = o.use_scale ? store(f32(conv[i]) * f32(scale.data[f]), c.dtype) : conv[i];
    if (o.use_shift) v = store(f32(v) + f32(shift.data[f]), c.dtype);
    if (residual && !o.residual_after_relu) v = store(f32(v) + f32(x.data[i]), c.dtype);
    if (o.use_relu) v = std::max(v, 0.0);
    if (residual && o.residual_after_relu) v = store(f32(v) + f32(x.data[i]), c.dtype);
    y[i] = v;
  }
  return y;
}

Values decoder_block(const Inputs& in, const ResolvedConfig& c, const DecoderOptions& o) {
  const bool llama = c.task == "decoder_block_llama";
  const int64_t seq = c.dim("S"), model = c.dim("D"), heads = c.dim("HEADS"), head_dim = c.dim("DH");
  const int64_t kv_heads = llama ? c.dim("KV_HEADS") : heads;
  const Tensor& x = named(in, "x");
  const ResolvedConfig norm_config = step_config(c, {{"M", seq}, {"N", model}}, {{"eps", c.param("eps")}});
  auto norm = [&](const Values& rows, const char* gamma) {
    return rms_norm({make_tensor("x", {seq, model}, rows), named(in, gamma)}, norm_config, true, true);
  };

  const Values h = o.attention_norm ? norm(x.data, "g_attn") : x.data;
  Tensor q = split_heads("Q", project(h, seq, named(in, "Wq"), c.dtype), seq, heads, head_dim);
  Tensor k = split_heads("K", project(h, seq, named(in, "Wk"), c.dtype), seq, kv_heads, head_dim);
  const Tensor v = split_heads("V", project(h, seq, named(in, "Wv"), c.dtype), seq, kv_heads, head_dim);
  AttentionOptions attention_options = o.attention;
  double scale = 1.0;
  if (llama) {
    scale = c.param("scale");
    const ResolvedConfig rope_config = step_config(c, {{"S", seq}, {"D", head_dim}});
    q.data = rope({q, named(in, "cos"), named(in, "sin")}, rope_config, o.rope);
    if (o.rope_on_k) k.data = rope({k, named(in, "cos"), named(in, "sin")}, rope_config, o.rope);
  } else {
    if (o.t5_scaled) scale = 1.0 / std::sqrt(static_cast<double>(head_dim));
    const Tensor& table = named(in, "bias");
    if (o.relative_bias) {
      const bool transposed = o.bias_transposed;
      attention_options.score_bias = [&table, heads, transposed](int64_t head, int64_t query, int64_t key) {
        const int64_t bucket = t5_bucket(query - key);
        return table.data[at(transposed ? bucket * heads + head : head * 32 + bucket)];
      };
    }
  }
  const Values attended =
      attention({q, k, v}, step_config(c, {{"CAUSAL", 1}}, {{"scale", scale}}), attention_options);
  const Values projected =
      project(merge_heads(attended, seq, heads, head_dim), seq, named(in, "Wo"), c.dtype);
  const Values x2 = o.attention_residual ? add_stored(x.data, projected, c.dtype) : projected;

  const Values h2 = o.ffn_norm ? norm(x2, "g_ffn") : x2;
  const int64_t hidden = c.dim("F");
  Values ffn_out;
  if (llama) {
    ffn_out = swiglu({make_tensor("x", {seq, model}, h2), named(in, "Wg"), named(in, "Wu"), named(in, "Wd")},
                     step_config(c, {{"M", seq}, {"D", model}, {"F", hidden}}), o.swiglu);
  } else {
    Values inner = project(h2, seq, named(in, "Wi"), c.dtype);
    if (o.t5_relu) {
      for (double& value : inner) value = std::max(value, 0.0);
    }
    ffn_out = project(inner, seq, named(in, "Wo_ff"), c.dtype);
  }
  return o.ffn_residual ? add_stored(x2, ffn_out, c.dtype) : ffn_out;
}

}  // namespace kcraft::tasks::sanity
