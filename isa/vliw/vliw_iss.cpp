#include "isa/vliw/vliw_iss.h"

#include <algorithm>
#include <iterator>
#include <stdexcept>

#include <fmt/format.h>

#include "isa/common/arith/fp_arith.h"
#include "isa/common/bundle.h"

namespace kcraft::vliw {
namespace {

using isa::vliw::Op;
namespace ar = arith;

// Bytes and alignment of a load/store op's access.
unsigned access_bytes(Op op, const Params& p) {
  switch (op) {
    case Op::L_VLD:
    case Op::L_VST:
      return p.row_bytes();
    case Op::L_VLDB:
      return 2;
    default:
      return 4;
  }
}

}  // namespace

Iss::Iss(const Params& params) : p_(params) {
  reset({});
}

void Iss::reset(const std::vector<uint32_t>& program) {
  if (program.size() > p_.imem_words) {
    throw std::invalid_argument(
        fmt::format("program of {} words does not fit IMEM_WORDS={}", program.size(), p_.imem_words));
  }
  imem_.assign(p_.imem_words, 0);
  std::copy(program.begin(), program.end(), imem_.begin());
  decoded_.assign(p_.imem_words, std::nullopt);
  s_ = MachineState{};
  s_.resize(p_);
  counters_.fill(0);
  loops_.clear();
  pending_.clear();
  queues_.assign(p_.dma_channels, {});
  rows_.clear();
  pipe_ = order_ = cycle_ = dram_free_ = 0;
  next_channel_ = 0;
  pc_ = 0;
  draining_ = stopped_ = bank_stall_taken_ = false;
  last_stall_ = StallCause::kNone;
}

const Iss::Bundle& Iss::bundle_at(uint32_t pc) {
  // A jump may leave the instruction memory: that is a pc_range error, and no slot of the cache.
  if (pc >= p_.imem_words) {
    out_of_range_bundle_ = Bundle{};
    out_of_range_bundle_.error = MachineError{ErrorCode::kPcRange, pc, pc, 0};
    return out_of_range_bundle_;
  }
  if (decoded_[pc]) return *decoded_[pc];
  Bundle b;
  const isa::IsaSpec& spec = isa::vliw::spec();
  std::vector<const isa::InstructionSpec*> insns;
  for (uint32_t at = pc;; ++at) {
    if (at >= p_.imem_words) {
      b.error = MachineError{ErrorCode::kPcRange, pc, at, 0};
      break;
    }
    const uint32_t word = imem_[at];
    b.words.push_back(word);
    const auto d = isa::decode(spec, word);
    if (!d) {
      b.error = MachineError{ErrorCode::kIllegalInsn, pc, word, at};
      break;
    }
    // A channel the configuration does not have is no valid op on it (the `ch` field has 2 bits).
    const auto op_code = static_cast<Op>(d->insn->opcode);
    if ((op_code == Op::C_DMALD || op_code == Op::C_DMAST) && d->values[0] >= p_.dma_channels) {
      b.error = MachineError{ErrorCode::kIllegalInsn, pc, word, at};
      break;
    }
    b.ops.push_back(DecodedOp{});
    b.ops.back().insn = d->insn;
    b.ops.back().op = static_cast<Op>(d->insn->opcode);
    b.ops.back().values = d->values;
    insns.push_back(d->insn);
    if (isa::vliw::is_end_of_bundle(word)) break;
    if (b.words.size() >= isa::vliw::kMaxBundleWords) {
      b.error = MachineError{ErrorCode::kIllegalBundle, pc, pc, at + 1};
      break;
    }
  }
  if (b.error.code == ErrorCode::kNone) {
    const auto positions = isa::slot_positions(spec, insns);
    if (!positions) {
      b.error = MachineError{ErrorCode::kIllegalBundle, pc, pc, pc + b.words.size() - 1};
    } else {
      for (size_t k = 0; k < b.ops.size(); ++k) b.ops[k].slot = (*positions)[k];
    }
  }
  decoded_[pc] = std::move(b);
  return *decoded_[pc];
}

Iss::Result Iss::run(std::vector<uint8_t>& dram, uint64_t max_cycles) {
  ar::FpEnvGuard guard;  // the fast arithmetic path needs FTZ/DAZ and round-to-nearest
  while (!stopped_ && cycle_ < max_cycles) {
    dma_requests(dram);
    core_step(dram);
    if (stopped_) break;
    dma_completions();
    ++cycle_;
  }
  counters_[kCycles] = cycle_;
  Result r;
  r.cycles = cycle_;
  if (!stopped_) {
    r.stop = Stop::kCycleCap;
  } else {
    r.stop = s_.error.code == ErrorCode::kNone ? Stop::kHalted : Stop::kError;
  }
  return r;
}

Iss::Activity Iss::activity() const {
  Activity a;
  for (size_t c = 0; c < queues_.size(); ++c) {
    if (!queues_[c].empty()) a.dma_busy_channels |= 1u << c;
  }
  a.dma_rows_in_flight = static_cast<uint32_t>(rows_.size());
  a.loop_depth = static_cast<uint32_t>(loops_.size());
  return a;
}

bool Iss::dma_idle() const {
  for (const auto& q : queues_) {
    if (!q.empty()) return false;
  }
  return true;
}

void Iss::fault(const MachineError& e) {
  if (s_.error.code == ErrorCode::kNone) {
    s_.error = e;
    s_.pc = e.pc;
  }
  draining_ = true;
}

void Iss::schedule(char kind, unsigned index, std::vector<uint32_t> lanes, unsigned latency) {
  PendingWrite w;
  w.due = pipe_ + latency;
  w.order = order_++;
  w.kind = kind;
  w.index = index;
  w.lanes = std::move(lanes);
  pending_.push_back(std::move(w));
}

// Writes due at the current pipeline step, oldest first (issue order, then slot order): the last one wins.
void Iss::apply_due() {
  const auto first_due = std::stable_partition(pending_.begin(), pending_.end(),
                                               [&](const PendingWrite& w) { return w.due > pipe_; });
  std::vector<PendingWrite> due(std::make_move_iterator(first_due), std::make_move_iterator(pending_.end()));
  pending_.erase(first_due, pending_.end());
  std::sort(due.begin(), due.end(),
            [](const PendingWrite& x, const PendingWrite& y) { return x.order < y.order; });
  for (const PendingWrite& w : due) {
    switch (w.kind) {
      case 'r':
        if (w.index != 0) s_.r[w.index] = w.lanes[0];  // r0 stays 0
        break;
      case 'p':
        s_.p[w.index] = w.lanes[0];
        break;
      case 'v':
        for (unsigned i = 0; i < p_.vlen; ++i)
          s_.v[w.index * p_.vlen + i] = static_cast<uint16_t>(w.lanes[i]);
        break;
      default:
        for (unsigned i = 0; i < p_.vlen; ++i) s_.a[w.index * p_.vlen + i] = w.lanes[i];
        break;
    }
  }
}

void Iss::core_step(std::vector<uint8_t>& dram) {
  if (draining_) {
    if (pending_.empty() && dma_idle() && rows_.empty()) {
      stopped_ = true;
      return;
    }
    ++counters_[kStallDrain];
    last_stall_ = StallCause::kDrain;
    apply_due();
    ++pipe_;
    return;
  }
  apply_due();  // results due now are visible to this bundle (a stall keeps pipe_ where it is)
  const Bundle& b = bundle_at(pc_);
  if (b.error.code != ErrorCode::kNone) {
    fault(b.error);
    return;
  }
  if (auto error = check(b, pc_, dram)) {
    fault(*error);
    return;
  }
  // Stalls, in the order of the YAML's stall causes.
  for (const DecodedOp& op : b.ops) {
    if (op.op == Op::C_ACQ && s_.locks[op.values[0]] == 0) {
      ++counters_[kStallLockWait];
      last_stall_ = StallCause::kLockWait;
      return;
    }
  }
  for (const DecodedOp& op : b.ops) {
    if ((op.op == Op::C_DMALD || op.op == Op::C_DMAST) && queues_[op.values[0]].size() >= p_.dma_queue) {
      ++counters_[kStallDmaQueue];
      last_stall_ = StallCause::kDmaQueue;
      return;
    }
  }
  std::vector<unsigned> banks;
  for (const DecodedOp& op : b.ops) {
    if (op.insn->slot == "ls") banks.push_back(p_.bank_of(s_.p[op.values[1]]));
  }
  if (banks.size() == 2 && banks[0] == banks[1] && !bank_stall_taken_) {
    bank_stall_taken_ = true;
    ++counters_[kStallBankConflict];
    last_stall_ = StallCause::kBankConflict;
    return;
  }
  bank_stall_taken_ = false;
  last_stall_ = StallCause::kNone;
  if (on_issue) on_issue(pc_, b.words, cycle_);
  execute(b, pc_);
}

// The checks a bundle must pass before it issues; the lowest error code wins, then the earliest slot.
std::optional<MachineError> Iss::check(const Bundle& b, uint32_t pc, const std::vector<uint8_t>& dram) const {
  std::optional<MachineError> worst;
  auto consider = [&](ErrorCode code, uint64_t lo, uint64_t hi) {
    if (!worst || static_cast<unsigned>(code) < static_cast<unsigned>(worst->code)) {
      worst = MachineError{code, pc, lo, hi};
    }
  };
  const uint32_t next = pc + static_cast<uint32_t>(b.words.size());
  for (const Loop& loop : loops_) {
    if (loop.end > pc && loop.end < next) consider(ErrorCode::kLoopEnd, loop.end, pc);
  }
  for (size_t k = 0; k < b.ops.size(); ++k) {
    const DecodedOp& op = b.ops[k];
    const auto& v = op.values;
    switch (op.op) {
      case Op::C_LOOP:
      case Op::C_LOOPI: {
        if (k + 1 != b.ops.size()) consider(ErrorCode::kLoopEnd, pc + k + 1, pc);
        const uint64_t count = op.op == Op::C_LOOP ? s_.r[v[0]] : static_cast<uint64_t>(v[0]);
        const uint64_t end = next + static_cast<uint64_t>(v[1]);  // the body starts at `next`
        if (count == 0) break;
        if (!loops_.empty() && end >= loops_.back().end)
          consider(ErrorCode::kLoopNest, end, loops_.back().end);
        if (loops_.size() >= p_.loop_depth) consider(ErrorCode::kLoopOverflow, loops_.size(), 0);
        break;
      }
      case Op::C_REL:
        if (s_.locks[v[0]] >= kLockMax) consider(ErrorCode::kLockOverflow, static_cast<uint64_t>(v[0]), 0);
        break;
      case Op::C_DMALD:
      case Op::C_DMAST: {
        const uint64_t dm = s_.r[v[1]];
        const uint64_t addr = s_.r[v[2]];
        const uint64_t stride = s_.r[v[3]];
        const uint64_t rows = s_.r[v[4]];
        if (rows == 0) {
          consider(ErrorCode::kDmaEmpty, 0, 0);
          break;
        }
        const uint64_t dm_end = dm + rows * p_.row_bytes();
        if (dm_end > p_.dm_bytes) consider(ErrorCode::kDmRange, dm, dm_end);
        if (dm % p_.row_bytes() != 0) consider(ErrorCode::kDmAlign, dm, p_.row_bytes());
        const uint64_t dram_end = addr + (rows - 1) * stride + p_.row_bytes();
        if (dram_end > dram.size()) consider(ErrorCode::kDramRange, addr, dram_end);
        if (addr % 2 != 0 || stride % 2 != 0) consider(ErrorCode::kDramAlign, addr, stride);
        break;
      }
      default:
        if (op.insn->slot == "ls") {
          const uint64_t addr = s_.p[v[1]];
          const unsigned bytes = access_bytes(op.op, p_);
          if (addr + bytes > p_.dm_bytes) consider(ErrorCode::kDmRange, addr, addr + bytes);
          if (addr % bytes != 0) consider(ErrorCode::kDmAlign, addr, bytes);
        }
        break;
    }
  }
  return worst;
}

// One op of a bundle executing (execute() runs them in slot order): its operands, and the helpers that
// schedule its results to land after the op's latency. Each unit's function runs the ops of its unit.
struct Iss::OpExec {
  using DmWrites = std::vector<std::pair<uint64_t, std::vector<uint8_t>>>;

