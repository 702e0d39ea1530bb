#include "tasks/rvv/baseline_compiler.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <optional>
#include <stdexcept>

#include "isa/rvv/rvv_memory_map.h"
#include "tasks/rvv/composite.h"
#include "tasks/rvv/kernel_math.h"
#include "tasks/rvv/scalar_pieces.h"
#include "tasks/rvv/vector_kernels.h"

namespace kcraft::rvv {

namespace {

using tasks::GeneratedKernel;
using tasks::Knob;
using tasks::KnobValues;
using tasks::ResolvedConfig;

using vector::subst;

// ------------------------------------------------------------------ the scalar C references (the baseline)

const char* kScalarRelu = R"(void kernel(void) {
  relu_elements((const float*)ADDR_X, (float*)ADDR_Y, M * N);
}
)";

const char* kScalarSilu = R"(void kernel(void) {
  const float* x = (const float*)ADDR_X;
  float* y = (float*)ADDR_Y;
  for (int i = 0; i < M * N; ++i) y[i] = x[i] / (1.0f + kc_expf(-x[i]));
}
)";

const char* kScalarSoftmax = R"(void kernel(void) {
  const float* x = (const float*)ADDR_X;
  float* y = (float*)ADDR_Y;
  for (int m = 0; m < M; ++m) {
    const float* xr = x + m * N;
    float* yr = y + m * N;
    float max = xr[0];
    for (int n = 1; n < N; ++n) max = xr[n] > max ? xr[n] : max;
    float sum = 0.0f;
    for (int n = 0; n < N; ++n) {
      yr[n] = kc_expf(xr[n] - max);
      sum += yr[n];
    }
    for (int n = 0; n < N; ++n) yr[n] = yr[n] / sum;
  }
}
)";

const char* kScalarRmsNorm = R"(void kernel(void) {
  rms_norm_rows((const float*)ADDR_X, (const float*)ADDR_GAMMA, (float*)ADDR_Y, M, N, PARAM_EPS);
}
)";

// The golden reference's loop order (tasks/golden/matmul.cpp: C's row accumulates A[m, k] times B's row k),
// which clang -O2 vectorises along n without reassociating any sum.
const char* kScalarGemm = R"(void kernel(void) {
  const float* a = (const float*)ADDR_A;
  const float* b = (const float*)ADDR_B;
  float* c = (float*)ADDR_C;
  for (int m = 0; m < M; ++m) {
    float* cr = c + m * N;
    for (int n = 0; n < N; ++n) cr[n] = 0.0f;
    for (int k = 0; k < K; ++k) {
      const float amk = a[m * K + k];
      const float* br = b + k * N;
      for (int n = 0; n < N; ++n) cr[n] += amk * br[n];
    }
  }
}
)";

const char* kScalarLinear = R"(void kernel(void) {
  linear_rows((const float*)ADDR_X, (const float*)ADDR_W, (const float*)ADDR_B, (float*)ADDR_Y, M, K, N);
}
)";

const char* kScalarGelu = R"(void kernel(void) {
  const float* x = (const float*)ADDR_X;
  float* y = (float*)ADDR_Y;
  for (int i = 0; i < M * N; ++i) {
    const float v = x[i];
    y[i] = 0.5f * v * (1.0f + kc_tanhf(0.7978845608f * (v + 0.044715f * v * v * v)));
  }
}
)";

const char* kScalarLayerNorm = R"(void kernel(void) {
  const float* x = (const float*)ADDR_X;
  const float* gamma = (const float*)ADDR_GAMMA;
  const float* beta = (const float*)ADDR_BETA;
  float* y = (float*)ADDR_Y;
  for (int m = 0; m < M; ++m) {
    const float* xr = x + m * N;
    float* yr = y + m * N;
    /* The mean sums x - x[0], exact for values near x[0]: a large common offset costs no digits. */
    const float shift = xr[0];
    float sum = 0.0f;
    for (int n = 0; n < N; ++n) sum += xr[n] - shift;
    const float mean = shift + sum / N;
    float sum_sq = 0.0f;
    for (int n = 0; n < N; ++n) sum_sq += (xr[n] - mean) * (xr[n] - mean);
    const float std_dev = kc_sqrtf(sum_sq / N + PARAM_EPS);
    for (int n = 0; n < N; ++n) yr[n] = (xr[n] - mean) / std_dev * gamma[n] + beta[n];
  }
}
)";

const char* kScalarGemv = R"(void kernel(void) {
  const float* a = (const float*)ADDR_A;
  const float* x = (const float*)ADDR_X;
  float* y = (float*)ADDR_Y;
  for (int m = 0; m < M; ++m) {
    float acc = 0.0f;
    for (int k = 0; k < K; ++k) acc += a[m * K + k] * x[k];
    y[m] = acc;
  }
}
)";

// gemm's loop order (rows of C accumulate A[b, m, k] times B[b]'s row k) once per batch.
const char* kScalarBatchMatmul = R"(void kernel(void) {
  for (int b = 0; b < BATCH; ++b) {
    const float* a = (const float*)ADDR_A + b * M * K;
    const float* bb = (const float*)ADDR_B + b * K * N;
    float* c = (float*)ADDR_C + b * M * N;
    for (int m = 0; m < M; ++m) {
      float* cr = c + m * N;
      for (int n = 0; n < N; ++n) cr[n] = 0.0f;
      for (int k = 0; k < K; ++k) {
        const float amk = a[m * K + k];
        const float* br = bb + k * N;
        for (int n = 0; n < N; ++n) cr[n] += amk * br[n];
      }
    }
  }
}
)";

// Every output pixel accumulates, per in-bounds tap (i, j) and input channel c, x's value times w[i, j]'s
// row c: the inner loop runs along the filters, contiguous in both y and w (NHWC, HWIO).
const char* kScalarConv2d = R"(void kernel(void) {
  conv2d_nhwc((const float*)ADDR_X, (const float*)ADDR_W, (float*)ADDR_Y, H, W, C, F, KH, KW, STRIDE, PAD);
}
)";

