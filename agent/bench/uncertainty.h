// How sure a comparison is: pass@k by the unbiased estimator and bootstrap intervals over cells
// (docs/bench.md, "Uncertainty").
//
//   pass@k        per cell of n finished attempts, c correct: 1 - C(n-c, k) / C(n, k), the chance that k
//                 attempts drawn from the n without replacement include a correct one (Chen et al. 2021);
//                 averaged over the cells with n >= k. pass@1 is c / n.
//   interval      the percentile bootstrap: the cells of a group are resampled with replacement `resamples`
//                 times from a seeded generator, the statistic is computed on each resample, and the
//                 2.5th and 97.5th percentiles bound the 95 % interval. A cell carries all its attempts, so
//                 attempts of one cell never count as independent evidence.
//   comparison    two agents on one target, over the cells both ran: each resample draws those cells once
//                 and computes both agents' statistics on it (paired), so the interval is of the difference
//                 itself; a difference whose interval excludes zero (a ratio's: one) is marked.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "agent/bench/metrics.h"
#include "agent/bench/run_record.h"

namespace kcraft::bench {

// 1 - C(n-c, k) / C(n, k); requires 1 <= k <= n and c <= n.
double pass_at_k(unsigned n, unsigned c, unsigned k);

struct Interval {
  double low = 0, high = 0;
  bool excludes(double v) const { return v < low || v > high; }
};

// A point estimate on all the cells and its interval (none when the statistic is undefined on the cells,
// or on fewer than half of the resamples).
struct Estimate {
  std::optional<double> value;
  std::optional<Interval> interval;
  nlohmann::json to_json() const;
};

struct BootstrapSettings {
  unsigned resamples = 2000;
  uint64_t seed = 20261206;  // fixed, so that a report is the same every time it is made
  double confidence = 0.95;
};

// One cell's finished attempts.
using CellRuns = std::vector<const RunRecord*>;

// A statistic of a sample of cells (each sample holds pointers into the group's cells); nullopt where it is
// undefined (no speedup in the sample, no cell with k attempts).
using CellStatistic = std::function<std::optional<double>(const std::vector<const CellRuns*>&)>;

// The statistic on `cells` and its percentile-bootstrap interval.
Estimate bootstrap(const std::vector<CellRuns>& cells, const CellStatistic& statistic,
                   const BootstrapSettings& settings);
// The paired form: `difference` gets the same resample of the cells of both agents (a[i] and b[i] are the
// same cell).
using PairedStatistic = std::function<std::optional<double>(const std::vector<const CellRuns*>&,
                                                            const std::vector<const CellRuns*>&)>;
Estimate bootstrap_paired(const std::vector<CellRuns>& a, const std::vector<CellRuns>& b,
                          const PairedStatistic& difference, const BootstrapSettings& settings);

// The statistics the report gives intervals for.
std::optional<double> mean_pass_at_k(const std::vector<const CellRuns*>& cells, unsigned k);
std::optional<double> solved_share(const std::vector<const CellRuns*>& cells);
std::optional<double> pooled_fast_p(const std::vector<const CellRuns*>& cells, double p);
std::optional<double> pooled_geomean_speedup(const std::vector<const CellRuns*>& cells);

// One agent on one target.
struct GroupUncertainty {
  std::string agent, platform, hw_config;
  unsigned cells = 0;         // cells with at least one finished attempt
  unsigned attempts = 0;      // k of pass@k: the most attempts any of its cells has finished
  unsigned cells_with_k = 0;  // cells with `attempts` finished attempts (pass@k's sample)
  Estimate pass_at_1, pass_at_k, solved, fast_1, geomean_speedup;
  std::string target() const { return platform + "/" + hw_config; }
  nlohmann::json to_json() const;
};

// Agent a against agent b on one target, over the cells both have finished attempts in.
struct AgentComparison {
  std::string target, agent_a, agent_b;
  unsigned common_cells = 0;
  Estimate pass_at_1_difference;  // a - b
  Estimate geomean_ratio;         // a / b, each over its correct runs with a speedup in the sample
  bool pass_at_1_differs() const {
    return pass_at_1_difference.interval && pass_at_1_difference.interval->excludes(0.0);
  }
  bool geomean_differs() const { return geomean_ratio.interval && geomean_ratio.interval->excludes(1.0); }
  nlohmann::json to_json() const;
};

struct Uncertainty {
  BootstrapSettings settings;
  std::vector<GroupUncertainty> groups;      // in the order of the metrics' columns
  std::vector<AgentComparison> comparisons;  // every pair of agents on each target, in agent order
  const GroupUncertainty* group(const std::string& agent, const std::string& target) const;
  nlohmann::json to_json() const;
};

// Over the supported cells of the metrics (the runs of unsupported or unplanned cells are not read).
Uncertainty compute_uncertainty(const std::vector<RunRecord>& runs, const Metrics& metrics,
                                const BootstrapSettings& settings = {});

}  // namespace kcraft::bench
