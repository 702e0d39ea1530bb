// RVV intrinsics templates and pieces of them: layer_norm, rope and the two convolutions (whose clang -O2
// build leaves the vector unit idle), the attention head of the attention family and flash_attention, the
// token-block matrix product of linear/ffn/swiglu, and the level-3 composites' vectorised pieces. Each
// returns C text with @L@ (and the placeholders it names) left for tasks/rvv/baseline_compiler.cpp to fill;
// every loop strip-mines with vsetvl, so the kernels are correct for any VLEN and any dimension.
#pragma once

#include <cstdint>
#include <map>
#include <string>

namespace kcraft::rvv::vector {

// Replaces every @KEY@ of the text by its value (C code is full of braces, so no fmt templates); a
// placeholder left unreplaced is a logic error (std::logic_error).
std::string subst(std::string text, const std::map<std::string, std::string>& values);

// `pattern` repeated for u = 0 .. count-1, {0} standing for u: the unrolled lines of a template.
std::string repeat(int64_t count, const char* pattern);

// kc_vlmax_e32m@L@(len): min(VLMAX, len), the width of an accumulator that a loop of len elements fills,
// defined once per LMUL however many pieces paste it. The templates that reduce use it.
const std::string& vlmax_helper();

// y = (x - mean) / sqrt(var + eps) * gamma + beta per row: one pass for the sum, one for the squared
// deviations, one for the output (kc_sqrtf from kcraft_math.h).
const std::string& layer_norm();

// Each row's two halves rotated against each other: y_lo = x_lo cos_lo - x_hi sin_lo and
// y_hi = x_hi cos_hi + x_lo sin_hi, a strip of each half per pass.
const std::string& rope();

// Along the channels (contiguous in NHWC input, weights and output), `unroll` output pixels of a row per
// pass, each an accumulator group: per tap row the kw weight strips are loaded once into registers and each
// input column the pass's windows cover once, multiplied into every accumulator whose window holds it
// (unroll + kw + 1 register groups; the tap loop is unrolled for this kw and stride). unroll 0: one pixel at
// a time with every operand loaded per tap (two register groups).
std::string depthwise_conv(int64_t kw, int64_t stride, int64_t unroll);

// vlinear_tokens(x, w, bias, y, rows, ins, outs): y = x w^T (+ bias; bias may be 0), at LMUL 8 with a block
// of 32 rows (tokens) as the vector: the block's columns, 128 at a time, transposed once into DTCM by strided
// loads; each output feature's values for the block are vfmacc.vf of w's row (scalars, pulled into the
// cache a pass ahead by vector loads) with the transposed rows, 2 features per pass, stored with a strided
// store (a previous chunk's partial sums loaded back the same way): no reduction per output. Worth it from
// 8 rows and 32 columns or features on (the callers fall back to dot products below that). No placeholders.
const std::string& linear_tokens();

// attention_head(q, k, v, o) for the attention family and flash_attention (S, D, CAUSAL, PARAM_SCALE from the
// symbols): blocks of query_block query rows with the rows as the vector (query_block at most VLMAX at LMUL
// @L@). Q's block is transposed and scaled once (strided loads); the scores of `unroll` keys per pass are
// vfmacc.vf of their K elements with each row of the transposed block (no reduction per score), stored
// transposed; the softmax runs along the keys for every row at once (kc_vexpf, pasted before); O's rows,
// `unroll` per pass, are vfmacc.vf of the probabilities with V's row strips. key_block (a C expression) is
// the keys per block: "S" for one block, fewer for FlashAttention's online softmax (running maximum, sum and
// unnormalised O rows, rescaled when the maximum grows). Static buffers in DTCM: (D + key_block) *
// query_block floats, and query_block * D more with key blocks. @L@, @U@ and @B@ (32 / LMUL, the mask type)
// are left for the caller.
// form: the C the head is written in. The default is the tasks' (macros, rows of D floats); `geometry` is the
// composites' attention_head(const attention_geometry* g, q, k, v, o, p) (scalar_pieces.h: rows strided,
// scale and causal at run time, T5's bias by distance bucket; S and DH size its static buffers).
struct AttentionHeadForm {
  bool geometry = false;
  std::string seq = "S", dim = "D", dim_size = "D", dim_max = "D", q_stride = "D", kv_stride = "D",
              scale = "PARAM_SCALE", causal = "CAUSAL";
};
std::string attention_head_by_query_blocks(int64_t unroll, const std::string& query_block,
                                           const std::string& key_block, const AttentionHeadForm& form = {});

// The conv2d_nhwc piece of composite_pieces() called on the task's tensors: along the filters (contiguous in
// HWIO weights and NHWC output), one accumulator strip per output pixel,
// held in registers over every in-bounds tap and input channel (a vfmacc.vf with the input value).
const std::string& conv2d();

// Vectorised versions of scalar pieces (tasks/rvv/scalar_pieces.h) with the same signatures, for the level-3
// composites: linear_rows and swiglu_rows with blocks of tokens as the vector (linear_tokens; strip-mined
// dot products below 8 rows), attention_head by query blocks as the tasks' (the `geometry` form above; LMUL
// 8 only, its vector exp being kc_vexpf at m8), conv2d_nhwc along the filters as conv2d() above. @L@ is left
// for the LMUL, @B@ for 32 / LMUL, @XB@ for the bytes of a block of x's rows (half the data cache). The
// pieces without a vector version here (norms, RoPE, the element-wise glue) take under 5 % of a composite's
// cycles.
const std::map<std::string, std::string>& composite_pieces();

}  // namespace kcraft::rvv::vector