const char* kScalarDepthwiseConv = R"(void kernel(void) {
  const float* x = (const float*)ADDR_X;
  const float* w = (const float*)ADDR_W;
  float* y = (float*)ADDR_Y;
  const int out_h = (H + 2 * PAD - KH) / STRIDE + 1;
  const int out_w = (W + 2 * PAD - KW) / STRIDE + 1;
  for (int oh = 0; oh < out_h; ++oh) {
    for (int ow = 0; ow < out_w; ++ow) {
      float* yp = y + (oh * out_w + ow) * C;
      for (int c = 0; c < C; ++c) yp[c] = 0.0f;
      for (int i = 0; i < KH; ++i) {
        const int ih = oh * STRIDE + i - PAD;
        if (ih < 0 || ih >= H) continue;
        for (int j = 0; j < KW; ++j) {
          const int iw = ow * STRIDE + j - PAD;
          if (iw < 0 || iw >= W) continue;
          const float* xp = x + (ih * W + iw) * C;
          const float* wp = w + (i * KW + j) * C;
          for (int c = 0; c < C; ++c) yp[c] += xp[c] * wp[c];
        }
      }
    }
  }
}
)";

const char* kScalarRope = R"(void kernel(void) {
  rope_heads((const float*)ADDR_X, (const float*)ADDR_COS, (const float*)ADDR_SIN, (float*)ADDR_Y, HEADS, S, D,
             S * D, D);
}
)";

// The two nn.Linear layers as the linear task computes them, GELU (the gelu task's formula) on the hidden
// features, which go to the scratch region in between.
const char* kScalarFfn = R"(void kernel(void) {
  const float* x = (const float*)ADDR_X;
  const float* w1 = (const float*)ADDR_W1;
  const float* b1 = (const float*)ADDR_B1;
  const float* w2 = (const float*)ADDR_W2;
  const float* b2 = (const float*)ADDR_B2;
  float* hidden = (float*)ADDR_SCRATCH;
  float* y = (float*)ADDR_Y;
  for (int m = 0; m < M; ++m) {
    for (int f = 0; f < F; ++f) {
      float acc = 0.0f;
      for (int d = 0; d < D; ++d) acc += x[m * D + d] * w1[f * D + d];
      const float v = acc + b1[f];
      hidden[m * F + f] = 0.5f * v * (1.0f + kc_tanhf(0.7978845608f * (v + 0.044715f * v * v * v)));
    }
  }
  for (int m = 0; m < M; ++m) {
    for (int e = 0; e < D; ++e) {
      float acc = 0.0f;
      for (int f = 0; f < F; ++f) acc += hidden[m * F + f] * w2[e * F + f];
      y[m * D + e] = acc + b2[e];
    }
  }
}
)";

const char* kScalarSwiglu = R"(void kernel(void) {
  swiglu_rows((const float*)ADDR_X, (const float*)ADDR_WG, (const float*)ADDR_WU, (const float*)ADDR_WD,
              (float*)ADDR_SCRATCH, (float*)ADDR_Y, M, D, F);
}
)";

// The attention family calls one head (scalar_pieces.h's attention_head) per query head: heads are
// head-major [HEADS, S, D], so a head's rows are D floats apart and heads S * D apart; the row's scores
// (S floats) are on the stack.
const char* kScalarAttention = R"(void kernel(void) {
  const attention_geometry geometry = {.seq = S, .dim = D, .q_stride = D, .kv_stride = D, .causal = CAUSAL,
                                       .scale = PARAM_SCALE};
  float scores[S];
  attention_head(&geometry, (const float*)ADDR_Q, (const float*)ADDR_K, (const float*)ADDR_V, (float*)ADDR_O,
                 scores);
}
)";

// mha, gqa and mqa: grouped heads with KV_HEADS = HEADS, KV_HEADS and 1 key/value heads.
std::string scalar_grouped_attention(const std::string& kv_heads) {
  return R"(void kernel(void) {
  const attention_geometry geometry = {.seq = S, .dim = D, .q_stride = D, .kv_stride = D, .causal = CAUSAL,
                                       .scale = PARAM_SCALE};
  float scores[S];
  gqa_heads(&geometry, HEADS, )" +
         kv_heads + R"(, S * D, S * D, 0, 0, (const float*)ADDR_Q, (const float*)ADDR_K, (const float*)ADDR_V,
            (float*)ADDR_O, scores);
}
)";
}

// The intrinsics templates' head loops around their own attention_head(q, k, v, o)
// (vector::attention_head_by_query_blocks).
const char* kHeadsAttention = R"(void kernel(void) {
  attention_head((const float*)ADDR_Q, (const float*)ADDR_K, (const float*)ADDR_V, (float*)ADDR_O);
}
)";

const char* kHeadsMha = R"(void kernel(void) {
  for (int h = 0; h < HEADS; ++h) {
    attention_head((const float*)ADDR_Q + h * S * D, (const float*)ADDR_K + h * S * D,
                   (const float*)ADDR_V + h * S * D, (float*)ADDR_O + h * S * D);
  }
}
)";

// Query head h reads key/value head h / (HEADS / KV_HEADS).
const char* kHeadsGqa = R"(void kernel(void) {
  for (int h = 0; h < HEADS; ++h) {
    const int kv = h / (HEADS / KV_HEADS);
    attention_head((const float*)ADDR_Q + h * S * D, (const float*)ADDR_K + kv * S * D,
                   (const float*)ADDR_V + kv * S * D, (float*)ADDR_O + h * S * D);
  }
}
)";

const char* kHeadsMqa = R"(void kernel(void) {
  for (int h = 0; h < HEADS; ++h) {
    attention_head((const float*)ADDR_Q + h * S * D, (const float*)ADDR_K, (const float*)ADDR_V,
                   (float*)ADDR_O + h * S * D);
  }
}
)";

// The online softmax over blocks of KEY_BLOCK keys: per query row a running maximum, a running sum of
// exp(s - max) and an unnormalised output row (on the stack), rescaled when the maximum grows. On chip at
// any time: one block's scores, KEY_BLOCK floats, far inside score_budget_bytes.
const char* kScalarFlashAttention = R"(#define KEY_BLOCK 64
void kernel(void) {
  const float* q = (const float*)ADDR_Q;
  const float* k = (const float*)ADDR_K;
  const float* v = (const float*)ADDR_V;
  float* o = (float*)ADDR_O;
  _Static_assert(KEY_BLOCK * 4 <= PARAM_SCORE_BUDGET_BYTES, "the score block fits the budget");
  float p[KEY_BLOCK];
  float acc[D];
  for (int i = 0; i < S; ++i) {
    const int keys = CAUSAL ? i + 1 : S;
    float max = -__builtin_inff();
    float sum = 0.0f;
    for (int d = 0; d < D; ++d) acc[d] = 0.0f;
    for (int j0 = 0; j0 < keys; j0 += KEY_BLOCK) {
      const int block = keys - j0 < KEY_BLOCK ? keys - j0 : KEY_BLOCK;
      float block_max = max;
      for (int j = 0; j < block; ++j) {
        float dot = 0.0f;
        for (int d = 0; d < D; ++d) dot += q[i * D + d] * k[(j0 + j) * D + d];
        p[j] = dot * PARAM_SCALE;
        block_max = p[j] > block_max ? p[j] : block_max;
      }
      const float rescale = kc_expf(max - block_max);
      sum *= rescale;
      for (int d = 0; d < D; ++d) acc[d] *= rescale;
      for (int j = 0; j < block; ++j) {
        p[j] = kc_expf(p[j] - block_max);
        sum += p[j];
        for (int d = 0; d < D; ++d) acc[d] += p[j] * v[(j0 + j) * D + d];
      }
      max = block_max;
    }
    for (int d = 0; d < D; ++d) o[i * D + d] = acc[d] / sum;
  }
}
)";

