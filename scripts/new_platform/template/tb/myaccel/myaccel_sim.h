// Running kernels on the Verilated myaccel_top: inside SystemC (the shared testbench, tb/common/
// sc_testbench.h; what `kcraft eval` uses) and bare, on a plain DRAM model (the validation campaign and the
// bare half of `kcraft speed`); and the comparison of a run with the functional model's.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "isa/myaccel/myaccel_iss.h"
#include "tb/common/run_job.h"
#include "tb/myaccel/myaccel_hw.h"

namespace kcraft::myaccel {

using RunJob = tb::RunJob;

struct RunResult : tb::RunOutcome {
  Counters counters{};
  MachineState state;    // every register, the error
  uint32_t hang_pc = 0;  // where the core was when the cycle cap ended the run
};

// Announces myaccel's part of the process's SystemC design; the platform does so when it is made.
void announce_systemc_world();
// Runs one kernel in SystemC. Not thread-safe: one simulation per process.
RunResult simulate(const RunJob& job);

// Runs a program on a bare driver with a tb::DramModel of the parameters' timing.
RunResult run_on_rtl(MyaccelHw& hw, const Params& timing, const std::vector<uint32_t>& program,
                     const std::vector<uint8_t>& dram, uint64_t cycle_cap);

// The first difference between an RTL run and the functional model's run of the same program (state,
// DRAM, counters; both stopped or both capped), or nullopt.
std::optional<std::string> compare_with_model(const RunResult& rtl, const Iss& iss, const Iss::Result& model,
                                              const std::vector<uint8_t>& model_dram, uint64_t cycle_cap);

// The configuration's parameters as the RTL reports them, with the DRAM timing of its file.
Params rtl_params_with_timing(MyaccelHw& hw);

}  // namespace kcraft::myaccel
