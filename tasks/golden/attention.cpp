#include <algorithm>
#include <cmath>
#include <vector>

#include "tasks/golden/references.h"

namespace kcraft::tasks::golden {

namespace {
// One head: o[S, D] = softmax(q k^T * scale + mask) v, with q, k, v, o dense [S, D] matrices.
void attention_head(const double* q, const double* k, const double* v, double* o, int64_t seq, int64_t dim,
                    double scale, bool causal, const ScoreBias& bias, int64_t head) {
  std::vector<double> scores(static_cast<std::size_t>(seq));
  for (int64_t i = 0; i < seq; ++i) {
    // Masked keys (j > i when causal) get probability exactly 0, so they are simply left out.
    const int64_t keys = causal ? i + 1 : seq;
    double row_max = -INFINITY;
    for (int64_t j = 0; j < keys; ++j) {
      double dot = 0.0;
      for (int64_t d = 0; d < dim; ++d) dot += q[i * dim + d] * k[j * dim + d];
      const double score = dot * scale + (bias ? bias(head, i, j) : 0.0);
      scores[static_cast<std::size_t>(j)] = score;
      row_max = std::max(row_max, score);
    }
    double sum = 0.0;
    for (int64_t j = 0; j < keys; ++j) {
      double& p = scores[static_cast<std::size_t>(j)];
      p = std::exp(p - row_max);
      sum += p;
    }
    double* out = o + i * dim;
    for (int64_t j = 0; j < keys; ++j) {
      const double p = scores[static_cast<std::size_t>(j)] / sum;
      for (int64_t d = 0; d < dim; ++d) out[d] += p * v[j * dim + d];
    }
  }
}

bool causal_flag(GoldenContext& context) {
  const int64_t causal = context.dim("CAUSAL");
  context.require(causal == 0 || causal == 1, "CAUSAL must be 0 or 1, got " + std::to_string(causal));
  return causal == 1;
}

// Q and O are [HEADS, S, D] (or [S, D] for one head); K and V are [KV_HEADS, S, D] (or [S, D], one shared
// head). Query head h reads key/value head h / (HEADS / KV_HEADS).
void attend(GoldenContext& context, const Tensor& q, const Tensor& k, const Tensor& v, Tensor& o,
            bool q_has_heads, bool kv_has_heads, double scale, bool causal, const ScoreBias& bias) {
  const std::size_t q_rank = q_has_heads ? 3 : 2;
  const std::size_t kv_rank = kv_has_heads ? 3 : 2;
  context.require(q.shape.size() == q_rank && o.shape == q.shape,
                  "Q " + format_shape(q.shape) + " and O " + format_shape(o.shape) + " must be the same " +
                      (q_has_heads ? "[HEADS, S, D]" : "[S, D]"));
  context.require(k.shape.size() == kv_rank && v.shape == k.shape,
                  "K " + format_shape(k.shape) + " and V " + format_shape(v.shape) + " must be the same " +
                      (kv_has_heads ? "[KV_HEADS, S, D]" : "[S, D]"));
  const int64_t heads = q_has_heads ? q.shape[0] : 1;
  const int64_t kv_heads = kv_has_heads ? k.shape[0] : 1;
  const int64_t seq = q.shape[q_rank - 2], dim = q.shape[q_rank - 1];
  context.require(k.shape[kv_rank - 2] == seq && k.shape[kv_rank - 1] == dim,
                  "K " + format_shape(k.shape) + " must have Q's S = " + std::to_string(seq) +
                      " and D = " + std::to_string(dim));
  context.require(heads % kv_heads == 0, "HEADS = " + std::to_string(heads) +
                                             " must be a multiple of KV_HEADS = " + std::to_string(kv_heads));
  const int64_t group = heads / kv_heads;
  const int64_t head_size = seq * dim;
  for (int64_t h = 0; h < heads; ++h) {
    const int64_t kv = h / group;
    attention_head(q.data.data() + h * head_size, k.data.data() + kv * head_size,
                   v.data.data() + kv * head_size, o.data.data() + h * head_size, seq, dim, scale, causal,
                   bias, h);
  }
}

void grouped_attention(GoldenContext& context, bool q_has_heads, bool kv_has_heads) {
  attend(context, context.input("Q"), context.input("K"), context.input("V"), context.output("O"),
         q_has_heads, kv_has_heads, context.param("scale"), causal_flag(context), {});
}
}  // namespace

void grouped_attention_into(GoldenContext& context, const Tensor& q, const Tensor& k, const Tensor& v,
                            Tensor& o, double scale, bool causal, const ScoreBias& bias) {
  attend(context, q, k, v, o, true, true, scale, causal, bias);
}

void attention(GoldenContext& context) {
  grouped_attention(context, false, false);
}

void mha(GoldenContext& context) {
  const Tensor& q = context.input("Q");
  const Tensor& k = context.input("K");
  context.require(!q.shape.empty() && !k.shape.empty() && q.shape[0] == k.shape[0],
                  "Q " + format_shape(q.shape) + " and K " + format_shape(k.shape) +
                      " must have the same number of heads");
  grouped_attention(context, true, true);
}

void gqa(GoldenContext& context) {
  grouped_attention(context, true, true);
}

void mqa(GoldenContext& context) {
  grouped_attention(context, true, false);
}

}  // namespace kcraft::tasks::golden