// ------------------------------------------------------------------ the RVV intrinsics templates
// @L@ is LMUL. Loops strip-mine with vsetvl; running sums and maxima live in a whole register group
// updated tail-undisturbed (_tu), so a short last strip leaves the other lanes' partial results intact,
// and are reduced once per row.

const char* kVectorRelu = R"(void kernel(void) {
  const float* x = (const float*)ADDR_X;
  float* y = (float*)ADDR_Y;
  for (size_t i = 0, vl; i < (size_t)M * N; i += vl) {
    vl = __riscv_vsetvl_e32m@L@((size_t)M * N - i);
    vfloat32m@L@_t v = __riscv_vle32_v_f32m@L@(x + i, vl);
    __riscv_vse32_v_f32m@L@(y + i, __riscv_vfmax_vf_f32m@L@(v, 0.0f, vl), vl);
  }
}
)";

const char* kVectorSilu = R"(void kernel(void) {
  const float* x = (const float*)ADDR_X;
  float* y = (float*)ADDR_Y;
  for (size_t i = 0, vl; i < (size_t)M * N; i += vl) {
    vl = __riscv_vsetvl_e32m@L@((size_t)M * N - i);
    vfloat32m@L@_t v = __riscv_vle32_v_f32m@L@(x + i, vl);
    vfloat32m@L@_t e = kc_vexpf(__riscv_vfneg_v_f32m@L@(v, vl), vl);
    __riscv_vse32_v_f32m@L@(y + i, __riscv_vfdiv_vv_f32m@L@(v, __riscv_vfadd_vf_f32m@L@(e, 1.0f, vl), vl), vl);
  }
}
)";

const char* kVectorSoftmax = R"(void kernel(void) {
  const float* x = (const float*)ADDR_X;
  float* y = (float*)ADDR_Y;
  const size_t vlmax = kc_vlmax_e32m@L@((size_t)(N));
  for (int m = 0; m < M; ++m) {
    const float* xr = x + m * N;
    float* yr = y + m * N;
    vfloat32m@L@_t vmax = __riscv_vfmv_v_f_f32m@L@(-__builtin_inff(), vlmax);
    for (size_t n = 0, vl; n < N; n += vl) {
      vl = __riscv_vsetvl_e32m@L@(N - n);
      vmax = __riscv_vfmax_vv_f32m@L@_tu(vmax, vmax, __riscv_vle32_v_f32m@L@(xr + n, vl), vl);
    }
    const float max = __riscv_vfmv_f_s_f32m1_f32(
        __riscv_vfredmax_vs_f32m@L@_f32m1(vmax, __riscv_vfmv_s_f_f32m1(-__builtin_inff(), 1), vlmax));
    vfloat32m@L@_t vsum = __riscv_vfmv_v_f_f32m@L@(0.0f, vlmax);
    for (size_t n = 0, vl; n < N; n += vl) {
      vl = __riscv_vsetvl_e32m@L@(N - n);
      vfloat32m@L@_t e = kc_vexpf(__riscv_vfsub_vf_f32m@L@(__riscv_vle32_v_f32m@L@(xr + n, vl), max, vl), vl);
      __riscv_vse32_v_f32m@L@(yr + n, e, vl);
      vsum = __riscv_vfadd_vv_f32m@L@_tu(vsum, vsum, e, vl);
    }
    const float inv = 1.0f / __riscv_vfmv_f_s_f32m1_f32(
        __riscv_vfredusum_vs_f32m@L@_f32m1(vsum, __riscv_vfmv_s_f_f32m1(0.0f, 1), vlmax));
    for (size_t n = 0, vl; n < N; n += vl) {
      vl = __riscv_vsetvl_e32m@L@(N - n);
      __riscv_vse32_v_f32m@L@(yr + n, __riscv_vfmul_vf_f32m@L@(__riscv_vle32_v_f32m@L@(yr + n, vl), inv, vl), vl);
    }
  }
}
)";

const char* kVectorRmsNorm = R"(void kernel(void) {
  const float* x = (const float*)ADDR_X;
  const float* gamma = (const float*)ADDR_GAMMA;
  float* y = (float*)ADDR_Y;
  const size_t vlmax = kc_vlmax_e32m@L@((size_t)(N));
  for (int m = 0; m < M; ++m) {
    const float* xr = x + m * N;
    float* yr = y + m * N;
    vfloat32m@L@_t vsq = __riscv_vfmv_v_f_f32m@L@(0.0f, vlmax);
    for (size_t n = 0, vl; n < N; n += vl) {
      vl = __riscv_vsetvl_e32m@L@(N - n);
      vfloat32m@L@_t v = __riscv_vle32_v_f32m@L@(xr + n, vl);
      vsq = __riscv_vfmacc_vv_f32m@L@_tu(vsq, v, v, vl);
    }
    const float sum_sq = __riscv_vfmv_f_s_f32m1_f32(
        __riscv_vfredusum_vs_f32m@L@_f32m1(vsq, __riscv_vfmv_s_f_f32m1(0.0f, 1), vlmax));
    const float inv = 1.0f / kc_sqrtf(sum_sq / N + PARAM_EPS);
    for (size_t n = 0, vl; n < N; n += vl) {
      vl = __riscv_vsetvl_e32m@L@(N - n);
      vfloat32m@L@_t v = __riscv_vfmul_vf_f32m@L@(__riscv_vle32_v_f32m@L@(xr + n, vl), inv, vl);
      __riscv_vse32_v_f32m@L@(yr + n, __riscv_vfmul_vv_f32m@L@(v, __riscv_vle32_v_f32m@L@(gamma + n, vl), vl), vl);
    }
  }
}
)";

// ------------------------------------------------------------------ intrinsics for the composites
// Building blocks the composite templates share (@L@ LMUL, @U@ unroll), pasted as static functions.

