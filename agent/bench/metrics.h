// Metrics over stored runs (docs/bench.md defines each precisely).
//
//   correct run         its verdict on the hidden seeds is pass
//   solved config       at least one attempt of (agent, target, task, config) is correct
//   configs solved      per (agent, target, task): solved configs out of the supported ones (5 when the
//                       platform runs every configuration), with level subtotals and totals: the
//                       KernelCraft table
//   speedup             baseline cycles / cycles of a correct kernel on the first hidden seed; per
//                       configuration the best over its correct attempts
//   fast_p              share of runs (every attempt counts) that are correct and at least p times as
//                       fast as the baseline: fast_0 is the share of correct runs; for p > 0 a correct run
//                       without a baseline to compare with does not count; runs whose job failed count
//                       as runs that are not fast
//   geomean speedup     geometric mean of the speedups of the correct runs that have one
//   ... vs tuned        the same against the autotuned baseline (tuned_baseline.h) instead of the template
//                       compiler's default knobs, over the runs whose tuned baseline is known: a gain that
//                       only comes from a weak default is > 1 over the baseline and about 1 over the tuned
//   ... vs compiler     the speedup against the platform's compiler baseline (the compiler's build of the
//                       plain reference) over the correct runs that have one; per configuration the best
//   first valid / pass  mean iteration of the first kernel that assembled / passed the development run,
//                       over the runs that got there (with how many did)
//   tokens per run      mean prompt + completion tokens
//   cost                USD of the model calls at the settings' prices (cost.h): total, per run and per
//                       solved configuration; unknown (never 0) when a run called a model without prices
#pragma once

#include <array>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "agent/bench/run_record.h"

