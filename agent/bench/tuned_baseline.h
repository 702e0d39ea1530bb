// The autotuned baseline: the offline tuner's best kernel for a (hardware configuration, task,
// configuration), its cycles measured like the template baseline's (on the first hidden seed).
//
// The template compiler's default knobs are the baseline every speedup is reported against; a gain that
// only comes from a weak default shows up against the tuned baseline instead. The tuned baseline is one
// fixed run of the tuner (default budget by level, development seed 1: agent/tuner/tuner.h), so it does
// not depend on a sweep's --budget or --seed. It is computed once per
//   (platform, hardware configuration, task, configuration, hardware id, git commit, search space)
// and cached in the results store (table tuned_baselines): a new commit, a changed hardware
// configuration file or a changed knob space gets a new one. A sweep in which the tuner itself runs under
// that definition stores the tuner's result as the tuned baseline, so it costs nothing more.
#pragma once

#include <cstdint>
#include <string>

#include <nlohmann/json.hpp>

#include "agent/bench/run_record.h"

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

// The key this kcraft gives the cell; key.search_space is empty when the template compiler has no
// kernel for it (then there is no tuned baseline). Simulates nothing.
TunedBaselineKey tuned_baseline_key(const std::string& platform, const std::string& hw_config,
                                    const std::string& task, const std::string& config,
                                    const std::string& hardware_id);

// Whether a finished run is a run of the tuned baseline's definition for `key`: the tuner agent with the
// default budget on the tuned-baseline development seed, by the same kcraft on the same hardware, and
// its job did not fail. Such a run's result is the tuned baseline.
bool defines_tuned_baseline(const RunRecord& run, const TunedBaselineKey& key, unsigned default_budget);
TunedBaseline tuned_baseline_from_run(const RunRecord& run, const TunedBaselineKey& key,
                                      const std::string& source);

// Runs the tuner in this process under the tuned baseline's definition (a few seconds to a minute).
// `transcript` may be empty (kept in memory only).
TunedBaseline compute_tuned_baseline(const TunedBaselineKey& key, const std::string& transcript);

}  // namespace kcraft::bench