// gemm_one(a, b, c): C = A B for one batch's matrices. C[m .. m+U, n .. n+vl] in U accumulator groups:
// per k one vector load of B's row strip, shared by U vfmacc.vf with A[m+u, k] as the scalar. K is taken in
// blocks of @KB@ rows of B (the k_block knob), so that a block of B stays in the data cache while every row
// of A passes over it; after the first block the accumulators start from C's partial sums.
std::string vector_gemm_fn(int64_t unroll) {
  return R"(static void gemm_one(const float* a, const float* b, float* c) {
  for (int k0 = 0; k0 < K; k0 += @KB@) {
    const int k1 = K - k0 < @KB@ ? K : k0 + @KB@;
    for (int m = 0; m < M; m += @U@) {
      const float* ar = a + m * K;
      for (size_t n = 0, vl; n < N; n += vl) {
        vl = __riscv_vsetvl_e32m@L@(N - n);
)" +
         vector::repeat(
             unroll,
             "        vfloat32m@L@_t acc{0} = k0 == 0 ? __riscv_vfmv_v_f_f32m@L@(0.0f, vl)\n"
             "                                        : __riscv_vle32_v_f32m@L@(c + (m + {0}) * N + n, "
             "vl);\n") +
         // Two rows of B in flight: the load of one overlaps the multiply-adds of the other (the vector
         // unit's memory and arithmetic engines, docs/rvv.md).
         R"(        int k = k0;
        for (; k + 1 < k1; k += 2) {
          vfloat32m@L@_t b0 = __riscv_vle32_v_f32m@L@(b + k * N + n, vl);
          vfloat32m@L@_t b1 = __riscv_vle32_v_f32m@L@(b + (k + 1) * N + n, vl);
)" +
         vector::repeat(unroll,
                        "          acc{0} = __riscv_vfmacc_vf_f32m@L@(acc{0}, ar[{0} * K + k], b0, vl);\n") +
         vector::repeat(
             unroll, "          acc{0} = __riscv_vfmacc_vf_f32m@L@(acc{0}, ar[{0} * K + k + 1], b1, vl);\n") +
         R"(        }
        if (k < k1) {
          vfloat32m@L@_t b0 = __riscv_vle32_v_f32m@L@(b + k * N + n, vl);
)" +
         vector::repeat(unroll,
                        "          acc{0} = __riscv_vfmacc_vf_f32m@L@(acc{0}, ar[{0} * K + k], b0, vl);\n") +
         "        }\n" +
         vector::repeat(unroll, "        __riscv_vse32_v_f32m@L@(c + (m + {0}) * N + n, acc{0}, vl);\n") +
         R"(      }
    }
  }
}
)";
}

// vlinear: y[r, o] = sum_i x[r, i] * w[o, i] (+ bias[o]) — the linear template as a function: @U@ output
// features per pass share each strip of x's row; `outs` must be a multiple of @U@ (generate() sees to it).
// vdot: one dot product the same way, for tails.
std::string vector_linear_fn(int64_t unroll) {
  return vector::linear_tokens() +
         R"(static void vlinear(const float* x, const float* w, const float* bias, float* y, int rows, int ins,
                    int outs) {
  if (KC_TOKEN_BLOCKS_PAY(rows, ins, outs)) {
    vlinear_tokens(x, w, bias, y, rows, ins, outs);
    return;
  }
  const size_t vlmax = kc_vlmax_e32m@L@((size_t)(ins));
  /* x's rows in blocks of at most @XB@ bytes (half the data cache), each kept cached while w passes over it. */
  const int rows_per_block = ins * 4 >= @XB@ ? 1 : @XB@ / (ins * 4);
  for (int r0 = 0; r0 < rows; r0 += rows_per_block) {
    const int r1 = rows - r0 < rows_per_block ? rows : r0 + rows_per_block;
    for (int o = 0; o < outs; o += @U@) {
      for (int r = r0; r < r1; ++r) {
        const float* xr = x + r * ins;
)" + vector::repeat(unroll, "        vfloat32m@L@_t acc{0} = __riscv_vfmv_v_f_f32m@L@(0.0f, vlmax);\n") +
         R"(        for (size_t i = 0, vl; i < (size_t)ins; i += vl) {
          vl = __riscv_vsetvl_e32m@L@(ins - i);
          vfloat32m@L@_t xv = __riscv_vle32_v_f32m@L@(xr + i, vl);
)" +
         vector::repeat(
             unroll,
             "          acc{0} = __riscv_vfmacc_vv_f32m@L@_tu(acc{0}, xv, __riscv_vle32_v_f32m@L@(w + (o "
             "+ {0}) * "
             "ins + i, vl), vl);\n") +
         "        }\n" +
         vector::repeat(
             unroll,
             "        y[r * outs + o + {0}] = "
             "__riscv_vfmv_f_s_f32m1_f32(__riscv_vfredusum_vs_f32m@L@_f32m1(\n"
             "            acc{0}, __riscv_vfmv_s_f_f32m1(bias ? bias[o + {0}] : 0.0f, 1), vlmax));\n") +
         R"(      }
    }
  }
}

)";
}

// GELU (tanh form) in place: 0.5 v (1 + tanh(z)) = v / (1 + e^{-2z}), z = sqrt(2/pi) (v + 0.044715 v^3).
const char* kVectorGelu = R"(static void vgelu(float* h, size_t n) {
  for (size_t i = 0, vl; i < n; i += vl) {
    vl = __riscv_vsetvl_e32m@L@(n - i);
    vfloat32m@L@_t v = __riscv_vle32_v_f32m@L@(h + i, vl);
    vfloat32m@L@_t inner = __riscv_vfmul_vv_f32m@L@(v, v, vl);
    inner = __riscv_vfmadd_vf_f32m@L@(inner, 0.044715f, __riscv_vfmv_v_f_f32m@L@(1.0f, vl), vl);
    inner = __riscv_vfmul_vv_f32m@L@(inner, v, vl);
    vfloat32m@L@_t e = kc_vexpf(__riscv_vfmul_vf_f32m@L@(inner, -1.5957691216f, vl), vl);
    __riscv_vse32_v_f32m@L@(h + i, __riscv_vfdiv_vv_f32m@L@(v, __riscv_vfadd_vf_f32m@L@(e, 1.0f, vl), vl), vl);
  }
}

)";

