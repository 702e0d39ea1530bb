#include "agent/bench/metrics.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <set>
#include <tuple>

#include "agent/bench/plan.h"

namespace kcraft::bench {

using nlohmann::json;

namespace {

// A group's cost fields from its runs' `cost` (cost.h), after its configs_solved is known.
void summarise_cost(GroupMetrics& g, const std::vector<const RunRecord*>& runs) {
  double total = 0;
  std::map<std::string, double> roles;
  for (const auto* r : runs) {
    if (!r->cost.applies) continue;
    ++g.cost_runs;
    if (!r->cost.usd) {
      ++g.unpriced_runs;
      g.unpriced_models.insert(r->cost.unpriced_models.begin(), r->cost.unpriced_models.end());
      continue;
    }
    total += *r->cost.usd;
    for (const auto& [role, usd] : r->cost.roles) roles[role] += usd;
  }
  // A partial sum would read as the group's cost: unknown unless every run is priced.
  if (g.cost_runs == 0 || g.unpriced_runs > 0) return;
  g.cost_usd = total;
  g.cost_per_run_usd = total / g.cost_runs;
  if (g.configs_solved > 0) g.cost_per_solved_usd = total / g.configs_solved;
  g.role_cost_usd = std::move(roles);
}

json optional_json(const std::optional<double>& v) {
  return v ? json(*v) : json(nullptr);
}

using CellId = std::tuple<std::string, std::string, std::string, std::string,
                          std::string>;  // agent, platform, hw, task, config

// Fills a group's metrics from its cells and their runs.
void summarise(GroupMetrics& g, const std::vector<const CellSummary*>& cells,
               const std::vector<const RunRecord*>& runs) {
  g.configs = static_cast<unsigned>(cells.size());
  for (const auto* c : cells) {
    if (c->solved()) ++g.configs_solved;
    if (c->pending()) ++g.configs_pending;
    g.pending_runs += c->planned - c->runs;
  }
  g.runs = static_cast<unsigned>(runs.size());
  double first_valid = 0, first_pass = 0, seconds = 0;
  for (const auto* r : runs) {
    if (r->correct()) ++g.correct;
    if (r->failed_job()) ++g.failed_jobs;
    if (r->first_valid_iteration) {
      ++g.reached_valid;
      first_valid += *r->first_valid_iteration;
    }
    if (r->first_pass_iteration) {
      ++g.reached_pass;
      first_pass += *r->first_pass_iteration;
    }
    g.tokens += r->tokens();
    g.evaluations += r->evaluations;
    g.agent_seconds += r->agent_seconds;
    if (r->agent_settings.value("kind", "") == "llm") g.model_calls += r->iterations;
    if (r->status == "no_kernel_to_port") ++g.no_kernel_to_port;
    for (const auto& [role, use] : r->roles.items()) {
      // The verifier is kcraft itself: no model calls, no tokens to show.
      if (!use.is_object() || use.value("calls", uint64_t{0}) == 0) continue;
      g.role_tokens[role] +=
          use.value("prompt_tokens", uint64_t{0}) + use.value("completion_tokens", uint64_t{0});
      g.role_calls[role] += use.value("calls", uint64_t{0});
    }
    seconds += r->job_seconds > 0 ? r->job_seconds : r->agent_seconds;
    if (r->correct() && r->speedup > 0) ++g.speedup_runs;
    if (r->tuned_baseline_cycles) ++g.tuned_runs;
    if (r->correct() && r->tuned_speedup > 0) ++g.tuned_speedup_runs;
    if (r->correct() && r->compiler_speedup > 0) ++g.compiler_speedup_runs;
  }
  for (size_t i = 0; i < kFastP.size(); ++i) {
    g.fast_p[i] = fast_p(runs, kFastP[i]);
    g.fast_p_tuned[i] = fast_p_tuned(runs, kFastP[i]);
  }
  g.geomean_speedup = geomean_speedup(runs);
  g.geomean_tuned_speedup = geomean_tuned_speedup(runs);
  g.geomean_compiler_speedup = geomean_compiler_speedup(runs);
  if (g.reached_valid > 0) g.mean_first_valid = first_valid / g.reached_valid;
  if (g.reached_pass > 0) g.mean_first_pass = first_pass / g.reached_pass;
  if (g.runs > 0) {
    g.tokens_per_run = static_cast<double>(g.tokens) / g.runs;
    g.seconds_per_run = seconds / g.runs;
  }
  summarise_cost(g, runs);
}

}  // namespace

double fast_p(const std::vector<const RunRecord*>& runs, double p) {
  if (runs.empty()) return 0;
  size_t fast = 0;
  for (const auto* r : runs) {
    if (!r->correct()) continue;
    if (p <= 0) {
      ++fast;
    } else if (r->baseline_cycles > 0 && r->cycles > 0 &&
               static_cast<double>(r->baseline_cycles) >= p * static_cast<double>(r->cycles)) {
      ++fast;  // compared on the cycle counts, so "exactly as fast" is exact
    }
  }
  return static_cast<double>(fast) / static_cast<double>(runs.size());
}

namespace {

// The geometric mean of one speedup field over the correct runs where it is known (> 0).
std::optional<double> geomean_of(const std::vector<const RunRecord*>& runs, double RunRecord::*speedup) {
  double log_sum = 0;
  size_t n = 0;
  for (const auto* r : runs) {
    if (r->correct() && r->*speedup > 0) {
      log_sum += std::log(r->*speedup);
      ++n;
    }
  }
  if (n == 0) return std::nullopt;
  return std::exp(log_sum / static_cast<double>(n));
}

}  // namespace

std::optional<double> geomean_speedup(const std::vector<const RunRecord*>& runs) {
  return geomean_of(runs, &RunRecord::speedup);
}

std::optional<double> geomean_compiler_speedup(const std::vector<const RunRecord*>& runs) {
  return geomean_of(runs, &RunRecord::compiler_speedup);
}

double fast_p_tuned(const std::vector<const RunRecord*>& runs, double p) {
  size_t known = 0, fast = 0;
  for (const auto* r : runs) {
    if (!r->tuned_baseline_cycles) continue;
    ++known;
    if (!r->correct()) continue;
    const uint64_t tuned = *r->tuned_baseline_cycles;
    if (p <= 0 ||
        (tuned > 0 && r->cycles > 0 && static_cast<double>(tuned) >= p * static_cast<double>(r->cycles)))
      ++fast;
  }
  return known == 0 ? 0 : static_cast<double>(fast) / static_cast<double>(known);
}

std::optional<double> geomean_tuned_speedup(const std::vector<const RunRecord*>& runs) {
  return geomean_of(runs, &RunRecord::tuned_speedup);
}

json CellSummary::to_json() const {
  return {{"agent", agent},
          {"platform", platform},
          {"hw_config", hw_config},
          {"task", task},
          {"config", config},
          {"level", level},
          {"planned", planned},
          {"runs", runs},
          {"correct", correct},
          {"failed_jobs", failed_jobs},
          {"solved", solved()},
          {"best_speedup", optional_json(best_speedup)},
          {"best_utilization", optional_json(best_utilization)},
          {"best_attainable_utilization", optional_json(best_attainable_utilization)},
          {"best_cycles", best_cycles},
          {"baseline_cycles", baseline_cycles},
          {"baseline_utilization", optional_json(baseline_utilization)},
          {"best_tuned_speedup", optional_json(best_tuned_speedup)},
          {"tuned_baseline_cycles", tuned_baseline_cycles ? json(*tuned_baseline_cycles) : json(nullptr)},
          {"best_compiler_speedup", optional_json(best_compiler_speedup)},
          {"compiler_baseline_cycles", compiler_baseline_cycles},
          {"compiler_baseline_not_simulated", compiler_baseline_not_simulated}};
}

json GroupMetrics::to_json() const {
  json fast = json::object(), fast_tuned = json::object();
  for (size_t i = 0; i < kFastP.size(); ++i) {
    const std::string p = kFastP[i] == 1.5 ? "1.5" : std::to_string(static_cast<int>(kFastP[i]));
    fast[p] = fast_p[i];
    fast_tuned[p] = tuned_runs > 0 ? json(fast_p_tuned[i]) : json(nullptr);
  }
  json j = {{"agent", agent},
            {"platform", platform},
            {"hw_config", hw_config},
            {"configs", configs},
            {"configs_solved", configs_solved},
            {"configs_pending", configs_pending},
            {"runs", runs},
            {"correct", correct},
            {"failed_jobs", failed_jobs},
            {"pending_runs", pending_runs},
            {"fast_p", fast},
            {"geomean_speedup", optional_json(geomean_speedup)},
            {"speedup_runs", speedup_runs},
            {"tuned_runs", tuned_runs},
            {"fast_p_tuned", fast_tuned},
            {"geomean_tuned_speedup", optional_json(geomean_tuned_speedup)},
            {"tuned_speedup_runs", tuned_speedup_runs},
            {"geomean_compiler_speedup", optional_json(geomean_compiler_speedup)},
            {"compiler_speedup_runs", compiler_speedup_runs},
            {"mean_first_valid_iteration", optional_json(mean_first_valid)},
            {"runs_with_valid_kernel", reached_valid},
            {"mean_first_pass_iteration", optional_json(mean_first_pass)},
            {"runs_with_passing_kernel", reached_pass},
            {"tokens", tokens},
            {"tokens_per_run", tokens_per_run},
            {"seconds_per_run", seconds_per_run},
            {"model_calls", model_calls},
            {"evaluations", evaluations},
            {"agent_seconds", agent_seconds},
            {"role_tokens", role_tokens},
            {"role_calls", role_calls},
            {"no_kernel_to_port", no_kernel_to_port},
            {"cost_runs", cost_runs},
            {"unpriced_runs", unpriced_runs},
            {"unpriced_models", unpriced_models},
            {"cost_usd", optional_json(cost_usd)},
            {"cost_per_run_usd", optional_json(cost_per_run_usd)},
            {"cost_per_solved_usd", optional_json(cost_per_solved_usd)},
            {"role_cost_usd", role_cost_usd}};
  if (!task.empty()) j["task"] = task;
  if (level != 0) j["level"] = level;
  return j;
}

const CellSummary* Metrics::cell(const std::string& agent, const std::string& target, const std::string& task,
                                 const std::string& config) const {
  for (const auto& c : cells) {
    if (c.agent == agent && c.target() == target && c.task == task && c.config == config) return &c;
  }
  return nullptr;
}

const GroupMetrics* Metrics::task_group(const std::string& agent, const std::string& target,
                                        const std::string& task) const {
  for (const auto& g : per_task) {
    if (g.agent == agent && g.target() == target && g.task == task) return &g;
  }
  return nullptr;
}

const GroupMetrics* Metrics::level_group(const std::string& agent, const std::string& target,
                                         int level) const {
  for (const auto& g : per_level) {
    if (g.agent == agent && g.target() == target && g.level == level) return &g;
  }
  return nullptr;
}

const GroupMetrics* Metrics::total(const std::string& agent, const std::string& target) const {
  for (const auto& g : totals) {
    if (g.agent == agent && g.target() == target) return &g;
  }
  return nullptr;
}

bool Metrics::unsupported_cell(const std::string& target, const std::string& task,
                               const std::string& config) const {
  for (const auto& u : unsupported) {
    if (u.platform + "/" + u.hw_config == target && u.task == task && (config.empty() || u.config == config))
      return true;
  }
  return false;
}

json Metrics::to_json() const {
  json j;
  j["definitions"] = {
      {"correct", "the verdict on every hidden seed is pass"},
      {"configs_solved", "configurations with at least one correct attempt, out of the supported ones"},
      {"speedup", "baseline cycles / cycles of a correct kernel on the first hidden seed"},
      {"fast_p",
       "share of runs (every attempt counts) that are correct and have baseline_cycles >= p * cycles; "
       "fast_0 is the share of correct runs"},
      {"geomean_speedup", "geometric mean of the speedups of correct runs that have a baseline"},
      {"tuned_speedup",
       "tuned baseline cycles / cycles of a correct kernel on the first hidden seed; the tuned baseline is "
       "the "
       "offline tuner's best kernel (default budget, development seed 1) for the same task, configuration "
       "and hardware"},
      {"fast_p_tuned",
       "fast_p against the tuned baseline, over the runs whose tuned baseline is known (tuned_runs); null "
       "when none is"},
      {"geomean_tuned_speedup", "geometric mean of the tuned speedups of correct runs that have one"},
      {"mean_first_valid_iteration",
       "mean iteration of the first kernel that assembled, over runs that had one"},
      {"mean_first_pass_iteration",
       "mean iteration of the first kernel that passed the development run, over runs "
       "that had one"},
      {"tokens_per_run", "mean prompt + completion tokens per run"},
      {"model_calls", "model calls of every role of the LLM runs, summed (the tuner calls no model)"},
      {"evaluations", "kernel evaluations (run_eval, the agent's and the verifier's), summed"},
      {"agent_seconds", "the agents' own wall time, summed"},
      {"role_tokens", "prompt + completion tokens per workflow role that called a model, summed"},
      {"no_kernel_to_port",
       "porting runs stored without running: the source platform had no passing kernel"}};
  j["agents"] = agents;
  j["targets"] = targets;
  j["configs"] = configs;
  j["tasks"] = json::array();
  for (const auto& t : tasks) j["tasks"].push_back({{"name", t.name}, {"level", t.level}});
  j["cells"] = json::array();
  for (const auto& c : cells) j["cells"].push_back(c.to_json());
  for (const auto* name : {"per_task", "per_level", "totals"}) j[name] = json::array();
  for (const auto& g : per_task) j["per_task"].push_back(g.to_json());
  for (const auto& g : per_level) j["per_level"].push_back(g.to_json());
  for (const auto& g : totals) j["totals"].push_back(g.to_json());
  j["unsupported"] = json::array();
  for (const auto& u : unsupported) {
    j["unsupported"].push_back({{"platform", u.platform},
                                {"hw_config", u.hw_config},
                                {"task", u.task},
                                {"config", u.config},
                                {"level", u.level},
                                {"reason", u.reason}});
  }
  return j;
}

Metrics compute_metrics(const std::vector<RunRecord>& runs, const std::vector<PlannedRun>& plan,
                        const std::vector<UnsupportedCell>& unsupported) {
  Metrics m;
  m.unsupported = unsupported;
  std::map<CellId, CellSummary> cells;
  std::map<CellId, std::vector<const RunRecord*>> cell_runs;
  std::set<RunKey> planned;
  std::map<std::string, int> task_levels;
  std::set<std::string> agents, targets, configs;
  auto cell_for = [&](const RunKey& k, int level) -> CellSummary& {
    const CellId id{k.agent, k.platform, k.hw_config, k.task, k.config};
    auto [it, added] = cells.try_emplace(id);
    if (added) {
      it->second.agent = k.agent;
      it->second.platform = k.platform;
      it->second.hw_config = k.hw_config;
      it->second.task = k.task;
      it->second.config = k.config;
      it->second.level = level;
    }
    task_levels[k.task] = level;
    agents.insert(k.agent);
    targets.insert(k.target());
    configs.insert(k.config);
    return it->second;
  };
  for (const auto& p : plan) {
    if (planned.insert(p.key).second) ++cell_for(p.key, p.level).planned;
  }
  for (const auto& r : runs) {
    CellSummary& c = cell_for(r.key, r.level);
    if (!planned.count(r.key)) ++c.planned;
    ++c.runs;
    cell_runs[{r.key.agent, r.key.platform, r.key.hw_config, r.key.task, r.key.config}].push_back(&r);
    if (r.failed_job()) ++c.failed_jobs;
    if (r.baseline_cycles > 0) c.baseline_cycles = r.baseline_cycles;
    if (r.tuned_baseline_cycles) c.tuned_baseline_cycles = r.tuned_baseline_cycles;
    if (r.compiler_baseline_cycles > 0) c.compiler_baseline_cycles = r.compiler_baseline_cycles;
    if (!r.correct()) continue;
    if (r.compiler_speedup > 0 && (!c.best_compiler_speedup || r.compiler_speedup > *c.best_compiler_speedup))
      c.best_compiler_speedup = r.compiler_speedup;
    if (r.compiler_baseline_not_simulated) c.compiler_baseline_not_simulated = true;
    if (r.tuned_speedup > 0 && (!c.best_tuned_speedup || r.tuned_speedup > *c.best_tuned_speedup))
      c.best_tuned_speedup = r.tuned_speedup;
    ++c.correct;
    if (r.speedup > 0 && (!c.best_speedup || r.speedup > *c.best_speedup)) c.best_speedup = r.speedup;
    if (!c.best_utilization || r.utilization > *c.best_utilization) c.best_utilization = r.utilization;
    if (c.best_cycles == 0 || r.cycles < c.best_cycles) c.best_cycles = r.cycles;
    // utilization = ideal / cycles, and the ideal is the configuration's: the baseline's follows.
    if (r.baseline_cycles > 0 && r.cycles > 0) {
      c.baseline_utilization =
          r.utilization * static_cast<double>(r.cycles) / static_cast<double>(r.baseline_cycles);
    }
  }
  for (auto& [id, c] : cells) {
    if (c.compiler_baseline_cycles > 0) c.compiler_baseline_not_simulated = false;
    if (c.best_cycles == 0) continue;
    if (auto bound = attainable_cycles(c.platform, c.hw_config, c.task, c.config)) {
      c.best_attainable_utilization = *bound / static_cast<double>(c.best_cycles);
    }
  }
  for (const auto& u : unsupported) {
    task_levels.try_emplace(u.task, u.level);
    targets.insert(u.platform + "/" + u.hw_config);
    configs.insert(u.config);
  }
  m.agents.assign(agents.begin(), agents.end());
  m.targets.assign(targets.begin(), targets.end());
  m.configs.assign(configs.begin(), configs.end());
  for (const auto& [name, level] : task_levels) m.tasks.push_back({name, level});
  std::stable_sort(m.tasks.begin(), m.tasks.end(),
                   [](const TaskInfo& a, const TaskInfo& b) { return a.level < b.level; });
  for (auto& [id, c] : cells) m.cells.push_back(c);

  // Groups: per task, per level, in total, for every (agent, target) with cells.
  struct Bucket {
    std::vector<const CellSummary*> cells;
    std::vector<const RunRecord*> runs;
  };
  std::map<std::tuple<std::string, std::string, std::string, std::string>, Bucket>
      by_task;  // agent, platform, hw, task
  std::map<std::tuple<std::string, std::string, std::string, int>, Bucket> by_level;
  std::map<std::tuple<std::string, std::string, std::string>, Bucket> by_target;
  for (const auto& c : m.cells) {
    const auto& rs = cell_runs[{c.agent, c.platform, c.hw_config, c.task, c.config}];
    for (Bucket* b : {&by_task[{c.agent, c.platform, c.hw_config, c.task}],
                      &by_level[{c.agent, c.platform, c.hw_config, c.level}],
                      &by_target[{c.agent, c.platform, c.hw_config}]}) {
      b->cells.push_back(&c);
      b->runs.insert(b->runs.end(), rs.begin(), rs.end());
    }
  }
  for (const auto& [k, b] : by_task) {
    GroupMetrics g;
    std::tie(g.agent, g.platform, g.hw_config, g.task) = k;
    g.level = task_levels[g.task];
    summarise(g, b.cells, b.runs);
    m.per_task.push_back(std::move(g));
  }
  for (const auto& [k, b] : by_level) {
    GroupMetrics g;
    std::tie(g.agent, g.platform, g.hw_config, g.level) = k;
    summarise(g, b.cells, b.runs);
    m.per_level.push_back(std::move(g));
  }
  for (const auto& [k, b] : by_target) {
    GroupMetrics g;
    std::tie(g.agent, g.platform, g.hw_config) = k;
    summarise(g, b.cells, b.runs);
    m.totals.push_back(std::move(g));
  }
  return m;
}

}  // namespace kcraft::bench
