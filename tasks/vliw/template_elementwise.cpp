#include "tasks/vliw/templates.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include <fmt/format.h>

#include "isa/common/arith/fp_arith.h"

namespace kcraft::vliw::template_detail {

// ---------------------------------------------------------------- element-wise: relu, silu, gelu, swiglu
//
// The tensor streams through DM tiles (stream()), computed in place row by row: load, compute, store,
// software-pipelined.
GeneratedKernel elementwise(Ctx& c, const EltJob& job, const KnobValues& values,
                            const std::vector<Knob>& knobs) {
  KernelBuilder& k = c.k;
  const bool swiglu = job.op == "swiglu", silu = job.op == "silu" || swiglu, gelu = job.op == "gelu";
  const bool add = job.op == "add", paired = swiglu || add;
  const int64_t rows = job.rows;
  const int64_t buffers = job.compact ? 2 : std::clamp<int64_t>(knob(values, knobs, "buffers"), 2, 4);
  const int64_t max_tile = std::max<int64_t>(1, (c.dm_rows / buffers / (paired ? 2 : 1)) / c.banks * c.banks);
  const int64_t tile = pow2_divisor(rows, std::min(knob(values, knobs, "tile_rows"), max_tile));
  const int64_t unroll = pow2_divisor(tile, std::clamp<int64_t>(knob(values, knobs, "unroll"), 1, 16));
  const int64_t sets = std::min<int64_t>(unroll, 4);
  Stream s;
  s.tiles = rows / tile;
  s.tile_rows = tile;
  s.buffers = buffers;
  s.paired = paired;
  s.pair_offset = job.pair_offset;
  s.in_offset = job.in_offset;
  s.out_offset = job.out_offset;
  s.fence_lock = job.last ? -1 : 14;
  s.compact = job.compact;
  GeneratedKernel out;
  out.knobs = {{"tile_rows", tile}, {"unroll", unroll}, {"buffers", buffers}};
  out.summary = fmt::format(
      "{} tiles of {} rows through {} DM buffers (load, compute in place, store; the next tiles load "
      "meanwhile); rows software-pipelined load / {} / store, {} rows per loop iteration",
      s.tiles, tile, buffers,
      gelu ? "x * (a + b x^2) in FP32, exp, add, reciprocal, multiply"
           : (silu ? "exp, add, reciprocal, multiply" : (add ? "add" : "max")),
      unroll);
  if (gelu) {
    // gelu(x) = 0.5 x (1 + tanh(z)) = x sigmoid(2z) = x / (1 + exp(-2z)), z = c (x + 0.044715 x^3), so the
    // exponent is x (a + b x^2) with a = -2c, b = -2c * 0.044715.
    const double cc = std::sqrt(2.0 / 3.14159265358979323846);
    k.comment("constants: a0 = 1.0, a5 = b, a6 = a (FP32 lanes); exp argument -2z = x (a + b x^2)");
    k.li(11, static_cast<int64_t>(arith::double_to_fp32(1.0)));
    k.li(12, static_cast<int64_t>(arith::double_to_fp32(-2.0 * cc * 0.044715)));
    k.li(13, static_cast<int64_t>(arith::double_to_fp32(-2.0 * cc)));
    k.op("A_BCST a0, r11");
    k.op("A_BCST a5, r12");
    k.op("A_BCST a6, r13");
  } else if (silu) {
    k.comment("constants: v0 = -1.0 (BF16 lanes), a0 = 1.0 (FP32 lanes)");
    k.li(11, static_cast<int64_t>(arith::double_to_fp32(-1.0)));
    k.li(12, static_cast<int64_t>(arith::double_to_fp32(1.0)));
    k.op("V_BCST v0, r11");
    k.op("A_BCST a0, r12");
  } else if (!add) {
    k.comment("v0 = +0.0");
    k.op("V_BCST v0, r0");
  }
  const bool banks_known = unroll % c.banks == 0;
  stream(c, s, job.in, job.out, [&](int64_t b) {
    const int pl = static_cast<int>(2 * (b % 2)), ps = pl + 1;
    k.op(fmt::format("S_PMOV {}, {}", P(pl), R(5 + b)));
    k.op(fmt::format("S_PMOV {}, {}", P(ps), R(5 + b)));
    if (paired) {  // u: the buffer's second half
      k.li(12, tile * c.rb);
      k.op(fmt::format("S_ADD r12, {}, r12", R(5 + b)));
      k.op("S_PMOV p4, r12");
    }
    pipeline(k, tile, 3, unroll, [&](int stage, int64_t u) {
      const int64_t set = u % sets;
      const int bank = banks_known ? static_cast<int>(u % c.banks) : -1;
      const int64_t x = 1 + set, y = 5 + set, sg = 9 + set, acc = 1 + set;
      if (stage == 0) {
        k.op(fmt::format("L_VLD {}, {}, {}", V(x), P(pl), c.rb),
             {{static_cast<int>(kAcqBase + b)}, {}, bank});
        if (paired)  // tile is a multiple of the banks when they are known: u's row is in the same bank
          k.op(fmt::format("L_VLD {}, p4, {}", V(13 + set % 3), c.rb),
               {{static_cast<int>(kAcqBase + b)}, {}, -1});
      } else if (stage == 1) {
        if (gelu) {
          const int64_t w = 13 + set % 2;  // a + b x^2 in BF16 (its rounding moves exp's argument by 2^-9)
          k.op(fmt::format("A_VMUL {}, {}, {}", A(acc), V(x), V(x)));  // x^2, exact
          k.op(fmt::format("A_MUL {}, {}, a5", A(acc), A(acc)));
          k.op(fmt::format("A_ADD {}, {}, a6", A(acc), A(acc)));
          k.op(fmt::format("V_SRS {}, {}", V(w), A(acc)));
          k.op(fmt::format("A_VMUL {}, {}, {}", A(acc), V(w), V(x)));  // -2z
          k.op(fmt::format("A_EXP {}, {}", A(acc), A(acc)));
          k.op(fmt::format("A_ADD {}, {}, a0", A(acc), A(acc)));
          k.op(fmt::format("A_RECI {}, {}", A(acc), A(acc)));  // sigmoid(2z)
          k.op(fmt::format("V_SRS {}, {}", V(sg), A(acc)));
          k.op(fmt::format("V_MUL {}, {}, {}", V(y), V(x), V(sg)));
        } else if (silu) {
          k.op(fmt::format("A_VMUL {}, {}, v0", A(acc), V(x)));  // -x, exact
          k.op(fmt::format("A_EXP {}, {}", A(acc), A(acc)));
          k.op(fmt::format("A_ADD {}, {}, a0", A(acc), A(acc)));
          k.op(fmt::format("A_RECI {}, {}", A(acc), A(acc)));  // sigmoid(x)
          k.op(fmt::format("V_SRS {}, {}", V(sg), A(acc)));
          k.op(fmt::format("V_MUL {}, {}, {}", V(y), V(x), V(sg)));
          if (swiglu) k.op(fmt::format("V_MUL {}, {}, {}", V(y), V(y), V(13 + set % 3)));
        } else if (add) {
          k.op(fmt::format("V_ADD {}, {}, {}", V(y), V(x), V(13 + set % 3)));
        } else {
          k.op(fmt::format("V_MAX {}, {}, v0", V(y), V(x)));
        }
      } else {
        k.op(fmt::format("L_VST {}, {}, {}", V(y), P(ps), c.rb),
             {{}, {static_cast<int>(kOutBase + b)}, bank});
      }
    });
  });
  if (job.last) k.op("C_HALT", {{}, {}, -1, true});
  return out;
}

std::vector<Knob> stream_knobs() {
  return {{"tile_rows", "DM rows per DMA tile", 256, {32, 64, 128, 256, 512, 1024}},
          {"unroll", "rows per loop iteration of the software-pipelined row loop", 8, {1, 2, 4, 8, 16}},
          {"buffers", "DM tile buffers in flight (2: double buffering)", 2, {2, 3, 4}}};
}

// ---------------------------------------------------------------- row-wise: softmax, rms_norm
//
namespace {

// A row-wise pass, phase by phase: plan() (tile rows, unroll, buffers: the stream), set_up() (the op's
// constants and resident rows: the causal mask table, gamma and beta) and run() (the stream, each row's
// passes: softmax_row, layer_norm_row or rms_norm_row).
class RowPass {
 public:
  RowPass(Ctx& ctx, const RowJob& row_job) : c(ctx), k(ctx.k), job(row_job) {}

