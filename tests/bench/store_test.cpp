// The results store: schema, whole rows, no duplicates, merging shard databases.
#include <gtest/gtest.h>
#include <sqlite3.h>

#include <fstream>

#include "agent/bench/store.h"
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
  r.sweep_id = "s1";
  r.host = "h";
  r.finished_at = "2025-01-01T00:00:00Z";
  r.worker_pid = 42;
  return r;
}

TEST(Store, SchemaIsWalWithTheDocumentedTables) {
  auto dir = testing::fresh_dir("schema");
  { ResultStore store(dir / "r.db"); }
  EXPECT_EQ(tables(dir / "r.db"),
            (std::vector<std::string>{"hardware", "meta", "plan", "runs", "sweeps", "unsupported"}));
  EXPECT_EQ(pragma(dir / "r.db", "PRAGMA journal_mode"), "wal");
  EXPECT_EQ(pragma(dir / "r.db", "SELECT value FROM meta WHERE key = 'schema_version'"),
            std::to_string(kSchemaVersion));
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
  for (const auto& row : store.runs()) {
    if (row.key == bare.key) {
      EXPECT_FALSE(row.first_valid_iteration.has_value());
      EXPECT_EQ(row.to_json(), bare.to_json());
    }
  }
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

}  // namespace
}  // namespace kcraft::bench
