// `kcraft debug systolic`: the systolic NPU's DebugTarget (tb/common/debug_session.h). The RTL runs bare
// (the Verilated model with the DRAM timing model every run uses) and stops by a halt put in place of the
// next instruction; the functional model (Iss) stops after a number of instructions.
#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <stdexcept>

#include "isa/common/disassembler.h"
#include "isa/systolic/systolic_iss.h"
#include "systolic_isa.h"
#include "tb/common/debug_session.h"
#include "tb/common/evaluation_steps.h"
#include "tb/systolic/systolic_hw.h"
#include "tb/systolic/systolic_platform.h"
#include "tb/systolic/systolic_sim.h"

namespace kcraft::systolic {

namespace {

using tb::MachineSnapshot;
using tb::SnapshotMemory;
using tb::SnapshotRegister;
using tb::ValueFormat;

MachineSnapshot snapshot(const MachineState& s, const Params& p, const tb::PreparedRun& run) {
  MachineSnapshot out;
  for (unsigned i = 0; i < 16; ++i)
    out.registers.push_back({"scalar", fmt::format("r{}", i), s.x[i], ValueFormat::kInt});
  for (unsigned i = 0; i < 16; ++i)
    out.registers.push_back({"fp", fmt::format("f{}", i), s.f[i], ValueFormat::kFp32});
  auto memory = [&](const char* name, unsigned width, ValueFormat format, const auto& data) {
    SnapshotMemory m{name, width, format, std::vector<uint64_t>(data.begin(), data.end())};
    out.memories.push_back(std::move(m));
  };
  memory("vsram", p.vlen, ValueFormat::kBf16, s.vsram);
  memory("msram", p.mlen, ValueFormat::kBf16, s.msram);
  memory("acc", p.mlen, ValueFormat::kFp32, s.acc);
  memory("fpsram", 1, ValueFormat::kFp32, s.fpsram);
  memory("weights", p.mlen, ValueFormat::kBf16, s.weights);
  if (s.error.code != ErrorCode::kNone) {
    out.status = "error";
    out.why = runtime_error_text(s.error, p, run.program.filename, run.program);
  } else {
    out.status = s.halted ? "halted" : "running";
  }
  return out;
}

void append(std::vector<SnapshotMemory>& to, std::vector<SnapshotMemory> more) {
  for (auto& m : more) to.push_back(std::move(m));
}

class SystolicDebugTarget final : public tb::DebugTarget {
 public:
  SystolicDebugTarget(const tb::PreparedRun& run, const Params& p, std::optional<ModelFault> fault)
      : run_(run), p_(p), fault_(std::move(fault)) {
    dram_.configure(run.job.timing);
    last_cycle_ = run.job.cycle_cap;
  }

  std::vector<uint32_t> model_pcs(uint64_t limit) override {
    // The RTL issues at most one instruction per cycle: a model run that never halts needs no more
    // instructions than the RTL has cycles.
    limit = std::min(limit, run_.job.cycle_cap);
    std::vector<uint32_t> pcs;
    Iss iss(p_);
    iss.reset(run_.job.program);
    iss.on_issue = [&](uint32_t pc, uint32_t) { pcs.push_back(pc); };
    std::vector<uint8_t> dram = run_.job.dram;
    run_model(iss, dram, limit);
    model_capped_ = !iss.state().halted && iss.state().error.code == ErrorCode::kNone;
    model_cap_ = limit;
    if (model_capped_) {
      // A kernel that does not halt: the RTL's cycle cap ends the run where the RTL has got to.
      SystolicHw& hw = this->hw();
      dram_.load(run_.job.dram);
      tb::DramModelPort port(dram_);
      hw.start(run_.job.program, run_.job.dram.size());
      const uint64_t issued = tb::count_rtl_issues(hw, port, run_.job.cycle_cap);
      if (!hw.stopped() && issued < pcs.size()) {
        pcs.resize(issued);
        rtl_capped_ = true;
      }
      model_cap_ = pcs.size();
    }
    return pcs;
  }

