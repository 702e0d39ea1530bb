// `kcraft debug vliw`: the vliw tile's DebugTarget (tb/common/debug_session.h). The functional model is
// cycle-exact, so the RTL and the model are compared at the same cycle in the middle of a run: "after k
// bundles" is the cycle in which bundle k would issue, results still in the exposed pipeline are invisible
// on both sides. The RTL runs bare (the Verilated model with the DRAM timing model every run uses).
#include <fmt/format.h>

#include <algorithm>
#include <stdexcept>

#include "isa/vliw/vliw_iss.h"
#include "tb/common/debug_session.h"
#include "tb/common/evaluation_steps.h"
#include "tb/vliw/vliw_hw.h"
#include "tb/vliw/vliw_platform.h"

namespace kcraft::vliw {

namespace {

using tb::MachineSnapshot;
using tb::SnapshotMemory;
using tb::ValueFormat;

MachineSnapshot snapshot(const MachineState& s, const Params& p, const tb::PreparedRun& run) {
  MachineSnapshot out;
  for (unsigned i = 0; i < kScalarRegisters; ++i)
    out.registers.push_back({"scalar", fmt::format("r{}", i), s.r[i], ValueFormat::kInt});
  for (unsigned i = 0; i < kPointerRegisters; ++i)
    out.registers.push_back({"pointer", fmt::format("p{}", i), s.p[i], ValueFormat::kInt});
  for (unsigned i = 0; i < kLocks; ++i)
    out.registers.push_back({"lock", fmt::format("lock{}", i), s.locks[i], ValueFormat::kInt});
  out.memories.push_back({"v", p.vlen, ValueFormat::kBf16, std::vector<uint64_t>(s.v.begin(), s.v.end())});
  out.memories.push_back({"a", p.vlen, ValueFormat::kFp32, std::vector<uint64_t>(s.a.begin(), s.a.end())});
  SnapshotMemory dm{"dm", p.vlen, ValueFormat::kBf16, {}};
  dm.data.resize(s.dm.size() / 2);
  for (size_t i = 0; i < dm.data.size(); ++i) dm.data[i] = s.dm[2 * i] | (uint64_t{s.dm[2 * i + 1]} << 8);
  out.memories.push_back(std::move(dm));
  if (s.error.code != ErrorCode::kNone) {
    out.status = "error";
    out.why = runtime_error_text(s.error, p, run.program.filename, run.program);
  } else {
    out.status = s.halted ? "halted" : "stopped";
  }
  return out;
}

class VliwDebugTarget final : public tb::DebugTarget {
 public:
  VliwDebugTarget(const tb::PreparedRun& run, const Params& p, std::optional<ModelFault> fault)
      : run_(run), p_(p), fault_(std::move(fault)) {
    dram_.configure(run.job.timing);
    last_cycle_ = run.job.cycle_cap;
  }

  std::vector<uint32_t> model_pcs(uint64_t /*limit*/) override {
    std::vector<uint32_t> pcs;
    issue_cycles_.clear();
    Iss iss(p_);
    iss.reset(run_.job.program);
    iss.on_issue = [&](uint32_t pc, const std::vector<uint32_t>&, uint64_t cycle) {
      pcs.push_back(pc);
      issue_cycles_.push_back(cycle);
    };
    std::vector<uint8_t> dram = run_.job.dram;
    run_model(iss, dram, run_.job.cycle_cap);
    return pcs;
  }

  MachineSnapshot model_after(uint64_t bundles) override {
    Iss iss(p_);
    iss.reset(run_.job.program);
    std::vector<uint8_t> dram = run_.job.dram;
    uint64_t issued = 0;
    iss.on_issue = [&](uint32_t, const std::vector<uint32_t>&, uint64_t) { ++issued; };
    const uint64_t stop = stop_cycle(bundles);
    run_model(iss, dram, stop);
    iss.settle();
    const MachineState& state = iss.state();
    MachineSnapshot s = snapshot(state, p_, run_);
    s.retired = issued;
    s.cycle = iss.counters()[kCycles];
    const bool ended = state.halted || state.error.code != ErrorCode::kNone;
    s.pc = ended ? state.pc : next_pc(bundles);
    if (!ended && bundles >= issue_cycles_.size()) {
      // The model did not halt by the run's last cycle: eval's hang diagnosis, from the model's state.
      HangReport h;
      h.pc = iss.pc();
      h.stall_cause = static_cast<unsigned>(iss.last_stall());
      const Iss::Activity a = iss.activity();
      h.dma_busy_channels = a.dma_busy_channels;
      h.dma_rows_in_flight = a.dma_rows_in_flight;
      h.loop_depth = a.loop_depth;
      for (unsigned l = 0; l < kLocks; ++l) h.locks[l] = static_cast<uint8_t>(state.locks[l]);
      s.pc = iss.pc();
      s.status = "cycle cap";
      s.why = hang_diagnosis(h, stop, run_.program.filename, run_.program).detail;
    }
    append(s.memories, tb::dram_tensors(run_, dram));
    return s;
  }

