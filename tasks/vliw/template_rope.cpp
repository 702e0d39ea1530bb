#include "tasks/vliw/templates.h"

#include <algorithm>
#include <stdexcept>

#include <fmt/format.h>

#include "isa/common/arith/fp_arith.h"

namespace kcraft::vliw::template_detail {

// ---------------------------------------------------------------- rope
//
// y = x * cos + rotate_half(x) * sin, with the pair of chunks (c, c + D/2VLEN) of a position as the unit:
// y_lo = x_lo cos_lo + x_hi (-sin_lo), y_hi = x_hi cos_hi + x_lo sin_hi, each A_VMUL + A_VMAC in FP32 (one
// rounding). Tiles are `positions` positions of one head, walked position block by position block and head
// by head within a block; the cos and sin rows of a block are loaded (and the first half of sin negated)
// when its first head's tile comes.

std::vector<Knob> rope_knobs() {
  return {{"positions",
           "positions of one head per DMA tile (their cos and sin rows stay in DM)",
           64,
           {8, 16, 32, 64, 128}},
          {"unroll", "chunk pairs per loop iteration of the software-pipelined loop", 8, {2, 4, 8, 16}}};
}

GeneratedKernel rope(Ctx& c, const RopeJob& job, const KnobValues& values, const std::vector<Knob>& knobs) {
  KernelBuilder& k = c.k;
  const int64_t heads = job.heads, seq = job.seq, d = job.d;
  const int64_t dv = d / c.vlen, half = dv / 2;
  if (dv % 2 != 0) throw std::invalid_argument("rope: D/2 must be a multiple of VLEN");
  // DM: cos and sin blocks, then two tile buffers: 4 * positions * D/VLEN rows
  const int64_t most = std::max<int64_t>(1, (c.dm_rows - 3 * c.banks) / (4 * dv));
  const int64_t positions = pow2_divisor(seq, std::min(knob(values, knobs, "positions"), most));
  const int64_t units = positions * half;
  const int64_t unroll = std::max<int64_t>(
      half, pow2_divisor(units, std::max(half, std::clamp<int64_t>(knob(values, knobs, "unroll"), 1, 16))));
  auto round_up = [&](int64_t rows) { return (rows + c.banks - 1) / c.banks * c.banks; };
  // cos and sin a quarter and half of the banks away from the tiles' rows, so their loads pair
  const int64_t tile_rows = positions * dv, cos_row = c.banks / 4,
                sin_row = round_up(cos_row + tile_rows) + c.banks / 2;
  const bool banks_known = tile_rows % c.banks == 0 && (unroll / half * dv) % c.banks == 0;
  auto bank = [&](int64_t u, int64_t offset) {
    return banks_known ? static_cast<int>((u / half * dv + u % half + offset) % c.banks) : -1;
  };
  GeneratedKernel out;
  out.knobs = {{"positions", positions}, {"unroll", unroll}};
  out.summary = fmt::format(
      "{} tiles of {} positions of one head through 2 DM buffers (position blocks outer, heads inner; the "
      "block's cos and sin rows loaded with its first head); per chunk pair two A_VMUL + A_VMAC, {} pairs "
      "per "
      "loop iteration",
      heads * seq / positions, positions, unroll);
  k.comment("r7: next cos/sin block in DRAM (offset), r9: heads done in this block, v0: -1.0");
  k.li(7, 0);
  k.li(9, 0);
  k.li(8, static_cast<int64_t>(arith::double_to_fp32(-1.0)));
  k.op("V_BCST v0, r8");
  Stream s;
  s.tiles = heads * seq / positions;
  s.tile_rows = tile_rows;
  s.buffers = 2;
  s.base_row = round_up(sin_row + tile_rows);
  s.inner = heads;
  s.inner_step = seq * d * 2;
  s.outer_step = positions * d * 2;
  s.in_offset = job.in_offset;
  s.out_offset = job.out_offset;
  s.fence_lock = job.last ? -1 : 14;
  s.compact = job.compact;
  const int tables = static_cast<int>(kGamma);
  stream(c, s, job.in, job.out, [&](int64_t b) {
    const int acq = static_cast<int>(kAcqBase + b), st = static_cast<int>(kOutBase + b);
    // a new position block: its cos and sin rows
    k.op("S_ADDI r12, r9, -1");
    k.op("S_SRLI r12, r12, 31");  // 1 when r9 == 0
    k.loop_reg(12, [&] {
      k.li(13, c.rb);
      k.li(14, tile_rows);
      for (const std::string* name : {&job.cos, &job.sin}) {
        c.li_addr(12, *name);
        k.op("S_ADD r12, r12, r7");
        k.op(fmt::format("S_ADDI r8, r0, {}", (name == &job.cos ? cos_row : sin_row) * c.rb));
        k.op(fmt::format("C_DMALD {}, r8, r12, r13, r14, 15", c.ch(2)), {{}, {tables}, -1});
      }
      c.add(7, positions * d * 2, 14);
      k.op("C_ACQ 15", {{}, {tables}});
      k.op("C_ACQ 15", {{}, {tables}});
      k.li(12, sin_row * c.rb);
      k.op("S_PMOV p0, r12");
      k.op("S_PMOV p1, r12");
      k.loop(positions, [&] {
        pipeline(k, half, 3, half, [&](int stage, int64_t u) {
          const int64_t v = 1 + u % 2, w = 3 + u % 2;
          if (stage == 0) {
            k.op(fmt::format("L_VLD {}, p0, {}", V(v), u + 1 == half ? (half + 1) * c.rb : c.rb),
                 {{tables}, {}, -1});
          } else if (stage == 1) {
            k.op(fmt::format("V_MUL {}, {}, v0", V(w), V(v)));
          } else {
            k.op(fmt::format("L_VST {}, p1, {}", V(w), u + 1 == half ? (half + 1) * c.rb : c.rb),
                 {{}, {tables}, -1});
          }
        });
      });
    });
    k.op("S_ADDI r9, r9, 1");
    k.li(12, heads - 1);
    k.op("S_SUB r12, r12, r9");
    k.op("S_SRLI r12, r12, 31");
    k.li(13, heads);
    k.op("S_MUL r12, r12, r13");
    k.op("S_SUB r9, r9, r12");
    // p0/p1: x lo/hi, p2/p3: cos lo/hi, p4/p5: -sin lo / sin hi, p6/p7: y lo/hi
    k.op(fmt::format("S_PMOV p0, {}", R(5 + b)));
    k.op(fmt::format("S_PMOV p6, {}", R(5 + b)));
    k.li(12, half * c.rb);
    k.op(fmt::format("S_ADD r13, {}, r12", R(5 + b)));
    k.op("S_PMOV p1, r13");
    k.op("S_PMOV p7, r13");
    k.li(13, cos_row * c.rb);
    k.op("S_PMOV p2, r13");
    k.op("S_ADD r13, r13, r12");
    k.op("S_PMOV p3, r13");
    k.li(13, sin_row * c.rb);
    k.op("S_PMOV p4, r13");
    k.op("S_ADD r13, r13, r12");
    k.op("S_PMOV p5, r13");
    pipeline(k, units, 3, unroll, [&](int stage, int64_t u) {
      const int64_t set = u % 2, base = 1 + 6 * set;
      const int64_t xl = base, xh = base + 1, cl = base + 2, chh = base + 3, sl = base + 4, sh = base + 5;
      const int64_t inc = (u % half + 1 == half ? half + 1 : 1) * c.rb;
      if (stage == 0) {
        k.op(fmt::format("L_VLD {}, p0, {}", V(xl), inc), {{acq}, {}, bank(u, 0)});
        k.op(fmt::format("L_VLD {}, p1, {}", V(xh), inc), {{acq}, {}, bank(u, half)});
        k.op(fmt::format("L_VLD {}, p2, {}", V(cl), inc), {{tables}, {}, bank(u, cos_row)});
        k.op(fmt::format("L_VLD {}, p3, {}", V(chh), inc), {{tables}, {}, bank(u, cos_row + half)});
        k.op(fmt::format("L_VLD {}, p4, {}", V(sl), inc), {{tables}, {}, bank(u, sin_row)});
        k.op(fmt::format("L_VLD {}, p5, {}", V(sh), inc), {{tables}, {}, bank(u, sin_row + half)});
      } else if (stage == 1) {
        const int64_t al = 2 * set, ah = al + 1;
        k.op(fmt::format("A_VMUL {}, {}, {}", A(al), V(xl), V(cl)));
        k.op(fmt::format("A_VMUL {}, {}, {}", A(ah), V(xh), V(chh)));
        k.op(fmt::format("A_VMAC {}, {}, {}", A(al), V(xh), V(sl)));
        k.op(fmt::format("A_VMAC {}, {}, {}", A(ah), V(xl), V(sh)));
        k.op(fmt::format("V_SRS {}, {}", V(cl), A(al)));
        k.op(fmt::format("V_SRS {}, {}", V(chh), A(ah)));
      } else {
        k.op(fmt::format("L_VST {}, p6, {}", V(cl), inc), {{}, {st}, bank(u, 0)});
        k.op(fmt::format("L_VST {}, p7, {}", V(chh), inc), {{}, {st}, bank(u, half)});
      }
    });
  });
  if (job.last) k.op("C_HALT", {{}, {}, -1, true});
  return out;
}

}  // namespace kcraft::vliw::template_detail
