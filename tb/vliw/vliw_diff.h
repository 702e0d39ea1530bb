// Differential testing of the vliw RTL against its functional model: the same program and DRAM image on
// the Verilated RTL (driven cycle by cycle, DRAM timed by tb::DramModel) and on the ISS, compared on the
// complete architectural state (registers, accumulators, DM, locks, halt, error with pc and values),
// DRAM, and every counter including the cycle count: the model is cycle-exact, so they must agree cycle
// for cycle.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "isa/vliw/vliw_machine.h"
#include "tb/vliw/vliw_hw.h"

namespace kcraft::vliw {

struct RtlRun {
  enum class Stop { kStopped, kCycleCap };
  Stop stop = Stop::kStopped;
  uint64_t cycles = 0;  // the cycles counter (the RTL's own)
  Counters counters{};
  MachineState state;
  std::vector<uint8_t> dram;  // final DRAM image
  HangReport hang;            // when stop == kCycleCap
};

// Runs `program` on `hw` with DRAM timed by `timing`'s dram_latency and dram_bytes_per_cycle.
RtlRun run_on_rtl(VliwHw& hw, const Params& timing, const std::vector<uint32_t>& program,
                  const std::vector<uint8_t>& dram, uint64_t cycle_cap);

struct Divergence {
  std::string what;    // the first difference, e.g. "r3: 0x00000001 vs 0x00000002" (RTL vs model)
  uint32_t pc = 0;     // first bundle whose execution makes the two differ (minimised)
  std::string bundle;  // its disassembly
};

struct DiffOutcome {
  std::optional<Divergence> divergence;
  uint64_t cycles = 0;
  uint64_t bundles = 0;
  bool faulted = false;  // the program ended in an error (on both)
};

// The first difference between an RTL run and the model's run of the same program, or nullopt.
std::optional<std::string> compare_runs(const RtlRun& rtl, const class Iss& iss,
                                        const std::vector<uint8_t>& model_dram);

// Runs both and compares. When they differ, cuts the program after fewer and fewer bundles (a C_HALT
// bundle in place of the rest) to find the first bundle at which they diverge.
DiffOutcome compare_rtl_and_model(VliwHw& hw, const Params& params, const std::vector<uint32_t>& program,
                                  const std::vector<uint8_t>& dram, uint64_t cycle_cap = 2'000'000);

// The Params of a Verilated configuration: what the RTL reports, with the runtime DRAM timing of its
// configuration file (rtl/vliw/configs/<config>.yaml).
Params rtl_params_with_timing(VliwHw& hw);

}  // namespace kcraft::vliw
