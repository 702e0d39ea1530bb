// The loops and reports of the hardware-team commands every platform implements (tb/common/platform.h):
// `kcraft validate` (a random differential campaign) and `kcraft speed` (SystemC against bare Verilator).
// A platform supplies one step of each; the counting, timing and wording are shared.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "tb/common/platform.h"

namespace kcraft::tb {

// The first place where the RTL and the functional model disagree.
struct CampaignDivergence {
  uint32_t pc = 0;
  std::string issued;      // the first diverging instruction (bundle) as text
  std::string difference;  // "x3: RTL 0x... model 0x..."
};

// One random program of a campaign, generated, run on both and compared.
struct CampaignStep {
  std::vector<uint32_t> words;
  std::string listing;   // the program as assembly text, for the report of a divergence
  uint64_t cycles = 0;   // RTL cycles
  uint64_t issued = 0;   // instructions (bundles) issued
  bool faulted = false;  // ended in a deliberate fault
  std::optional<CampaignDivergence> divergence;
};

struct CampaignWording {
  std::string unit = "instruction";  // what issues: "instruction", "bundle"
  std::string agreed_on;             // "every register, SRAM, ..., DRAM byte, error and counter"
};

// Runs options.programs steps with seeds seed, seed+1, ... and stops at the first divergence, reporting
// how to reproduce it.
CommandReport run_validation_campaign(const std::string& platform, const ValidationOptions& options,
                                      const CampaignWording& wording,
                                      const std::function<CampaignStep(uint64_t seed)>& step);

// Times `systemc_run` and `bare_run` (each runs the workload once and returns its cycles) options.repeats
// times each, alternating; the two must agree on the cycles. Reports the median rates and their ratio.
CommandReport run_speed_comparison(const std::string& platform, const SpeedOptions& options,
                                   double target_ratio, const std::function<uint64_t()>& systemc_run,
                                   const std::function<uint64_t()>& bare_run);

}  // namespace kcraft::tb