  GeneratedKernel plan(const KnobValues& values, const std::vector<Knob>& knobs) {
    buffers = job.compact ? 2 : std::clamp<int64_t>(knob(values, knobs, "buffers"), 2, 4);
    const int64_t room = (c.dm_rows - gamma_rows) / buffers / chunks / (add_pair ? 2 : 1);
    if (room < 1) throw std::invalid_argument("a row does not fit DM");
    rows = pow2_divisor(m, std::min(knob(values, knobs, "tile_rows"), room));
    unroll = std::min<int64_t>(
        pow2_divisor(chunks, std::clamp<int64_t>(knob(values, knobs, "unroll"), 1, 16)), 16);
    sets = std::min<int64_t>(unroll, 4);
    parts = std::min<int64_t>(unroll, 2);  // partial reductions (latency 2 chains)
    GeneratedKernel out;
    out.knobs = {{"tile_rows", rows}, {"unroll", unroll}, {"buffers", buffers}};
    s.tiles = m / rows;
    s.tile_rows = rows * chunks;
    s.buffers = buffers;
    s.base_row = gamma_rows;
    s.in_offset = job.in_offset;
    s.out_offset = job.out_offset;
    s.fence_lock = job.last ? -1 : 14;
    s.compact = job.compact;
    s.paired = add_pair;
    s.pair_offset = job.pair_offset;
    banks_known = chunks % c.banks == 0 && unroll % c.banks == 0;
    return out;
  }