const char* kVectorGeluKernel = R"(void kernel(void) {
  const float* x = (const float*)ADDR_X;
  float* y = (float*)ADDR_Y;
  for (size_t i = 0, vl; i < (size_t)M * N; i += vl) {
    vl = __riscv_vsetvl_e32m@L@((size_t)M * N - i);
    __riscv_vse32_v_f32m@L@(y + i, __riscv_vle32_v_f32m@L@(x + i, vl), vl);
  }
  vgelu(y, (size_t)M * N);
}
)";

const char* kVectorLinearKernel = R"(void kernel(void) {
  vlinear((const float*)ADDR_X, (const float*)ADDR_W, (const float*)ADDR_B, (float*)ADDR_Y, M, K, N);
}
)";

const char* kVectorGemvKernel = R"(void kernel(void) {
  vlinear((const float*)ADDR_X, (const float*)ADDR_A, 0, (float*)ADDR_Y, 1, K, M);
}
)";

const char* kVectorFfnKernel = R"(void kernel(void) {
  float* hidden = (float*)ADDR_SCRATCH;
  vlinear((const float*)ADDR_X, (const float*)ADDR_W1, (const float*)ADDR_B1, hidden, M, D, F);
  vgelu(hidden, (size_t)M * F);
  vlinear(hidden, (const float*)ADDR_W2, (const float*)ADDR_B2, (float*)ADDR_Y, M, F, D);
}
)";

// g and u to the two halves of the scratch region, h = silu(g) u over g, then the down projection.
const char* kVectorSwigluKernel = R"(void kernel(void) {
  float* g = (float*)ADDR_SCRATCH;
  float* u = g + M * F;
  vlinear((const float*)ADDR_X, (const float*)ADDR_WG, 0, g, M, D, F);
  vlinear((const float*)ADDR_X, (const float*)ADDR_WU, 0, u, M, D, F);
  for (size_t i = 0, vl; i < (size_t)M * F; i += vl) {
    vl = __riscv_vsetvl_e32m@L@((size_t)M * F - i);
    vfloat32m@L@_t gv = __riscv_vle32_v_f32m@L@(g + i, vl);
    vfloat32m@L@_t e = kc_vexpf(__riscv_vfneg_v_f32m@L@(gv, vl), vl);
    vfloat32m@L@_t h = __riscv_vfdiv_vv_f32m@L@(gv, __riscv_vfadd_vf_f32m@L@(e, 1.0f, vl), vl);
    __riscv_vse32_v_f32m@L@(g + i, __riscv_vfmul_vv_f32m@L@(h, __riscv_vle32_v_f32m@L@(u + i, vl), vl), vl);
  }
  vlinear(g, (const float*)ADDR_WD, 0, (float*)ADDR_Y, M, F, D);
}
)";

// FlashAttention: one head whose key blocks take the score budget (attention_head_by_query_blocks).
const char* kFlashAttentionKernel = R"(void kernel(void) {
  _Static_assert(KB * QB * 4 <= (int)PARAM_SCORE_BUDGET_BYTES, "a block of scores fits the budget");
  attention_head((const float*)ADDR_Q, (const float*)ADDR_K, (const float*)ADDR_V, (float*)ADDR_O);
}
)";

const char* kVectorGemmKernel = R"(
void kernel(void) { gemm_one((const float*)ADDR_A, (const float*)ADDR_B, (float*)ADDR_C); }
)";

const char* kVectorBatchMatmulKernel = R"(
void kernel(void) {
  for (int b = 0; b < BATCH; ++b)
    gemm_one((const float*)ADDR_A + b * M * K, (const float*)ADDR_B + b * K * N, (float*)ADDR_C + b * M * N);
}
)";

// ------------------------------------------------------------------ the tasks

// How a template's unroll knob is bounded: the register groups it needs beside its accumulators, and the
// dimensions it must divide (a pass handles exactly `unroll` rows/features; the attention family has a tail).
struct UnrollRule {
  int64_t spare_groups = 0;
  std::vector<std::string> divides;
  std::string description;
  int64_t baseline = 4;  // the default: the tuner's best at C2 on default
};

struct TaskTemplate {
  std::string scalar;                // the C reference
  bool uses_math;                    // needs kcraft_math.h (kc_expf / kc_tanhf / kc_sqrtf)
  bool uses_vector_exp;              // the intrinsics template needs kc_vexpf
  std::vector<int64_t> lmuls;        // LMUL candidates of the intrinsics template
  int64_t lmul_baseline;             // the best the tuner found at C2 on default (the default: knobs())
  std::optional<UnrollRule> unroll;  // the matrix products: accumulator groups per pass
  bool k_blocked = false;            // gemm_one: the k_block knob (rows of B per pass over A)
  std::vector<std::string> tensors;  // the tensors the kernels name, for a clear error if a spec changes
};

const UnrollRule kGemmRows{
    1, {"M"}, "intrinsics: rows of C per pass (accumulator groups sharing each B load)"};
const UnrollRule kLinearFeatures{
    2, {"N"}, "intrinsics: output features per pass (accumulator groups sharing each x load)"};
const UnrollRule kGemvRows{
    2, {"M"}, "intrinsics: rows of A per pass (accumulator groups sharing each x load)"};
const UnrollRule kFfnFeatures{
    2,
    {"D", "F"},
    "intrinsics: output features per pass in both layers (accumulator groups sharing each "
    "load of the layer's input row)"};
// Beside the accumulators: the tap row's KW weight strips and the input column (KW is 3 in every config;
// generate() takes the real KW).
const UnrollRule kDepthwisePixels{
    4,
    {},
    "intrinsics: output pixels of a row per pass (accumulator groups sharing each input column's "
    "load and the tap row's weights)",
    2};
const UnrollRule kAttentionHeadPasses{
    2,
    {},
    "intrinsics: keys per pass of the scores and query rows per pass of P V (accumulator groups "
    "sharing each load of the transposed query block, or of V's row strip)"};

