#include "tasks/vliw/template_compiler.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <cmath>
#include <functional>
#include <map>
#include <mutex>
#include <set>
#include <stdexcept>

#include <fmt/format.h>

#include "isa/common/arith/fp_arith.h"
#include "tasks/common/layout.h"
#include "tasks/golden/references.h"
#include "tasks/vliw/kernel_builder.h"

namespace kcraft::vliw {

namespace {

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

// Largest power of two <= want that divides n (at least 1).
int64_t pow2_divisor(int64_t n, int64_t want) {
  int64_t d = 1;
  while (d * 2 <= want && n % (d * 2) == 0) d *= 2;
  return d;
}

// Largest divisor of n that is <= want (at least 1).
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

// DM buffer ids for the builder's ordering rules.
enum Token {
  kAcqBase = 0,
  kOutBase = 100,
  kRes = 200,
  kAt,
  kOutStage,
  kBias,
  kGamma,
  kE0,
  kMask,
  kState,
  kPartial,
  kSelect
};

// Software pipeline: `units` units pass through `stages` stages; step k runs stage s of unit k - s, later
// stages first (they read what earlier stages of later units overwrite). The steady-state steps form a
// hardware loop of `unroll` steps per iteration; the prologue and epilogue (partial steps) and the steps
// left over are straight-line code. emit(stage, unit) gets the unit's index; inside the loop body it is
// the first iteration's, so templates may use it only modulo a divisor of `unroll` (register sets, banks).
// With compact loops, `compact_group` units per loop iteration (0: unroll), for templates whose units
// depend on their index only through register sets (any group is correct then).
void pipeline(KernelBuilder& k, int64_t units, int stages, int64_t unroll,
              const std::function<void(int, int64_t)>& emit, int64_t peel = 0, int64_t compact_group = 0) {
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

// Emits a shuffle network: `regs` holds the group (a register may appear twice), each level writes into the
// other of two register sets. Returns the registers holding the final group.
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

// A network and where each target ends up.
struct Network {
  std::vector<ShuffleLevel> levels;
  std::vector<int> position;  // target index -> index in the final group
};

Network plan(const std::vector<Labels>& group, const std::vector<Labels>& targets) {
  Network n;
  n.levels = plan_shuffles(group, targets);
  const auto final_group = apply_levels(group, n.levels);
  for (const auto& t : targets) n.position.push_back(find_labels(final_group, t));
  return n;
}

struct Ctx {
  const Params& p;
  const tasks::ResolvedConfig& cfg;
  const tasks::DramLayout& layout;
  KernelBuilder k;
  int64_t vlen, rb, banks, dm_rows;
  // The generator's very last resort for IMEM: a product whose K is in pieces takes one raw W buffer (when
  // K then fits DM in one piece) or, with compact loops, one hardware loop over (panel, piece) pairs instead
  // of one copy of the panel code per piece; conv2d's im2col rows run in one hardware loop.
  bool loop_pieces = false;
  Ctx(const Params& params, const tasks::ResolvedConfig& c, const tasks::DramLayout& l)
      : p(params), cfg(c), layout(l), k(params.dm_banks) {
    vlen = p.vlen;
    rb = p.row_bytes();
    banks = p.dm_banks;
    dm_rows = p.dm_bytes / rb;
  }
  std::string sym(const std::string& tensor) const { return "ADDR_" + upper(tensor); }
  // reg = the DRAM address `offset` bytes into region `tensor` (its symbol when the offset is 0).
  void li_addr(int reg, const std::string& tensor, int64_t offset = 0) {
    if (offset == 0) {
      k.li(reg, addr(tensor), sym(tensor));
    } else {
      k.li(reg, addr(tensor) + offset);
    }
  }
  int64_t addr(const std::string& tensor) const {
    return static_cast<int64_t>(layout.region(tensor).address);
  }
  // reg += value (through `temp` when it does not fit S_ADDI).
  void add(int reg, int64_t value, int temp) {
    if (value == 0) return;
    if (value >= -32768 && value <= 32767) {
      k.op(fmt::format("S_ADDI {}, {}, {}", R(reg), R(reg), value));
    } else {
      k.li(temp, value);
      k.op(fmt::format("S_ADD {}, {}, {}", R(reg), R(reg), R(temp)));
    }
  }
  int ch(int64_t i) const { return static_cast<int>(i % p.dma_channels); }
};

// ---------------------------------------------------------------- row streams (element-wise, row-wise)
//
// The tensor streams through `buffers` DM buffers of `tile_rows` DM rows each: buffer b holds tile t when
// t % buffers == b, is computed in place, stored, and refilled with tile t + buffers on the same DMA
// channel (a channel works through its queue in order, so the store has read every row before the load
// writes one). Lock b counts the loads of buffer b that have landed.
struct Stream {
  int64_t tiles = 0, tile_rows = 0, buffers = 2;
  int64_t base_row = 0;     // DM row of buffer 0; buffer b at base_row + b * tile_rows
  bool store = true;        // false: the tiles are only read (the refill waits for the compute's loads)
  bool paired = false;      // each tile also loads the tile pair_offset bytes further on in DRAM (may be
  int64_t pair_offset = 0;  // negative) into the buffer's second half (buffers are then 2 * tile_rows rows)
  int64_t in_offset = 0, out_offset = 0;  // bytes into the input and output regions
  int fence_lock = -1;  // >= 0: the last stores release this lock and the stream waits for them
  // inner > 0: tiles in DRAM are not consecutive but a 2-D walk: tile (o, i), i < inner, at
  // o * outer_step + i * inner_step bytes (r10 and r11 count the loads and stores within `inner`)
  int64_t inner = 0, inner_step = 0, outer_step = 0;
  bool compact = false;  // stream_compact: less code (composite blocks)
};

// The next tile's address in `reg`; `count` counts tiles within `inner` (a 2-D walk wraps to the next outer
// step after `inner` tiles). Clobbers r12 and r14.
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

void stream_compact(Ctx& c, const Stream& s, const std::string& in, const std::string& out,
                    const std::function<void(int64_t buffer)>& compute);

// r1 next load address, r2 next store address, r3 ROW_BYTES, r4 rows per tile, r5.. buffer addresses.
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

// stream() in less code, for the composite blocks where IMEM is tight: two buffers whose address r5
// toggles (r6 = the XOR of the two), every load and store on channel 0 releasing lock 0 in order (a channel
// works through its queue in order, so one counting lock serves both buffers and a refill queues behind the
// store of the same buffer). compute(0) runs on the buffer at r5, once, in a loop over every tile; the
// prefetches past the end wrap to the first tiles (read, never used) and are waited for at the end, as is the
// last store (lock 14), so the stream's stores have reached DRAM when it ends. A 2-D walk (RoPE) does not
// wrap: its last two tiles are a second copy without prefetch, and a repeated store of the last row (the
// same bytes) releases lock 14.
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

// ---------------------------------------------------------------- row-wise: softmax, rms_norm
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

GeneratedKernel rowwise(Ctx& c, const RowJob& job, const KnobValues& values, const std::vector<Knob>& knobs) {
  KernelBuilder& k = c.k;
  const bool softmax = job.op == "softmax", layer_norm = job.op == "layer_norm";
  const int64_t m = job.m, n = job.n;
  const int64_t chunks = n / c.vlen;
  // causal softmax: a mask table, per d = i mod VLEN a block [0 x chunks][diagonal d][-inf x chunks] of
  // BF16 rows added to row i's chunks from row d * (2 chunks + 1) + chunks - i / VLEN of the table on
  const bool causal = softmax && job.causal && !job.add_pair;
  const bool add_pair = softmax && job.add_pair, masked = causal || add_pair;
  const int64_t block_rows = 2 * chunks + 1;
  const int64_t table_rows = causal ? (c.vlen * block_rows + c.banks - 1) / c.banks * c.banks : 0;
  const int64_t buffers = job.compact ? 2 : std::clamp<int64_t>(knob(values, knobs, "buffers"), 2, 4);
  const int64_t goff = c.banks / 2;  // gamma's first DM row: half the banks away from the tiles' rows
  // layer_norm's beta follows gamma, a quarter of the banks further on
  const int64_t boff = goff + (chunks + c.banks - 1) / c.banks * c.banks + c.banks / 4;
  const int64_t gamma_rows = softmax      ? table_rows
                             : layer_norm ? (boff + chunks + c.banks - 1) / c.banks * c.banks
                                          : (chunks + c.banks) / c.banks * c.banks + c.banks;
  const int64_t room = (c.dm_rows - gamma_rows) / buffers / chunks / (add_pair ? 2 : 1);
  if (room < 1) throw std::invalid_argument("a row does not fit DM");
  const int64_t rows = pow2_divisor(m, std::min(knob(values, knobs, "tile_rows"), room));
  const int64_t unroll =
      std::min<int64_t>(pow2_divisor(chunks, std::clamp<int64_t>(knob(values, knobs, "unroll"), 1, 16)), 16);
  const int64_t sets = std::min<int64_t>(unroll, 4);
  const int64_t parts = std::min<int64_t>(unroll, 2);  // partial reductions (latency 2 chains)
  GeneratedKernel out;
  out.knobs = {{"tile_rows", rows}, {"unroll", unroll}, {"buffers", buffers}};
  Stream s;
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
  const bool banks_known = chunks % c.banks == 0 && unroll % c.banks == 0;
  auto bank = [&](int64_t row) { return banks_known ? static_cast<int>(row % c.banks) : -1; };
  if (softmax) {
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
  } else if (layer_norm) {
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
  } else {
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
      } else if (layer_norm) {
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
      } else {
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
    });
  });
  if (job.last) k.op("C_HALT", {{}, {}, -1, true});
  return out;
}

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
int64_t matmul_m_tiles(const Params& p, int64_t want) {
  const int64_t most = 8 / static_cast<int64_t>(p.mmul_k());
  return std::clamp<int64_t>(pow2_divisor(most, want), 1, most);
}

// K in pieces: when one strip of B^T tiles over the whole K does not fit DM, the product runs over K
// `chunks` DM rows (VLEN k each) at a time, the last piece taking what is left. Between pieces the FP32
// accumulators go to DM exactly, as three BF16 rows (hi, mid, lo with hi + mid + lo = the FP32 value).
struct MatPlan {
  int64_t tm = 1;      // A-block rows in MMUL_M tiles
  int64_t chunks = 0;  // DM rows of k per piece (all of K: one piece)
  int64_t pieces = 1;
};

// Rows of the partial sums (three per accumulator tile of M x the panel) when K is in pieces.
int64_t matmul_partial_rows(const Params& p, const MatJob& job, int64_t strips) {
  return 3 * job.m * strips * static_cast<int64_t>(p.mmul_k()) / static_cast<int64_t>(p.mmul_m());
}

