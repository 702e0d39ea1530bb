#include "cli/report_cmd.h"

#include <fmt/format.h>

#include <filesystem>
#include <fstream>
#include <iostream>

#include "agent/bench/report.h"
#include "agent/bench/store.h"

namespace kcraft::cli {

namespace {

struct ReportArgs {
  std::string db = "results/kcraft.db";
  std::vector<std::string> merge;
  std::string html, csv, metrics_csv;
};

int run_report(const GlobalOptions& g, const ReportArgs& a) {
  if (a.merge.empty() && !std::filesystem::is_regular_file(a.db)) {
    throw UsageError("no results database " + a.db + " (run `kcraft bench` first, or give --db)");
  }
  for (const auto& m : a.merge) {
    if (!std::filesystem::is_regular_file(m)) throw UsageError("--merge: no results database " + m);
  }
  bench::ResultStore store(a.db);
  if (store.migrated_from() != 0) {
    std::cerr << fmt::format("upgraded {} from results schema version {} to {}\n", a.db,
                             store.migrated_from(), bench::kSchemaVersion);
  }
  for (const auto& m : a.merge) {
    const auto stats = store.merge_from(m);
    std::cerr << fmt::format("merged {}: {} runs added, {} already present", m, stats.runs_added,
                             stats.runs_already_present);
    if (stats.runs_conflicting > 0) {
      std::cerr << fmt::format(" ({} of them with a different result: the rows already in {} are kept)",
                               stats.runs_conflicting, a.db);
    }
    std::cerr << "\n";
  }
  const auto data = bench::load_report_data(store);
  if (!a.csv.empty()) bench::write_runs_csv(data.runs, a.csv);
  if (!a.metrics_csv.empty()) bench::write_metrics_csv(data.metrics, a.metrics_csv);
  if (!a.html.empty()) {
    std::filesystem::path file = a.html;
    if (file.has_parent_path()) std::filesystem::create_directories(file.parent_path());
    std::ofstream out(file, std::ios::binary);
    out << bench::html_report(data);
    if (!out) throw UsageError("cannot write " + a.html);
  }
  if (g.json) {
    std::cout << bench::report_json(data).dump(2) << "\n";
    return kExitOk;
  }
  if (data.runs.empty() && data.plan.empty()) {
    std::cout << a.db << ": no runs stored yet\n";
    return kExitOk;
  }
  std::cout << bench::success_table(data.metrics) << bench::speedup_table(data.metrics)
            << bench::cycles_table(data.metrics) << "\n"
            << bench::summary_table(data.metrics) << "\n"
            << bench::agents_table(data.metrics) << bench::porting_table(data.metrics)
            << bench::phases_table(data.runs);
  for (const auto* f : {&a.csv, &a.metrics_csv, &a.html}) {
    if (!f->empty()) std::cout << "wrote " << *f << "\n";
  }
  return kExitOk;
}

}  // namespace

void register_report_command(CLI::App& app, GlobalOptions& g, std::function<int()>& run) {
  static ReportArgs a;
  auto* cmd = app.add_subcommand("report", "tables, CSV, JSON and an HTML page from a results database");
  cmd->add_option("--db", a.db, "results database (merged into when --merge is given)")
      ->capture_default_str();
  cmd->add_option("--merge", a.merge, "merge these results databases (e.g. shards) into --db first");
  cmd->add_option("--html", a.html, "write a self-contained HTML report with charts");
  cmd->add_option("--csv", a.csv, "write one CSV row per run");
  cmd->add_option("--metrics-csv", a.metrics_csv,
                  "write the metrics per (agent, target, task), level and total as CSV");
  cmd->callback([&] {
    run = [&] {
      try {
        return run_report(g, a);
      } catch (const bench::StoreError& e) {
        throw UsageError(e.what());  // a database that cannot be used is the user's to fix (exit 2)
      }
    };
  });
}

}  // namespace kcraft::cli