  MachineSnapshot rtl_after(uint64_t bundles, const std::vector<uint32_t>& /*pcs*/) override {
    VliwHw& hw = this->hw();
    dram_.load(run_.job.dram);
    tb::DramModelPort port(dram_);
    hw.start(run_.job.program, run_.job.dram.size());
    const uint64_t stop = stop_cycle(bundles);
    const uint64_t issued = tb::count_rtl_issues(hw, port, stop);
    const MachineState state = hw.read_state();
    MachineSnapshot s = snapshot(state, p_, run_);
    s.retired = issued;
    // At the end of the run, the cycles `kcraft eval` reports.
    s.cycle = hw.stopped() ? hw.run_length() : hw.cycle();
    // The issue stage's pc: the bundle about to issue (the halted or faulting one at the end).
    s.pc = state.pc;
    if (bundles >= issue_cycles_.size() && !hw.stopped()) {
      // The run's last cycle came before a C_HALT: eval's hang diagnosis (a lock deadlock, ...).
      s.status = "cycle cap";
      s.why = hang_diagnosis(hw.hang_report(), stop, run_.program.filename, run_.program).detail;
    }
    append(s.memories, tb::dram_tensors(run_, dram_.bytes()));
    return s;
  }

  uint64_t rtl_retired_at_cycle(uint64_t cycle) override {
    VliwHw& hw = this->hw();
    dram_.load(run_.job.dram);
    tb::DramModelPort port(dram_);
    hw.start(run_.job.program, run_.job.dram.size());
    return tb::count_rtl_issues(hw, port, cycle);
  }

  std::string describe(uint32_t pc) override {
    const auto& lines = run_.program.word_lines;
    return fmt::format("{}:{}: {}", run_.program.filename, pc < lines.size() ? lines[pc] : 0,
                       bundle_text(run_.program.words, pc));
  }

  std::optional<uint32_t> label(const std::string& name) override {
    const auto it = run_.program.labels.find(name);
    if (it == run_.program.labels.end()) return std::nullopt;
    return static_cast<uint32_t>(it->second);
  }

  const tb::PreparedRun* prepared() const override { return &run_; }
  void limit_cycles(uint64_t cycle) override { last_cycle_ = std::min(last_cycle_, cycle); }

 private:
  static void append(std::vector<SnapshotMemory>& to, std::vector<SnapshotMemory> more) {
    for (auto& m : more) to.push_back(std::move(m));
  }

  // The cycle in which bundle `bundles` issues; the run's last cycle (the cycle cap, or --stop-at-cycle)
  // for the whole run.
  uint64_t stop_cycle(uint64_t bundles) const {
    return bundles < issue_cycles_.size() ? issue_cycles_[bundles] : last_cycle_;
  }
  uint32_t next_pc(uint64_t bundles) const { return bundles < pcs_.size() ? pcs_[bundles] : 0; }

  void run_model(Iss& iss, std::vector<uint8_t>& dram, uint64_t cycles) {
    auto record = iss.on_issue;
    std::vector<uint32_t> pcs;
    iss.on_issue = [&](uint32_t pc, const std::vector<uint32_t>& words, uint64_t cycle) {
      pcs.push_back(pc);
      if (record) record(pc, words, cycle);
    };
    // The fault lands when bundle `after_instruction` would issue, like the stop "after k bundles".
    const uint64_t fault_cycle = fault_ ? stop_cycle(fault_->after_instruction) : 0;
    if (fault_ && fault_cycle <= cycles && !issue_cycles_.empty()) {
      iss.run(dram, fault_cycle);
      iss.settle();
      apply_fault(iss.mutable_state());
    }
    iss.run(dram, cycles);
    if (pcs_.empty()) pcs_ = pcs;
    iss.on_issue = record;
  }

  void apply_fault(MachineState& s) const {
    const std::string& reg = fault_->register_name;
    auto index = [&](char prefix, unsigned count) -> int {
      if (reg.size() < 2 || reg[0] != prefix) return -1;
      const int i = std::stoi(reg.substr(1));
      return i >= 0 && static_cast<unsigned>(i) < count ? i : -1;
    };
    if (int i = index('r', kScalarRegisters); i >= 0) {
      s.r[i] ^= static_cast<uint32_t>(fault_->xor_mask);
    } else if (int j = index('p', kPointerRegisters); j >= 0) {
      s.p[j] ^= static_cast<uint32_t>(fault_->xor_mask);
    } else {
      throw std::invalid_argument("model fault: no register '" + reg + "' (r0..r15, p0..p7)");
    }
  }

  VliwHw& hw() {
    if (!hw_) hw_ = make_vliw_hw(run_.job.config);
    return *hw_;
  }

  const tb::PreparedRun& run_;
  Params p_;
  std::optional<ModelFault> fault_;
  std::unique_ptr<VliwHw> hw_;
  tb::DramModel dram_;
  std::vector<uint64_t> issue_cycles_;  // of the model's run: the cycle each bundle issued in
  std::vector<uint32_t> pcs_;
  uint64_t last_cycle_ = 0;  // no run goes past it
};

}  // namespace

CommandReport VliwPlatform::debug(const DebugOptions& o, const tasks::TaskRegistry& registry) const {
  // The same image `kcraft eval` runs on.
  const auto debug_run = tb::prepare_debug_run(*this, o, registry, vliw_hw_configs, 0);
  if (!debug_run.run) return debug_run.failed;
  const auto& prepared = debug_run.run;
  VliwDebugTarget target(*prepared, Params::from_config(*prepared->hw), o.model_fault);
  return tb::run_debug_session(o, target);
}

}  // namespace kcraft::vliw
