#include "tasks/vliw/templates.h"

#include <algorithm>
#include <functional>
#include <initializer_list>
#include <stdexcept>
#include <utility>

#include <fmt/format.h>

#include "isa/common/arith/fp_arith.h"

namespace kcraft::vliw::template_detail {

// ---------------------------------------------------------------- gemv
//
// A streams through DM in tiles of whole rows (load-only stream); x stays in DM. Row m: A_VMAC of its
// chunks with x's into partial accumulators, A_RSUM, and the sum (BF16) goes into lane m mod VLEN of the
// output vector v15 with exact BF16 ops: v15 = v15 * (1 - e_l) + e_l * s, e_l the one-hot row of a DM table.
// v15 is stored to its y row after every row (the last store of a row of y holds all its lanes), and y
// goes to DRAM at the end.
GeneratedKernel gemv(Ctx& c, const KnobValues& values, const std::vector<Knob>& knobs) {
  KernelBuilder& k = c.k;
  const int64_t m = c.cfg.dim("M"), kk = c.cfg.dim("K");
  const int64_t kc = kk / c.vlen, yrows = m / c.vlen;
  const int64_t buffers = std::clamp<int64_t>(knob(values, knobs, "buffers"), 2, 4);
  auto round_up = [&](int64_t rows) { return (rows + c.banks - 1) / c.banks * c.banks; };
  const int64_t table = 0, xoff = round_up(2 * c.vlen) + c.banks / 2, yoff = round_up(xoff + kc),
                base = round_up(yoff + yrows);
  const int64_t room = (c.dm_rows - base) / buffers / kc;
  if (room < 1) throw std::invalid_argument("a row of A does not fit DM");
  const int64_t rows = pow2_divisor(m, std::min(knob(values, knobs, "tile_rows"), room));
  const int64_t unroll = pow2_divisor(kc, std::clamp<int64_t>(knob(values, knobs, "unroll"), 1, 16));
  const int64_t parts = std::min<int64_t>(unroll, 4);
  const bool banks_known = kc % c.banks == 0 && unroll % c.banks == 0;
  auto bank = [&](int64_t row) { return banks_known ? static_cast<int>(row % c.banks) : -1; };
  auto log2 = [](int64_t v) {
    int64_t l = 0;
    while ((int64_t{1} << l) < v) ++l;
    return l;
  };
  GeneratedKernel out;
  out.knobs = {{"tile_rows", rows}, {"unroll", unroll}, {"buffers", buffers}};
  out.summary = fmt::format(
      "A in {} tiles of {} rows through {} DM buffers, x resident; per row A_VMAC over K ({} chunks per loop "
      "iteration), A_RSUM, the sum placed in its lane of the y row with a one-hot table; y stored at the end",
      m / rows, rows, buffers, unroll);
  k.comment(fmt::format("DM rows: one-hot table {} (e_l, 1 - e_l), x {}, y {}, A tiles from {}", table, xoff,
                        yoff, base));
  k.li(11, c.addr("x"), c.sym("x"));
  k.li(12, xoff * c.rb);
  k.li(13, c.rb);
  k.li(14, kc);
  k.op(fmt::format("C_DMALD {}, r12, r11, r13, r14, 15", c.ch(buffers)));
  k.op("S_PMOV p1, r12");
  // The one-hot table: row 2l = e_l, row 2l + 1 = 1 - e_l (BF16 1.0 = 0x3F80).
  k.op("V_BCST v0, r0");
  k.li(11, static_cast<int64_t>(arith::double_to_fp32(1.0)));
  k.op("V_BCST v1, r11");
  k.li(11, table * c.rb);
  k.op("S_PMOV p2, r11");
  for (int64_t l = 0; l < c.vlen; ++l) {
    k.op(fmt::format("L_VST v0, p2, {}", c.rb), {{}, {kE0}, -1});
    k.op(fmt::format("L_VST v1, p2, {}", -c.rb + (l / 2) * 4), {{}, {kE0}, -1});
    k.li(12, l % 2 == 0 ? 0x3F80 : 0x3F800000);
    k.li(13, l % 2 == 0 ? 0x3F800000 : 0x3F80);
    k.op(fmt::format("L_SST r12, p2, {}", c.rb), {{}, {kE0}, -1});
    k.op(fmt::format("L_SST r13, p2, {}", c.rb - (l / 2) * 4), {{}, {kE0}, -1});
  }
  k.op("V_BCST v15, r0");
  k.op("C_ACQ 15", {{}, {kGamma}});
  // r9: row index m, r11: VLEN - 1, r13: y's DM address
  k.li(9, 0);
  k.li(11, c.vlen - 1);
  k.li(13, yoff * c.rb);
  Stream s;
  s.tiles = m / rows;
  s.tile_rows = rows * kc;
  s.buffers = buffers;
  s.base_row = base;
  s.store = false;
  stream(c, s, "A", "y", [&](int64_t b) {
    const int acq = static_cast<int>(kAcqBase + b);
    k.op(fmt::format("S_PMOV p0, {}", R(5 + b)));
    k.loop(rows, [&] {
      k.op("S_AND r10, r9, r11");
      k.op(fmt::format("S_SLLI r10, r10, {}", log2(2 * c.rb)));
      k.op("S_PMOV p2, r10");
      k.op(fmt::format("S_SRLI r12, r9, {}", log2(c.vlen)));
      k.op(fmt::format("S_SLLI r12, r12, {}", log2(c.rb)));
      k.op("S_ADD r12, r12, r13");
      k.op("S_PMOV p3, r12");
      k.op("S_ADDI r9, r9, 1");
      for (int64_t i = 0; i < parts; ++i) k.op(fmt::format("A_BCST {}, r0", A(i)));
      pipeline(k, kc, 2, unroll, [&](int stage, int64_t u) {
        const int64_t a = 1 + 2 * (u % parts), x = a + 1;
        if (stage == 0) {
          k.op(fmt::format("L_VLD {}, p0, {}", V(a), c.rb), {{acq}, {}, bank(u)});
          k.op(fmt::format("L_VLD {}, p1, {}", V(x), c.rb), {{kGamma}, {}, bank(u + xoff)});
        } else {
          k.op(fmt::format("A_VMAC {}, {}, {}", A(u % parts), V(a), V(x)));
        }
      });
      if (parts == 4) {
        k.op("A_ADD a0, a0, a1");
        k.op("A_ADD a2, a2, a3");
      }
      if (parts >= 2) k.op(fmt::format("A_ADD a0, a0, {}", parts == 4 ? "a2" : "a1"));
      k.op("A_RSUM a0, a0");
      k.op("V_SRS v9, a0");
      k.op(fmt::format("L_VLD v10, p2, {}", c.rb), {{kE0}, {}, -1});
      k.op("L_VLD v11, p2, 0", {{kE0}, {}, -1});
      k.op("V_MUL v12, v10, v9");
      k.op("V_MUL v15, v15, v11");
      k.op("V_ADD v15, v15, v12");
      k.op("L_VST v15, p3, 0", {{}, {kRes}, -1});
      k.op(fmt::format("S_PADDI p1, {}", -kc * c.rb));
    });
  });
  k.li(11, c.addr("y"), c.sym("y"));
  k.li(12, yoff * c.rb);
  k.li(10, c.rb);
  k.li(14, yrows);
  k.op(fmt::format("C_DMAST 0, r12, r11, r10, r14"), {{kRes}, {}, -1});
  k.op("C_HALT", {{}, {}, -1, true});
  return out;
}

// ---------------------------------------------------------------- gemm, linear
//
// C^T = B^T A^T in matrix-multiply mode: A_MMAC's first operand is a tile of B^T (MMUL_M columns n by
// MMUL_K rows k), the second a tile of A^T (MMUL_K k by MMUL_N m), the accumulator a tile of C^T. In that
// orientation DM rows of A (m fixed, VLEN consecutive k) and of B (k fixed, VLEN consecutive n) become
// tiles with one or two levels of V_SHUF zips, and the result tiles become rows of C with unzips.

int64_t matmul_m_tiles(const Params& p, int64_t want) {
  const int64_t most = 8 / static_cast<int64_t>(p.mmul_k());
  return std::clamp<int64_t>(pow2_divisor(most, want), 1, most);
}

int64_t matmul_partial_rows(const Params& p, const MatJob& job, int64_t strips) {
  return 3 * job.m * strips * static_cast<int64_t>(p.mmul_k()) / static_cast<int64_t>(p.mmul_m());
}

int64_t matmul_dm_rows(const Params& p, const MatJob& job, int64_t tm, int64_t strips, int64_t chunks,
                       int64_t braw_buffers) {
  const int64_t vl = p.vlen, mm = p.mmul_m(), mk = p.mmul_k(), banks = p.dm_banks;
  const int64_t kp = chunks * vl, mb = tm * mm;
  const int64_t braw_rows = job.weights_nk ? vl * chunks : kp;
  auto round = [&](int64_t rows) { return (rows + banks - 1) / banks * banks; };
  int64_t rows = round(strips * kp) + round(kp / mk * tm) + 2 * round(mb * chunks) +
                 braw_buffers * round(braw_rows) + 2 * round(mb);
  if (!job.bias.empty()) rows += round(job.n / mm) + round(1);
  if (chunks < job.k / vl) rows += round(matmul_partial_rows(p, job, strips)) + round(2);
  return rows;
}

MatPlan matmul_plan(const Params& p, const MatJob& job, int64_t tm_want, int64_t min_pieces,
                    int64_t braw_buffers) {
  const int64_t kc = job.k / p.vlen, dm_rows = p.dm_bytes / p.row_bytes();
  const int64_t unit = job.weights_nk && kc % 2 == 0 ? 2 : 1;
  if (min_pieces > 1) {
    const MatPlan plan = matmul_plan(p, job, tm_want);
    if (plan.chunks == 0 || plan.pieces >= min_pieces) return plan;
  }
  for (int64_t pieces = std::max<int64_t>(1, min_pieces); pieces <= kc; ++pieces) {
    const int64_t chunks = ((kc + pieces - 1) / pieces + unit - 1) / unit * unit;
    if (chunks * (pieces - 1) >= kc) continue;  // the rounding left nothing for the last piece
    MatPlan plan;
    plan.chunks = chunks;
    plan.pieces = (kc + chunks - 1) / chunks;
    plan.tm = matmul_m_tiles(p, tm_want);
    while (plan.tm > 1 && (matmul_dm_rows(p, job, plan.tm, 1, chunks, braw_buffers) > dm_rows ||
                           job.m % (plan.tm * static_cast<int64_t>(p.mmul_m())) != 0))
      plan.tm /= 2;
    if (matmul_dm_rows(p, job, plan.tm, 1, chunks, braw_buffers) <= dm_rows) return plan;
  }
  return min_pieces > 1 ? matmul_plan(p, job, tm_want) : MatPlan{};
}

namespace {

// One matrix product, phase by phase: plan_pieces() (K in pieces, the strips per panel, the DM map),
// plan_networks() (the shuffle networks of the tiles), set_registers() (buffer registers, the bias tiles),
// start_loads() (the DRAM bases, the first prefetches) and emit_panels() (the panel loops: B^T tiles, the A
// blocks against them, the k-loop, the stores). Its helpers load blocks and strips, rearrange raw rows into
// tiles and move the accumulators.
class Matmul {
 public:
  Matmul(Ctx& ctx, const MatJob& product) : c(ctx), k(ctx.k), job(product) {}

