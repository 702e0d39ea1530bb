#include "cli/compare_cmd.h"

#include <iostream>

#include "agent/bench/compare.h"
#include "agent/bench/store.h"

namespace kcraft::cli {

namespace {

struct CompareArgs {
  std::string old_file, new_file, csv;
  bench::CompareOptions options;
  bool all = false;
};

int run_compare(const GlobalOptions& g, const CompareArgs& a) {
  std::vector<bench::RunRecord> old_runs, new_runs;
  try {
    old_runs = bench::load_runs_for_compare(a.old_file);
    new_runs = bench::load_runs_for_compare(a.new_file);
  } catch (const std::runtime_error& e) {
    throw UsageError(e.what());  // a file that cannot be read is the user's to fix (exit 2)
  }
  const auto result = bench::compare_runs(old_runs, new_runs, a.options);
  if (!a.csv.empty()) bench::write_compare_csv(result, a.csv);
  if (g.json) {
    std::cout << bench::compare_json(result, a.options).dump(2) << "\n";
  } else {
    std::cout << bench::compare_text(result, a.options, a.all);
    if (!a.csv.empty()) std::cout << "wrote " << a.csv << "\n";
  }
  return result.regressed ? kExitFail : kExitOk;
}

}  // namespace

void register_compare_command(CLI::App& app, GlobalOptions& g, std::function<int()>& run) {
  static CompareArgs a;
  auto* cmd = app.add_subcommand(
      "compare",
      "regressions between two results (databases or `kcraft --json report` files): cycles and verdict per "
      "run "
      "before and after; exit status 1 when a run got slower than the threshold or stopped being correct");
  cmd->add_option("old", a.old_file, "the results before (e.g. the last release's database)")->required();
  cmd->add_option("new", a.new_file, "the results after (e.g. this RTL change's database)")->required();
  cmd->add_option("--threshold", a.options.threshold_pct,
                  "percent: a correct run is slower (faster) when its cycles grew (shrank) by more")
      ->capture_default_str()
      ->check(CLI::NonNegativeNumber);
  cmd->add_flag("--fail-on-missing", a.options.missing_is_regression,
                "runs of OLD missing from NEW count as regressions");
  cmd->add_flag("--all", a.all, "list every run, not only the changed ones");
  cmd->add_option("--csv", a.csv, "write one CSV row per run");
  cmd->callback([&] {
    run = [&] {
      try {
        return run_compare(g, a);
      } catch (const bench::StoreError& e) {
        throw UsageError(e.what());
      }
    };
  });
}

}  // namespace kcraft::cli
