// Reports of stored runs: terminal tables, CSV, JSON and a self-contained HTML page with charts.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "agent/bench/curves.h"
#include "agent/bench/metrics.h"
#include "agent/bench/run_record.h"
#include "agent/bench/store.h"
#include "agent/bench/uncertainty.h"
#include "agent/providers/prices.h"

namespace kcraft::bench {

// Everything a report is made from.
struct ReportData {
  std::vector<RunRecord> runs;
  std::vector<PlannedRun> plan;
  std::vector<UnsupportedCell> unsupported;
  std::vector<HardwareRecord> hardware;
  std::vector<SweepInfo> sweeps;
  std::vector<TunedBaseline> tuned_baselines;
  Metrics metrics;
  Uncertainty uncertainty;  // pass@k and bootstrap intervals over the metrics' cells
  Curves curves;            // solved share and speedup against iterations and tokens (curves.h)
};
// The runs are priced (cost.h) at the prices stored with them, or at `prices` (by model name) where it has
// the model: `kcraft report --prices FILE`.
ReportData load_report_data(const ResultStore& store, const agent::PriceTable& prices = {});
// The same, restricted to the runs of one plan (what `kcraft bench` prints after its sweep).
ReportData report_data_for(const ResultStore& store, const std::vector<PlannedRun>& plan,
                           const agent::PriceTable& prices = {});

// The KernelCraft table: tasks by level, one column per (agent, target), cells "solved/configs",
// level subtotals and the total.
std::string success_table(const Metrics& m);
// Per (agent, target): best speedup per configuration over the baseline and over the tuned baseline,
// plus utilisation of the ideal.
std::string speedup_table(const Metrics& m);
// Per (agent, target): runs, correct, job errors, fast_p, geometric-mean speedup (both also against the
// tuned baseline), iterations, tokens.
std::string summary_table(const Metrics& m);
// The agents side by side, one row per (agent, target): solved configurations, geometric-mean speedup,
// fast_1, model calls, tokens per role, evaluations and wall time (totals over the runs).
std::string agents_table(const Metrics& m);
// Per (agent, target): pass@1, pass@k, solved share, fast_1 and the geometric-mean speedup, each with
// its 95 % bootstrap interval over cells; then every pair of agents on a target, paired over the cells
// both ran, a difference whose interval excludes zero marked "*". With `only_if_informative`, empty
// unless some cell has several attempts or some target several agents (a single deterministic agent
// has nothing to compare).
std::string uncertainty_table(const Uncertainty& u, bool only_if_informative = false);
// What the model calls cost, one row per (agent, target) of an LLM agent: total, per run, per solved
// configuration and per workflow role (cost.h); "unknown" naming the models without prices. Empty when
// no LLM agent ran.
std::string cost_table(const Metrics& m);
nlohmann::json cost_json(const Metrics& m);
// "Does a kernel for one ISA help on another": each porting agent (port:P:...) next to the same workflow
// and settings without porting, per target, over the configurations both were planned on. Empty when the
// metrics have no porting agent.
std::string porting_table(const Metrics& m);
// "Where the cycles go": one line per correct run of a task with phases (RunRecord::phases), each phase's
// share of its cycles. Empty when no run has phases.
std::string phases_table(const std::vector<RunRecord>& runs);
nlohmann::json porting_json(const Metrics& m);

// Per (agent, target): task x configuration, cycles of the fastest correct kernel, the baseline's and the
// tuned baseline's.
std::string cycles_table(const Metrics& m);
// Per (agent, target) with a compiler baseline (tasks::BaselineCompiler::compiler_baseline: the platform's
// compiler's build of the plain reference): task x configuration, the best speedup over it and its
// cycles, per-task and per-level geometric means, the lowest per configuration. Empty without one.
std::string compiler_table(const Metrics& m);

// A CSV field, quoted when it needs to be (RFC 4180).
std::string csv_field(const std::string& s);

// One row per run, every stored column.
void write_runs_csv(const std::vector<RunRecord>& runs, const std::filesystem::path& file);
// One row per (agent, target, task), level subtotal and total.
void write_metrics_csv(const Metrics& m, const std::filesystem::path& file);
nlohmann::json report_json(const ReportData& data);
// A self-contained page (inline CSS, data and script, no network): success heatmap, speedup bars per
// configuration, utilisation against the ideal, tables.
std::string html_report(const ReportData& data);

}  // namespace kcraft::bench
