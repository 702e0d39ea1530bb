// myaccel's part of the SystemC testbench (tb/common/sc_testbench.h): its host reads back the counters and
// the machine state; and the bare runs and comparisons of tb/myaccel/myaccel_sim.h.
#include "tb/myaccel/myaccel_sim.h"

#include <memory>

#include <fmt/format.h>

#include "isa/common/hw_config.h"
#include "tb/common/dram_model.h"
#include "tb/common/paths.h"
#include "tb/common/sc_testbench.h"

namespace kcraft::myaccel {

namespace {

class MyaccelHost final : public tb::ScHost {
 public:
  using ScHost::ScHost;

  void execute(const RunJob& job, RunResult& out) {
    run(job, out);
    auto& hw = static_cast<MyaccelHw&>(this->hw());
    out.counters = hw.counters();
    out.state = hw.read_state();
    out.hang_pc = hw.status(tb::regs::kStPc);
  }
  // No timeline recorder yet (TEAM: docs/platforms.md §5; tb/vliw/vliw_timeline.cpp is a small one).
};

tb::ScWorldSlot& slot() {
  static tb::ScWorldSlot instance(
      "myaccel", myaccel_hw_configs, make_myaccel_hw,
      [](const char* name, tb::ScAccelerator& accel, tb::DramTarget& dram) -> std::unique_ptr<tb::ScHost> {
        return std::make_unique<MyaccelHost>(name, accel, dram);
      });
  return instance;
}

}  // namespace

void announce_systemc_world() {
  slot().announce();
}

RunResult simulate(const RunJob& job) {
  RunResult result;
  slot().get().run(job.config,
                   [&](tb::ScHost& host) { static_cast<MyaccelHost&>(host).execute(job, result); });
  return result;
}

RunResult run_on_rtl(MyaccelHw& hw, const Params& timing, const std::vector<uint32_t>& program,
                     const std::vector<uint8_t>& dram, uint64_t cycle_cap) {
  tb::DramModel model;
  model.configure(tb::DramTiming{timing.dram_latency, timing.dram_bytes_per_cycle});
  model.load(dram);
  tb::DramModelPort port(model);
  hw.start(program, dram.size());
  while (!hw.stopped() && hw.cycle() < cycle_cap) hw.run_cycles(cycle_cap - hw.cycle(), port);
  RunResult r;
  r.timed_out = !hw.stopped();
  r.cycles = hw.cycle();
  r.counters = hw.counters();
  r.state = hw.read_state();
  r.hang_pc = hw.status(tb::regs::kStPc);
  r.dram = std::move(model.bytes());
  return r;
}

std::optional<std::string> compare_with_model(const RunResult& rtl, const Iss& iss, const Iss::Result& model,
                                              const std::vector<uint8_t>& model_dram, uint64_t cycle_cap) {
  const bool model_capped = model.stop == Iss::Stop::kCycleCap;
  if (rtl.timed_out != model_capped) {
    return rtl.timed_out
               ? fmt::format("the RTL did not stop within {} cycles (pc {}), the model did after {}",
                             cycle_cap, rtl.hang_pc, model.cycles)
               : fmt::format("the RTL stopped after {} cycles, the model ran into the cap of {}", rtl.cycles,
                             cycle_cap);
  }
  if (rtl.timed_out) return std::nullopt;
  if (rtl.cycles != model.cycles) return fmt::format("cycles: {} vs {}", rtl.cycles, model.cycles);
  if (auto d = rtl.state.first_difference(iss.state(), iss.params())) return *d;
  for (size_t i = 0; i < rtl.dram.size() && i < model_dram.size(); ++i) {
    if (rtl.dram[i] != model_dram[i]) {
      return fmt::format("DRAM byte 0x{:x}: 0x{:02x} vs 0x{:02x}", i, rtl.dram[i], model_dram[i]);
    }
  }
  for (unsigned k = 0; k < kNumCounters; ++k) {
    if (rtl.counters[k] != iss.counters()[k]) {
      return fmt::format("counter {}: {} vs {}", counter_name(k), rtl.counters[k], iss.counters()[k]);
    }
  }
  return std::nullopt;
}

Params rtl_params_with_timing(MyaccelHw& hw) {
  Params p = hw.params();
  const Params file =
      Params::from_config(load_hw_config(hw_config_dir("myaccel") / (hw.config_name() + ".yaml")));
  p.dram_latency = file.dram_latency;
  p.dram_bytes_per_cycle = file.dram_bytes_per_cycle;
  return p;
}

}  // namespace kcraft::myaccel