  void set_up(GeneratedKernel& out) {
    if (softmax) {
      set_up_softmax(out);
    } else if (layer_norm) {
      set_up_layer_norm(out);
    } else {
      set_up_rms_norm(out);
    }
  }

  void run() {
    stream(c, s, job.in, job.out, [&](int64_t b) {
      const int acq = static_cast<int>(kAcqBase + b), st = static_cast<int>(kOutBase + b);
      for (int i = 0; i < 5; ++i) k.op(fmt::format("S_PMOV {}, {}", P(i == 3 && !softmax ? 5 : i), R(5 + b)));
      if (masked) k.op(fmt::format("S_PMOV p6, {}", R(5 + b)));
      if (add_pair) {  // p5: the pair's rows in the buffer's second half
        k.li(12, s.tile_rows * c.rb);
        k.op(fmt::format("S_ADD r12, {}, r12", R(5 + b)));
        k.op("S_PMOV p5, r12");
      }
      k.loop(rows, [&] {
        if (causal) {
          // p5: row r9's first mask row, d * (2 chunks + 1) + chunks - r9 / VLEN with d = r9 mod VLEN
          int64_t lv = 0, lr = 0;
          while ((int64_t{1} << lv) < c.vlen) ++lv;
          while ((int64_t{1} << lr) < c.rb) ++lr;
          k.li(13, c.vlen - 1);
          k.op("S_AND r10, r9, r13");
          k.li(13, block_rows * c.rb);
          k.op("S_MUL r10, r10, r13");
          k.op(fmt::format("S_SRLI r13, r9, {}", lv));
          k.op(fmt::format("S_SLLI r13, r13, {}", lr));
          k.op("S_SUB r10, r10, r13");
          k.op(fmt::format("S_ADDI r10, r10, {}", chunks * c.rb));
          k.op("S_PMOV p5, r10");
          k.op("S_ADDI r9, r9, 1");
        }
        if (softmax) {
          softmax_row(acq, st);
        } else if (layer_norm) {
          layer_norm_row(acq, st);
        } else {
          rms_norm_row(acq, st);
        }
      });
    });
    if (job.last) k.op("C_HALT", {{}, {}, -1, true});
  }

 private:
  int bank(int64_t row) const { return banks_known ? static_cast<int>(row % c.banks) : -1; }