const std::map<std::string, TaskTemplate>& templates() {
  const std::vector<int64_t> all = {1, 2, 4, 8};
  // kc_vexpf needs 3-4 register groups: the element-wise tasks fit them at LMUL 8 (4 groups) without a spill;
  // the templates that call it next to dot products spill there.
  const std::vector<int64_t> exp_lmuls = {1, 2, 4};
  const std::vector<int64_t> rope_lmuls = {1, 2, 4};  // two halves, their rotations and four table strips
  const std::vector<int64_t> conv_lmuls = {1, 2, 4};  // four accumulators and the weights' strip
  // The attention family: the vector exp, keys per pass as the unroll knob, Q, K, V and O.
  const auto attention_like = [&](std::string scalar) {
    return TaskTemplate{std::move(scalar),   true, true, all, 8, kAttentionHeadPasses, false,
                        {"Q", "K", "V", "O"}};
  };
  static const std::map<std::string, TaskTemplate> t = {
      {"relu", {kScalarRelu, false, false, all, 8, {}, false, {"x", "y"}}},
      {"silu", {kScalarSilu, true, true, all, 8, {}, false, {"x", "y"}}},
      {"softmax", {kScalarSoftmax, true, true, all, 8, {}, false, {"x", "y"}}},
      {"rms_norm", {kScalarRmsNorm, true, false, all, 8, {}, false, {"x", "gamma", "y"}}},
      {"gemm", {kScalarGemm, false, false, all, 8, kGemmRows, true, {"A", "B", "C"}}},
      {"linear", {kScalarLinear, false, false, all, 4, kLinearFeatures, false, {"x", "W", "b", "y"}}},
      {"gelu", {kScalarGelu, true, true, all, 8, {}, false, {"x", "y"}}},
      {"layer_norm", {kScalarLayerNorm, true, false, all, 8, {}, false, {"x", "gamma", "beta", "y"}}},
      {"gemv", {kScalarGemv, false, false, all, 8, kGemvRows, false, {"A", "x", "y"}}},
      {"batch_matmul", {kScalarBatchMatmul, false, false, all, 8, kGemmRows, true, {"A", "B", "C"}}},
      {"conv2d", {kScalarConv2d, false, false, conv_lmuls, 4, {}, false, {"x", "w", "y"}}},
      {"depthwise_conv",
       {kScalarDepthwiseConv, false, false, all, 4, kDepthwisePixels, false, {"x", "w", "y"}}},
      {"rope", {kScalarRope, false, false, rope_lmuls, 4, {}, false, {"x", "cos", "sin", "y"}}},
      {"ffn",
       {kScalarFfn, true, true, exp_lmuls, 4, kFfnFeatures, false, {"x", "W1", "b1", "W2", "b2", "y"}}},
      {"swiglu",
       {kScalarSwiglu, true, true, exp_lmuls, 4, kFfnFeatures, false, {"x", "Wg", "Wu", "Wd", "y"}}},
      {"attention", attention_like(kScalarAttention)},
      {"mha", attention_like(scalar_grouped_attention("HEADS"))},
      {"gqa", attention_like(scalar_grouped_attention("KV_HEADS"))},
      {"mqa", attention_like(scalar_grouped_attention("1"))},
      {"flash_attention", attention_like(kScalarFlashAttention)},
  };
  return t;
}

// The scalar_pieces.h functions a task's scalar reference calls (pasted before it); the level-3 composites
// call them too.
const std::vector<std::string>& scalar_pieces_of(const std::string& task) {
  static const std::map<std::string, std::vector<std::string>> m = {
      {"relu", {"relu_elements"}},
      {"rms_norm", {"rms_norm_rows"}},
      {"linear", {"linear_rows"}},
      {"conv2d", {"conv2d_nhwc"}},
      {"rope", {"rope_heads"}},
      {"swiglu", {"swiglu_rows"}},
      {"attention", {"attention_head"}},
      {"mha", {"gqa_heads"}},
      {"gqa", {"gqa_heads"}},
      {"mqa", {"gqa_heads"}},
  };
  static const std::vector<std::string> none;
  const auto it = m.find(task);
  return it == m.end() ? none : it->second;
}

const TaskTemplate& find_template(const std::string& task) {
  const auto it = templates().find(task);
  if (it == templates().end())
    throw std::invalid_argument("rvv baseline compiler: no template for task '" + task + "'");
  return it->second;
}

const std::vector<int64_t> kUnrolls = {1, 2, 4, 8};
// k_block: rows of B per pass (0: all of K at once).
const std::vector<int64_t> kKBlocks = {0, 16, 32, 64, 128};
// The composites' LMUL: the best of 2, 4 and 8 on decoder_block_t5 C1 (16.97M, 9.94M, 7.09M cycles).
constexpr int kCompositeLmul = 8;
constexpr int64_t kUnrollBaseline = 4;
constexpr int kVectorRegisters = 32;

// Accumulator groups a template may keep in registers next to its operands, so nothing spills.
int64_t max_unroll(const UnrollRule& rule, int64_t lmul) {
  return kVectorRegisters / lmul - rule.spare_groups;
}

// The largest candidate <= value (the smallest candidate when none is).
int64_t clamp_down(const std::vector<int64_t>& candidates, int64_t value) {
  int64_t best = candidates.front();
  for (int64_t c : candidates) {
    if (c <= value) best = std::max(best, c);
  }
  return best;
}

// The attention head's query rows per block: a register group's elements, at most 32 (its buffers take
// (D + S) * 32 floats of DTCM).
int64_t attention_query_block(int vlen, int64_t lmul) {
  return std::min<int64_t>(32, vlen / 32 * lmul);
}

// The head loop of the attention family's templates around attention_head (nullptr: not one of them).
const char* attention_heads(const std::string& task) {
  if (task == "attention") return kHeadsAttention;
  if (task == "mha") return kHeadsMha;
  if (task == "gqa") return kHeadsGqa;
  if (task == "mqa") return kHeadsMqa;
  return nullptr;
}

// The intrinsics kernel of the tasks after the first six, @L@ left for the caller.
std::string intrinsics_body(const std::string& task, int64_t unroll) {
  if (task == "layer_norm") return vector::layer_norm();
  if (task == "rope") return vector::rope();
  if (task == "conv2d") return vector::conv2d();
  if (task == "gelu") return std::string(kVectorGelu) + kVectorGeluKernel;
  if (task == "gemv") return vector_linear_fn(unroll) + kVectorGemvKernel;
  if (task == "gemm") return vector_gemm_fn(unroll) + kVectorGemmKernel;
  if (task == "batch_matmul") return vector_gemm_fn(unroll) + kVectorBatchMatmulKernel;
  if (task == "ffn") return vector_linear_fn(unroll) + kVectorGelu + kVectorFfnKernel;
  if (task == "swiglu") return vector_linear_fn(unroll) + kVectorSwigluKernel;
  throw std::logic_error("rvv: no intrinsics template for " + task);
}