  OpExec(Iss& machine, const DecodedOp& decoded)
      : iss(machine),
        op(decoded),
        v(decoded.values),
        s(machine.s_),
        p(machine.p_),
        vlen(machine.p_.vlen),
        latency(isa::vliw::latency_of(static_cast<uint8_t>(decoded.op))) {}

  uint16_t vreg(int64_t index, unsigned lane) const { return s.v[static_cast<size_t>(index) * vlen + lane]; }
  uint32_t areg(int64_t index, unsigned lane) const { return s.a[static_cast<size_t>(index) * vlen + lane]; }
  template <typename F>
  void vector_result(F&& lane_value) {
    std::vector<uint32_t> lanes(vlen);
    for (unsigned i = 0; i < vlen; ++i) lanes[i] = lane_value(i);
    iss.schedule('v', static_cast<unsigned>(v[0]), std::move(lanes), latency);
  }
  template <typename F>
  void acc_result(F&& lane_value) {
    std::vector<uint32_t> lanes(vlen);
    for (unsigned i = 0; i < vlen; ++i) lanes[i] = lane_value(i);
    iss.schedule('a', static_cast<unsigned>(v[0]), std::move(lanes), latency);
  }
  void scalar_result(uint32_t value) { iss.schedule('r', static_cast<unsigned>(v[0]), {value}, 1); }
  template <typename F>
  void bf16_binary(F&& f) {
    vector_result([&](unsigned i) {
      return ar::fp32_to_bf16(f(ar::bf16_to_fp32(vreg(v[1], i)), ar::bf16_to_fp32(vreg(v[2], i))));
    });
  }
  template <typename F>
  void acc_binary(F&& f) {
    acc_result([&](unsigned i) { return f(areg(v[1], i), areg(v[2], i)); });
  }
  template <typename F>
  void acc_unary(F&& f) {
    acc_result([&](unsigned i) { return f(areg(v[1], i)); });
  }

