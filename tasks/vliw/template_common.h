// The vliw template compiler's shared helpers, private to tasks/vliw/template_*.cpp: register names, knob
// lookup, the software pipeline, shuffle networks, the generation context (Ctx) and the row streams through
// DM buffers. Each template family is a file of its own (templates.h lists them); template_compiler.cpp
// dispatches to them.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "isa/vliw/vliw_machine.h"
#include "tasks/common/baseline_compiler.h"
#include "tasks/common/layout.h"
#include "tasks/common/task_spec.h"
#include "tasks/vliw/kernel_builder.h"

namespace kcraft::vliw::template_detail {

using tasks::GeneratedKernel;
using tasks::Knob;
using tasks::KnobValues;

// Register operands: v (vector), a (accumulator), r (scalar), p (pointer).
std::string V(int64_t i);
std::string A(int64_t i);
std::string R(int64_t i);
std::string P(int64_t i);

std::string upper(const std::string& s);

// Largest power of two <= want that divides n (at least 1).
int64_t pow2_divisor(int64_t n, int64_t want);

// Largest divisor of n that is <= want (at least 1).
int64_t divisor_at_most(int64_t n, int64_t want);

// The value of knob `name`: from `values`, else its baseline in `knobs`.
int64_t knob(const KnobValues& values, const std::vector<Knob>& knobs, const std::string& name);

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
              const std::function<void(int, int64_t)>& emit, int64_t peel = 0, int64_t compact_group = 0);

// Emits a shuffle network: `regs` holds the group (a register may appear twice), each level writes into the
// other of two register sets. Returns the registers holding the final group.
std::vector<int> emit_network(KernelBuilder& k, std::vector<int> regs,
                              const std::vector<ShuffleLevel>& levels, const std::vector<int>& set_a,
                              const std::vector<int>& set_b);

// A network and where each target ends up.
struct Network {
  std::vector<ShuffleLevel> levels;
  std::vector<int> position;  // target index -> index in the final group
};

Network plan(const std::vector<Labels>& group, const std::vector<Labels>& targets);

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
void advance_tile(Ctx& c, const Stream& s, int64_t tile_bytes, int reg, int count);

// r1 next load address, r2 next store address, r3 ROW_BYTES, r4 rows per tile, r5.. buffer addresses.
void stream(Ctx& c, const Stream& s, const std::string& in, const std::string& out,
            const std::function<void(int64_t buffer)>& compute);

// stream() in less code, for the composite blocks where IMEM is tight: two buffers whose address r5
// toggles (r6 = the XOR of the two), every load and store on channel 0 releasing lock 0 in order (a channel
// works through its queue in order, so one counting lock serves both buffers and a refill queues behind the
// store of the same buffer). compute(0) runs on the buffer at r5, once, in a loop over every tile; the
// prefetches past the end wrap to the first tiles (read, never used) and are waited for at the end, as is the
// last store (lock 14), so the stream's stores have reached DRAM when it ends. A 2-D walk (RoPE) does not
// wrap: its last two tiles are a second copy without prefetch, and a repeated store of the last row (the
// same bytes) releases lock 14.
void stream_compact(Ctx& c, const Stream& s, const std::string& in, const std::string& out,
                    const std::function<void(int64_t buffer)>& compute);

}  // namespace kcraft::vliw::template_detail
