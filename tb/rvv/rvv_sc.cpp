// The rvv core's part of the SystemC testbench (tb/common/sc_testbench.h): its host loads a linked program
// (ITCM and DTCM words, the loader's host words) instead of bare IMEM words, and reads back the counters,
// the error, the registers and crt0's end-state signature; timelines come from RvvTimelineRecorder.
#include <memory>

#include "tb/common/sc_testbench.h"
#include "tb/rvv/rvv_sim.h"
#include "tb/rvv/rvv_timeline.h"

namespace kcraft::rvv {

namespace {

class RvvHost final : public tb::ScHost {
 public:
  using ScHost::ScHost;

  void execute(const RunJob& job, const ElfImage& program, SimResult& out) {
    program_ = &program;
    run(job, out);
    program_ = nullptr;
    auto& hw = static_cast<RvvHw&>(this->hw());
    out.stopped = !out.timed_out && hw.stopped();
    out.error = hw.error();
    out.counters = hw.counters();
    out.pc = hw.pc();
    out.stall = hw.stall();
    for (unsigned i = 1; i < 32; ++i) out.x[i] = hw.xreg(i);
    if (out.stopped && out.error.code == ErrorCode::kNone) out.signature = hw.signature();
  }

 protected:
  // The linked program through the control port (RvvHw::load_writes: ITCM, DTCM, the host words).
  void load_program(const RunJob& job) override {
    const auto& hw = static_cast<const RvvHw&>(this->hw());
    for (const CtlWrite& w : hw.load_writes(*program_, job.dram.size())) ctl_write(w.addr, w.data);
  }

  std::unique_ptr<tb::TimelineRecorder> make_timeline_recorder(const RunJob& job, double cycle_ns) override {
    return std::make_unique<RvvTimelineRecorder>(job.program, job.timeline_title, cycle_ns);
  }

 private:
  const ElfImage* program_ = nullptr;
};

tb::ScWorldSlot& slot() {
  static tb::ScWorldSlot instance(
      "rvv", rvv_hw_configs, [](const std::string& config) { return make_rvv_hw(config); },
      [](const char* name, tb::ScAccelerator& accel, tb::DramTarget& dram) -> std::unique_ptr<tb::ScHost> {
        return std::make_unique<RvvHost>(name, accel, dram);
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

SimResult simulate(const RunJob& job, const ElfImage& program) {
  SimResult result;
  slot().get().run(job.config,
                   [&](tb::ScHost& host) { static_cast<RvvHost&>(host).execute(job, program, result); });
  return result;
}

}  // namespace kcraft::rvv
