// The systolic template families, private to tasks/systolic/template_*.cpp: the composable emitters each
// family shares with the others and the Generator whose member functions are the task templates, each
// family in its own file (template_vector.cpp, template_matrix.cpp, template_attention.cpp,
// template_conv.cpp, template_blocks.cpp; the members they share in templates.cpp), called by the
// dispatch in template_compiler.cpp. The shared helpers are in template_common.h.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "tasks/common/layout.h"
#include "tasks/common/task_spec.h"
#include "tasks/systolic/template_common.h"

namespace kcraft::systolic::template_detail {

// ------------------------------------------------------------------------- vector unit (template_vector.cpp)
// gelu, relu, silu as element-wise ops.
ElementwiseOp gelu_op();
ElementwiseOp elementwise_op(const std::string& task);

// An op's stage with {d}, {a} and {u} filled in.
std::string fill(const std::string& pattern, const std::string& d, const std::string& a, int64_t u);

// dst = src1 op src2 over `rows` dense rows of VLEN (op a V_*_VV mnemonic), a tile at a time; dst may be
// either source. Uses r1..r8, r15.
void emit_binary(Asm& a, const Params& p, const std::string& op, const Src& src1, const Src& src2,
                 const Src& dst, int64_t rows, int64_t vbase = 0);

// RoPE (rotate_half) of head-major [heads, s, d] tensors at x into y (y may be x), cos/sin [s, d].
// Per tile of positions: cos and sin rows once, then every head's x rows for those positions
// (double buffered). rotate_half is a permutation of whole VLEN chunks (D/2 is a multiple of VLEN):
// y_c = x_c cos_c - x_(c+H) sin_c for c < H, x_c cos_c + x_(c-H) sin_c after, H = D/(2 VLEN).
struct RopeJob {
  Src x, y;
  std::string cos, sin;  // symbols
  int64_t heads = 0, s = 0, d = 0;
  int64_t tile_rows = 256;
  bool dbl = true;
};

// Returns the knobs as used and a summary.
std::pair<KnobValues, std::string> emit_rope(Asm& a, const Params& p, const RopeJob& j);

// Row-wise softmax, rms_norm or layer_norm of an [m, n] tensor at x into y (dense rows; y may be x),
// a tile of rows at a time. The knobs are the softmax/rms_norm/layer_norm templates'.
struct RowNormJob {
  std::string kind;  // softmax | rms_norm | layer_norm
  Src x, y;
  std::string gamma, beta;  // symbols (rms_norm: gamma; layer_norm: both)
  int64_t m = 0, n = 0;
  double eps = 0;
  int64_t tile_rows = 4, unroll = 2, accumulators = 1;
  bool dbl = true;
};

// Returns the knobs as used and a summary.
std::pair<KnobValues, std::string> emit_row_norm(Asm& a, const Params& p, const RowNormJob& j);

// --------------------------------------------------------------------- matrix products (template_matrix.cpp)
// One matrix product (emit_matmul; the scheme and its registers: template_matrix.cpp).
struct MatmulJob {
  Src a, b, c;
  int64_t m = 0, k = 0, n = 0;
  int64_t lda = 0, ldc = 0;  // bytes
  int64_t ldb = 0;           // B's row stride in bytes; 0 = ldc ([K, N]) or lda ([N, K])
  // A stored as column panels (head-major attention outputs): every a_panel_cols columns the next
  // panel starts a_panel_stride bytes after the previous one; 0 = one dense [M, K] matrix.
  int64_t a_panel_cols = 0, a_panel_stride = 0;
  bool b_transposed = false;  // B stored [N, K]
  std::string bias;           // symbol of an [N] bias or ""
  ElementwiseOp epilogue;     // applied to every output row after the bias ({a} the row, {d} a work row)
  int64_t block = 64, unroll = 1;
  bool dbl = true;
};

// Rows of the A block (and accumulators) the matrix product can use with these VSRAM/ACC sizes.
int64_t matmul_block(const Params& p, const MatmulJob& j, int64_t want);

// Why an M x K x N product does not fit ("" when it does).
std::string matmul_unsupported(const Params& p, int64_t m, int64_t k, int64_t n);

// VSRAM rows [vbase, ...) are the product's; returns the first row after them.
int64_t emit_matmul(Asm& a, const Params& p, const MatmulJob& j, int64_t vbase = 0);

// The feed-forward networks on x [M, D] into y [M, D], weights nn.Linear [out, in]:
// gelu: y = gelu(x W1^T + b1) W2^T + b2 (hidden in `hidden`); relu: y = relu(x W1^T) W2^T;
// swiglu: y = (silu(x Wg^T) * (x Wu^T)) Wd^T (g in `hidden`, u in `hidden2`, [M, F] each).
struct FfnJob {
  std::string activation;  // gelu | relu | swiglu
  Src x, y, hidden, hidden2;
  std::string w_up, w_gate, w_down, b_up, b_down;  // symbols; w_gate: swiglu's Wg (w_up is Wu)
  int64_t m = 0, d = 0, f = 0;
  int64_t block = 256, unroll = 2;
  bool dbl = true;
};

void emit_ffn(Asm& a, const Params& p, const FfnJob& j);

// ------------------------------------------------------------------------ attention (template_attention.cpp)
// One attention head's shapes and VSRAM use (emit_attention_head; the scheme: template_attention.cpp).
struct AttentionJob {
  int64_t s = 0, d = 0;  // sequence length and head dimension
  bool causal = false;
  double scale = 1.0;  // multiplies the scores; 1 = no scaling pass
  Src scores;          // [S, S] scratch matrix
  int64_t work = 0;    // first VSRAM row of the products and the softmax
  // T5's relative-position bias: 0 = none; else the address of this head's table T (2S elements,
  // T[t] = bias[bucket(S-1-t)] for t < S, -inf after; emit_rel_bias_tables), so the bias of query i,
  // key j is T[S-1-i+j] and the mask is part of it.
  Src rel_table;
  bool rel_bias = false;
  int64_t block = 256, unroll = 2;
  bool dbl = true;
};

// The mask row for a query at row r of its VLEN-row block: 0 for keys <= r, -inf after, at VSRAM row
// VLEN-1-r. Built by storing a zero row and a -inf row next to each other in DRAM (two rows at `tmp`,
// which must be free) and reading VLEN rows back at a stride of one element: row i is lanes
// i .. i+VLEN-1 of [0 x VLEN, -inf x VLEN].
void emit_causal_mask(Asm& a, const Params& p, const Src& tmp);

// Q [S, D] at q (row stride ldq bytes), K and V [S, D] (strides ldk, ldv), O [S, D] (stride ldo).
// Registers given as bases (r12, r14) survive; every other one is the head's.
void emit_attention_head(Asm& a, const Params& p, const AttentionJob& j, const Src& q, int64_t ldq,
                         const Src& k, int64_t ldk, const Src& v, int64_t ldv, const Src& o, int64_t ldo);

// The flash_attention block: B queries x B keys, B x B BF16 scores within the task's budget, m and l of
// B rows in FPSRAM, the K and V blocks in MSRAM, B accumulator rows.
int64_t flash_block_size(const Params& p, const tasks::ResolvedConfig& cfg);

// -------------------------------------------------------------------------- convolutions (template_conv.cpp)
// Output rows oh whose kernel rows i read inside the image (0 <= oh*STRIDE + i - PAD < H) form one
// contiguous range [lo, hi]; consecutive output rows with the same range share code (a hardware loop).
struct ConvGeometry {
  int64_t h, w, kh, kw, stride, pad, oh, ow;
  // Valid output columns of kernel column j: [ow_lo, ow_hi] (empty when ow_lo > ow_hi).
  int64_t ow_lo(int64_t j) const { return std::max<int64_t>(0, (pad - j + stride - 1) / stride); }
  int64_t ow_hi(int64_t j) const { return std::min<int64_t>(ow - 1, floor_div(w - 1 + pad - j, stride)); }
  int64_t ih_lo(int64_t oh_) const { return std::max<int64_t>(0, pad - oh_ * stride); }
  int64_t ih_hi(int64_t oh_) const { return std::min<int64_t>(kh - 1, h - 1 + pad - oh_ * stride); }
  static int64_t floor_div(int64_t a, int64_t b) { return a >= 0 ? a / b : -((-a + b - 1) / b); }
  struct Segment {
    int64_t first, count, lo, hi;  // output rows first .. first+count-1 use kernel rows lo .. hi
  };
  std::vector<Segment> segments() const {
    std::vector<Segment> out;
    for (int64_t r = 0; r < oh; ++r) {
      const int64_t lo = ih_lo(r), hi = ih_hi(r);
      if (!out.empty() && out.back().lo == lo && out.back().hi == hi) {
        ++out.back().count;
      } else {
        out.push_back({r, 1, lo, hi});
      }
    }
    return out;
  }
};

ConvGeometry conv_geometry(const tasks::ResolvedConfig& cfg);

// im2col of the NHWC image x [H, W, C] into cols [OH*OW, KH*KW*C]: a column block (kernel tap i, j and
// channel chunk cc) of VSRAM rows for one output row is one strided DMA in (the valid output columns)
// and one out (all OW rows; the padding rows of the buffer stay 0). VSRAM rows from 0.
void emit_im2col(Asm& a, const Params& p, const ConvGeometry& g, int64_t c, const Src& x, const Src& cols);

// ---------------------------------------------------------------------------------------- the task templates
// One generate() call: the task's configuration and layout, the knob values and the kernel being written.
// Each task template is a member function, defined in its family's file.
class Generator {
 public:
  Generator(const Params& p, const tasks::ResolvedConfig& config, const tasks::DramLayout& dram,
            const KnobValues& knob_values, std::vector<Knob> knobs);