  GeneratedKernel plan_pieces(const KnobValues& values, const std::vector<Knob>& knobs) {
    has_k_pieces =
        std::any_of(knobs.begin(), knobs.end(), [](const Knob& x) { return x.name == "k_pieces"; });
    if (ldc != n * 2 && batch > 1) throw std::logic_error("matmul: a row stride of C with batches");
    mplan = matmul_plan(c.p, job, knob(values, knobs, "m_tiles"),
                        has_k_pieces && !fixed_bases ? knob(values, knobs, "k_pieces") : 1);
    // The last resort for IMEM (Ctx::loop_pieces): when one raw B strip instead of two lets K fit DM in one
    // piece, no piece code at all (the next strip loads after the tiles are built: less overlap).
    if (c.loop_pieces && matmul_plan(c.p, job, knob(values, knobs, "m_tiles")).pieces > 1 && batch == 1 &&
        !fixed_bases) {
      const MatPlan one = matmul_plan(c.p, job, knob(values, knobs, "m_tiles"), 1, 1);
      if (one.chunks > 0 && one.pieces == 1) {
        mplan = one;
        one_braw = true;
      }
    }
    if (mplan.chunks == 0) throw std::invalid_argument("matmul: no piece of K fits DM");
    split = mplan.pieces > 1;
    // K in pieces as one hardware loop over (panel, piece) pairs (Ctx::loop_pieces, the last resort for
    // IMEM): one copy of the piece code, the piece's byte offset into the rows of A and W in p6 (the next
    // piece's in p4), what differs between pieces computed from it (0/1 loops for the first and last piece's
    // code).
    looped = split && c.loop_pieces && linear && !has_bias && job.a_word < 0 && job.b_word < 0 &&
             job.c_word < 0 && batch == 1 && c.k.compact_loops();
    if (looped) {  // equal pieces (the fewest that fit DM), so that every piece is the same code
      looped = false;
      for (int64_t want = mplan.pieces; want <= kc && !looped; ++want) {
        const MatPlan equal = matmul_plan(c.p, job, knob(values, knobs, "m_tiles"), want);
        if (equal.chunks > 0 && equal.chunks * equal.pieces == kc && equal.pieces > 1) {
          mplan = equal;
          looped = true;
        }
      }
    }
    tm = mplan.tm;
    kcp = mplan.chunks;
    pieces = mplan.pieces;
    groups = kcp * vl / mk;  // k-groups of the largest piece (one A_MMAC per tile pair)
    mb = tm * mm;            // rows of A per block
    mblocks = m / mb;
    // DM rows: resident B^T tiles (strips * the piece's k), A^T tiles, two raw A blocks, two raw B strips,
    // two output blocks, bias tiles; with pieces, the partial sums and the two selector tiles.
    braw_rows = linear ? vl * kcp : kcp * vl;
    strips = divisor_at_most(strips_total, std::min(knob(values, knobs, "strips"),
                                                    job.max_strips > 0 ? job.max_strips : strips_total));
    while (strips > 1 && matmul_dm_rows(c.p, job, tm, strips, kcp, one_braw ? 1 : 2) > c.dm_rows)
      strips = divisor_at_most(strips_total, strips - 1);
    if (looped) strips = 1;  // one strip per panel: the prefetch of the next piece's strip is simple
    accs = tm * mk;          // accumulator tiles per output block
    panels = strips_total / strips;
    unroll = std::clamp<int64_t>(knob(values, knobs, "unroll") / 2 * 2, 2, 8);
    GeneratedKernel out;
    out.knobs = {{"strips", strips}, {"m_tiles", tm}, {"unroll", unroll}};
    if (has_k_pieces) out.knobs["k_pieces"] = pieces;
    if (split && (batch > 1 || job.b_word >= 0))
      throw std::logic_error("matmul: K in pieces with batches or B's base in DM is not implemented");
    if (split && kk * 2 > 32767) throw std::logic_error("matmul: K in pieces needs a row of A under 32 KiB");
    out.summary = fmt::format(
        "{} panels of {} columns: B^T tiles of a panel built once (V_SHUF zips) and kept in DM; A streams in "
        "blocks of {} rows (double-buffered DMA, zipped into A^T tiles); per {}x{} output block {} "
        "accumulators, A_MMAC over K with the next k-group's loads in the same bundles ({} k-groups per loop "
        "iteration), unzipped into rows and stored by DMA",
        panels, strips * vl, mb, mb, vl, mk * tm, unroll);
    if (split)
      out.summary += fmt::format(
          "; K in {} pieces of up to {} (the FP32 accumulators kept in DM between pieces as three exact BF16 "
          "parts)",
          pieces, kcp * vl);
    if (looped) out.summary += ", in one hardware loop over (panel, piece) pairs";
    if (one_braw) out.summary += "; one raw B strip buffer (so that K fits DM in one piece)";
    // DM map (rows)
    int64_t at = 0;
    auto take = [&](int64_t rows) {
      const int64_t r = at;
      at += (rows + c.banks - 1) / c.banks * c.banks;
      return r;
    };
    res = take(strips * kcp * vl);
    at_tiles = take(groups * tm);
    araw0 = take(mb * kcp);
    araw1 = take(mb * kcp);
    braw0 = take(braw_rows);
    braw1 = one_braw ? braw0 : take(braw_rows);
    out0 = take(mb);
    out1 = take(mb);
    bias = has_bias ? take(n / mm) : 0;
    e0_row = has_bias ? take(1) : 0;
    partial = split ? take(matmul_partial_rows(c.p, job, strips)) : 0;
    select = split ? take(2) : 0;
    if (at > c.dm_rows) throw std::invalid_argument("gemm blocks do not fit DM");
    words = job.a_word >= 0 || job.b_word >= 0 || job.c_word >= 0;
    if ((batch > 1 || words) && has_bias)
      throw std::logic_error("matmul: batches or DM bases with a bias are not implemented");
    a_in_p6 = batch > 1 || job.a_word >= 0;
    b_in_p7 = batch > 1 || job.b_word >= 0;
    last_offset = (pieces - 1) * kcp * rb;  // the last piece's byte offset into the rows of A and W
    return out;
  }