  MachineSnapshot model_after(uint64_t retired) override {
    Iss iss(p_);
    iss.reset(run_.job.program);
    std::vector<uint8_t> dram = run_.job.dram;
    run_model(iss, dram, retired);
    MachineSnapshot s = snapshot(iss.state(), p_, run_);
    s.retired = iss.counters()[kInstructions];
    s.pc = iss.state().halted || iss.state().error.code != ErrorCode::kNone ? iss.state().pc : next_pc_;
    if (!iss.state().halted && iss.state().error.code == ErrorCode::kNone) {
      s.status = "stopped";
      if (rtl_capped_ && retired >= model_cap_) {
        s.status = "stopped";  // where the RTL's cycle cap stopped the RTL
      } else if (model_capped_ && retired >= model_cap_) {
        s.status = "instruction cap";
        s.pc = iss.state().pc;
        s.why = fmt::format(
            "no C_HALT within {} instructions (at most one per cycle of the RTL's {}); next pc {} ({})",
            model_cap_, run_.job.cycle_cap, next_pc_, describe(next_pc_));
      }
    }
    append(s.memories, tb::dram_tensors(run_, dram));
    return s;
  }

  MachineSnapshot rtl_after(uint64_t retired, const std::vector<uint32_t>& pcs) override {
    SystolicHw& hw = this->hw();
    dram_.load(run_.job.dram);
    tb::DramModelPort port(dram_);
    const uint32_t halt = static_cast<uint32_t>(isa::systolic::Op::C_HALT);
    // Stops inside the run drain past the stop cycle; only the end of the run is cut at --stop-at-cycle.
    const uint64_t cap = retired < pcs.size() ? run_.job.cycle_cap : last_cycle_;
    const bool stopped =
        tb::run_rtl_until_retired(hw, port, run_.job.program, run_.job.dram.size(), retired, pcs, halt, cap);
    const MachineState state = hw.read_state();
    MachineSnapshot s = snapshot(state, p_, run_);
    // At the end of the run, the cycles `kcraft eval` reports.
    s.cycle = stopped ? hw.run_length() : hw.cycle();
    s.pc = state.pc;
    s.retired = hw.counters()[kInstructions];
    if (!stopped) {
      // No C_HALT (the program's or the stop's) by the run's last cycle: eval's hang diagnosis.
      s.status = "cycle cap";
      s.why = hang_diagnosis(hw.hang_report(), cap, run_.program.filename, run_.program).detail;
    } else if (retired < pcs.size() && state.error.code == ErrorCode::kNone) {
      // The RTL counts the halt the stop put in as an instruction; the model never executes that one. The
      // stop replaced instruction `retired` of the model's path; a different pc or count means the RTL
      // went another way (the comparison then reports the pc or the count).
      s.retired -= std::min<uint64_t>(s.retired, 1);
      s.status = state.pc == pcs[retired] && s.retired == retired
                     ? "stopped"
                     : fmt::format("stopped at pc {} after {} instructions, not where the model's path stops",
                                   state.pc, s.retired);
    }
    append(s.memories, tb::dram_tensors(run_, dram_.bytes()));
    return s;
  }

  uint64_t rtl_retired_at_cycle(uint64_t cycle) override {
    SystolicHw& hw = this->hw();
    dram_.load(run_.job.dram);
    tb::DramModelPort port(dram_);
    hw.start(run_.job.program, run_.job.dram.size());
    return tb::count_rtl_issues(hw, port, cycle);
  }

  std::string describe(uint32_t pc) override {
    const auto& words = run_.program.words;
    const auto& lines = run_.program.word_lines;
    if (pc >= words.size()) return fmt::format("pc {} (outside the program)", pc);
    return fmt::format("{}:{}: {}", run_.program.filename, pc < lines.size() ? lines[pc] : 0,
                       isa::disassemble(isa::systolic::spec(), words[pc]));
  }

