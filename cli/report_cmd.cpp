#include "cli/report_cmd.h"

#include <fmt/format.h>

#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <optional>
#include <regex>

#include "agent/bench/report.h"
#include "agent/bench/store.h"
#include "agent/providers/prices.h"
#include "isa/common/hw_config.h"

namespace kcraft::cli {

namespace {

struct ReportArgs {
  std::string db = "results/kcraft.db";
  std::vector<std::string> merge;
  std::string html, csv, metrics_csv, png;
  std::string prices;  // a price table by model name (agent/providers/prices.h)
  std::string png_chart = "heatmap";
};

std::string shell_quote(const std::string& s) {
  std::string q = "'";
  for (char c : s) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return q + "'";
}

// Runs a shell command; its standard output, or nullopt when it failed.
std::optional<std::string> command_output(const std::string& command) {
  FILE* pipe = ::popen((command + " 2>/dev/null").c_str(), "r");
  if (pipe == nullptr) return std::nullopt;
  std::string out;
  char buf[4096];
  for (size_t n; (n = std::fread(buf, 1, sizeof buf, pipe)) > 0;) out.append(buf, n);
  const int status = ::pclose(pipe);
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) return std::nullopt;
  return out;
}

// The HTML report's chart `chart` as a PNG of its natural size, drawn by the report itself in headless
// Chromium: once to measure it (the page shows only that chart and writes its size), once to take the
// picture (tests/bench: bench.BenchE2E.ReportDrawsItsChartAsAPng).
void write_chart_png(const std::string& html, const std::string& chart, const std::filesystem::path& png) {
  namespace fs = std::filesystem;
  std::string chromium;
  for (const char* candidate : {"/usr/bin/chromium", "/usr/bin/chromium-browser"}) {
    if (fs::exists(candidate)) chromium = candidate;
  }
  if (chromium.empty()) throw UsageError("--png draws the chart in Chromium: apt-get install chromium");
  const fs::path dir = fs::temp_directory_path() / fmt::format("kcraft-report-png-{}", ::getpid());
  fs::remove_all(dir);
  fs::create_directories(dir);
  std::ofstream(dir / "report.html", std::ios::binary) << html;
  const std::string url = "file://" + (dir / "report.html").string() + "#only=" + chart;
  const std::string browser =
      "timeout 120 " + shell_quote(chromium) +
      " --headless --no-sandbox --disable-gpu --disable-background-networking --disable-component-update"
      " --disable-sync --no-first-run --hide-scrollbars --user-data-dir=" +
      shell_quote((dir / "profile").string());
  const auto dom = command_output(browser + " --window-size=2400,4000 --dump-dom " + shell_quote(url));
  std::smatch m;
  static const std::regex size_re(R"re(data-only-size="(\d+),(\d+)")re");
  static const std::regex error_re(R"re(data-render-error="([^"]*)")re");
  if (!dom || !std::regex_search(*dom, m, size_re)) {
    std::smatch e;
    const std::string why =
        dom && std::regex_search(*dom, e, error_re) ? e[1].str() : "Chromium drew nothing";
    fs::remove_all(dir);
    throw UsageError("--png: " + why + " (charts: heatmap, speedup, tuned-speedup, utilization)");
  }
  const fs::path out = fs::absolute(png);
  if (out.has_parent_path()) fs::create_directories(out.parent_path());
  fs::remove(out);
  const auto shot = command_output(browser + " --window-size=" + m[1].str() + "," + m[2].str() +
                                   " --screenshot=" + shell_quote(out.string()) + " " + shell_quote(url));
  fs::remove_all(dir);
  if (!shot || !fs::exists(out)) throw UsageError("--png: Chromium wrote no picture to " + out.string());
}

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
  agent::PriceTable prices;
  if (!a.prices.empty()) {
    try {
      prices = agent::load_price_table(a.prices);
    } catch (const ConfigError& e) {
      throw UsageError(std::string("--prices: ") + e.what());
    }
  }
  const auto data = bench::load_report_data(store, prices);
  if (!a.csv.empty()) bench::write_runs_csv(data.runs, a.csv);
  if (!a.metrics_csv.empty()) bench::write_metrics_csv(data.metrics, a.metrics_csv);
  if (!a.html.empty()) {
    std::filesystem::path file = a.html;
    if (file.has_parent_path()) std::filesystem::create_directories(file.parent_path());
    std::ofstream out(file, std::ios::binary);
    out << bench::html_report(data);
    if (!out) throw UsageError("cannot write " + a.html);
  }
  if (!a.png.empty()) write_chart_png(bench::html_report(data), a.png_chart, a.png);
  if (g.json) {
    std::cout << bench::report_json(data).dump(2) << "\n";
    return kExitOk;
  }
  if (data.runs.empty() && data.plan.empty()) {
    std::cout << a.db << ": no runs stored yet\n";
    return kExitOk;
  }
  std::cout << bench::success_table(data.metrics) << bench::speedup_table(data.metrics)
            << bench::cycles_table(data.metrics) << bench::compiler_table(data.metrics) << "\n"
            << bench::summary_table(data.metrics) << "\n"
            << bench::agents_table(data.metrics) << bench::cost_table(data.metrics)
            << bench::uncertainty_table(data.uncertainty) << bench::curves_table(data.curves)
            << bench::porting_table(data.metrics)
            << bench::phases_table(data.runs);
  for (const auto* f : {&a.csv, &a.metrics_csv, &a.html, &a.png}) {
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
  cmd->add_option("--png", a.png,
                  "draw one chart of the HTML report as a PNG, in headless Chromium (e.g. for a README)");
  cmd->add_option("--png-chart", a.png_chart,
                  "the chart --png draws: heatmap, speedup, tuned-speedup, utilization")
      ->capture_default_str();
  cmd->add_option("--prices", a.prices,
                  "price the runs by model from this YAML table (model: {prompt, cached_prompt, completion, "
                  "reasoning}, USD per million tokens); it wins over the prices stored with the runs");
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