  void plan_networks() {
    // ---- shuffle networks (planned on labels: raw row index * VLEN + lane)
    // A^T tiles from MMUL_M rows of A (one DM row each: VLEN k): tile q holds k-group q of the chunk.
    std::vector<Labels> a_group(static_cast<size_t>(mm)), a_targets;
    for (int64_t r = 0; r < mm; ++r) {
      for (int64_t l = 0; l < vl; ++l)
        a_group[static_cast<size_t>(r)].push_back(static_cast<int>(r * vl + l));
    }
    for (int64_t q = 0; q < vl / mk; ++q) {
      Labels t(static_cast<size_t>(vl), -1);
      for (int64_t kl = 0; kl < mk; ++kl) {
        for (int64_t ml = 0; ml < mm; ++ml)
          t[static_cast<size_t>(kl * mm + ml)] = static_cast<int>(ml * vl + q * mk + kl);
      }
      a_targets.push_back(t);
    }
    a_net = plan(a_group, a_targets);
    // linear: `cg` chunks of MMUL_M rows of W (n fixed, VLEN k) -> the tiles of those chunks' k-groups. One
    // chunk suffices when VLEN is an even power of two; otherwise the planner needs two (a wider group).
    if (linear) {
      for (cg = 1;; cg *= 2) {
        if (cg > 2 || kcp % cg != 0 || piece_chunks(pieces - 1) % cg != 0)
          throw std::invalid_argument("no tile rearrangement of W for this VLEN and K");
        std::vector<Labels> group, targets;
        b_rows.clear();
        for (int64_t cc = 0; cc < cg; ++cc) {
          for (int64_t nl = 0; nl < mm; ++nl) {
            Labels row;
            for (int64_t l = 0; l < vl; ++l) row.push_back(static_cast<int>((cc * mm + nl) * vl + l));
            group.push_back(row);
            b_rows.emplace_back(nl, cc);
          }
        }
        for (int64_t cc = 0; cc < cg; ++cc) {
          for (int64_t q = 0; q < vl / mk; ++q) {
            Labels t(static_cast<size_t>(vl), -1);
            for (int64_t nl = 0; nl < mm; ++nl) {
              for (int64_t kl = 0; kl < mk; ++kl)
                t[static_cast<size_t>(nl * mk + kl)] = static_cast<int>((cc * mm + nl) * vl + q * mk + kl);
            }
            targets.push_back(t);
          }
        }
        try {
          b_net = plan(group, targets);
          break;
        } catch (const std::logic_error&) {
        }
      }
    } else {
      b_net = gemm_b_plan(false);
    }
    b_tiles = linear ? cg * vl / mk : mk;
    // Output: MMUL_K accumulator tiles (subtile j, lanes n_local * MMUL_N + m_local) -> MMUL_M rows of C.
    std::vector<Labels> o_group, o_targets;
    for (int64_t j = 0; j < mk; ++j) {
      Labels t(static_cast<size_t>(vl), -1);
      for (int64_t nl = 0; nl < mm; ++nl) {
        for (int64_t ml = 0; ml < mm; ++ml)
          t[static_cast<size_t>(nl * mm + ml)] = static_cast<int>(ml * vl + j * mm + nl);
      }
      o_group.push_back(t);
    }
    for (int64_t ml = 0; ml < mm; ++ml) {
      Labels row;
      for (int64_t l = 0; l < vl; ++l) row.push_back(static_cast<int>(ml * vl + l));
      o_targets.push_back(row);
    }
    o_net = plan(o_group, o_targets);
    for (const Network* net : std::initializer_list<const Network*>{&a_net, &b_net, &o_net}) {
      for (int pos : net->position) {
        if (pos < 0) throw std::logic_error("shuffle network misses a target");
      }
    }
  }

  void set_registers() {
    // ---- registers
    // r2 next A block index, r3 next B strip index, r4 output block address, r5 ROW_BYTES, r6 N*2,
    // r7 raw B buffer, r8 raw A buffer, r9/r11 their swap masks, r10 output buffer, r1 its swap mask,
    // r13 output strip address, r12/r14 temporaries. Locks: 0 A blocks, 1 B strips, 2 free output buffers.
    a_block_bytes = mb * kk * 2;
    strip_bytes = linear ? vl * kk * 2 : vl * 2;
    k.comment(fmt::format("DM rows: B^T tiles {}, A^T tiles {}, raw A {}/{}, raw B {}/{}, output {}/{}{}",
                          res, at_tiles, araw0, araw1, braw0, braw1, out0, out1,
                          has_bias ? fmt::format(", bias tiles {}", bias) : ""));
    k.li(5, rb);
    k.li(6, n * 2);
    k.li(7, braw0 * rb);
    k.li(9, (braw0 ^ braw1) * rb);
    k.li(8, araw0 * rb);
    k.li(11, (araw0 ^ araw1) * rb);
    k.li(10, out0 * rb);
    k.li(1, (out0 ^ out1) * rb);
    k.op("C_REL 2");
    k.op("C_REL 2");
    if (has_bias) {
      k.comment("bias: A_MMUL of a bias tile (b[n] in column k = 0) with e0 (1.0 in row k = 0) starts each");
      k.comment("accumulator at b[n]; the bias tiles are built once from the raw bias rows");
      k.li(12, c.addr(job.bias), c.sym(job.bias));
      k.li(14, strips_total);
      k.op("C_DMALD 1, r7, r12, r5, r14, 1", {{}, {}, -1});
      k.li(12, e0_row * rb);
      k.op("S_PMOV p6, r12");
      k.op("V_BCST v0, r0");
      k.op("L_VST v0, p6, 0", {{}, {kE0}, -1});
      k.li(12, 0x3F803F80);  // two BF16 lanes of 1.0
      for (int64_t w = 0; w < mm / 2; ++w) k.op("L_SST r12, p6, 4", {{}, {kE0}, -1});
      k.op(fmt::format("S_PADDI p6, {}", -(mm / 2) * 4));
      k.op("C_ACQ 1", {{}, {kAcqBase + 1}});
      k.op("S_PMOV p0, r7");
      k.li(12, bias * rb);
      k.op("S_PMOV p1, r12");
      const Network bias_net = gemm_b_plan(true);
      pipeline(k, strips_total, 2, 2, [&](int stage, int64_t u) {
        const int x = static_cast<int>(u % 2);
        if (stage == 0) {
          k.op(fmt::format("L_VLD {}, p0, {}", V(x), rb), {{kAcqBase + 1}, {}, -1});
          return;
        }
        std::vector<int> set_a, set_b;
        for (int64_t i = 0; i < mk; ++i) {
          set_a.push_back(static_cast<int>(4 + i));
          set_b.push_back(static_cast<int>(8 + i));
        }
        const auto regs =
            emit_network(k, std::vector<int>(static_cast<size_t>(mk), x), bias_net.levels, set_a, set_b);
        for (int64_t j = 0; j < mk; ++j)
          k.op(fmt::format("L_VST {}, p1, {}",
                           V(regs[static_cast<size_t>(bias_net.position[static_cast<size_t>(j)])]), rb),
               {{kAcqBase + 1}, {kBias}, -1});
      });
    }
  }

