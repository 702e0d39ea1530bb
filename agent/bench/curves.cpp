#include "agent/bench/curves.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <set>
#include <stdexcept>
#include <tuple>

#include "agent/common/transcript.h"

namespace kcraft::bench {

using nlohmann::json;

namespace {

// A non-negative whole number field of an event, else `fallback` (transcripts are read, never trusted).
uint64_t count_field(const json& j, const char* name, uint64_t fallback = 0) {
  if (!j.is_object()) return fallback;
  const auto it = j.find(name);
  if (it == j.end() || !it->is_number_unsigned()) return fallback;
  return it->get<uint64_t>();
}

}  // namespace

std::vector<TrajectoryPoint> trajectory_from_events(const std::vector<json>& events) {
  struct Iteration {
    uint64_t tokens = 0;       // this iteration's own
    uint64_t pass_cycles = 0;  // fewest cycles of a pass in this iteration (0: none)
    bool passed = false;
  };
  std::map<unsigned, Iteration> iterations;
  for (const auto& e : events) {
    if (!e.is_object()) continue;
    const auto iteration = static_cast<unsigned>(count_field(e, "iteration"));
    if (iteration == 0) continue;
    const std::string type = e.value("type", "");
    if (type == "llm_response") {
      const json usage = e.value("usage", json::object());
      iterations[iteration].tokens +=
          count_field(usage, "prompt_tokens") + count_field(usage, "completion_tokens");
    } else if (type == "tool_result") {
      Iteration& it = iterations[iteration];
      const json data = e.value("data", json::object());
      const bool pass = e.value("name", "") == "run_eval" && !e.value("is_error", false) &&
                        data.is_object() && data.value("verdict", "") == "pass";
      if (pass) {
        const uint64_t cycles = count_field(data, "cycles");
        if (cycles > 0 && (it.pass_cycles == 0 || cycles < it.pass_cycles)) it.pass_cycles = cycles;
        it.passed = true;
      }
    }
  }
  std::vector<TrajectoryPoint> points;
  TrajectoryPoint so_far;
  for (const auto& [iteration, it] : iterations) {
    so_far.iteration = iteration;
    so_far.tokens += it.tokens;
    so_far.passed = so_far.passed || it.passed;
    if (it.pass_cycles > 0 && (so_far.best_cycles == 0 || it.pass_cycles < so_far.best_cycles))
      so_far.best_cycles = it.pass_cycles;
    points.push_back(so_far);
  }
  return points;
}

json trajectory_json(const std::vector<TrajectoryPoint>& points) {
  json j = json::array();
  for (const auto& p : points) {
    j.push_back({{"iteration", p.iteration},
                 {"tokens", p.tokens},
                 {"passed", p.passed},
                 {"best_cycles", p.best_cycles}});
  }
  return j;
}

std::vector<TrajectoryPoint> trajectory_from_json(const json& j) {
  if (!j.is_array()) throw std::invalid_argument("a trajectory is a JSON array");
  std::vector<TrajectoryPoint> points;
  for (const auto& p : j) {
    if (!p.is_object() || !p.contains("iteration"))
      throw std::invalid_argument("a trajectory point is an object with an iteration: " + p.dump());
    TrajectoryPoint t;
    t.iteration = static_cast<unsigned>(count_field(p, "iteration"));
    t.tokens = count_field(p, "tokens");
    t.passed = p.value("passed", false);
    t.best_cycles = count_field(p, "best_cycles");
    points.push_back(t);
  }
  return points;
}

const char* progress_source_name(ProgressSource s) {
  switch (s) {
    case ProgressSource::kStored:
      return "stored";
    case ProgressSource::kTranscript:
      return "transcript";
    case ProgressSource::kSummary:
      return "summary";
  }
  return "summary";
}

std::optional<double> RunProgress::speedup_at(unsigned iteration) const {
  std::optional<double> best;
  for (const auto& [from, speedup] : speedup_steps) {
    if (from > iteration) break;
    best = speedup;
  }
  return best;
}

RunProgress run_progress(const RunRecord& run, const std::vector<TrajectoryPoint>* trajectory,
                         ProgressSource source) {
  RunProgress p;
  p.source = source;
  p.tokens_spent = run.tokens();
  if (!run.correct()) return p;
  const TrajectoryPoint* first_pass = nullptr;
  if (trajectory != nullptr) {
    for (const auto& point : *trajectory) {
      if (point.passed) {
        first_pass = &point;
        break;
      }
    }
  }
  if (first_pass != nullptr) {
    p.solved_at = first_pass->iteration;
    p.solved_tokens = first_pass->tokens;
  } else if (trajectory == nullptr && run.first_pass_iteration) {
    // The summary only: the pass is known, its tokens are not (all of the run's are an upper bound).
    p.solved_at = std::max(1u, *run.first_pass_iteration);
    p.solved_tokens = run.tokens();
  } else {
    // Correct but never evaluated during the run: solved when it ended (submitted).
    p.solved_at = std::max(1u, run.iterations);
    p.solved_tokens = run.tokens();
  }
  if (run.baseline_cycles == 0) return p;
  if (first_pass != nullptr) {
    for (const auto& point : *trajectory) {
      if (point.best_cycles == 0) continue;
      const double speedup =
          static_cast<double>(run.baseline_cycles) / static_cast<double>(point.best_cycles);
      if (p.speedup_steps.empty() || speedup > p.speedup_steps.back().second)
        p.speedup_steps.emplace_back(std::max(point.iteration, *p.solved_at), speedup);
    }
  }
  if (p.speedup_steps.empty() && run.speedup > 0) p.speedup_steps.emplace_back(*p.solved_at, run.speedup);
  return p;
}

RunProgress run_progress(const RunRecord& run) {
  if (!run.correct()) return run_progress(run, nullptr, ProgressSource::kSummary);
  if (!run.trajectory.is_null()) {
    try {
      const auto points = trajectory_from_json(run.trajectory);
      return run_progress(run, &points, ProgressSource::kStored);
    } catch (const std::invalid_argument&) {
      // A malformed stored trajectory: as if none was stored.
    }
  }
  if (!run.transcript.empty()) {
    try {
      const auto points = trajectory_from_events(agent::read_transcript(run.transcript));
      return run_progress(run, &points, ProgressSource::kTranscript);
    } catch (const std::exception&) {
      // Moved, deleted or cut short: the summary fields are what is left.
    }
  }
  return run_progress(run, nullptr, ProgressSource::kSummary);
}

namespace {

json speedup_or_null(const std::optional<double>& v) {
  return v ? json(*v) : json(nullptr);
}

// One cell's finished attempts and their progress.
using CellProgress = std::vector<RunProgress>;

CurveGroup group_curves(const std::string& agent, const GroupMetrics& total,
                        const std::vector<const RunRecord*>& runs, const std::vector<CellProgress>& cells) {
  CurveGroup g;
  g.agent = agent;
  g.platform = total.platform;
  g.hw_config = total.hw_config;
  g.cells = static_cast<unsigned>(cells.size());
  g.runs = static_cast<unsigned>(runs.size());
  g.max_iterations = 1;
  for (const auto* r : runs) g.max_iterations = std::max({g.max_iterations, r->budget, r->iterations});
  std::set<uint64_t> token_steps = {0};
  for (const auto& cell : cells) {
    for (const auto& p : cell) {
      g.max_tokens = std::max(g.max_tokens, p.tokens_spent);
      if (!p.solved_at) continue;
      g.max_iterations = std::max(g.max_iterations, *p.solved_at);
      token_steps.insert(p.solved_tokens);
      (p.source == ProgressSource::kStored       ? g.from_stored
       : p.source == ProgressSource::kTranscript ? g.from_transcript
                                                 : g.from_summary)++;
    }
  }
  // The expected share of cells one attempt solves: each cell weighs 1, split over its attempts.
  const auto share = [&](const auto& solved) {
    if (cells.empty()) return 0.0;
    double sum = 0;
    for (const auto& cell : cells) {
      const auto n = std::count_if(cell.begin(), cell.end(), solved);
      sum += static_cast<double>(n) / static_cast<double>(cell.size());
    }
    return sum / static_cast<double>(cells.size());
  };
  for (unsigned i = 1; i <= g.max_iterations; ++i) {
    CurveIterationPoint point;
    point.iteration = i;
    point.solved = share([i](const RunProgress& p) { return p.solved_by(i); });
    double log_sum = 0;
    for (const auto& cell : cells) {
      for (const auto& p : cell) {
        if (!p.solved_by(i)) continue;
        if (const auto s = p.speedup_at(i)) {
          log_sum += std::log(*s);
          ++point.speedup_runs;
        }
      }
    }
    if (point.speedup_runs > 0) point.geomean_speedup = std::exp(log_sum / point.speedup_runs);
    g.by_iteration.push_back(point);
  }
  for (const uint64_t t : token_steps) {
    const double solved =
        share([t](const RunProgress& p) { return p.solved_at.has_value() && p.solved_tokens <= t; });
    if (g.by_tokens.empty() || solved != g.by_tokens.back().solved) g.by_tokens.push_back({t, solved});
  }
  return g;
}

}  // namespace

json CurveGroup::to_json() const {
  json j = {{"agent", agent},
            {"platform", platform},
            {"hw_config", hw_config},
            {"cells", cells},
            {"runs", runs},
            {"max_iterations", max_iterations},
            {"max_tokens", max_tokens},
            {"progress_from",
             {{"stored", from_stored}, {"transcript", from_transcript}, {"summary", from_summary}}},
            {"by_iteration", json::array()},
            {"by_tokens", json::array()}};
  for (const auto& p : by_iteration) {
    j["by_iteration"].push_back({{"iteration", p.iteration},
                                 {"solved", p.solved},
                                 {"geomean_speedup", speedup_or_null(p.geomean_speedup)},
                                 {"speedup_runs", p.speedup_runs}});
  }
  for (const auto& p : by_tokens) j["by_tokens"].push_back({{"tokens", p.tokens}, {"solved", p.solved}});
  return j;
}

json Curves::to_json() const {
  json j = {
      {"definitions",
       {{"solved",
         "expected share of cells (agent, target, task, configuration) one attempt solves: per cell, the "
         "share "
         "of its finished attempts that are correct on the hidden seeds and solved by then (from the first "
         "iteration whose run_eval passed, else from the run's last iteration), averaged over cells"},
        {"by_tokens", "the same against prompt + completion tokens spent up to the solving iteration"},
        {"geomean_speedup",
         "geometric mean over the runs solved by then that have a baseline of baseline_cycles / the fewest "
         "cycles of a passing development-seed run_eval so far (the run's recorded speedup without one)"}}},
      {"groups", json::array()}};
  for (const auto& g : groups) j["groups"].push_back(g.to_json());
  return j;
}

Curves compute_curves(const std::vector<RunRecord>& runs, const Metrics& metrics,
                      const std::function<RunProgress(const RunRecord&)>& progress) {
  using CurveCell =
      std::tuple<std::string, std::string, std::string, std::string>;  // target, task, config, agent
  std::map<CurveCell, std::vector<const RunRecord*>> by_cell;
  for (const auto& c : metrics.cells) by_cell[{c.target(), c.task, c.config, c.agent}];
  for (const auto& r : runs) {
    const auto it = by_cell.find({r.key.target(), r.key.task, r.key.config, r.key.agent});
    if (it != by_cell.end()) it->second.push_back(&r);
  }
  Curves curves;
  for (const auto& target : metrics.targets) {
    for (const auto& agent : metrics.agents) {
      const auto* total = metrics.total(agent, target);
      if (total == nullptr) continue;
      std::vector<const RunRecord*> group_runs;
      std::vector<CellProgress> cells;
      for (const auto& [key, cell_runs] : by_cell) {
        if (std::get<0>(key) != target || std::get<3>(key) != agent || cell_runs.empty()) continue;
        CellProgress cell;
        for (const auto* r : cell_runs) {
          cell.push_back(progress ? progress(*r) : run_progress(*r));
          group_runs.push_back(r);
        }
        cells.push_back(std::move(cell));
      }
      if (cells.empty()) continue;  // planned, nothing finished yet
      curves.groups.push_back(group_curves(agent, *total, group_runs, cells));
    }
  }
  return curves;
}

namespace {

std::string share_text(double v) {
  return fmt::format("{:.2f}", v);
}

// "2:0.67 4:1.00": the points where the value changes (the first always).
std::string iteration_steps(const CurveGroup& g) {
  std::string out;
  double last = -1;
  for (const auto& p : g.by_iteration) {
    if (p.solved == last) continue;
    out += fmt::format("{}{}:{}", out.empty() ? "" : " ", p.iteration, share_text(p.solved));
    last = p.solved;
  }
  return out;
}

std::string token_steps(const CurveGroup& g) {
  std::string out;
  for (const auto& p : g.by_tokens)
    out += fmt::format("{}{}:{}", out.empty() ? "" : " ", p.tokens, share_text(p.solved));
  return out;
}

std::string speedup_steps(const CurveGroup& g) {
  std::string out;
  std::optional<double> last;
  for (const auto& p : g.by_iteration) {
    if (!p.geomean_speedup ||
        (last && fmt::format("{:.3f}", *last) == fmt::format("{:.3f}", *p.geomean_speedup)))
      continue;
    out += fmt::format("{}{}:{:.3f}x", out.empty() ? "" : " ", p.iteration, *p.geomean_speedup);
    last = p.geomean_speedup;
  }
  return out.empty() ? "-" : out;
}

}  // namespace

std::string curves_table(const Curves& c, bool only_if_informative) {
  const bool spent_tokens =
      std::any_of(c.groups.begin(), c.groups.end(), [](const auto& g) { return g.max_tokens > 0; });
  if (c.groups.empty() || (only_if_informative && !spent_tokens)) return "";
  std::string out =
      "\nCurves: where the expected share of cells solved and the geometric-mean speedup change "
      "(docs/bench.md)\n";
  const std::string heading = fmt::format("{:<28} {:<18} {:>5} {:<28} {:<32} {}", "agent", "target", "iters",
                                          "solved by iteration", "solved by tokens", "geomean by iteration");
  out += heading + "\n" + std::string(heading.size() + 8, '-') + "\n";
  for (const auto& g : c.groups) {
    out += fmt::format("{:<28} {:<18} {:>5} {:<28} {:<32} {}\n", g.agent, g.target(), g.max_iterations,
                       iteration_steps(g), token_steps(g), speedup_steps(g));
  }
  out += "(i:v: from iteration i, or from i tokens, on the value is v; the budget's share is pass@1)\n";
  return out;
}

}  // namespace kcraft::bench
