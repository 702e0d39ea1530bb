// Curves, not only end points (docs/bench.md, "Curves"): per (agent, target), the share of cells solved
// against iterations used and against tokens spent (KernelCraft's figures), and the speedup reached against
// iterations, from each run's trajectory.
//
//   trajectory    per iteration of a run: the prompt + completion tokens spent so far, whether a run_eval
//                 (development seed) has passed by then and the fewest cycles of such a pass so far. The
//                 worker derives it from the run's transcript events and the store keeps it (schema 7);
//                 for runs stored before, the report reads the transcript file, else falls back to the
//                 record's summary fields (first_pass_iteration, total tokens).
//   solved at     a correct run (hidden-seed verdict pass) is solved from the first iteration whose run_eval
//                 passed, with the tokens spent up to then; a correct run that never ran run_eval (the
//                 baseline, a kernel submitted untested) from its last iteration (at least 1), with all its
//                 tokens. A run that is not correct is never solved, whatever its development runs said.
//   solved share  at iteration i (or t tokens): the mean over the group's cells of the share of the cell's
//                 finished attempts solved by then, i.e. the expected share of cells one attempt solves
//                 within i iterations (t tokens). At the budget it is pass@1 (uncertainty.h).
//   speedup       at iteration i: the geometric mean, over the runs solved by then that have a baseline, of
//                 baseline_cycles / the fewest cycles of a passing development-seed run_eval so far (the
//                 run's recorded speedup when it has none). Every attempt counts, as in the summary's
//                 geomean; a newly solved slow run can lower it, so read it with the solved share.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "agent/bench/metrics.h"
#include "agent/bench/run_record.h"

namespace kcraft::bench {

// One iteration of a run (RunRecord::trajectory's entries).
struct TrajectoryPoint {
  unsigned iteration = 0;
  uint64_t tokens = 0;       // prompt + completion tokens up to and including this iteration
  bool passed = false;       // a development-seed run_eval passed at this iteration or before
  uint64_t best_cycles = 0;  // fewest cycles of such a pass so far (0: none)
  bool operator==(const TrajectoryPoint& o) const {
    return iteration == o.iteration && tokens == o.tokens && passed == o.passed &&
           best_cycles == o.best_cycles;
  }
};

// From a transcript's events (agent/common/transcript.h): one point per iteration (>= 1) that has a model
// response or a tool result, in iteration order. Tokens come from the llm_response usage, passes and
// cycles from run_eval tool results that are not errors. Events of iteration 0 (a search's seed
// candidates, the baseline agent's calls) are the agent's starting point, not its work: left out, as
// first_pass_iteration leaves them out.
std::vector<TrajectoryPoint> trajectory_from_events(const std::vector<nlohmann::json>& events);
nlohmann::json trajectory_json(const std::vector<TrajectoryPoint>& points);
// Throws std::invalid_argument when `j` is not an array of such points.
std::vector<TrajectoryPoint> trajectory_from_json(const nlohmann::json& j);

// Where a run's progress came from.
enum class ProgressSource { kStored, kTranscript, kSummary };
const char* progress_source_name(ProgressSource s);

// What the curves need of one run.
struct RunProgress {
  ProgressSource source = ProgressSource::kSummary;
  std::optional<unsigned> solved_at;  // correct runs only
  uint64_t solved_tokens = 0;         // tokens spent by solved_at
  uint64_t tokens_spent = 0;          // by the end of the run
  // (iteration, best speedup from that iteration on), increasing in both; empty without a baseline.
  std::vector<std::pair<unsigned, double>> speedup_steps;
  bool solved_by(unsigned iteration) const { return solved_at && *solved_at <= iteration; }
  std::optional<double> speedup_at(unsigned iteration) const;
};

// The run's progress from a given trajectory (nullptr: none, the summary fields only).
RunProgress run_progress(const RunRecord& run, const std::vector<TrajectoryPoint>* trajectory,
                         ProgressSource source);
// The run's progress from its stored trajectory, else its transcript file, else its summary fields. Only a
// correct run needs a trajectory (the others are never solved), so only theirs are read.
RunProgress run_progress(const RunRecord& run);

struct CurveIterationPoint {
  unsigned iteration = 0;
  double solved = 0;                      // expected share of cells solved by this iteration
  std::optional<double> geomean_speedup;  // over the runs solved by then that have a speedup
  unsigned speedup_runs = 0;              // that sample's size
};

struct CurveTokenPoint {
  uint64_t tokens = 0;
  double solved = 0;  // from `tokens` on (up to the next point): expected share of cells solved
};

// One agent on one target.
struct CurveGroup {
  std::string agent, platform, hw_config;
  unsigned cells = 0;           // cells with at least one finished attempt
  unsigned runs = 0;            // their finished attempts
  unsigned max_iterations = 0;  // the x-axis: the largest budget (or iterations used) of its runs, >= 1
  uint64_t max_tokens = 0;      // the most tokens any of its runs spent
  unsigned from_stored = 0, from_transcript = 0, from_summary = 0;  // correct runs by progress source
  std::vector<CurveIterationPoint> by_iteration;                    // iterations 1..max_iterations
  std::vector<CurveTokenPoint> by_tokens;  // a step function: first at 0 tokens, then where it rises
  std::string target() const { return platform + "/" + hw_config; }
  nlohmann::json to_json() const;
};

struct Curves {
  std::vector<CurveGroup> groups;  // in the order of the metrics' columns (target-major)
  nlohmann::json to_json() const;
};

// Over the metrics' cells (the runs of unsupported or unplanned cells are not read). `progress` gives each
// run's progress (run_progress by default).
Curves compute_curves(const std::vector<RunRecord>& runs, const Metrics& metrics,
                      const std::function<RunProgress(const RunRecord&)>& progress = {});

// Per (agent, target), where each curve changes: "iteration:share" steps, "tokens:share" steps and
// "iteration:geomean" steps. With `only_if_informative`, empty unless some run spent tokens (an LLM agent:
// the offline agents' curves say little beyond their end points).
std::string curves_table(const Curves& c, bool only_if_informative = false);

}  // namespace kcraft::bench