  void start_loads() {
    k.li(2, 0);
    k.li(3, 0);
    if (words) k.comment("the DRAM addresses of this product from DM words");
    auto word = [&](int64_t where, const std::string& to) {
      k.li(12, where);
      k.op("S_PMOV p4, r12");
      k.op(fmt::format("L_SLD {}, p4, 0", to == "r4" ? "r4" : "r12"), {{kState}, {}, -1});
      if (to != "r4") k.op(fmt::format("S_PMOV {}, r12", to));
    };
    if (job.c_word >= 0) {
      word(job.c_word, "r4");
    } else {
      li_region(4, c_name, job.c_offset);
    }
    if (job.a_word >= 0) word(job.a_word, "p6");
    if (job.b_word >= 0) word(job.b_word, "p7");
    if (batch > 1) {
      k.comment("p6, p7: this batch's A and B in DRAM; p4: panels left in this batch");
      li_region(12, a_name, job.a_offset);
      k.op("S_PMOV p6, r12");
      li_region(12, b_name, 0);
      k.op("S_PMOV p7, r12");
      k.li(12, panels);
      k.op("S_PMOV p4, r12");
    }
    if (split) {
      k.comment(
          "selector tiles (rows of 1.0, and of -1.0, at lanes m * MMUL_K + m): A_MMAC of one with a tile");
      k.comment("of partial sums adds (or subtracts) it exactly");
      k.li(12, select * rb);
      k.op("S_PMOV p1, r12");
      for (int64_t sign = 0; sign < 2; ++sign) {
        for (int64_t w = 0; w < vl / 2; ++w) {
          int64_t lanes = 0;
          for (int64_t h = 0; h < 2; ++h) {
            const int64_t lane = 2 * w + h;
            if (lane / mk < mm && lane % mk == lane / mk)
              lanes |= int64_t{sign ? 0xBF80 : 0x3F80} << (16 * h);
          }
          k.li(12, lanes);
          k.op("L_SST r12, p1, 4", {{}, {kSelect}, -1});
        }
      }
    }
    if (looped) {
      k.comment("p6: the byte offset of this piece of K into the rows of A and W; p4: the next piece's");
      k.op("S_PMOV p6, r0");
      k.li(12, kcp * rb);
      k.op("S_PMOV p4, r12");
      load_a_looped(dm_from(8), "p6");
      load_b_looped(dm_from(7), "p6");
    } else {
      load_a(8, 0);
      load_b(7, 0);
    }
  }

  // The panels (with batches, per batch; with looped pieces, per (panel, piece) pair), then the end of the
  // product.
  void emit_panels() {
    if (has_bias) {
      k.li(12, bias * rb);
      k.op("S_PMOV p4, r12");
    }
    if (looped) {
      k.loop(panels * pieces, [&] { looped_piece(); });
    } else if (batch == 1) {
      k.loop(panels, [&] { panel(); });
    } else {
      // One loop over (batch, panel) pairs keeps the nesting within LOOP_DEPTH. After a batch's last panel,
      // the prefetches of its next A block and B strip (wrapped to block and strip 0 of the same batch) are
      // waited for and replaced by the next batch's.
      k.loop(batch * panels, [&] {
        panel();
        k.op("S_PADDI p4, -1");
        k.op("S_PGET r12, p4");
        k.op("S_ADDI r12, r12, -1");
        k.op("S_SRLI r12, r12, 31");  // 1 when no panel is left
        k.loop_reg(12, [&] {
          k.op("C_ACQ 0", {{}, {kAcqBase}});
          k.op("C_ACQ 1", {{}, {kAcqBase + 1}});
          k.li(12, m * kk * 2);
          k.op("S_PADD p6, r12");
          k.li(12, kk * n * 2);
          k.op("S_PADD p7, r12");
          c.add(4, m * n * 2 - n * 2, 14);
          k.li(12, panels);
          k.op("S_PMOV p4, r12");
          k.li(2, 0);  // the wasted prefetches were block and strip 0: start the next batch there
          k.li(3, 0);
          load_a(8, 0);
          load_b(7, 0);
        });
      });
    }
    if (job.last) {
      k.op("C_HALT", {{}, {}, -1, true});
    } else {
      k.comment("end of the product: wait for the wrapped prefetches and the stores of the last outputs");
      k.op("C_ACQ 0", {{}, {kAcqBase}, -1, true});
      k.op("C_ACQ 1", {{}, {kAcqBase + 1}, -1, true});
      k.op("C_ACQ 2", {{}, {kOutStage}, -1, true});
      k.op("C_ACQ 2", {{}, {kOutStage}, -1, true});
    }
  }

 private:
  // reg = the DRAM address `offset` bytes into `region` (its symbol when the offset is 0).
  void li_region(int reg, const std::string& region, int64_t offset) {
    if (offset == 0) {
      k.li(reg, c.addr(region), c.sym(region));
    } else {
      k.li(reg, c.addr(region) + offset);
    }
  }

  // piece q covers DM rows of k [q * kcp, q * kcp + piece_chunks(q))
  int64_t piece_chunks(int64_t q) const { return std::min(kcp, kc - q * kcp); }

  // B^T tiles. gemm: MMUL_K rows of B (k fixed, VLEN n) -> MMUL_K tiles (subtile j: columns j*MMUL_M..).
  // The same network on MMUL_K copies of the bias row gives bias tiles (used with the e0 tile below).
  Network gemm_b_plan(bool copies) {
    std::vector<Labels> group, targets;
    for (int64_t r = 0; r < mk; ++r) {
      Labels row;
      for (int64_t l = 0; l < vl; ++l) row.push_back(static_cast<int>((copies ? 0 : r) * vl + l));
      group.push_back(row);
    }
    for (int64_t q = 0; q < mk; ++q) {
      Labels t(static_cast<size_t>(vl), -1);
      for (int64_t nl = 0; nl < mm; ++nl) {
        for (int64_t kl = 0; kl < (copies ? 1 : mk); ++kl)
          t[static_cast<size_t>(nl * mk + kl)] = static_cast<int>(kl * vl + q * mm + nl);
      }
      targets.push_back(t);
    }
    return plan(group, targets);
  }

