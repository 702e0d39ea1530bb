// The reference implementations behind golden_registry(). Each reads its inputs by name, checks the
// shapes it relies on and fills the pre-shaped outputs, computing in double.
#pragma once

#include "tasks/golden/golden.h"

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

}  // namespace kcraft::tasks::golden
