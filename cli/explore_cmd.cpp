#include "cli/explore_cmd.h"

#include <fstream>
#include <iostream>
#include <thread>

#include "agent/bench/explore.h"
#include "agent/bench/store.h"
#include "tb/common/evaluation.h"
#include "tb/common/paths.h"
#include "tb/common/platform.h"

namespace kcraft::cli {

namespace {

struct ExploreArgs {
  std::string platform, base = "default", results, csv, html, progress = "auto";
  std::vector<std::string> sets, tasks, configs{"C1"}, agents{"baseline"};
  unsigned jobs = std::max(1u, std::thread::hardware_concurrency());
  double job_timeout = 3600;
  bool no_synth = false;
};

bench::Progress::Mode progress_mode(const std::string& text) {
  if (text == "auto") return bench::Progress::Mode::kAuto;
  if (text == "line") return bench::Progress::Mode::kLine;
  if (text == "plain") return bench::Progress::Mode::kPlain;
  if (text == "none") return bench::Progress::Mode::kQuiet;
  throw UsageError("--progress expects auto, line, plain or none, got '" + text + "'");
}

int run_explore(const GlobalOptions& g, const ExploreArgs& a) {
  // Only the name: the platform itself is made after the exploration's data root is in place.
  const auto names = platform_names();
  if (std::find(names.begin(), names.end(), a.platform) == names.end())
    throw UsageError("unknown platform '" + a.platform + "' (available: " + platform_list_text() + ")");
  if (a.jobs == 0) throw UsageError("--jobs must be at least 1");
  bench::ExploreOptions o;
  o.platform = a.platform;
  o.base = a.base;
  o.tasks = a.tasks;
  o.configs = a.configs;
  o.agents = a.agents;
  o.results = a.results.empty() ? "results/explore-" + a.platform + ".db" : a.results;
  o.jobs = a.jobs;
  o.job_timeout_seconds = a.job_timeout;
  o.synthesis = !a.no_synth;
  o.progress = progress_mode(a.progress);
  std::ifstream cmdline("/proc/self/cmdline", std::ios::binary);
  for (std::string part; std::getline(cmdline, part, '\0');)
    o.command_line += (o.command_line.empty() ? "" : " ") + part;
  const auto registry = tasks::TaskRegistry::load_directory(task_spec_dir());
  bench::Exploration e;
  try {
    for (const auto& s : a.sets) o.sets.push_back(bench::parse_parameter_values(s));
    e = bench::run_exploration(o, registry, std::cerr);
  } catch (const bench::ExploreError& err) {
    throw UsageError(err.what());
  } catch (const bench::StoreError& err) {
    throw UsageError(err.what());
  } catch (const bench::VariantBuildError& err) {
    std::cerr << "kcraft: " << err.what() << "\n";
    return kExitFail;
  }
  if (!a.csv.empty()) bench::write_exploration_csv(e, a.csv);
  if (!a.html.empty()) {
    std::ofstream out(a.html, std::ios::binary);
    if (!out) throw UsageError("cannot write " + a.html);
    out << bench::exploration_html(e);
  }
  if (g.json) {
    std::cout << bench::exploration_json(e).dump(2) << "\n";
  } else {
    std::cout << bench::exploration_text(e);
    if (!a.csv.empty()) std::cout << "wrote " << a.csv << "\n";
    if (!a.html.empty()) std::cout << "wrote " << a.html << "\n";
  }
  if (e.interrupted) return 130;
  for (const auto& v : e.variants) {
    for (const auto& r : v.runs) {
      if (r.verdict == verdict_name(Verdict::kHardwareBug)) return kExitHardwareBug;
    }
  }
  return kExitOk;
}

}  // namespace

void register_explore_command(CLI::App& app, GlobalOptions& g, std::function<int()>& run) {
  static ExploreArgs a;
  auto* cmd = app.add_subcommand(
      "explore",
      "design-space exploration: hardware variants of a platform (build and runtime parameters replaced), "
      "each built on demand and cached, run by an agent over tasks; cycles, utilisation, yosys cells, "
      "Pareto front (docs/explore.md)");
  add_platform_argument(cmd, a.platform, "the platform whose parameters vary (default: $KCRAFT_PLATFORM)");
  cmd->add_option("--set", a.sets,
                  "NAME=v1,v2,...: a build: or runtime: parameter of the base configuration and its values "
                  "(NAME1,NAME2=... ties parameters to one value; repeat for more; variants are every "
                  "combination)")
      ->required()
      ->allow_extra_args(false);  // one value per --set, so that a platform after it stays the platform
  cmd->add_option("--base", a.base, "the configuration the variants start from")->capture_default_str();
  cmd->add_option("--tasks", a.tasks, "tasks (default: all)")->delimiter(',');
  cmd->add_option("--configs", a.configs, "task configurations")->delimiter(',')->capture_default_str();
  cmd->add_option("--agents,--agent", a.agents, "agents, as kcraft bench --agents (baseline, tuner, ...)")
      ->delimiter(',')
      ->capture_default_str();
  cmd->add_option("--jobs,-j", a.jobs, "worker processes (and parallel compiles of a variant build)")
      ->capture_default_str();
  cmd->add_option("--results", a.results,
                  "the exploration's results database (default: results/explore-PLATFORM.db; runs of "
                  "variants already there are not run again)");
  cmd->add_flag("--no-synth", a.no_synth, "skip the yosys size estimate (and so the Pareto front)");
  cmd->add_option("--csv", a.csv, "write one CSV row per variant and task configuration");
  cmd->add_option("--html", a.html, "write a page with the table and a cycles-versus-size chart");
  cmd->add_option("--job-timeout", a.job_timeout, "seconds one run may take before its worker is killed")
      ->capture_default_str();
  cmd->add_option("--progress", a.progress, "auto, line, plain, none")->capture_default_str();
  cmd->callback([&] { run = [&] { return run_explore(g, a); }; });
}

}  // namespace kcraft::cli