  // Offsets of a group's raw rows in a raw strip whose W rows hold `chunks` DM rows each.
  std::vector<int64_t> b_offsets(int64_t chunks) {
    std::vector<int64_t> offsets;
    if (linear) {
      for (const auto& [nl, cc] : b_rows) offsets.push_back(nl * chunks + cc);
    } else {
      for (int64_t r = 0; r < mk; ++r) offsets.push_back(r);
    }
    return offsets;
  }

  // Prefetch A block 0 and B strip 0.
  void next_index(int reg, int64_t total) {
    // reg = (reg + 1) mod total, without branches: subtract total when reg + 1 > total - 1.
    k.op(fmt::format("S_ADDI {}, {}, 1", R(reg), R(reg)));
    k.li(12, total - 1);
    k.op(fmt::format("S_SUB r12, r12, {}", R(reg)));
    k.op("S_SRLI r12, r12, 31");
    k.li(14, total);
    k.op("S_MUL r12, r12, r14");
    k.op(fmt::format("S_SUB {}, {}, r12", R(reg), R(reg)));
  }

  // `count` matrix rows of `chunks` DM rows each, from DRAM r14 on (matrix rows K*2 bytes apart), into DM
  // at dm_reg; with K in pieces one transfer per matrix row, the last releasing `lock` (a channel works in
  // order, so all have landed then). r13 is the moving DM address.
  void load_rows(int dm_reg, int ch, int lock, int64_t count, int64_t chunks) {
    if (!split) {
      k.li(12, count * chunks);
      k.op(fmt::format("C_DMALD {}, {}, r14, r5, r12, {}", ch, R(dm_reg), lock), {{}, {kAcqBase + lock}});
      return;
    }
    if (dm_reg != 13) k.op(fmt::format("S_ADDI r13, {}, 0", R(dm_reg)));
    k.li(12, chunks);
    k.loop(count - 1, [&] {
      k.op(fmt::format("C_DMALD {}, r13, r14, r5, r12", ch), {{}, {kAcqBase + lock}});
      k.op(fmt::format("S_ADDI r13, r13, {}", chunks * rb));
      k.op(fmt::format("S_ADDI r14, r14, {}", kk * 2));
    });
    k.op(fmt::format("C_DMALD {}, r13, r14, r5, r12, {}", ch, lock), {{}, {kAcqBase + lock}});
  }

  void load_a(int dm_reg, int64_t q) {  // piece q of A block r2 into DM at dm_reg; r2 advances
    k.li(14, a_block_bytes);
    k.op("S_MUL r14, r2, r14");
    if (a_in_p6) {
      k.op("S_PGET r12, p6");
      if (q > 0) k.op(fmt::format("S_ADDI r12, r12, {}", q * kcp * rb));
    } else {
      li_region(12, a_name, job.a_offset + q * kcp * rb);
    }
    k.op("S_ADD r14, r14, r12");
    load_rows(dm_reg, 0, 0, mb, piece_chunks(q));
    next_index(2, mblocks);
  }

  void load_b(int dm_reg, int64_t q) {  // piece q of B strip r3 into DM at dm_reg; r3 advances
    k.li(14, strip_bytes);
    k.op("S_MUL r14, r3, r14");
    if (b_in_p7) {
      k.op("S_PGET r12, p7");
    } else {
      li_region(12, b_name, job.b_offset + q * kcp * (linear ? rb : vl * n * 2));
    }
    k.op("S_ADD r14, r14, r12");
    if (linear) {
      load_rows(dm_reg, c.ch(1), 1, vl, piece_chunks(q));
    } else {
      k.li(12, piece_chunks(q) * vl);
      k.op(fmt::format("C_DMALD {}, {}, r14, r6, r12, 1", c.ch(1), R(dm_reg)), {{}, {kAcqBase + 1}});
    }
    next_index(3, strips_total);
  }

  // ---- looped pieces: values that depend on the piece whose offset pointer `ptr` holds
  // dst = 1 when the piece whose offset p6 holds is (or is not) the first (or the last) one, else 0: the
  // sign bit of a difference with the offset.
  enum class Piece { kFirst, kNotFirst, kLast, kNotLast };
  void piece_flag(int dst, Piece which) {
    k.op(fmt::format("S_PGET {}, p6", R(dst)));
    if (which == Piece::kLast) {  // (last_offset - 1 - offset) < 0
      k.op(fmt::format("S_SUB {}, r0, {}", R(dst), R(dst)));
      k.op(fmt::format("S_ADDI {}, {}, {}", R(dst), R(dst), last_offset - 1));
    } else if (which == Piece::kNotLast) {  // (offset - last_offset) < 0
      k.op(fmt::format("S_ADDI {}, {}, {}", R(dst), R(dst), -last_offset));
    } else if (which == Piece::kFirst) {  // (offset - 1) < 0
      k.op(fmt::format("S_ADDI {}, {}, -1", R(dst), R(dst)));
    } else {  // (0 - offset) < 0
      k.op(fmt::format("S_SUB {}, r0, {}", R(dst), R(dst)));
    }
    k.op(fmt::format("S_SRLI {}, {}, 31", R(dst), R(dst)));
  }

  // The rows of one piece (equal pieces: kcp DM rows each) of `count` matrix rows from DRAM r14 on; set_dm
  // puts the DM address in r13.
  void load_rows_looped(const std::function<void()>& set_dm, int ch, int lock, int64_t count) {
    k.li(12, kcp);
    set_dm();
    k.loop(count - 1, [&] {
      k.op(fmt::format("C_DMALD {}, r13, r14, r5, r12", ch), {{}, {kAcqBase + lock}});
      k.op(fmt::format("S_ADDI r13, r13, {}", kcp * rb));
      k.op(fmt::format("S_ADDI r14, r14, {}", kk * 2));
    });
    k.op(fmt::format("C_DMALD {}, r13, r14, r5, r12, {}", ch, lock), {{}, {kAcqBase + lock}});
  }

  // A block r2 (r2 advances) of the piece at `ptr`, or (ptr "") of the piece at p6, or at p4 for block 0
  // (which a piece's last block prefetches for the next piece).
  void load_a_looped(const std::function<void()>& set_dm, const std::string& ptr) {
    if (ptr.empty()) {  // r13 = p6 + (r2 == 0) * (p4 - p6)
      k.op("S_PGET r13, p4");
      k.op("S_PGET r12, p6");
      k.op("S_SUB r13, r13, r12");
      k.op("S_ADDI r14, r2, -1");
      k.op("S_SRLI r14, r14, 31");
      k.op("S_MUL r13, r13, r14");
      k.op("S_ADD r13, r13, r12");
    } else {
      k.op(fmt::format("S_PGET r13, {}", ptr));
    }
    k.li(14, a_block_bytes);
    k.op("S_MUL r14, r2, r14");
    li_region(12, a_name, job.a_offset);
    k.op("S_ADD r14, r14, r12");
    k.op("S_ADD r14, r14, r13");
    load_rows_looped(set_dm, 0, 0, mb);
    next_index(2, mblocks);
  }

  // W strip r3 of the piece at `ptr` (r3 stays).
  void load_b_looped(const std::function<void()>& set_dm, const std::string& ptr) {
    k.li(14, strip_bytes);
    k.op("S_MUL r14, r3, r14");
    li_region(12, b_name, job.b_offset);
    k.op("S_ADD r14, r14, r12");
    k.op(fmt::format("S_PGET r12, {}", ptr));
    k.op("S_ADD r14, r14, r12");
    load_rows_looped(set_dm, c.ch(1), 1, vl);
  }

  std::function<void()> dm_from(int reg) {
    return [this, reg] { k.op(fmt::format("S_ADDI r13, {}, 0", R(reg))); };
  }