// The length of the loop a template strip-mines: the dot products' K (D for the attention family and the
// first layer of ffn/swiglu), a row for the norms and softmax, half a row for rope, the filters or channels
// of the convolutions, B's row for the matrix products, every element for the element-wise tasks.
int64_t strip_length(const ResolvedConfig& cfg) {
  static const std::map<std::string, std::string> dim = {
      {"gemv", "K"},       {"linear", "K"},       {"ffn", "D"},           {"swiglu", "D"},
      {"gemm", "N"},       {"batch_matmul", "N"}, {"softmax", "N"},       {"rms_norm", "N"},
      {"layer_norm", "N"}, {"conv2d", "F"},       {"depthwise_conv", "C"}};
  if (cfg.task == "rope") return cfg.dim("D") / 2;
  if (attention_heads(cfg.task) != nullptr || cfg.task == "flash_attention")
    return std::min<int64_t>(cfg.dim("S"), 32);  // a query block
  const auto it = dim.find(cfg.task);
  return it == dim.end() ? cfg.dim("M") * cfg.dim("N") : cfg.dim(it->second);
}

int64_t knob_value(const KnobValues& values, const std::vector<Knob>& knobs, const std::string& name) {
  const auto it = values.find(name);
  if (it != values.end()) return it->second;
  for (const auto& k : knobs) {
    if (k.name == name) return k.baseline;
  }
  throw std::logic_error("rvv template has no knob " + name);
}

}  // namespace

tasks::DramLayout task_layout(const ResolvedConfig& cfg) {
  if (cfg.dtype != tasks::DType::fp32) {
    throw std::invalid_argument(
        fmt::format("rvv: task {} {} must be resolved in fp32 (rvv tensors are FP32)", cfg.task, cfg.config));
  }
  return tasks::compute_layout(cfg, kLayoutAlignment);
}

BaselineCompiler::BaselineCompiler(int vlen, int64_t dcache_bytes)
    : vlen_(vlen), dcache_bytes_(dcache_bytes) {
  if (vlen < 128 || vlen > 1024 || (vlen & (vlen - 1)) != 0) {
    throw std::invalid_argument(
        fmt::format("rvv baseline compiler: VLEN {} is not a power of two in [128, 1024]", vlen));
  }
}

std::unique_ptr<tasks::BaselineCompiler> make_baseline_compiler(int vlen, int64_t dcache_bytes) {
  return std::make_unique<BaselineCompiler>(vlen, dcache_bytes);
}

std::vector<std::string> BaselineCompiler::supported_tasks() const {
  std::vector<std::string> names;
  for (const auto& [name, t] : templates()) names.push_back(name);
  for (const auto& name : composite::tasks()) names.push_back(name);
  std::sort(names.begin(), names.end());
  return names;
}

std::string BaselineCompiler::unsupported_reason(const ResolvedConfig& cfg) const {
  if (!supports(cfg.task)) return "the rvv baseline compiler has no template for task '" + cfg.task + "'";
  if (cfg.dtype != tasks::DType::fp32)
    return "rvv tensors are FP32; the configuration is resolved in another dtype";
  if (composite::is_composite(cfg.task)) {
    if (std::string why = composite::unsupported_reason(cfg); !why.empty()) return why;
    const uint64_t bytes = tasks::compute_layout(cfg, kLayoutAlignment).total_bytes;
    if (bytes > RVV_DRAM_MAX_BYTES)
      return fmt::format("the layout needs {} bytes of DRAM; rvv has at most {}", bytes, RVV_DRAM_MAX_BYTES);
    return "";
  }
  for (const auto& name : find_template(cfg.task).tensors) {
    bool found = false;
    for (const auto& t : cfg.inputs) found = found || t.name == name;
    for (const auto& t : cfg.outputs) found = found || t.name == name;
    if (!found) return "the rvv template for " + cfg.task + " expects a tensor named '" + name + "'";
  }
  if ((cfg.task == "ffn" || cfg.task == "swiglu") && cfg.scratch_bytes == 0)
    return "the rvv template for " + cfg.task +
           " keeps its hidden features in the scratch region, and the "
           "spec declares none";
  const uint64_t bytes = tasks::compute_layout(cfg, kLayoutAlignment).total_bytes;
  if (bytes > RVV_DRAM_MAX_BYTES) {
    return fmt::format("the layout needs {} bytes of DRAM; rvv has at most {}", bytes, RVV_DRAM_MAX_BYTES);
  }
  return "";
}

std::vector<Knob> BaselineCompiler::knobs(const ResolvedConfig& cfg) const {
  // The composites' template has no knobs: the tuner would simulate every form of every block in every
  // sweep for a few per cent (their LMUL is fixed at the best measured, kCompositeLmul).
  if (composite::is_composite(cfg.task)) return {};
  const TaskTemplate& t = find_template(cfg.task);
  std::vector<Knob> out;
  // The default LMUL: the template's best at C2, or the smallest whose VLMAX covers the strip when that is
  // less (a wider group would move and reduce idle lanes).
  int64_t lmul = t.lmul_baseline;
  const int64_t strip = strip_length(cfg);
  for (auto it = t.lmuls.rbegin(); it != t.lmuls.rend(); ++it) {
    if (*it <= t.lmul_baseline && vlen_ / 32 * *it >= strip) lmul = *it;
  }
  out.push_back({"lmul",
                 "LMUL, the vector registers grouped per operand (elements per instruction = VLEN/32 x LMUL)",
                 lmul, t.lmuls});
  if (t.unroll) out.push_back({"unroll", t.unroll->description, t.unroll->baseline, kUnrolls});
  if (t.k_blocked) {
    out.push_back(
        {"k_block",
         "rows of B per pass over A (0: all of K): a block of B stays in the data cache while every "
         "row of A uses it; the default is the largest whose rows fit the cache",
         default_k_block(cfg), kKBlocks});
  }
  return out;
}

int64_t BaselineCompiler::default_k_block(const ResolvedConfig& cfg) const {
  const int64_t row_bytes = cfg.dim("N") * 4;
  int64_t best = 0;
  for (int64_t kb : kKBlocks) {
    if (kb > 0 && kb * row_bytes <= dcache_bytes_) best = kb;
  }
  // All of B fits in the cache, or not even the smallest block does: no blocking. (Half the cache, leaving
  // room for A and C, was measured slower: gemm C3/C4/C5 on default 60.9/59.1/52.5 % of the MAC peak
  // against 64.1/60.8/57.7 % with the whole cache; A's scalars and C's partial sums stream past B's block.)
  if (best == 0 || best >= cfg.dim("K") || cfg.dim("K") * row_bytes <= dcache_bytes_) return 0;
  return best;
}

std::string BaselineCompiler::compiler_baseline_name() const {
  return "clang -O2";
}

