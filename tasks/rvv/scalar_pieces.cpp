#include "tasks/rvv/scalar_pieces.h"

#include <map>
#include <set>
#include <stdexcept>

namespace kcraft::rvv::scalar {

namespace {

struct Piece {
  const char* text;
  bool needs_math;                   // calls kc_expf / kc_sqrtf (kcraft_math.h)
  std::vector<std::string> callees;  // pieces it calls (or whose types it uses)
};

const char* kRmsNormRows =
    R"(/* rms_norm over `rows` rows of `width`: y = x / sqrt(mean(x^2) + eps) * gamma. */
static void rms_norm_rows(const float* x, const float* gamma, float* y, int rows, int width, float eps) {
  for (int m = 0; m < rows; ++m) {
    const float* xr = x + m * width;
    float* yr = y + m * width;
    float sum_sq = 0.0f;
    for (int n = 0; n < width; ++n) sum_sq += xr[n] * xr[n];
    const float rms = kc_sqrtf(sum_sq / width + eps);
    for (int n = 0; n < width; ++n) yr[n] = xr[n] / rms * gamma[n];
  }
}

)";

const char* kLinearRows =
    R"(/* nn.Linear over `rows` rows: y[m, n] = sum_k x[m, k] w[n, k] + b[n], w [out_features, in_features];
 * b may be 0 (no bias). */
static void linear_rows(const float* x, const float* w, const float* b, float* y, int rows, int in_features,
                        int out_features) {
  for (int m = 0; m < rows; ++m) {
    for (int n = 0; n < out_features; ++n) {
      float acc = 0.0f;
      for (int k = 0; k < in_features; ++k) acc += x[m * in_features + k] * w[n * in_features + k];
      y[m * out_features + n] = b ? acc + b[n] : acc;
    }
  }
}

)";

const char* kReluElements = R"(/* y = max(x, 0) over `count` elements (y may be x). */
static void relu_elements(const float* x, float* y, int count) {
  for (int i = 0; i < count; ++i) y[i] = x[i] > 0.0f ? x[i] : 0.0f;
}

)";

const char* kAddElements = R"(/* y = a + b over `count` elements (y may be a or b): a residual add. */
static void add_elements(const float* a, const float* b, float* y, int count) {
  for (int i = 0; i < count; ++i) y[i] = a[i] + b[i];
}

)";

const char* kScaleShiftChannels =
    R"(/* A per-channel affine over `pixels` NHWC pixels: y[p, c] = x[p, c] * scale[c] + shift[c]. */
static void scale_shift_channels(const float* x, const float* scale, const float* shift, float* y, int pixels,
                                 int channels) {
  for (int p = 0; p < pixels; ++p) {
    for (int c = 0; c < channels; ++c) y[p * channels + c] = x[p * channels + c] * scale[c] + shift[c];
  }
}

)";

const char* kRopeHeads =
    R"(/* RoPE (rotate_half) on `heads` heads of `seq` rows of `dim`: row s of head h starts h * head_stride +
 * s * row_stride floats into x and y (head-major [heads, seq, dim]: seq * dim and dim; token-major
 * [seq, heads * dim]: dim and heads * dim); cos_t and sin_t are [seq, dim]. y must not overlap x. */
static void rope_heads(const float* x, const float* cos_t, const float* sin_t, float* y, int heads, int seq,
                       int dim, int head_stride, int row_stride) {
  const int half = dim / 2;
  for (int h = 0; h < heads; ++h) {
    for (int s = 0; s < seq; ++s) {
      const float* xr = x + h * head_stride + s * row_stride;
      const float* cr = cos_t + s * dim;
      const float* sr = sin_t + s * dim;
      float* yr = y + h * head_stride + s * row_stride;
      for (int d = 0; d < half; ++d) yr[d] = xr[d] * cr[d] - xr[d + half] * sr[d];
      for (int d = half; d < dim; ++d) yr[d] = xr[d] * cr[d] + xr[d - half] * sr[d];
    }
  }
}

)";