  // Rearranges groups of raw rows into tiles: `units` groups; the raw rows of a group at `offsets` from its
  // first row, consecutive groups `group_step` rows apart (the last load's post-increment moves to the next
  // group); tiles stored `out_stride` rows apart in the order of the network's targets. p0 loads, p1 stores.
  void rearrange(int64_t units, const Network& net, const std::vector<int64_t>& offsets, int64_t group_step,
                 int64_t out_stride, int64_t out_tiles, int acq_token, int out_token) {
    const int64_t group_rows = static_cast<int64_t>(offsets.size());
    pipeline(
        k, units, 2, 2,
        [&](int stage, int64_t u) {
          const int64_t set = u % 2;
          std::vector<int> in, set_b;
          for (int64_t i = 0; i < group_rows; ++i) {
            in.push_back(static_cast<int>(set * 8 + i));
            set_b.push_back(static_cast<int>(set * 8 + 4 + i));
          }
          if (stage == 0) {
            for (int64_t i = 0; i < group_rows; ++i) {
              const auto at_i = static_cast<size_t>(i);
              const int64_t inc = i + 1 < group_rows ? offsets[at_i + 1] - offsets[at_i]
                                                     : group_step + offsets[0] - offsets[at_i];
              if (inc * rb >= -2048 && inc * rb <= 2047) {
                k.op(fmt::format("L_VLD {}, p0, {}", V(in[at_i]), inc * rb), {{acq_token}, {}, -1});
              } else {  // beyond the post-increment's range
                k.op(fmt::format("L_VLD {}, p0, 0", V(in[at_i])), {{acq_token}, {}, -1});
                k.op(fmt::format("S_PADDI p0, {}", inc * rb));
              }
            }
            return;
          }
          const auto regs = emit_network(k, in, net.levels, in, set_b);
          for (int64_t q = 0; q < out_tiles; ++q) {
            k.op(fmt::format("L_VST {}, p1, {}",
                             V(regs[static_cast<size_t>(net.position[static_cast<size_t>(q)])]),
                             out_stride * rb),
                 {{}, {out_token}, -1});
          }
        },
        0, 1);
  }

  // The pieces' FP32 accumulators: acc = hi + mid + lo from DM, each added exactly (the selector picks the
  // tile's lanes); p7 advances past them.
  void restore_accs() {
    k.li(12, select * rb);
    k.op("S_PMOV p1, r12");
    k.op("L_VLD v15, p1, 0", {{kSelect}, {}, -1});
    for (int64_t a = 0; a < accs; ++a) {
      for (int64_t part = 0; part < 3; ++part) {
        k.op(fmt::format("L_VLD {}, p7, {}", V(12 + part), rb), {{kPartial}, {}, -1});
        k.op(fmt::format("{} {}, v15, {}", part == 0 ? "A_MMUL" : "A_MMAC", A(a), V(12 + part)));
      }
    }
  }

  // hi = bf16(acc), acc -= hi (exact), mid = bf16(acc), acc -= mid, lo = bf16(acc) (exact): the three rows
  // at p7 hold the FP32 value exactly.
  void save_accs() {
    k.li(12, (select + 1) * rb);
    k.op("S_PMOV p1, r12");
    k.op("L_VLD v15, p1, 0", {{kSelect}, {}, -1});
    for (int64_t a = 0; a < accs; ++a) {
      for (int64_t part = 0; part < 3; ++part) {
        k.op(fmt::format("V_SRS {}, {}", V(12 + part), A(a)));
        if (part < 2) k.op(fmt::format("A_MMAC {}, v15, {}", A(a), V(12 + part)));
      }
      for (int64_t part = 0; part < 3; ++part)
        k.op(fmt::format("L_VST {}, p7, {}", V(12 + part), rb), {{}, {kPartial}, -1});
    }
  }

  // One k-group of the k-loop: stage 0 loads its tiles, stage 1 multiplies (A_MMUL starts from zero).
  void k_group(int stage, int64_t u, bool mmul) {
    const int64_t base = (u % 2) * (mk + tm);
    if (stage == 0) {
      for (int64_t j = 0; j < mk; ++j)
        k.op(fmt::format("L_VLD {}, p2, {}", V(base + j), rb), {{kRes}, {}, -1});
      for (int64_t t = 0; t < tm; ++t)
        k.op(fmt::format("L_VLD {}, p3, {}", V(base + mk + t), rb), {{kAt}, {}, -1});
    } else {
      for (int64_t t = 0; t < tm; ++t) {
        for (int64_t j = 0; j < mk; ++j)
          k.op(fmt::format("{} {}, {}, {}", mmul ? "A_MMUL" : "A_MMAC", A(t * mk + j), V(base + j),
                           V(base + mk + t)));
      }
    }
  }

  // C rows of the block from the accumulators, through the staging buffers to DRAM at r13 (which advances).
  void store_block() {
    k.op("C_ACQ 2", {{}, {kOutStage}});
    k.op("S_PMOV p5, r10");
    for (int64_t t = 0; t < tm; ++t) {
      // SRS into v12.., the network ping-pongs with the k-loop's second register set
      std::vector<int> in, set_b;
      for (int64_t j = 0; j < mk; ++j) in.push_back(static_cast<int>(12 + j));
      const std::vector<int> set_a = in;
      for (int64_t j = 0; j < mk; ++j) set_b.push_back(static_cast<int>((mk + tm) + j));
      for (int64_t j = 0; j < mk; ++j)
        k.op(fmt::format("V_SRS {}, {}", V(in[static_cast<size_t>(j)]), A(t * mk + j)));
      const auto regs = emit_network(k, in, o_net.levels, set_a, set_b);
      for (int64_t ml = 0; ml < mm; ++ml)
        k.op(fmt::format("L_VST {}, p5, {}",
                         V(regs[static_cast<size_t>(o_net.position[static_cast<size_t>(ml)])]), rb),
             {{kOutStage}, {kOutStage}, -1});
    }
    k.li(12, mb);
    if (ldc != n * 2) k.li(14, ldc);
    k.op(fmt::format("C_DMAST {}, r10, r13, {}, r12, 2", c.ch(2), ldc != n * 2 ? "r14" : "r6"),
         {{kOutStage}, {}, -1});
    k.op("S_XOR r10, r10, r1");
    k.op(fmt::format("S_ADDI r13, r13, {}", vl * 2));
  }

