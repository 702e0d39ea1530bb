// The vliw tile's part of the SystemC testbench (tb/common/sc_testbench.h): its host reads back the
// counters, the whole machine state (the error with it) and, at the cycle cap, the hang report, and
// records timelines.
#include <memory>

#include "tb/common/sc_testbench.h"
#include "tb/vliw/vliw_sim.h"
#include "tb/vliw/vliw_timeline.h"

namespace kcraft::vliw {

namespace {

class VliwHost final : public tb::ScHost {
 public:
  using ScHost::ScHost;

  void execute(const RunJob& job, RunResult& out) {
    run(job, out);
    auto& hw = static_cast<VliwHw&>(this->hw());
    out.counters = hw.counters();
    out.state = hw.read_state();
    out.stop = out.timed_out ? RunResult::Stop::kTimeout : RunResult::Stop::kStopped;
    if (out.timed_out) out.hang = hw.hang_report();
  }

 protected:
  std::unique_ptr<tb::TimelineRecorder> make_timeline_recorder(const RunJob& job, double cycle_ns) override {
    return std::make_unique<VliwTimelineRecorder>(job.program, job.timeline_title, cycle_ns);
  }
};

tb::ScWorldSlot& slot() {
  static tb::ScWorldSlot instance(
      "vliw", vliw_hw_configs, make_vliw_hw,
      [](const char* name, tb::ScAccelerator& accel, tb::DramTarget& dram) -> std::unique_ptr<tb::ScHost> {
        return std::make_unique<VliwHost>(name, accel, dram);
      });
  return instance;
}

}  // namespace

void announce_systemc_world() {
  slot().announce();
}

tb::AcceleratorHw& rtl_hw(const std::string& config) {
  return slot().get().hw(config);
}

RunResult simulate(const RunJob& job) {
  RunResult result;
  slot().get().run(job.config, [&](tb::ScHost& host) { static_cast<VliwHost&>(host).execute(job, result); });
  return result;
}

}  // namespace kcraft::vliw