  // template_vector.cpp
  GeneratedKernel elementwise();  // relu, silu, gelu
  GeneratedKernel rope();
  GeneratedKernel row_norm();  // softmax, rms_norm, layer_norm
  // template_matrix.cpp
  GeneratedKernel gemv();
  GeneratedKernel batch_matmul();
  GeneratedKernel ffn();   // ffn, swiglu
  GeneratedKernel gemm();  // gemm, linear
  // template_attention.cpp
  GeneratedKernel attention();  // attention, mha, gqa, mqa
  GeneratedKernel flash_attention();
  // template_conv.cpp
  GeneratedKernel conv2d();
  GeneratedKernel depthwise_conv();
  // template_blocks.cpp
  GeneratedKernel conv_block();
  GeneratedKernel decoder_block();  // decoder_block_llama, decoder_block_t5

 private:
  // The kernel's header comment: what the kernel does and its knobs.
  std::string header(const std::string& what) const;
  // C_HALT, and the kernel's source.
  GeneratedKernel finish();
  // The matrix product's knobs into the job, and (as used) into the kernel's.
  void mm_knobs(MatmulJob& j);
  // The scratch region's symbol (an error when the task has none).
  std::string scratch_sym() const;
  // The composites' phases, products and scratch offsets (template_blocks.cpp).
  void begin_phase(const std::string& name);
  void composite_matmul(MatmulJob& j) const;
  Src at(int64_t offset) const;

  const Params& p_;
  const tasks::ResolvedConfig& cfg;
  const tasks::DramLayout& layout;
  const KnobValues& values;
  const std::vector<Knob> all_knobs;
  const int64_t vlen, mlen, blen;
  const int64_t row_bytes;
  const tasks::DramRegion* scratch = nullptr;
  Asm a;
  GeneratedKernel out;
};

}  // namespace kcraft::systolic::template_detail
