#include "cli/sweep.h"

#include <fmt/format.h>

#include <chrono>
#include <iostream>
#include <map>

#include "tasks/systolic/template_compiler.h"
#include "tb/common/paths.h"
#include "tb/systolic/systolic_platform.h"

namespace kcraft::cli {

namespace {

struct SweepArgs {
  std::vector<std::string> platforms{"systolic"};
  std::vector<std::string> tasks;
  std::vector<std::string> configs;
  std::string hw = "default";
  uint64_t seed = 1;
};

struct Cell {
  std::string task, config;
  int level = 1;
  EvalReport report;
};

int run_sweep(const GlobalOptions& g, const SweepArgs& a) {
  for (const auto& p : a.platforms) {
    if (p != "systolic") throw UsageError("unknown platform '" + p + "' (available: systolic)");
  }
  auto registry = tasks::TaskRegistry::load_directory(task_spec_dir());
  systolic::SystolicPlatform platform;
  const auto params = platform.params(a.hw);
  systolic::TemplateCompiler compiler(params);
  std::vector<std::string> task_names = a.tasks;
  if (task_names.empty()) {
    for (const auto& t : registry.tasks()) {
      if (systolic::TemplateCompiler::supports(t.name)) task_names.push_back(t.name);
    }
  }
  std::vector<std::string> configs = a.configs.empty() ? tasks::standard_config_names() : a.configs;

  std::vector<Cell> cells;
  const auto t0 = std::chrono::steady_clock::now();
  for (const auto& name : task_names) {
    const auto& spec = registry.get(name);
    for (const auto& config : configs) {
      Cell cell{name, config, spec.level, {}};
      auto cfg = spec.resolve(config, systolic::SystolicPlatform::kDType);
      if (auto why = platform.unsupported_reason(cfg, a.hw); !why.empty() || !compiler.unsupported_reason(cfg).empty()) {
        cell.report.verdict = Verdict::kInputError;
        cell.report.headline = why.empty() ? compiler.unsupported_reason(cfg) : why;
      } else {
        EvalRequest req;
        req.hw_config = a.hw;
        req.task = name;
        req.config = config;
        req.seed = a.seed;
        req.source = compiler.generate(cfg, platform.layout(cfg)).source;
        req.filename = fmt::format("{}_{}.s", name, config);
        cell.report = platform.evaluate(req, registry);
      }
      if (!g.json) {
        std::cerr << fmt::format("  {:<10} {}  {:<13} {}\n", name, config, verdict_name(cell.report.verdict),
                                 cell.report.headline);
      }
      cells.push_back(std::move(cell));
    }
  }
  const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();

  if (g.json) {
    nlohmann::json out = nlohmann::json::array();
    for (const auto& c : cells) {
      nlohmann::json j = c.report.to_json();
      j["agent"] = "baseline";
      j.erase("trace");
      out.push_back(j);
    }
    std::cout << out.dump(2) << "\n";
  } else {
    std::cout << fmt::format("\nsystolic/{}  agent: baseline (template compiler)  seed {}  {:.1f} s\n", a.hw, a.seed,
                             wall);
    std::string head = fmt::format("{:<10} {:>2} ", "task", "L");
    for (const auto& c : configs) head += fmt::format("| {:<18}", c);
    head += "| solved";
    std::cout << head << "\n" << std::string(head.size(), '-') << "\n";
    std::map<int, std::pair<int, int>> per_level;
    int solved_all = 0, total_all = 0;
    for (const auto& name : task_names) {
      const int level = registry.get(name).level;
      std::string line = fmt::format("{:<10} {:>2} ", name, level);
      int solved = 0;
      for (const auto& c : configs) {
        const Cell* cell = nullptr;
        for (const auto& x : cells) {
          if (x.task == name && x.config == c) cell = &x;
        }
        std::string text;
        if (cell->report.verdict == Verdict::kPass) {
          ++solved;
          text = fmt::format("{} cyc {:.0f}%", cell->report.cycles, 100.0 * cell->report.utilization);
        } else if (cell->report.verdict == Verdict::kInputError) {
          text = "--";
        } else {
          text = std::string("FAIL ") + verdict_name(cell->report.verdict);
        }
        line += fmt::format("| {:<18}", text);
      }
      line += fmt::format("| {}/{}", solved, configs.size());
      std::cout << line << "\n";
      per_level[level].first += solved;
      per_level[level].second += static_cast<int>(configs.size());
      solved_all += solved;
      total_all += static_cast<int>(configs.size());
    }
    for (const auto& [level, counts] : per_level) {
      std::cout << fmt::format("L{} subtotal: {}/{}\n", level, counts.first, counts.second);
    }
    std::cout << fmt::format("total: {}/{} configurations pass; cells show cycles and utilisation of the ideal "
                             "(roofline) cycle count\n",
                             solved_all, total_all);
  }
  for (const auto& c : cells) {
    if (c.report.verdict == Verdict::kHardwareBug) return kExitHardwareBug;
  }
  for (const auto& c : cells) {
    if (c.report.verdict != Verdict::kPass && c.report.verdict != Verdict::kInputError) return kExitFail;
  }
  return kExitOk;
}

}  // namespace

void register_sweep_command(CLI::App& app, GlobalOptions& g, std::function<int()>& run) {
  static SweepArgs a;
  auto* bench = app.add_subcommand("bench", "run a sweep of kernels over tasks x configurations and print the table");
  bench->add_option("--platforms", a.platforms, "platforms")->delimiter(',')->capture_default_str();
  bench->add_option("--tasks", a.tasks, "tasks (default: every task with a baseline)")->delimiter(',');
  bench->add_option("--configs", a.configs, "configurations (default: C1..C5)")->delimiter(',');
  bench->add_option("--hw", a.hw, "hardware configuration")->capture_default_str();
  bench->add_option("--seed", a.seed, "input seed")->capture_default_str();
  bench->callback([&] { run = [&] { return run_sweep(g, a); }; });
}

}  // namespace kcraft::cli
