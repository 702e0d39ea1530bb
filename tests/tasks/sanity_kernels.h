// Kernels for the pass-rule sanity test (tolerance_sanity_test.cpp): each computes a task the way a
// baseline kernel on a BF16 accelerator does — FP32 arithmetic, FP32 accumulation of products, every
// intermediate that a kernel stores (to scratch or a vector register of the element type) rounded to the
// dtype — and each has switches that turn it into a plausible wrong kernel (a transposed operand, a
// missing scale, the wrong mask, ...). All take the inputs in spec order and return the output's values.
#pragma once

#include <functional>
#include <vector>

#include "tasks/common/task_spec.h"
#include "tasks/common/tensor.h"

namespace kcraft::tasks::sanity {

using Values = std::vector<double>;
using Inputs = std::vector<Tensor>;

// ---- element-wise and row-wise (L1) ----------------------------------------------------------------

Values relu(const Inputs& in, const ResolvedConfig& c);
Values silu(const Inputs& in, const ResolvedConfig& c);
// x * exp(x) / (1 + exp(x)): NaN (inf/inf) once exp(x) overflows FP32 (the range-stress naive kernel).
Values silu_exp_form(const Inputs& in, const ResolvedConfig& c);

enum class GeluForm {
  sigmoid,        // x * sigmoid(2z), z = sqrt(2/pi)(x + 0.044715x^3): the tanh form without cancellation
  one_plus_tanh,  // 0.5x(1 + tanh z), tanh z = 1 - 2/(exp(2z) + 1), every step stored (the spec's hint)
  erf,            // the exact form 0.5x(1 + erf(x/sqrt 2)), correctly rounded (a different definition)
  plain_sigmoid,  // sigmoid(x): the wrong function
  tanh_by_exp,    // 0.5x(1 + tanh z), tanh z = (exp(2z) - 1)/(exp(2z) + 1): NaN once exp(2z) overflows
};
Values gelu(const Inputs& in, const ResolvedConfig& c, GeluForm form);

Values softmax(const Inputs& in, const ResolvedConfig& c, bool subtract_max);
Values rms_norm(const Inputs& in, const ResolvedConfig& c, bool use_eps, bool use_gamma);

struct LayerNormOptions {
  bool subtract_mean = true;  // false: (x) / std instead of (x - mean) / std
  bool divide_by_std = true;  // false: no variance normalisation at all
  bool rms_style = false;     // x / sqrt(mean(x^2) + eps), as rms_norm does
  bool use_beta = true;
  bool one_pass_variance = false;  // var = E[x^2] - E[x]^2 in FP32 (cancels under a large offset)
};
Values layer_norm(const Inputs& in, const ResolvedConfig& c, const LayerNormOptions& options = {});

// ---- matrix products (L1) --------------------------------------------------------------------------

Values gemm(const Inputs& in, const ResolvedConfig& c, bool transpose_b);
Values linear(const Inputs& in, const ResolvedConfig& c, bool transposed_weight, bool use_bias);
// A read as if stored [K, M] when `transposed_a`.
Values gemv(const Inputs& in, const ResolvedConfig& c, bool transposed_a);
// B[b] read as if stored [N, K] when `transpose_b`; B[0] used for every batch when `first_b_only`.
Values batch_matmul(const Inputs& in, const ResolvedConfig& c, bool transpose_b, bool first_b_only);

struct ConvOptions {
  bool ignore_padding = false;   // reads x[oh*STRIDE + i] instead of x[oh*STRIDE + i - PAD]
  bool stride_one = false;       // output pixel (oh, ow) taken at input position (oh, ow)*1
  bool flip_kernel = false;      // true convolution: w[KH-1-i, KW-1-j]
  bool weights_swapped = false;  // conv2d: w[i, j] read as [F, C]; depthwise: w read as [C, KH, KW]
  bool input_nchw = false;       // x read as if stored [C, H, W]
};
Values conv2d(const Inputs& in, const ResolvedConfig& c, const ConvOptions& options = {});
Values depthwise_conv(const Inputs& in, const ResolvedConfig& c, const ConvOptions& options = {});

// ---- composites (L2) -------------------------------------------------------------------------------

struct RopeOptions {
  bool interleaved = false;  // GPT-J pairs (2i, 2i+1) instead of rotate_half's (d, d + D/2)
  bool sin_flipped = false;  // rotate_half with the signs swapped (a rotation by -theta)
};
Values rope(const Inputs& in, const ResolvedConfig& c, const RopeOptions& options = {});

enum class Activation { gelu, none, relu };
struct FfnOptions {
  bool use_b1 = true;
  bool use_b2 = true;
  Activation activation = Activation::gelu;
  bool w1_not_transposed = false;  // x W1 with W1 read as [D, F] instead of x W1^T
  bool naive_gelu = false;         // GELU as GeluForm::tanh_by_exp
};
Values ffn(const Inputs& in, const ResolvedConfig& c, const FfnOptions& options = {});

struct SwigluOptions {
  bool gate_up_swapped = false;    // silu(u) * g
  bool no_activation = false;      // g * u
  bool wd_not_transposed = false;  // h Wd with Wd read as [F, D]
  bool naive_silu = false;         // silu(g) = g * exp(g) / (1 + exp(g))
};
Values swiglu(const Inputs& in, const ResolvedConfig& c, const SwigluOptions& options = {});

enum class CausalMode { from_config, never, always };
enum class KvHeadMap { group, modulo, first };  // h / G (correct), h % KV_HEADS, head 0 for all

struct AttentionOptions {
  bool scale = true;  // false: softmax(Q K^T) without 1/sqrt(D)
  CausalMode causal = CausalMode::from_config;
  bool k_not_transposed = false;  // Q K with K read as if stored [D, S]
  bool v_transposed = false;      // P V^T with V read as if stored [D, S]
  bool normalise = true;          // false: softmax without the division by the row sum
  bool subtract_max = true;       // false: exp of the raw scores (overflows for large logits)
  KvHeadMap kv_map = KvHeadMap::group;
  // flash_attention: the online softmax over key blocks of score_budget_bytes / (64 rows * element
  // size) keys, the output accumulator in FP32 (or stored in the dtype after every block).
  bool online = false;
  bool rescale = true;  // false: the accumulator and sum not rescaled when the max grows
  bool store_accumulator = false;
  int64_t block_keys = 0;  // 0: from the config's score_budget_bytes (flash_block_keys)
  // Added to each score after the scale (T5's relative-position bias); empty: none.
  std::function<double(int64_t head, int64_t query, int64_t key)> score_bias = {};
};
// attention / flash_attention / mha / gqa / mqa: Q [HEADS, S, D] or [S, D]; K, V [KV_HEADS, S, D] or
// [S, D] (the head counts come from the config, 1 where it has none).
Values attention(const Inputs& in, const ResolvedConfig& c, const AttentionOptions& options = {});

// Elements per key block of the online softmax for this config.
int64_t flash_block_keys(const ResolvedConfig& c);

// ---- level-3 blocks: the L1/L2 kernels above composed, every intermediate stored in the dtype ---------

struct ConvBlockOptions {
  ConvOptions conv;                  // the convolution's own wrong classes
  bool use_scale = true;             // false: batch-norm scale left out
  bool use_shift = true;             // false: batch-norm shift left out
  bool residual_from_config = true;  // false: the residual the other way round from RESIDUAL
  bool residual_after_relu = false;  // relu(bn(c)) + x instead of relu(bn(c) + x)
  bool use_relu = true;
};
Values conv_block(const Inputs& in, const ResolvedConfig& c, const ConvBlockOptions& options = {});

struct DecoderOptions {
  bool attention_norm = true;      // false: the projections read x instead of norm(x)
  bool ffn_norm = true;            // false: the FFN reads x2 instead of norm(x2)
  bool attention_residual = true;  // false: x2 = attention output, without + x
  bool ffn_residual = true;        // false: y = FFN output, without + x2
  RopeOptions rope;                // LLaMA: the rotary convention
  bool rope_on_k = true;           // LLaMA: false rotates q only
  AttentionOptions attention;      // causal mode, kv head map, 1/sqrt(DH)
  bool t5_scaled = false;          // T5: scores scaled by 1/sqrt(DH), which T5 does not do
  bool relative_bias = true;       // T5: false leaves the position bias out
  bool bias_transposed = false;    // T5: the [HEADS, 32] table read as [32, HEADS]
  bool t5_relu = true;             // T5: false leaves the FFN's ReLU out
  SwigluOptions swiglu;            // LLaMA: the FFN's wrong classes
};
// decoder_block_llama and decoder_block_t5 (the task in the config says which).
Values decoder_block(const Inputs& in, const ResolvedConfig& c, const DecoderOptions& options = {});

}  // namespace kcraft::tasks::sanity
