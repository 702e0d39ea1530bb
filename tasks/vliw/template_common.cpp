#include "tasks/vliw/template_common.h"

#include <algorithm>
#include <cctype>
#include <stdexcept>

namespace kcraft::vliw::template_detail {

std::string V(int64_t i) {
  return fmt::format("v{}", i);
}
std::string A(int64_t i) {
  return fmt::format("a{}", i);
}
std::string R(int64_t i) {
  return fmt::format("r{}", i);
}
std::string P(int64_t i) {
  return fmt::format("p{}", i);
}

std::string upper(const std::string& s) {
  std::string out = s;
  for (auto& c : out) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return out;
}

int64_t pow2_divisor(int64_t n, int64_t want) {
  int64_t d = 1;
  while (d * 2 <= want && n % (d * 2) == 0) d *= 2;
  return d;
}

int64_t divisor_at_most(int64_t n, int64_t want) {
  for (int64_t d = std::min(n, want); d > 1; --d) {
    if (n % d == 0) return d;
  }
  return 1;
}

int64_t knob(const KnobValues& values, const std::vector<Knob>& knobs, const std::string& name) {
  auto it = values.find(name);
  if (it != values.end()) return it->second;
  for (const auto& k : knobs) {
    if (k.name == name) return k.baseline;
  }
  throw std::logic_error("template has no knob " + name);
}

void pipeline(KernelBuilder& k, int64_t units, int stages, int64_t unroll,
              const std::function<void(int, int64_t)>& emit, int64_t peel, int64_t compact_group) {
  if (units <= 0) return;
  if (k.compact_loops()) {
    // Unit after unit, each unit's stages in order: the peeled units and those left over straight, the
    // rest `unroll` units per loop iteration (so emit sees unit indices modulo unroll as before). The
    // builder still overlaps what the registers allow, across the back edge too.
    if (compact_group > 0) unroll = compact_group;
    auto whole = [&](int64_t u) {
      for (int st = 0; st < stages; ++st) emit(st, u);
    };
    int64_t u = 0;
    for (; u < std::min(peel, units); ++u) whole(u);
    const int64_t iters = (units - u) / unroll;
    if (iters >= 2) {
      const int64_t base = u;
      k.loop(iters, [&] {
        for (int64_t j = 0; j < unroll; ++j) whole(base + j);
      });
      u += iters * unroll;
    }
    for (; u < units; ++u) whole(u);
    return;
  }
  auto step = [&](int64_t s) {
    for (int st = stages - 1; st >= 0; --st) {
      const int64_t u = s - st;
      if (u >= 0 && u < units) emit(st, u);
    }
  };
  const int64_t first = stages - 1, total = units + stages - 1;
  int64_t s = 0;
  for (; s < std::min(first + peel, total); ++s) step(s);
  const int64_t steady = std::max<int64_t>(0, units - first - peel);
  const int64_t iters = steady / unroll;
  if (iters >= 2) {
    const int64_t base = s;
    k.loop(iters, [&] {
      for (int64_t j = 0; j < unroll; ++j) step(base + j);
    });
    s += iters * unroll;
  }
  for (; s < total; ++s) step(s);
}

std::vector<int> emit_network(KernelBuilder& k, std::vector<int> regs,
                              const std::vector<ShuffleLevel>& levels, const std::vector<int>& set_a,
                              const std::vector<int>& set_b) {
  bool to_a = false;
  for (const ShuffleLevel& l : levels) {
    const std::vector<int>& out = to_a ? set_a : set_b;
    to_a = !to_a;
    const size_t stride = size_t{1} << l.bit;
    std::vector<int> next(regs.size(), -1);
    const unsigned lo = l.kind == ShuffleLevel::kUnzip ? 2 : 0;
    for (size_t i = 0; i < regs.size(); ++i) {
      if (i & stride) continue;
      k.op(fmt::format("V_SHUF {}, {}, {}, {}", V(out[i]), V(regs[i]), V(regs[i | stride]), lo));
      next[i] = out[i];
      if (l.kind != ShuffleLevel::kZipLow) {
        k.op(fmt::format("V_SHUF {}, {}, {}, {}", V(out[i | stride]), V(regs[i]), V(regs[i | stride]),
                         lo + 1));
        next[i | stride] = out[i | stride];
      }
    }
    if (l.kind == ShuffleLevel::kZipLow) {
      std::vector<int> half;
      for (size_t i = 0; i < next.size(); ++i) {
        if (!(i & stride)) half.push_back(next[i]);
      }
      next = half;
    }
    regs = next;
  }
  return regs;
}

Network plan(const std::vector<Labels>& group, const std::vector<Labels>& targets) {
  Network n;
  n.levels = plan_shuffles(group, targets);
  const auto final_group = apply_levels(group, n.levels);
  for (const auto& t : targets) n.position.push_back(find_labels(final_group, t));
  return n;
}

void advance_tile(Ctx& c, const Stream& s, int64_t tile_bytes, int reg, int count) {
  KernelBuilder& k = c.k;
  if (s.inner == 0) {
    c.add(reg, tile_bytes, 14);
    return;
  }
  c.add(reg, s.inner_step, 14);
  k.op(fmt::format("S_ADDI {}, {}, 1", R(count), R(count)));
  k.li(12, s.inner - 1);
  k.op(fmt::format("S_SUB r12, r12, {}", R(count)));
  k.op("S_SRLI r12, r12, 31");  // 1 when the walk wraps to the next outer step
  k.li(14, s.outer_step - s.inner * s.inner_step);
  k.op("S_MUL r14, r14, r12");
  k.op(fmt::format("S_ADD {}, {}, r14", R(reg), R(reg)));
  k.li(14, s.inner);
  k.op("S_MUL r14, r14, r12");
  k.op(fmt::format("S_SUB {}, {}, r14", R(count), R(count)));
}

void stream(Ctx& c, const Stream& s, const std::string& in, const std::string& out,
            const std::function<void(int64_t buffer)>& compute) {
  if (s.compact) {
    stream_compact(c, s, in, out, compute);
    return;
  }
  KernelBuilder& k = c.k;
  const int64_t tile_bytes = s.tile_rows * c.rb;
  k.comment(fmt::format("r1: next tile to load, r2: next tile to store, r3: row stride, r4: rows per tile"));
  c.li_addr(1, in, s.in_offset);
  if (s.store) c.li_addr(2, out, s.out_offset);
  k.li(3, c.rb);
  k.li(4, s.tile_rows);
  const int64_t buffer_rows = s.tile_rows * (s.paired ? 2 : 1);
  auto advance = [&](int reg, int count) { advance_tile(c, s, tile_bytes, reg, count); };
  if (s.inner > 0) {
    k.li(10, 0);
    k.li(11, 0);
  }
  for (int64_t b = 0; b < s.buffers; ++b)
    k.li(static_cast<int>(5 + b), (s.base_row + b * buffer_rows) * c.rb);
  auto load = [&](int64_t b) {
    const MemUse refill = s.store ? MemUse{} : MemUse{{}, {static_cast<int>(kAcqBase + b)}, -1, false};
    k.op(fmt::format("C_DMALD {}, {}, r1, r3, r4, {}", c.ch(b), R(5 + b), b), refill);
    if (s.paired) {
      k.li(14, s.pair_offset);
      k.op("S_ADD r13, r1, r14");
      k.li(12, tile_bytes);
      k.op(fmt::format("S_ADD r12, {}, r12", R(5 + b)));
      k.op(fmt::format("C_DMALD {}, r12, r13, r3, r4, {}", c.ch(b), b), refill);
    }
    advance(1, 10);
  };
  for (int64_t b = 0; b < std::min(s.buffers, s.tiles); ++b) load(b);
  auto tile = [&](int64_t b, bool prefetch, bool fence) {
    k.op(fmt::format("C_ACQ {}", b), {{}, {static_cast<int>(kAcqBase + b)}});
    if (s.paired) k.op(fmt::format("C_ACQ {}", b), {{}, {static_cast<int>(kAcqBase + b)}});
    compute(b);
    if (s.store) {
      k.op(fmt::format("C_DMAST {}, {}, r2, r3, r4{}", c.ch(b), R(5 + b),
                       fence ? fmt::format(", {}", s.fence_lock) : ""),
           {{static_cast<int>(kOutBase + b)}, {}});
      advance(2, 11);
    }
    if (prefetch) load(b);
  };
  const int64_t rounds = s.tiles >= s.buffers ? (s.tiles - s.buffers) / s.buffers : 0;
  k.loop(rounds, [&] {
    for (int64_t b = 0; b < s.buffers; ++b) tile(b, true, false);
  });
  int fences = 0;
  for (int64_t t = rounds * s.buffers; t < s.tiles; ++t) {
    const bool fence = s.fence_lock >= 0 && s.store && t + s.buffers >= s.tiles;
    fences += fence ? 1 : 0;
    tile(t % s.buffers, t + s.buffers < s.tiles, fence);
  }
  // The stores have written DRAM once their locks are back: what follows may read the output.
  for (int i = 0; i < fences; ++i) k.op(fmt::format("C_ACQ {}", s.fence_lock), {{}, {}, -1, true});
}

void stream_compact(Ctx& c, const Stream& s, const std::string& in, const std::string& out,
                    const std::function<void(int64_t buffer)>& compute) {
  KernelBuilder& k = c.k;
  if (!s.store || s.buffers != 2)
    throw std::logic_error("stream_compact: a stored, double-buffered stream that waits for its stores");
  const int64_t tile_bytes = s.tile_rows * c.rb;
  const int64_t buffer_rows = s.tile_rows * (s.paired ? 2 : 1);
  k.comment("r1: next tile to load, r2: next tile to store, r3: row stride, r4: rows per tile, r5: buffer");
  c.li_addr(1, in, s.in_offset);
  c.li_addr(2, out, s.out_offset);
  k.li(3, c.rb);
  k.li(4, s.tile_rows);
  k.li(5, s.base_row * c.rb);
  k.li(6, (s.base_row ^ (s.base_row + buffer_rows)) * c.rb);
  auto advance = [&](int reg, int count) { advance_tile(c, s, tile_bytes, reg, count); };
  if (s.inner > 0) {
    k.li(10, 0);
    k.li(11, 0);
  }
  auto load = [&](int dm_reg) {  // the tile at r1 into the buffer at dm_reg
    k.op(fmt::format("C_DMALD 0, {}, r1, r3, r4, 0", R(dm_reg)));
    if (s.paired) {  // dm_reg may be r12
      k.li(14, s.pair_offset);
      k.op("S_ADD r13, r1, r14");
      k.li(14, tile_bytes);
      k.op(fmt::format("S_ADD r12, {}, r14", R(dm_reg)));
      k.op("C_DMALD 0, r12, r13, r3, r4, 0");
    }
    advance(1, 10);
    if (s.inner == 0) {  // wrap to the first tile: the prefetches past the last tile reload the first ones
      k.li(12, c.addr(in) + s.in_offset + s.tiles * tile_bytes - 1);
      k.op("S_SUB r12, r12, r1");
      k.op("S_SRLI r12, r12, 31");  // 1 past the end
      k.li(14, s.tiles * tile_bytes);
      k.op("S_MUL r12, r12, r14");
      k.op("S_SUB r1, r1, r12");
    }
  };
  load(5);
  // A 2-D walk whose walk past the end lands inside the tensor (the outer steps span one inner step, and
  // the two tiles after the last are the first tiles of inner walks 1 and 2) may wrap like a 1-D stream:
  // one copy of compute; with compact loops only (the wrapped prefetches cost DMA time).
  const bool wraps_inside =
      c.k.compact_loops() && s.inner >= 3 && s.outer_step * (s.tiles / s.inner) == s.inner_step;
  if (s.inner == 0 || wraps_inside) {
    // One copy of compute in a loop over every tile, each prefetching (wrapped) two tiles on; lock 14
    // counts finished stores, released once ahead so that each store first waits for the one before it.
    k.op("S_XOR r12, r5, r6");
    load(12);
    k.op("C_REL 14");
    k.loop(s.tiles, [&] {
      k.op("C_ACQ 0", {{}, {kAcqBase}});
      if (s.paired) k.op("C_ACQ 0", {{}, {kAcqBase}});
      compute(0);
      k.op("C_ACQ 14");
      k.op("C_DMAST 0, r5, r2, r3, r4, 14", {{kOutBase}, {}});
      advance(2, 11);
      load(5);
      k.op("S_XOR r5, r5, r6");
    });
    k.comment("the two wrapped prefetches, then the last store");
    for (int i = 0; i < (s.paired ? 4 : 2); ++i) k.op("C_ACQ 0", {{}, {kAcqBase}, -1, true});
    k.op("C_ACQ 14", {{}, {}, -1, true});
    return;
  }
  if (s.tiles > 1) {
    k.op("S_XOR r12, r5, r6");
    load(12);
  }
  auto tile = [&](bool prefetch) {
    k.op("C_ACQ 0", {{}, {kAcqBase}});
    if (s.paired) k.op("C_ACQ 0", {{}, {kAcqBase}});
    compute(0);
    k.op("C_DMAST 0, r5, r2, r3, r4", {{kOutBase}, {}});
    k.op("S_ADDI r13, r2, 0");  // the tile's DRAM address (the 2-D walk's next one is not contiguous)
    advance(2, 11);
    if (prefetch) load(5);
    k.op("S_XOR r5, r5, r6");
  };
  k.loop(std::max<int64_t>(0, s.tiles - 2), [&] { tile(true); });
  k.loop(std::min<int64_t>(2, s.tiles), [&] { tile(false); });
  // the last tile's last row again (the same bytes), releasing lock 14 once every store before it is done
  k.op("S_XOR r12, r5, r6");
  k.li(14, (s.tile_rows - 1) * c.rb);
  k.op("S_ADD r12, r12, r14");
  k.op("S_ADD r13, r13, r14");
  k.li(14, 1);
  k.op("C_DMAST 0, r12, r13, r3, r14, 14", {{kOutBase}, {}});
  k.op("C_ACQ 14", {{}, {}, -1, true});
}

}  // namespace kcraft::vliw::template_detail
