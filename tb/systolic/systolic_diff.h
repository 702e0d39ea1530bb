// Differential testing: the same program and DRAM image on the RTL (inside SystemC) and on the
// functional model, compared on the complete architectural state, DRAM, how the run ended, and the
// timing-independent counters.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "isa/systolic/systolic_machine.h"

namespace kcraft::systolic {

struct Divergence {
  std::string what;         // the first difference, e.g. "VSRAM row 3 element 5: 0x3f80 vs 0x3f81"
  uint32_t pc = 0;          // first instruction whose execution makes the two differ (minimised)
  std::string instruction;  // its disassembly
};

struct DiffOutcome {
  std::optional<Divergence> divergence;
  uint64_t cycles = 0;
  uint64_t instructions = 0;
  bool halted_with_error = false;
};

// Runs both and compares. When they differ, truncates the program (replacing instruction k with C_HALT)
// to find the first instruction at which they diverge.
DiffOutcome compare_rtl_and_model(const std::string& hw_config, const std::vector<uint32_t>& program,
                                  const std::vector<uint8_t>& dram, uint64_t cycle_cap = 2'000'000);

}  // namespace kcraft::systolic