const char* kAttentionGeometry = R"(/* Where one attention head's rows are and how its scores are formed. */
typedef struct {
  int seq;                     /* query and key rows */
  int dim;                     /* elements of a q, k, v and o row */
  int q_stride;                /* floats from one row of q (and of o) to the next */
  int kv_stride;               /* floats from one row of k (and of v) to the next */
  int causal;                  /* 1: query i attends keys j <= i only */
  float scale;                 /* multiplies the dot products */
  const float* bias;           /* 0, or score (i, j) gets bias[bucket[i - j]] added (T5's relative position) */
  const unsigned char* bucket; /* with bias: the bucket of each distance i - j */
} attention_geometry;

)";

const char* kAttentionHeadBody =
    R"(/* One head of scaled dot-product attention, a query row at a time: the row's scores in p (seq floats, on
 * the caller's stack), their softmax, then O's row accumulates p[j] times V's row j. */
static void attention_head(const attention_geometry* g, const float* q, const float* k, const float* v, float* o,
                           float* p) {
  const int seq = g->seq, dim = g->dim, q_stride = g->q_stride, kv_stride = g->kv_stride;
  const float scale = g->scale;
  const float* bias = g->bias;
  const unsigned char* bucket = g->bucket;
  for (int i = 0; i < seq; ++i) {
    const int keys = g->causal ? i + 1 : seq;
    float max = -__builtin_inff();
    for (int j = 0; j < keys; ++j) {
      float dot = 0.0f;
      for (int d = 0; d < dim; ++d) dot += q[i * q_stride + d] * k[j * kv_stride + d];
      p[j] = dot * scale;
      if (bias) p[j] += bias[bucket[i - j]];
      max = p[j] > max ? p[j] : max;
    }
    float sum = 0.0f;
    for (int j = 0; j < keys; ++j) {
      p[j] = kc_expf(p[j] - max);
      sum += p[j];
    }
    for (int j = 0; j < keys; ++j) p[j] = p[j] / sum;
    float* orow = o + i * q_stride;
    for (int d = 0; d < dim; ++d) orow[d] = 0.0f;
    for (int j = 0; j < keys; ++j) {
      for (int d = 0; d < dim; ++d) orow[d] += p[j] * v[j * kv_stride + d];
    }
  }
}

)";

const std::string kAttentionHead = std::string(kAttentionGeometry) + kAttentionHeadBody;

const char* kGqaHeads =
    R"(/* Grouped-query attention: query head h reads key/value head h / (heads / kv_heads) (mha: kv_heads =
 * heads, mqa: 1). Query head h's rows start h * q_head floats into q and o, key/value head n's n * kv_head
 * into k and v. bias_table, if not 0, holds a row of bias_row floats per query head (its g->bias). */
static void gqa_heads(const attention_geometry* g, int heads, int kv_heads, int q_head, int kv_head,
                      const float* bias_table, int bias_row, const float* q, const float* k, const float* v,
                      float* o, float* p) {
  attention_geometry head = *g;
  for (int h = 0; h < heads; ++h) {
    const int kv = h / (heads / kv_heads);
    if (bias_table) head.bias = bias_table + h * bias_row;
    attention_head(&head, q + h * q_head, k + kv * kv_head, v + kv * kv_head, o + h * q_head, p);
  }
}

)";

const char* kSwigluRows =
    R"(/* SwiGLU over `rows` rows of `width`: hidden[m, f] = silu(x Wg^T)[m, f] * (x Wu^T)[m, f] ([rows,
 * features], in DRAM scratch), then y = hidden Wd^T (Wg, Wu [features, width], Wd [width, features]). */
static void swiglu_rows(const float* x, const float* wg, const float* wu, const float* wd, float* hidden, float* y,
                        int rows, int width, int features) {
  for (int m = 0; m < rows; ++m) {
    for (int f = 0; f < features; ++f) {
      float g = 0.0f, u = 0.0f;
      for (int d = 0; d < width; ++d) {
        g += x[m * width + d] * wg[f * width + d];
        u += x[m * width + d] * wu[f * width + d];
      }
      hidden[m * features + f] = g / (1.0f + kc_expf(-g)) * u;
    }
  }
  for (int m = 0; m < rows; ++m) {
    for (int e = 0; e < width; ++e) {
      float acc = 0.0f;
      for (int f = 0; f < features; ++f) acc += hidden[m * features + f] * wd[e * features + f];
      y[m * width + e] = acc;
    }
  }
}

)";

