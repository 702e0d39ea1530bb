// The reference implementations behind golden_registry(). Each reads its inputs by name, checks the
// shapes it relies on and fills the pre-shaped outputs, computing in double.
#pragma once

#include <functional>

#include "tasks/common/tensor.h"
#include "tasks/golden/golden_context.h"

namespace kcraft::tasks::golden {

// Element-wise activations: y = f(x), any shape.
void relu(GoldenContext& context);  // max(x, 0)
void silu(GoldenContext& context);  // x * sigmoid(x)
void gelu(GoldenContext& context);  // tanh approximation
// The tanh-form GELU of one value (shared by gelu and ffn).
double gelu_tanh(double x);

// Row-wise over the last dimension of x (any leading shape).
void softmax(GoldenContext& context);     // exp(x - max) / sum
void rms_norm(GoldenContext& context);    // x / sqrt(mean(x^2) + eps) * gamma, gamma [N]
void layer_norm(GoldenContext& context);  // (x - mean) / sqrt(var + eps) * gamma + beta

// Matrix products.
void gemm(GoldenContext& context);          // C[M,N] = A[M,K] B[K,N]
void linear(GoldenContext& context);        // y[M,N] = x[M,K] W[N,K]^T + b[N]
void gemv(GoldenContext& context);          // y[M] = A[M,K] x[K]
void batch_matmul(GoldenContext& context);  // C[b] = A[b] B[b]

// NHWC images (batch 1), zero padding PAD and stride STRIDE (dims).
void conv2d(GoldenContext& context);          // w [KH,KW,C,F] (HWIO)
void depthwise_conv(GoldenContext& context);  // w [KH,KW,C]

// Transformer pieces.
void rope(GoldenContext& context);    // x [HEADS,S,D] with the given cos/sin [S,D] tables, rotate_half
void ffn(GoldenContext& context);     // linear, GELU (tanh), linear; weights [out, in]
void swiglu(GoldenContext& context);  // (silu(x Wg^T) * x Wu^T) Wd^T

// Scaled dot-product attention, softmax(Q K^T * scale + causal mask) V, causal when the CAUSAL dim is 1.
void attention(GoldenContext& context);  // Q, K, V [S,D] (also flash_attention: same maths)
void mha(GoldenContext& context);        // Q, K, V [HEADS,S,D]
void gqa(GoldenContext& context);  // Q [HEADS,S,D], K, V [KV_HEADS,S,D], head h uses h / (HEADS/KV_HEADS)
void mqa(GoldenContext& context);  // Q [HEADS,S,D], K, V [S,D]

// Level-3 blocks, composed from the building blocks below.
void conv_block(GoldenContext& context);           // conv2d, per-channel scale/shift, residual, ReLU
void decoder_block_llama(GoldenContext& context);  // RMSNorm, RoPE, causal GQA, SwiGLU, residuals
void decoder_block_t5(GoldenContext& context);     // RMS-style norm, relative-bias attention, ReLU FFN

// ---- building blocks: the maths of the references above on explicit tensors, so the level-3 blocks
// compose the very code the L1/L2 references run (no second implementation) ----

double relu_value(double x);
// y = x / sqrt(mean(x^2) + eps) * gamma over the last dimension.
void rms_norm_into(GoldenContext& context, const Tensor& x, const Tensor& gamma, double eps, Tensor& y);
// conv2d with STRIDE and PAD from the context's dims; y [OH, OW, F] must be zero-filled.
void conv2d_into(GoldenContext& context, const Tensor& x, const Tensor& w, Tensor& y);
// out[rows, N] = in[rows, K] W[N, K]^T (+ bias[N] when given): the nn.Linear convention.
std::vector<double> linear_rows(const double* in, const Tensor& w, const Tensor* bias, int64_t rows);
// x, y [HEADS, S, D] with cos/sin [S, D], rotate_half.
void rope_into(GoldenContext& context, const Tensor& x, const Tensor& cos, const Tensor& sin, Tensor& y);
// (silu(x Wg^T) * x Wu^T) Wd^T; x, y [M, D].
void swiglu_into(GoldenContext& context, const Tensor& x, const Tensor& wg, const Tensor& wu,
                 const Tensor& wd, Tensor& y);
// An additive score term per (head, query, key), e.g. T5's relative-position bias; empty: none.
using ScoreBias = std::function<double(int64_t head, int64_t query, int64_t key)>;
// Q, O [HEADS, S, D]; K, V [KV_HEADS, S, D]; query head h reads key/value head h / (HEADS / KV_HEADS);
// scores are q.k * scale + bias. O must be zero-filled.
void grouped_attention_into(GoldenContext& context, const Tensor& q, const Tensor& k, const Tensor& v,
                            Tensor& o, double scale, bool causal, const ScoreBias& bias = {});
// T5's unidirectional relative-position bucket of a key `distance` = query - key >= 0 positions back.
int64_t t5_relative_bucket(int64_t distance, int64_t num_buckets, int64_t max_distance);

}  // namespace kcraft::tasks::golden
