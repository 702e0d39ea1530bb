// The systolic NPU's part of the SystemC testbench (tb/common/sc_testbench.h): its host reads back the
// counters, the error or hang report and, when asked, the whole machine state, and records timelines.
#include <memory>

#include "tb/common/sc_testbench.h"
#include "tb/systolic/systolic_regs.h"
#include "tb/systolic/systolic_sim.h"
#include "tb/systolic/systolic_timeline.h"

namespace kcraft::systolic {

namespace {

class SystolicHost final : public tb::ScHost {
 public:
  using ScHost::ScHost;

  void execute(const RunJob& job, RunResult& out) {
    run(job, out);
    auto& hw = static_cast<SystolicHw&>(this->hw());
    for (unsigned i = 0; i < kNumCounters; ++i) out.counters[i] = dbg_read64(regs::kDbgCounter, i);
    if (out.timed_out) {
      out.stop = RunResult::Stop::kTimeout;
      out.hang = hw.hang_report();
    } else {
      const auto code = static_cast<ErrorCode>(dbg_read64(regs::kDbgStatus, regs::kStErrCode));
      out.stop = code == ErrorCode::kNone ? RunResult::Stop::kHalted : RunResult::Stop::kError;
      if (code != ErrorCode::kNone) {
        out.error.code = code;
        out.error.pc = static_cast<uint32_t>(dbg_read64(regs::kDbgStatus, regs::kStErrPc));
        out.error.lo = dbg_read64(regs::kDbgStatus, regs::kStErrLo);
        out.error.hi = dbg_read64(regs::kDbgStatus, regs::kStErrHi);
      }
    }
    if (job.read_state) out.state = hw.read_state();
  }

 protected:
  std::unique_ptr<tb::TimelineRecorder> make_timeline_recorder(const RunJob& job, double cycle_ns) override {
    return std::make_unique<SystolicTimelineRecorder>(static_cast<SystolicHw&>(hw()).params(),
                                                      job.timeline_title, cycle_ns);
  }
};

tb::ScWorldSlot& slot() {
  static tb::ScWorldSlot instance(
      "systolic", systolic_hw_configs, make_systolic_hw,
      [](const char* name, tb::ScAccelerator& accel, tb::DramTarget& dram) -> std::unique_ptr<tb::ScHost> {
        return std::make_unique<SystolicHost>(name, accel, dram);
      });
  return instance;
}

}  // namespace

void announce_systemc_world() {
  slot().announce();
}

RunResult run_on_rtl(const RunJob& job) {
  RunResult result;
  slot().get().run(job.config,
                   [&](tb::ScHost& host) { static_cast<SystolicHost&>(host).execute(job, result); });
  return result;
}

tb::AcceleratorHw& rtl_hw(const std::string& config) {
  return slot().get().hw(config);
}

Params rtl_params(const std::string& config) {
  return static_cast<SystolicHw&>(slot().get().hw(config)).params();
}

}  // namespace kcraft::systolic
