#include "tasks/systolic/templates.h"

#include <algorithm>

#include <fmt/format.h>

namespace kcraft::systolic::template_detail {

// ---------------------------------------------------------------- convolutions
//
//
// conv2d: im2col through scratch, then one product; depthwise_conv on the matrix unit, one diagonal weight
// tile per tap and channel chunk.

ConvGeometry conv_geometry(const tasks::ResolvedConfig& cfg) {
  ConvGeometry g{
      cfg.dim("H"), cfg.dim("W"), cfg.dim("KH"), cfg.dim("KW"), cfg.dim("STRIDE"), cfg.dim("PAD"), 0, 0};
  g.oh = (g.h + 2 * g.pad - g.kh) / g.stride + 1;
  g.ow = (g.w + 2 * g.pad - g.kw) / g.stride + 1;
  return g;
}

void emit_im2col(Asm& a, const Params& p, const ConvGeometry& g, int64_t c, const Src& x, const Src& cols) {
  const int64_t vlen = p.vlen;
  const int64_t chunks = c / vlen, k = g.kh * g.kw * c;
  // VSRAM: a buffer of OW rows per (kernel column, chunk), then a zero buffer.
  auto buf = [&](int64_t kj, int64_t cc) { return (kj * chunks + cc) * g.ow; };
  const int64_t zero_row = g.kw * chunks * g.ow;
  const int64_t row_step = g.w * c * 2;  // bytes between image rows
  a.comment("r1 image row oh*STRIDE - PAD (kernel row 0), r2 im2col rows of output row oh");
  set_addr(a, "r1", x);
  a.add_const("r1", -g.pad * row_step, "r15");
  set_addr(a, "r2", cols);
  a.op("S_LI r3, {}", g.stride * c * 2);
  a.op("S_LI r4, {}", k * 2);
  a.op("S_LI r11, {}", zero_row);
  auto kernel_row = [&](bool valid) {
    for (int64_t kj = 0; kj < g.kw; ++kj) {
      const int64_t lo = g.ow_lo(kj), hi = g.ow_hi(kj);
      for (int64_t cc = 0; cc < chunks; ++cc) {
        a.op("S_ADDI r7, r9, {}", ((kj * c) + cc * vlen) * 2);
        if (valid && lo <= hi) {
          a.op("S_ADDI r5, r8, {}", ((lo * g.stride + kj - g.pad) * c + cc * vlen) * 2);
          a.op("S_LI r6, {}", buf(kj, cc) + lo);
          a.op("H_LOAD_V r6, r5, r3, {}", hi - lo + 1);
          a.op("S_LI r6, {}", buf(kj, cc));
          a.op("H_STORE_V r6, r7, r4, {}", g.ow);
        } else {
          a.op("H_STORE_V r11, r7, r4, {}", g.ow);
        }
      }
    }
    a.add_const("r8", row_step, "r15");
    a.op("S_ADDI r9, r9, {}", g.kw * c * 2);
  };
  for (const auto& seg : g.segments()) {
    a.comment(fmt::format("output rows {}..{}: kernel rows {}..{} inside the image", seg.first,
                          seg.first + seg.count - 1, seg.lo, seg.hi));
    a.loop(seg.count, "orow", [&] {
      a.op("S_MV r8, r1");
      a.op("S_MV r9, r2");
      a.loop(seg.lo, "pad_top", [&] { kernel_row(false); });
      a.loop(seg.hi - seg.lo + 1, "krow", [&] { kernel_row(true); });
      a.loop(g.kh - 1 - seg.hi, "pad_bottom", [&] { kernel_row(false); });
      a.add_const("r1", g.stride * row_step, "r15");
      a.add_const("r2", g.ow * k * 2, "r15");
    });
  }
}

GeneratedKernel Generator::conv2d() {
  // im2col through scratch, then one matrix product: row (oh, ow) of the im2col matrix is the
  // KH*KW*C inputs under the kernel, so y = im2col . w with w viewed as [KH*KW*C, F]. A column block
  // (kernel tap i, j and channel chunk cc) of VSRAM rows for one output row is one strided DMA in (the
  // valid output columns) and one out (all OW rows; the padding rows of the buffer stay 0).
  const auto g = conv_geometry(cfg);
  const int64_t c = cfg.dim("C"), f = cfg.dim("F");
  const int64_t k = g.kh * g.kw * c;
  MatmulJob j;
  j.a = {scratch_sym(), 0};
  j.b = {addr("w"), 0};
  j.c = {addr("y"), 0};
  j.m = g.oh * g.ow, j.k = k, j.n = f, j.lda = k * 2, j.ldc = f * 2;
  mm_knobs(j);
  out.summary = fmt::format("im2col [{} x {}] through scratch, then a {}x{}x{} product", g.oh * g.ow, k,
                            g.oh * g.ow, k, f);
  emit_im2col(a, p_, g, c, {addr("x"), 0}, {scratch_sym(), 0});
  emit_matmul(a, p_, j);
  return finish();
}

GeneratedKernel Generator::depthwise_conv() {
  // On the matrix unit, so the KH*KW taps accumulate in FP32: tap t of channel chunk cc is the weight
  // tile diag(w[t][cc]) and the output row oh is sum over taps of G_t . diag(w_t), G_t the OW input rows
  // under tap t (one strided DMA each; rows outside the image stay 0). The diagonal tiles are built
  // once: one-hot rows e_k from a ones row and a zero row read back at a stride of one element,
  // e_k * w rows, through y's DRAM region (before any output is stored there) into MSRAM.
  const auto g = conv_geometry(cfg);
  const int64_t c = cfg.dim("C");
  const int64_t chunks = c / vlen, taps = g.kh * g.kw;
  const int64_t owp = (g.ow + blen - 1) / blen * blen;  // rows an M_MM stream covers
  out.knobs = {};
  out.summary = fmt::format("{} chunk(s) x {} output rows x {} taps as diagonal weight tiles (FP32 sums)",
                            chunks, g.oh, taps);
  auto gbuf = [&](int64_t t) { return t * owp; };
  const int64_t out_row = taps * owp, pr_row = out_row + owp, e_row = pr_row + 2 * vlen, w_row = e_row + vlen,
                dt_row = w_row + taps * chunks;
  const int64_t tiles_rows = taps * chunks * vlen;
  const int64_t y_rows = static_cast<int64_t>(layout.region("y").bytes) / row_bytes;
  const int64_t row_step = g.w * c * 2;
  a.comment("one-hot rows e_k: prefix-ones rows from [1 x VLEN, 0 x VLEN] read at a stride of 2 bytes");
  a.op("S_LI r13, {}", row_bytes);
  a.op("S_LI_FP f1, 1.0");
  a.op("S_LI r5, {}", pr_row + vlen);
  a.op("V_BCAST_F r5, f1, 0");
  a.op("V_BCAST_F r5, f0, 1");
  a.op("S_LI r1, {}", addr("y"));
  a.op("H_STORE_V r5, r1, r13, 2");
  a.op("S_LI r2, 2");
  a.op("S_LI r4, {}", pr_row);
  a.op("H_LOAD_V r4, r1, r2, {}", vlen);
  // Row i of PR has ones in lanes 0 .. VLEN-1-i, so e_k = PR[VLEN-1-k] - PR[VLEN-k] (e_0 = PR[VLEN-1]).
  a.op("S_LI r6, {}", e_row);
  a.op("S_LI r7, {}", pr_row + vlen - 1);
  a.op("V_ADD_VF r6, r7, f0, 0");
  for (int64_t k = 1; k < vlen; ++k) {
    // The one offset k applies to all three rows: point r7/r8 k rows before the PR rows wanted.
    a.op("S_LI r7, {}", pr_row + vlen - 1 - 2 * k);
    a.op("S_LI r8, {}", pr_row + vlen - 2 * k);
    a.op("V_SUB_VV r6, r7, r8, {}", k);
  }
  a.comment("weights: row t*chunks + cc = w[t][cc*VLEN ..]; tile (t, cc) row k = e_k * that row");
  a.op("S_LI r4, {}", w_row);
  a.op("S_LI r5, {}", addr("w"));
  a.op("H_LOAD_V r4, r5, r13, {}", taps * chunks);
  a.op("S_LI r6, {}", dt_row);
  a.op("S_LI r8, {}", w_row);
  a.loop(taps * chunks, "tile", [&] {
    a.op("S_LI r7, {}", e_row);
    a.loop(vlen, "diag", [&] {
      a.op("V_MUL_VV r6, r7, r8, 0");
      a.op("S_ADDI r6, r6, 1");
      a.op("S_ADDI r7, r7, 1");
    });
    a.op("S_ADDI r8, r8, 1");
  });
  a.comment("the tiles into MSRAM through y's region, as many rows at a time as it holds");
  const int64_t batch = std::min<int64_t>(y_rows, tiles_rows);
  for (int64_t first = 0; first < tiles_rows; first += batch) {
    const int64_t n = std::min(batch, tiles_rows - first);
    a.op("S_LI r4, {}", dt_row + first);
    a.op("H_STORE_V r4, r1, r13, {}", n);
    a.op("S_LI r4, {}", first);
    a.op("H_LOAD_M r4, r1, r13, {}", n);
  }
  a.op("S_LI r1, {}", addr("x"));
  a.op("S_LI r2, {}", addr("y"));
  a.op("S_LI r3, {}", g.stride * c * 2);
  a.op("S_LI r4, {}", c * 2);
  a.op("S_LI r12, 0");  // MSRAM row of tile (0, cc)
  a.loop(chunks, "chunk", [&] {
    a.op("S_MV r8, r1");
    a.add_const("r8", -g.pad * row_step, "r15");
    a.op("S_MV r9, r2");
    for (const auto& seg : g.segments()) {
      std::vector<int64_t> live;  // taps inside the image for these rows
      for (int64_t i = seg.lo; i <= seg.hi; ++i) {
        for (int64_t kj = 0; kj < g.kw; ++kj) {
          if (g.ow_lo(kj) <= g.ow_hi(kj)) live.push_back(i * g.kw + kj);
        }
      }
      if (live.empty()) throw std::invalid_argument("an output row with no input under the kernel");
      a.loop(seg.count, "orow", [&] {
        auto load = [&](int64_t t) {
          const int64_t i = t / g.kw, kj = t % g.kw, lo = g.ow_lo(kj), hi = g.ow_hi(kj);
          a.op("S_LI r6, {}", gbuf(t) + lo);
          a.add_const_to("r5", "r8", (i * g.w + lo * g.stride + kj - g.pad) * c * 2, "r15");
          a.op("H_LOAD_V r6, r5, r3, {}", hi - lo + 1);
        };
        auto multiply = [&](int64_t t, bool first) {
          a.op("S_ADDI r11, r12, {}", t * chunks * vlen);
          a.op("M_LDW r11");
          a.op("S_LI r10, 0");
          a.op("S_LI r7, {}", gbuf(t));
          for (int64_t r = 0; r < owp; r += blen) a.op("{} r10, r7, {}", first ? "M_MM" : "M_MMA", r);
        };
        load(live[0]);
        for (size_t n = 0; n < live.size(); ++n) {
          if (n + 1 < live.size()) load(live[n + 1]);
          multiply(live[n], n == 0);
        }
        a.op("S_LI r7, {}", out_row);
        for (int64_t r = 0; r < owp; r += blen) a.op("M_WO r7, r10, {}", r);
        a.op("H_STORE_V r7, r9, r4, {}", g.ow);
        a.add_const("r8", g.stride * row_step, "r15");
        a.add_const("r9", g.ow * c * 2, "r15");
      });
    }
    a.op("S_ADDI r1, r1, {}", vlen * 2);
    a.op("S_ADDI r2, r2, {}", vlen * 2);
    a.op("S_ADDI r12, r12, {}", vlen);
  });
  return finish();
}
}  // namespace kcraft::systolic::template_detail