  // softmax: -inf and the scale; causal, the mask table
  void set_up_softmax(GeneratedKernel& out) {
    out.summary = fmt::format(
        "{} tiles of {} rows through {} DM buffers; per row: max (V_MAX, V_RMAX), exp(x - max) in FP32 with "
        "the sum and the BF16 e stored in place, then e / sum; each pass software-pipelined, {} chunks per "
        "loop iteration",
        s.tiles, rows, buffers, unroll);
    k.comment("r11 = -inf (FP32 bits), a0 = the scale");
    k.li(11, static_cast<int64_t>(0xFF800000u));
    if (job.scale != 1.0) {
      k.li(12, static_cast<int64_t>(arith::double_to_fp32(job.scale)));
      k.op("A_BCST a0, r12");
    }
    if (causal) {
      k.comment("the causal mask table; r9 counts rows");
      k.op("V_BCST v1, r0");
      k.op("V_BCST v2, r11");
      k.op("S_PMOV p6, r0");
      if (job.compact) {  // a loop over d: the diagonal row of d + 1 is that of d shifted by a lane of 0
        k.op("V_BCST v3, r11");
        k.loop(c.vlen, [&] {
          k.loop(chunks, [&] { k.op(fmt::format("L_VST v1, p6, {}", c.rb), {{}, {kMask}, -1}); });
          k.op(fmt::format("V_ALIGN v3, v1, v3, {}", c.vlen - 1));  // lanes <= d: 0, the rest -inf
          k.op(fmt::format("L_VST v3, p6, {}", c.rb), {{}, {kMask}, -1});
          k.loop(chunks, [&] { k.op(fmt::format("L_VST v2, p6, {}", c.rb), {{}, {kMask}, -1}); });
        });
      } else {
        for (int64_t d = 0; d < c.vlen; ++d) {
          k.loop(chunks, [&] { k.op(fmt::format("L_VST v1, p6, {}", c.rb), {{}, {kMask}, -1}); });
          k.op(fmt::format("V_ALIGN v3, v1, v2, {}", c.vlen - d - 1));  // lanes <= d: 0, the rest -inf
          k.op(fmt::format("L_VST v3, p6, {}", c.rb), {{}, {kMask}, -1});
          k.loop(chunks, [&] { k.op(fmt::format("L_VST v2, p6, {}", c.rb), {{}, {kMask}, -1}); });
        }
      }
      k.li(9, 0);
    }
  }

  // layer_norm: 1/N, eps, 1.0; gamma and beta resident in DM
  void set_up_layer_norm(GeneratedKernel& out) {
    out.summary = fmt::format(
        "{} tiles of {} rows through {} DM buffers; per row: sums of x and x^2 (A_VMAC), mean and "
        "rsqrt(E[x^2] - mean^2 + eps), then ((x - mean) * r * gamma + beta) in FP32; each pass "
        "software-pipelined, {} chunks per loop iteration",
        s.tiles, rows, buffers, unroll);
    k.comment(
        fmt::format("a6 = 1/N, a7 = eps (FP32 lanes), v15 = 1.0; gamma and beta (N/VLEN rows each) stay "
                    "in DM from rows {} and {} on",
                    goff, boff));
    k.li(11, static_cast<int64_t>(arith::double_to_fp32(1.0 / static_cast<double>(n))));
    k.li(12, static_cast<int64_t>(arith::double_to_fp32(job.eps)));
    k.li(13, static_cast<int64_t>(arith::double_to_fp32(1.0)));
    k.op("A_BCST a6, r11");
    k.op("A_BCST a7, r12");
    k.op("V_BCST v15, r13");
    k.li(14, chunks);
    k.li(11, c.rb);
    c.li_addr(13, job.gamma);
    k.li(12, goff * c.rb);
    k.op(fmt::format("C_DMALD {}, r12, r13, r11, r14, 15", c.ch(s.buffers)));
    k.op("S_PMOV p3, r12");
    c.li_addr(13, job.beta);
    k.li(12, boff * c.rb);
    k.op(fmt::format("C_DMALD {}, r12, r13, r11, r14, 15", c.ch(s.buffers)));
    k.op("S_PMOV p6, r12");
    k.op("C_ACQ 15", {{}, {kGamma}});
    k.op("C_ACQ 15", {{}, {kGamma}});
  }