  void load_store(DmWrites& dm_writes);
  void control(uint32_t pc, uint32_t next_bundle, uint32_t& next, std::optional<Loop>& new_loop);
  void scalar();
  void vector();
  void accumulator();

  Iss& iss;
  const DecodedOp& op;
  const std::vector<int64_t>& v;
  MachineState& s;
  const Params& p;
  const unsigned vlen;
  const unsigned latency;
};

namespace {

// The unit of an op, by its opcode's range (isa/vliw.yaml).
enum class Unit { kControl, kScalar, kLoadStore, kVector, kAccumulator };

Unit unit_of(Op op) {
  const auto code = static_cast<uint8_t>(op);
  if (code < 0x10) return Unit::kControl;
  if (code < 0x30) return Unit::kScalar;
  if (code < 0x40) return Unit::kLoadStore;
  if (code < 0x50) return Unit::kVector;
  return Unit::kAccumulator;
}

}  // namespace

void Iss::execute(const Bundle& b, uint32_t pc) {
  const uint32_t next_bundle = pc + static_cast<uint32_t>(b.words.size());
  uint32_t next = next_bundle;
  OpExec::DmWrites dm_writes;  // after every op has read
  std::optional<Loop> new_loop;

  ++counters_[kBundles];
  counters_[kOps] += b.ops.size();
  for (const DecodedOp& op : b.ops) ++counters_[kOpsLs0 + op.slot];

  for (const DecodedOp& op : b.ops) {
    OpExec e(*this, op);
    if (op.insn->slot == "ls") {
      e.load_store(dm_writes);
      continue;
    }
    switch (unit_of(op.op)) {
      case Unit::kControl:
        e.control(pc, next_bundle, next, new_loop);
        break;
      case Unit::kScalar:
        e.scalar();
        break;
      case Unit::kVector:
        e.vector();
        break;
      case Unit::kAccumulator:
        e.accumulator();
        break;
      case Unit::kLoadStore:  // the ls slots' (above)
        break;
    }
  }
  for (const auto& [addr, data] : dm_writes)
    std::copy(data.begin(), data.end(), s_.dm.begin() + static_cast<std::ptrdiff_t>(addr));
  ++pipe_;
  if (new_loop) loops_.push_back(*new_loop);
  // Zero-overhead loops: reaching a body's end goes back to its start while iterations remain.
  while (!loops_.empty() && next == loops_.back().end) {
    if (--loops_.back().left > 0) {
      next = loops_.back().start;
      break;
    }
    loops_.pop_back();
  }
  if (!draining_) pc_ = next;
}

// A load's result is scheduled; a store's bytes are written after every op of the bundle has read. The
// pointer register is post-incremented.
void Iss::OpExec::load_store(DmWrites& dm_writes) {
  const uint64_t addr = s.p[v[1]];
  const unsigned bytes = access_bytes(op.op, p);
  switch (op.op) {
    case Op::L_VLD:
      vector_result([&](unsigned i) {
        return static_cast<uint32_t>(s.dm[addr + 2 * i] | s.dm[addr + 2 * i + 1] << 8);
      });
      break;
    case Op::L_VLDB: {
      const uint32_t element = static_cast<uint32_t>(s.dm[addr] | s.dm[addr + 1] << 8);
      vector_result([&](unsigned) { return element; });
      break;
    }
    case Op::L_SLD: {
      uint32_t word = 0;
      for (unsigned k = 0; k < 4; ++k) word |= static_cast<uint32_t>(s.dm[addr + k]) << (8 * k);
      scalar_result(word);
      break;
    }
    default: {
      std::vector<uint8_t> data(bytes);
      for (unsigned k = 0; k < bytes; ++k) {
        data[k] = op.op == Op::L_VST ? static_cast<uint8_t>(vreg(v[0], k / 2) >> (8 * (k % 2)))
                                     : static_cast<uint8_t>(s.r[v[0]] >> (8 * k));
      }
      dm_writes.emplace_back(addr, std::move(data));
      break;
    }
  }
  iss.schedule('p', static_cast<unsigned>(v[1]), {static_cast<uint32_t>(addr + static_cast<uint64_t>(v[2]))},
               1);
}

void Iss::OpExec::control(uint32_t pc, uint32_t next_bundle, uint32_t& next, std::optional<Loop>& new_loop) {
  switch (op.op) {
    case Op::C_NOP:
      break;
    case Op::C_HALT:
      iss.draining_ = true;
      s.halted = true;
      s.pc = pc;
      break;
    case Op::C_LOOP:
    case Op::C_LOOPI: {
      const uint32_t count = op.op == Op::C_LOOP ? s.r[v[0]] : static_cast<uint32_t>(v[0]);
      const uint32_t end = next_bundle + static_cast<uint32_t>(v[1]);
      if (count == 0) {
        next = end;
      } else {
        new_loop = Loop{next_bundle, end, count};
      }
      break;
    }
    case Op::C_ACQ:
      --s.locks[v[0]];
      break;
    case Op::C_REL:
      ++s.locks[v[0]];
      break;
    case Op::C_DMALD:
    case Op::C_DMAST: {
      Transfer t;
      t.store = op.op == Op::C_DMAST;
      t.dm = s.r[v[1]];
      t.dram = s.r[v[2]];
      t.stride = s.r[v[3]];
      t.rows = s.r[v[4]];
      t.lock = static_cast<unsigned>(v[5]);
      t.pc = pc;
      iss.queues_[v[0]].push_back(t);
      break;
    }
    default:
      break;
  }
}

void Iss::OpExec::scalar() {
  switch (op.op) {
    case Op::S_ADD:
      scalar_result(s.r[v[1]] + s.r[v[2]]);
      break;
    case Op::S_SUB:
      scalar_result(s.r[v[1]] - s.r[v[2]]);
      break;
    case Op::S_MUL:
      scalar_result(s.r[v[1]] * s.r[v[2]]);
      break;
    case Op::S_AND:
      scalar_result(s.r[v[1]] & s.r[v[2]]);
      break;
    case Op::S_OR:
      scalar_result(s.r[v[1]] | s.r[v[2]]);
      break;
    case Op::S_XOR:
      scalar_result(s.r[v[1]] ^ s.r[v[2]]);
      break;
    case Op::S_SLL:
      scalar_result(s.r[v[1]] << (s.r[v[2]] & 31));
      break;
    case Op::S_SRL:
      scalar_result(s.r[v[1]] >> (s.r[v[2]] & 31));
      break;
    case Op::S_ADDI:
      scalar_result(s.r[v[1]] + static_cast<uint32_t>(v[2]));
      break;
    case Op::S_ORI:
      scalar_result(s.r[v[1]] | static_cast<uint32_t>(v[2]));
      break;
    case Op::S_SLLI:
      scalar_result(s.r[v[1]] << v[2]);
      break;
    case Op::S_SRLI:
      scalar_result(s.r[v[1]] >> v[2]);
      break;
    case Op::S_LUI:
      scalar_result(static_cast<uint32_t>(v[1]) << 16);
      break;
    case Op::S_PMOV:
      iss.schedule('p', static_cast<unsigned>(v[0]), {s.r[v[1]]}, 1);
      break;
    case Op::S_PADD:
      iss.schedule('p', static_cast<unsigned>(v[0]), {s.p[v[0]] + s.r[v[1]]}, 1);
      break;
    case Op::S_PADDI:
      iss.schedule('p', static_cast<unsigned>(v[0]), {s.p[v[0]] + static_cast<uint32_t>(v[1])}, 1);
      break;
    case Op::S_PGET:
      scalar_result(s.p[v[1]]);
      break;
    default:
      break;
  }
}

// BF16 vector registers.
void Iss::OpExec::vector() {
  switch (op.op) {
    case Op::V_ADD:
      bf16_binary([](ar::F32 x, ar::F32 y) { return ar::fp32_add(x, y); });
      break;
    case Op::V_SUB:
      bf16_binary([](ar::F32 x, ar::F32 y) { return ar::fp32_sub(x, y); });
      break;
    case Op::V_MUL:
      bf16_binary([](ar::F32 x, ar::F32 y) { return ar::fp32_mul(x, y); });
      break;
    case Op::V_MAX:
      bf16_binary([](ar::F32 x, ar::F32 y) { return ar::fp32_max(x, y); });
      break;
    case Op::V_MIN:
      bf16_binary([](ar::F32 x, ar::F32 y) { return ar::fp32_min(x, y); });
      break;
    case Op::V_BCST: {
      const uint32_t lane = ar::fp32_to_bf16(s.r[v[1]]);
      vector_result([&](unsigned) { return lane; });
      break;
    }
    case Op::V_BCL: {
      const uint32_t lane = vreg(v[1], static_cast<unsigned>(v[2]) % vlen);
      vector_result([&](unsigned) { return lane; });
      break;
    }
    case Op::V_SHUF: {
      const unsigned half = vlen / 2;
      vector_result([&](unsigned i) -> uint32_t {
        switch (v[3]) {
          case 0:
            return i % 2 == 0 ? vreg(v[1], i / 2) : vreg(v[2], i / 2);
          case 1:
            return i % 2 == 0 ? vreg(v[1], half + i / 2) : vreg(v[2], half + i / 2);
          case 2:
            return i < half ? vreg(v[1], 2 * i) : vreg(v[2], 2 * (i - half));
          default:
            return i < half ? vreg(v[1], 2 * i + 1) : vreg(v[2], 2 * (i - half) + 1);
        }
      });
      break;
    }
    case Op::V_ALIGN: {
      const unsigned shift = static_cast<unsigned>(v[3]) % vlen;
      vector_result([&](unsigned i) -> uint32_t {
        return i + shift < vlen ? vreg(v[1], i + shift) : vreg(v[2], i + shift - vlen);
      });
      break;
    }
    case Op::V_RMAX: {
      ar::F32 m = ar::bf16_to_fp32(vreg(v[1], 0));
      for (unsigned i = 1; i < vlen; ++i) m = ar::fp32_max(m, ar::bf16_to_fp32(vreg(v[1], i)));
      const uint32_t lane = ar::fp32_to_bf16(m);
      vector_result([&](unsigned) { return lane; });
      break;
    }
    case Op::V_SRS:
      vector_result([&](unsigned i) { return static_cast<uint32_t>(ar::fp32_to_bf16(areg(v[1], i))); });
      break;
    default:
      break;
  }
}

// FP32 accumulator registers, the vector and matrix MACs among them.
void Iss::OpExec::accumulator() {
  auto& counters = iss.counters_;
  switch (op.op) {
    case Op::A_UPS:
      acc_result([&](unsigned i) { return ar::bf16_to_fp32(vreg(v[1], i)); });
      break;
    case Op::A_VMUL:
      acc_result([&](unsigned i) { return ar::bf16_mul(vreg(v[1], i), vreg(v[2], i)); });
      counters[kMacs] += vlen;
      break;
    case Op::A_VMAC:
      acc_result([&](unsigned i) {
        return ar::fp32_add(areg(v[0], i), ar::bf16_mul(vreg(v[1], i), vreg(v[2], i)));
      });
      counters[kMacs] += vlen;
      break;
    case Op::A_MMUL:
    case Op::A_MMAC: {
      const unsigned m_count = p.mmul_m(), k_count = p.mmul_k(), n_count = p.mmul_n();
      acc_result([&](unsigned i) -> uint32_t {
        if (i >= m_count * n_count) return areg(v[0], i);  // lanes outside the result tile keep their value
        const unsigned m = i / n_count, n = i % n_count;
        ar::F32 sum = op.op == Op::A_MMAC ? areg(v[0], i) : 0u;
        for (unsigned k = 0; k < k_count; ++k) {
          sum = ar::fp32_add(sum, ar::bf16_mul(vreg(v[1], m * k_count + k), vreg(v[2], k * n_count + n)));
        }
        return sum;
      });
      counters[kMacs] += uint64_t{m_count} * k_count * n_count;
      break;
    }
    case Op::A_ADD:
      acc_binary([](ar::F32 x, ar::F32 y) { return ar::fp32_add(x, y); });
      break;
    case Op::A_SUB:
      acc_binary([](ar::F32 x, ar::F32 y) { return ar::fp32_sub(x, y); });
      break;
    case Op::A_MUL:
      acc_binary([](ar::F32 x, ar::F32 y) { return ar::fp32_mul(x, y); });
      break;
    case Op::A_MAX:
      acc_binary([](ar::F32 x, ar::F32 y) { return ar::fp32_max(x, y); });
      break;
    case Op::A_EXP:
      acc_unary([](ar::F32 x) { return ar::fp32_exp(x); });
      break;
    case Op::A_RECI:
      acc_unary([](ar::F32 x) { return ar::fp32_reci(x); });
      break;
    case Op::A_RSQRT:
      acc_unary([](ar::F32 x) { return ar::fp32_rsqrt(x); });
      break;
    case Op::A_RSUM: {
      // A balanced tree: neighbouring lanes first.
      std::vector<ar::F32> level(vlen);
      for (unsigned i = 0; i < vlen; ++i) level[i] = areg(v[1], i);
      while (level.size() > 1) {
        std::vector<ar::F32> up(level.size() / 2);
        for (size_t i = 0; i < up.size(); ++i) up[i] = ar::fp32_add(level[2 * i], level[2 * i + 1]);
        level = std::move(up);
      }
      const uint32_t sum = level[0];
      acc_result([&](unsigned) { return sum; });
      break;
    }
    case Op::A_RMAX: {
      ar::F32 m = areg(v[1], 0);
      for (unsigned i = 1; i < vlen; ++i) m = ar::fp32_max(m, areg(v[1], i));
      acc_result([&](unsigned) { return m; });
      break;
    }
    case Op::A_BCST: {
      const uint32_t bits = s.r[v[1]];
      acc_result([&](unsigned) { return bits; });
      break;
    }
    default:
      break;
  }
}

// DMA, start of a cycle: at most one row is launched, the channels in turn, while fewer than
// DMA_OUTSTANDING rows are in flight. DRAM sees the request in the next cycle and times it like
// tb/common/dram_model.h (one channel: ceil(ROW_BYTES / DRAM_BYTES_PER_CYCLE) cycles of transfer from when
// it is free, then DRAM_LATENCY cycles); the row completes at the end of that due cycle. DRAM is read or
// written when it sees the request, a store's DM row is read in the launch cycle (before this cycle's
// stores), a load's row is written to DM when it completes.
void Iss::dma_requests(std::vector<uint8_t>& dram) {
  if (!dma_idle()) ++counters_[kDmaBusy];
  if (rows_.size() >= p_.dma_outstanding) return;
  const uint64_t row = p_.row_bytes();
  const uint64_t bpc = std::max<uint64_t>(1, p_.dram_bytes_per_cycle);
  for (unsigned n = 0; n < p_.dma_channels; ++n) {
    const unsigned ch = (next_channel_ + n) % p_.dma_channels;
    for (Transfer& t : queues_[ch]) {
      if (t.requested >= t.rows) continue;
      RowInFlight r;
      const uint64_t seen = cycle_ + 1;  // the request register
      dram_free_ = std::max(seen, dram_free_) + (row + bpc - 1) / bpc;
      r.done = dram_free_ + p_.dram_latency;
      r.channel = ch;
      r.store = t.store;
      r.dm = t.dm + t.requested * row;
      r.dram = t.dram + t.requested * t.stride;
      const auto dm_at = s_.dm.begin() + static_cast<std::ptrdiff_t>(r.dm);
      const auto dram_at = dram.begin() + static_cast<std::ptrdiff_t>(r.dram);
      if (t.store) {
        std::copy(dm_at, dm_at + static_cast<std::ptrdiff_t>(row), dram_at);
      } else {
        r.data.assign(dram_at, dram_at + static_cast<std::ptrdiff_t>(row));
        counters_[kDramBytesRead] += row;
      }
      ++t.requested;
      rows_.push_back(std::move(r));
      next_channel_ = (ch + 1) % p_.dma_channels;
      return;
    }
  }
}

// DMA, end of a cycle: rows whose DRAM latency has passed complete; a transfer whose last row completes
// leaves its queue and releases its lock.
void Iss::dma_completions() {
  while (!rows_.empty() && rows_.front().done <= cycle_) {
    RowInFlight r = std::move(rows_.front());
    rows_.pop_front();
    if (r.store) {
      counters_[kDramBytesWritten] += p_.row_bytes();
    } else {
      std::copy(r.data.begin(), r.data.end(), s_.dm.begin() + static_cast<std::ptrdiff_t>(r.dm));
    }
    Transfer& t = queues_[r.channel].front();
    if (++t.completed < t.rows) continue;
    if (t.lock != kNoLock) {
      if (s_.locks[t.lock] >= kLockMax) {
        fault(MachineError{ErrorCode::kLockOverflow, t.pc, t.lock, 0});
      } else {
        ++s_.locks[t.lock];
      }
    }
    queues_[r.channel].pop_front();
  }
}

}  // namespace kcraft::vliw
