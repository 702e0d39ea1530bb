// The reference implementations behind golden_registry(). Each reads its inputs by name, checks the
// shapes it relies on and fills the pre-shaped outputs, computing in double.
#pragma once

#include "tasks/golden/golden.h"

namespace kcraft::tasks::golden {

// Element-wise activations: y = f(x), any shape.
void relu(GoldenContext& context);  // max(x, 0)
void silu(GoldenContext& context);  // x * sigmoid(x)

// Row-wise over the last dimension of x (any leading shape).
void softmax(GoldenContext& context);   // exp(x - max) / sum
void rms_norm(GoldenContext& context);  // x / sqrt(mean(x^2) + eps) * gamma, gamma [N]

// Matrix products.
void gemm(GoldenContext& context);    // C[M,N] = A[M,K] B[K,N]
void linear(GoldenContext& context);  // y[M,N] = x[M,K] W[N,K]^T + b[N]

}  // namespace kcraft::tasks::golden
