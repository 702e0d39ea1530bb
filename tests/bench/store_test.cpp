// The results store: schema, whole rows, no duplicates, merging shard databases.
#include <gtest/gtest.h>
#include <sqlite3.h>

#include <fstream>
#include <map>
#include <set>

#include "agent/bench/run_columns.h"
#include "agent/bench/store.h"
#include "agent/library/library.h"
#include "tests/bench/test_util.h"

namespace kcraft::bench {
namespace {

using testing::make_run;

std::vector<std::string> tables(const std::filesystem::path& file) {
  sqlite3* db = nullptr;
  EXPECT_EQ(sqlite3_open(file.c_str(), &db), SQLITE_OK);
  std::vector<std::string> names;
  sqlite3_exec(
      db, "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name",
      [](void* out, int, char** values, char**) {
        static_cast<std::vector<std::string>*>(out)->push_back(values[0]);
        return 0;
      },
      &names, nullptr);
  sqlite3_close(db);
  return names;
}

std::string pragma(const std::filesystem::path& file, const std::string& sql) {
  sqlite3* db = nullptr;
  sqlite3_open(file.c_str(), &db);
  std::string value;
  sqlite3_exec(
      db, sql.c_str(),
      [](void* out, int, char** values, char**) {
        *static_cast<std::string*>(out) = values[0] ? values[0] : "";
        return 0;
      },
      &value, nullptr);
  sqlite3_close(db);
  return value;
}

RunRecord full_record() {
  auto r = make_run("llm:gpt", "small", "softmax", 1, "C3", 2, "pass", 1234, 2000);
  r.error = "stopped: token cap";
  r.status = "token_cap";
  r.seed_verdicts = {{{"seed", 17}, {"verdict", "pass"}, {"headline", "ok"}}};
  r.first_valid_iteration = 2;
  r.first_pass_iteration = 5;
  r.prompt_tokens = 1;
  r.completion_tokens = 2;
  r.reasoning_tokens = 3;
  r.cached_prompt_tokens = 4;
  r.agent_seconds = 1.5;
  r.job_seconds = 2.25;
  r.counters = {{"vector_busy", 77}};
  r.dev_seed = 9;
  r.kernel = "C_HALT\n";
  r.transcript = "/tmp/t.jsonl";
  r.kcraft_version = "0.1.0";
  r.git_commit = "abc";
  r.hardware_id = "0123456789abcdef";
  r.agent_settings = {{"model", "m"}};
  r.roles = {{"designer", {{"steps", 1}, {"calls", 2}, {"prompt_tokens", 30}, {"completion_tokens", 4}}}};
  r.sweep_id = "s1";
  r.host = "h";
  r.finished_at = "2025-01-01T00:00:00Z";
  r.worker_pid = 42;
  r.compiler_baseline_cycles = 9876;
  r.compiler_speedup = 9876.0 / 1234.0;
  r.phases = {{"unmarked_cycles", 34},
              {"phases",
               {{{"name", "norm"}, {"cycles", 200}, {"marks", 1}},
                {{"name", "attention"}, {"cycles", 1000}, {"marks", 2}}}}};
  r.trajectory = {{{"iteration", 1}, {"tokens", 3}, {"passed", false}, {"best_cycles", 0}},
                  {{"iteration", 2}, {"tokens", 3}, {"passed", true}, {"best_cycles", 1234}}};
  return r;
}

TEST(Store, SchemaIsWalWithTheDocumentedTables) {
  auto dir = testing::fresh_dir("schema");
  { ResultStore store(dir / "r.db"); }
  // kernels_fts_* are FTS5's own shadow tables of the kernel library's index.
  EXPECT_EQ(tables(dir / "r.db"),
            (std::vector<std::string>{"hardware", "kernels", "kernels_fts", "kernels_fts_config",
                                      "kernels_fts_content", "kernels_fts_data", "kernels_fts_docsize",
                                      "kernels_fts_idx", "meta", "plan", "runs", "sweeps", "tuned_baselines",
                                      "unsupported"}));
  EXPECT_EQ(pragma(dir / "r.db", "PRAGMA journal_mode"), "wal");
  EXPECT_EQ(pragma(dir / "r.db", "SELECT value FROM meta WHERE key = 'schema_version'"),
            std::to_string(kSchemaVersion));
  std::filesystem::remove_all(dir);
}

// The runs table of a new store has exactly the columns of run_columns.h, none newer than its schema.
TEST(Store, TheRunsTableHasTheRunColumns) {
  auto dir = testing::fresh_dir("run_columns");
  { ResultStore store(dir / "r.db"); }
  sqlite3* db = nullptr;
  ASSERT_EQ(sqlite3_open((dir / "r.db").c_str(), &db), SQLITE_OK);
  std::set<std::string> table;
  sqlite3_exec(
      db, "SELECT name FROM pragma_table_info('runs')",
      [](void* out, int, char** values, char**) {
        static_cast<std::set<std::string>*>(out)->insert(values[0]);
        return 0;
      },
      &table, nullptr);
  sqlite3_close(db);
  std::set<std::string> columns;
  for (const auto& c : run_columns()) {
    EXPECT_TRUE(columns.insert(c.name).second) << c.name << " twice";
    EXPECT_GE(c.since_version, 1) << c.name;
    EXPECT_LE(c.since_version, kSchemaVersion) << c.name;
  }
  EXPECT_EQ(columns, table);
  std::filesystem::remove_all(dir);
}

TEST(Store, RowsRoundTripAndAKeyIsStoredOnce) {
  auto dir = testing::fresh_dir("roundtrip");
  ResultStore store(dir / "r.db");
  const auto r = full_record();
  EXPECT_TRUE(store.insert_run(r));
  auto changed = r;
  changed.verdict = "mismatch";
  EXPECT_FALSE(store.insert_run(changed));  // same key: refused, the first row stays
  const auto rows = store.runs();
  ASSERT_EQ(rows.size(), 1u);
  EXPECT_EQ(rows[0].to_json(), r.to_json());
  EXPECT_EQ(store.finished_keys(), std::set<RunKey>{r.key});
  // Optional iterations stay absent when absent.
  auto bare = make_run("tuner", "default", "relu", 1, "C1", 1, "mismatch", 0, 0);
  store.insert_run(bare);
  // A correct run whose compiler baseline was not simulated stays so (and one with none stays none).
  auto unsimulated = make_run("tuner", "default", "relu", 1, "C3", 1, "pass", 100, 200);
  unsimulated.compiler_baseline_not_simulated = true;
  store.insert_run(unsimulated);
  auto without = make_run("tuner", "default", "relu", 1, "C4", 1, "pass", 100, 200);
  store.insert_run(without);
  // A recorded empty trajectory (a run without iterations) is not an unrecorded one (null).
  auto no_iterations = make_run("baseline", "default", "relu", 1, "C5", 1, "pass", 100, 100);
  no_iterations.trajectory = nlohmann::json::array();
  store.insert_run(no_iterations);
  unsigned seen = 0;
  for (const auto& row : store.runs()) {
    if (row.key == no_iterations.key) {
      EXPECT_TRUE(row.trajectory.is_array());
      EXPECT_TRUE(row.trajectory.empty());
      ++seen;
    }
    if (row.key == bare.key) {
      EXPECT_TRUE(row.trajectory.is_null());
      EXPECT_FALSE(row.first_valid_iteration.has_value());
      EXPECT_EQ(row.to_json(), bare.to_json());
      ++seen;
    }
    if (row.key == unsimulated.key) {
      EXPECT_TRUE(row.compiler_baseline_not_simulated);
      EXPECT_EQ(row.to_json(), unsimulated.to_json());
      ++seen;
    }
    if (row.key == without.key) {
      EXPECT_FALSE(row.compiler_baseline_not_simulated);
      EXPECT_EQ(row.to_json(), without.to_json());
      ++seen;
    }
  }
  EXPECT_EQ(seen, 4u);
  std::filesystem::remove_all(dir);
}

TEST(Store, RetryAndRerunDeleteOnlyWhatTheySay) {
  auto dir = testing::fresh_dir("delete");
  ResultStore store(dir / "r.db");
  const auto ok = make_run("tuner", "default", "relu", 1, "C1", 1, "pass", 10, 10);
  const auto failed = error_record({"systolic", "default", "relu", "C2", "tuner", 1}, 1, "crash");
  store.insert_run(ok);
  store.insert_run(failed);
  EXPECT_EQ(store.delete_failed_jobs({ok.key, failed.key}), 1u);
  EXPECT_EQ(store.finished_keys(), std::set<RunKey>{ok.key});
  EXPECT_EQ(store.delete_runs({ok.key}), 1u);
  EXPECT_TRUE(store.runs().empty());
  std::filesystem::remove_all(dir);
}

TEST(Store, MergeJoinsShardsAndReportsDuplicatesAndConflicts) {
  auto dir = testing::fresh_dir("merge");
  const auto a1 = make_run("tuner", "default", "relu", 1, "C1", 1, "pass", 10, 10);
  const auto a2 = make_run("tuner", "default", "relu", 1, "C2", 1, "pass", 20, 20);
  const auto b1 = make_run("tuner", "small", "relu", 1, "C1", 1, "pass", 30, 30);
  {
    ResultStore shard0(dir / "s0.db");
    shard0.add_plan({{a1.key, 1}, {a2.key, 1}}, {{"systolic", "default", "gemm", "C5", 1, "too big"}},
                    {{"00000000000000aa", "systolic", "default", {{"build", {{"MLEN", 16}}}}}});
    shard0.begin_sweep(
        {"sweep-0", "t0", "", "completed", "kcraft bench --shard 0/2", "0.1.0", "c", "h", "0/2", 2, 2, 2});
    shard0.insert_run(a1);
    shard0.insert_run(a2);
    ResultStore shard1(dir / "s1.db");
    shard1.add_plan({{b1.key, 1}}, {},
                    {{"00000000000000bb", "systolic", "small", {{"build", {{"MLEN", 8}}}}}});
    shard1.begin_sweep(
        {"sweep-1", "t1", "", "completed", "kcraft bench --shard 1/2", "0.1.0", "c", "h", "1/2", 2, 1, 1});
    shard1.insert_run(b1);
  }
  ResultStore merged(dir / "all.db");
  auto s = merged.merge_from(dir / "s0.db");
  EXPECT_EQ(s.runs_added, 2u);
  s = merged.merge_from(dir / "s1.db");
  EXPECT_EQ(s.runs_added, 1u);
  EXPECT_EQ(s.runs_already_present, 0u);
  EXPECT_EQ(merged.runs().size(), 3u);
  EXPECT_EQ(merged.plan().size(), 3u);
  EXPECT_EQ(merged.unsupported().size(), 1u);
  EXPECT_EQ(merged.hardware().size(), 2u);
  EXPECT_EQ(merged.sweeps().size(), 2u);
  // Merging the same shard again adds nothing and duplicates nothing.
  s = merged.merge_from(dir / "s0.db");
  EXPECT_EQ(s.runs_added, 0u);
  EXPECT_EQ(s.runs_already_present, 2u);
  EXPECT_EQ(s.runs_conflicting, 0u);
  EXPECT_EQ(merged.runs().size(), 3u);
  // A store that disagrees about a run: counted as a conflict, the existing row kept.
  {
    ResultStore other(dir / "other.db");
    auto different = a1;
    different.cycles = 11;
    other.insert_run(different);
  }
  s = merged.merge_from(dir / "other.db");
  EXPECT_EQ(s.runs_conflicting, 1u);
  for (const auto& r : merged.runs()) {
    if (r.key == a1.key) {
      EXPECT_EQ(r.cycles, 10u);
    }
  }
  EXPECT_THROW(merged.merge_from(dir / "all.db"), StoreError);      // itself
  EXPECT_THROW(merged.merge_from(dir / "missing.db"), StoreError);  // absent
  std::filesystem::remove_all(dir);
}

TEST(Store, RefusesFilesThatAreNotResultsDatabases) {
  auto dir = testing::fresh_dir("bad");
  std::ofstream(dir / "text.db")
      << "this is not a database, it is a text file that is long enough to look like one\n";
  try {
    ResultStore store(dir / "text.db");
    FAIL() << "opened a text file";
  } catch (const StoreError& e) {
    EXPECT_NE(std::string(e.what()).find("text.db"), std::string::npos) << e.what();
  }
  {
    // Another program's SQLite database: merging it is refused by name.
    sqlite3* db = nullptr;
    sqlite3_open((dir / "foreign.db").c_str(), &db);
    sqlite3_exec(db, "CREATE TABLE t(x)", nullptr, nullptr, nullptr);
    sqlite3_close(db);
  }
  ResultStore store(dir / "r.db");
  try {
    store.merge_from(dir / "foreign.db");
    FAIL() << "merged a foreign database";
  } catch (const StoreError& e) {
    EXPECT_NE(std::string(e.what()).find("not a kcraft results database"), std::string::npos) << e.what();
  }
  // A newer schema is refused rather than misread.
  { ResultStore future(dir / "future.db"); }
  sqlite3* db = nullptr;
  sqlite3_open((dir / "future.db").c_str(), &db);
  sqlite3_exec(db, "UPDATE meta SET value = '99' WHERE key = 'schema_version'", nullptr, nullptr, nullptr);
  sqlite3_close(db);
  EXPECT_THROW(ResultStore again(dir / "future.db"), StoreError);
  EXPECT_THROW(store.merge_from(dir / "future.db"), StoreError);
  std::filesystem::remove_all(dir);
}

TunedBaseline tuned(const std::string& hw, const std::string& task, const std::string& config,
                    const std::string& commit, uint64_t cycles) {
  TunedBaseline t;
  t.key = {"systolic", hw, task, config, "hw-" + hw, commit, "space"};
  t.cycles = cycles;
  t.baseline_cycles = 2000;
  t.budget = 15;
  t.iterations = 9;
  t.kernel = "C_HALT\n";
  t.source = "test";
  t.computed_at = "2025-01-01T00:00:00Z";
  t.seconds = 1.5;
  return t;
}

RunRecord run_by(const std::string& agent, const std::string& config, unsigned attempt,
                 const std::string& verdict, uint64_t cycles, const std::string& commit) {
  auto r = make_run(agent, "default", "gemm", 1, config, attempt, verdict, cycles, 2000);
  r.hardware_id = "hw-default";
  r.git_commit = commit;
  return r;
}

TEST(Store, TunedBaselinesRoundTripAndFillTheCellsRunsOfTheSameCommitAndHardware) {
  auto dir = testing::fresh_dir("tuned");
  ResultStore store(dir / "r.db");
  const auto fast = run_by("llm:x", "C4", 1, "pass", 800, "abc");
  const auto slow = run_by("llm:x", "C4", 2, "pass", 1600, "abc");
  const auto wrong = run_by("llm:x", "C4", 3, "mismatch", 0, "abc");
  const auto older = run_by("llm:x", "C4", 4, "pass", 800, "old");  // another commit: other RTL maybe
  auto other_hw = run_by("llm:x", "C4", 5, "pass", 800, "abc");
  other_hw.hardware_id = "hw-changed";  // the configuration file changed
  const auto other_cell = run_by("llm:x", "C3", 1, "pass", 800, "abc");
  for (const auto& r : {fast, slow, wrong, older, other_hw, other_cell}) ASSERT_TRUE(store.insert_run(r));

  EXPECT_FALSE(store.tuned_baseline(tuned("default", "gemm", "C4", "abc", 1000).key).has_value());
  EXPECT_EQ(store.put_tuned_baseline(tuned("default", "gemm", "C4", "abc", 1000)), 3u);  // fast, slow, wrong
  const auto got = store.tuned_baseline(tuned("default", "gemm", "C4", "abc", 1000).key);
  ASSERT_TRUE(got.has_value());
  EXPECT_EQ(got->to_json(), tuned("default", "gemm", "C4", "abc", 1000).to_json());
  EXPECT_DOUBLE_EQ(got->speedup_over_baseline(), 2.0);
  // The same key again keeps the first one stored.
  auto again = tuned("default", "gemm", "C4", "abc", 1);
  EXPECT_EQ(store.put_tuned_baseline(again), 0u);
  EXPECT_EQ(store.tuned_baseline(again.key)->cycles, 1000u);
  EXPECT_EQ(store.tuned_baselines().size(), 1u);

  std::map<unsigned, RunRecord> by_attempt;
  for (const auto& r : store.runs()) {
    if (r.key.config == "C4") by_attempt[r.key.attempt] = r;
  }
  EXPECT_EQ(by_attempt[1].tuned_baseline_cycles, 1000u);
  EXPECT_DOUBLE_EQ(by_attempt[1].tuned_speedup, 1.25);
  EXPECT_DOUBLE_EQ(by_attempt[2].tuned_speedup, 0.625);   // slower than the tuned baseline: below 1
  EXPECT_EQ(by_attempt[3].tuned_baseline_cycles, 1000u);  // known for the cell, but no speedup: it failed
  EXPECT_EQ(by_attempt[3].tuned_speedup, 0.0);
  EXPECT_FALSE(by_attempt[4].tuned_baseline_cycles.has_value());
  EXPECT_FALSE(by_attempt[5].tuned_baseline_cycles.has_value());
  for (const auto& r : store.runs()) {
    if (r.key.config == "C3") {
      EXPECT_FALSE(r.tuned_baseline_cycles.has_value());
    }
  }
  // A run stored with its tuned speedup round-trips it.
  auto known = run_by("tuner", "C4", 1, "pass", 1000, "abc");
  known.set_tuned_baseline(1000);
  store.insert_run(known);
  for (const auto& r : store.runs()) {
    if (r.key == known.key) {
      EXPECT_EQ(r.to_json(), known.to_json());
      EXPECT_EQ(r.tuned_speedup, 1.0);
    }
  }
  std::filesystem::remove_all(dir);
}

// The version-1 schema, as kcraft wrote it before tuned baselines.
void write_version_1_store(const std::filesystem::path& file) {
  sqlite3* db = nullptr;
  ASSERT_EQ(sqlite3_open(file.c_str(), &db), SQLITE_OK);
  const char* sql = R"SQL(
CREATE TABLE meta(key TEXT PRIMARY KEY, value TEXT NOT NULL);
INSERT INTO meta VALUES('schema_version', '1');
CREATE TABLE sweeps(id TEXT PRIMARY KEY, started_at TEXT, finished_at TEXT, status TEXT, command TEXT,
  kcraft_version TEXT, git_commit TEXT, host TEXT, shard TEXT, jobs INTEGER, planned INTEGER, completed INTEGER);
CREATE TABLE hardware(id TEXT PRIMARY KEY, platform TEXT NOT NULL, name TEXT NOT NULL, config_json TEXT NOT NULL);
CREATE TABLE plan(platform TEXT NOT NULL, hw_config TEXT NOT NULL, task TEXT NOT NULL, config TEXT NOT NULL,
  agent TEXT NOT NULL, attempt INTEGER NOT NULL, level INTEGER NOT NULL,
  PRIMARY KEY(platform, hw_config, task, config, agent, attempt)) WITHOUT ROWID;
CREATE TABLE unsupported(platform TEXT NOT NULL, hw_config TEXT NOT NULL, task TEXT NOT NULL, config TEXT NOT NULL,
  level INTEGER NOT NULL, reason TEXT NOT NULL, PRIMARY KEY(platform, hw_config, task, config)) WITHOUT ROWID;
CREATE TABLE runs(platform TEXT NOT NULL, hw_config TEXT NOT NULL, task TEXT NOT NULL, config TEXT NOT NULL,
  agent TEXT NOT NULL, attempt INTEGER NOT NULL,
  level INTEGER NOT NULL, status TEXT NOT NULL, error TEXT NOT NULL, verdict TEXT NOT NULL, seed_verdicts TEXT,
  cycles INTEGER, baseline_cycles INTEGER, speedup REAL, utilization REAL,
  iterations INTEGER, budget INTEGER, first_valid_iteration INTEGER, first_pass_iteration INTEGER,
  evaluations INTEGER, prompt_tokens INTEGER, completion_tokens INTEGER, reasoning_tokens INTEGER,
  cached_prompt_tokens INTEGER, agent_seconds REAL, job_seconds REAL, counters TEXT, dev_seed INTEGER,
  kernel TEXT, transcript TEXT, kcraft_version TEXT, git_commit TEXT, hardware_id TEXT, agent_settings TEXT,
  sweep_id TEXT, host TEXT, finished_at TEXT, worker_pid INTEGER,
  PRIMARY KEY(platform, hw_config, task, config, agent, attempt));
INSERT INTO runs VALUES('systolic', 'default', 'gemm', 'C4', 'llm:x', 1, 1, 'submitted', '', 'pass', '[]',
  800, 2000, 2.5, 0.5, 3, 15, 1, 2, 3, 0, 0, 0, 0, 1.0, 2.0, '{}', 1, 'C_HALT', '', '0.1.0', 'abc',
  'hw-default', '{}', 's', 'h', 't', 7);
)SQL";
  ASSERT_EQ(sqlite3_exec(db, sql, nullptr, nullptr, nullptr), SQLITE_OK) << sqlite3_errmsg(db);
  sqlite3_close(db);
}

TEST(Store, AVersion1StoreIsUpgradedInPlaceAndItsRunsKeepNoTunedBaseline) {
  auto dir = testing::fresh_dir("migrate");
  write_version_1_store(dir / "v1.db");
  write_version_1_store(dir / "v1-shard.db");
  {
    ResultStore store(dir / "v1.db");
    EXPECT_EQ(store.migrated_from(), 1);
    const auto runs = store.runs();
    ASSERT_EQ(runs.size(), 1u);
    EXPECT_DOUBLE_EQ(runs[0].speedup, 2.5);
    EXPECT_FALSE(runs[0].tuned_baseline_cycles.has_value());  // not known, and not reported as 0
    // The upgraded store takes tuned baselines, which fill the old row of the same commit and hardware.
    EXPECT_EQ(store.put_tuned_baseline(tuned("default", "gemm", "C4", "abc", 1000)), 1u);
    EXPECT_DOUBLE_EQ(store.runs()[0].tuned_speedup, 1.25);
    // The upgrade also fills the kernel library with the passing runs' kernels.
    const auto kernels = store.kernels();
    ASSERT_EQ(kernels.size(), 1u);
    EXPECT_EQ(kernels[0].task, "gemm");
    EXPECT_EQ(kernels[0].config, "C4");
    EXPECT_EQ(kernels[0].cycles, 800u);
    EXPECT_EQ(kernels[0].source, "C_HALT");
    EXPECT_EQ(kernels[0].agent, "llm:x");
  }
  EXPECT_EQ(pragma(dir / "v1.db", "SELECT value FROM meta WHERE key = 'schema_version'"),
            std::to_string(kSchemaVersion));
  {
    ResultStore again(dir / "v1.db");
    EXPECT_EQ(again.migrated_from(), 0);  // once
  }
  // Merging a version-1 store without upgrading it: its runs come in without a tuned baseline, then get
  // the one this store has for their cell.
  ResultStore merged(dir / "merged.db");
  merged.put_tuned_baseline(tuned("default", "gemm", "C4", "abc", 1000));
  const auto stats = merged.merge_from(dir / "v1-shard.db");
  EXPECT_EQ(stats.runs_added, 1u);
  EXPECT_EQ(pragma(dir / "v1-shard.db", "SELECT value FROM meta WHERE key = 'schema_version'"), "1");
  ASSERT_EQ(merged.runs().size(), 1u);
  EXPECT_EQ(merged.runs()[0].tuned_baseline_cycles, 1000u);
  EXPECT_DOUBLE_EQ(merged.runs()[0].tuned_speedup, 1.25);
  EXPECT_EQ(merged.kernels().size(), 1u);  // an old shard's passing run fills the library as an upgrade would
  std::filesystem::remove_all(dir);
}

TEST(Store, PassingRunsGoIntoTheKernelLibraryOnceAndFailingOnesNever) {
  auto dir = testing::fresh_dir("library");
  ResultStore store(dir / "r.db");
  auto pass = run_by("llm:x", "C2", 1, "pass", 900, "abc");
  pass.kernel = "M_MM alphaunique\nC_HALT\n";
  pass.language = "asm";
  auto wrong = run_by("llm:x", "C3", 1, "mismatch", 0, "abc");
  wrong.kernel = "C_HALT wrong\n";
  auto empty = run_by("llm:x", "C4", 1, "pass", 900, "abc");  // a pass without a kernel is not an example
  EXPECT_TRUE(store.insert_run(pass));
  EXPECT_TRUE(store.insert_run(wrong));
  EXPECT_TRUE(store.insert_run(empty));
  EXPECT_FALSE(store.insert_run(pass));
  auto again = pass;  // the same kernel from another attempt: one library row
  again.key.attempt = 2;
  EXPECT_TRUE(store.insert_run(again));
  const auto kernels = store.kernels();
  ASSERT_EQ(kernels.size(), 1u);
  EXPECT_EQ(kernels[0].config, "C2");
  EXPECT_EQ(kernels[0].language, "asm");
  EXPECT_EQ(kernels[0].git_commit, "abc");
  EXPECT_EQ(kernels[0].platform, pass.key.platform);
  EXPECT_EQ(kernels[0].hw_config, "default");
  // Searchable by its source's words, by another cell of the platform.
  library::SearchRequest request{pass.key.platform, "gemm", "C1", "alphaunique", 3, false};
  {
    library::KernelLibrary lib(dir / "r.db");
    const auto found = lib.search(request);
    ASSERT_EQ(found.size(), 1u);
    EXPECT_EQ(found[0].config, "C2");
  }

  // A version-2 store (before the library): reopened, it is upgraded and its passing runs fill the library.
  sqlite3* db = nullptr;
  ASSERT_EQ(sqlite3_open((dir / "r.db").c_str(), &db), SQLITE_OK);
  ASSERT_EQ(sqlite3_exec(db,
                         "DROP TABLE kernels; DROP TABLE kernels_fts; "
                         "UPDATE meta SET value = '2' WHERE key = 'schema_version'",
                         nullptr, nullptr, nullptr),
            SQLITE_OK)
      << sqlite3_errmsg(db);
  sqlite3_close(db);
  {
    ResultStore upgraded(dir / "r.db");
    EXPECT_EQ(upgraded.migrated_from(), 2);
    EXPECT_EQ(upgraded.runs().size(), 4u);
    ASSERT_EQ(upgraded.kernels().size(), 1u);
    EXPECT_EQ(upgraded.kernels()[0].config, "C2");
  }
  // A version-3 shard's library (which may hold kernels of `kcraft agent` runs too) merges in, searchable.
  {
    library::KernelLibrary shard(dir / "shard.db");
    ResultStore shard_store(dir / "shard.db");
    library::KernelEntry e{pass.key.platform,    "default", "silu", "C1", 300, "llm:y", "",
                           "V_EXP betaunique\n", "def",     "",     ""};
    shard.insert(e);
  }
  ResultStore merged(dir / "r.db");
  merged.merge_from(dir / "shard.db");
  EXPECT_EQ(merged.kernels().size(), 2u);
  library::KernelLibrary lib(dir / "r.db");
  request.query = "betaunique";
  const auto found = lib.search(request);
  ASSERT_EQ(found.size(), 1u);
  EXPECT_EQ(found[0].task, "silu");
  std::filesystem::remove_all(dir);
}

// A version-3 store (before per-role usage): upgraded in place, its runs read with no roles; a version-3
// shard merges into a current store the same way.
TEST(Store, AVersion3StoreGainsPerRoleUsageAndMergesIn) {
  auto dir = testing::fresh_dir("v3");
  const auto old_run = make_run("llm:x", "default", "relu", 1, "C1", 1, "pass", 10, 10);
  const auto make_v3 = [&](const std::filesystem::path& file) {
    { ResultStore(file).insert_run(old_run); }
    sqlite3* db = nullptr;
    ASSERT_EQ(sqlite3_open(file.c_str(), &db), SQLITE_OK);
    ASSERT_EQ(sqlite3_exec(db,
                           "ALTER TABLE runs DROP COLUMN role_usage; "
                           "UPDATE meta SET value = '3' WHERE key = 'schema_version'",
                           nullptr, nullptr, nullptr),
              SQLITE_OK)
        << sqlite3_errmsg(db);
    sqlite3_close(db);
  };
  make_v3(dir / "v3.db");
  {
    ResultStore upgraded(dir / "v3.db");
    EXPECT_EQ(upgraded.migrated_from(), 3);
    const auto runs = upgraded.runs();
    ASSERT_EQ(runs.size(), 1u);
    EXPECT_EQ(runs[0].roles, nlohmann::json::object());
    auto with_roles = full_record();
    EXPECT_TRUE(upgraded.insert_run(with_roles));
    for (const auto& r : upgraded.runs()) {
      if (r.key == with_roles.key) {
        EXPECT_EQ(r.roles, with_roles.roles);
      }
    }
  }
  EXPECT_EQ(pragma(dir / "v3.db", "SELECT value FROM meta WHERE key = 'schema_version'"),
            std::to_string(kSchemaVersion));
  make_v3(dir / "shard.db");
  {
    ResultStore current(dir / "current.db");
    const auto stats = current.merge_from(dir / "shard.db");
    EXPECT_EQ(stats.runs_added, 1u);
    EXPECT_EQ(current.runs()[0].roles, nlohmann::json::object());
  }
  std::filesystem::remove_all(dir);
}

// Version 4 (before phases): upgraded in place to the current version, its runs without phases; a v4
// shard merges in the same way.
TEST(Store, AVersion4StoreGainsPhasesAndMergesIn) {
  auto dir = testing::fresh_dir("v4");
  const auto old_run = make_run("baseline", "default", "relu", 1, "C1", 1, "pass", 10, 10);
  const auto make_v4 = [&](const std::filesystem::path& file) {
    { ResultStore(file).insert_run(old_run); }
    sqlite3* db = nullptr;
    ASSERT_EQ(sqlite3_open(file.c_str(), &db), SQLITE_OK);
    ASSERT_EQ(sqlite3_exec(db,
                           "ALTER TABLE runs DROP COLUMN phases; "
                           "UPDATE meta SET value = '4' WHERE key = 'schema_version'",
                           nullptr, nullptr, nullptr),
              SQLITE_OK)
        << sqlite3_errmsg(db);
    sqlite3_close(db);
  };
  make_v4(dir / "v4.db");
  {
    ResultStore upgraded(dir / "v4.db");
    EXPECT_EQ(upgraded.migrated_from(), 4);
    ASSERT_EQ(upgraded.runs().size(), 1u);
    EXPECT_EQ(upgraded.runs()[0].phases, nlohmann::json::object());
    const auto with_phases = full_record();
    EXPECT_TRUE(upgraded.insert_run(with_phases));
    for (const auto& r : upgraded.runs()) {
      if (r.key == with_phases.key) {
        EXPECT_EQ(r.phases, with_phases.phases);
      }
    }
  }
  EXPECT_EQ(pragma(dir / "v4.db", "SELECT value FROM meta WHERE key = 'schema_version'"),
            std::to_string(kSchemaVersion));
  make_v4(dir / "shard.db");
  {
    ResultStore current(dir / "current.db");
    EXPECT_EQ(current.merge_from(dir / "shard.db").runs_added, 1u);
    EXPECT_EQ(current.runs()[0].phases, nlohmann::json::object());
  }
  std::filesystem::remove_all(dir);
}

// Version 5 (before the compiler baseline): upgraded in place, its runs without a compiler baseline (0);
// new runs keep theirs; a v5 shard merges in the same way.
TEST(Store, AVersion5StoreGainsTheCompilerBaselineAndMergesIn) {
  auto dir = testing::fresh_dir("v5");
  const auto old_run = make_run("baseline", "default", "relu", 1, "C1", 1, "pass", 10, 10);
  const auto make_v5 = [&](const std::filesystem::path& file) {
    { ResultStore(file).insert_run(old_run); }
    sqlite3* db = nullptr;
    ASSERT_EQ(sqlite3_open(file.c_str(), &db), SQLITE_OK);
    ASSERT_EQ(sqlite3_exec(db,
                           "ALTER TABLE runs DROP COLUMN compiler_baseline_cycles; "
                           "ALTER TABLE runs DROP COLUMN compiler_speedup; "
                           "UPDATE meta SET value = '5' WHERE key = 'schema_version'",
                           nullptr, nullptr, nullptr),
              SQLITE_OK)
        << sqlite3_errmsg(db);
    sqlite3_close(db);
  };
  make_v5(dir / "v5.db");
  {
    ResultStore upgraded(dir / "v5.db");
    EXPECT_EQ(upgraded.migrated_from(), 5);
    ASSERT_EQ(upgraded.runs().size(), 1u);
    EXPECT_EQ(upgraded.runs()[0].compiler_baseline_cycles, 0u);
    const auto with_compiler = full_record();
    EXPECT_TRUE(upgraded.insert_run(with_compiler));
    for (const auto& r : upgraded.runs()) {
      if (r.key == with_compiler.key) {
        EXPECT_EQ(r.compiler_baseline_cycles, 9876u);
        EXPECT_DOUBLE_EQ(r.compiler_speedup, with_compiler.compiler_speedup);
      }
    }
  }
  EXPECT_EQ(pragma(dir / "v5.db", "SELECT value FROM meta WHERE key = 'schema_version'"),
            std::to_string(kSchemaVersion));
  make_v5(dir / "shard.db");
  {
    ResultStore current(dir / "current.db");
    EXPECT_EQ(current.merge_from(dir / "shard.db").runs_added, 1u);
    EXPECT_EQ(current.runs()[0].compiler_baseline_cycles, 0u);
  }
  std::filesystem::remove_all(dir);
}

// Version 6 (before trajectories): upgraded in place, its runs read with no trajectory recorded (null, so
// the report reads their transcripts); new runs keep theirs; a v6 shard merges in the same way.
TEST(Store, AVersion6StoreGainsTrajectoriesAndMergesIn) {
  auto dir = testing::fresh_dir("v6");
  auto old_run = make_run("llm:m", "default", "relu", 1, "C1", 1, "pass", 10, 10);
  old_run.trajectory = nlohmann::json::array({{{"iteration", 1}, {"tokens", 5}, {"passed", true}}});
  const auto make_v6 = [&](const std::filesystem::path& file) {
    { ResultStore(file).insert_run(old_run); }
    sqlite3* db = nullptr;
    ASSERT_EQ(sqlite3_open(file.c_str(), &db), SQLITE_OK);
    ASSERT_EQ(sqlite3_exec(db,
                           "ALTER TABLE runs DROP COLUMN trajectory; "
                           "UPDATE meta SET value = '6' WHERE key = 'schema_version'",
                           nullptr, nullptr, nullptr),
              SQLITE_OK)
        << sqlite3_errmsg(db);
    sqlite3_close(db);
  };
  make_v6(dir / "v6.db");
  {
    ResultStore upgraded(dir / "v6.db");
    EXPECT_EQ(upgraded.migrated_from(), 6);
    ASSERT_EQ(upgraded.runs().size(), 1u);
    EXPECT_TRUE(upgraded.runs()[0].trajectory.is_null());
    const auto with_trajectory = full_record();
    EXPECT_TRUE(upgraded.insert_run(with_trajectory));
    for (const auto& r : upgraded.runs()) {
      if (r.key == with_trajectory.key) {
        EXPECT_EQ(r.trajectory, with_trajectory.trajectory);
      }
    }
  }
  EXPECT_EQ(pragma(dir / "v6.db", "SELECT value FROM meta WHERE key = 'schema_version'"),
            std::to_string(kSchemaVersion));
  make_v6(dir / "shard.db");
  {
    ResultStore current(dir / "current.db");
    EXPECT_EQ(current.merge_from(dir / "shard.db").runs_added, 1u);
    ASSERT_EQ(current.runs().size(), 1u);
    EXPECT_TRUE(current.runs()[0].trajectory.is_null());
    // A current shard's trajectories merge in.
    ResultStore(dir / "new-shard.db").insert_run(full_record());
    EXPECT_EQ(current.merge_from(dir / "new-shard.db").runs_added, 1u);
    for (const auto& r : current.runs()) {
      if (r.key == full_record().key) {
        EXPECT_EQ(r.trajectory, full_record().trajectory);
      }
    }
  }
  std::filesystem::remove_all(dir);
}

TEST(Store, MergeCopiesTunedBaselinesAndFillsTheOtherShardsRuns) {
  auto dir = testing::fresh_dir("merge_tuned");
  const auto llm = run_by("llm:x", "C4", 1, "pass", 800, "abc");
  {
    // Shard 0 ran the tuner of the cell (its tuned baseline); shard 1 only the LLM run.
    ResultStore shard0(dir / "s0.db");
    shard0.put_tuned_baseline(tuned("default", "gemm", "C4", "abc", 1000));
    ResultStore shard1(dir / "s1.db");
    shard1.insert_run(llm);
  }
  ResultStore merged(dir / "all.db");
  merged.merge_from(dir / "s1.db");
  EXPECT_FALSE(merged.runs()[0].tuned_baseline_cycles.has_value());
  merged.merge_from(dir / "s0.db");
  EXPECT_EQ(merged.tuned_baselines().size(), 1u);
  EXPECT_EQ(merged.runs()[0].tuned_baseline_cycles, 1000u);
  EXPECT_DOUBLE_EQ(merged.runs()[0].tuned_speedup, 1.25);
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace kcraft::bench
