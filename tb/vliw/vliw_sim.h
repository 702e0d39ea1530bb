// Running kernels on the Verilated vliw tile inside SystemC.
//
// The tile's part of the process's SystemC design (tb/common/sc_run.h) holds, for every hardware
// configuration linked in, the accelerator (a Verilated model advanced many cycles per wait), a TLM-2.0
// DRAM target (tb::DramTarget) and a host that loads programs and data. Kernels run one after another in
// it, with a reset and memory clear in between.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "isa/vliw/vliw_machine.h"
#include "tb/common/run_job.h"
#include "tb/vliw/vliw_hw.h"

namespace kcraft::vliw {

using RunJob = tb::RunJob;

struct RunResult : tb::RunOutcome {
  enum class Stop { kStopped, kTimeout };
  Stop stop = Stop::kStopped;  // kStopped: C_HALT or an error (state.error says which)
  Counters counters{};
  MachineState state;  // every register, accumulator, DM byte, lock, the error
  HangReport hang;     // when stop == kTimeout
};

// Announces the tile's part of the process's SystemC design; the platform does so when it is made,
// simulate() before its first job.
void announce_systemc_world();

// Runs one kernel. Not thread-safe: one simulation per process (use processes for parallelism).
RunResult simulate(const RunJob& job);

// The RTL model of a configuration (for coverage counts: tb/common/rtl_coverage.h).
tb::AcceleratorHw& rtl_hw(const std::string& config);

}  // namespace kcraft::vliw