  std::optional<uint32_t> label(const std::string& name) override {
    const auto it = run_.program.labels.find(name);
    if (it == run_.program.labels.end()) return std::nullopt;
    return static_cast<uint32_t>(it->second);
  }

  const tb::PreparedRun* prepared() const override { return &run_; }
  void limit_cycles(uint64_t cycle) override { last_cycle_ = std::min(last_cycle_, cycle); }

 private:
  // Runs the model `retired` instructions, applying the test fault on the way; records the next pc.
  void run_model(Iss& iss, std::vector<uint8_t>& dram, uint64_t retired) {
    next_pc_ = 0;
    iss.on_issue = [&, previous = iss.on_issue](uint32_t pc, uint32_t word) {
      next_pc_ = pc;
      if (previous) previous(pc, word);
    };
    if (fault_ && fault_->after_instruction <= retired) {
      iss.run(dram, fault_->after_instruction);
      apply_fault(iss.mutable_state());
      iss.run(dram, retired - fault_->after_instruction);
    } else {
      iss.run(dram, retired);
    }
    // on_issue saw the last executed instruction; the next one is where the stop is.
    if (!iss.state().halted && iss.state().error.code == ErrorCode::kNone)
      next_pc_ = probe_next_pc(iss, dram);
  }

  // The pc the model would execute next: step one instruction on a copy.
  static uint32_t probe_next_pc(const Iss& iss, const std::vector<uint8_t>& dram) {
    Iss copy = iss;
    std::vector<uint8_t> scratch = dram;
    uint32_t next = 0;
    copy.on_issue = [&](uint32_t pc, uint32_t) { next = pc; };
    copy.run(scratch, 1);
    return next;
  }

  void apply_fault(MachineState& s) const {
    const std::string& reg = fault_->register_name;
    auto index = [&](char prefix) -> int {
      if (reg.size() < 2 || reg[0] != prefix) return -1;
      const int i = std::stoi(reg.substr(1));
      return i >= 0 && i < 16 ? i : -1;
    };
    if (int i = index('r'); i >= 0) {
      s.x[i] ^= static_cast<uint32_t>(fault_->xor_mask);
    } else if (int j = index('f'); j >= 0) {
      s.f[j] ^= static_cast<uint32_t>(fault_->xor_mask);
    } else {
      throw std::invalid_argument("model fault: no register '" + reg + "' (r0..r15, f0..f15)");
    }
  }

  SystolicHw& hw() {
    if (!hw_) hw_ = make_systolic_hw(run_.job.config);
    return *hw_;
  }

  const tb::PreparedRun& run_;
  Params p_;
  std::optional<ModelFault> fault_;
  std::unique_ptr<SystolicHw> hw_;
  tb::DramModel dram_;
  uint32_t next_pc_ = 0;
  uint64_t last_cycle_ = 0;    // no RTL run goes past it (the cycle cap, or --stop-at-cycle)
  bool model_capped_ = false;  // the model's run to the end reached its instruction cap
  uint64_t model_cap_ = 0;
  bool rtl_capped_ = false;  // ... and the RTL got less far by its cycle cap: the run ends there
};

}  // namespace

CommandReport SystolicPlatform::debug(const DebugOptions& o, const tasks::TaskRegistry& registry) const {
  // The same image `kcraft eval` runs on: the inputs, and unused DRAM reading as 0xFF.
  const auto debug_run = tb::prepare_debug_run(*this, o, registry, systolic_hw_configs, 0xFF);
  if (!debug_run.run) return debug_run.failed;
  const auto& prepared = debug_run.run;
  SystolicDebugTarget target(*prepared, Params::from_config(*prepared->hw), o.model_fault);
  return tb::run_debug_session(o, target);
}

}  // namespace kcraft::systolic