  // One piece of K of a panel: its B^T tiles, then every A block against them. The first piece starts the
  // accumulators (bias or A_MMUL), the others restore them from the partial sums; the last stores C, the
  // others save the partial sums.
  void panel_piece(int64_t q) {
    const int64_t pk = piece_chunks(q), pgroups = pk * vl / mk;
    const bool first = q == 0, final = q == pieces - 1;
    std::vector<int64_t> a_offsets;
    for (int64_t r = 0; r < mm; ++r) a_offsets.push_back(r * pk);
    const std::vector<int64_t> b_offs = b_offsets(pk);
    if (split) k.comment(fmt::format("piece {} of K: DM rows of k {}..{}", q, q * kcp, q * kcp + pk - 1));
    k.comment("B^T tiles of this panel: strip after strip (the next strip's DMA runs meanwhile)");
    k.li(12, res * rb);
    k.op("S_PMOV p1, r12");
    k.loop(strips, [&] {
      k.op("C_ACQ 1", {{}, {kAcqBase + 1}});
      if (!one_braw) {
        k.op("S_XOR r12, r7, r9");
        k.op("S_ADDI r13, r12, 0");
        load_b(13, q);
      }
      k.op("S_PMOV p0, r7");
      if (linear) {
        // Tiles of subtile j come from W rows j*MMUL_M.. (one raw row group per chunk c).
        k.loop(mk, [&] {
          rearrange(pk / cg, b_net, b_offs, cg, mk, b_tiles, kAcqBase + 1, kRes);
          // p0: from row j*MM*PK + PK to (j+1)*MM*PK; p1: from G*MK + j back to j + 1
          k.op(fmt::format("S_PADDI p0, {}", (mm * pk - pk) * rb));
          k.op(fmt::format("S_PADDI p1, {}", (1 - pgroups * mk) * rb));
        });
        k.op(fmt::format("S_PADDI p1, {}", (pgroups * mk - mk) * rb));
      } else {
        rearrange(pgroups, b_net, b_offs, mk, 1, mk, kAcqBase + 1, kRes);
      }
      if (one_braw) {
        load_b(7, q);  // into the one raw buffer, now that its tiles are built
      } else {
        k.op("S_XOR r7, r7, r9");
      }
    });
    if (split) {
      // The last strip prefetched the next panel's first strip of this piece (r3 is one past it): wait for
      // it and load instead the next piece's first strip, of this panel (r3 back by a panel and one) or,
      // after the last piece, of the next panel (r3 back by one).
      k.op("C_ACQ 1", {{}, {kAcqBase + 1}});
      const int64_t back = (final ? 1 : strips + 1) % strips_total;  // mod the strips: one wrap suffices
      if (back != 0) {
        k.op(fmt::format("S_ADDI r3, r3, {}", -back));
        k.op("S_SRLI r12, r3, 31");  // 1 when it went below 0: wrap by the strip count
        k.li(14, strips_total);
        k.op("S_MUL r12, r12, r14");
        k.op("S_ADD r3, r3, r12");
      }
      load_b(7, (q + 1) % pieces);
      k.li(12, partial * rb);
      k.op("S_PMOV p7, r12");
    }
    k.comment("row blocks of A against the panel");
    k.loop(mblocks, [&] {
      k.op("C_ACQ 0", {{}, {kAcqBase}});
      k.op("S_XOR r13, r8, r11");
      load_a(13, q);
      k.comment("A^T tiles of the block");
      k.op("S_PMOV p0, r8");
      k.li(12, at_tiles * rb);
      k.op("S_PMOV p1, r12");
      for (int64_t t = 0; t < tm; ++t) {
        rearrange(pk, a_net, a_offsets, 1, tm, vl / mk, kAcqBase, kAt);
        k.op(fmt::format("S_PADDI p0, {}", (mm * pk - pk) * rb));
        k.op(fmt::format("S_PADDI p1, {}", (1 - pgroups * tm) * rb));
      }
      k.op("S_XOR r8, r8, r11");
      if (final) k.op("S_ADDI r13, r4, 0");
      k.li(12, res * rb);
      k.op("S_PMOV p2, r12");
      k.loop(strips, [&] {
        k.li(12, at_tiles * rb);
        k.op("S_PMOV p3, r12");
        if (first && has_bias) {
          k.op("L_VLD v11, p6, 0", {{kE0}, {}, -1});
          for (int64_t j = 0; j < mk; ++j)
            k.op(fmt::format("L_VLD {}, p4, {}", V(12 + j), rb), {{kBias}, {}, -1});
          for (int64_t t = 0; t < tm; ++t) {
            for (int64_t j = 0; j < mk; ++j)
              k.op(fmt::format("A_MMUL {}, {}, v11", A(t * mk + j), V(12 + j)));
          }
        }
        if (!first) restore_accs();
        // k-loop: stage 0 loads the tiles of a k-group, stage 1 multiplies (the first k-group of the first
        // piece, peeled from the loop, with A_MMUL, which starts from zero)
        const bool zero_start = first && !has_bias;
        pipeline(
            k, pgroups, 2, unroll, [&](int stage, int64_t u) { k_group(stage, u, zero_start && u == 0); },
            zero_start ? 1 : 0, 1);
        if (!final) {
          if (!first) k.op(fmt::format("S_PADDI p7, {}", -3 * accs * rb));
          save_accs();
          return;
        }
        store_block();
      });
      if (final) c.add(4, mb * ldc, 14);
      if (first && has_bias) k.op(fmt::format("S_PADDI p4, {}", -strips * mk * rb));
    });
    if (split) {
      // likewise the last block prefetched block 0 of this piece: replace it by block 0 of the next piece
      k.op("C_ACQ 0", {{}, {kAcqBase}});
      k.li(2, 0);
      load_a(8, (q + 1) % pieces);
    }
  }

  void panel() {
    for (int64_t q = 0; q < pieces; ++q) panel_piece(q);
    c.add(4, strips * vl * 2 - m * ldc, 14);
    if (has_bias) k.op(fmt::format("S_PADDI p4, {}", strips * mk * rb));
  }

  // The pieces in one loop (see `looped`): equal pieces, so every piece is the same code but for the 0/1
  // loops on the first and last piece's flags.
  void looped_piece() {
    std::vector<int64_t> a_offsets;
    for (int64_t r = 0; r < mm; ++r) a_offsets.push_back(r * kcp);
    k.comment(
        "a piece of K of a panel (one strip): its B^T tiles while the next piece's strip loads (r3: the");
    k.comment("strip, the next panel's after the last piece)");
    k.li(12, res * rb);
    k.op("S_PMOV p1, r12");
    {
      k.op("C_ACQ 1", {{}, {kAcqBase + 1}});
      piece_flag(12, Piece::kLast);
      k.op("S_ADD r3, r3, r12");
      k.op(fmt::format("S_ADDI r12, r3, {}", -strips_total));
      k.op("S_SRLI r12, r12, 31");  // 0 when r3 went past the last strip
      k.op("S_MUL r3, r3, r12");
      load_b_looped([&] { k.op("S_XOR r13, r7, r9"); }, "p4");
      k.op("S_PMOV p0, r7");
      k.loop(mk, [&] {
        rearrange(kcp / cg, b_net, b_offsets(kcp), cg, mk, b_tiles, kAcqBase + 1, kRes);
        k.op(fmt::format("S_PADDI p0, {}", (mm * kcp - kcp) * rb));
        k.op(fmt::format("S_PADDI p1, {}", (1 - groups * mk) * rb));
      });
      k.op(fmt::format("S_PADDI p1, {}", (groups * mk - mk) * rb));
      k.op("S_XOR r7, r7, r9");
    }
    k.li(12, partial * rb);
    k.op("S_PMOV p7, r12");
    k.comment("row blocks of A against the panel");
    k.loop(mblocks, [&] {
      k.op("C_ACQ 0", {{}, {kAcqBase}});
      load_a_looped([&] { k.op("S_XOR r13, r8, r11"); }, "");
      k.comment("A^T tiles of the block");
      k.op("S_PMOV p0, r8");
      k.li(12, at_tiles * rb);
      k.op("S_PMOV p1, r12");
      for (int64_t t = 0; t < tm; ++t) {
        rearrange(kcp, a_net, a_offsets, 1, tm, vl / mk, kAcqBase, kAt);
        k.op(fmt::format("S_PADDI p0, {}", (mm * kcp - kcp) * rb));
        k.op(fmt::format("S_PADDI p1, {}", (1 - groups * tm) * rb));
      }
      k.op("S_XOR r8, r8, r11");
      k.op("S_ADDI r13, r4, 0");
      k.li(12, res * rb);
      k.op("S_PMOV p2, r12");
      k.loop(strips, [&] {
        k.li(12, at_tiles * rb);
        k.op("S_PMOV p3, r12");
        k.comment("the first piece starts the accumulators at 0, the others restore them");
        piece_flag(12, Piece::kFirst);
        k.loop_reg(12, [&] {
          k.op("V_BCST v12, r0");
          for (int64_t a = 0; a < accs; ++a) k.op(fmt::format("A_MMUL {}, v12, v12", A(a)));
          k.op(fmt::format("S_PADDI p7, {}", 3 * accs * rb));  // as if restored (the save steps back)
        });
        piece_flag(12, Piece::kNotFirst);
        k.loop_reg(12, [&] { restore_accs(); });
        k.loop(groups, [&] {
          k_group(0, 0, false);
          k_group(1, 0, false);
        });
        k.comment("every piece but the last saves the accumulators, the last stores C");
        piece_flag(12, Piece::kNotLast);
        k.loop_reg(12, [&] {
          k.op(fmt::format("S_PADDI p7, {}", -3 * accs * rb));
          save_accs();
        });
        piece_flag(12, Piece::kLast);
        k.loop_reg(12, [&] { store_block(); });
      });
      piece_flag(12, Piece::kLast);
      k.loop_reg(12, [&] { c.add(4, mb * ldc, 14); });
    });
    piece_flag(12, Piece::kLast);
    if (strips * vl * 2 != m * ldc) k.loop_reg(12, [&] { c.add(4, strips * vl * 2 - m * ldc, 14); });
    k.comment("the next piece: p6 = p4, p4 advances (back to 0 after the last piece)");
    k.op("S_PGET r12, p4");
    k.op("S_PMOV p6, r12");
    k.op(fmt::format("S_ADDI r12, r12, {}", kcp * rb));
    k.op(fmt::format("S_ADDI r14, r12, {}", -(last_offset + 1)));
    k.op("S_SRLI r14, r14, 31");  // 1 while a piece is left
    k.op("S_MUL r12, r12, r14");
    k.op("S_PMOV p4, r12");
  }

