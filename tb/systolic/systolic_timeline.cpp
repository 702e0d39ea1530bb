#include "tb/systolic/systolic_timeline.h"

#include <fmt/format.h>

#include <algorithm>
#include <limits>

#include "isa/common/disassembler.h"
#include "systolic_isa.h"
#include "tb/systolic/systolic_regs.h"

namespace kcraft::systolic {

namespace {

constexpr uint64_t kUnset = std::numeric_limits<uint64_t>::max();
constexpr unsigned kSfuLatency = 4;     // S_EXP_FP & co.: result usable 4 cycles after issue
constexpr unsigned kVectorLatency = 3;  // vector instructions: result usable 3 cycles after issue

bool bit(uint32_t word, unsigned b) {
  return ((word >> b) & 1u) != 0;
}

std::string stall_name(unsigned cause) {
  const auto* info = isa::systolic::machine::find_stall_cause(cause);
  return info != nullptr ? info->name : fmt::format("cause {}", cause);
}

}  // namespace

SystolicTimelineRecorder::SystolicTimelineRecorder(const Params& params, std::string title, double cycle_ns)
    : params_(params) {
  timeline_.title = std::move(title);
  timeline_.cycle_ns = cycle_ns;
  using Role = tb::TimelineTrack::Role;
  timeline_.tracks = {
      {"issue", "instructions", Role::kOther},
      {"vector unit", "vector_busy", Role::kCompute},
      {"special functions", "sfu_busy", Role::kOther},  // its work shows in the vector unit's windows
      {"matrix unit", "matrix_busy", Role::kCompute},
      {"systolic array", "array_active", Role::kOther},  // inside the matrix unit's busy time
      {"DMA engine", "dma_busy", Role::kMemory},
  };
}

const SystolicTimelineRecorder::Decoded& SystolicTimelineRecorder::decode(uint32_t pc, uint32_t insn) {
  const uint64_t key = (static_cast<uint64_t>(pc) << 32) | insn;
  auto it = decoded_.find(key);
  if (it != decoded_.end()) return it->second;
  const auto& spec = isa::systolic::spec();
  Decoded d;
  d.text = isa::disassemble(spec, insn);
  const auto* info = spec.find_opcode(isa::extract(insn, spec.opcode_field));
  if (info != nullptr) {
    d.unit = info->unit;
    d.sfu = info->name == "S_EXP_FP" || info->name == "S_RECI_FP" || info->name == "S_SQRT_FP" ||
            info->name == "S_RSQRT_FP";
    d.ldw = info->name == "M_LDW" || info->name == "M_LDWT";
    d.mm = info->name == "M_MM" || info->name == "M_MMA";
    d.wo = info->name == "M_WO";
  }
  return decoded_.emplace(key, std::move(d)).first->second;
}

void SystolicTimelineRecorder::close(Track track) {
  slices_.close(track);
}

void SystolicTimelineRecorder::mark(Track track, uint64_t cycle, const std::string& key,
                                    const std::string& name, const std::string& category, int64_t pc,
                                    const std::string& cause) {
  tb::TimelineSlice fields;
  fields.name = name;
  fields.category = category;
  fields.pc = pc;
  fields.cause = cause;
  if (track == kIssue) fields.detail = key;  // stalls keep the waiting instruction in the key's text
  slices_.mark(track, cycle, key, fields);
}

void SystolicTimelineRecorder::on_cycle(uint64_t c, uint32_t w, bool issued, uint32_t pc, uint32_t insn) {
  if (!bit(w, regs::kTrRunning)) return;  // the counters count only while running; so does the timeline
  any_cycle_ = true;
  last_cycle_ = c;
  const Decoded* d = issued ? &decode(pc, insn) : nullptr;
  const unsigned row_bytes = params_.row_bytes();

  // ---- issue stage: one slice per issued instruction, one per run of stalled cycles
  const unsigned stall = (w >> regs::kTrStallLsb) & 0xFu;
  if (issued) {
    close(kIssue);
    ++instructions_;
    tb::TimelineSlice s;
    s.track = kIssue;
    s.begin = c;
    s.end = c + 1;
    s.name = d->text;
    s.category = "instruction";
    s.pc = pc;
    timeline_.slices.push_back(std::move(s));
  } else if (stall != 0) {
    ++stall_cycles_[stall];
    const std::string cause = stall_name(stall);
    mark(kIssue, c, decode(pc, insn).text, "stall: " + cause, "stall", pc, cause);
  } else {
    close(kIssue);
  }

  // ---- vector unit: one instruction enters per cycle
  if (bit(w, regs::kTrVecIssue)) {
    tb::TimelineSlice s;
    s.track = kVector;
    s.begin = c;
    s.end = c + 1;
    s.name = d != nullptr ? d->text : "vector instruction";
    s.category = "op";
    s.pc = d != nullptr ? static_cast<int64_t>(pc) : -1;
    s.finished = c + kVectorLatency;
    timeline_.slices.push_back(std::move(s));
  }

  // ---- special functions: busy windows, and each operation with its result cycle
  if (issued && d->sfu) {
    ++sfu_pending_ops_;
    if (sfu_pending_first_.empty()) sfu_pending_first_ = d->text;
    timeline_.ops.push_back({"sfu", d->text, pc, c, c, c + kSfuLatency, 0});
  }
  if (bit(w, regs::kTrSfuBusy)) {
    const bool extends = slices_.open_until(kSfu, c);
    if (!extends) {
      sfu_ops_in_window_ = 0;
      sfu_first_.clear();
    }
    sfu_ops_in_window_ += sfu_pending_ops_;
    if (sfu_first_.empty()) sfu_first_ = sfu_pending_first_;
    sfu_pending_ops_ = 0;
    sfu_pending_first_.clear();
    mark(kSfu, c, "busy", "", "busy");
    slices_.rename(
        kSfu, sfu_ops_in_window_ <= 1 ? sfu_first_ : fmt::format("{} special functions", sfu_ops_in_window_));
  } else {
    close(kSfu);
  }

  // ---- matrix unit: operations from acceptance to completion, and what occupies the unit
  const unsigned state = (w >> regs::kTrMatStateLsb) & 0x7u;
  const bool wload = bit(w, regs::kTrMatWload);
  if (bit(w, regs::kTrMatRetire) && !mat_pending_.empty()) {
    timeline_.ops[mat_pending_.front()].finished = c + 1;  // accumulators written at this clock edge
    mat_pending_.pop_front();
  }
  const bool mat_accept = issued && d->unit == "matrix";
  if (mat_accept) {
    tb::TimelineOp op{"matrix", d->text, pc, c, d->ldw ? kUnset : c, c + 1, 0};
    mat_current_ = static_cast<int64_t>(timeline_.ops.size());
    mat_current_is_ldw_ = d->ldw;
    mat_current_is_wo_ = d->wo;
    timeline_.ops.push_back(std::move(op));
    if (d->mm) mat_pending_.push_back(static_cast<size_t>(mat_current_));
  }
  if (mat_current_ >= 0) {
    auto& op = timeline_.ops[static_cast<size_t>(mat_current_)];
    if (mat_current_is_ldw_ && state == regs::kTrMatLdwLoad && op.started == kUnset) op.started = c;
    if (mat_current_is_ldw_ && (state == regs::kTrMatLdwLoad || wload)) op.finished = c + 1;
    if (mat_current_is_wo_ && state == regs::kTrMatWo) op.finished = c + 1;
  }
  if (bit(w, regs::kTrMatBusy)) {
    // Label: the operation accepted now, else the unit's state, else rows still leaving the array.
    int phase = -1;  // 0 working, 1 M_LDW waiting for the array to drain, 2 M_LDW loading
    if (mat_accept) {
      phase = mat_current_is_ldw_ ? 1 : 0;
    } else if (state == regs::kTrMatLdwDrain) {
      phase = 1;
    } else if (state == regs::kTrMatLdwLoad || (state == regs::kTrMatIdle && wload)) {
      phase = 2;
    } else if (state == regs::kTrMatMm || state == regs::kTrMatWo) {
      phase = 0;
    }
    if (phase < 0 || mat_current_ < 0) {
      mark(kMatrix, c, "drain", "rows leaving the array", "busy");
    } else {
      const auto& op = timeline_.ops[static_cast<size_t>(mat_current_)];
      const char* suffix = phase == 1   ? " (waiting for the array to drain)"
                           : phase == 2 ? " (loading weights)"
                                        : "";
      mark(kMatrix, c, fmt::format("{}:{}", mat_current_, phase), op.name + suffix, "op",
           static_cast<int64_t>(op.pc));
    }
  } else {
    close(kMatrix);
  }
  if (bit(w, regs::kTrArray)) {
    mark(kArray, c, "rows", "rows in the array", "busy");
  } else {
    close(kArray);
  }

  // ---- DMA engine: commands hold a slot from acceptance to their last response
  if (dma_slots_in_use_ == static_cast<int64_t>(params_.dma_slots)) ++dma_all_slots_taken_;
  if (!dma_not_done_.empty()) {
    auto& head = timeline_.ops[dma_not_done_.front()];
    if (bit(w, regs::kTrDmaLoad) || bit(w, regs::kTrDmaStore)) head.bytes += row_bytes;
  }
  if (bit(w, regs::kTrDmaLoad)) bytes_read_ += row_bytes;
  if (bit(w, regs::kTrDmaStore)) bytes_written_ += row_bytes;
  int64_t slot_change = 0;
  if (bit(w, regs::kTrDmaDone) && !dma_not_done_.empty()) {
    timeline_.ops[dma_not_done_.front()].finished = c + 1;  // the slot is free from the next cycle
    dma_not_done_.pop_front();
    --slot_change;
  }
  if (bit(w, regs::kTrDmaStart) && !dma_not_started_.empty()) {
    timeline_.ops[dma_not_started_.front()].started = c;
    dma_not_started_.pop_front();
  }
  if (issued && d->unit == "dma") {
    dma_not_started_.push_back(timeline_.ops.size());
    dma_not_done_.push_back(timeline_.ops.size());
    timeline_.ops.push_back({"dma", d->text, pc, c, kUnset, kUnset, 0});
    ++slot_change;
  }
  if (slot_change != 0) {
    dma_slots_in_use_ += slot_change;
    auto& samples = timeline_.samples;
    if (!samples.empty() && samples.back().cycle == c + 1) {
      samples.back().value = dma_slots_in_use_;
    } else {
      samples.push_back({"DMA slots in use", c + 1, dma_slots_in_use_});
    }
  }
  if (bit(w, regs::kTrDmaBusy)) {
    mark(kDma, c, "busy", "DMA busy", "busy");
  } else {
    close(kDma);
  }
}

tb::Timeline SystolicTimelineRecorder::finish(uint64_t cycles) {
  slices_.close_all();
  timeline_.cycles = cycles;
  // Operations still running when the run stopped (an error or the cycle cap) end with it.
  for (auto& op : timeline_.ops) {
    if (op.finished == kUnset || op.finished > cycles) op.finished = std::max(op.accepted, cycles);
    if (op.started == kUnset || op.started > op.finished) op.started = op.finished;
  }
  // The slices per track are in time order except the issue track's instructions, which were appended
  // as they issued while stall slices were appended when they closed: sort by start.
  std::stable_sort(timeline_.slices.begin(), timeline_.slices.end(),
                   [](const tb::TimelineSlice& a, const tb::TimelineSlice& b) {
                     return a.track != b.track ? a.track < b.track : a.begin < b.begin;
                   });
  uint64_t per_track[kNumTracks] = {};
  for (const auto& s : timeline_.slices) {
    if (s.category != "stall" && s.category != "instruction") per_track[s.track] += s.end - s.begin;
  }
  auto& totals = timeline_.totals;
  totals.clear();
  totals.emplace_back("cycles", any_cycle_ ? last_cycle_ + 1 : 0);
  totals.emplace_back("instructions", instructions_);
  for (const auto& cause : isa::systolic::machine::kStallCauses) {
    if (cause.counter < 0) continue;
    totals.emplace_back(isa::systolic::machine::kCounters[static_cast<size_t>(cause.counter)].name,
                        stall_cycles_[static_cast<unsigned>(cause.code) & 0xFu]);
  }
  totals.emplace_back("vector_busy", per_track[kVector]);
  totals.emplace_back("sfu_busy", per_track[kSfu]);
  totals.emplace_back("matrix_busy", per_track[kMatrix]);
  totals.emplace_back("array_active", per_track[kArray]);
  totals.emplace_back("dma_busy", per_track[kDma]);
  totals.emplace_back("dram_bytes_read", bytes_read_);
  totals.emplace_back("dram_bytes_written", bytes_written_);
  totals.emplace_back("dma_slots", params_.dma_slots);
  totals.emplace_back("dma_all_slots_taken", dma_all_slots_taken_);
  return std::move(timeline_);
}

}  // namespace kcraft::systolic