// DM rows matmul's buffers take with `strips` resident strips and pieces of `chunks` DM rows of k (each
// buffer rounded up to whole bank cycles; `braw_buffers` raw B strips).
int64_t matmul_dm_rows(const Params& p, const MatJob& job, int64_t tm, int64_t strips, int64_t chunks,
                       int64_t braw_buffers = 2) {
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

// The fewest pieces, at least `min_pieces` when K allows (and, for those, the most A-block tiles up to
// `tm_want`) whose buffers fit DM with one strip; chunks = 0 when even one DM row of k per piece does not
// fit. Pieces of W rows (nn.Linear) keep an even chunk count when K allows, for VLENs whose tile
// rearrangement takes two chunks at a time.
MatPlan matmul_plan(const Params& p, const MatJob& job, int64_t tm_want, int64_t min_pieces = 1,
                    int64_t braw_buffers = 2) {
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

GeneratedKernel matmul(Ctx& c, const MatJob& job, const KnobValues& values, const std::vector<Knob>& knobs) {
  KernelBuilder& k = c.k;
  const bool linear = job.weights_nk, has_bias = !job.bias.empty();
  // batches: p6 and p7 hold the DRAM addresses of the batch's A and B
  const int64_t batch = job.batch;
  const int64_t m = job.m, kk = job.k, n = job.n;
  const int64_t vl = c.vlen, rb = c.rb, mm = c.p.mmul_m(), mk = c.p.mmul_k();
  const int64_t kc = kk / vl;  // DM rows per row of A
  const int64_t strips_total = n / vl;
  const int64_t ldc = job.ldc > 0 ? job.ldc : n * 2;
  if (ldc != n * 2 && batch > 1) throw std::logic_error("matmul: a row stride of C with batches");
  const bool has_k_pieces =
      std::any_of(knobs.begin(), knobs.end(), [](const Knob& x) { return x.name == "k_pieces"; });
  const bool fixed_bases = batch > 1 || job.b_word >= 0;  // p7 (B's base) is the partial sums' pointer
  MatPlan mplan = matmul_plan(c.p, job, knob(values, knobs, "m_tiles"),
                              has_k_pieces && !fixed_bases ? knob(values, knobs, "k_pieces") : 1);
  // The last resort for IMEM (Ctx::loop_pieces): when one raw B strip instead of two lets K fit DM in one
  // piece, no piece code at all (the next strip loads after the tiles are built: less overlap).
  bool one_braw = false;
  if (c.loop_pieces && matmul_plan(c.p, job, knob(values, knobs, "m_tiles")).pieces > 1 && batch == 1 &&
      !fixed_bases) {
    const MatPlan one = matmul_plan(c.p, job, knob(values, knobs, "m_tiles"), 1, 1);
    if (one.chunks > 0 && one.pieces == 1) {
      mplan = one;
      one_braw = true;
    }
  }
  if (mplan.chunks == 0) throw std::invalid_argument("matmul: no piece of K fits DM");
  const bool split = mplan.pieces > 1;
  // K in pieces as one hardware loop over (panel, piece) pairs (Ctx::loop_pieces, the last resort for IMEM):
  // one copy of the piece code, the piece's byte offset into the rows of A and W in p6 (the next piece's in
  // p4), what differs between pieces computed from it (0/1 loops for the first and last piece's code).
  bool looped = split && c.loop_pieces && linear && !has_bias && job.a_word < 0 && job.b_word < 0 &&
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
  const int64_t tm = mplan.tm, kcp = mplan.chunks, pieces = mplan.pieces;
  // piece q covers DM rows of k [q * kcp, q * kcp + piece_chunks(q))
  auto piece_chunks = [&](int64_t q) { return std::min(kcp, kc - q * kcp); };
  const int64_t groups = kcp * vl / mk;  // k-groups of the largest piece (one A_MMAC per tile pair)
  const int64_t mb = tm * mm;            // rows of A per block
  const int64_t mblocks = m / mb;
  // DM rows: resident B^T tiles (strips * the piece's k), A^T tiles, two raw A blocks, two raw B strips, two
  // output blocks, bias tiles; with pieces, the partial sums and the two selector tiles.
  const int64_t braw_rows = linear ? vl * kcp : kcp * vl;
  int64_t strips = divisor_at_most(
      strips_total,
      std::min(knob(values, knobs, "strips"), job.max_strips > 0 ? job.max_strips : strips_total));
  while (strips > 1 && matmul_dm_rows(c.p, job, tm, strips, kcp, one_braw ? 1 : 2) > c.dm_rows)
    strips = divisor_at_most(strips_total, strips - 1);
  if (looped) strips = 1;        // one strip per panel: the prefetch of the next piece's strip is simple
  const int64_t accs = tm * mk;  // accumulator tiles per output block
  const int64_t panels = strips_total / strips;
  const int64_t unroll = std::clamp<int64_t>(knob(values, knobs, "unroll") / 2 * 2, 2, 8);
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
  const int64_t res = take(strips * kcp * vl), at_tiles = take(groups * tm), araw0 = take(mb * kcp),
                araw1 = take(mb * kcp), braw0 = take(braw_rows), braw1 = one_braw ? braw0 : take(braw_rows),
                out0 = take(mb), out1 = take(mb), bias = has_bias ? take(n / mm) : 0,
                e0_row = has_bias ? take(1) : 0,
                partial = split ? take(matmul_partial_rows(c.p, job, strips)) : 0,
                select = split ? take(2) : 0;
  if (at > c.dm_rows) throw std::invalid_argument("gemm blocks do not fit DM");
  const std::string &a_name = job.a, &b_name = job.b, &c_name = job.c;
  const bool words = job.a_word >= 0 || job.b_word >= 0 || job.c_word >= 0;
  if ((batch > 1 || words) && has_bias)
    throw std::logic_error("matmul: batches or DM bases with a bias are not implemented");
  const bool a_in_p6 = batch > 1 || job.a_word >= 0, b_in_p7 = batch > 1 || job.b_word >= 0;
  auto li_region = [&](int reg, const std::string& region, int64_t offset) {
    if (offset == 0) {
      k.li(reg, c.addr(region), c.sym(region));
    } else {
      k.li(reg, c.addr(region) + offset);
    }
  };

  // ---- shuffle networks (planned on labels: raw row index * VLEN + lane)
  // A^T tiles from MMUL_M rows of A (one DM row each: VLEN k): tile q holds k-group q of the chunk.
  std::vector<Labels> a_group(static_cast<size_t>(mm)), a_targets;
  for (int64_t r = 0; r < mm; ++r) {
    for (int64_t l = 0; l < vl; ++l) a_group[static_cast<size_t>(r)].push_back(static_cast<int>(r * vl + l));
  }
  for (int64_t q = 0; q < vl / mk; ++q) {
    Labels t(static_cast<size_t>(vl), -1);
    for (int64_t kl = 0; kl < mk; ++kl) {
      for (int64_t ml = 0; ml < mm; ++ml)
        t[static_cast<size_t>(kl * mm + ml)] = static_cast<int>(ml * vl + q * mk + kl);
    }
    a_targets.push_back(t);
  }
  const Network a_net = plan(a_group, a_targets);
  // B^T tiles. gemm: MMUL_K rows of B (k fixed, VLEN n) -> MMUL_K tiles (subtile j: columns j*MMUL_M..).
  // The same network on MMUL_K copies of the bias row gives bias tiles (used with the e0 tile below).
  auto gemm_b_plan = [&](bool copies) {
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
  };
  // linear: `cg` chunks of MMUL_M rows of W (n fixed, VLEN k) -> the tiles of those chunks' k-groups. One
  // chunk suffices when VLEN is an even power of two; otherwise the planner needs two (a wider group).
  int64_t cg = 1;
  std::vector<std::pair<int64_t, int64_t>> b_rows;  // linear: the group's (W row, chunk) pairs
  Network b_net;
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
  // Offsets of a group's raw rows in a raw strip whose W rows hold `chunks` DM rows each.
  auto b_offsets = [&](int64_t chunks) {
    std::vector<int64_t> offsets;
    if (linear) {
      for (const auto& [nl, cc] : b_rows) offsets.push_back(nl * chunks + cc);
    } else {
      for (int64_t r = 0; r < mk; ++r) offsets.push_back(r);
    }
    return offsets;
  };
  const int64_t b_tiles = linear ? cg * vl / mk : mk;
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
  const Network o_net = plan(o_group, o_targets);
  for (const Network* net : std::initializer_list<const Network*>{&a_net, &b_net, &o_net}) {
    for (int pos : net->position) {
      if (pos < 0) throw std::logic_error("shuffle network misses a target");
    }
  }

  // ---- registers
  // r2 next A block index, r3 next B strip index, r4 output block address, r5 ROW_BYTES, r6 N*2,
  // r7 raw B buffer, r8 raw A buffer, r9/r11 their swap masks, r10 output buffer, r1 its swap mask,
  // r13 output strip address, r12/r14 temporaries. Locks: 0 A blocks, 1 B strips, 2 free output buffers.
  const int64_t a_block_bytes = mb * kk * 2;
  const int64_t strip_bytes = linear ? vl * kk * 2 : vl * 2;
  k.comment(fmt::format("DM rows: B^T tiles {}, A^T tiles {}, raw A {}/{}, raw B {}/{}, output {}/{}{}", res,
                        at_tiles, araw0, araw1, braw0, braw1, out0, out1,
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
  // Prefetch A block 0 and B strip 0.
  auto next_index = [&](int reg, int64_t total) {
    // reg = (reg + 1) mod total, without branches: subtract total when reg + 1 > total - 1.
    k.op(fmt::format("S_ADDI {}, {}, 1", R(reg), R(reg)));
    k.li(12, total - 1);
    k.op(fmt::format("S_SUB r12, r12, {}", R(reg)));
    k.op("S_SRLI r12, r12, 31");
    k.li(14, total);
    k.op("S_MUL r12, r12, r14");
    k.op(fmt::format("S_SUB {}, {}, r12", R(reg), R(reg)));
  };
  // `count` matrix rows of `chunks` DM rows each, from DRAM r14 on (matrix rows K*2 bytes apart), into DM
  // at dm_reg; with K in pieces one transfer per matrix row, the last releasing `lock` (a channel works in
  // order, so all have landed then). r13 is the moving DM address.
  auto load_rows = [&](int dm_reg, int ch, int lock, int64_t count, int64_t chunks) {
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
  };
  auto load_a = [&](int dm_reg, int64_t q) {  // piece q of A block r2 into DM at dm_reg; r2 advances
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
  };
  auto load_b = [&](int dm_reg, int64_t q) {  // piece q of B strip r3 into DM at dm_reg; r3 advances
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
  };
  // ---- looped pieces: values that depend on the piece whose offset pointer `ptr` holds
  const int64_t last_offset = (pieces - 1) * kcp * rb;
  // dst = 1 when the piece whose offset p6 holds is (or is not) the first (or the last) one, else 0: the
  // sign bit of a difference with the offset.
  enum class Piece { kFirst, kNotFirst, kLast, kNotLast };
  auto piece_flag = [&](int dst, Piece which) {
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
  };
  // The rows of one piece (equal pieces: kcp DM rows each) of `count` matrix rows from DRAM r14 on; set_dm
  // puts the DM address in r13.
  auto load_rows_looped = [&](const std::function<void()>& set_dm, int ch, int lock, int64_t count) {
    k.li(12, kcp);
    set_dm();
    k.loop(count - 1, [&] {
      k.op(fmt::format("C_DMALD {}, r13, r14, r5, r12", ch), {{}, {kAcqBase + lock}});
      k.op(fmt::format("S_ADDI r13, r13, {}", kcp * rb));
      k.op(fmt::format("S_ADDI r14, r14, {}", kk * 2));
    });
    k.op(fmt::format("C_DMALD {}, r13, r14, r5, r12, {}", ch, lock), {{}, {kAcqBase + lock}});
  };
  // A block r2 (r2 advances) of the piece at `ptr`, or (ptr "") of the piece at p6, or at p4 for block 0
  // (which a piece's last block prefetches for the next piece).
  auto load_a_looped = [&](const std::function<void()>& set_dm, const std::string& ptr) {
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
  };
  // W strip r3 of the piece at `ptr` (r3 stays).
  auto load_b_looped = [&](const std::function<void()>& set_dm, const std::string& ptr) {
    k.li(14, strip_bytes);
    k.op("S_MUL r14, r3, r14");
    li_region(12, b_name, job.b_offset);
    k.op("S_ADD r14, r14, r12");
    k.op(fmt::format("S_PGET r12, {}", ptr));
    k.op("S_ADD r14, r14, r12");
    load_rows_looped(set_dm, c.ch(1), 1, vl);
  };
  auto dm_from = [&](int reg) { return [&k, reg] { k.op(fmt::format("S_ADDI r13, {}, 0", R(reg))); }; };

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
          if (lane / mk < mm && lane % mk == lane / mk) lanes |= int64_t{sign ? 0xBF80 : 0x3F80} << (16 * h);
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

  // Rearranges groups of raw rows into tiles: `units` groups; the raw rows of a group at `offsets` from its
  // first row, consecutive groups `group_step` rows apart (the last load's post-increment moves to the next
  // group); tiles stored `out_stride` rows apart in the order of the network's targets. p0 loads, p1 stores.
  auto rearrange = [&](int64_t units, const Network& net, const std::vector<int64_t>& offsets,
                       int64_t group_step, int64_t out_stride, int64_t out_tiles, int acq_token,
                       int out_token) {
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
  };
  // The pieces' FP32 accumulators: acc = hi + mid + lo from DM, each added exactly (the selector picks the
  // tile's lanes); p7 advances past them.
  auto restore_accs = [&] {
    k.li(12, select * rb);
    k.op("S_PMOV p1, r12");
    k.op("L_VLD v15, p1, 0", {{kSelect}, {}, -1});
    for (int64_t a = 0; a < accs; ++a) {
      for (int64_t part = 0; part < 3; ++part) {
        k.op(fmt::format("L_VLD {}, p7, {}", V(12 + part), rb), {{kPartial}, {}, -1});
        k.op(fmt::format("{} {}, v15, {}", part == 0 ? "A_MMUL" : "A_MMAC", A(a), V(12 + part)));
      }
    }
  };
  // hi = bf16(acc), acc -= hi (exact), mid = bf16(acc), acc -= mid, lo = bf16(acc) (exact): the three rows
  // at p7 hold the FP32 value exactly.
  auto save_accs = [&] {
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
  };
  // One k-group of the k-loop: stage 0 loads its tiles, stage 1 multiplies (A_MMUL starts from zero).
  auto k_group = [&](int stage, int64_t u, bool mmul) {
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
  };
  // C rows of the block from the accumulators, through the staging buffers to DRAM at r13 (which advances).
  auto store_block = [&] {
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
  };
  // One piece of K of a panel: its B^T tiles, then every A block against them. The first piece starts the
  // accumulators (bias or A_MMUL), the others restore them from the partial sums; the last stores C, the
  // others save the partial sums.
  auto panel_piece = [&](int64_t q) {
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
  };
  auto panel = [&] {
    for (int64_t q = 0; q < pieces; ++q) panel_piece(q);
    c.add(4, strips * vl * 2 - m * ldc, 14);
    if (has_bias) k.op(fmt::format("S_PADDI p4, {}", strips * mk * rb));
  };
  if (has_bias) {
    k.li(12, bias * rb);
    k.op("S_PMOV p4, r12");
  }
  // The pieces in one loop (see `looped`): equal pieces, so every piece is the same code but for the 0/1
  // loops on the first and last piece's flags.
  auto looped_piece = [&] {
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
        k.loop_reg(12, restore_accs);
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
        k.loop_reg(12, store_block);
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
  };
  if (looped) {
    k.loop(panels * pieces, looped_piece);
  } else if (batch == 1) {
    k.loop(panels, panel);
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
  return out;
}

// ---------------------------------------------------------------- ffn, swiglu
//
// Composed of the templates above, through the scratch region: ffn is linear (x, W1, b1) -> h, gelu on h in
// place, linear (h, W2, b2) -> y; swiglu is x Wg^T -> g and x Wu^T -> u, silu(g) * u in place of g, then
// h Wd^T -> y. Each step waits for its stores before the next one reads them.
std::vector<Knob> stream_knobs() {
  return {{"tile_rows", "DM rows per DMA tile", 256, {32, 64, 128, 256, 512, 1024}},
          {"unroll", "rows per loop iteration of the software-pipelined row loop", 8, {1, 2, 4, 8, 16}},
          {"buffers", "DM tile buffers in flight (2: double buffering)", 2, {2, 3, 4}}};
}

std::vector<Knob> matmul_knobs(bool k_pieces = false) {
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

// ---------------------------------------------------------------- attention, mha, gqa, mqa
//
// Per head: scores = Q K^T (linear form) into the scratch region, the row softmax of scale * scores (causal:
// masked) in place, then O = P V (gemm form). Heads loop in hardware; the DRAM addresses of the head's Q,
// K, V and O live in DM words (the last DM row) that the products read, and advance after each head (K
// and V every HEADS / KV_HEADS heads). With a head loop each product keeps one strip per panel, which
// keeps the loops within LOOP_DEPTH.
std::vector<Knob> rowwise_knobs() {
  return {{"tile_rows", "tensor rows per DMA tile", 4, {1, 2, 4, 8, 16}},
          {"unroll", "chunks (VLEN elements) per loop iteration of each pass", 8, {2, 4, 8, 16}},
          {"buffers", "DM tile buffers in flight (2: double buffering)", 2, {2, 3}}};
}

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

// T5: the biased causal mask of the head whose bias row's DRAM address is the DM word at `bias_word`, into
// the bmat region as [seq, seq]. Row i is a window of one row E of 2 * seq elements, E[u] =
// bias[bucket(seq - 1 - u)] for u < seq and -inf after: row i = E[seq - 1 - i .. 2 seq - 1 - i]. E is built
// in DM (L_VLDB broadcasts a bucket's element, V_ALIGN shifts in its run), stored after the matrix, and each
// matrix row is one DMA gather of its window and one store. Locks 3 and 4.
void t5_bias_matrix(Ctx& c, const AttnJob& job, int64_t bias_word) {
  KernelBuilder& k = c.k;
  const int64_t seq = job.seq, rb = c.rb, sv = seq / c.vlen;
  auto round_up = [&](int64_t rows) { return (rows + c.banks - 1) / c.banks * c.banks; };
  const int64_t table_rows = (job.num_buckets * 2 + rb - 1) / rb;
  const int64_t table = 0, e_row = round_up(table_rows), buf = round_up(e_row + 2 * sv);
  if (buf + sv > c.dm_rows) throw std::invalid_argument("T5 bias: a row of the mask matrix does not fit DM");
  const int64_t matrix = c.addr(job.bmat) + job.bmat_offset, e_dram = matrix + seq * seq * 2;
  auto bucket = [&](int64_t distance) {
    return tasks::golden::t5_relative_bucket(distance, job.num_buckets, job.max_distance);
  };
  k.comment("T5 bias: the head's bias row into DM, E built from it, stored, then one window per row");
  k.li(12, bias_word);
  k.op("S_PMOV p4, r12");
  k.op("L_SLD r13, p4, 0", {{kState}, {}, -1});
  k.li(12, table * rb);
  k.li(5, rb);
  k.li(14, table_rows);
  k.op("C_DMALD 0, r12, r13, r5, r14, 3");
  k.op("C_ACQ 3", {{}, {kBias}});
  k.li(12, table * rb + bucket(seq - 1) * 2);
  k.op("S_PMOV p0, r12");
  k.li(12, e_row * rb);
  k.op("S_PMOV p1, r12");
  // runs of equal buckets within a DM row: one broadcast and one V_ALIGN shifting in that many lanes
  int64_t lane = 0, runs = 0;
  for (int64_t u = 0; u < seq; ++runs) {
    const int64_t b = bucket(seq - 1 - u);
    int64_t len = 1;
    while (u + len < seq && lane + len < c.vlen && bucket(seq - 1 - u - len) == b) ++len;
    const int64_t next = u + len < seq ? bucket(seq - 1 - u - len) : b;
    const int64_t x = 1 + runs % 4;
    k.op(fmt::format("L_VLDB {}, p0, {}", V(x), (next - b) * 2), {{kBias}, {}, -1});
    if (len == c.vlen) {
      k.op(fmt::format("V_ALIGN v8, {}, {}, 0", V(x), V(x)));
    } else {
      k.op(fmt::format("V_ALIGN v8, v8, {}, {}", V(x), len));
    }
    u += len;
    lane += len;
    if (lane == c.vlen) {
      k.op(fmt::format("L_VST v8, p1, {}", rb), {{}, {kMask}, -1});
      lane = 0;
    }
  }
  k.li(12, static_cast<int64_t>(0xFF800000u));  // -inf
  k.op("V_BCST v9, r12");
  k.loop(sv, [&] { k.op(fmt::format("L_VST v9, p1, {}", rb), {{}, {kMask}, -1}); });
  k.li(12, e_row * rb);
  k.li(13, e_dram);
  k.li(14, 2 * sv);
  k.op("C_DMAST 0, r12, r13, r5, r14, 3", {{kMask}, {}, -1});
  k.op("C_ACQ 3", {{}, {}, -1, true});
  // r1: row i's window in E, r2: row i of the matrix, r6: the buffer, r7: rows per matrix row
  k.li(1, e_dram + (seq - 1) * 2);
  k.li(2, matrix);
  k.li(6, buf * rb);
  k.li(7, sv);
  auto row = [&](bool last) {
    k.op("C_DMALD 0, r6, r1, r5, r7, 3", {{}, {kOutStage}, -1});
    k.op("C_ACQ 3", {{}, {kOutStage}});
    // the next load into the buffer queues behind this store on channel 0 (a channel works in order)
    k.op(fmt::format("C_DMAST 0, r6, r2, r5, r7{}", last ? ", 4" : ""), {{kOutStage}, {}, -1});
    k.op("S_ADDI r1, r1, -2");
    c.add(2, seq * 2, 14);
  };
  k.loop(seq - 1, [&] { row(false); });
  row(true);
  k.op("C_ACQ 4", {{}, {}, -1, true});
}

GeneratedKernel attention(Ctx& c, const AttnJob& job, const KnobValues& values,
                          const std::vector<Knob>& knobs) {
  KernelBuilder& k = c.k;
  const int64_t seq = job.seq, d = job.d;
  const bool causal = job.causal, t5 = !job.pos_bias.empty();
  const int64_t heads = job.heads, kv_heads = job.kv_heads;
  if (kv_heads < 1 || heads % kv_heads != 0) throw std::invalid_argument("KV_HEADS must divide HEADS");
  const int64_t group = heads / kv_heads, head_bytes = seq * d * 2;
  const int64_t o_step = job.o_ldc > 0 ? d * 2 : head_bytes;
  const bool multi = heads > 1;
  if ((t5 || job.o_ldc > 0) && !multi)
    throw std::logic_error("attention: T5 bias or O's stride with one head");
  int64_t state = 0;
  if (multi) {
    c.dm_rows -= (24 + c.rb - 1) / c.rb;  // six words
    state = c.dm_rows * c.rb;
    k.comment(fmt::format("DM words at {}: the heads left in its kv group, the head's Q, K, V, O in DRAM{}",
                          state, t5 ? " and its bias row" : ""));
    k.li(12, state);
    k.op("S_PMOV p4, r12");
    k.op("L_SST r0, p4, 4", {{}, {kState}, -1});
    const std::pair<const std::string*, int64_t> bases[] = {
        {&job.q, job.q_offset}, {&job.k, job.k_offset}, {&job.v, job.v_offset}, {&job.o, job.o_offset}};
    for (const auto& [name, offset] : bases) {
      c.li_addr(12, *name, offset);
      k.op("L_SST r12, p4, 4", {{}, {kState}, -1});
    }
    if (t5) {
      c.li_addr(12, job.pos_bias);
      k.op("L_SST r12, p4, 0", {{}, {kState}, -1});
    }
  }
  GeneratedKernel out, part;
  const std::vector<Knob> rknobs = rowwise_knobs();
  const KnobValues rvalues = {{"unroll", knob(values, knobs, "softmax_unroll")}};
  std::string softmax_summary;
  int64_t softmax_unroll = 0;
  auto head = [&] {
    MatJob scores;
    scores.weights_nk = true;
    scores.m = seq;
    scores.k = d;
    scores.n = seq;
    scores.a = job.q;
    scores.a_offset = job.q_offset;
    scores.b = job.k;
    scores.b_offset = job.k_offset;
    scores.c = job.scores;
    scores.c_offset = job.scores_offset;
    scores.last = false;
    MatJob pv;
    pv.m = seq;
    pv.k = seq;
    pv.n = d;
    pv.a = job.scores;
    pv.a_offset = job.scores_offset;
    pv.b = job.v;
    pv.b_offset = job.v_offset;
    pv.c = job.o;
    pv.c_offset = job.o_offset;
    pv.ldc = job.o_ldc;
    pv.last = !multi && job.last;
    if (multi) {
      scores.a_word = state + 4;
      scores.b_word = state + 8;
      pv.b_word = state + 12;
      pv.c_word = state + 16;
      scores.max_strips = pv.max_strips = 1;
    }
    if (t5) t5_bias_matrix(c, job, state + 20);
    k.comment("scores = Q K^T into scratch");
    out = matmul(c, scores, values, knobs);
    RowJob sm;
    sm.op = "softmax";
    sm.m = sm.n = seq;
    sm.in = sm.out = job.scores;
    sm.in_offset = sm.out_offset = job.scores_offset;
    sm.scale = job.scale;
    sm.causal = causal && !t5;
    sm.add_pair = t5;  // the biased mask streams in with the scores
    if (t5) sm.pair_offset = c.addr(job.bmat) + job.bmat_offset - c.addr(job.scores) - job.scores_offset;
    sm.last = false;
    sm.compact = job.compact;
    k.comment(t5       ? "P = softmax(scores + the biased mask) in place"
              : causal ? "P = softmax(scale * scores + causal mask) in place"
                       : "P = softmax(scale * scores) in place");
    const GeneratedKernel sk = rowwise(c, sm, rvalues, rknobs);
    softmax_summary = sk.summary;
    softmax_unroll = sk.knobs.at("unroll");
    k.comment("O = P V");
    part = matmul(c, pv, values, knobs);
    if (!multi) return;
    k.comment("the next head's addresses");
    k.li(12, state);
    k.op("S_PMOV p4, r12");
    k.li(13, head_bytes);
    k.op("L_SLD r5, p4, 4", {{kState}, {}, -1});  // heads done in the group
    k.op("L_SLD r1, p4, 4", {{kState}, {}, -1});  // Q
    k.op("S_ADD r1, r1, r13");
    // K and V advance when the group's last head is done: r6 = 1 then, from the count of heads done in it
    k.op("L_SLD r2, p4, 4", {{kState}, {}, -1});          // K
    k.op("L_SLD r3, p4, 4", {{kState}, {}, -1});          // V
    k.op("L_SLD r4, p4, 4", {{kState}, {}, -1});          // O
    if (t5) k.op("L_SLD r9, p4, 0", {{kState}, {}, -1});  // bias row
    k.op("S_ADDI r5, r5, 1");
    k.li(6, group - 1);
    k.op("S_SUB r6, r6, r5");
    k.op("S_SRLI r6, r6, 31");
    k.op("S_MUL r7, r6, r13");
    k.op("S_ADD r2, r2, r7");
    k.op("S_ADD r3, r3, r7");
    c.add(4, o_step, 14);
    if (t5) k.op(fmt::format("S_ADDI r9, r9, {}", job.num_buckets * 2));
    k.li(8, group);
    k.op("S_MUL r8, r8, r6");
    k.op("S_SUB r5, r5, r8");
    k.li(12, state);
    k.op("S_PMOV p4, r12");
    for (int r : {5, 1, 2, 3, 4}) k.op(fmt::format("L_SST {}, p4, 4", R(r)), {{}, {kState}, -1});
    if (t5) k.op("L_SST r9, p4, 0", {{}, {kState}, -1});
  };
  k.loop(heads, head);
  if (multi) c.dm_rows += (24 + c.rb - 1) / c.rb;
  if (multi && job.last) k.op("C_HALT", {{}, {}, -1, true});
  out.summary =
      fmt::format("{} head{}: scores = Q K^T ({}); {}{}; O = P V ({})", heads, multi ? "s" : "", out.summary,
                  t5 ? "the T5 bias matrix built per head and added in the softmax; " : "", softmax_summary,
                  part.summary);
  out.knobs["softmax_unroll"] = softmax_unroll;
  return out;
}

// ---------------------------------------------------------------- flash_attention
//
// Online softmax over blocks of keys, with no [S, S] scores anywhere. A query block is VLEN query rows, and
// every score vector runs over those queries: lane i of row j of a block's scores is q_i . k_j. Q^T of the
// block is built once (V_SHUF zips through DM), so row j is sum_d K[j, d] * Q^T[d] with K[j, d] broadcast
// (L_VLDB), eight keys in eight accumulators; K blocks sit chunk-major in DM (the eight keys of a pass in
// eight banks) and the next block's loads while the softmax and P V of this one run. Per query the running
// max m, the rescale alpha = exp(scale (m_old - m_new)) and the sum l are then lanes of one vector, and P^T
// row j is exp(scale (s_j - m_new)) in place of the scores. The output stays in natural rows: O[i, chunk] +=
// P[i, j] V[j, chunk] with P[i, j] broadcast from P^T, four chunks of one query row at a time. Between key
// blocks the FP32 accumulators, alpha and l live in DM as exact hi/mid/lo BF16 triples (the K-in-pieces
// trick of the products): hi = bf16(x), x -= hi, mid = bf16(x), x -= mid, lo = bf16(x), each subtraction
// exact. CAUSAL: a query block reads only the keys up to its diagonal (key blocks beyond it are never
// loaded, the last block is cut to the diagonal), and the diagonal VLEN x VLEN tile gets a mask table of
// -inf added.
constexpr int64_t kFlashKeysPerTile = 8;    // score rows per pass of the Q K^T product (one per accumulator)
constexpr int64_t kFlashChunksPerPair = 4;  // output chunks of one query row accumulated at a time

struct FlashPlan {
  int64_t key_block = 0;  // keys per block (0: none fits)
  int64_t chunks = 0;     // D / VLEN
  int64_t pair_chunks = 0, groups = 0;
  // first DM rows of the buffers
  int64_t q_raw = 0, trans0 = 0, trans1 = 0, qt = 0, kblk = 0, vblk = 0, scores = 0, state = 0, mask = 0,
          partial = 0, stage = 0, rows = 0;
};

// The largest key block (a power of two dividing S, at most `want` keys, at least VLEN and one tile) whose
// scores fit the task's budget and whose buffers fit DM.
FlashPlan flash_plan(const Params& p, const tasks::ResolvedConfig& cfg, int64_t want) {
  const int64_t seq = cfg.dim("S"), d = cfg.dim("D"), vl = p.vlen, banks = p.dm_banks;
  const int64_t budget = static_cast<int64_t>(cfg.param("score_budget_bytes"));
  FlashPlan f;
  f.chunks = d / vl;
  f.pair_chunks = std::min(kFlashChunksPerPair, f.chunks);
  f.groups = f.chunks / f.pair_chunks;
  const int64_t dm_rows = p.dm_bytes / p.row_bytes();
  for (int64_t bk = pow2_divisor(seq, std::max<int64_t>(want, 1)); bk >= std::max(vl, kFlashKeysPerTile);
       bk /= 2) {
    if (bk * vl * 2 > budget) continue;
    int64_t at = 0;
    auto take = [&](int64_t rows) {
      const int64_t r = at;
      at += (rows + banks - 1) / banks * banks;
      return r;
    };
    f.q_raw = take(vl * f.chunks);
    f.trans0 = take(vl);
    f.trans1 = take(vl);
    f.qt = take(d);
    f.kblk = take(bk * f.chunks);
    f.vblk = take(bk * f.chunks);
    f.scores = take(bk);
    f.state = take(7);  // m, then alpha's and l's triples
    f.mask = take(vl);
    f.partial = take(3 * vl * f.chunks);
    f.stage = take(vl * f.chunks);
    f.rows = at;
    if (at <= dm_rows) {
      f.key_block = bk;
      return f;
    }
  }
  return f;
}

std::string flash_reason(const Params& p, const tasks::ResolvedConfig& cfg) {
  const int64_t vl = p.vlen;
  if (vl % kFlashKeysPerTile != 0)
    return fmt::format("VLEN={} is not a multiple of the {} keys of a score tile", vl, kFlashKeysPerTile);
  const FlashPlan f = flash_plan(p, cfg, cfg.dim("S"));
  if (f.chunks % f.pair_chunks != 0)
    return fmt::format("D/VLEN={} is not a multiple of {} output chunks", f.chunks, f.pair_chunks);
  if (f.key_block == 0)
    return fmt::format(
        "no key block of at least {} keys fits: Q^T, K and V blocks, the scores and the FP32 output "
        "triples of {} query rows need more than the {} bytes of DM (or the score budget)",
        std::max(vl, kFlashKeysPerTile), vl, p.dm_bytes);
  return "";
}

std::vector<Knob> flash_knobs() {
  return {{"key_block",
           "keys per block of the online softmax (scores: key_block x VLEN BF16 in DM)",
           128,
           {16, 32, 64, 128, 256}}};
}

// Two-stage software pipeline over count_reg * unroll units, count_reg >= 1 read from a register (a count
// known only at run time): the steady steps are a C_LOOP of count_reg - 1 iterations. emit(stage, unit)
// gets the unit's index modulo `unroll` (even), as in pipeline().
void pipeline_reg(KernelBuilder& k, int count_reg, int temp_reg, int64_t unroll,
                  const std::function<void(int, int64_t)>& emit) {
  emit(0, 0);
  k.op(fmt::format("S_ADDI {}, {}, -1", R(temp_reg), R(count_reg)));
  k.loop_reg(temp_reg, [&] {
    for (int64_t s = 1; s <= unroll; ++s) {
      emit(1, s - 1);
      emit(0, s % unroll);
    }
  });
  for (int64_t s = 1; s <= unroll; ++s) {
    emit(1, s - 1);
    if (s < unroll) emit(0, s);
  }
}

GeneratedKernel flash_attention(Ctx& c, const KnobValues& values, const std::vector<Knob>& knobs) {
  KernelBuilder& k = c.k;
  const int64_t seq = c.cfg.dim("S"), d = c.cfg.dim("D");
  const bool causal = c.cfg.dim("CAUSAL") != 0;
  const int64_t vl = c.vlen, rb = c.rb;
  const FlashPlan f = flash_plan(c.p, c.cfg, knob(values, knobs, "key_block"));
  if (f.key_block == 0) throw std::invalid_argument("flash_attention: no key block fits DM");
  const int64_t bk = f.key_block, ch = f.chunks, gc = f.pair_chunks, groups = f.groups;
  const int64_t half = (gc + 1) / 2;  // chunks of a group loaded through p5; the rest through p0
  const int64_t qblocks = seq / vl, pairs = vl * groups;
  const int64_t m_row = f.state, alpha_row = f.state + 1, l_row = f.state + 4;
  auto log2 = [](int64_t x) {
    int64_t l = 0;
    while ((int64_t{1} << l) < x) ++l;
    return l;
  };
  enum : int { kQt = 300, kScores, kTrans0, kTrans1, kOTriples };
  const int kQraw = kAcqBase + 0, kKblk = kAcqBase + 1, kVblk = kAcqBase + 2;
  GeneratedKernel out;
  out.knobs = {{"key_block", bk}};
  out.summary = fmt::format(
      "{} query blocks of {} rows, keys in blocks of {}{}: Q^T of the block by V_SHUF zips; per key block "
      "S^T = K Q^T with K broadcast (8 keys per pass, VLEN head-dimension steps per loop iteration), running "
      "max, alpha and sum per query lane, P^T = exp in place; O rows += P V ({} chunks of a row at a time) "
      "kept in DM as exact FP32 triples; O = acc / l",
      qblocks, vl, bk, causal ? " up to the diagonal (causal)" : "", gc);

  // ---- Q^T network: VLEN rows of a chunk of Q (row i: Q[i, c*VLEN + l]) -> VLEN rows of Q^T (row t: lanes
  // i)
  std::vector<Labels> group, targets;
  for (int64_t i = 0; i < vl; ++i) {
    Labels row;
    for (int64_t l = 0; l < vl; ++l) row.push_back(static_cast<int>(i * vl + l));
    group.push_back(row);
  }
  for (int64_t t = 0; t < vl; ++t) {
    Labels col;
    for (int64_t i = 0; i < vl; ++i) col.push_back(static_cast<int>(i * vl + t));
    targets.push_back(col);
  }
  const Network qnet = plan(group, targets);
  for (const ShuffleLevel& l : qnet.levels) {
    if (l.kind == ShuffleLevel::kZipLow) throw std::logic_error("flash_attention: Q^T network halves");
  }
  for (int pos : qnet.position) {
    if (pos < 0) throw std::logic_error("flash_attention: Q^T network misses a column");
  }

  // ---- registers: r1 keys of this query block, r2 keys from this key block on, r3 its tiles of 8 keys,
  // r4 / r5 the K / V block in DRAM, r6 / r7 this query block's Q / O in DRAM, r8 loop counts, r9
  // ROW_BYTES, r10 1 on the last key block, r11 the (query row, chunk group) pair, r12-r14 temporaries.
  // Locks: 0 Q, 1 K block, 2 V block, 3 the output staging rows free.
  k.comment(fmt::format(
      "DM rows: Q {}, Q^T {}, K block {}, V block {}, scores {}, m / alpha / l {}, mask {}, O triples {}, "
      "staging {}",
      f.q_raw, f.qt, f.kblk, f.vblk, f.scores, f.state, f.mask, f.partial, f.stage));
  k.li(9, rb);
  k.li(6, c.addr("Q"), c.sym("Q"));
  k.li(7, c.addr("O"), c.sym("O"));
  k.li(1, causal ? vl : seq);
  k.op("C_REL 3");
  k.comment("zero the O triples and l once (later query blocks start with alpha = 0)");
  k.op("V_BCST v0, r0");
  k.li(12, f.state * rb);
  k.op("S_PMOV p0, r12");
  k.loop(7, [&] { k.op(fmt::format("L_VST v0, p0, {}", rb), {{}, {kState}, -1}); });
  k.li(12, f.partial * rb);
  k.op("S_PMOV p0, r12");
  k.loop(3 * vl * ch, [&] { k.op(fmt::format("L_VST v0, p0, {}", rb), {{}, {kOTriples}, -1}); });
  if (causal) {
    k.comment("mask table: row r (key r of the diagonal tile) is -inf at the lanes (queries) i < r");
    k.li(12, static_cast<int64_t>(0xFF800000u));
    k.op("V_BCST v1, r12");
    k.li(12, f.mask * rb);
    k.op("S_PMOV p0, r12");
    k.op(fmt::format("L_VST v0, p0, {}", rb), {{}, {kMask}, -1});
    for (int64_t r = 1; r < vl; ++r) {
      const int reg = static_cast<int>(2 + r % 4);
      k.op(fmt::format("V_ALIGN {}, v1, v0, {}", V(reg), vl - r));  // lanes < r: -inf, the rest 0
      k.op(fmt::format("L_VST {}, p0, {}", V(reg), rb), {{}, {kMask}, -1});
    }
  }

  // Emits one level of the Q^T network through DM: pairs of rows from `src` offsets to `dst` offsets
  // (bytes from p0 and p1), with the post-increments walking from each access to the next.
  auto walk = [&](const std::string& fmt_op, int preg, const std::vector<int64_t>& offsets, size_t at,
                  const std::string& reg, const MemUse& mem) {
    const int64_t next = at + 1 < offsets.size() ? offsets[at + 1] : offsets[0];
    const int64_t inc = next - offsets[at];
    if (inc >= -2048 && inc <= 2047) {
      k.op(fmt::format("{} {}, {}, {}", fmt_op, reg, P(preg), inc), mem);
    } else {
      k.op(fmt::format("{} {}, {}, 0", fmt_op, reg, P(preg)), mem);
      k.op(fmt::format("S_PADDI {}, {}", P(preg), inc));
    }
  };
  auto transpose_level = [&](const ShuffleLevel& l, const std::vector<int64_t>& src,
                             const std::vector<int64_t>& dst, int src_token, int dst_token) {
    const size_t stride = size_t{1} << l.bit;
    const unsigned lo = l.kind == ShuffleLevel::kUnzip ? 2 : 0;
    std::vector<size_t> firsts;
    for (size_t i = 0; i < static_cast<size_t>(vl); ++i) {
      if (!(i & stride)) firsts.push_back(i);
    }
    std::vector<int64_t> loads, stores;
    for (size_t i : firsts) {
      loads.push_back(src[i]);
      loads.push_back(src[i | stride]);
      stores.push_back(dst[i]);
      stores.push_back(dst[i | stride]);
    }
    // p0 and p1 hold the bases; the walks start at the first offsets
    if (loads[0] != 0) k.op(fmt::format("S_PADDI p0, {}", loads[0]));
    if (stores[0] != 0) k.op(fmt::format("S_PADDI p1, {}", stores[0]));
    for (size_t n = 0; n < firsts.size(); ++n) {
      const int base = static_cast<int>(4 * (n % 4));
      walk("L_VLD", 0, loads, 2 * n, V(base), {{src_token}, {}, -1});
      walk("L_VLD", 0, loads, 2 * n + 1, V(base + 1), {{src_token}, {}, -1});
      k.op(fmt::format("V_SHUF {}, {}, {}, {}", V(base + 2), V(base), V(base + 1), lo));
      k.op(fmt::format("V_SHUF {}, {}, {}, {}", V(base + 3), V(base), V(base + 1), lo + 1));
      walk("L_VST", 1, stores, 2 * n, V(base + 2), {{}, {dst_token}, -1});
      walk("L_VST", 1, stores, 2 * n + 1, V(base + 3), {{}, {dst_token}, -1});
    }
  };
  // Restores the FP32 value of a triple (three loaded BF16 rows) into `acc`, with `temp` for the parts.
  auto restore = [&](int acc, int temp, int hi, int mid, int lo) {
    k.op(fmt::format("A_UPS {}, {}", A(acc), V(hi)));
    k.op(fmt::format("A_UPS {}, {}", A(temp), V(mid)));
    k.op(fmt::format("A_ADD {}, {}, {}", A(acc), A(acc), A(temp)));
    k.op(fmt::format("A_UPS {}, {}", A(temp), V(lo)));
    k.op(fmt::format("A_ADD {}, {}, {}", A(acc), A(acc), A(temp)));
  };
  // Splits `acc` (destroyed) into the triple hi, mid, lo (vector registers).
  auto split = [&](int acc, int temp, int hi, int mid, int lo) {
    k.op(fmt::format("V_SRS {}, {}", V(hi), A(acc)));
    k.op(fmt::format("A_UPS {}, {}", A(temp), V(hi)));
    k.op(fmt::format("A_SUB {}, {}, {}", A(acc), A(acc), A(temp)));
    k.op(fmt::format("V_SRS {}, {}", V(mid), A(acc)));
    k.op(fmt::format("A_UPS {}, {}", A(temp), V(mid)));
    k.op(fmt::format("A_SUB {}, {}, {}", A(acc), A(acc), A(temp)));
    k.op(fmt::format("V_SRS {}, {}", V(lo), A(acc)));
  };
  // p3 = the DM byte address `row` * ROW_BYTES + 2 * (query row of pair r11): lane i of a state row.
  auto lane_pointer = [&](int preg, int64_t row) {
    k.op(fmt::format("S_SRLI r12, r11, {}", log2(groups)));
    k.op("S_SLLI r12, r12, 1");
    k.li(13, row * rb);
    k.op("S_ADD r13, r13, r12");
    k.op(fmt::format("S_PMOV {}, r13", P(preg)));
  };
  // a4 = the FP32 triple at `row` (hi, mid, lo in consecutive rows), lane of the pair's query row, in all
  // lanes.
  auto broadcast_triple = [&](int64_t row) {
    lane_pointer(3, row);
    k.op(fmt::format("L_VLDB v12, p3, {}", rb), {{kState}, {}, -1});
    k.op(fmt::format("L_VLDB v13, p3, {}", rb), {{kState}, {}, -1});
    k.op("L_VLDB v14, p3, 0", {{kState}, {}, -1});
    restore(4, 5, 12, 13, 14);
  };
  // The pair's gc accumulators a0.. from their triples (p6 walks the triples in pair order).
  auto restore_pair = [&] {
    for (int64_t cc = 0; cc < gc; ++cc) {
      const int base = static_cast<int>(3 * cc);
      for (int part = 0; part < 3; ++part)
        k.op(fmt::format("L_VLD {}, p6, {}", V(base + part), rb), {{kOTriples}, {}, -1});
      restore(static_cast<int>(cc), static_cast<int>(5 + cc % 3), base, base + 1, base + 2);
    }
  };

  // K chunk-major: chunk cc's column of the block's r12 keys (DRAM r14 on) from DM row kblk + cc * key_block
  // on, so key j + t of a tile is in bank t. Chunks [from, to), round-robin over the channels; each
  // releases lock 1 (the block start acquires it once per chunk).
  auto load_k = [&](int64_t from, int64_t to) {
    if (from >= to) return;
    k.li(11, d * 2);
    k.li(13, (f.kblk + from * bk) * rb);
    c.add(14, from * rb, 8);
    for (int64_t cc = from; cc < to; ++cc) {
      k.op(fmt::format("C_DMALD {}, r13, r14, r11, r12, 1", c.ch(1 + cc)), {{}, {kKblk}});
      if (cc + 1 == to) break;
      c.add(13, bk * rb, 8);
      k.op(fmt::format("S_ADDI r14, r14, {}", rb));
    }
  };
  // r12 = the keys of the next block (on the last block, of the next query block's first), r14 its K rows
  // in DRAM (r2, r4 have moved past this block; r10 = 1 on the last)
  auto next_k = [&] {
    k.li(11, causal ? vl : 0);
    k.op("S_ADD r11, r1, r11");
    k.op("S_SUB r11, r11, r2");
    k.op("S_MUL r11, r11, r10");
    k.op("S_ADD r12, r2, r11");  // keys from the next block on
    k.li(13, bk);
    k.op("S_SUB r13, r13, r12");
    k.op("S_SRLI r14, r13, 31");
    k.op("S_MUL r13, r13, r14");
    k.op("S_ADD r12, r12, r13");  // min(key_block, those)
    k.li(14, c.addr("K"), c.sym("K"));
    k.op("S_SUB r14, r14, r4");
    k.op("S_MUL r14, r14, r10");
    k.op("S_ADD r14, r14, r4");
  };
  auto query_block = [&] {
    k.comment("this query block's rows of Q into DM");
    k.li(12, f.q_raw * rb);
    k.li(13, vl * ch);
    k.op("C_DMALD 0, r12, r6, r9, r13, 0", {{}, {kQraw}});
    c.add(6, vl * d * 2, 14);
    k.op("C_ACQ 0", {{}, {kQraw}});
    k.comment("Q^T, chunk by chunk: the zip network level by level through DM");
    k.li(13, f.q_raw * rb);
    k.li(14, f.qt * rb);
    k.loop(ch, [&] {
      const size_t levels = qnet.levels.size();
      for (size_t li = 0; li < levels; ++li) {
        std::vector<int64_t> src, dst;
        const bool first = li == 0, final = li + 1 == levels;
        const int64_t from = (li % 2 == 0 ? f.trans1 : f.trans0) * rb,
                      to = (li % 2 == 0 ? f.trans0 : f.trans1) * rb;
        for (int64_t i = 0; i < vl; ++i) {
          src.push_back(first ? i * ch * rb : from + i * rb);
          dst.push_back(final ? 0 : to + i * rb);
        }
        if (final) {
          for (int64_t t = 0; t < vl; ++t)
            dst[static_cast<size_t>(qnet.position[static_cast<size_t>(t)])] = t * rb;
        }
        k.op(fmt::format("S_PMOV p0, {}", first ? "r13" : "r0"));
        k.op(fmt::format("S_PMOV p1, {}", final ? "r14" : "r0"));
        transpose_level(qnet.levels[li], src, dst, first ? kQraw : (li % 2 == 0 ? kTrans1 : kTrans0),
                        final ? kQt : (li % 2 == 0 ? kTrans0 : kTrans1));
      }
      k.op(fmt::format("S_ADDI r13, r13, {}", rb));
      k.op(fmt::format("S_ADDI r14, r14, {}", vl * rb));
    });
    k.comment("m = -inf; K and V from their first rows; r8 = key blocks up to the diagonal");
    k.li(12, static_cast<int64_t>(0xFF800000u));
    k.op("V_BCST v0, r12");
    k.li(12, m_row * rb);
    k.op("S_PMOV p0, r12");
    k.op("L_VST v0, p0, 0", {{}, {kState}, -1});
    k.op("S_ADDI r2, r1, 0");
    k.li(4, c.addr("K"), c.sym("K"));
    k.li(5, c.addr("V"), c.sym("V"));
    k.op(fmt::format("S_ADDI r8, r1, {}", bk - 1));
    k.op(fmt::format("S_SRLI r8, r8, {}", log2(bk)));
    k.loop_reg(8, [&] {
      k.comment("keys of this block: min(r2, key_block); r10 = 1 on the last block");
      k.li(12, bk);
      k.op("S_SUB r12, r12, r2");
      k.op("S_SRLI r13, r12, 31");
      k.op("S_ADDI r10, r0, 1");
      k.op("S_SUB r10, r10, r13");
      k.op("S_MUL r14, r12, r10");
      k.li(12, bk);
      k.op("S_SUB r12, r12, r14");
      k.op(fmt::format("S_SRLI r3, r12, {}", log2(kFlashKeysPerTile)));
      k.comment("V in its natural rows (this block's K was loaded after the previous block's scores)");
      k.op(fmt::format("S_SLLI r13, r12, {}", log2(ch)));
      k.li(14, f.vblk * rb);
      k.op(fmt::format("C_DMALD {}, r14, r5, r9, r13, 2", c.ch(2)), {{}, {kVblk}});
      c.add(4, bk * d * 2, 14);
      c.add(5, bk * d * 2, 14);
      c.add(2, -bk, 14);
      for (int64_t cc = 0; cc < ch; ++cc) k.op("C_ACQ 1", {{}, {kKblk}});

      k.comment("S^T rows = K Q^T: per tile of 8 keys, a0..a7 += K[j + t, dd] (broadcast) * Q^T[dd]");
      k.li(12, f.kblk * rb);
      k.op("S_PMOV p1, r12");
      k.li(12, f.scores * rb);
      k.op("S_PMOV p2, r12");
      k.loop_reg(3, [&] {
        k.li(12, f.qt * rb);
        k.op("S_PMOV p0, r12");
        pipeline(
            k, d, 2, vl,
            [&](int stage, int64_t u) {
              if (stage == 0) {
                // u mod VLEN is d mod VLEN (the loop runs VLEN steps an iteration): the banks and the
                // jump to the next chunk's column are known
                const int64_t dd = u % vl;
                // Q^T rows alternate between v8 and v9, so the next one loads while this one is still read
                k.op(fmt::format("L_VLD {}, p0, {}", V(8 + u % 2), rb),
                     {{kQt}, {}, static_cast<int>((f.qt + dd) % c.banks)});
                for (int64_t t = 0; t < kFlashKeysPerTile; ++t) {
                  const int64_t back = -(kFlashKeysPerTile - 1) * rb;
                  const int64_t inc = t + 1 < kFlashKeysPerTile ? rb
                                      : dd + 1 < vl             ? back + 2
                                                                : back + bk * rb - 2 * (vl - 1);
                  const MemUse mem = {{kKblk}, {}, static_cast<int>(t % c.banks)};
                  if (inc >= -2048 && inc <= 2047) {
                    k.op(fmt::format("L_VLDB {}, p1, {}", V(t), inc), mem);
                  } else {
                    k.op(fmt::format("L_VLDB {}, p1, 0", V(t)), mem);
                    k.op(fmt::format("S_PADDI p1, {}", inc));
                  }
                }
                return;
              }
              for (int64_t t = 0; t < kFlashKeysPerTile; ++t)
                k.op(fmt::format("{} {}, {}, {}", u == 0 ? "A_VMUL" : "A_VMAC", A(t), V(t), V(8 + u % 2)));
            },
            1);
        // p1 is past the last chunk's column: back to chunk 0, eight keys on
        k.li(12, kFlashKeysPerTile * rb - ch * bk * rb);
        k.op("S_PADD p1, r12");
        for (int64_t t = 0; t < kFlashKeysPerTile; ++t) {
          const int reg = static_cast<int>(10 + t % 6);
          k.op(fmt::format("V_SRS {}, {}", V(reg), A(t)));
          k.op(fmt::format("L_VST {}, p2, {}", V(reg), rb), {{}, {kScores}, -1});
        }
      });
      k.comment("K is free: load the next block's (on the last block, the next query block's first), half");
      k.comment("of its chunks now and half before P V, so that few transfers wait for a queue slot");
      next_k();
      load_k(0, ch / 2);
      if (causal) {
        k.comment("the diagonal tile (the last VLEN keys of the last block) + the mask table");
        k.loop_reg(10, [&] {
          k.op(fmt::format("S_SLLI r12, r3, {}", log2(kFlashKeysPerTile)));
          k.op(fmt::format("S_ADDI r12, r12, {}", f.scores - vl));
          k.op(fmt::format("S_SLLI r12, r12, {}", log2(rb)));
          k.op("S_PMOV p3, r12");
          k.op("S_PMOV p4, r12");
          k.li(12, f.mask * rb);
          k.op("S_PMOV p5, r12");
          for (int64_t r = 0; r < vl; ++r) {
            const int s = static_cast<int>(r % 4);
            k.op(fmt::format("L_VLD {}, p3, {}", V(s), rb), {{kScores}, {}, -1});
            k.op(fmt::format("L_VLD {}, p5, {}", V(4 + s), rb), {{kMask}, {}, -1});
            k.op(fmt::format("V_ADD {}, {}, {}", V(8 + s), V(s), V(4 + s)));
            k.op(fmt::format("L_VST {}, p4, {}", V(8 + s), rb), {{}, {kScores}, -1});
          }
        });
      }
      k.comment("m_new = max(m, the block's rows) (two partial maxima)");
      k.li(12, m_row * rb);
      k.op("S_PMOV p3, r12");
      k.op("L_VLD v10, p3, 0", {{kState}, {}, -1});
      k.op("L_VLD v12, p3, 0", {{kState}, {}, -1});
      k.op("L_VLD v13, p3, 0", {{kState}, {}, -1});
      k.li(12, f.scores * rb);
      k.op("S_PMOV p4, r12");
      k.loop_reg(3, [&] {
        for (int64_t r = 0; r < kFlashKeysPerTile; ++r) {
          const int s = static_cast<int>(r % 4), part = static_cast<int>(12 + r % 2);
          k.op(fmt::format("L_VLD {}, p4, {}", V(s), rb), {{kScores}, {}, -1});
          k.op(fmt::format("V_MAX {}, {}, {}", V(part), V(part), V(s)));
        }
      });
      k.op("V_MAX v14, v12, v13");
      k.op("L_VST v14, p3, 0", {{}, {kState}, -1});
      k.comment("alpha = exp(scale (m - m_new)); l *= alpha; a6 = m_new, a7 = scale");
      k.li(12, static_cast<int64_t>(arith::double_to_fp32(c.cfg.param("scale"))));
      k.op("A_BCST a7, r12");
      k.op("A_UPS a6, v14");
      k.op("A_UPS a0, v10");
      k.op("A_SUB a0, a0, a6");
      k.op("A_MUL a0, a0, a7");
      k.op("A_EXP a0, a0");
      k.li(12, l_row * rb);
      k.op("S_PMOV p3, r12");
      for (int part = 0; part < 3; ++part)
        k.op(fmt::format("L_VLD {}, p3, {}", V(part), rb), {{kState}, {}, -1});
      restore(1, 2, 0, 1, 2);
      k.op("A_MUL a1, a1, a0");
      split(0, 2, 3, 4, 5);
      k.li(12, alpha_row * rb);
      k.op("S_PMOV p3, r12");
      for (int part = 0; part < 3; ++part)
        k.op(fmt::format("L_VST {}, p3, {}", V(3 + part), rb), {{}, {kState}, -1});
      k.comment("P^T = exp(scale (S^T - m_new)) in place, summed into l (a1, a3)");
      k.op("A_BCST a3, r0");
      k.li(12, f.scores * rb);
      k.op("S_PMOV p4, r12");
      k.op("S_PMOV p5, r12");
      k.loop_reg(3, [&] {
        for (int64_t r = 0; r < kFlashKeysPerTile; ++r) {
          const int s = static_cast<int>(r % 4);
          const int w = static_cast<int>(std::array<int, 4>{0, 2, 4, 5}[static_cast<size_t>(s)]);
          const int sum = r % 2 == 0 ? 1 : 3;
          // no buffer token: in place, each row is read before its own store and after the earlier
          // passes (blocks before this loop), so the rows need not wait for each other's stores
          k.op(fmt::format("L_VLD {}, p4, {}", V(s), rb));
          k.op(fmt::format("A_UPS {}, {}", A(w), V(s)));
          k.op(fmt::format("A_SUB {}, {}, a6", A(w), A(w)));
          k.op(fmt::format("A_MUL {}, {}, a7", A(w), A(w)));
          k.op(fmt::format("A_EXP {}, {}", A(w), A(w)));
          k.op(fmt::format("A_ADD {}, {}, {}", A(sum), A(sum), A(w)));
          k.op(fmt::format("V_SRS {}, {}", V(4 + s), A(w)));
          k.op(fmt::format("L_VST {}, p5, {}", V(4 + s), rb), {{}, {kScores}, -1});
        }
      });
      k.op("A_ADD a1, a1, a3");
      split(1, 2, 8, 9, 10);
      k.li(12, l_row * rb);
      k.op("S_PMOV p3, r12");
      for (int part = 0; part < 3; ++part)
        k.op(fmt::format("L_VST {}, p3, {}", V(8 + part), rb), {{}, {kState}, -1});

      next_k();
      load_k(ch / 2, ch);
      k.comment("O rows: per (query row, chunk group): acc = alpha * acc + sum_j P[i, j] V[j, chunks]");
      k.op("C_ACQ 2", {{}, {kVblk}});
      k.op("S_ADDI r11, r0, 0");
      k.li(12, f.partial * rb);
      k.op("S_PMOV p6, r12");
      k.op("S_PMOV p7, r12");
      k.loop(pairs, [&] {
        broadcast_triple(alpha_row);
        lane_pointer(4, f.scores);  // P^T column of the query row
        // p5: V[0, the group's first chunk]
        k.li(13, groups - 1);
        k.op("S_AND r12, r11, r13");
        k.op(fmt::format("S_SLLI r12, r12, {}", log2(gc * rb)));
        k.li(13, f.vblk * rb);
        k.op("S_ADD r12, r12, r13");
        k.op("S_PMOV p5, r12");
        // p0: the second half of the group's chunks (two pointers, so two V loads can share a bundle)
        k.op(fmt::format("S_ADDI r12, r12, {}", half * rb));
        k.op("S_PMOV p0, r12");
        restore_pair();
        for (int64_t cc = 0; cc < gc; ++cc) k.op(fmt::format("A_MUL {}, {}, a4", A(cc), A(cc)));
        pipeline_reg(k, 3, 8, kFlashKeysPerTile, [&](int stage, int64_t u) {
          const int set = static_cast<int>(u % 2);
          if (stage == 0) {
            // key j = u mod 8 (blocks start at multiples of 8 keys): P^T row j is in bank j; with one
            // chunk group V[j, cc] is in bank j * ch + cc. With more, the group's bank offset is not known
            // here, but its chunks are in consecutive banks: their banks relative to the first chunk let
            // them pair with each other (P^T's row, bank unknown relative to them, then pairs with none).
            const bool known = groups == 1;
            k.op(fmt::format("L_VLDB {}, p4, {}", V(10 + set), rb),
                 {{kScores}, {}, known ? static_cast<int>((f.scores + u) % c.banks) : -1});
            for (int64_t cc = 0; cc < gc; ++cc) {
              const bool second = cc >= half;
              const int64_t last = second ? gc - 1 : half - 1;  // the half's last chunk: on to the next key
              k.op(fmt::format("L_VLD {}, {}, {}", V(set * gc + cc), second ? "p0" : "p5",
                               cc < last ? rb : (ch - (last - (second ? half : 0))) * rb),
                   {{kVblk}, {}, static_cast<int>((known ? f.vblk + u * ch + cc : cc) % c.banks)});
            }
            return;
          }
          for (int64_t cc = 0; cc < gc; ++cc)
            k.op(fmt::format("A_VMAC {}, {}, {}", A(cc), V(10 + set), V(set * gc + cc)));
        });
        for (int64_t cc = 0; cc < gc; ++cc) {
          const int base = static_cast<int>(3 * (cc % 4));
          split(static_cast<int>(cc), static_cast<int>(5 + cc % 3), base, base + 1, base + 2);
          for (int part = 0; part < 3; ++part)
            k.op(fmt::format("L_VST {}, p7, {}", V(base + part), rb), {{}, {kOTriples}, -1});
        }
        k.op("S_ADDI r11, r11, 1");
      });
    });
    k.comment("O = acc / l into the staging rows, then to DRAM");
    k.op("C_ACQ 3", {{}, {kOutStage}});
    k.op("S_ADDI r11, r0, 0");
    k.li(12, f.partial * rb);
    k.op("S_PMOV p6, r12");
    k.li(12, f.stage * rb);
    k.op("S_PMOV p7, r12");
    k.loop(pairs, [&] {
      broadcast_triple(l_row);
      k.op("A_RECI a4, a4");
      restore_pair();
      for (int64_t cc = 0; cc < gc; ++cc) {
        k.op(fmt::format("A_MUL {}, {}, a4", A(cc), A(cc)));
        k.op(fmt::format("V_SRS {}, {}", V(12 + cc % 4), A(cc)));
        k.op(fmt::format("L_VST {}, p7, {}", V(12 + cc % 4), rb), {{}, {kOutStage}, -1});
      }
      k.op("S_ADDI r11, r11, 1");
    });
    k.li(12, f.stage * rb);
    k.li(13, vl * ch);
    k.op(fmt::format("C_DMAST {}, r12, r7, r9, r13, 3", c.ch(3)), {{kOutStage}, {}, -1});
    c.add(7, vl * d * 2, 14);
    if (causal) k.op(fmt::format("S_ADDI r1, r1, {}", vl));
  };
  k.comment("the first block of K");
  k.li(12, std::min(bk, causal ? vl : seq));
  k.li(14, c.addr("K"), c.sym("K"));
  load_k(0, ch);
  k.loop(qblocks, query_block);
  k.op("C_HALT", {{}, {}, -1, true});
  return out;
}

// ---------------------------------------------------------------- rope
std::vector<Knob> rope_knobs() {
  return {{"positions",
           "positions of one head per DMA tile (their cos and sin rows stay in DM)",
           64,
           {8, 16, 32, 64, 128}},
          {"unroll", "chunk pairs per loop iteration of the software-pipelined loop", 8, {2, 4, 8, 16}}};
}

//
// y = x * cos + rotate_half(x) * sin, with the pair of chunks (c, c + D/2VLEN) of a position as the unit:
// y_lo = x_lo cos_lo + x_hi (-sin_lo), y_hi = x_hi cos_hi + x_lo sin_hi, each A_VMUL + A_VMAC in FP32 (one
// rounding). Tiles are `positions` positions of one head, walked position block by position block and head
// by head within a block; the cos and sin rows of a block are loaded (and the first half of sin negated)
// when its first head's tile comes.
// RoPE over `heads` head-major [seq, d] tensors from region `in` to `out` (the same region: in place), the
// tables [seq, d] in regions cos and sin.
struct RopeJob {
  int64_t heads = 0, seq = 0, d = 0;
  std::string in = "x", out = "y", cos = "cos", sin = "sin";
  int64_t in_offset = 0, out_offset = 0;  // bytes into the regions
  bool last = true;                       // false: wait for the stores at the end
  bool compact = false;                   // stream_compact (needs last = false)
};

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

// ---------------------------------------------------------------- conv2d
//
// im2col through the scratch region, then the gemm template: A = im2col [OH*OW, KH*KW*C] (scratch), B = w
// viewed as [KH*KW*C, F], C = y. Row (oh, ow) of the im2col matrix holds x[oh*S + i - P, ow*S + j - P, :]
// at columns (i*KW + j)*C.. (zeros outside the image). Per output row oh and tap (i, j) and channel chunk,
// one DMA gathers the valid pixels' chunk (DRAM stride S*C*2) into a DM buffer and one stores it into
// the im2col rows (DRAM stride K*2); the pixels in the padding get rows of zeros from a zero region. Two
// buffers alternate, buffer b's load and store on channel b (a channel works in order, so the store has
// read the buffer before the next load into it writes); a tap's load is issued before the previous tap's
// store waits for its data. Output rows whose taps all lie inside the image are one hardware loop.
struct ConvShape {
  int64_t h, w, c, f, kh, kw, s, pad, oh, ow, m, k;
};

ConvShape conv_shape(const tasks::ResolvedConfig& cfg) {
  ConvShape d;
  d.h = cfg.dim("H");
  d.w = cfg.dim("W");
  d.c = cfg.dim("C");
  d.f = cfg.dim("F");
  d.kh = cfg.dim("KH");
  d.kw = cfg.dim("KW");
  d.s = cfg.dim("STRIDE");
  d.pad = cfg.dim("PAD");
  d.oh = (d.h + 2 * d.pad - d.kh) / d.s + 1;
  d.ow = (d.w + 2 * d.pad - d.kw) / d.s + 1;
  d.m = d.oh * d.ow;
  d.k = d.kh * d.kw * d.c;
  return d;
}

MatJob conv_product(const ConvShape& d) {
  MatJob job;
  job.m = d.m;
  job.k = d.k;
  job.n = d.f;
  job.a = "scratch";
  job.b = "w";
  job.c = "y";
  return job;
}

// Bands of output rows for the product: the fewest whose product (K in pieces, FP32 partial sums of the
// band's rows) fits DM less one row of DRAM-address words; 0 when none does.
int64_t conv_bands(const Params& p, const ConvShape& d) {
  const int64_t dm_rows = p.dm_bytes / p.row_bytes();
  for (int64_t bands = 1; bands <= d.oh; ++bands) {
    if (d.oh % bands != 0) continue;
    MatJob job = conv_product(d);
    job.m = d.m / bands;
    if (job.m % p.mmul_m() != 0) continue;
    const MatPlan plan = matmul_plan(p, job, 1);
    if (plan.chunks == 0) continue;
    if (matmul_dm_rows(p, job, plan.tm, 1, plan.chunks) <= dm_rows - (bands > 1 ? 1 : 0)) return bands;
  }
  return 0;
}

// Where the convolution's output goes (conv_block: its scratch region after the im2col matrix).
struct ConvJob {
  std::string out = "y";
  int64_t out_offset = 0;
  bool last = true;  // false: wait for the stores at the end
};

GeneratedKernel conv2d(Ctx& c, const ConvJob& cjob, const KnobValues& values,
                       const std::vector<Knob>& knobs) {
  KernelBuilder& k = c.k;
  const ConvShape d = conv_shape(c.cfg);
  const int64_t rb = c.rb, cv = d.c / c.vlen;
  // DM rows: zeros (OW rows), two gather buffers (OW rows each). Locks 3/4: buffer loads landed; 5/6: the
  // last store of an output row on channel 0/1 has been written.
  const int64_t zero = 0, buf0 = d.ow, buf1 = 2 * d.ow;
  k.comment(
      fmt::format("im2col into scratch: DM rows of zeros {}, gather buffers {} and {}", zero, buf0, buf1));
  k.li(12, zero * rb);
  k.op("S_PMOV p0, r12");
  k.op("V_BCST v0, r0");
  k.loop(d.ow, [&] { k.op(fmt::format("L_VST v0, p0, {}", rb), {{}, {kState}, -1}); });
  k.comment("r1: x at image row oh*S - P, r2: the im2col row of pixel (oh, 0), r3: S*C*2, r4: K*2,");
  k.comment("r6/r7: the buffers, r8: the zeros");
  k.li(1, c.addr("x") - d.pad * d.w * d.c * 2);
  k.li(2, c.addr("scratch"), c.sym("scratch"));
  k.li(3, d.s * d.c * 2);
  k.li(4, d.k * 2);
  k.li(6, buf0 * rb);
  k.li(7, buf1 * rb);
  k.li(8, zero * rb);
  struct Xfer {
    bool load = false;
    int ch = 0, dm_reg = 8;
    int64_t offset = 0, rows = 0;  // bytes from r1 (load) or r2 (store)
    int lock = -1;
  };
  int64_t fences[2] = {0, 0};  // fence releases per channel over the whole im2col
  // One output row's transfers; valid_row(i): tap row i inside the image (all of them in the loop).
  auto out_row = [&](const std::function<bool(int64_t)>& valid_row, int64_t times) {
    std::vector<Xfer> xs;
    int64_t tap = 0;
    int pending = -1;  // index in xs of the data store waiting for its load
    for (int64_t i = 0; i < d.kh; ++i) {
      for (int64_t j = 0; j < d.kw; ++j) {
        // pixels ow with 0 <= ow*S + j - P < W
        const int64_t lo = std::max<int64_t>(0, (d.pad - j + d.s - 1) / d.s);
        const int64_t hi = std::min<int64_t>(d.ow - 1, (d.w - 1 + d.pad - j) / d.s);
        const bool any = valid_row(i) && hi >= lo;
        for (int64_t cc = 0; cc < cv; ++cc) {
          const int64_t col = (i * d.kw + j) * d.c * 2 + cc * rb;
          if (!any) {
            xs.push_back({false, 0, 8, col, d.ow});
            continue;
          }
          if (lo > 0) xs.push_back({false, 0, 8, col, lo});
          if (hi < d.ow - 1) xs.push_back({false, 0, 8, (hi + 1) * d.k * 2 + col, d.ow - 1 - hi});
          const int b = static_cast<int>(tap++ % 2);
          xs.push_back({true, b, 6 + b, (i * d.w + lo * d.s + j - d.pad) * d.c * 2 + cc * rb, hi - lo + 1});
          if (pending >= 0) {
            const Xfer st = xs[static_cast<size_t>(pending)];
            xs.erase(xs.begin() + pending);
            xs.push_back(st);
          }
          xs.push_back({false, b, 6 + b, lo * d.k * 2 + col, hi - lo + 1});
          pending = static_cast<int>(xs.size()) - 1;
        }
      }
    }
    for (int ch = 0; ch < 2; ++ch) {
      for (size_t x = xs.size(); x-- > 0;) {
        if (!xs[x].load && xs[x].ch == ch) {
          xs[x].lock = 5 + ch;
          fences[ch] += times;
          break;
        }
      }
    }
    auto body = [&] {
      for (const Xfer& x : xs) {
        if (x.load) {
          k.li(13, x.offset);
          k.op("S_ADD r13, r13, r1");
          k.li(12, x.rows);
          k.op(fmt::format("C_DMALD {}, {}, r13, r3, r12, {}", x.ch, R(x.dm_reg), 3 + x.ch),
               {{}, {kOutBase + x.ch}});
          continue;
        }
        if (x.dm_reg != 8) k.op(fmt::format("C_ACQ {}", 3 + x.ch), {{}, {kOutBase + x.ch}});
        k.li(14, x.offset);
        k.op("S_ADD r14, r14, r2");
        k.li(5, x.rows);
        k.op(fmt::format("C_DMAST {}, {}, r14, r4, r5{}", x.ch, R(x.dm_reg),
                         x.lock >= 0 ? fmt::format(", {}", x.lock) : ""),
             {{x.dm_reg == 8 ? kState : kOutBase + x.ch}, {}, -1});
      }
      c.add(1, d.s * d.w * d.c * 2, 14);
      c.add(2, d.ow * d.k * 2, 14);
    };
    k.loop(times, body);
  };
  // One channel chunk of one tap in the im2col buffer (r10: its column, r9: its image pixels): zero rows
  // where the tap falls outside the image, the gathered pixels stored between them; `fence` releases the
  // lock on the last store.
  auto store_tap_chunk = [&](bool any, int64_t lo, int64_t hi, const std::string& fence) {
    if (!any) {
      k.li(5, d.ow);
      k.op("C_DMAST 0, r8, r10, r4, r5" + fence, {{kState}, {}, -1});
      return;
    }
    if (lo > 0) {
      k.li(5, lo);
      k.op("C_DMAST 0, r8, r10, r4, r5", {{kState}, {}, -1});
    }
    if (hi < d.ow - 1) {
      k.li(14, (hi + 1) * d.k * 2);
      k.op("S_ADD r14, r14, r10");
      k.li(5, d.ow - 1 - hi);
      k.op("C_DMAST 0, r8, r14, r4, r5", {{kState}, {}, -1});
    }
    k.li(12, hi - lo + 1);
    k.op("C_DMALD 0, r6, r9, r3, r12, 3", {{}, {kOutBase}});
    k.op("C_ACQ 3", {{}, {kOutBase}});
    k.li(14, lo * d.k * 2);
    k.op("S_ADD r14, r14, r10");
    k.li(5, hi - lo + 1);
    k.op("C_DMAST 0, r6, r14, r4, r5" + fence, {{kOutBase}, {}, -1});
    k.op(fmt::format("S_ADDI r9, r9, {}", rb));
  };
  // With several channel chunks per pixel, a hardware loop over the chunks of each tap keeps the code
  // small: all on channel 0, the gather waited for before its scatter; r9/r10 walk the tap's chunks.
  auto out_row_chunked = [&](const std::function<bool(int64_t)>& valid_row, int64_t times) {
    k.loop(times, [&] {
      for (int64_t i = 0; i < d.kh; ++i) {
        for (int64_t j = 0; j < d.kw; ++j) {
          const int64_t lo = std::max<int64_t>(0, (d.pad - j + d.s - 1) / d.s);
          const int64_t hi = std::min<int64_t>(d.ow - 1, (d.w - 1 + d.pad - j) / d.s);
          const bool any = valid_row(i) && hi >= lo, last = i == d.kh - 1 && j == d.kw - 1;
          const std::string fence = last ? ", 5" : "";
          if (any) {
            k.li(14, (i * d.w + lo * d.s + j - d.pad) * d.c * 2);
            k.op("S_ADD r9, r14, r1");
          }
          k.li(14, (i * d.kw + j) * d.c * 2);
          k.op("S_ADD r10, r14, r2");
          k.loop(cv, [&] {
            store_tap_chunk(any, lo, hi, fence);
            k.op(fmt::format("S_ADDI r10, r10, {}", rb));
          });
        }
      }
      c.add(1, d.s * d.w * d.c * 2, 14);
      c.add(2, d.ow * d.k * 2, 14);
    });
    fences[0] += cv * times;
  };
  auto emit_rows = [&](const std::function<bool(int64_t)>& valid_row, int64_t times) {
    if (cv > 1) {
      out_row_chunked(valid_row, times);
    } else {
      out_row(valid_row, times);
    }
  };
  // The last resort for IMEM (Ctx::loop_pieces): one copy of the row code for every output row, in one
  // hardware loop. Per row, the tap rows above the image (top), inside it (mid) and below it (bot) are
  // counts computed from r11 = oh * S - P, each section a loop: zero stores for top and bot, the taps of one
  // tap row (r7: its image row in DRAM) for mid. r10 walks the im2col columns (consecutive: tap after tap,
  // chunk after chunk); everything is on channel 0, in order, so one store of a zero row to the output
  // region (overwritten by the product later) releases the lock after the last im2col store.
  auto looped_rows = [&] {
    k.comment("every output row: tap rows above the image, in it and below it (r11 = oh * S - P)");
    k.li(11, -d.pad);
    auto top = [&] {  // r12 = max(0, -r11)
      k.op("S_SUB r12, r0, r11");
      k.op("S_SRLI r14, r11, 31");
      k.op("S_MUL r12, r12, r14");
    };
    auto bot = [&](int dst, int tmp) {  // dst = max(0, r11 + KH - H)
      k.op(fmt::format("S_ADDI {}, r11, {}", R(dst), d.kh - d.h));
      k.op(fmt::format("S_SUB {}, r0, {}", R(tmp), R(dst)));
      k.op(fmt::format("S_SRLI {}, {}, 31", R(tmp), R(tmp)));
      k.op(fmt::format("S_MUL {}, {}, {}", R(dst), R(dst), R(tmp)));
    };
    auto zero_tap_rows = [&] {
      k.loop_reg(12, [&] {
        k.loop(d.kw * cv, [&] {
          k.li(5, d.ow);
          k.op("C_DMAST 0, r8, r10, r4, r5", {{kState}, {}, -1});
          k.op(fmt::format("S_ADDI r10, r10, {}", rb));
        });
      });
    };
    k.loop(d.oh, [&] {
      k.op("S_ADDI r10, r2, 0");
      top();
      zero_tap_rows();
      top();
      k.li(14, d.w * d.c * 2);
      k.op("S_MUL r14, r12, r14");
      k.op("S_ADD r7, r1, r14");
      bot(14, 5);
      k.op("S_ADD r12, r12, r14");
      k.li(14, d.kh);
      k.op("S_SUB r12, r14, r12");
      k.loop_reg(12, [&] {
        for (int64_t j = 0; j < d.kw; ++j) {
          const int64_t lo = std::max<int64_t>(0, (d.pad - j + d.s - 1) / d.s);
          const int64_t hi = std::min<int64_t>(d.ow - 1, (d.w - 1 + d.pad - j) / d.s);
          const bool any = hi >= lo;
          if (any) {
            k.li(14, (lo * d.s + j - d.pad) * d.c * 2);
            k.op("S_ADD r9, r14, r7");
          }
          k.loop(cv, [&] {
            store_tap_chunk(any, lo, hi, "");
            k.op(fmt::format("S_ADDI r10, r10, {}", rb));
          });
        }
        c.add(7, d.w * d.c * 2, 14);
      });
      bot(12, 14);
      zero_tap_rows();
      c.add(1, d.s * d.w * d.c * 2, 14);
      c.add(2, d.ow * d.k * 2, 14);
      k.op(fmt::format("S_ADDI r11, r11, {}", d.s));
    });
    c.li_addr(14, cjob.out, cjob.out_offset);
    k.li(5, 1);
    k.op("C_DMAST 0, r8, r14, r4, r5, 5", {{kState}, {}, -1});
    fences[0] = 1;
    fences[1] = 0;
  };
  if (c.loop_pieces && cv > 0) {
    looped_rows();
  } else {
    // output rows whose tap rows all lie in the image: oh*S - P >= 0 and oh*S - P + KH - 1 < H
    auto inside = [&](int64_t oh) { return oh * d.s - d.pad >= 0 && oh * d.s - d.pad + d.kh - 1 < d.h; };
    for (int64_t oh = 0; oh < d.oh;) {
      if (inside(oh)) {
        int64_t n = 0;
        while (oh + n < d.oh && inside(oh + n)) ++n;
        k.comment(fmt::format("output rows {}..{}: every tap row in the image", oh, oh + n - 1));
        emit_rows([](int64_t) { return true; }, n);
        oh += n;
      } else {
        k.comment(fmt::format("output row {}", oh));
        emit_rows(
            [&](int64_t i) {
              const int64_t ih = oh * d.s - d.pad + i;
              return ih >= 0 && ih < d.h;
            },
            1);
        ++oh;
      }
    }
  }
  k.comment("wait for every im2col store (the last of each output row on each channel releases a lock)");
  for (int ch = 0; ch < 2; ++ch)
    k.loop(fences[ch], [&] { k.op(fmt::format("C_ACQ {}", 5 + ch), {{}, {}, -1, true}); });
  const int64_t bands = conv_bands(c.p, d);
  if (bands == 0) throw std::invalid_argument("conv2d: the product does not fit DM");
  GeneratedKernel out;
  if (bands == 1) {
    k.comment("y = im2col w");
    MatJob job = conv_product(d);
    job.c = cjob.out;
    job.c_offset = cjob.out_offset;
    job.last = cjob.last;
    out = matmul(c, job, values, knobs);
  } else {
    // The product in bands of output rows (a hardware loop): the band's im2col rows and y rows are DRAM
    // addresses in DM words that the product reads, advanced after each band.
    c.dm_rows -= 1;
    const int64_t state = c.dm_rows * c.rb, band_m = d.m / bands;
    k.comment(fmt::format("y = im2col w in {} bands of {} rows; DM words at {}: the band's A and y", bands,
                          band_m, state));
    k.li(12, state);
    k.op("S_PMOV p4, r12");
    k.li(12, c.addr("scratch"), c.sym("scratch"));
    k.op("L_SST r12, p4, 4", {{}, {kState}, -1});
    c.li_addr(12, cjob.out, cjob.out_offset);
    k.op("L_SST r12, p4, 0", {{}, {kState}, -1});
    MatJob job = conv_product(d);
    job.m = band_m;
    job.a_word = state;
    job.c_word = state + 4;
    job.max_strips = 1;  // one loop level fewer
    job.last = false;
    k.loop(bands, [&] {
      out = matmul(c, job, values, knobs);
      k.li(12, state);
      k.op("S_PMOV p4, r12");
      k.op("L_SLD r1, p4, 4", {{kState}, {}, -1});
      k.op("L_SLD r2, p4, -4", {{kState}, {}, -1});
      k.li(13, band_m * d.k * 2);
      k.op("S_ADD r1, r1, r13");
      k.li(13, band_m * d.f * 2);
      k.op("S_ADD r2, r2, r13");
      k.op("L_SST r1, p4, 4", {{}, {kState}, -1});
      k.op("L_SST r2, p4, 0", {{}, {kState}, -1});
    });
    c.dm_rows += 1;
    if (cjob.last) k.op("C_HALT", {{}, {}, -1, true});
    out.summary = fmt::format("{} bands of {} output pixels: {}", bands, band_m, out.summary);
  }
  out.summary = fmt::format(
      "im2col of the {}x{} taps into scratch by DMA (one gather and one scatter per output row, tap and "
      "channel chunk; zero rows for the padding); then {}",
      d.kh, d.kw, out.summary);
  return out;
}

// ---------------------------------------------------------------- depthwise_conv
//
// Image rows go through a ring of R = KH + STRIDE row slots in DM (each input row read once; slots keep PAD
// zero pixels on both sides, and rows above or below the image are zero slots), so output row oh reads its
// KH input rows from slots (oh * STRIDE + i) mod R. Per output pixel and channel chunk: KH * KW A_VMACs of
// the tap's x and w rows (two partial accumulators when few chunks), V_SRS, into a double-buffered output
// row stored by DMA. The next rows load while a row computes. When the ring of whole pixels does not fit
// DM, the image is convolved one chunk of channels (VLEN) at a time: `groups` passes over the image, each
// with one chunk per pixel in DM (the DMA gathers it with the pixel stride C * 2).
struct DepthwiseShape {
  int64_t h, w, c, kh, kw, stride, pad, oh, ow, cv, ring, slot_rows, w_rows, out_rows, total_rows;
  int64_t groups = 1;      // channel chunks done one after the other (cv is then 1: the chunks per pass)
  int64_t whole_rows = 0;  // DM rows with every chunk of a pixel in one pass
};

DepthwiseShape depthwise_shape(const Params& p, const tasks::ResolvedConfig& cfg) {
  DepthwiseShape d{};
  d.h = cfg.dim("H");
  d.w = cfg.dim("W");
  d.c = cfg.dim("C");
  d.kh = cfg.dim("KH");
  d.kw = cfg.dim("KW");
  d.stride = cfg.dim("STRIDE");
  d.pad = cfg.dim("PAD");
  d.oh = (d.h + 2 * d.pad - d.kh) / d.stride + 1;
  d.ow = (d.w + 2 * d.pad - d.kw) / d.stride + 1;
  d.cv = d.c / static_cast<int64_t>(p.vlen);
  d.ring = d.kh + d.stride;
  const int64_t banks = p.dm_banks;
  auto round_up = [&](int64_t rows) { return (rows + banks - 1) / banks * banks; };
  auto rows = [&] {
    d.slot_rows = round_up((d.w + 2 * d.pad) * d.cv);
    d.w_rows = round_up(d.kh * d.kw * d.cv);
    d.out_rows = round_up(d.ow * d.cv);
    d.total_rows = d.w_rows + d.ring * d.slot_rows + 2 * d.out_rows;
  };
  rows();
  d.whole_rows = d.total_rows;
  if (d.total_rows * p.row_bytes() > p.dm_bytes && d.cv > 1) {  // one chunk of channels per pass
    d.groups = d.cv;
    d.cv = 1;
    rows();
  }
  return d;
}

GeneratedKernel depthwise(Ctx& c, const KnobValues& values, const std::vector<Knob>& knobs) {
  KernelBuilder& k = c.k;
  const DepthwiseShape d = depthwise_shape(c.p, c.cfg);
  if (d.total_rows > c.dm_rows) throw std::invalid_argument("the depthwise ring does not fit DM");
  if (d.cv > 8) throw std::invalid_argument("depthwise: more channel chunks than accumulators");
  const int64_t rb = c.rb, w_base = 0, ring_base = d.w_rows, out0 = ring_base + d.ring * d.slot_rows,
                out1 = out0 + d.out_rows;
  const int64_t parts = d.cv <= 2 && d.kh * d.kw >= 2 ? 2 : 1;  // partial sums per chunk (A_VMAC latency 3)
  const int64_t sets = 2 * d.cv * parts <= 8 ? 2 : 1;           // accumulator sets for consecutive pixels
  int64_t unit_period = c.banks;                                // pixels after which the x rows' banks repeat
  for (int64_t g = 1; g <= c.banks; g *= 2) {
    if ((g * d.stride * d.cv) % c.banks == 0) {
      unit_period = g;
      break;
    }
  }
  const int64_t unroll = std::max<int64_t>(sets, std::clamp<int64_t>(knob(values, knobs, "unroll"), 1, 8));
  const bool banks_known = unroll % unit_period == 0 && unroll % sets == 0;
  GeneratedKernel out;
  out.knobs = {{"unroll", unroll}};
  out.summary = fmt::format(
      "input rows through a ring of {} DM slots (each read once; zero padding in DM), output rows "
      "double-buffered; per pixel and chunk {} A_VMACs, {} pixels per loop iteration",
      d.ring, d.kh * d.kw, unroll);
  const bool grouped = d.groups > 1;
  if (grouped)
    out.summary += fmt::format(
        "; {} passes over the image, one chunk of {} channels each (the whole pixels' ring needs {} bytes of "
        "DM)",
        d.groups, c.vlen, d.whole_rows * rb);
  const int64_t row_bytes_dram = d.w * d.c * 2;
  k.comment(fmt::format("DM rows: w {}, ring {} ({} slots of {}), output {}/{}", w_base, ring_base, d.ring,
                        d.slot_rows, out0, out1));
  // zero the ring (padding and the rows outside the image)
  auto zero_ring = [&] {
    k.op("V_BCST v0, r0");
    k.li(12, ring_base * rb);
    k.op("S_PMOV p0, r12");
    k.loop(d.ring * d.slot_rows, [&] { k.op(fmt::format("L_VST v0, p0, {}", rb), {{}, {kRes}, -1}); });
  };
  // the filter taps (of this pass's chunk: DRAM address in r12, rows C * 2 apart)
  auto load_w = [&] {
    k.li(13, w_base * rb);
    k.li(14, d.kh * d.kw * d.cv);
    k.op(fmt::format("C_DMALD {}, r13, r12, r7, r14, 15", c.ch(1)));
    k.op("C_ACQ 15", {{}, {kGamma}});
  };
  if (grouped) {
    k.comment("r7: the DRAM stride of a chunk's pixels (C * 2); p5: this pass's chunk of w in DRAM");
    k.li(7, d.c * 2);
    k.li(12, c.addr("w"), c.sym("w"));
    k.op("S_PMOV p5, r12");
  } else {
    zero_ring();
    k.li(12, c.addr("w"), c.sym("w"));
    k.li(13, w_base * rb);
    k.li(7, rb);
    k.li(14, d.kh * d.kw * d.cv);
    k.op(fmt::format("C_DMALD {}, r13, r12, r7, r14, 15", c.ch(1)));
    k.op("C_ACQ 15", {{}, {kGamma}});
  }
  k.comment("r1 next image row in DRAM, r2 next output row, r3 (oh * STRIDE) mod R, r4 next slot to fill,");
  k.comment("r5 output buffer, r6 its swap mask, r7 ROW_BYTES, r8 DM rows per image row, r9 per output row");
  k.li(1, c.addr("x"), c.sym("x"));
  k.li(2, c.addr("y"), c.sym("y"));
  if (!grouped) {
    k.li(3, 0);
    k.li(4, 0);
  }
  k.li(5, out0 * rb);
  k.li(6, (out0 ^ out1) * rb);
  k.li(8, d.w * d.cv);
  k.li(9, d.ow * d.cv);
  k.op("C_REL 2");
  k.op("C_REL 2");
  auto wrap = [&](int reg) {  // reg (< 2R) mod R
    k.li(12, d.ring - 1);
    k.op(fmt::format("S_SUB r12, r12, {}", R(reg)));
    k.op("S_SRLI r12, r12, 31");
    k.li(13, d.ring);
    k.op("S_MUL r12, r12, r13");
    k.op(fmt::format("S_SUB {}, {}, r12", R(reg), R(reg)));
  };
  auto slot_addr = [&](int reg, int to) {  // r<to> = DM address of slot r<reg>'s first image pixel
    k.li(13, d.slot_rows * rb);
    k.op(fmt::format("S_MUL {}, {}, r13", R(to), R(reg)));
    k.li(13, (ring_base + d.pad * d.cv) * rb);
    k.op(fmt::format("S_ADD {}, {}, r13", R(to), R(to)));
  };
  // Fills slot r4 with the next image row (DMA, lock 0) or zeros (below the image), then advances r4.
  auto fill = [&](bool valid) {
    slot_addr(4, 10);
    if (valid) {
      k.op("C_DMALD 0, r10, r1, r7, r8, 0", {{}, {kRes}, -1});
      c.add(1, row_bytes_dram, 14);
    } else {
      k.op("S_PMOV p0, r10");
      k.loop(d.w * d.cv, [&] { k.op(fmt::format("L_VST v0, p0, {}", rb), {{}, {kRes}, -1}); });
    }
    k.op("S_ADDI r4, r4, 1");
    wrap(4);
  };
  // rows q = r + PAD of the ring order; row r valid when 0 <= r < H
  auto valid_row = [&](int64_t q) { return q - d.pad >= 0 && q - d.pad < d.h; };
  auto needed = [&](int64_t oh) {  // image rows loaded for windows 0..oh
    return std::clamp<int64_t>(oh * d.stride + d.kh - d.pad, 0, d.h);
  };
  // Prologue: window 0's rows (those above the image are the ring's zeros: their slots are first used
  // for them); fill-order position q starts at PAD for the image's first row.
  auto prologue = [&] {
    for (int64_t q = 0; q < d.kh; ++q) {
      if (valid_row(q)) {
        fill(true);
      } else {
        k.op("S_ADDI r4, r4, 1");
        wrap(4);
      }
    }
  };
  if (!grouped) prologue();
  struct Sig {
    int64_t acquire, loads, zeros;
    bool operator==(const Sig& o) const {
      return acquire == o.acquire && loads == o.loads && zeros == o.zeros;
    }
  };
  auto sig = [&](int64_t oh) {
    Sig g{needed(oh) - (oh > 0 ? needed(oh - 1) : 0), 0, 0};
    if (oh + 1 < d.oh) {
      for (int64_t q = oh * d.stride + d.kh; q < (oh + 1) * d.stride + d.kh; ++q) {
        if (valid_row(q)) {
          ++g.loads;
        } else if (q >= d.h + d.pad) {
          ++g.zeros;
        } else {  // above the image: a zero slot already
          ++g.zeros;
        }
      }
    }
    return g;
  };
  auto row = [&](const Sig& g) {
    for (int64_t i = 0; i < g.acquire; ++i) k.op("C_ACQ 0", {{}, {kRes}});
    for (int64_t i = 0; i < g.loads; ++i) fill(true);
    for (int64_t i = 0; i < g.zeros; ++i) fill(false);
    k.op("C_ACQ 2", {{}, {kOutStage}});
    k.op("S_PMOV p7, r5");
    k.li(11, w_base * rb);
    k.op("S_PMOV p6, r11");
    for (int64_t i = 0; i < d.kh; ++i) {
      k.op(fmt::format("S_ADDI r11, r3, {}", i));
      wrap(11);
      slot_addr(11, 11);
      k.li(13, d.pad * d.cv * rb);
      k.op("S_SUB r11, r11, r13");  // the slot's first (padding) pixel
      k.op(fmt::format("S_PMOV {}, r11", P(i)));
    }
    const int64_t taps = d.kh * d.kw * d.cv;
    pipeline(k, d.ow, 2, unroll, [&](int stage, int64_t u) {
      const int64_t set = u % sets, abase = set * d.cv * parts;
      if (stage == 0) {
        int64_t t = 0;
        for (int64_t i = 0; i < d.kh; ++i) {
          for (int64_t j = 0; j < d.kw; ++j) {
            for (int64_t cc = 0; cc < d.cv; ++cc, ++t) {
              const bool last_of_row = j + 1 == d.kw && cc + 1 == d.cv;
              const int64_t xinc = last_of_row ? (d.stride * d.cv - d.kw * d.cv + 1) * rb : rb;
              const int64_t winc = t + 1 == taps ? -(taps - 1) * rb : rb;
              const int64_t xv = 1 + t % 6, wv = 7 + t % 6;
              const int xbank =
                  banks_known ? static_cast<int>(((u * d.stride + j) * d.cv + cc) % c.banks) : -1;
              k.op(fmt::format("L_VLD {}, {}, {}", V(xv), P(i), xinc), {{kRes}, {}, xbank});
              k.op(fmt::format("L_VLD {}, p6, {}", V(wv), winc),
                   {{kGamma}, {}, static_cast<int>((w_base + t) % c.banks)});
              const int64_t part = parts == 2 ? (i * d.kw + j) % 2 : 0;
              const int64_t acc = abase + part * d.cv + cc;
              const bool first = i * d.kw + j < parts;
              k.op(fmt::format("{} {}, {}, {}", first ? "A_VMUL" : "A_VMAC", A(acc), V(xv), V(wv)));
            }
          }
        }
      } else {
        for (int64_t cc = 0; cc < d.cv; ++cc) {
          const int64_t acc = abase + cc;
          if (parts == 2) k.op(fmt::format("A_ADD {}, {}, {}", A(acc), A(acc), A(acc + d.cv)));
          k.op(fmt::format("V_SRS {}, {}", V(13 + cc % 3), A(acc)));
          k.op(fmt::format("L_VST {}, p7, {}", V(13 + cc % 3), rb), {{}, {kOutStage}, -1});
        }
      }
    });
    k.op("C_DMAST 1, r5, r2, r7, r9, 2", {{kOutStage}, {}, -1});
    c.add(2, d.ow * d.c * 2, 14);
    k.op("S_XOR r5, r5, r6");
    k.op(fmt::format("S_ADDI r3, r3, {}", d.stride));
    wrap(3);
  };
  auto image = [&] {
    for (int64_t oh = 0; oh < d.oh;) {
      const Sig g = sig(oh);
      int64_t run = 1;
      while (oh + run < d.oh && sig(oh + run) == g) ++run;
      k.loop(run, [&] { row(g); });
      oh += run;
    }
  };
  if (grouped) {
    k.loop(d.groups, [&] {
      k.comment("a pass: the ring zeroed, this chunk's taps, then the image (r1, r2 at the chunk's pixels)");
      zero_ring();
      k.op("S_PGET r12, p5");
      load_w();
      k.op(fmt::format("S_PADDI p5, {}", rb));
      k.li(3, 0);
      k.li(4, 0);
      prologue();
      image();
      c.add(1, rb - d.h * row_bytes_dram, 14);
      c.add(2, rb - d.oh * d.ow * d.c * 2, 14);
    });
  } else {
    image();
  }
  k.op("C_HALT", {{}, {}, -1, true});
  return out;
}

// ---------------------------------------------------------------- level 3: composite blocks
//
// The level-3 blocks are sequences of the templates above, each reading and writing DRAM regions at byte
// offsets, with every intermediate in the scratch region (docs/vliw.md "Composite baselines" lists where).
// Each step waits for its own stores before the next one starts, and DM holds nothing across steps. A
// phase starts with begin_phase: when the layout has a region phase_<name>, one DMA store of a DM row to it
// (waited for) marks the phase for the DRAM model's cycle attribution.
void begin_phase(Ctx& c, const std::string& name) {
  c.k.comment("phase " + name);
  const std::string region = tasks::phase_region_name(name);
  if (c.layout.find(region) == nullptr) return;
  c.li_addr(13, region);
  c.k.li(14, 1);
  // waited for (lock 12): a DMA store reaches DRAM when the engine gets to it, which may be late in a
  // load-heavy phase, and the mark must be timed at the phase's start
  c.k.op("C_DMAST 0, r0, r13, r0, r14, 12", {{}, {}, -1, true});
  c.k.op("C_ACQ 12", {{}, {}, -1, true});
}

// y = max(c * scale[f] + shift[f] (+ x), 0) over [pixels, F] rows: batch-norm (inference), the optional
// residual and ReLU in FP32 with one rounding. The tensor streams through DM in tiles of whole pixels;
// scale and shift (F/VLEN rows each) stay in DM; the residual x is the stream's pair.
struct ChannelAffineJob {
  int64_t pixels = 0, f = 0;
  std::string in, out, scale = "scale", shift = "shift", residual;  // residual "": none
  int64_t in_offset = 0;
  bool last = true;      // false: wait for the stores at the end
  bool compact = false;  // stream_compact (needs last = false)
};

GeneratedKernel channel_affine_relu(Ctx& c, const ChannelAffineJob& job) {
  KernelBuilder& k = c.k;
  const int64_t fv = job.f / c.vlen, rb = c.rb;
  const bool residual = !job.residual.empty();
  auto round_up = [&](int64_t rows) { return (rows + c.banks - 1) / c.banks * c.banks; };
  const int64_t scale_row = 0, shift_row = round_up(fv), base = round_up(shift_row + fv);
  const int64_t buffers = 2;
  const int64_t room = (c.dm_rows - base) / buffers / (residual ? 2 : 1) / fv;
  if (room < 1) throw std::invalid_argument("channel affine: a pixel does not fit DM");
  const int64_t pixels = divisor_at_most(job.pixels, std::min<int64_t>(room, 64));
  const int64_t tile = pixels * fv;
  const int64_t unroll = fv * std::max<int64_t>(1, 4 / fv);
  GeneratedKernel out;
  out.summary = fmt::format(
      "{} tiles of {} pixels through 2 DM buffers; per row c * scale + shift{} in FP32, ReLU on the BF16 "
      "result; scale and shift resident in DM",
      job.pixels / pixels, pixels, residual ? " + x" : "");
  k.comment(fmt::format("scale and shift in DM rows {} and {}; v0 = +0.0", scale_row, shift_row));
  k.op("V_BCST v0, r0");
  k.li(11, rb);
  k.li(14, fv);
  c.li_addr(13, job.scale);
  k.li(12, scale_row * rb);
  k.op(fmt::format("C_DMALD {}, r12, r13, r11, r14, 15", c.ch(2)));
  c.li_addr(13, job.shift);
  k.li(12, shift_row * rb);
  k.op(fmt::format("C_DMALD {}, r12, r13, r11, r14, 15", c.ch(2)));
  k.op("C_ACQ 15", {{}, {kGamma}});
  k.op("C_ACQ 15", {{}, {kGamma}});
  Stream s;
  s.tiles = job.pixels / pixels;
  s.tile_rows = tile;
  s.buffers = buffers;
  s.base_row = base;
  s.in_offset = job.in_offset;
  s.fence_lock = job.last ? -1 : 14;
  s.compact = job.compact;
  if (residual) {
    s.paired = true;
    s.pair_offset = c.addr(job.residual) - c.addr(job.in) - job.in_offset;
  }
  stream(c, s, job.in, job.out, [&](int64_t b) {
    const int acq = static_cast<int>(kAcqBase + b), st = static_cast<int>(kOutBase + b);
    k.op(fmt::format("S_PMOV p0, {}", R(5 + b)));
    k.op(fmt::format("S_PMOV p1, {}", R(5 + b)));
    if (residual) {
      k.li(12, tile * rb);
      k.op(fmt::format("S_ADD r12, {}, r12", R(5 + b)));
      k.op("S_PMOV p4, r12");
    }
    k.li(12, scale_row * rb);
    k.op("S_PMOV p2, r12");
    k.li(12, shift_row * rb);
    k.op("S_PMOV p3, r12");
    pipeline(k, tile, 3, unroll, [&](int stage, int64_t u) {
      const int64_t set = u % 2, x = 1 + 5 * set, sc = x + 1, sh = x + 2, res = x + 3, y = x + 4;
      const int64_t t = 2 * set, w = 2 * set + 1;
      const int64_t tinc = (u % fv == fv - 1 ? 1 - fv : 1) * rb;
      if (stage == 0) {
        k.op(fmt::format("L_VLD {}, p0, {}", V(x), rb), {{acq}, {}, -1});
        k.op(fmt::format("L_VLD {}, p2, {}", V(sc), tinc), {{kGamma}, {}, -1});
        k.op(fmt::format("L_VLD {}, p3, {}", V(sh), tinc), {{kGamma}, {}, -1});
        if (residual) k.op(fmt::format("L_VLD {}, p4, {}", V(res), rb), {{acq}, {}, -1});
      } else if (stage == 1) {
        k.op(fmt::format("A_VMUL {}, {}, {}", A(t), V(x), V(sc)));  // exact
        k.op(fmt::format("A_UPS {}, {}", A(w), V(sh)));
        k.op(fmt::format("A_ADD {}, {}, {}", A(t), A(t), A(w)));
        if (residual) {
          k.op(fmt::format("A_UPS {}, {}", A(w), V(res)));
          k.op(fmt::format("A_ADD {}, {}, {}", A(t), A(t), A(w)));
        }
        k.op(fmt::format("V_SRS {}, {}", V(y), A(t)));
        k.op(fmt::format("V_MAX {}, {}, v0", V(y), V(y)));
      } else {
        k.op(fmt::format("L_VST {}, p1, {}", V(y), rb), {{}, {st}, -1});
      }
    });
  });
  if (job.last) k.op("C_HALT", {{}, {}, -1, true});
  return out;
}

GeneratedKernel conv_block(Ctx& c, const KnobValues& values, const std::vector<Knob>& knobs) {
  const ConvShape d = conv_shape(c.cfg);
  const bool residual = c.cfg.dim("RESIDUAL") != 0;
  if (residual && (d.f != d.c || d.oh != d.h || d.ow != d.w))
    throw std::invalid_argument("conv_block: RESIDUAL = 1 needs F = C and an output the size of the input");
  const int64_t c_offset = d.m * d.k * 2;  // scratch: the im2col matrix, then c
  begin_phase(c, "conv");
  ConvJob conv;
  conv.out = "scratch";
  conv.out_offset = c_offset;
  conv.last = false;
  GeneratedKernel out = conv2d(c, conv, values, knobs);
  begin_phase(c, "batch_norm_relu");
  ChannelAffineJob bn;
  bn.pixels = d.m;
  bn.f = d.f;
  bn.in = "scratch";
  bn.in_offset = c_offset;
  bn.out = "y";
  if (residual) bn.residual = "x";
  bn.last = false;
  bn.compact = true;  // less code: the small tile's IMEM holds C4 and C5 then
  const GeneratedKernel a = channel_affine_relu(c, bn);
  c.k.op("C_HALT", {{}, {}, -1, true});
  out.summary = fmt::format("phase conv: {}; the product into scratch (c); phase batch_norm_relu: {}",
                            out.summary, a.summary);
  return out;
}

// Where a decoder block's intermediates live: byte offsets into the scratch region.
struct DecoderScratch {
  int64_t h = 0, x2 = 0, n2 = 0, q = 0, k = 0, v = 0, a = 0, scores = 0, ffn = 0, end = 0;
};

DecoderScratch decoder_scratch(const tasks::ResolvedConfig& cfg) {
  const int64_t s = cfg.dim("S"), d = cfg.dim("D"), heads = cfg.dim("HEADS"), dh = cfg.dim("DH");
  const bool llama = cfg.task == "decoder_block_llama";
  const int64_t kv = llama ? cfg.dim("KV_HEADS") : heads, f = cfg.dim("F");
  DecoderScratch o;
  int64_t at = 0;
  auto take = [&](int64_t bytes) {
    const int64_t r = at;
    at += bytes;
    return r;
  };
  o.h = take(s * d * 2);
  o.x2 = take(s * d * 2);
  o.n2 = take(s * d * 2);
  o.q = take(s * heads * dh * 2);  // q, k, v head-major and adjacent: one loop of projections, one RoPE
  o.k = take(s * kv * dh * 2);
  o.v = take(s * kv * dh * 2);
  o.a = take(s * heads * dh * 2);  // token-major [S, HEADS*DH], the output projection's A
  o.scores = take(s * s * 2);
  o.ffn = take((llama ? 2 : 1) * s * f * 2);  // LLaMA: g then u; T5: the hidden tensor
  o.end = at;
  return o;
}

GeneratedKernel decoder_block(Ctx& c, const KnobValues& values, const std::vector<Knob>& knobs) {
  KernelBuilder& k = c.k;
  const tasks::ResolvedConfig& cfg = c.cfg;
  const bool llama = cfg.task == "decoder_block_llama";
  const int64_t s = cfg.dim("S"), d = cfg.dim("D"), heads = cfg.dim("HEADS"), dh = cfg.dim("DH");
  const int64_t kv = llama ? cfg.dim("KV_HEADS") : heads, f = cfg.dim("F");
  const DecoderScratch at = decoder_scratch(cfg);
  if (static_cast<uint64_t>(at.end) > c.layout.region("scratch").bytes)
    throw std::logic_error("decoder block: the intermediates exceed the scratch region");
  const int64_t scratch = c.addr("scratch");
  const std::vector<Knob> rknobs = rowwise_knobs(), eknobs = stream_knobs();
  std::vector<std::string> parts;
  GeneratedKernel out;
  int64_t norm_unroll = 0;
  const KnobValues act_values = {{"unroll", knob(values, knobs, "act_unroll")}};
  auto norm = [&](const std::string& in, int64_t in_offset, int64_t out_offset, const std::string& gamma) {
    RowJob job;
    job.op = "rms_norm";
    job.m = s;
    job.n = d;
    job.in = in;
    job.in_offset = in_offset;
    job.out = "scratch";
    job.out_offset = out_offset;
    job.gamma = gamma;
    job.eps = cfg.param("eps");
    job.last = false;
    job.compact = true;
    const GeneratedKernel g = rowwise(c, job, {{"unroll", knob(values, knobs, "norm_unroll")}}, rknobs);
    norm_unroll = g.knobs.at("unroll");
    return g.summary;
  };
  // dst += the region `src` (same shape, `rows` DM rows)
  auto residual = [&](const std::string& dst, int64_t dst_offset, int64_t src_address, int64_t rows) {
    EltJob job;
    job.op = "add";
    job.compact = true;
    job.rows = rows;
    job.in = job.out = dst;
    job.in_offset = job.out_offset = dst_offset;
    job.pair_offset = src_address - c.addr(dst) - dst_offset;
    job.last = false;
    elementwise(c, job, act_values, eknobs);
  };
  auto linear = [&](const std::string& a, int64_t a_offset, const std::string& w, int64_t m, int64_t kk,
                    int64_t n, const std::string& dst, int64_t dst_offset) {
    MatJob job;
    job.weights_nk = true;
    job.m = m;
    job.k = kk;
    job.n = n;
    job.a = a;
    job.a_offset = a_offset;
    job.b = w;
    job.c = dst;
    job.c_offset = dst_offset;
    job.last = false;
    out = matmul(c, job, values, knobs);
    return out.summary;
  };

  // `count` products h W_i^T [m, n] from the A rows at a_offset into scratch (from c_offset on), W_i and
  // C_i consecutive from w on: one copy of the code in a hardware loop, the DRAM bases in DM words.
  auto looped_linear = [&](const std::string& a, int64_t a_offset, const std::string& w, int64_t m,
                           int64_t kk, int64_t n, int64_t c_offset, int64_t count) {
    c.dm_rows -= 1;
    const int64_t state = c.dm_rows * c.rb;
    k.comment(fmt::format("{} products; DM words at {}: the product's W and output in DRAM", count, state));
    k.li(12, state);
    k.op("S_PMOV p4, r12");
    c.li_addr(12, w);
    k.op("L_SST r12, p4, 4", {{}, {kState}, -1});
    k.li(12, scratch + c_offset);
    k.op("L_SST r12, p4, 0", {{}, {kState}, -1});
    MatJob job;
    job.weights_nk = true;
    job.m = m;
    job.k = kk;
    job.n = n;
    job.a = a;
    job.a_offset = a_offset;
    job.b = w;
    job.c = "scratch";
    job.b_word = state;
    job.c_word = state + 4;
    // The loop takes a level: one strip per panel, unless every strip fits one panel (no panel loop then),
    // which builds A's tiles once per product instead of once per strip.
    const int64_t strips = n / c.vlen;
    const MatPlan plan = matmul_plan(c.p, job, knob(values, knobs, "m_tiles"));
    const bool one_panel = plan.pieces == 1 && knob(values, knobs, "strips") >= strips &&
                           matmul_dm_rows(c.p, job, plan.tm, strips, plan.chunks) <= c.dm_rows;
    job.max_strips = one_panel ? strips : 1;
    job.last = false;
    std::string summary;
    k.loop(count, [&] {
      out = matmul(c, job, values, knobs);
      summary = out.summary;
      k.li(12, state);
      k.op("S_PMOV p4, r12");
      k.op("L_SLD r1, p4, 4", {{kState}, {}, -1});
      k.op("L_SLD r2, p4, -4", {{kState}, {}, -1});
      c.add(1, n * kk * 2, 13);
      c.add(2, m * n * 2, 13);
      k.op("L_SST r1, p4, 4", {{}, {kState}, -1});
      k.op("L_SST r2, p4, 0", {{}, {kState}, -1});
    });
    c.dm_rows += 1;
    return summary;
  };

  begin_phase(c, "attn_norm");
  k.comment("h = rms_norm(x, g_attn) into scratch");
  parts.push_back("h = rms_norm(x) (" + norm("x", 0, at.h, "g_attn") + ")");

  begin_phase(c, "qkv");
  // Wq, Wk, Wv are adjacent in DRAM (declaration order, sizes multiples of the alignment) and so are q, k, v
  // in scratch: one loop of HEADS + 2 KV_HEADS head projections, each h W_head^T [S, DH].
  if (c.addr("Wk") != c.addr("Wq") + heads * dh * d * 2 || c.addr("Wv") != c.addr("Wk") + kv * dh * d * 2)
    throw std::logic_error("decoder block: Wq, Wk, Wv are not adjacent in DRAM");
  parts.push_back(fmt::format("q, k, v head-major by {} head projections h W_head^T ({})", heads + 2 * kv,
                              looped_linear("scratch", at.h, "Wq", s, d, dh, at.q, heads + 2 * kv)));

  if (llama) {
    begin_phase(c, "rope");
    k.comment("RoPE on q and k in place (adjacent: HEADS + KV_HEADS heads)");
    RopeJob rj;
    rj.heads = heads + kv;
    rj.seq = s;
    rj.d = dh;
    rj.in = rj.out = "scratch";
    rj.in_offset = rj.out_offset = at.q;
    rj.last = false;
    rj.compact = true;
    parts.push_back(
        "RoPE (" + rope(c, rj, {{"unroll", knob(values, knobs, "norm_unroll")}}, rope_knobs()).summary + ")");
  }

  begin_phase(c, "attention");
  AttnJob aj;
  aj.heads = heads;
  aj.kv_heads = kv;
  aj.seq = s;
  aj.d = dh;
  aj.causal = true;
  aj.scale = llama ? cfg.param("scale") : 1.0;
  aj.q = aj.k = aj.v = aj.o = aj.scores = "scratch";
  aj.q_offset = at.q;
  aj.k_offset = at.k;
  aj.v_offset = at.v;
  aj.o_offset = at.a;
  aj.scores_offset = at.scores;
  aj.o_ldc = heads * dh * 2;
  if (!llama) {
    aj.pos_bias = "bias";
    aj.bmat = "scratch";
    aj.bmat_offset = at.ffn;  // the FFN's hidden tensor is free until the FFN
    aj.num_buckets = static_cast<int64_t>(cfg.param("num_buckets"));
    aj.max_distance = static_cast<int64_t>(cfg.param("max_distance"));
    if (s * s * 2 + 4 * s > s * f * 2)
      throw std::invalid_argument("decoder_block_t5: the bias matrix does not fit the FFN's hidden tensor");
  }
  aj.last = false;
  aj.compact = true;
  const GeneratedKernel attn = attention(c, aj, values, knobs);
  parts.push_back("attention into scratch, token-major (" + attn.summary + ")");

  begin_phase(c, "out_proj");
  k.comment("x2 = a Wo^T + x");
  linear("scratch", at.a, "Wo", s, heads * dh, d, "scratch", at.x2);
  residual("scratch", at.x2, c.addr("x"), s * d / c.vlen);
  parts.push_back("x2 = a Wo^T, + x");

  begin_phase(c, "ffn_norm");
  k.comment("n2 = rms_norm(x2, g_ffn)");
  norm("scratch", at.x2, at.n2, "g_ffn");

  begin_phase(c, "ffn");
  int64_t act_unroll = 0;
  if (llama) {
    k.comment("g = n2 Wg^T, u = n2 Wu^T, h = silu(g) * u in place of g, y = h Wd^T + x2");
    if (c.addr("Wu") != c.addr("Wg") + f * d * 2)
      throw std::logic_error("decoder_block_llama: Wg and Wu are not adjacent in DRAM");
    looped_linear("scratch", at.n2, "Wg", s, d, f, at.ffn, 2);  // g then u
    EltJob act;
    act.op = "swiglu";
    act.rows = s * f / c.vlen;
    act.in = act.out = "scratch";
    act.in_offset = act.out_offset = at.ffn;
    act.pair_offset = s * f * 2;
    act.last = false;
    act.compact = true;
    act_unroll =
        elementwise(c, act, {{"unroll", knob(values, knobs, "act_unroll")}}, eknobs).knobs.at("unroll");
    linear("scratch", at.ffn, "Wd", s, f, d, "y", 0);
    parts.push_back("SwiGLU: g, u, silu(g) * u, h Wd^T, + x2");
  } else {
    k.comment("t = relu(n2 Wi^T) in place, y = t Wo_ff^T + x2");
    linear("scratch", at.n2, "Wi", s, d, f, "scratch", at.ffn);
    EltJob act;
    act.op = "relu";
    act.rows = s * f / c.vlen;
    act.in = act.out = "scratch";
    act.in_offset = act.out_offset = at.ffn;
    act.last = false;
    act.compact = true;
    act_unroll =
        elementwise(c, act, {{"unroll", knob(values, knobs, "act_unroll")}}, eknobs).knobs.at("unroll");
    linear("scratch", at.ffn, "Wo_ff", s, f, d, "y", 0);
    parts.push_back("ReLU FFN: relu(n2 Wi^T), t Wo_ff^T, + x2");
  }
  residual("y", 0, scratch + at.x2, s * d / c.vlen);
  k.op("C_HALT", {{}, {}, -1, true});
  std::string summary;
  for (const auto& p : parts) summary += (summary.empty() ? "" : "; ") + p;
  out.summary = summary + "; products: " + out.summary;
  out.knobs["softmax_unroll"] = attn.knobs.at("softmax_unroll");
  // the products' requested A-block tiles (the last product's may be fewer, for DM), so that giving way
  // for IMEM halves them for every product
  out.knobs["m_tiles"] = matmul_m_tiles(c.p, knob(values, knobs, "m_tiles"));
  out.knobs["act_unroll"] = act_unroll;
  out.knobs["norm_unroll"] = norm_unroll;
  return out;
}

}  // namespace

std::string vector_dims_reason(const tasks::ResolvedConfig& cfg, int64_t vlen) {
  // Counts (batch, heads, image height and width, kernel taps, stride, padding, the causal flag) index
  // rows or whole tensors; every other dimension runs along DM rows and must fill whole vectors.
  static const std::set<std::string> counts = {"BATCH", "HEADS", "KV_HEADS", "CAUSAL", "H",       "W",
                                               "KH",    "KW",    "STRIDE",   "PAD",    "RESIDUAL"};
  for (const auto& [name, value] : cfg.dims) {
    if (counts.count(name) == 0 && value % vlen != 0)
      return fmt::format("dimension {}={} is not a multiple of the vector width VLEN={}", name, value, vlen);
  }
  return "";
}

std::vector<std::string> TemplateCompiler::supported_tasks() const {
  return {"relu",
          "silu",
          "gelu",
          "softmax",
          "rms_norm",
          "layer_norm",
          "gemv",
          "gemm",
          "batch_matmul",
          "linear",
          "ffn",
          "swiglu",
          "attention",
          "mha",
          "gqa",
          "mqa",
          "rope",
          "depthwise_conv",
          "conv2d",
          "flash_attention",
          "conv_block",
          "decoder_block_llama",
          "decoder_block_t5"};
}

std::string TemplateCompiler::unsupported_reason(const tasks::ResolvedConfig& cfg) const {
  if (!supports(cfg.task)) return "no template for task " + cfg.task;
  const int64_t vlen = p_.vlen;
  if (auto why = vector_dims_reason(cfg, vlen); !why.empty()) return why;
  if (cfg.task == "flash_attention") return flash_reason(p_, cfg);
  // The matrix products: one B^T strip, the A^T tiles and the double-buffered raw blocks must fit DM.
  std::vector<MatJob> products;
  auto product = [&](bool nk, bool bias, int64_t m, int64_t k, int64_t n) {
    MatJob j;
    j.weights_nk = nk;
    j.m = m;
    j.k = k;
    j.n = n;
    if (bias) j.bias = "b";
    products.push_back(j);
  };
  const std::string& t = cfg.task;
  if (t == "gemm" || t == "batch_matmul") product(false, false, cfg.dim("M"), cfg.dim("K"), cfg.dim("N"));
  if (t == "linear") product(true, true, cfg.dim("M"), cfg.dim("K"), cfg.dim("N"));
  if (t == "ffn" || t == "swiglu") {
    product(true, t == "ffn", cfg.dim("M"), cfg.dim("D"), cfg.dim("F"));
    product(true, t == "ffn", cfg.dim("M"), cfg.dim("F"), cfg.dim("D"));
  }
  if (t == "attention" || t == "mha" || t == "gqa" || t == "mqa") {
    product(true, false, cfg.dim("S"), cfg.dim("D"), cfg.dim("S"));
    product(false, false, cfg.dim("S"), cfg.dim("S"), cfg.dim("D"));
  }
  if (t == "decoder_block_llama" || t == "decoder_block_t5") {
    const int64_t s = cfg.dim("S"), d = cfg.dim("D"), heads = cfg.dim("HEADS"), dh = cfg.dim("DH");
    const int64_t f = cfg.dim("F");
    if (t == "decoder_block_llama" && dh % (2 * vlen) != 0)
      return fmt::format("DH={} is not a multiple of 2*VLEN={} (RoPE's halves)", dh, 2 * vlen);
    product(true, false, s, d, dh);          // a head's q, k or v (DRAM bases in DM: K in one piece)
    product(true, false, s, dh, s);          // scores
    product(false, false, s, s, dh);         // P V
    product(true, false, s, heads * dh, d);  // out_proj
    product(true, false, s, d, f);
    product(true, false, s, f, d);
  }
  if (t == "conv2d" || t == "conv_block") {
    const ConvShape d = conv_shape(cfg);
    if (t == "conv_block" && cfg.dim("RESIDUAL") != 0 && (d.f != d.c || d.oh != d.h || d.ow != d.w))
      return "RESIDUAL = 1 needs F = C and an output the size of the input";
    if (d.m % p_.mmul_m() != 0)
      return fmt::format("OH*OW={} output pixels are not a multiple of MMUL_M={}", d.m, p_.mmul_m());
    if (d.c % vlen != 0) return fmt::format("C={} is not a multiple of VLEN={}", d.c, vlen);
    if (3 * d.ow * p_.row_bytes() > p_.dm_bytes / 4)
      return fmt::format("OW={} pixels: the im2col buffers would take more than a quarter of DM", d.ow);
    const int64_t bands = conv_bands(p_, d);
    if (bands == 0) products.push_back(conv_product(d));  // for the reason below
    if (bands > 1) {
      // the banded product with K in many pieces may exceed IMEM: only generating it tells
      try {
        generate_kernel(cfg, tasks::compute_layout(cfg, 64), {});
      } catch (const std::invalid_argument& e) {
        return fmt::format("the product in {} bands of output rows, K in pieces: {}", bands, e.what());
      }
    }
  }
  if (t == "depthwise_conv") {
    const DepthwiseShape d = depthwise_shape(p_, cfg);
    if (d.total_rows * p_.row_bytes() > p_.dm_bytes)
      return fmt::format(
          "a ring of {} image rows ({} bytes each with padding{}) and two output rows need {} bytes "
          "of DM; DM has {}",
          d.ring, d.slot_rows * p_.row_bytes(), d.groups > 1 ? ", one chunk of channels per pass" : "",
          d.total_rows * p_.row_bytes(), p_.dm_bytes);
    if (d.cv > 8) return fmt::format("C={} is more than 8 vectors of channels (the accumulators)", d.c);
  }
  // K may run in pieces (FP32 partial sums in DM), except in the attention products (per-head DRAM bases)
  // and a decoder block's first five (products in loops that read their DRAM bases from DM).
  const bool decoder = t == "decoder_block_llama" || t == "decoder_block_t5";
  for (size_t i = 0; i < products.size(); ++i) {
    const MatJob& j = products[i];
    const bool pieces_allowed =
        !(t == "attention" || t == "mha" || t == "gqa" || t == "mqa") && !(decoder && i < 5);
    const MatPlan plan = matmul_plan(p_, j, 1);
    if (plan.chunks == 0 || (plan.pieces > 1 && !pieces_allowed)) {
      const int64_t chunks = pieces_allowed ? 1 : j.k / vlen;
      return fmt::format(
          "a product with M={}, K={} needs {} bytes of DM for one strip of B^T tiles over {} of K, its "
          "double-buffered raw blocks{}; DM has {}",
          j.m, j.k, matmul_dm_rows(p_, j, 1, 1, chunks) * p_.row_bytes(), chunks * vlen,
          pieces_allowed ? fmt::format(" and the FP32 partial sums of M x VLEN outputs ({} bytes)",
                                       matmul_partial_rows(p_, j, 1) * p_.row_bytes())
                         : "",
          p_.dm_bytes);
    }
  }
  if (cfg.level >= 3) {
    // A composite's size (IMEM) and buffers (DM) are known once generated (~0.1 s: remembered per
    // configuration and machine, as `kcraft tasks` and the sweep plan ask for every cell).
    static std::mutex mutex;
    static std::map<std::string, std::string> reasons;
    std::string key = fmt::format("{} {} {} {} {} {} {}", cfg.task, p_.vlen, p_.imem_words, p_.dm_bytes,
                                  p_.dm_banks, p_.loop_depth, p_.dma_channels);
    for (const auto& [name, value] : cfg.dims) key += fmt::format(" {}={}", name, value);
    {
      const std::lock_guard<std::mutex> lock(mutex);
      if (auto it = reasons.find(key); it != reasons.end()) return it->second;
    }
    std::string why;
    try {
      generate_kernel(cfg, tasks::compute_layout(cfg, 64), {});
    } catch (const std::invalid_argument& e) {
      why = e.what();
    }
    const std::lock_guard<std::mutex> lock(mutex);
    reasons.emplace(key, why);
    return why;
  }
  return "";
}

std::vector<Knob> TemplateCompiler::knobs(const tasks::ResolvedConfig& cfg) const {
  const std::string& t = cfg.task;
  if (t == "relu" || t == "silu" || t == "gelu") return stream_knobs();
  if (t == "gemv") {
    return {{"tile_rows", "rows of A per DMA tile", 4, {1, 2, 4, 8, 16}},
            {"unroll", "chunks (VLEN elements) per loop iteration of a row's dot product", 8, {2, 4, 8, 16}},
            {"buffers", "DM tile buffers in flight (2: double buffering)", 2, {2, 3}}};
  }
  if (t == "softmax" || t == "rms_norm" || t == "layer_norm") return rowwise_knobs();
  if (t == "depthwise_conv")
    return {{"unroll",
             "output pixels per loop iteration (at least one period of the DM banks)",
             4,
             {1, 2, 4, 8}}};
  if (t == "rope") return rope_knobs();
  if (t == "attention" || t == "mha" || t == "gqa" || t == "mqa") {
    auto k = matmul_knobs();
    k.push_back({"softmax_unroll", "chunks per loop iteration of the softmax passes", 8, {2, 4, 8}});
    return k;
  }
  if (t == "batch_matmul") return matmul_knobs();
  if (t == "flash_attention") return flash_knobs();
  if (t == "gemm" || t == "linear" || t == "conv2d" || t == "conv_block") return matmul_knobs(true);
  if (t == "decoder_block_llama" || t == "decoder_block_t5") {
    auto k = matmul_knobs();
    k.push_back({"softmax_unroll", "chunks per loop iteration of the softmax passes", 8, {2, 4, 8}});
    k.push_back({"act_unroll",
                 "rows per loop iteration of the FFN activation's and the residual adds' loops",
                 8,
                 {2, 4, 8, 16}});
    k.push_back({"norm_unroll", "chunks per loop iteration of the RMSNorm passes and RoPE", 8, {2, 4, 8}});
    return k;
  }
  if (t == "ffn" || t == "swiglu") {
    auto k = matmul_knobs(true);
    k.push_back({"act_unroll",
                 "rows per loop iteration of the activation's software-pipelined loop",
                 8,
                 {2, 4, 8, 16}});
    return k;
  }
  throw std::invalid_argument("no template for task " + t);
}

GeneratedKernel TemplateCompiler::generate(const tasks::ResolvedConfig& cfg, const tasks::DramLayout& layout,
                                           const KnobValues& values) const {
  if (auto why = unsupported_reason(cfg); !why.empty())
    throw std::invalid_argument(fmt::format("{} {} on vliw: {}", cfg.task, cfg.config, why));
  return generate_kernel(cfg, layout, values);
}

GeneratedKernel TemplateCompiler::generate_kernel(const tasks::ResolvedConfig& cfg,
                                                  const tasks::DramLayout& layout,
                                                  const KnobValues& values) const {
  const auto all = knobs(cfg);
  // Knob values whose kernel does not fit IMEM_WORDS give way: pieces of K beyond what DM needs first,
  // then the activation's unroll (ffn, swiglu) and unroll halve, then the A-block tiles of the products, the
  // buffer count and the tile size.
  KnobValues v = values;
  for (const auto& k : all) v.emplace(k.name, k.baseline);
  const KnobValues start = v;
  KnobValues tried;  // the knobs of the last kernel that did not fit
  // The last resort is not a knob, but tests may ask for it: value "force_loop_pieces" (a kernel's own knob
  // line says loop_pieces=1, which, fed back as by the tuner, is ignored like compact_loops=1).
  bool loop_pieces = values.count("force_loop_pieces") != 0 && values.at("force_loop_pieces") != 0,
       compact = loop_pieces;
  for (;;) {
    Ctx c(p_, cfg, layout);
    c.k.set_compact_loops(compact);
    c.loop_pieces = loop_pieces;
    GeneratedKernel out;
    if (cfg.task == "relu" || cfg.task == "silu" || cfg.task == "gelu") {
      EltJob job;
      job.op = cfg.task;
      job.rows = cfg.dim("M") * cfg.dim("N") / p_.vlen;
      job.in = cfg.inputs[0].name;
      job.out = cfg.outputs[0].name;
      out = elementwise(c, job, v, all);
    } else if (cfg.task == "softmax" || cfg.task == "rms_norm" || cfg.task == "layer_norm") {
      RowJob job;
      job.op = cfg.task;
      job.m = cfg.dim("M");
      job.n = cfg.dim("N");
      job.in = "x";
      job.out = "y";
      if (cfg.task != "softmax") job.eps = cfg.param("eps");
      out = rowwise(c, job, v, all);
    } else if (cfg.task == "gemv") {
      out = gemv(c, v, all);
    } else if (cfg.task == "depthwise_conv") {
      out = depthwise(c, v, all);
    } else if (cfg.task == "conv2d") {
      out = conv2d(c, ConvJob{}, v, all);
    } else if (cfg.task == "conv_block") {
      out = conv_block(c, v, all);
    } else if (cfg.task == "decoder_block_llama" || cfg.task == "decoder_block_t5") {
      out = decoder_block(c, v, all);
    } else if (cfg.task == "rope") {
      RopeJob job;
      job.heads = cfg.dim("HEADS");
      job.seq = cfg.dim("S");
      job.d = cfg.dim("D");
      out = rope(c, job, v, all);
    } else if (cfg.task == "ffn" || cfg.task == "swiglu") {
      out = feed_forward(c, v, all);
    } else if (cfg.task == "attention" || cfg.task == "mha" || cfg.task == "gqa" || cfg.task == "mqa") {
      AttnJob job;
      const std::string& t = cfg.task;
      job.seq = cfg.dim("S");
      job.d = cfg.dim("D");
      job.causal = cfg.dim("CAUSAL") != 0;
      job.scale = cfg.param("scale");
      job.heads = t == "attention" ? 1 : cfg.dim("HEADS");
      job.kv_heads = t == "gqa" ? cfg.dim("KV_HEADS") : (t == "mha" ? job.heads : 1);
      out = attention(c, job, v, all);
    } else if (cfg.task == "flash_attention") {
      out = flash_attention(c, v, all);
    } else {
      MatJob job;
      job.weights_nk = cfg.task == "linear";
      job.m = cfg.dim("M");
      job.k = cfg.dim("K");
      job.n = cfg.dim("N");
      job.batch = cfg.task == "batch_matmul" ? cfg.dim("BATCH") : 1;
      job.a = job.weights_nk ? "x" : "A";
      job.b = job.weights_nk ? "W" : "B";
      job.c = job.weights_nk ? "y" : "C";
      if (cfg.task == "linear") job.bias = "b";
      out = matmul(c, job, v, all);
    }
    if (compact) out.knobs["compact_loops"] = 1;    // not a knob: the generator's last resort, shown
    if (loop_pieces) out.knobs["loop_pieces"] = 1;  // likewise, after compact loops
    size_t words = 0;
    const std::string body = c.k.text(p_.loop_depth, &words);
    if (words > p_.imem_words && out.knobs == tried)  // giving way changed nothing
      throw std::invalid_argument(fmt::format("{} {} on vliw: the kernel needs {} words, IMEM_WORDS is {}",
                                              cfg.task, cfg.config, words, p_.imem_words));
    if (words > p_.imem_words) {
      tried = out.knobs;
      const int64_t floor_unroll = out.knobs.count("strips") != 0 ? 2 : 1;  // the matrix products
      if (out.knobs.count("k_pieces") != 0 && v["k_pieces"] > 1) {  // pieces beyond what DM needs go first
        v["k_pieces"] = std::min(v["k_pieces"], out.knobs["k_pieces"]) - 1;
        continue;
      }
      if (out.knobs.count("act_unroll") != 0 && out.knobs["act_unroll"] > 2) {
        v["act_unroll"] = out.knobs["act_unroll"] / 2;
        continue;
      }
      if (out.knobs.count("norm_unroll") != 0 && out.knobs["norm_unroll"] > 2) {
        v["norm_unroll"] = out.knobs["norm_unroll"] / 2;
        continue;
      }
      if (out.knobs.count("softmax_unroll") != 0 && out.knobs["softmax_unroll"] > 2) {
        v["softmax_unroll"] = out.knobs["softmax_unroll"] / 2;
        continue;
      }
      if (out.knobs["unroll"] > floor_unroll) {
        v["unroll"] = out.knobs["unroll"] / 2;
        continue;
      }
      if (out.knobs.count("m_tiles") != 0 && out.knobs["m_tiles"] > 1) {  // fewer accumulators to handle
        v["m_tiles"] = out.knobs["m_tiles"] / 2;
        continue;
      }
      if (v.count("buffers") && out.knobs["buffers"] > 2) {
        v["buffers"] = out.knobs["buffers"] - 1;
        continue;
      }
      if (v.count("tile_rows") && out.knobs["tile_rows"] > 1) {
        v["tile_rows"] = out.knobs["tile_rows"] / 2;
        continue;
      }
      if (!compact && !loop_pieces) {
        // last: loops without software pipelining (slower, much less code), the knobs giving way again
        // from the start in the same order
        compact = true;
        v = start;
        tried.clear();
        continue;
      }
      if (!loop_pieces) {
        // and then the very last resort (Ctx::loop_pieces), first with software-pipelined loops again, then
        // compact
        loop_pieces = true;
        compact = false;
        v = start;
        tried.clear();
        continue;
      }
      if (!compact) {
        compact = true;
        v = start;
        tried.clear();
        continue;
      }
      throw std::invalid_argument(fmt::format("{} {} on vliw: the kernel needs {} words, IMEM_WORDS is {}",
                                              cfg.task, cfg.config, words, p_.imem_words));
    }
    std::string head =
        "; Generated by kcraft's template compiler for the vliw tile. The symbols ADDR_<TENSOR>, the task's\n"
        "; dimensions and the hardware parameters are predefined; bundles are packed by the compiler.\n";
    head += fmt::format("; {} {}: {}\n;", cfg.task, cfg.config, out.summary);
    for (const auto& [name, value] : out.knobs) head += fmt::format(" {}={}", name, value);
    out.source = head + "\n" + body;
    return out;
  }
}

}  // namespace kcraft::vliw
