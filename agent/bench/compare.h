// Regression tracking (`kcraft compare OLD NEW`): two sets of results — results stores or `kcraft report
// --json` files — matched run by run (platform, hardware configuration, task, configuration, agent,
// attempt), with each run's cycles and verdict before and after. A run regressed when it was correct
// before and is not now, or when it is correct in both and got slower by more than the threshold; the
// command's exit status says whether any did, so a CI job can run it after an RTL change
// (docs/regressions.md).
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "agent/bench/run_record.h"

namespace kcraft::bench {

// The runs of a results store (*.db, SQLite) or of a `kcraft report --json` file (any other name whose
// content is JSON with a "runs" array). Throws std::runtime_error naming the file when it is neither.
std::vector<RunRecord> load_runs_for_compare(const std::filesystem::path& file);
// The runs of a report's JSON text; throws std::runtime_error starting with `source` when it is not one.
std::vector<RunRecord> runs_from_report_json(const std::string& text, const std::string& source);

enum class Change {
  kSlower,   // correct before and after, more cycles than the threshold allows: a regression
  kBroken,   // correct before, not correct now: a regression
  kFaster,   // correct before and after, fewer cycles beyond the threshold
  kFixed,    // not correct before, correct now
  kSame,     // correct in both within the threshold, or incorrect in both
  kOnlyOld,  // the run is missing from NEW
  kOnlyNew,  // the run is new in NEW
};
const char* change_name(Change c);

struct ComparedRun {
  RunKey key;
  std::optional<RunRecord> old_run, new_run;
  Change change = Change::kSame;
  double cycles_change_pct = 0;   // (new - old) / old * 100, for runs correct in both
  bool hardware_changed = false;  // the hardware configuration's description differs
  bool kernel_changed = false;    // the submitted kernel differs (an agent's new kernel, not the RTL)
};

struct CompareOptions {
  double threshold_pct = 2.0;  // a correct run is slower (faster) when its cycles grew (shrank) by more
  bool missing_is_regression = false;  // runs of OLD missing from NEW count as regressions
};

struct CompareResult {
  std::vector<ComparedRun> runs;  // every key of either side, in key order
  size_t slower = 0, broken = 0, faster = 0, fixed = 0, same = 0, only_old = 0, only_new = 0;
  bool regressed = false;      // a run got slower or broke (or went missing, with missing_is_regression)
  double geomean_ratio = 1;    // geometric mean of new/old cycles over runs correct in both (1: none)
  size_t compared_cycles = 0;  // how many runs that mean is over
};

CompareResult compare_runs(const std::vector<RunRecord>& old_runs, const std::vector<RunRecord>& new_runs,
                           const CompareOptions& options);

// The summary line ("3 runs got slower than 2%: ...; 1 broke: ...") and the table of changed runs
// (every run with `all`).
std::string compare_text(const CompareResult& result, const CompareOptions& options, bool all);
nlohmann::json compare_json(const CompareResult& result, const CompareOptions& options);
void write_compare_csv(const CompareResult& result, const std::filesystem::path& file);

}  // namespace kcraft::bench