namespace kcraft::bench {

inline constexpr std::array<double, 4> kFastP = {0.0, 1.0, 1.5, 2.0};

// One configuration of one agent on one target: its attempts summarised.
struct CellSummary {
  std::string agent, platform, hw_config, task, config;
  int level = 1;
  unsigned planned = 0;  // attempts planned (or stored)
  unsigned runs = 0;     // attempts finished
  unsigned correct = 0;
  unsigned failed_jobs = 0;
  std::optional<double> best_speedup;                 // over correct attempts with a baseline
  std::optional<double> best_utilization;             // over correct attempts: the roofline ideal's share
  std::optional<double> best_attainable_utilization;  // the attainable bound's share of best_cycles
  uint64_t best_cycles = 0;                           // fewest cycles of a correct attempt
  uint64_t baseline_cycles = 0;
  std::optional<double> baseline_utilization;  // the baseline kernel's, from a correct attempt's ideal cycles
  std::optional<double> best_tuned_speedup;    // over correct attempts whose tuned baseline has a kernel
  std::optional<uint64_t> tuned_baseline_cycles;  // known once a run of the cell has it (0: none correct)
  std::optional<double> best_compiler_speedup;    // over correct attempts with a compiler baseline
  uint64_t compiler_baseline_cycles = 0;          // 0: the platform has none
  // A correct attempt's compiler baseline was not simulated (RunRecord::compiler_baseline_not_simulated)
  // and none of the cell's has one.
  bool compiler_baseline_not_simulated = false;
  bool solved() const { return correct > 0; }
  bool pending() const { return runs < planned; }
  std::string target() const { return platform + "/" + hw_config; }
  nlohmann::json to_json() const;
};

// Metrics of a group of runs: one task (task set), one level (task empty, level set) or every task
// (task empty, level 0) of one agent on one target.
struct GroupMetrics {
  std::string agent, platform, hw_config, task;
  int level = 0;
  unsigned configs = 0;  // supported configurations planned
  unsigned configs_solved = 0;
  unsigned configs_pending = 0;  // with attempts not yet run
  unsigned runs = 0, correct = 0, failed_jobs = 0, pending_runs = 0;
  std::array<double, kFastP.size()> fast_p{};
  std::optional<double> geomean_speedup;
  unsigned speedup_runs = 0;  // correct runs with a speedup (the geometric mean's sample)
  // Against the autotuned baseline, over the runs whose tuned baseline is known (tuned_runs of them).
  unsigned tuned_runs = 0;
  std::array<double, kFastP.size()> fast_p_tuned{};
  std::optional<double> geomean_tuned_speedup;
  unsigned tuned_speedup_runs = 0;
  // Against the platform's compiler baseline, over the correct runs that have one.
  std::optional<double> geomean_compiler_speedup;
  unsigned compiler_speedup_runs = 0;
  std::optional<double> mean_first_valid, mean_first_pass;
  unsigned reached_valid = 0, reached_pass = 0;
  uint64_t tokens = 0;
  double tokens_per_run = 0;
  double seconds_per_run = 0;
  uint64_t model_calls = 0;  // LLM runs' model calls (iterations) of every role
  uint64_t evaluations = 0;  // kernel evaluations (the agent's run_eval and the verifier's)
  double agent_seconds = 0;  // the agents' own wall time, summed
  std::map<std::string, uint64_t> role_tokens;  // prompt + completion tokens per workflow role, summed
  std::map<std::string, uint64_t> role_calls;   // model calls per workflow role, summed
  unsigned no_kernel_to_port = 0;               // porting runs stored without running: nothing to port
  // Cost of the model calls (cost.h), over the runs it applies to (an LLM agent's runs with their usage).
  unsigned cost_runs = 0;                       // runs the cost applies to
  unsigned unpriced_runs = 0;                   // of them: a model they called has no prices
  std::set<std::string> unpriced_models;        // those models
  std::optional<double> cost_usd;               // nullopt: no run it applies to, or an unpriced one
  std::optional<double> cost_per_run_usd;       // cost_usd / cost_runs
  std::optional<double> cost_per_solved_usd;    // cost_usd / configs_solved (nullopt: none solved)
  std::map<std::string, double> role_cost_usd;  // per workflow role, when cost_usd is known
  std::string target() const { return platform + "/" + hw_config; }
  nlohmann::json to_json() const;
};

struct TaskInfo {
  std::string name;
  int level = 1;
};

struct Metrics {
  std::vector<std::string> agents;   // in order of first appearance in the plan
  std::vector<std::string> targets;  // platform/hw_config, sorted
  std::vector<TaskInfo> tasks;       // by level, then name
  std::vector<std::string> configs;  // sorted
  std::vector<CellSummary> cells;
  std::vector<GroupMetrics> per_task, per_level, totals;
  std::vector<UnsupportedCell> unsupported;

  const CellSummary* cell(const std::string& agent, const std::string& target, const std::string& task,
                          const std::string& config) const;
  const GroupMetrics* task_group(const std::string& agent, const std::string& target,
                                 const std::string& task) const;
  const GroupMetrics* level_group(const std::string& agent, const std::string& target, int level) const;
  const GroupMetrics* total(const std::string& agent, const std::string& target) const;
  bool unsupported_cell(const std::string& target, const std::string& task, const std::string& config) const;
  nlohmann::json to_json() const;
};

// `plan` may be empty (then the stored runs are the universe); runs not in the plan are included too. The
// cost fields come from the runs' `cost`: price_runs (cost.h) first, as load_report_data does.
Metrics compute_metrics(const std::vector<RunRecord>& runs, const std::vector<PlannedRun>& plan,
                        const std::vector<UnsupportedCell>& unsupported);

// The formulas, on any set of runs: against the template baseline, or against the tuned baseline (over
// the runs whose tuned baseline is known; 0 / nullopt when there are none).
double fast_p(const std::vector<const RunRecord*>& runs, double p);
std::optional<double> geomean_speedup(const std::vector<const RunRecord*>& runs);
double fast_p_tuned(const std::vector<const RunRecord*>& runs, double p);
std::optional<double> geomean_tuned_speedup(const std::vector<const RunRecord*>& runs);
std::optional<double> geomean_compiler_speedup(const std::vector<const RunRecord*>& runs);

}  // namespace kcraft::bench
