// The vliw template families, private to tasks/vliw/template_*.cpp: each family's jobs and entry points,
// defined in its own file (template_elementwise.cpp, template_matrix.cpp, template_attention.cpp,
// template_rope.cpp, template_conv.cpp, template_blocks.cpp), called by the dispatch in template_compiler.cpp
// and by the composites. The shared helpers are in template_common.h.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "tasks/common/task_spec.h"
#include "tasks/vliw/template_common.h"

namespace kcraft::vliw::template_detail {

// --------------------------------------------------------- element-wise, row-wise (template_elementwise.cpp)
// An element-wise stream (relu, silu, gelu, or swiglu's silu(g) * u over the pair g, u) of `rows` DM rows
// from region `in` to region `out`; `last`: the kernel ends here, otherwise the stream waits for its stores.
struct EltJob {
  std::string op;  // relu | silu | gelu | swiglu | add (x + the pair: residuals, T5's position bias)
  int64_t rows = 0;
  std::string in, out;
  int64_t in_offset = 0, out_offset = 0;  // bytes into the regions
  int64_t pair_offset = 0;                // swiglu, add: bytes from x (g) to the pair (u), may be negative
  bool last = true;
  bool compact = false;  // stream_compact (needs last = false)
};

GeneratedKernel elementwise(Ctx& c, const EltJob& job, const KnobValues& values,
                            const std::vector<Knob>& knobs);

// The knobs of the element-wise streams.
std::vector<Knob> stream_knobs();

// A row-wise pass over an [m, n] region, in place through DM (softmax, rms_norm, layer_norm). softmax may
// scale its input (exp(scale * (x - max))) and mask it causally (row i keeps columns j <= i).
struct RowJob {
  std::string op;  // softmax | rms_norm | layer_norm
  int64_t m = 0, n = 0;
  std::string in, out;
  int64_t in_offset = 0, out_offset = 0;       // bytes into the regions
  std::string gamma = "gamma", beta = "beta";  // the norms' scale and shift regions
  double eps = 0.0, scale = 1.0;
  bool causal = false;
  bool add_pair = false;  // softmax: first add the [m, n] tensor pair_offset bytes from the input (T5's bias)
  int64_t pair_offset = 0;  // (it streams in with the input, into the tile buffers' second halves)
  bool last = true;         // false: wait for the stores at the end
  bool compact = false;     // stream_compact (needs last = false)
};

GeneratedKernel rowwise(Ctx& c, const RowJob& job, const KnobValues& values, const std::vector<Knob>& knobs);

// The knobs of the row-wise passes.
std::vector<Knob> rowwise_knobs();

// --------------------------------------------------------------------- matrix products (template_matrix.cpp)
// gemv: A streams through DM in tiles of whole rows, x stays in DM.
GeneratedKernel gemv(Ctx& c, const KnobValues& values, const std::vector<Knob>& knobs);

// One matrix product C = A B (or A W^T + bias with weights_nk, the nn.Linear layout) between DRAM regions,
// optionally `batch` times over consecutive batches.
struct MatJob {
  bool weights_nk = false;  // B stored [N, K]
  int64_t m = 0, k = 0, n = 0, batch = 1;
  std::string a, b, bias, c;                         // DRAM regions ("" bias: none)
  int64_t a_offset = 0, b_offset = 0, c_offset = 0;  // bytes into regions a, b and c
  int64_t ldc = 0;  // > 0: bytes between rows of C (a column block of a wider matrix); 0: N*2
  // >= 0: the DRAM address of A, B or C is the 32-bit word at this DM byte address (per-head bases)
  int64_t a_word = -1, b_word = -1, c_word = -1;
  int64_t max_strips = 0;  // > 0: at most this many strips per panel (1 saves a loop level)
  bool last = true;        // false: the kernel goes on (drain the DMA and leave the locks at 0)
};

// The A-block rows per accumulator block's m tiles (a knob, clamped to what the accumulators hold).
int64_t matmul_m_tiles(const Params& p, int64_t want);

// K in pieces: when one strip of B^T tiles over the whole K does not fit DM, the product runs over K
// `chunks` DM rows (VLEN k each) at a time, the last piece taking what is left. Between pieces the FP32
// accumulators go to DM exactly, as three BF16 rows (hi, mid, lo with hi + mid + lo = the FP32 value).
struct MatPlan {
  int64_t tm = 1;      // A-block rows in MMUL_M tiles
  int64_t chunks = 0;  // DM rows of k per piece (all of K: one piece)
  int64_t pieces = 1;
};

// Rows of the partial sums (three per accumulator tile of M x the panel) when K is in pieces.
int64_t matmul_partial_rows(const Params& p, const MatJob& job, int64_t strips);

// DM rows matmul's buffers take with `strips` resident strips and pieces of `chunks` DM rows of k (each
// buffer rounded up to whole bank cycles; `braw_buffers` raw B strips).
int64_t matmul_dm_rows(const Params& p, const MatJob& job, int64_t tm, int64_t strips, int64_t chunks,
                       int64_t braw_buffers = 2);

// The fewest pieces, at least `min_pieces` when K allows (and, for those, the most A-block tiles up to
// `tm_want`) whose buffers fit DM with one strip; chunks = 0 when even one DM row of k per piece does not
// fit. Pieces of W rows (nn.Linear) keep an even chunk count when K allows, for VLENs whose tile
// rearrangement takes two chunks at a time.
MatPlan matmul_plan(const Params& p, const MatJob& job, int64_t tm_want, int64_t min_pieces = 1,
                    int64_t braw_buffers = 2);

GeneratedKernel matmul(Ctx& c, const MatJob& job, const KnobValues& values, const std::vector<Knob>& knobs);

// The knobs of the matrix products (with k_pieces: K in at least that many pieces).
std::vector<Knob> matmul_knobs(bool k_pieces = false);

// ffn, swiglu: two products and the activation between them, through the scratch region.
GeneratedKernel feed_forward(Ctx& c, const KnobValues& values, const std::vector<Knob>& knobs);

// ------------------------------------------------------------------------ attention (template_attention.cpp)
// One attention over head-major [heads, seq, d] Q, K, V (K and V with kv_heads heads, query head n using kv
// head n / (heads / kv_heads)); O head-major, or token-major [seq, heads * d] with o_ldc = heads * d * 2.
// T5 (pos_bias set): no causal mask table; per head the biased mask matrix bias[n, bucket(i - j)] (-inf
// for j > i) is built in region bmat and added to the scores before an unmasked softmax.
struct AttnJob {
  int64_t heads = 1, kv_heads = 1, seq = 0, d = 0;
  bool causal = false;
  double scale = 1.0;
  std::string q = "Q", k = "K", v = "V", o = "O", scores = "scratch";
  int64_t q_offset = 0, k_offset = 0, v_offset = 0, o_offset = 0, scores_offset = 0;  // bytes into regions
  int64_t o_ldc = 0;     // > 0: bytes between rows of O (token-major), heads then d * 2 apart
  std::string pos_bias;  // T5's [heads, 32] bias table ("": none)
  std::string bmat;      // T5: region for the [seq, seq] biased mask matrix and its 2 * seq source row
  int64_t bmat_offset = 0;
  int64_t num_buckets = 32, max_distance = 128;
  bool last = true;
  bool compact = false;  // the softmax as stream_compact
};

GeneratedKernel attention(Ctx& c, const AttnJob& job, const KnobValues& values,
                          const std::vector<Knob>& knobs);

// flash_attention: why a configuration has no key block that fits ("" when one does), the knobs, the kernel.
std::string flash_reason(const Params& p, const tasks::ResolvedConfig& cfg);
std::vector<Knob> flash_knobs();
GeneratedKernel flash_attention(Ctx& c, const KnobValues& values, const std::vector<Knob>& knobs);

// ---------------------------------------------------------------------------------- rope (template_rope.cpp)
std::vector<Knob> rope_knobs();

// RoPE over `heads` head-major [seq, d] tensors from region `in` to `out` (the same region: in place), the
// tables [seq, d] in regions cos and sin.
struct RopeJob {
  int64_t heads = 0, seq = 0, d = 0;
  std::string in = "x", out = "y", cos = "cos", sin = "sin";
  int64_t in_offset = 0, out_offset = 0;  // bytes into the regions
  bool last = true;                       // false: wait for the stores at the end
  bool compact = false;                   // stream_compact (needs last = false)
};

GeneratedKernel rope(Ctx& c, const RopeJob& job, const KnobValues& values, const std::vector<Knob>& knobs);

// -------------------------------------------------------------------------- convolutions (template_conv.cpp)
// conv2d's shapes: the output size, and the im2col product [M = OH*OW, K = KH*KW*C] x [K, F].
struct ConvShape {
  int64_t h, w, c, f, kh, kw, s, pad, oh, ow, m, k;
};

ConvShape conv_shape(const tasks::ResolvedConfig& cfg);

// The im2col product as a matrix job.
MatJob conv_product(const ConvShape& d);

// Bands of output rows for the product: the fewest whose product (K in pieces, FP32 partial sums of the
// band's rows) fits DM less one row of DRAM-address words; 0 when none does.
int64_t conv_bands(const Params& p, const ConvShape& d);

// Where the convolution's output goes (conv_block: its scratch region after the im2col matrix).
struct ConvJob {
  std::string out = "y";
  int64_t out_offset = 0;
  bool last = true;  // false: wait for the stores at the end
};

GeneratedKernel conv2d(Ctx& c, const ConvJob& cjob, const KnobValues& values, const std::vector<Knob>& knobs);

// depthwise_conv's shapes and DM rows (the ring of image rows, the weights, the output rows).
struct DepthwiseShape {
  int64_t h, w, c, kh, kw, stride, pad, oh, ow, cv, ring, slot_rows, w_rows, out_rows, total_rows;
  int64_t groups = 1;      // channel chunks done one after the other (cv is then 1: the chunks per pass)
  int64_t whole_rows = 0;  // DM rows with every chunk of a pixel in one pass
};

DepthwiseShape depthwise_shape(const Params& p, const tasks::ResolvedConfig& cfg);

GeneratedKernel depthwise(Ctx& c, const KnobValues& values, const std::vector<Knob>& knobs);

// ----------------------------------------------------------- level 3: composite blocks (template_blocks.cpp)
GeneratedKernel conv_block(Ctx& c, const KnobValues& values, const std::vector<Knob>& knobs);
GeneratedKernel decoder_block(Ctx& c, const KnobValues& values, const std::vector<Knob>& knobs);

}  // namespace kcraft::vliw::template_detail
