#include "agent/bench/uncertainty.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <random>
#include <stdexcept>
#include <tuple>

namespace kcraft::bench {

using nlohmann::json;

double pass_at_k(unsigned n, unsigned c, unsigned k) {
  if (k == 0 || k > n || c > n) throw std::invalid_argument("pass@k needs 1 <= k <= n and c <= n");
  if (n - c < k) return 1.0;  // every draw of k includes a correct attempt
  // C(n-c, k) / C(n, k) as a product, which stays exact enough where the binomials overflow.
  double none_correct = 1.0;
  for (unsigned i = n - c + 1; i <= n; ++i) none_correct *= 1.0 - static_cast<double>(k) / i;
  return 1.0 - none_correct;
}

namespace {

json nullable_json(const std::optional<double>& v) {
  return v ? json(*v) : json(nullptr);
}

// The q-quantile of sorted values, linear between neighbours (numpy's default).
double quantile(const std::vector<double>& sorted, double q) {
  const double at = q * static_cast<double>(sorted.size() - 1);
  const auto below = static_cast<size_t>(std::floor(at));
  const size_t above = std::min(below + 1, sorted.size() - 1);
  return sorted[below] + (at - static_cast<double>(below)) * (sorted[above] - sorted[below]);
}

// The interval from the resamples' values; none when fewer than half of the resamples had one (the
// statistic is then too often undefined to bound).
std::optional<Interval> percentile_interval(std::vector<double> values, const BootstrapSettings& s) {
  if (values.empty() || values.size() * 2 < s.resamples) return std::nullopt;
  std::sort(values.begin(), values.end());
  const double tail = (1.0 - s.confidence) / 2.0;
  return Interval{quantile(values, tail), quantile(values, 1.0 - tail)};
}

// Draws `count` indices below `count` with replacement. mt19937_64 is specified exactly by the standard
// (its distributions are not), so the same seed gives the same resamples with every standard library.
std::vector<size_t> resample_indices(std::mt19937_64& rng, size_t count) {
  std::vector<size_t> picks(count);
  for (auto& p : picks) p = static_cast<size_t>(rng() % count);
  return picks;
}

std::vector<const CellRuns*> pointers(const std::vector<CellRuns>& cells) {
  std::vector<const CellRuns*> all;
  all.reserve(cells.size());
  for (const auto& c : cells) all.push_back(&c);
  return all;
}

std::vector<const RunRecord*> pooled(const std::vector<const CellRuns*>& cells) {
  std::vector<const RunRecord*> runs;
  for (const auto* c : cells) runs.insert(runs.end(), c->begin(), c->end());
  return runs;
}

unsigned correct_count(const CellRuns& cell) {
  return static_cast<unsigned>(
      std::count_if(cell.begin(), cell.end(), [](const auto* r) { return r->correct(); }));
}

}  // namespace

json Estimate::to_json() const {
  json j = {{"value", nullable_json(value)}, {"low", nullptr}, {"high", nullptr}};
  if (interval) {
    j["low"] = interval->low;
    j["high"] = interval->high;
  }
  return j;
}

Estimate bootstrap(const std::vector<CellRuns>& cells, const CellStatistic& statistic,
                   const BootstrapSettings& settings) {
  Estimate e;
  if (cells.empty()) return e;
  const auto all = pointers(cells);
  e.value = statistic(all);
  if (!e.value) return e;
  std::mt19937_64 rng(settings.seed);
  std::vector<double> values;
  values.reserve(settings.resamples);
  std::vector<const CellRuns*> sample(cells.size());
  for (unsigned b = 0; b < settings.resamples; ++b) {
    const auto picks = resample_indices(rng, cells.size());
    for (size_t i = 0; i < picks.size(); ++i) sample[i] = all[picks[i]];
    if (const auto v = statistic(sample)) values.push_back(*v);
  }
  e.interval = percentile_interval(std::move(values), settings);
  return e;
}

Estimate bootstrap_paired(const std::vector<CellRuns>& a, const std::vector<CellRuns>& b,
                          const PairedStatistic& difference, const BootstrapSettings& settings) {
  if (a.size() != b.size()) throw std::invalid_argument("paired bootstrap: the agents' cells differ");
  Estimate e;
  if (a.empty()) return e;
  const auto all_a = pointers(a), all_b = pointers(b);
  e.value = difference(all_a, all_b);
  if (!e.value) return e;
  std::mt19937_64 rng(settings.seed);
  std::vector<double> values;
  values.reserve(settings.resamples);
  std::vector<const CellRuns*> sample_a(a.size()), sample_b(b.size());
  for (unsigned r = 0; r < settings.resamples; ++r) {
    const auto picks = resample_indices(rng, a.size());
    for (size_t i = 0; i < picks.size(); ++i) {
      sample_a[i] = all_a[picks[i]];
      sample_b[i] = all_b[picks[i]];
    }
    if (const auto v = difference(sample_a, sample_b)) values.push_back(*v);
  }
  e.interval = percentile_interval(std::move(values), settings);
  return e;
}

std::optional<double> mean_pass_at_k(const std::vector<const CellRuns*>& cells, unsigned k) {
  double sum = 0;
  size_t n = 0;
  for (const auto* c : cells) {
    if (c->size() < k || k == 0) continue;
    sum += pass_at_k(static_cast<unsigned>(c->size()), correct_count(*c), k);
    ++n;
  }
  if (n == 0) return std::nullopt;
  return sum / static_cast<double>(n);
}

std::optional<double> solved_share(const std::vector<const CellRuns*>& cells) {
  if (cells.empty()) return std::nullopt;
  const auto solved =
      std::count_if(cells.begin(), cells.end(), [](const auto* c) { return correct_count(*c) > 0; });
  return static_cast<double>(solved) / static_cast<double>(cells.size());
}

std::optional<double> pooled_fast_p(const std::vector<const CellRuns*>& cells, double p) {
  const auto runs = pooled(cells);
  if (runs.empty()) return std::nullopt;
  return fast_p(runs, p);
}

std::optional<double> pooled_geomean_speedup(const std::vector<const CellRuns*>& cells) {
  return geomean_speedup(pooled(cells));
}

json GroupUncertainty::to_json() const {
  return {{"agent", agent},
          {"platform", platform},
          {"hw_config", hw_config},
          {"cells", cells},
          {"attempts", attempts},
          {"cells_with_all_attempts", cells_with_k},
          {"pass_at_1", pass_at_1.to_json()},
          {"pass_at_k", pass_at_k.to_json()},
          {"solved", solved.to_json()},
          {"fast_1", fast_1.to_json()},
          {"geomean_speedup", geomean_speedup.to_json()}};
}

json AgentComparison::to_json() const {
  return {{"target", target},
          {"agent_a", agent_a},
          {"agent_b", agent_b},
          {"common_cells", common_cells},
          {"pass_at_1_difference", pass_at_1_difference.to_json()},
          {"pass_at_1_differs", pass_at_1_differs()},
          {"geomean_ratio", geomean_ratio.to_json()},
          {"geomean_differs", geomean_differs()}};
}

const GroupUncertainty* Uncertainty::group(const std::string& agent, const std::string& target) const {
  for (const auto& g : groups) {
    if (g.agent == agent && g.target() == target) return &g;
  }
  return nullptr;
}

json Uncertainty::to_json() const {
  json j = {
      {"method",
       "percentile bootstrap over cells (a cell: one agent, target, task and configuration, with all its "
       "attempts); pass@k by the unbiased estimator"},
      {"resamples", settings.resamples},
      {"seed", settings.seed},
      {"confidence", settings.confidence},
      {"groups", json::array()},
      {"comparisons", json::array()}};
  for (const auto& g : groups) j["groups"].push_back(g.to_json());
  for (const auto& c : comparisons) j["comparisons"].push_back(c.to_json());
  return j;
}

namespace {

using CellKey =
    std::tuple<std::string, std::string, std::string, std::string>;  // target, task, config, agent

GroupUncertainty group_uncertainty(const std::string& agent, const std::string& platform,
                                   const std::string& hw_config, const std::vector<CellRuns>& cells,
                                   const BootstrapSettings& s) {
  GroupUncertainty g;
  g.agent = agent;
  g.platform = platform;
  g.hw_config = hw_config;
  g.cells = static_cast<unsigned>(cells.size());
  for (const auto& c : cells) g.attempts = std::max(g.attempts, static_cast<unsigned>(c.size()));
  for (const auto& c : cells) g.cells_with_k += c.size() == g.attempts ? 1 : 0;
  const unsigned k = g.attempts;
  g.pass_at_1 = bootstrap(
      cells, [](const auto& sample) { return mean_pass_at_k(sample, 1); }, s);
  if (k > 1)
    g.pass_at_k = bootstrap(
        cells, [k](const auto& sample) { return mean_pass_at_k(sample, k); }, s);
  g.solved = bootstrap(cells, solved_share, s);
  g.fast_1 = bootstrap(
      cells, [](const auto& sample) { return pooled_fast_p(sample, 1.0); }, s);
  g.geomean_speedup = bootstrap(cells, pooled_geomean_speedup, s);
  return g;
}

AgentComparison compare_agents(const std::string& target, const std::string& a, const std::string& b,
                               const std::map<CellKey, CellRuns>& by_cell, const BootstrapSettings& s) {
  AgentComparison cmp;
  cmp.target = target;
  cmp.agent_a = a;
  cmp.agent_b = b;
  std::vector<CellRuns> cells_a, cells_b;
  for (const auto& [key, runs] : by_cell) {
    const auto& [t, task, config, agent] = key;
    if (t != target || agent != a || runs.empty()) continue;
    const auto other = by_cell.find({t, task, config, b});
    if (other == by_cell.end() || other->second.empty()) continue;
    cells_a.push_back(runs);
    cells_b.push_back(other->second);
  }
  cmp.common_cells = static_cast<unsigned>(cells_a.size());
  cmp.pass_at_1_difference = bootstrap_paired(
      cells_a, cells_b,
      [](const auto& sa, const auto& sb) -> std::optional<double> {
        const auto pa = mean_pass_at_k(sa, 1), pb = mean_pass_at_k(sb, 1);
        if (!pa || !pb) return std::nullopt;
        return *pa - *pb;
      },
      s);
  cmp.geomean_ratio = bootstrap_paired(
      cells_a, cells_b,
      [](const auto& sa, const auto& sb) -> std::optional<double> {
        const auto ga = pooled_geomean_speedup(sa), gb = pooled_geomean_speedup(sb);
        if (!ga || !gb) return std::nullopt;
        return *ga / *gb;
      },
      s);
  return cmp;
}

}  // namespace

Uncertainty compute_uncertainty(const std::vector<RunRecord>& runs, const Metrics& metrics,
                                const BootstrapSettings& settings) {
  Uncertainty u;
  u.settings = settings;
  std::map<CellKey, CellRuns> by_cell;
  for (const auto& c : metrics.cells) by_cell[{c.target(), c.task, c.config, c.agent}];
  for (const auto& r : runs) {
    const auto it = by_cell.find({r.key.target(), r.key.task, r.key.config, r.key.agent});
    if (it != by_cell.end()) it->second.push_back(&r);
  }
  for (const auto& target : metrics.targets) {
    for (const auto& agent : metrics.agents) {
      const auto* total = metrics.total(agent, target);
      if (total == nullptr) continue;
      std::vector<CellRuns> cells;
      for (const auto& [key, cell_runs] : by_cell) {
        if (std::get<0>(key) == target && std::get<3>(key) == agent && !cell_runs.empty())
          cells.push_back(cell_runs);
      }
      u.groups.push_back(group_uncertainty(agent, total->platform, total->hw_config, cells, settings));
    }
    for (size_t i = 0; i < metrics.agents.size(); ++i) {
      for (size_t j = i + 1; j < metrics.agents.size(); ++j) {
        const auto& a = metrics.agents[i];
        const auto& b = metrics.agents[j];
        if (metrics.total(a, target) == nullptr || metrics.total(b, target) == nullptr) continue;
        u.comparisons.push_back(compare_agents(target, a, b, by_cell, settings));
      }
    }
  }
  return u;
}

}  // namespace kcraft::bench