  // rms_norm: 1/N, eps; gamma resident in DM
  void set_up_rms_norm(GeneratedKernel& out) {
    out.summary = fmt::format(
        "{} tiles of {} rows through {} DM buffers; per row: sum of squares (A_VMAC), rsqrt(mean + eps), "
        "then x * r * gamma in BF16; each pass software-pipelined, {} chunks per loop iteration",
        s.tiles, rows, buffers, unroll);
    k.comment(
        fmt::format("a6 = 1/N, a7 = eps (FP32 lanes); gamma (N/VLEN rows) stays in DM from row {} on", goff));
    k.li(11, static_cast<int64_t>(arith::double_to_fp32(1.0 / static_cast<double>(n))));
    k.li(12, static_cast<int64_t>(arith::double_to_fp32(job.eps)));
    k.op("A_BCST a6, r11");
    k.op("A_BCST a7, r12");
    c.li_addr(13, job.gamma);
    k.li(12, goff * c.rb);
    k.li(14, chunks);
    k.li(11, c.rb);
    k.op(fmt::format("C_DMALD {}, r12, r13, r11, r14, 15", c.ch(s.buffers)));
    k.op("C_ACQ 15", {{}, {kGamma}});
    k.op("S_PMOV p3, r12");
  }

  // softmax of one row: the maxima, exp(x - max) and its sum, e / sum
  void softmax_row(int acq, int st) {
    // pass 1: running maxima in v1, v2 (causal: the masked row is stored back in place first)
    for (int64_t i = 0; i < parts; ++i) k.op(fmt::format("V_BCST {}, r11", V(1 + i)));
    pipeline(k, chunks, masked ? 3 : 2, unroll, [&](int stage, int64_t u) {
      const int64_t x = 5 + u % sets, mk = 9 + u % sets;
      if (stage == 0) {
        k.op(fmt::format("L_VLD {}, p0, {}", V(x), c.rb), {{acq}, {}, bank(u)});
        if (causal) k.op(fmt::format("L_VLD {}, p5, {}", V(mk), c.rb), {{kMask}, {}, -1});
        if (add_pair) k.op(fmt::format("L_VLD {}, p5, {}", V(mk), c.rb), {{acq}, {}, -1});
      } else if (masked && stage == 1) {
        k.op(fmt::format("V_ADD {}, {}, {}", V(x), V(x), V(mk)));
        k.op(fmt::format("L_VST {}, p6, {}", V(x), c.rb), {{}, {acq}, bank(u)});
      } else {
        k.op(fmt::format("V_MAX {}, {}, {}", V(1 + u % parts), V(1 + u % parts), V(x)));
      }
    });
    if (parts > 1) k.op("V_MAX v1, v1, v2");
    k.op("V_RMAX v3, v1");
    k.op("A_UPS a7, v3");
    for (int64_t i = 0; i < parts; ++i) k.op(fmt::format("A_BCST {}, r0", A(5 + i)));
    // pass 2: e = exp(x - max) in FP32, summed in a5, a6; e stored in place as BF16
    pipeline(k, chunks, 4, unroll, [&](int stage, int64_t u) {
      const int64_t x = 5 + u % sets, e = 9 + u % sets, t = 1 + u % sets;
      if (stage == 0) {
        k.op(fmt::format("L_VLD {}, p1, {}", V(x), c.rb), {{acq}, {}, bank(u)});
      } else if (stage == 1) {
        k.op(fmt::format("A_UPS {}, {}", A(t), V(x)));
        k.op(fmt::format("A_SUB {}, {}, a7", A(t), A(t)));
        if (job.scale != 1.0) k.op(fmt::format("A_MUL {}, {}, a0", A(t), A(t)));
        k.op(fmt::format("A_EXP {}, {}", A(t), A(t)));
      } else if (stage == 2) {
        k.op(fmt::format("A_ADD {}, {}, {}", A(5 + u % parts), A(5 + u % parts), A(t)));
        k.op(fmt::format("V_SRS {}, {}", V(e), A(t)));
      } else {
        k.op(fmt::format("L_VST {}, p2, {}", V(e), c.rb), {{}, {st}, bank(u)});
      }
    });
    if (parts > 1) k.op("A_ADD a5, a5, a6");
    k.op("A_RSUM a5, a5");
    k.op("A_RECI a5, a5");
    k.op("V_SRS v4, a5");
    // pass 3: y = e * (1 / sum)
    pipeline(k, chunks, 3, unroll, [&](int stage, int64_t u) {
      const int64_t e = 5 + u % sets, y = 9 + u % sets;
      if (stage == 0) {
        k.op(fmt::format("L_VLD {}, p3, {}", V(e), c.rb), {{st}, {}, bank(u)});
      } else if (stage == 1) {
        k.op(fmt::format("V_MUL {}, {}, v4", V(y), V(e)));
      } else {
        k.op(fmt::format("L_VST {}, p4, {}", V(y), c.rb), {{}, {st}, bank(u)});
      }
    });
  }

