// Running kernels on the Verilated systolic NPU inside SystemC.
//
// The process elaborates one SystemC design holding, for every hardware configuration linked in, the
// accelerator (a Verilated model advanced many cycles per wait), a TLM-2.0 DRAM target and a host that
// loads programs and data. Kernels run one after another in it, with a reset and memory clear in between.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "isa/systolic/systolic_machine.h"
#include "tb/common/run_job.h"
#include "tb/systolic/systolic_hw.h"

namespace kcraft::systolic {

using RunJob = tb::RunJob;

struct RunResult : tb::RunOutcome {
  enum class Stop { kHalted, kError, kTimeout };
  Stop stop = Stop::kHalted;
  Counters counters{};
  MachineError error;  // when stop == kError
  HangReport hang;     // when stop == kTimeout
  MachineState state;  // when job.read_state
};

// Announces this testbench's part of the process's SystemC design (tb/common/sc_run.h); the platform does
// so when it is made, run_on_rtl before its first job.
void announce_systemc_world();

// Runs one kernel. Not thread-safe: one simulation per process (use processes for parallelism).
RunResult run_on_rtl(const RunJob& job);

// The RTL model of a configuration (for coverage counts: tb/common/rtl_coverage.h).
tb::AcceleratorHw& rtl_hw(const std::string& config);

// The parameters of a linked configuration as its RTL reports them.
Params rtl_params(const std::string& config);

}  // namespace kcraft::systolic
