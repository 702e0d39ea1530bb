// `kcraft codesign`: running a workload's best kernels with their timelines into a WeightedProfile
// (agent/bench/codesign.h).
#pragma once

#include <cstdint>
#include <ostream>
#include <string>
#include <vector>

#include "agent/bench/codesign.h"
#include "tasks/common/task_spec.h"

namespace kcraft::bench::codesign {

struct RunOptions {
  std::string platform;
  std::string hw = "default";
  std::vector<WorkloadItem> workload;
  // A results store whose best passing kernel of a cell (the library: tuner, agents; the tuned baselines)
  // is run; "" or a missing file: the baseline kernel everywhere.
  std::string db;
  uint64_t seed = 1;
};

// Runs the best passing kernel of every workload item on the RTL with its timeline and profiles it. Items
// without a passing kernel (unsupported, none passes) are listed in `skipped`. Throws std::invalid_argument
// for an unknown platform, task or configuration.
WeightedProfile run_workload(const RunOptions& options, const tasks::TaskRegistry& registry,
                             std::ostream& log);

// Fills cells_added of the parameter candidates from `kcraft explore`'s synthesis cache
// (agent/bench/explore.h) when it holds the sizes of both the current and the proposed value. With
// `synthesize`, the sizes the cache lacks are synthesized first (yosys, as `kcraft explore` does; progress
// and failures on `log`). Others keep -1.
void fill_cells_added(const WeightedProfile& profile, std::vector<Candidate>& candidates,
                      bool synthesize = false, std::ostream* log = nullptr);

}  // namespace kcraft::bench::codesign