  // layer_norm of one row: the sums of x and x^2, then (x - mean) * r * gamma + beta
  void layer_norm_row(int acq, int st) {
    // pass 1: sums of x^2 in a0, a1 and of x in a2, a3 (two partial sums each: A_VMAC's latency is 3)
    for (int64_t i = 0; i < 4; ++i) k.op(fmt::format("A_BCST {}, r0", A(i)));
    pipeline(k, chunks, 2, unroll, [&](int stage, int64_t u) {
      const int64_t x = 1 + u % sets;
      if (stage == 0) {
        k.op(fmt::format("L_VLD {}, p0, {}", V(x), c.rb), {{acq}, {}, bank(u)});
      } else {
        k.op(fmt::format("A_VMAC {}, {}, {}", A(u % 2), V(x), V(x)));
        k.op(fmt::format("A_VMAC {}, {}, v15", A(2 + u % 2), V(x)));
      }
    });
    k.op("A_ADD a0, a0, a1");
    k.op("A_ADD a2, a2, a3");
    k.op("A_RSUM a0, a0");
    k.op("A_RSUM a2, a2");
    k.op("A_MUL a0, a0, a6");  // E[x^2]
    k.op("A_MUL a2, a2, a6");  // mean
    k.op("A_MUL a1, a2, a2");
    k.op("A_SUB a0, a0, a1");  // the biased variance
    k.op("A_ADD a0, a0, a7");
    k.op("A_RSQRT a4, a0");
    // pass 2: y = (x - mean) * r * gamma + beta, all in FP32 (one rounding, at the end)
    pipeline(k, chunks, 3, unroll, [&](int stage, int64_t u) {
      const int64_t x = 5 + u % 2, g = 7 + u % 2, bt = 9 + u % 2, y = 11 + u % 2;
      const int64_t t = u % 2 == 0 ? 0 : 1, w = u % 2 == 0 ? 3 : 5;
      if (stage == 0) {
        k.op(fmt::format("L_VLD {}, p1, {}", V(x), c.rb), {{acq}, {}, bank(u)});
        k.op(fmt::format("L_VLD {}, p3, {}", V(g), c.rb), {{kGamma}, {}, bank(u + goff)});
        k.op(fmt::format("L_VLD {}, p6, {}", V(bt), c.rb), {{kGamma}, {}, bank(u + boff)});
      } else if (stage == 1) {
        k.op(fmt::format("A_UPS {}, {}", A(t), V(x)));
        k.op(fmt::format("A_SUB {}, {}, a2", A(t), A(t)));
        k.op(fmt::format("A_MUL {}, {}, a4", A(t), A(t)));
        k.op(fmt::format("A_UPS {}, {}", A(w), V(g)));
        k.op(fmt::format("A_MUL {}, {}, {}", A(t), A(t), A(w)));
        k.op(fmt::format("A_UPS {}, {}", A(w), V(bt)));
        k.op(fmt::format("A_ADD {}, {}, {}", A(t), A(t), A(w)));
        k.op(fmt::format("V_SRS {}, {}", V(y), A(t)));
      } else {
        k.op(fmt::format("L_VST {}, p2, {}", V(y), c.rb), {{}, {st}, bank(u)});
      }
    });
    k.op(fmt::format("S_PADDI p3, {}", -chunks * c.rb));
    k.op(fmt::format("S_PADDI p6, {}", -chunks * c.rb));
  }

