// The results store: one SQLite database (WAL mode) holding every run of every sweep written into it.
//
// Tables (docs/bench.md has the full schema):
//   meta(key, value)          schema_version
//   sweeps(id, ...)           one row per `kcraft bench` invocation: command, versions, shard, status
//   hardware(id, ...)         hardware configurations as JSON, keyed by a hash of the JSON
//   plan(run key, level)      every run a sweep selected (so reports know what is still pending)
//   unsupported(...)          (target, task, configuration) cells the platform cannot run
//   runs(run key, results...) one row per finished run; the key is the primary key
//   tuned_baselines(...)      the autotuned baseline per cell, commit and search space
//                             (tuned_baseline_record.h)
//   kernels, kernels_fts      the kernel library: every passing kernel, full-text indexed
//                             (agent/library/kernel_table.h)
//
// Version 1, 2 and 3 stores (before tuned baselines, before the kernel library, before per-role usage) are
// upgraded in place when opened (a version-2 store's passing runs fill the library); newer ones are
// refused.
//
// A run's row is written in one transaction when the run finishes, so a sweep killed at any moment
// leaves only whole rows, and a key is never stored twice. Only the sweep's parent process writes.
#pragma once

#include <filesystem>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "agent/bench/run_record.h"
#include "agent/bench/tuned_baseline_record.h"
#include "agent/library/kernel_table.h"

struct sqlite3;

namespace kcraft::bench {

inline constexpr int kSchemaVersion = 7;

struct SweepInfo {
  std::string id;  // unique: host, pid and start time
  std::string started_at, finished_at;
  std::string status;  // running | completed | interrupted
  std::string command;
  std::string kcraft_version, git_commit, host;
  std::string shard;
  unsigned jobs = 1;
  size_t planned = 0, completed = 0;
};

struct MergeStats {
  size_t runs_added = 0;
  size_t runs_already_present = 0;  // same key in both: the existing row is kept
  size_t runs_conflicting = 0;      // of those, how many had a different verdict or cycle count
};

class StoreError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

class ResultStore {
 public:
  // Opens (creating if needed) the database; throws StoreError naming the file.
  explicit ResultStore(const std::filesystem::path& file);
  ~ResultStore();
  ResultStore(const ResultStore&) = delete;
  ResultStore& operator=(const ResultStore&) = delete;

  const std::filesystem::path& file() const { return file_; }

  void begin_sweep(const SweepInfo& sweep);
  void end_sweep(const std::string& id, const std::string& status, size_t completed);
  std::vector<SweepInfo> sweeps() const;

  // Records what a sweep selected (idempotent).
  void add_plan(const std::vector<PlannedRun>& runs, const std::vector<UnsupportedCell>& unsupported,
                const std::vector<HardwareRecord>& hardware);

  // Inserts one finished run in its own transaction, and a passing run's kernel into the kernel library
  // in the same transaction. Returns false (and changes nothing) when the key
  // is already stored.
  bool insert_run(const RunRecord& run);
  // Deletes the rows of these keys whose status is "error" (for --retry-errors); returns how many.
  size_t delete_failed_jobs(const std::vector<RunKey>& keys);
  // Deletes the rows of these keys whatever their status (for --rerun); returns how many.
  size_t delete_runs(const std::vector<RunKey>& keys);
  // Deletes the rows of these keys with this status (e.g. porting runs that had no kernel to port).
  size_t delete_runs_with_status(const std::vector<RunKey>& keys, const std::string& status);

  std::set<RunKey> finished_keys() const;
  std::vector<RunRecord> runs() const;  // ordered by key
  std::vector<PlannedRun> plan() const;
  std::vector<UnsupportedCell> unsupported() const;
  std::vector<HardwareRecord> hardware() const;
  // The kernel library's rows, in insertion order (search them with library::search, agent/library/library.h,
  // or find_examples).
  std::vector<library::KernelEntry> kernels() const;

  // The tuned baseline stored under exactly this key, if any.
  std::optional<TunedBaseline> tuned_baseline(const TunedBaselineKey& key) const;
  std::vector<TunedBaseline> tuned_baselines() const;
  // Stores a tuned baseline (the first one stored for a key stays) and, in the same transaction, fills
  // the tuned columns of the cell's runs by the same git commit and hardware that have none yet.
  // Returns how many runs it filled.
  size_t put_tuned_baseline(const TunedBaseline& tuned);

  // Copies another store's sweeps, hardware, plan, unsupported cells, runs and tuned baselines into this
  // one (a version-1 store's runs keep no tuned baseline).
  MergeStats merge_from(const std::filesystem::path& other);

  // The schema version the file had before this process upgraded it (0: it was not upgraded).
  int migrated_from() const { return migrated_from_; }

 private:
  void exec(const std::string& sql) const;
  size_t delete_keys(const std::vector<RunKey>& keys, const std::string& only_status);  // "": any
  void add_to_library(const RunRecord& run, const std::string& language);
  void fill_library_from_runs();
  std::filesystem::path file_;
  sqlite3* db_ = nullptr;
  int migrated_from_ = 0;
};

}  // namespace kcraft::bench
