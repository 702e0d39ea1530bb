// The autotuned baseline of a cell as the results store keeps it (table tuned_baselines): its key and what
// the tuner's run measured. What the tuned baseline is and how it is computed: tuned_baseline.h.
#pragma once

#include <cstdint>
#include <string>
#include <tuple>

#include <nlohmann/json.hpp>

namespace kcraft::bench {

struct TunedBaselineKey {
  std::string platform, hw_config, task, config;
  std::string hardware_id;   // HardwareRecord::id of the hardware configuration
  std::string git_commit;    // of the kcraft that measured it (the runs it applies to share it)
  std::string search_space;  // agent::tuner_search_space_id(): knobs, candidates, baseline kernel, budget

  std::string cell() const { return platform + "/" + hw_config + "/" + task + "/" + config; }
  auto tie() const {
    return std::tie(platform, hw_config, task, config, hardware_id, git_commit, search_space);
  }
  bool operator<(const TunedBaselineKey& o) const { return tie() < o.tie(); }
  bool operator==(const TunedBaselineKey& o) const { return tie() == o.tie(); }
};

struct TunedBaseline {
  TunedBaselineKey key;
  uint64_t cycles = 0;           // the tuner's kernel on the first hidden seed; 0: none correct on them
  uint64_t baseline_cycles = 0;  // the template baseline on the same seed (for reference)
  unsigned budget = 0;           // iterations the tuner was allowed
  unsigned iterations = 0;       // iterations it used
  std::string kernel;            // the tuned kernel
  std::string source;            // how it was obtained, for humans: "tuner run ... of sweep ..." etc.
  std::string transcript;        // the tuner run's transcript ("" when none was kept)
  std::string computed_at;       // UTC time it was stored
  double seconds = 0;            // wall time of the tuner run

  double speedup_over_baseline() const;  // baseline_cycles / cycles, 0 when either is missing
  nlohmann::json to_json() const;
};

}  // namespace kcraft::bench