  // rms_norm of one row: the sum of squares, then x * r * gamma
  void rms_norm_row(int acq, int st) {
    // pass 1: sum of squares in a1.. (partial sums)
    const int64_t sums = pow2_divisor(unroll, 4);
    for (int64_t i = 0; i < sums; ++i) k.op(fmt::format("A_BCST {}, r0", A(i)));
    pipeline(k, chunks, 2, unroll, [&](int stage, int64_t u) {
      const int64_t x = 1 + u % sets;
      if (stage == 0) {
        k.op(fmt::format("L_VLD {}, p0, {}", V(x), c.rb), {{acq}, {}, bank(u)});
      } else {
        k.op(fmt::format("A_VMAC {}, {}, {}", A(u % sums), V(x), V(x)));
      }
    });
    if (sums == 4) {
      k.op("A_ADD a0, a0, a1");
      k.op("A_ADD a2, a2, a3");
      k.op("A_ADD a0, a0, a2");
    } else if (sums == 2) {
      k.op("A_ADD a0, a0, a1");
    }
    k.op("A_RSUM a4, a0");
    k.op("A_MUL a4, a4, a6");
    k.op("A_ADD a4, a4, a7");
    k.op("A_RSQRT a4, a4");
    k.op("V_SRS v0, a4");
    // pass 2: y = x * r * gamma
    pipeline(k, chunks, 3, unroll, [&](int stage, int64_t u) {
      const int64_t x = 5 + u % 2, g = 7 + u % 2, t = 9 + u % 2, y = 11 + u % 2;
      if (stage == 0) {
        k.op(fmt::format("L_VLD {}, p1, {}", V(x), c.rb), {{acq}, {}, bank(u)});
        k.op(fmt::format("L_VLD {}, p3, {}", V(g), c.rb), {{kGamma}, {}, bank(u + goff)});
      } else if (stage == 1) {
        k.op(fmt::format("V_MUL {}, {}, v0", V(t), V(x)));
        k.op(fmt::format("V_MUL {}, {}, {}", V(y), V(t), V(g)));
      } else {
        k.op(fmt::format("L_VST {}, p2, {}", V(y), c.rb), {{}, {st}, bank(u)});
      }
    });
    k.op(fmt::format("S_PADDI p3, {}", -chunks * c.rb));
  }

  Ctx& c;
  KernelBuilder& k;
  const RowJob& job;
  const bool softmax = job.op == "softmax", layer_norm = job.op == "layer_norm";
  const int64_t m = job.m, n = job.n;
  const int64_t chunks = n / c.vlen;
  // causal softmax: a mask table, per d = i mod VLEN a block [0 x chunks][diagonal d][-inf x chunks] of
  // BF16 rows added to row i's chunks from row d * (2 chunks + 1) + chunks - i / VLEN of the table on
  const bool causal = softmax && job.causal && !job.add_pair;
  const bool add_pair = softmax && job.add_pair, masked = causal || add_pair;
  const int64_t block_rows = 2 * chunks + 1;
  const int64_t table_rows = causal ? (c.vlen * block_rows + c.banks - 1) / c.banks * c.banks : 0;
  const int64_t goff = c.banks / 2;  // gamma's first DM row: half the banks away from the tiles' rows
  // layer_norm's beta follows gamma, a quarter of the banks further on
  const int64_t boff = goff + (chunks + c.banks - 1) / c.banks * c.banks + c.banks / 4;
  const int64_t gamma_rows = softmax      ? table_rows
                             : layer_norm ? (boff + chunks + c.banks - 1) / c.banks * c.banks
                                          : (chunks + c.banks) / c.banks * c.banks + c.banks;
  int64_t buffers = 0, rows = 0, unroll = 0, sets = 0, parts = 0;
  Stream s;
  bool banks_known = false;
};

}  // namespace

GeneratedKernel rowwise(Ctx& c, const RowJob& job, const KnobValues& values, const std::vector<Knob>& knobs) {
  RowPass pass(c, job);
  GeneratedKernel out = pass.plan(values, knobs);
  pass.set_up(out);
  pass.run();
  return out;
}

std::vector<Knob> rowwise_knobs() {
  return {{"tile_rows", "tensor rows per DMA tile", 4, {1, 2, 4, 8, 16}},
          {"unroll", "chunks (VLEN elements) per loop iteration of each pass", 8, {2, 4, 8, 16}},
          {"buffers", "DM tile buffers in flight (2: double buffering)", 2, {2, 3}}};
}

}  // namespace kcraft::vliw::template_detail