GeneratedKernel BaselineCompiler::compiler_baseline(const ResolvedConfig& cfg,
                                                    const tasks::DramLayout& layout) const {
  check_generate_args(cfg, layout);
  GeneratedKernel g;
  g.language = kKernelLanguage;
  if (composite::is_composite(cfg.task)) {
    g.source = composite::kernel_source(cfg, layout);
    g.summary =
        "composite: the level-1/2 scalar C references in sequence, intermediates in DRAM scratch, at -O2";
    return g;
  }
  const TaskTemplate& t = find_template(cfg.task);
  std::string& s = g.source;
  s = fmt::format(
      "/* {} {}: the plain scalar C reference (rvv's compiler baseline: clang -O2 with auto-vectorisation). "
      "*/\n",
      cfg.task, cfg.config);
  if (t.uses_math || scalar::pieces_need_math(scalar_pieces_of(cfg.task))) s += math_header() + "\n";
  s += scalar::pieces_source(scalar_pieces_of(cfg.task)) + t.scalar;
  g.summary = "scalar C reference at -O2 (clang's auto-vectorizer decides what runs on the vector unit)";
  return g;
}

void BaselineCompiler::check_generate_args(const ResolvedConfig& cfg, const tasks::DramLayout& layout) const {
  if (const std::string why = unsupported_reason(cfg); !why.empty()) throw std::invalid_argument(why);
  if (layout.task != cfg.task || layout.config != cfg.config) {
    throw std::invalid_argument(
        fmt::format("rvv baseline compiler: the layout is for {} {}, the configuration {} {}", layout.task,
                    layout.config, cfg.task, cfg.config));
  }
}

GeneratedKernel BaselineCompiler::generate(const ResolvedConfig& cfg, const tasks::DramLayout& layout,
                                           const KnobValues& values) const {
  check_generate_args(cfg, layout);
  GeneratedKernel g;
  g.language = kKernelLanguage;
  if (composite::is_composite(cfg.task)) {
    g.source = composite::kernel_source(cfg, layout, kCompositeLmul, dcache_bytes_ / 2);
    g.summary = fmt::format(
        "composite: the level-1/2 pieces in sequence, intermediates in DRAM scratch; the matrix products, "
        "attention and the convolution in RVV intrinsics (LMUL {})",
        kCompositeLmul);
    return g;
  }
  const TaskTemplate& t = find_template(cfg.task);
  const auto knob_list = knobs(cfg);
  const int64_t lmul = clamp_down(t.lmuls, knob_value(values, knob_list, "lmul"));
  int64_t unroll = kUnrollBaseline;
  bool depthwise_streaming = false;
  if (t.unroll) {
    unroll =
        clamp_down(kUnrolls, std::min(knob_value(values, knob_list, "unroll"), max_unroll(*t.unroll, lmul)));
    if (cfg.task == "depthwise_conv") {
      // KW weight groups and the input column beside the accumulators; no room left (LMUL 8): one pixel per
      // pass with every operand loaded per tap (reported as unroll 1).
      const int64_t room = kVectorRegisters / lmul - cfg.dim("KW") - 1;
      depthwise_streaming = room < 1;
      unroll = depthwise_streaming ? 1 : clamp_down(kUnrolls, std::min(unroll, room));
    }
    for (const auto& dim : t.unroll->divides) {
      while (cfg.dim(dim) % unroll != 0) unroll /= 2;  // dims are multiples of 16 today; stay correct if not
    }
  }
  g.knobs["lmul"] = lmul;
  if (t.unroll) g.knobs["unroll"] = unroll;
  int64_t k_block = 0;
  if (t.k_blocked) {
    const int64_t asked = knob_value(values, knob_list, "k_block");
    k_block = asked <= 0 ? 0 : std::max<int64_t>(16, clamp_down(kKBlocks, asked));
    if (k_block >= cfg.dim("K")) k_block = 0;  // one block: the same kernel as none
    g.knobs["k_block"] = k_block;
  }

  std::string& s = g.source;
  const std::string k_text = k_block > 0 ? fmt::format(", k_block {}", k_block) : "";
  s = fmt::format(
      "/* {} {}: hand-vectorised with RVV intrinsics, LMUL={}{}{}. */\n#include <riscv_vector.h>\n", cfg.task,
      cfg.config, lmul, t.unroll ? fmt::format(", unroll {}", unroll) : "", k_text);
  if (t.uses_math) s += "\n" + math_header() + "\n";
  const std::map<std::string, std::string> l = {{"L", std::to_string(lmul)},
                                                {"U", std::to_string(unroll)},
                                                {"KB", k_block == 0 ? "K" : std::to_string(k_block)},
                                                {"XB", std::to_string(dcache_bytes_ / 2)},
                                                {"B", std::to_string(32 / lmul)}};
  std::string body;
  if (cfg.task == "relu") {
    body = subst(kVectorRelu, l);
  } else if (cfg.task == "silu") {
    body = subst(kVectorSilu, l);
  } else if (cfg.task == "softmax") {
    body = subst(kVectorSoftmax, l);
  } else if (cfg.task == "rms_norm") {
    body = subst(kVectorRmsNorm, l);
  } else if (cfg.task == "linear") {
    body = subst(vector_linear_fn(unroll) + kVectorLinearKernel, l);
  } else if (const char* heads = attention_heads(cfg.task)) {
    body = subst(vector::attention_head_by_query_blocks(
                     unroll, std::to_string(attention_query_block(vlen_, lmul)), "S") +
                     heads,
                 l);
  } else if (cfg.task == "flash_attention") {
    // Key blocks of the score budget over the query block's rows (64 keys x 32 rows in FP32).
    body = subst(
        vector::attention_head_by_query_blocks(unroll, std::to_string(attention_query_block(vlen_, lmul)),
                                               "(int)PARAM_SCORE_BUDGET_BYTES / (QB * 4)") +
            kFlashAttentionKernel,
        l);
  } else if (cfg.task == "depthwise_conv") {
    body =
        subst(vector::depthwise_conv(cfg.dim("KW"), cfg.dim("STRIDE"), depthwise_streaming ? 0 : unroll), l);
  } else {
    body = subst(intrinsics_body(cfg.task, unroll), l);
  }
  if (body.find("kc_vlmax_e32m") != std::string::npos) s += subst(vector::vlmax_helper(), l);
  if (t.uses_vector_exp) s += vector_exp_source(static_cast<int>(lmul));
  s += body;
  g.summary =
      fmt::format("RVV intrinsics, LMUL={} ({} elements per instruction at VLEN {}){}{}", lmul,
                  vlen_ / 32 * lmul, vlen_, t.unroll ? fmt::format(", unroll {}", unroll) : "", k_text);
  return g;
}

}  // namespace kcraft::rvv