const char* kConv2dNhwc =
    R"(/* 2-D convolution, NHWC input [height, width, channels] (batch 1), HWIO weights [kernel_h, kernel_w,
 * channels, filters], zero padding `pad`, stride `stride`. Every output pixel accumulates, per in-bounds
 * tap (i, j) and input channel c, x's value times w[i, j]'s row c: the inner loop runs along the filters,
 * contiguous in both y and w. */
static void conv2d_nhwc(const float* x, const float* w, float* y, int height, int width, int channels,
                        int filters, int kernel_h, int kernel_w, int stride, int pad) {
  const int out_h = (height + 2 * pad - kernel_h) / stride + 1;
  const int out_w = (width + 2 * pad - kernel_w) / stride + 1;
  for (int oh = 0; oh < out_h; ++oh) {
    for (int ow = 0; ow < out_w; ++ow) {
      float* yp = y + (oh * out_w + ow) * filters;
      for (int f = 0; f < filters; ++f) yp[f] = 0.0f;
      for (int i = 0; i < kernel_h; ++i) {
        const int ih = oh * stride + i - pad;
        if (ih < 0 || ih >= height) continue;
        for (int j = 0; j < kernel_w; ++j) {
          const int iw = ow * stride + j - pad;
          if (iw < 0 || iw >= width) continue;
          for (int c = 0; c < channels; ++c) {
            const float xv = x[(ih * width + iw) * channels + c];
            const float* wr = w + ((i * kernel_w + j) * channels + c) * filters;
            for (int f = 0; f < filters; ++f) yp[f] += xv * wr[f];
          }
        }
      }
    }
  }
}

)";

// In the order the source emits them (callees before callers).
const std::vector<std::pair<std::string, Piece>>& pieces() {
  static const std::vector<std::pair<std::string, Piece>> p = {
      {"rms_norm_rows", {kRmsNormRows, true, {}}},
      {"linear_rows", {kLinearRows, false, {}}},
      {"relu_elements", {kReluElements, false, {}}},
      {"add_elements", {kAddElements, false, {}}},
      {"scale_shift_channels", {kScaleShiftChannels, false, {}}},
      {"rope_heads", {kRopeHeads, false, {}}},
      {"attention_head", {kAttentionHead.c_str(), true, {}}},
      {"gqa_heads", {kGqaHeads, false, {"attention_head"}}},
      {"swiglu_rows", {kSwigluRows, true, {}}},
      {"conv2d_nhwc", {kConv2dNhwc, false, {}}},
  };
  return p;
}

const Piece& find(const std::string& name) {
  for (const auto& [n, piece] : pieces()) {
    if (n == name) return piece;
  }
  throw std::invalid_argument("rvv scalar pieces: no piece named '" + name + "'");
}

// The names with their callees, transitively.
std::set<std::string> closure(const std::vector<std::string>& names) {
  std::set<std::string> out;
  std::vector<std::string> todo = names;
  while (!todo.empty()) {
    const std::string name = todo.back();
    todo.pop_back();
    if (!out.insert(name).second) continue;
    for (const auto& callee : find(name).callees) todo.push_back(callee);
  }
  return out;
}

}  // namespace

std::string pieces_source(const std::vector<std::string>& names,
                          const std::map<std::string, std::string>& replacements) {
  const std::set<std::string> wanted = closure(names);
  std::string text;
  for (const auto& [name, piece] : pieces()) {
    if (wanted.count(name) == 0) continue;
    const auto it = replacements.find(name);
    text += it == replacements.end() ? std::string(piece.text) : it->second;
  }
  return text;
}

bool pieces_need_math(const std::vector<std::string>& names) {
  for (const auto& name : closure(names)) {
    if (find(name).needs_math) return true;
  }
  return false;
}

const char* attention_geometry_source() {
  return kAttentionGeometry;
}

}  // namespace kcraft::rvv::scalar
