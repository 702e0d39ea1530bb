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

#include <string>

#include "agent/bench/run_record.h"
#include "agent/bench/tuned_baseline_record.h"

namespace kcraft::bench {

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
