#include "cli/codesign_cmd.h"

#include <fstream>
#include <iostream>
#include <sstream>

#include "agent/bench/codesign.h"
#include "agent/bench/codesign_run.h"
#include "agent/bench/store.h"
#include "tb/common/paths.h"
#include "tb/common/platform.h"

namespace kcraft::cli {

namespace {

struct CodesignArgs {
  std::string platform, hw = "default", workload, db = "results/kcraft.db", html, explore;
  bool synth = false;
  std::vector<std::string> tasks, configs{"C1"};
  uint64_t seed = 1;
  size_t top = 15;
};

void write_file(const std::string& path, const std::string& text) {
  std::ofstream out(path, std::ios::binary);
  if (!out || !(out << text)) throw UsageError("cannot write " + path);
}

int run_codesign(const GlobalOptions& g, const CodesignArgs& a, bool propose) {
  require_platform(a.platform);
  const auto registry = tasks::TaskRegistry::load_directory(task_spec_dir());
  bench::codesign::RunOptions o;
  o.platform = a.platform;
  o.hw = a.hw;
  o.db = a.db;
  o.seed = a.seed;
  if (!a.workload.empty() && !a.tasks.empty()) throw UsageError("give --workload or --tasks, not both");
  if (!a.workload.empty()) {
    std::ifstream in(a.workload, std::ios::binary);
    if (!in) throw UsageError("cannot read the workload file " + a.workload);
    std::stringstream text;
    text << in.rdbuf();
    o.workload = bench::codesign::parse_workload(text.str(), a.workload, a.configs);
  } else if (!a.tasks.empty()) {
    for (const auto& t : a.tasks) {
      for (const auto& c : a.configs) o.workload.push_back({t, c, 1.0});
    }
  } else {
    o.workload = bench::codesign::default_workload(registry, a.configs);
  }
  bench::codesign::WeightedProfile profile;
  try {
    profile = bench::codesign::run_workload(o, registry, std::cerr);
  } catch (const bench::StoreError& e) {
    throw UsageError(e.what());
  }
  if (profile.runs.empty()) {
    for (const auto& s : profile.skipped) std::cerr << "kcraft: skipped " << s << "\n";
    std::cerr << "kcraft: no item of the workload has a passing kernel\n";
    return kExitFail;
  }
  std::vector<bench::codesign::Candidate> candidates;
  if (propose) {
    candidates = bench::codesign::propose(profile);
    bench::codesign::fill_cells_added(profile, candidates, a.synth, &std::cerr);
  }
  if (!a.html.empty())
    write_file(a.html, bench::codesign::codesign_html(profile, propose ? &candidates : nullptr));
  if (propose && !a.explore.empty())
    write_file(a.explore, bench::codesign::explore_script(profile, candidates));
  if (g.json) {
    nlohmann::json out = bench::codesign::profile_json(profile);
    if (propose)
      out = {{"profile", out}, {"proposals", bench::codesign::candidates_json(profile, candidates)}};
    std::cout << out.dump(2) << "\n";
  } else {
    std::cout << (propose ? bench::codesign::candidates_text(profile, candidates)
                          : bench::codesign::profile_text(profile, a.top));
    if (!a.html.empty()) std::cout << "wrote " << a.html << "\n";
    if (propose && !a.explore.empty()) std::cout << "wrote " << a.explore << "\n";
  }
  return kExitOk;
}

void add_common(CLI::App* cmd, CodesignArgs& a) {
  add_platform_argument(cmd, a.platform);
  cmd->add_option("--hw", a.hw, "hardware configuration")->capture_default_str();
  cmd->add_option("--workload", a.workload,
                  "YAML file: task (or task@C2) -> weight (default: the level-3 tasks, weight 1 each)");
  cmd->add_option("--tasks", a.tasks, "tasks, weight 1 each, instead of a workload file")->delimiter(',');
  cmd->add_option("--configs", a.configs, "configurations of the tasks named without @")
      ->delimiter(',')
      ->capture_default_str();
  cmd->add_option(
         "--db", a.db,
         "results store whose best passing kernels run (library, tuned baselines); else the baseline")
      ->capture_default_str();
  cmd->add_option("--seed", a.seed, "input seed of the runs")->capture_default_str();
  cmd->add_option("--html", a.html, "write an HTML page");
}

}  // namespace

void register_codesign_command(CLI::App& app, GlobalOptions& g, std::function<int()>& run) {
  static CodesignArgs profile_args, propose_args;
  auto* cmd =
      app.add_subcommand("codesign",
                         "ISA co-design: profile a workload's best kernels per instruction, unit and stall "
                         "cause, and propose fusions, parameter changes and unused instructions "
                         "(docs/codesign.md)");
  cmd->require_subcommand(1);
  auto* profile = cmd->add_subcommand(
      "profile",
      "every cycle of the workload charged once to an instruction and a stall cause; per instruction, "
      "unit, cause and task");
  add_common(profile, profile_args);
  profile->add_option("--top", profile_args.top, "rows per table")->capture_default_str();
  profile->callback([&] { run = [&] { return run_codesign(g, profile_args, false); }; });
  auto* propose = cmd->add_subcommand(
      "propose",
      "ranked candidates with evidence: fused instructions, binding parameters (as kcraft explore "
      "command lines), unused instructions");
  add_common(propose, propose_args);
  propose->add_flag("--synth", propose_args.synth,
                    "synthesize (yosys, minutes each) the parameter candidates' variants the cache lacks, so "
                    "every one has its cells added");
  propose->add_option("--explore", propose_args.explore,
                      "write the parameter candidates' kcraft explore command lines to this file");
  propose->callback([&] { run = [&] { return run_codesign(g, propose_args, true); }; });
}

}  // namespace kcraft::cli