  Ctx& c;
  KernelBuilder& k;
  const MatJob& job;
  const bool linear = job.weights_nk, has_bias = !job.bias.empty();
  // batches: p6 and p7 hold the DRAM addresses of the batch's A and B
  const int64_t batch = job.batch;
  const int64_t m = job.m, kk = job.k, n = job.n;
  const int64_t vl = c.vlen, rb = c.rb, mm = c.p.mmul_m(), mk = c.p.mmul_k();
  const int64_t kc = kk / vl;  // DM rows per row of A
  const int64_t strips_total = n / vl;
  const int64_t ldc = job.ldc > 0 ? job.ldc : n * 2;
  const bool fixed_bases = batch > 1 || job.b_word >= 0;  // p7 (B's base) is the partial sums' pointer
  const std::string &a_name = job.a, &b_name = job.b, &c_name = job.c;
  // plan_pieces()
  bool has_k_pieces = false;
  MatPlan mplan;
  bool one_braw = false, split = false, looped = false;
  int64_t tm = 0, kcp = 0, pieces = 0, groups = 0, mb = 0, mblocks = 0, braw_rows = 0, strips = 0, accs = 0,
          panels = 0, unroll = 0;
  // the DM map (rows)
  int64_t res = 0, at_tiles = 0, araw0 = 0, araw1 = 0, braw0 = 0, braw1 = 0, out0 = 0, out1 = 0, bias = 0,
          e0_row = 0, partial = 0, select = 0;
  bool words = false, a_in_p6 = false, b_in_p7 = false;
  int64_t last_offset = 0;
  // plan_networks()
  Network a_net, b_net, o_net;
  int64_t cg = 1;
  std::vector<std::pair<int64_t, int64_t>> b_rows;  // linear: the group's (W row, chunk) pairs
  int64_t b_tiles = 0;
  // set_registers()
  int64_t a_block_bytes = 0, strip_bytes = 0;
};

}  // namespace

GeneratedKernel matmul(Ctx& c, const MatJob& job, const KnobValues& values, const std::vector<Knob>& knobs) {
  Matmul product(c, job);
  GeneratedKernel out = product.plan_pieces(values, knobs);
  product.plan_networks();
  product.set_registers();
  product.start_loads();
  product.emit_panels();
  return out;
}

std::vector<Knob> matmul_knobs(bool k_pieces) {
  std::vector<Knob> knobs = {
      {"strips", "VLEN-column strips per resident panel of B^T tiles", 4, {1, 2, 4, 8}},
      {"m_tiles", "MMUL_M-row tiles of A per accumulator block", 2, {1, 2}},
      {"unroll", "k-groups per loop iteration of the multiply loop", 2, {2, 4, 8}}};
  // More pieces than DM needs cost time (partial sums saved and restored); a knob so that tests and the
  // tuner can reach the pieced form on small shapes.
  if (k_pieces)
    knobs.push_back({"k_pieces",
                     "K in at least this many pieces (FP32 partial sums in DM between them), as K allows",
                     1,
                     {1, 2, 3}});
  return knobs;
}

// ---------------------------------------------------------------- ffn, swiglu
//
// Composed of the templates above, through the scratch region: ffn is linear (x, W1, b1) -> h, gelu on h in
// place, linear (h, W2, b2) -> y; swiglu is x Wg^T -> g and x Wu^T -> u, silu(g) * u in place of g, then
// h Wd^T -> y. Each step waits for its stores before the next one reads them.
GeneratedKernel feed_forward(Ctx& c, const KnobValues& values, const std::vector<Knob>& knobs) {
  const bool swiglu = c.cfg.task == "swiglu";
  const int64_t m = c.cfg.dim("M"), d = c.cfg.dim("D"), f = c.cfg.dim("F");
  const int64_t h_bytes = m * f * 2;
  const std::vector<Knob> eknobs = stream_knobs();
  const KnobValues evalues = {{"unroll", knob(values, knobs, "act_unroll")}};  // otherwise the defaults
  GeneratedKernel out, part;
  int64_t act_unroll = 0;
  auto up = [&](const MatJob& job, const std::string& what) {
    part = matmul(c, job, values, knobs);
    out.knobs = part.knobs;
    out.summary += (out.summary.empty() ? "" : "; ") + what;
  };
  MatJob up_proj;
  up_proj.weights_nk = true;
  up_proj.m = m;
  up_proj.k = d;
  up_proj.n = f;
  up_proj.a = "x";
  up_proj.c = "scratch";
  up_proj.last = false;
  EltJob act;
  act.rows = m * f / c.vlen;
  act.in = act.out = "scratch";
  act.last = false;
  MatJob down;
  down.weights_nk = true;
  down.m = m;
  down.k = f;
  down.n = d;
  down.a = "scratch";
  down.c = "y";
  if (swiglu) {
    c.k.comment("g = x Wg^T into scratch");
    up_proj.b = "Wg";
    up(up_proj, "g = x Wg^T");
    c.k.comment("u = x Wu^T into scratch + M*F*2");
    up_proj.b = "Wu";
    up_proj.c_offset = h_bytes;
    up(up_proj, "u = x Wu^T");
    c.k.comment("h = silu(g) * u in place of g");
    act.op = "swiglu";
    act.pair_offset = h_bytes;  // u follows g
    const GeneratedKernel a = elementwise(c, act, evalues, eknobs);
    out.summary += "; h = silu(g) * u (" + a.summary + ")";
    act_unroll = a.knobs.at("unroll");
    down.b = "Wd";
    c.k.comment("y = h Wd^T");
    up(down, "y = h Wd^T");
  } else {
    c.k.comment("h = x W1^T + b1 into scratch");
    up_proj.b = "W1";
    up_proj.bias = "b1";
    up(up_proj, "h = x W1^T + b1");
    c.k.comment("h = gelu(h) in place");
    act.op = "gelu";
    const GeneratedKernel a = elementwise(c, act, evalues, eknobs);
    out.summary += "; gelu(h) (" + a.summary + ")";
    act_unroll = a.knobs.at("unroll");
    c.k.comment("y = h W2^T + b2");
    down.b = "W2";
    down.bias = "b2";
    up(down, "y = h W2^T + b2");
  }
  out.summary += "; products: " + part.summary;
  out.knobs = part.knobs;
  out.knobs["act_unroll"] = act_unroll;
  return out;
}

}  // namespace kcraft::vliw::template_detail
