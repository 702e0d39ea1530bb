// The level-3 blocks, composed from the building blocks the L1/L2 references run (references.h): only the
// data movement between them (splitting heads, residual adds, the per-channel affine) is written here.
#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "tasks/golden/references.h"

namespace kcraft::tasks::golden {

namespace {
void require_shape(GoldenContext& context, const Tensor& t, const Shape& expected) {
  context.require(t.shape == expected,
                  t.name + " " + format_shape(t.shape) + " must be " + format_shape(expected));
}

// Token-major [S, HEADS*DH] (column c is head c / DH) to head-major [HEADS, S, DH].
Tensor split_heads(const std::string& name, const std::vector<double>& rows, int64_t seq, int64_t heads,
                   int64_t head_dim) {
  Tensor out(name, {heads, seq, head_dim});
  for (int64_t h = 0; h < heads; ++h) {
    for (int64_t s = 0; s < seq; ++s) {
      for (int64_t d = 0; d < head_dim; ++d) {
        out.data[static_cast<std::size_t>((h * seq + s) * head_dim + d)] =
            rows[static_cast<std::size_t>(s * heads * head_dim + h * head_dim + d)];
      }
    }
  }
  return out;
}

// The inverse of split_heads.
std::vector<double> merge_heads(const Tensor& t) {
  const int64_t heads = t.shape[0], seq = t.shape[1], head_dim = t.shape[2];
  std::vector<double> rows(t.data.size());
  for (int64_t h = 0; h < heads; ++h) {
    for (int64_t s = 0; s < seq; ++s) {
      for (int64_t d = 0; d < head_dim; ++d) {
        rows[static_cast<std::size_t>(s * heads * head_dim + h * head_dim + d)] =
            t.data[static_cast<std::size_t>((h * seq + s) * head_dim + d)];
      }
    }
  }
  return rows;
}

// What both decoder blocks share: x [S, D], the attention's projections and the heads.
struct DecoderShape {
  int64_t seq, model, heads, kv_heads, head_dim;
};

DecoderShape decoder_shape(GoldenContext& context, int64_t kv_heads) {
  const Tensor& x = context.input("x");
  context.require(x.shape.size() == 2 && context.output("y").shape == x.shape,
                  "x " + format_shape(x.shape) + " and y must be the same [S, D]");
  DecoderShape s{x.shape[0], x.shape[1], context.dim("HEADS"), kv_heads, context.dim("DH")};
  context.require(s.kv_heads >= 1 && s.heads % s.kv_heads == 0,
                  "HEADS = " + std::to_string(s.heads) +
                      " must be a multiple of KV_HEADS = " + std::to_string(s.kv_heads));
  const int64_t q_width = s.heads * s.head_dim, kv_width = s.kv_heads * s.head_dim;
  require_shape(context, context.input("Wq"), {q_width, s.model});
  require_shape(context, context.input("Wk"), {kv_width, s.model});
  require_shape(context, context.input("Wv"), {kv_width, s.model});
  require_shape(context, context.input("Wo"), {s.model, q_width});
  return s;
}

// Steps 1-5 of both blocks: x2 = x + attention(norm(x)) Wo^T, with RoPE on q and k when tables are given.
Tensor attention_sublayer(GoldenContext& context, const DecoderShape& s, double scale, const Tensor* cos,
                          const Tensor* sin, const ScoreBias& bias) {
  const Tensor& x = context.input("x");
  Tensor h("h", x.shape);
  rms_norm_into(context, x, context.input("g_attn"), context.param("eps"), h);
  Tensor q = split_heads("q", linear_rows(h.data.data(), context.input("Wq"), nullptr, s.seq), s.seq, s.heads,
                         s.head_dim);
  Tensor k = split_heads("k", linear_rows(h.data.data(), context.input("Wk"), nullptr, s.seq), s.seq,
                         s.kv_heads, s.head_dim);
  const Tensor v = split_heads("v", linear_rows(h.data.data(), context.input("Wv"), nullptr, s.seq), s.seq,
                               s.kv_heads, s.head_dim);
  if (cos != nullptr && sin != nullptr) {
    Tensor q_rotated("q", q.shape), k_rotated("k", k.shape);
    rope_into(context, q, *cos, *sin, q_rotated);
    rope_into(context, k, *cos, *sin, k_rotated);
    q = std::move(q_rotated);
    k = std::move(k_rotated);
  }
  Tensor attended("attention", q.shape);
  grouped_attention_into(context, q, k, v, attended, scale, /*causal=*/true, bias);
  const std::vector<double> merged = merge_heads(attended);
  const std::vector<double> projected = linear_rows(merged.data(), context.input("Wo"), nullptr, s.seq);
  Tensor x2("x2", x.shape);
  for (std::size_t i = 0; i < x2.data.size(); ++i) x2.data[i] = x.data[i] + projected[i];
  return x2;
}
}  // namespace

int64_t t5_relative_bucket(int64_t distance, int64_t num_buckets, int64_t max_distance) {
  // Hugging Face's T5Attention._relative_position_bucket with bidirectional=False: exact buckets for the
  // nearest half, logarithmic ones up to max_distance, the last bucket beyond.
  const int64_t max_exact = num_buckets / 2;
  if (distance < max_exact) return distance;
  const double log_ratio = std::log(static_cast<double>(distance) / static_cast<double>(max_exact)) /
                           std::log(static_cast<double>(max_distance) / static_cast<double>(max_exact));
  const auto bucket =
      max_exact + static_cast<int64_t>(log_ratio * static_cast<double>(num_buckets - max_exact));
  return std::min(bucket, num_buckets - 1);
}

void conv_block(GoldenContext& context) {
  const Tensor& x = context.input("x");
  const Tensor& scale = context.input("scale");
  const Tensor& shift = context.input("shift");
  Tensor& y = context.output("y");
  Tensor conv("c", y.shape);
  conv2d_into(context, x, context.input("w"), conv);
  const int64_t filters = y.shape[2];
  require_shape(context, scale, {filters});
  require_shape(context, shift, {filters});
  const int64_t residual = context.dim("RESIDUAL");
  context.require(residual == 0 || residual == 1, "RESIDUAL must be 0 or 1, got " + std::to_string(residual));
  context.require(residual == 0 || y.shape == x.shape, "the residual add needs y " + format_shape(y.shape) +
                                                           " to be x's shape " + format_shape(x.shape));
  for (std::size_t i = 0; i < y.data.size(); ++i) {
    const auto f = i % static_cast<std::size_t>(filters);
    const double normalised = conv.data[i] * scale.data[f] + shift.data[f];
    y.data[i] = relu_value(normalised + (residual == 1 ? x.data[i] : 0.0));
  }
}

void decoder_block_llama(GoldenContext& context) {
  const DecoderShape s = decoder_shape(context, context.dim("KV_HEADS"));
  const Tensor x2 = attention_sublayer(context, s, context.param("scale"), &context.input("cos"),
                                       &context.input("sin"), {});
  Tensor normed("h2", x2.shape);
  rms_norm_into(context, x2, context.input("g_ffn"), context.param("eps"), normed);
  Tensor ffn_out("ffn", x2.shape);
  swiglu_into(context, normed, context.input("Wg"), context.input("Wu"), context.input("Wd"), ffn_out);
  Tensor& y = context.output("y");
  for (std::size_t i = 0; i < y.data.size(); ++i) y.data[i] = x2.data[i] + ffn_out.data[i];
}

void decoder_block_t5(GoldenContext& context) {
  const DecoderShape s = decoder_shape(context, context.dim("HEADS"));
  const Tensor& table = context.input("bias");
  const double num_buckets = context.param("num_buckets"), max_distance = context.param("max_distance");
  context.require(
      num_buckets >= 2 && num_buckets == std::floor(num_buckets) && max_distance > num_buckets / 2,
      "num_buckets must be an integer >= 2 and max_distance above num_buckets / 2");
  const auto buckets = static_cast<int64_t>(num_buckets);
  require_shape(context, table, {s.heads, buckets});
  // bucket(i - j) depends only on the distance: look each one up once.
  std::vector<int64_t> bucket_of(static_cast<std::size_t>(s.seq));
  for (int64_t p = 0; p < s.seq; ++p) {
    bucket_of[static_cast<std::size_t>(p)] =
        t5_relative_bucket(p, buckets, static_cast<int64_t>(max_distance));
  }
  const ScoreBias relative_bias = [&](int64_t head, int64_t query, int64_t key) {
    // Only keys at or before the query are attended (causal), so the distance is >= 0.
    return table
        .data[static_cast<std::size_t>(head * buckets + bucket_of[static_cast<std::size_t>(query - key)])];
  };
  // T5 has no 1/sqrt(DH): its initialisation of Wq absorbs it.
  const Tensor x2 = attention_sublayer(context, s, 1.0, nullptr, nullptr, relative_bias);
  Tensor normed("h2", x2.shape);
  rms_norm_into(context, x2, context.input("g_ffn"), context.param("eps"), normed);
  const Tensor& wi = context.input("Wi");
  const Tensor& wo_ff = context.input("Wo_ff");
  context.require(wi.shape.size() == 2, "Wi must be [F, D], got " + format_shape(wi.shape));
  require_shape(context, wi, {wi.shape[0], s.model});
  require_shape(context, wo_ff, {s.model, wi.shape[0]});
  std::vector<double> hidden = linear_rows(normed.data.data(), wi, nullptr, s.seq);
  for (double& value : hidden) value = relu_value(value);
  const std::vector<double> ffn_out = linear_rows(hidden.data(), wo_ff, nullptr, s.seq);
  Tensor& y = context.output("y");
  for (std::size_t i = 0; i < y.data.size(); ++i) y.data[i] = x2.data[i] + ffn_out[i];
}

}  // namespace kcraft::tasks::golden
