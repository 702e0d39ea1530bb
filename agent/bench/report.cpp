#include "agent/bench/report.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <map>
#include <set>
#include <stdexcept>
#include <tuple>

#include "agent/bench/cost.h"
#include "agent/bench/plan.h"
#include "agent/bench/progress.h"
#include "agent/bench/run_columns.h"
#include "agent/common/scoring.h"

namespace kcraft::bench {

using nlohmann::json;

extern const char* const kReportTemplate;  // report_template.html, embedded by CMake

namespace {

struct Column {
  std::string agent, target;
};

// Columns of the tables: target-major (as KernelCraft puts platforms side by side), agents within.
std::vector<Column> columns(const Metrics& m) {
  std::vector<Column> cols;
  for (const auto& t : m.targets) {
    for (const auto& a : m.agents) {
      if (m.total(a, t) != nullptr) cols.push_back({a, t});
    }
  }
  return cols;
}

std::string solved_text(const GroupMetrics* g) {
  if (g == nullptr) return "";
  std::string s = fmt::format("{}/{}", g->configs_solved, g->configs);
  if (g->configs_pending > 0) s += fmt::format(" ({} pending)", g->configs_pending);
  return s;
}

std::string opt_text(const std::optional<double>& v, const char* format) {
  return v ? fmt::format(fmt::runtime(format), *v) : std::string("-");
}

std::string pad(const std::string& s, size_t width) {
  return s.size() >= width ? s : s + std::string(width - s.size(), ' ');
}

std::set<int> levels_of(const Metrics& m) {
  std::set<int> levels;
  for (const auto& t : m.tasks) levels.insert(t.level);
  return levels;
}

std::string number(double v) {
  return fmt::format("{:.6g}", v);
}

void write_file(const std::filesystem::path& file, const std::string& text) {
  if (file.has_parent_path()) std::filesystem::create_directories(file.parent_path());
  std::ofstream out(file, std::ios::binary);
  out << text;
  if (!out) throw std::runtime_error("cannot write " + file.string());
}

}  // namespace

std::string csv_field(const std::string& s) {
  if (s.find_first_of(",\"\n\r") == std::string::npos) return s;
  std::string out = "\"";
  for (char c : s) {
    if (c == '"') out += '"';
    out += c;
  }
  return out + "\"";
}

ReportData load_report_data(const ResultStore& store, const agent::PriceTable& prices) {
  ReportData d;
  d.runs = store.runs();
  price_runs(d.runs, prices);
  d.plan = store.plan();
  d.unsupported = store.unsupported();
  d.hardware = store.hardware();
  d.sweeps = store.sweeps();
  d.tuned_baselines = store.tuned_baselines();
  d.metrics = compute_metrics(d.runs, d.plan, d.unsupported);
  d.uncertainty = compute_uncertainty(d.runs, d.metrics);
  d.curves = compute_curves(d.runs, d.metrics);
  return d;
}

ReportData report_data_for(const ResultStore& store, const std::vector<PlannedRun>& plan,
                           const agent::PriceTable& prices) {
  ReportData d;
  std::set<RunKey> keys;
  std::set<std::string> targets, tasks, configs;
  for (const auto& p : plan) {
    keys.insert(p.key);
    targets.insert(p.key.target());
    tasks.insert(p.key.task);
  }
  d.plan = plan;
  for (auto& r : store.runs()) {
    if (keys.count(r.key)) d.runs.push_back(std::move(r));
  }
  price_runs(d.runs, prices);
  for (auto& u : store.unsupported()) {
    if (targets.count(u.platform + "/" + u.hw_config) && (tasks.empty() || tasks.count(u.task))) {
      d.unsupported.push_back(std::move(u));
    }
  }
  d.hardware = store.hardware();
  d.sweeps = store.sweeps();
  std::set<std::string> cells;
  for (const auto& p : plan) cells.insert(p.key.target() + "/" + p.key.task + "/" + p.key.config);
  for (auto& t : store.tuned_baselines()) {
    if (cells.count(t.key.cell())) d.tuned_baselines.push_back(std::move(t));
  }
  d.metrics = compute_metrics(d.runs, d.plan, d.unsupported);
  d.uncertainty = compute_uncertainty(d.runs, d.metrics);
  d.curves = compute_curves(d.runs, d.metrics);
  return d;
}

// A cell without a correct kernel: "--" unsupported, "..." planned and not run yet, "error" every job
// failed, "x" no correct kernel; blank when the sweep never planned it (the quick sweep leaves cells out).
std::string unsolved_cell_text(const Metrics& m, const CellSummary* cell, const std::string& target,
                               const std::string& task, const std::string& config) {
  if (m.unsupported_cell(target, task, config)) return "--";
  if (cell == nullptr) return "";
  if (cell->runs == 0) return "...";
  return cell->failed_jobs == cell->runs ? "error" : "x";
}

std::string success_table(const Metrics& m) {
  const auto cols = columns(m);
  size_t name_width = 16;
  for (const auto& t : m.tasks) name_width = std::max(name_width, t.name.size() + 4);
  std::vector<size_t> widths;
  for (const auto& c : cols) {
    size_t w = std::max({c.agent.size(), c.target.size(), size_t{7}});
    for (const auto& t : m.tasks)
      w = std::max(w, solved_text(m.task_group(c.agent, c.target, t.name)).size());
    widths.push_back(w);
  }
  std::string out = "Configurations solved (correct on the hidden inputs in at least one attempt):\n";
  std::string head1 = pad("task", name_width) + " L ", head2 = std::string(name_width + 3, ' ');
  for (size_t i = 0; i < cols.size(); ++i) {
    head1 += "| " + pad(cols[i].agent, widths[i] + 1);
    head2 += "| " + pad(cols[i].target, widths[i] + 1);
  }
  const size_t rule = head1.size();
  for (auto* h : {&head1, &head2}) {
    while (!h->empty() && h->back() == ' ') h->pop_back();
  }
  out += head1 + "\n" + head2 + "\n" + std::string(rule, '-') + "\n";
  auto row = [&](const std::string& label, const std::string& level, auto cell) {
    std::string line = pad(label, name_width) + " " + pad(level, 2);
    for (size_t i = 0; i < cols.size(); ++i) line += "| " + pad(cell(cols[i]), widths[i] + 1);
    while (!line.empty() && line.back() == ' ') line.pop_back();
    out += line + "\n";
  };
  for (const auto& t : m.tasks) {
    row(t.name, std::to_string(t.level), [&](const Column& c) {
      if (const auto* g = m.task_group(c.agent, c.target, t.name)) return solved_text(g);
      return m.unsupported_cell(c.target, t.name, "") ? std::string("--") : std::string();
    });
  }
  out += std::string(rule, '-') + "\n";
  for (int level : levels_of(m)) {
    row(fmt::format("L{} subtotal", level), "",
        [&](const Column& c) { return solved_text(m.level_group(c.agent, c.target, level)); });
  }
  row("total", "", [&](const Column& c) { return solved_text(m.total(c.agent, c.target)); });
  return out;
}

std::string speedup_table(const Metrics& m) {
  std::string out;
  size_t name_width = 12;
  for (const auto& t : m.tasks) name_width = std::max(name_width, t.name.size() + 1);
  for (const auto& c : columns(m)) {
    out += fmt::format(
        "\n{} on {}: best speedup over the baseline/over the tuned baseline, share of the roofline ideal/of "
        "the "
        "attainable bound, per configuration\n",
        c.agent, c.target);
    std::string head = pad("task", name_width) + " L ";
    for (const auto& cfg : m.configs) head += "  " + pad(cfg, 19);
    head += "  solved  geomean (base/tuned)";
    out += head + "\n" + std::string(head.size(), '-') + "\n";
    for (const auto& t : m.tasks) {
      const auto* g = m.task_group(c.agent, c.target, t.name);
      if (g == nullptr) continue;
      std::string line = pad(t.name, name_width) + " " + pad(std::to_string(t.level), 2);
      for (const auto& cfg : m.configs) {
        std::string text;
        const auto* cell = m.cell(c.agent, c.target, t.name, cfg);
        if (cell != nullptr && cell->solved()) {
          text = (cell->best_speedup ? fmt::format("{:.2f}x", *cell->best_speedup) : std::string("ok")) +
                 "/" + opt_text(cell->best_tuned_speedup, "{:.2f}x") +
                 (cell->best_utilization ? fmt::format(" {:.0f}", 100 * *cell->best_utilization) : "") +
                 (cell->best_attainable_utilization
                      ? fmt::format("/{:.0f}", 100 * *cell->best_attainable_utilization)
                      : "") +
                 (cell->best_utilization ? "%" : "");
        } else {
          text = unsolved_cell_text(m, cell, c.target, t.name, cfg);
        }
        line += "  " + pad(text, 19);
      }
      line += fmt::format("  {:<6}  {}/{}", solved_text(g), opt_text(g->geomean_speedup, "{:.2f}x"),
                          opt_text(g->geomean_tuned_speedup, "{:.2f}x"));
      out += line + "\n";
    }
  }
  out +=
      "(x: no correct kernel; error: the job failed; --: unsupported; ...: not run yet; /-: tuned baseline "
      "not known)\n";
  return out;
}

std::string cycles_table(const Metrics& m) {
  std::string out;
  size_t name_width = 12;
  for (const auto& t : m.tasks) name_width = std::max(name_width, t.name.size() + 1);
  for (const auto& c : columns(m)) {
    out += fmt::format(
        "\n{} on {}: cycles of the fastest correct kernel (the baseline's, the tuned baseline's), per "
        "configuration\n",
        c.agent, c.target);
    // The texts first: a column is as wide as its longest cell (tens of millions of cycles on a slow target).
    std::vector<std::vector<std::string>> rows;
    std::vector<size_t> widths(m.configs.size(), 24);
    for (const auto& t : m.tasks) {
      if (m.task_group(c.agent, c.target, t.name) == nullptr) continue;
      std::vector<std::string> texts;
      for (size_t i = 0; i < m.configs.size(); ++i) {
        const auto* cell = m.cell(c.agent, c.target, t.name, m.configs[i]);
        std::string text;
        if (cell != nullptr && cell->solved()) {
          text = std::to_string(cell->best_cycles);
          const std::string tuned = cell->tuned_baseline_cycles && *cell->tuned_baseline_cycles > 0
                                        ? std::to_string(*cell->tuned_baseline_cycles)
                                        : std::string("-");
          if (cell->baseline_cycles > 0) text += fmt::format(" ({}, {})", cell->baseline_cycles, tuned);
        } else {
          text = unsolved_cell_text(m, cell, c.target, t.name, m.configs[i]);
        }
        widths[i] = std::max(widths[i], text.size());
        texts.push_back(std::move(text));
      }
      rows.push_back(std::move(texts));
    }
    std::string head = pad("task", name_width) + " L ";
    for (size_t i = 0; i < m.configs.size(); ++i) head += "  " + pad(m.configs[i], widths[i]);
    out += head + "\n" + std::string(head.size(), '-') + "\n";
    size_t r = 0;
    for (const auto& t : m.tasks) {
      if (m.task_group(c.agent, c.target, t.name) == nullptr) continue;
      const auto& texts = rows[r++];
      std::string line = pad(t.name, name_width) + " " + pad(std::to_string(t.level), 2);
      for (size_t i = 0; i < m.configs.size(); ++i) line += "  " + pad(texts[i], widths[i]);
      while (!line.empty() && line.back() == ' ') line.pop_back();
      out += line + "\n";
    }
  }
  return out;
}

namespace {

// The compiler baseline's name on a target ("" = none, or a target this kcraft no longer knows).
std::string compiler_name(const std::string& target) {
  const auto slash = target.find('/');
  try {
    return agent::compiler_baseline_name(target.substr(0, slash), target.substr(slash + 1));
  } catch (const std::exception&) {
    return "";
  }
}

std::string geomean_text(const std::vector<double>& values) {
  if (values.empty()) return "";
  double log_sum = 0;
  for (double v : values) log_sum += std::log(v);
  return fmt::format("{:.2f}x", std::exp(log_sum / static_cast<double>(values.size())));
}

}  // namespace

std::string compiler_table(const Metrics& m) {
  std::string out;
  bool any_not_simulated = false;
  size_t name_width = 14;
  for (const auto& t : m.tasks) name_width = std::max(name_width, t.name.size() + 1);
  for (const auto& c : columns(m)) {
    bool any_cycles = false, any_unsimulated = false;
    for (const auto& cell : m.cells) {
      if (cell.agent != c.agent || cell.target() != c.target) continue;
      any_cycles = any_cycles || cell.compiler_baseline_cycles > 0;
      any_unsimulated = any_unsimulated || cell.compiler_baseline_not_simulated;
    }
    std::string name = compiler_name(c.target);
    // Runs stored before compiler baselines were read as not simulated: only a platform that has one shows
    // them.
    if (!any_cycles && !(any_unsimulated && !name.empty())) continue;
    out += fmt::format(
        "\n{} on {}: best speedup over the compiler baseline ({}: the plain reference as the compiler "
        "builds it), and its cycles, per configuration\n",
        c.agent, c.target, name.empty() ? "compiler" : name);
    std::string head = pad("task", name_width) + " L ";
    for (const auto& cfg : m.configs) head += "  " + pad(cfg, 22);
    head += "  geomean";
    out += head + "\n" + std::string(head.size(), '-') + "\n";
    std::map<std::pair<int, std::string>, std::vector<double>> by_level;  // (level, config) -> speedups
    std::map<std::string, double> lowest;                                 // config -> lowest speedup
    for (const auto& t : m.tasks) {
      if (m.task_group(c.agent, c.target, t.name) == nullptr) continue;
      std::string line = pad(t.name, name_width) + " " + pad(std::to_string(t.level), 2);
      std::vector<double> task_speedups;
      for (const auto& cfg : m.configs) {
        const auto* cell = m.cell(c.agent, c.target, t.name, cfg);
        std::string text;
        if (cell != nullptr && cell->solved() && cell->best_compiler_speedup) {
          const double x = *cell->best_compiler_speedup;
          text = fmt::format("{:.2f}x ({})", x, cell->compiler_baseline_cycles);
          task_speedups.push_back(x);
          by_level[{t.level, cfg}].push_back(x);
          lowest[cfg] = lowest.count(cfg) ? std::min(lowest[cfg], x) : x;
        } else if (cell != nullptr && cell->solved() && cell->compiler_baseline_not_simulated) {
          text = "not simulated";
          any_not_simulated = true;
        } else if (cell != nullptr && cell->solved()) {
          text = "-";
        } else {
          text = unsolved_cell_text(m, cell, c.target, t.name, cfg);
        }
        line += "  " + pad(text, 22);
      }
      line += "  " + geomean_text(task_speedups);
      while (!line.empty() && line.back() == ' ') line.pop_back();
      out += line + "\n";
    }
    out += std::string(head.size(), '-') + "\n";
    for (int level : levels_of(m)) {
      std::string line = pad(fmt::format("L{} geomean", level), name_width + 3);
      for (const auto& cfg : m.configs) {
        const auto it = by_level.find({level, cfg});
        line += "  " + pad(it == by_level.end() ? "" : geomean_text(it->second), 22);
      }
      while (!line.empty() && line.back() == ' ') line.pop_back();
      out += line + "\n";
    }
    std::string line = pad("lowest", name_width + 3);
    for (const auto& cfg : m.configs)
      line += "  " + pad(lowest.count(cfg) ? fmt::format("{:.2f}x", lowest[cfg]) : "", 22);
    while (!line.empty() && line.back() == ' ') line.pop_back();
    out += line + "\n";
  }
  if (!out.empty()) out += "(-: the compiler baseline did not pass; see the cycles table for the others)\n";
  if (any_not_simulated) {
    out +=
        "(not simulated: the sweep takes these compiler baselines from the evaluation cache only, which had "
        "none for this model build; `--compiler-baseline all` simulates them, docs/bench.md)\n";
  }
  return out;
}

std::string summary_table(const Metrics& m) {
  size_t agent_width = 14;
  for (const auto& a : m.agents) agent_width = std::max(agent_width, a.size());
  std::string out = fmt::format(
      "{:<{}} {:<18} {:>5} {:>7} {:>6} {:>6} {:>6} {:>8} {:>6} {:>8} {:>12} {:>9} {:>12} {:>9} {:>8} {:>10} "
      "{:>7}\n",
      "agent", agent_width, "target", "runs", "correct", "errors", "fast_0", "fast_1", "fast_1.5", "fast_2",
      "geomean", "fast_1/tuned", "geo/tuned", "geo/compiler", "1st valid", "1st pass", "tokens/run", "s/run");
  out += std::string(out.size() - 1, '-') + "\n";
  for (const auto& c : columns(m)) {
    const auto* g = m.total(c.agent, c.target);
    const std::string fast_1_tuned = g->tuned_runs > 0 ? fmt::format("{:.2f}", g->fast_p_tuned[1]) : "-";
    out += fmt::format(
        "{:<{}} {:<18} {:>5} {:>7} {:>6} {:>6.2f} {:>6.2f} {:>8.2f} {:>6.2f} {:>8} {:>12} {:>9} {:>12} {:>9} "
        "{:>8} {:>10.0f} {:>7.1f}\n",
        c.agent, agent_width, c.target, g->runs, g->correct, g->failed_jobs, g->fast_p[0], g->fast_p[1],
        g->fast_p[2], g->fast_p[3], opt_text(g->geomean_speedup, "{:.3f}x"), fast_1_tuned,
        opt_text(g->geomean_tuned_speedup, "{:.3f}x"), opt_text(g->geomean_compiler_speedup, "{:.3f}x"),
        opt_text(g->mean_first_valid, "{:.1f}"), opt_text(g->mean_first_pass, "{:.1f}"), g->tokens_per_run,
        g->seconds_per_run);
  }
  out +=
      "(fast_p, geomean: against the template compiler's baseline; .../tuned: against the tuned baseline,\n"
      " the offline tuner's best kernel, over the runs whose tuned baseline is known; geo/compiler: against\n"
      " the platform's compiler baseline, the plain reference as its compiler builds it, where it has one)\n";
  return out;
}

namespace {

std::string thousands(uint64_t n) {
  if (n >= 10'000'000) return fmt::format("{:.0f}M", n / 1e6);
  if (n >= 10'000) return fmt::format("{:.0f}k", n / 1e3);
  return std::to_string(n);
}

// "designer 12k, coder 340k, conductor 8k" (prompt + completion tokens per role); "-" without roles.
std::string role_tokens_text(const GroupMetrics& g) {
  std::string text;
  for (const auto& [role, tokens] : g.role_tokens)
    text += (text.empty() ? "" : ", ") + role + " " + thousands(tokens);
  return text.empty() ? "-" : text;
}

// The porting comparisons: (porting agent, the agent without porting, target), both in the metrics.
struct PortingPair {
  std::string port, plain, target;
};
std::vector<PortingPair> porting_pairs(const Metrics& m) {
  std::vector<PortingPair> pairs;
  for (const auto& agent : m.agents) {
    const std::string plain = unported_agent_name(agent);
    if (plain.empty()) continue;
    for (const auto& target : m.targets) {
      if (m.total(agent, target) != nullptr) pairs.push_back({agent, plain, target});
    }
  }
  return pairs;
}

// The porting agent's and the plain agent's cells on the configurations both have.
struct PortingComparison {
  unsigned configs = 0, solved_port = 0, solved_plain = 0, only_port = 0, only_plain = 0;
  unsigned both_faster_port = 0, both = 0;  // of the configurations both solved: where porting was faster
  unsigned no_kernel_to_port = 0;
  const GroupMetrics* port = nullptr;
  const GroupMetrics* plain = nullptr;
};
PortingComparison compare_porting(const Metrics& m, const PortingPair& p) {
  PortingComparison c;
  c.port = m.total(p.port, p.target);
  c.plain = m.total(p.plain, p.target);
  if (c.port != nullptr) c.no_kernel_to_port = c.port->no_kernel_to_port;
  for (const auto& cell : m.cells) {
    if (cell.agent != p.port || cell.target() != p.target) continue;
    const CellSummary* other = m.cell(p.plain, p.target, cell.task, cell.config);
    if (other == nullptr) continue;
    ++c.configs;
    c.solved_port += cell.solved();
    c.solved_plain += other->solved();
    c.only_port += cell.solved() && !other->solved();
    c.only_plain += !cell.solved() && other->solved();
    if (cell.solved() && other->solved()) {
      ++c.both;
      c.both_faster_port += cell.best_cycles < other->best_cycles;
    }
  }
  return c;
}

}  // namespace

std::string agents_table(const Metrics& m) {
  std::string out =
      fmt::format("{:<28} {:<18} {:>9} {:>8} {:>6} {:>8} {:>6} {:>9} {:>8}  {}\n", "agent", "target",
                  "solved", "geomean", "fast_1", "calls", "evals", "wall s", "tokens", "tokens per role");
  out += std::string(out.size() - 1, '-') + "\n";
  for (const auto& c : columns(m)) {
    const auto* g = m.total(c.agent, c.target);
    if (g == nullptr) continue;
    out += fmt::format("{:<28} {:<18} {:>9} {:>8} {:>6.2f} {:>8} {:>6} {:>9.1f} {:>8}  {}\n", c.agent,
                       c.target, fmt::format("{}/{}", g->configs_solved, g->configs),
                       opt_text(g->geomean_speedup, "{:.3f}x"), g->fast_p[1], g->model_calls, g->evaluations,
                       g->agent_seconds, thousands(g->tokens), role_tokens_text(*g));
  }
  out +=
      "(totals over each agent's runs: model calls of every role, kernel evaluations, the agents' own wall\n"
      " time, prompt + completion tokens; tokens per role for workflows of several roles)\n";
  return out;
}

namespace {

// "coder $0.0030, designer $0.0011"; "-" without roles.
std::string role_cost_text(const GroupMetrics& g) {
  std::string text;
  for (const auto& [role, usd] : g.role_cost_usd)
    text += (text.empty() ? "" : ", ") + role + " " + usd_text(usd);
  return text.empty() ? "-" : text;
}

std::string unpriced_text(const GroupMetrics& g) {
  std::vector<std::string> models(g.unpriced_models.begin(), g.unpriced_models.end());
  return fmt::format(
      "unknown: no prices for {} ({} of {} runs; give `prices:` in the provider settings, or "
      "`kcraft report --prices FILE`)",
      fmt::join(models, ", "), g.unpriced_runs, g.cost_runs);
}

}  // namespace

std::string cost_table(const Metrics& m) {
  std::vector<std::pair<Column, const GroupMetrics*>> rows;
  for (const auto& c : columns(m)) {
    const auto* g = m.total(c.agent, c.target);
    if (g != nullptr && g->cost_runs > 0) rows.emplace_back(c, g);
  }
  if (rows.empty()) return "";
  std::string out =
      "\nCost of the model calls (USD at the prices of the provider settings or --prices; docs/bench.md, "
      "\"Cost\"):\n";
  const std::string head =
      fmt::format("{:<28} {:<18} {:>5} {:>9} {:>11} {:>11} {:>12}  {}", "agent", "target", "runs", "solved",
                  "total", "per run", "per solved", "per role");
  out += head + "\n" + std::string(head.size() + 8, '-') + "\n";
  bool any_failed = false;
  for (const auto& [c, g] : rows) {
    std::string line = fmt::format("{:<28} {:<18} {:>5} {:>9} ", c.agent, c.target, g->cost_runs,
                                   fmt::format("{}/{}", g->configs_solved, g->configs));
    if (g->cost_usd) {
      line += fmt::format("{:>11} {:>11} {:>12}  {}", usd_text(*g->cost_usd), usd_text(*g->cost_per_run_usd),
                          g->cost_per_solved_usd ? usd_text(*g->cost_per_solved_usd) : "none solved",
                          role_cost_text(*g));
    } else {
      line += " " + unpriced_text(*g);
    }
    out += line + "\n";
    any_failed = any_failed || g->failed_jobs > 0;
  }
  out +=
      "(runs: the runs priced; per solved: total / configurations solved, every attempt counted, failed and "
      "repeated\n ones too; cached prompt and reasoning tokens at their own prices, each token once)\n";
  if (any_failed) out += "(failed jobs are not in the cost: their usage was lost with the worker)\n";
  return out;
}

nlohmann::json cost_json(const Metrics& m) {
  json out = json::array();
  for (const auto& c : columns(m)) {
    const auto* g = m.total(c.agent, c.target);
    if (g == nullptr || g->cost_runs == 0) continue;
    const auto optional = [](const std::optional<double>& v) { return v ? json(*v) : json(nullptr); };
    out.push_back({{"agent", g->agent},
                   {"platform", g->platform},
                   {"hw_config", g->hw_config},
                   {"runs", g->cost_runs},
                   {"unpriced_runs", g->unpriced_runs},
                   {"unpriced_models", g->unpriced_models},
                   {"failed_jobs", g->failed_jobs},
                   {"configs", g->configs},
                   {"configs_solved", g->configs_solved},
                   {"cost_usd", optional(g->cost_usd)},
                   {"cost_per_run_usd", optional(g->cost_per_run_usd)},
                   {"cost_per_solved_usd", optional(g->cost_per_solved_usd)},
                   {"role_cost_usd", g->role_cost_usd}});
  }
  return out;
}

namespace {

// "0.67 [0.33, 1.00]"; "-" when undefined, no interval when it has none.
std::string estimate_text(const Estimate& e, const char* format) {
  if (!e.value) return "-";
  std::string text = fmt::format(fmt::runtime(format), *e.value);
  if (e.interval) {
    text += fmt::format(" [{}, {}]", fmt::format(fmt::runtime(format), e.interval->low),
                        fmt::format(fmt::runtime(format), e.interval->high));
  }
  return text;
}

}  // namespace

std::string uncertainty_table(const Uncertainty& u, bool only_if_informative) {
  const bool several_attempts =
      std::any_of(u.groups.begin(), u.groups.end(), [](const auto& g) { return g.attempts > 1; });
  if (u.groups.empty() || (only_if_informative && !several_attempts && u.comparisons.empty())) return "";
  std::string out = fmt::format(
      "\nUncertainty: 95 % bootstrap intervals over cells ({} resamples, seed {}; docs/bench.md)\n",
      u.settings.resamples, u.settings.seed);
  const std::string heading =
      fmt::format("{:<28} {:<18} {:>5} {:>2} {:<20} {:<20} {:<20} {:<20} {}", "agent", "target", "cells", "k",
                  "pass@1", "pass@k", "solved", "fast_1", "geomean");
  out += heading + "\n" + std::string(heading.size() + 16, '-') + "\n";
  for (const auto& g : u.groups) {
    out += fmt::format("{:<28} {:<18} {:>5} {:>2} {:<20} {:<20} {:<20} {:<20} {}\n", g.agent, g.target(),
                       g.cells, g.attempts, estimate_text(g.pass_at_1, "{:.2f}"),
                       g.attempts > 1 ? estimate_text(g.pass_at_k, "{:.2f}") : "-",
                       estimate_text(g.solved, "{:.2f}"), estimate_text(g.fast_1, "{:.2f}"),
                       estimate_text(g.geomean_speedup, "{:.3f}x"));
  }
  out +=
      "(k: attempts per cell; pass@k over the cells with k finished attempts, by the unbiased estimator)\n";
  if (u.comparisons.empty()) return out;
  out += "\nAgents compared, paired over the cells both ran (*: the 95 % interval excludes no difference)\n";
  out += fmt::format("{:<18} {:<28} {:<28} {:>6} {:<24} {}\n", "target", "agent a", "agent b", "cells",
                     "pass@1 a - b", "geomean a / b");
  for (const auto& c : u.comparisons) {
    out +=
        fmt::format("{:<18} {:<28} {:<28} {:>6} {:<24} {}\n", c.target, c.agent_a, c.agent_b, c.common_cells,
                    estimate_text(c.pass_at_1_difference, "{:+.2f}") + (c.pass_at_1_differs() ? " *" : ""),
                    estimate_text(c.geomean_ratio, "{:.3f}x") + (c.geomean_differs() ? " *" : ""));
  }
  return out;
}

std::string porting_table(const Metrics& m) {
  const auto pairs = porting_pairs(m);
  if (pairs.empty()) return "";
  std::string out =
      "\nPorting: does a kernel for one ISA help on another? Each porting agent next to the same workflow\n"
      "and settings without porting, on the configurations both ran.\n";
  const std::string head = fmt::format("{:<28} {:<24} {:<18} {:>7} {:>13} {:>11} {:>17} {:>13} {:>11}\n",
                                       "porting agent", "vs", "target", "configs", "solved (port)",
                                       "(without)", "faster (both ok)", "calls (port)", "(without)");
  out += head + std::string(head.size() - 1, '-') + "\n";
  for (const auto& p : pairs) {
    const auto c = compare_porting(m, p);
    if (c.plain == nullptr) {
      out += fmt::format("{:<28} {:<24} {:<18} (no runs of {} on {} to compare with)\n", p.port, p.plain,
                         p.target, p.plain, p.target);
      continue;
    }
    out += fmt::format("{:<28} {:<24} {:<18} {:>7} {:>13} {:>11} {:>17} {:>13} {:>11}\n", p.port, p.plain,
                       p.target, c.configs, c.solved_port, c.solved_plain,
                       fmt::format("{}/{}", c.both_faster_port, c.both), c.port->model_calls,
                       c.plain->model_calls);
    if (c.no_kernel_to_port > 0) {
      out +=
          fmt::format("  {} run(s) of {} had no kernel to port (the source platform solved nothing there)\n",
                      c.no_kernel_to_port, p.port);
    }
  }
  return out;
}

std::string phases_table(const std::vector<RunRecord>& runs) {
  std::vector<const RunRecord*> phased;
  for (const auto& r : runs) {
    if (r.correct() && r.phases.contains("phases") && !r.phases["phases"].empty()) phased.push_back(&r);
  }
  if (phased.empty()) return "";
  std::sort(phased.begin(), phased.end(), [](const RunRecord* a, const RunRecord* b) {
    return std::tie(a->key.task, a->key.config, a->key.platform, a->key.hw_config, a->key.agent,
                    a->key.attempt) < std::tie(b->key.task, b->key.config, b->key.platform, b->key.hw_config,
                                               b->key.agent, b->key.attempt);
  });
  std::string out =
      "\nWhere the cycles go (composite kernels, from their phase markers; share of the run's cycles):\n";
  for (const RunRecord* r : phased) {
    const double total = static_cast<double>(std::max<uint64_t>(r->cycles, 1));
    std::string line = fmt::format("  {:<20} {:<3} {:<18} {:<10} {:>11} cycles:", r->key.task, r->key.config,
                                   r->key.target(), r->key.agent, r->cycles);
    const auto unmarked = r->phases.value("unmarked_cycles", uint64_t{0});
    for (const auto& p : r->phases["phases"]) {
      line += fmt::format(" {} {:.1f}%", p.value("name", "?"),
                          100.0 * static_cast<double>(p.value("cycles", uint64_t{0})) / total);
    }
    if (unmarked > 0)
      line += fmt::format(" (unmarked {:.1f}%)", 100.0 * static_cast<double>(unmarked) / total);
    out += line + "\n";
  }
  return out;
}

nlohmann::json porting_json(const Metrics& m) {
  nlohmann::json out = nlohmann::json::array();
  for (const auto& p : porting_pairs(m)) {
    const auto c = compare_porting(m, p);
    nlohmann::json j = {{"port_agent", p.port},
                        {"plain_agent", p.plain},
                        {"target", p.target},
                        {"configs", c.configs},
                        {"solved_port", c.solved_port},
                        {"solved_plain", c.solved_plain},
                        {"only_port", c.only_port},
                        {"only_plain", c.only_plain},
                        {"both_solved", c.both},
                        {"port_faster", c.both_faster_port},
                        {"no_kernel_to_port", c.no_kernel_to_port}};
    j["port"] = c.port != nullptr ? c.port->to_json() : nlohmann::json(nullptr);
    j["plain"] = c.plain != nullptr ? c.plain->to_json() : nlohmann::json(nullptr);
    out.push_back(std::move(j));
  }
  return out;
}

void write_runs_csv(const std::vector<RunRecord>& runs, const std::filesystem::path& file) {
  // The columns of run_columns.h, the kernel's excepted.
  std::string out;
  for (const auto& c : run_columns()) {
    if (c.in_csv) out += (out.empty() ? "" : ",") + std::string(c.name);
  }
  // Derived, not stored (cost.h): empty when not known (no prices) or when no model was called.
  out += ",cost_usd\n";
  for (const auto& r : runs) {
    bool first = true;
    for (const auto& c : run_columns()) {
      if (!c.in_csv) continue;
      out += (first ? "" : ",") + csv_field(run_csv_text(c, r));
      first = false;
    }
    out += "," + (r.cost.usd ? number(*r.cost.usd) : std::string()) + "\n";
  }
  write_file(file, out);
}

void write_metrics_csv(const Metrics& m, const std::filesystem::path& file) {
  std::string out =
      "agent,platform,hw_config,scope,task,level,configs,configs_solved,configs_pending,runs,correct,failed_"
      "jobs,"
      "fast_0,fast_1,fast_1.5,fast_2,geomean_speedup,tuned_runs,fast_1_tuned,fast_1.5_tuned,fast_2_tuned,"
      "geomean_tuned_speedup,mean_first_valid_iteration,mean_first_pass_iteration,tokens_per_run,seconds_per_"
      "run,model_calls,evaluations,agent_seconds,role_tokens,geomean_compiler_speedup,cost_runs,unpriced_"
      "runs,"
      "cost_usd,cost_per_run_usd,cost_per_solved_usd\n";
  auto line = [&](const GroupMetrics& g, const char* scope) {
    auto opt = [](const std::optional<double>& v) { return v ? number(*v) : std::string(); };
    auto tuned = [&](size_t i) { return g.tuned_runs > 0 ? number(g.fast_p_tuned[i]) : std::string(); };
    out += fmt::format(
        "{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{"
        "},{},"
        "{}\n",
        csv_field(g.agent), g.platform, g.hw_config, scope, g.task,
        g.level == 0 ? "" : std::to_string(g.level), g.configs, g.configs_solved, g.configs_pending, g.runs,
        g.correct, g.failed_jobs, number(g.fast_p[0]), number(g.fast_p[1]), number(g.fast_p[2]),
        number(g.fast_p[3]), opt(g.geomean_speedup), g.tuned_runs, tuned(1), tuned(2), tuned(3),
        opt(g.geomean_tuned_speedup), opt(g.mean_first_valid), opt(g.mean_first_pass),
        number(g.tokens_per_run), number(g.seconds_per_run), g.model_calls, g.evaluations,
        number(g.agent_seconds), csv_field(nlohmann::json(g.role_tokens).dump()),
        opt(g.geomean_compiler_speedup), g.cost_runs, g.unpriced_runs, opt(g.cost_usd),
        opt(g.cost_per_run_usd), opt(g.cost_per_solved_usd));
  };
  for (const auto& g : m.per_task) line(g, "task");
  for (const auto& g : m.per_level) line(g, "level");
  for (const auto& g : m.totals) line(g, "total");
  write_file(file, out);
}

json report_json(const ReportData& d) {
  json j;
  j["metrics"] = d.metrics.to_json();
  j["porting"] = porting_json(d.metrics);
  j["uncertainty"] = d.uncertainty.to_json();
  j["cost"] = cost_json(d.metrics);
  j["curves"] = d.curves.to_json();
  j["runs"] = json::array();
  for (const auto& r : d.runs) j["runs"].push_back(r.to_json());
  j["hardware"] = json::array();
  for (const auto& h : d.hardware) {
    j["hardware"].push_back({{"id", h.id}, {"platform", h.platform}, {"name", h.name}, {"config", h.config}});
  }
  j["tuned_baselines"] = json::array();
  for (const auto& t : d.tuned_baselines) j["tuned_baselines"].push_back(t.to_json());
  j["sweeps"] = json::array();
  for (const auto& s : d.sweeps) {
    j["sweeps"].push_back({{"id", s.id},
                           {"started_at", s.started_at},
                           {"finished_at", s.finished_at},
                           {"status", s.status},
                           {"command", s.command},
                           {"kcraft_version", s.kcraft_version},
                           {"git_commit", s.git_commit},
                           {"host", s.host},
                           {"shard", s.shard},
                           {"jobs", s.jobs},
                           {"planned", s.planned},
                           {"completed", s.completed}});
  }
  return j;
}

std::string html_report(const ReportData& d) {
  json data = report_json(d);
  // The page stays small; the store and JSON keep kernels and trajectories (the page has the curves).
  for (auto& r : data["runs"]) {
    r.erase("kernel");
    r.erase("trajectory");
  }
  for (auto& t : data["tuned_baselines"]) t.erase("kernel");
  std::string text = data.dump();
  // Inside <script>, "</" could end the element early: JSON allows writing it as "<\/".
  std::string safe;
  safe.reserve(text.size());
  for (size_t i = 0; i < text.size(); ++i) {
    safe += text[i];
    if (text[i] == '<' && i + 1 < text.size() && text[i + 1] == '/') safe += '\\';
  }
  std::string page = kReportTemplate;
  const std::string marker = "/*KCRAFT_REPORT_DATA*/null";
  const auto at = page.find(marker);
  if (at == std::string::npos) throw std::logic_error("the report template has no data marker");
  page.replace(at, marker.size(), safe);
  return page;
}

}  // namespace kcraft::bench
