#include "agent/bench/store.h"

#include <fmt/format.h>
#include <sqlite3.h>

#include <variant>

#include "agent/bench/run_columns.h"

namespace kcraft::bench {

using nlohmann::json;

namespace {

// A value to bind (an unsigned integer is bound as the signed 64-bit integer of the same bits).
using Value = RunValue;

// One prepared statement; finalised when it goes out of scope.
class Statement {
 public:
  Statement(sqlite3* db, const std::string& sql) : db_(db) {
    if (sqlite3_prepare_v2(db, sql.c_str(), -1, &stmt_, nullptr) != SQLITE_OK) {
      throw StoreError(fmt::format("{}: {}", sqlite3_db_filename(db, "main"), sqlite3_errmsg(db)));
    }
  }
  ~Statement() { sqlite3_finalize(stmt_); }
  Statement(const Statement&) = delete;
  Statement& operator=(const Statement&) = delete;

  Statement& bind(const std::vector<Value>& values) {
    sqlite3_reset(stmt_);
    sqlite3_clear_bindings(stmt_);
    int i = 1;
    for (const auto& v : values) {
      int rc = SQLITE_OK;
      if (std::holds_alternative<std::nullptr_t>(v)) {
        rc = sqlite3_bind_null(stmt_, i);
      } else if (const auto* n = std::get_if<int64_t>(&v)) {
        rc = sqlite3_bind_int64(stmt_, i, *n);
      } else if (const auto* u = std::get_if<uint64_t>(&v)) {
        rc = sqlite3_bind_int64(stmt_, i, static_cast<int64_t>(*u));
      } else if (const auto* d = std::get_if<double>(&v)) {
        rc = sqlite3_bind_double(stmt_, i, *d);
      } else {
        const auto& s = std::get<std::string>(v);
        rc = sqlite3_bind_text(stmt_, i, s.data(), static_cast<int>(s.size()), SQLITE_TRANSIENT);
      }
      if (rc != SQLITE_OK) fail();
      ++i;
    }
    return *this;
  }

  // True while there is a row.
  bool step() {
    const int rc = sqlite3_step(stmt_);
    if (rc == SQLITE_ROW) return true;
    if (rc == SQLITE_DONE) return false;
    fail();
    return false;
  }

  void reset() { sqlite3_reset(stmt_); }  // ends a read early (before changing the schema)

  bool is_null(int col) const { return sqlite3_column_type(stmt_, col) == SQLITE_NULL; }
  int64_t integer(int col) const { return sqlite3_column_int64(stmt_, col); }
  double real(int col) const { return sqlite3_column_double(stmt_, col); }
  std::string text(int col) const {
    const auto* p = sqlite3_column_text(stmt_, col);
    return p == nullptr ? std::string() : std::string(reinterpret_cast<const char*>(p));
  }
  json json_value(int col, json fallback) const {
    if (is_null(col)) return fallback;
    const std::string t = text(col);
    if (t.empty()) return fallback;
    return json::parse(t, nullptr, false).is_discarded() ? fallback : json::parse(t);
  }

 private:
  [[noreturn]] void fail() const {
    throw StoreError(fmt::format("{}: {}", sqlite3_db_filename(db_, "main"), sqlite3_errmsg(db_)));
  }
  sqlite3* db_;
  sqlite3_stmt* stmt_ = nullptr;
};

// BEGIN IMMEDIATE ... COMMIT, rolled back if the scope is left by an exception.
class Transaction {
 public:
  explicit Transaction(sqlite3* db) : db_(db) { run("BEGIN IMMEDIATE"); }
  ~Transaction() {
    if (!done_) sqlite3_exec(db_, "ROLLBACK", nullptr, nullptr, nullptr);
  }
  void commit() {
    run("COMMIT");
    done_ = true;
  }

 private:
  void run(const char* sql) {
    char* err = nullptr;
    if (sqlite3_exec(db_, sql, nullptr, nullptr, &err) != SQLITE_OK) {
      std::string msg = err != nullptr ? err : "unknown error";
      sqlite3_free(err);
      throw StoreError(fmt::format("{}: {}: {}", sqlite3_db_filename(db_, "main"), sql, msg));
    }
  }
  sqlite3* db_;
  bool done_ = false;
};

const char* kKeyColumns = "platform, hw_config, task, config, agent, attempt";

// The runs table's columns (run_columns.h) a store of this schema version has (merging one copies these;
// the others stay NULL).
std::string run_column_list(int version = kSchemaVersion) {
  std::string s;
  for (const auto& c : run_columns()) {
    if (c.since_version <= version) s += (s.empty() ? "" : ", ") + std::string(c.name);
  }
  return s;
}

std::string placeholders(size_t n) {
  std::string s;
  for (size_t i = 0; i < n; ++i) s += i == 0 ? "?" : ", ?";
  return s;
}

std::vector<Value> key_values(const RunKey& k) {
  return {k.platform, k.hw_config, k.task, k.config, k.agent, int64_t{k.attempt}};
}

std::vector<Value> run_values(const RunRecord& r) {
  std::vector<Value> v;
  for (const auto& c : run_columns()) v.push_back(c.get(r));
  return v;
}

RunKey key_from(const Statement& s) {
  return {s.text(0), s.text(1), s.text(2), s.text(3), s.text(4), static_cast<unsigned>(s.integer(5))};
}

// A row of SELECT run_column_list().
RunRecord run_from(const Statement& s) {
  RunRecord r;
  int col = 0;
  for (const auto& c : run_columns()) {
    Value v(nullptr);
    if (!s.is_null(col)) {
      switch (c.type) {
        case RunColumnType::kInteger:
          v = s.integer(col);
          break;
        case RunColumnType::kReal:
          v = s.real(col);
          break;
        case RunColumnType::kText:
          v = s.text(col);
          break;
      }
    }
    c.set(r, v);
    ++col;
  }
  return r;
}

const char* kSchema = R"SQL(
CREATE TABLE IF NOT EXISTS meta(key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS sweeps(
  id TEXT PRIMARY KEY, started_at TEXT, finished_at TEXT, status TEXT, command TEXT,
  kcraft_version TEXT, git_commit TEXT, host TEXT, shard TEXT, jobs INTEGER, planned INTEGER, completed INTEGER);
CREATE TABLE IF NOT EXISTS hardware(
  id TEXT PRIMARY KEY, platform TEXT NOT NULL, name TEXT NOT NULL, config_json TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS plan(
  platform TEXT NOT NULL, hw_config TEXT NOT NULL, task TEXT NOT NULL, config TEXT NOT NULL,
  agent TEXT NOT NULL, attempt INTEGER NOT NULL, level INTEGER NOT NULL,
  PRIMARY KEY(platform, hw_config, task, config, agent, attempt)) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS unsupported(
  platform TEXT NOT NULL, hw_config TEXT NOT NULL, task TEXT NOT NULL, config TEXT NOT NULL,
  level INTEGER NOT NULL, reason TEXT NOT NULL,
  PRIMARY KEY(platform, hw_config, task, config)) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS runs(
  platform TEXT NOT NULL, hw_config TEXT NOT NULL, task TEXT NOT NULL, config TEXT NOT NULL,
  agent TEXT NOT NULL, attempt INTEGER NOT NULL,
  level INTEGER NOT NULL, status TEXT NOT NULL, error TEXT NOT NULL, verdict TEXT NOT NULL, seed_verdicts TEXT,
  cycles INTEGER, baseline_cycles INTEGER, speedup REAL, utilization REAL,
  iterations INTEGER, budget INTEGER, first_valid_iteration INTEGER, first_pass_iteration INTEGER,
  evaluations INTEGER, prompt_tokens INTEGER, completion_tokens INTEGER, reasoning_tokens INTEGER,
  cached_prompt_tokens INTEGER, agent_seconds REAL, job_seconds REAL, counters TEXT, dev_seed INTEGER,
  kernel TEXT, transcript TEXT, kcraft_version TEXT, git_commit TEXT, hardware_id TEXT, agent_settings TEXT,
  sweep_id TEXT, host TEXT, finished_at TEXT, worker_pid INTEGER,
  tuned_baseline_cycles INTEGER, tuned_speedup REAL, role_usage TEXT, phases TEXT,
  compiler_baseline_cycles INTEGER, compiler_speedup REAL, trajectory TEXT,
  PRIMARY KEY(platform, hw_config, task, config, agent, attempt));
CREATE TABLE IF NOT EXISTS tuned_baselines(
  platform TEXT NOT NULL, hw_config TEXT NOT NULL, task TEXT NOT NULL, config TEXT NOT NULL,
  hardware_id TEXT NOT NULL, git_commit TEXT NOT NULL, search_space TEXT NOT NULL,
  cycles INTEGER NOT NULL, baseline_cycles INTEGER NOT NULL, budget INTEGER, iterations INTEGER,
  kernel TEXT, source TEXT, transcript TEXT, computed_at TEXT, seconds REAL,
  PRIMARY KEY(platform, hw_config, task, config, hardware_id, git_commit, search_space)) WITHOUT ROWID;
)SQL";

// Version 1 -> 2: the autotuned baseline (the tuned_baselines table, created by kSchema, and two runs
// columns). Existing rows keep NULL there: their tuned baseline is not known.
const char* kMigrateFrom1 = R"SQL(
ALTER TABLE runs ADD COLUMN tuned_baseline_cycles INTEGER;
ALTER TABLE runs ADD COLUMN tuned_speedup REAL;
UPDATE meta SET value = '2' WHERE key = 'schema_version';
)SQL";

// Version 3 -> 4: each run's model calls and tokens per workflow role. Existing rows keep NULL (read as
// no roles: they were recorded before roles were).
const char* kMigrateFrom3 = "ALTER TABLE runs ADD COLUMN role_usage TEXT";

// Version 4 -> 5: each run's cycles per phase of a composite kernel (tasks with phases). Existing rows keep
// NULL (read as no phases).
const char* kMigrateFrom4 = "ALTER TABLE runs ADD COLUMN phases TEXT";

// Version 5 -> 6: each run's platform compiler baseline (BaselineCompiler::compiler_baseline) and the
// speedup over it. Existing rows keep NULL (read as none: they were recorded before it was).
const char* kMigrateFrom5 = R"SQL(
ALTER TABLE runs ADD COLUMN compiler_baseline_cycles INTEGER;
ALTER TABLE runs ADD COLUMN compiler_speedup REAL;
)SQL";

// Version 6 -> 7: each run's trajectory, per iteration (tokens so far, passed, best cycles: the report's
// curves). Existing rows keep NULL (read as not recorded: the report reads their transcripts instead).
const char* kMigrateFrom6 = "ALTER TABLE runs ADD COLUMN trajectory TEXT";

// Fills the tuned columns of runs that have none from a tuned baseline of their cell measured by the same
// commit on the same hardware (the earliest stored, should a changed search space have made two).
const char* kFillFromTunedBaselines = R"SQL(
UPDATE main.runs SET tuned_baseline_cycles = (
    SELECT t.cycles FROM main.tuned_baselines t WHERE t.platform = runs.platform AND t.hw_config = runs.hw_config
      AND t.task = runs.task AND t.config = runs.config AND t.hardware_id = runs.hardware_id
      AND t.git_commit = runs.git_commit ORDER BY t.computed_at LIMIT 1)
  WHERE tuned_baseline_cycles IS NULL AND EXISTS (
    SELECT 1 FROM main.tuned_baselines t WHERE t.platform = runs.platform AND t.hw_config = runs.hw_config
      AND t.task = runs.task AND t.config = runs.config AND t.hardware_id = runs.hardware_id
      AND t.git_commit = runs.git_commit);
UPDATE main.runs SET tuned_speedup = CASE WHEN verdict = 'pass' AND cycles > 0 AND tuned_baseline_cycles > 0
    THEN CAST(tuned_baseline_cycles AS REAL) / cycles ELSE 0 END
  WHERE tuned_baseline_cycles IS NOT NULL AND tuned_speedup IS NULL;
)SQL";

const char* kTunedColumns =
    "platform, hw_config, task, config, hardware_id, git_commit, search_space, cycles, baseline_cycles, "
    "budget, iterations, kernel, source, transcript, computed_at, seconds";

TunedBaseline tuned_from(const Statement& s) {
  TunedBaseline tb;
  tb.key = {s.text(0), s.text(1), s.text(2), s.text(3), s.text(4), s.text(5), s.text(6)};
  tb.cycles = static_cast<uint64_t>(s.integer(7));
  tb.baseline_cycles = static_cast<uint64_t>(s.integer(8));
  tb.budget = static_cast<unsigned>(s.integer(9));
  tb.iterations = static_cast<unsigned>(s.integer(10));
  tb.kernel = s.text(11);
  tb.source = s.text(12);
  tb.transcript = s.text(13);
  tb.computed_at = s.text(14);
  tb.seconds = s.real(15);
  return tb;
}

std::vector<Value> tuned_key_values(const TunedBaselineKey& k) {
  return {k.platform, k.hw_config, k.task, k.config, k.hardware_id, k.git_commit, k.search_space};
}

}  // namespace

ResultStore::ResultStore(const std::filesystem::path& file) : file_(file) {
  if (file.has_parent_path()) {
    std::error_code ec;
    std::filesystem::create_directories(file.parent_path(), ec);
  }
  if (sqlite3_open_v2(file.c_str(), &db_, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, nullptr) != SQLITE_OK) {
    std::string msg = db_ != nullptr ? sqlite3_errmsg(db_) : "out of memory";
    sqlite3_close(db_);
    db_ = nullptr;
    throw StoreError(file.string() + ": cannot open the results database: " + msg);
  }
  sqlite3_busy_timeout(db_, 30000);
  try {
    // WAL: readers (kcraft report) never block the sweep's writes; NORMAL sync keeps every committed
    // transaction across a killed process (only a power loss can drop the last ones).
    exec("PRAGMA journal_mode=WAL");
    exec("PRAGMA synchronous=NORMAL");
    Transaction t(db_);
    exec(kSchema);
    try {
      library::create_schema(db_);
    } catch (const library::LibraryError& e) {
      throw StoreError(file.string() + ": " + e.what());
    }
    Statement version(db_, "SELECT value FROM meta WHERE key = 'schema_version'");
    if (version.step()) {
      const std::string found = version.text(0);
      version.reset();
      if (found == "1") {
        exec(kMigrateFrom1);
        migrated_from_ = 1;
      }
      if (found == "1" || found == "2") {
        fill_library_from_runs();
        exec("UPDATE meta SET value = '3' WHERE key = 'schema_version'");
        if (migrated_from_ == 0) migrated_from_ = 2;
      }
      // (A store made by hand from a newer one may have a column already.)
      const auto has_column = [&](const char* name) {
        Statement columns(db_, "SELECT COUNT(*) FROM pragma_table_info('runs') WHERE name = ?");
        columns.bind({std::string(name)}).step();
        const bool has = columns.integer(0) > 0;
        columns.reset();
        return has;
      };
      if (found == "1" || found == "2" || found == "3") {
        if (!has_column("role_usage")) exec(kMigrateFrom3);
        exec("UPDATE meta SET value = '4' WHERE key = 'schema_version'");
        if (migrated_from_ == 0) migrated_from_ = 3;
      }
      if (found == "1" || found == "2" || found == "3" || found == "4") {
        if (!has_column("phases")) exec(kMigrateFrom4);
        exec("UPDATE meta SET value = '5' WHERE key = 'schema_version'");
        if (migrated_from_ == 0) migrated_from_ = 4;
      }
      if (found == "1" || found == "2" || found == "3" || found == "4" || found == "5") {
        if (!has_column("compiler_baseline_cycles")) exec(kMigrateFrom5);
        exec("UPDATE meta SET value = '6' WHERE key = 'schema_version'");
        if (migrated_from_ == 0) migrated_from_ = 5;
      }
      if (found == "1" || found == "2" || found == "3" || found == "4" || found == "5" || found == "6") {
        if (!has_column("trajectory")) exec(kMigrateFrom6);
        exec("UPDATE meta SET value = '7' WHERE key = 'schema_version'");
        if (migrated_from_ == 0) migrated_from_ = 6;
      } else if (found != std::to_string(kSchemaVersion)) {
        throw StoreError(fmt::format(
            "{}: results schema version {}: this kcraft reads versions 1 to {} (older ones are upgraded in "
            "place); open it with the kcraft that wrote it",
            file.string(), found, kSchemaVersion));
      }
    } else {
      Statement set(db_, "INSERT INTO meta(key, value) VALUES('schema_version', ?)");
      set.bind({std::to_string(kSchemaVersion)}).step();
    }
    t.commit();
  } catch (...) {
    sqlite3_close(db_);
    db_ = nullptr;
    throw;
  }
}

ResultStore::~ResultStore() {
  if (db_ != nullptr) sqlite3_close(db_);
}

void ResultStore::exec(const std::string& sql) const {
  char* err = nullptr;
  if (sqlite3_exec(db_, sql.c_str(), nullptr, nullptr, &err) != SQLITE_OK) {
    std::string msg = err != nullptr ? err : "unknown error";
    sqlite3_free(err);
    throw StoreError(file_.string() + ": " + msg);
  }
}

void ResultStore::begin_sweep(const SweepInfo& s) {
  Statement st(
      db_,
      "INSERT OR REPLACE INTO sweeps(id, started_at, finished_at, status, command, kcraft_version, "
      "git_commit, host, shard, jobs, planned, completed) VALUES(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)");
  st.bind({s.id, s.started_at, s.finished_at, s.status, s.command, s.kcraft_version, s.git_commit, s.host,
           s.shard, int64_t{s.jobs}, static_cast<int64_t>(s.planned), static_cast<int64_t>(s.completed)})
      .step();
}

void ResultStore::end_sweep(const std::string& id, const std::string& status, size_t completed) {
  Statement st(
      db_,
      "UPDATE sweeps SET status = ?, completed = ?, finished_at = strftime('%Y-%m-%dT%H:%M:%SZ', 'now') "
      "WHERE id = ?");
  st.bind({status, static_cast<int64_t>(completed), id}).step();
}

std::vector<SweepInfo> ResultStore::sweeps() const {
  Statement st(
      db_,
      "SELECT id, started_at, finished_at, status, command, kcraft_version, git_commit, host, shard, jobs, "
      "planned, completed FROM sweeps ORDER BY started_at, id");
  std::vector<SweepInfo> out;
  while (st.step()) {
    SweepInfo s;
    s.id = st.text(0);
    s.started_at = st.text(1);
    s.finished_at = st.text(2);
    s.status = st.text(3);
    s.command = st.text(4);
    s.kcraft_version = st.text(5);
    s.git_commit = st.text(6);
    s.host = st.text(7);
    s.shard = st.text(8);
    s.jobs = static_cast<unsigned>(st.integer(9));
    s.planned = static_cast<size_t>(st.integer(10));
    s.completed = static_cast<size_t>(st.integer(11));
    out.push_back(std::move(s));
  }
  return out;
}

void ResultStore::add_plan(const std::vector<PlannedRun>& runs,
                           const std::vector<UnsupportedCell>& unsupported,
                           const std::vector<HardwareRecord>& hardware) {
  Transaction t(db_);
  Statement hw(db_, "INSERT OR IGNORE INTO hardware(id, platform, name, config_json) VALUES(?, ?, ?, ?)");
  for (const auto& h : hardware) hw.bind({h.id, h.platform, h.name, h.config.dump()}).step();
  Statement plan(
      db_, fmt::format("INSERT OR IGNORE INTO plan({}, level) VALUES(?, ?, ?, ?, ?, ?, ?)", kKeyColumns));
  for (const auto& r : runs) {
    auto v = key_values(r.key);
    v.emplace_back(int64_t{r.level});
    plan.bind(v).step();
  }
  Statement uns(db_,
                "INSERT OR IGNORE INTO unsupported(platform, hw_config, task, config, level, reason) "
                "VALUES(?, ?, ?, ?, ?, ?)");
  for (const auto& u : unsupported)
    uns.bind({u.platform, u.hw_config, u.task, u.config, int64_t{u.level}, u.reason}).step();
  t.commit();
}

bool ResultStore::insert_run(const RunRecord& run) {
  static const std::string sql = fmt::format("INSERT OR IGNORE INTO runs({}) VALUES({})", run_column_list(),
                                             placeholders(run_columns().size()));
  Transaction t(db_);
  Statement st(db_, sql);
  st.bind(run_values(run)).step();
  const bool inserted = sqlite3_changes(db_) > 0;
  if (inserted && run.correct() && !run.kernel.empty()) add_to_library(run, run.language);
  t.commit();
  return inserted;
}

size_t ResultStore::delete_failed_jobs(const std::vector<RunKey>& keys) {
  return delete_keys(keys, kErrorStatus);
}

size_t ResultStore::delete_runs(const std::vector<RunKey>& keys) {
  return delete_keys(keys, "");
}

size_t ResultStore::delete_runs_with_status(const std::vector<RunKey>& keys, const std::string& status) {
  return delete_keys(keys, status);
}

size_t ResultStore::delete_keys(const std::vector<RunKey>& keys, const std::string& only_status) {
  Transaction t(db_);
  Statement st(db_, fmt::format("DELETE FROM runs WHERE ({}) = (?, ?, ?, ?, ?, ?) AND (status = ? OR ? = 0)",
                                kKeyColumns));
  size_t deleted = 0;
  for (const auto& k : keys) {
    auto v = key_values(k);
    v.emplace_back(only_status);
    v.emplace_back(int64_t{only_status.empty() ? 0 : 1});
    st.bind(v).step();
    deleted += static_cast<size_t>(sqlite3_changes(db_));
  }
  t.commit();
  return deleted;
}

std::set<RunKey> ResultStore::finished_keys() const {
  Statement st(db_, fmt::format("SELECT {} FROM runs", kKeyColumns));
  std::set<RunKey> keys;
  while (st.step()) keys.insert(key_from(st));
  return keys;
}

std::vector<RunRecord> ResultStore::runs() const {
  Statement st(db_, fmt::format("SELECT {} FROM runs ORDER BY {}", run_column_list(), kKeyColumns));
  std::vector<RunRecord> out;
  while (st.step()) out.push_back(run_from(st));
  return out;
}

std::vector<PlannedRun> ResultStore::plan() const {
  Statement st(db_, fmt::format("SELECT {}, level FROM plan ORDER BY {}", kKeyColumns, kKeyColumns));
  std::vector<PlannedRun> out;
  while (st.step()) out.push_back({key_from(st), static_cast<int>(st.integer(6))});
  return out;
}

std::vector<UnsupportedCell> ResultStore::unsupported() const {
  Statement st(db_,
               "SELECT platform, hw_config, task, config, level, reason FROM unsupported "
               "ORDER BY platform, hw_config, task, config");
  std::vector<UnsupportedCell> out;
  while (st.step()) {
    out.push_back(
        {st.text(0), st.text(1), st.text(2), st.text(3), static_cast<int>(st.integer(4)), st.text(5)});
  }
  return out;
}

std::vector<HardwareRecord> ResultStore::hardware() const {
  Statement st(db_, "SELECT id, platform, name, config_json FROM hardware ORDER BY platform, name, id");
  std::vector<HardwareRecord> out;
  while (st.step()) out.push_back({st.text(0), st.text(1), st.text(2), st.json_value(3, json::object())});
  return out;
}

std::optional<TunedBaseline> ResultStore::tuned_baseline(const TunedBaselineKey& key) const {
  Statement st(db_, fmt::format("SELECT {} FROM tuned_baselines WHERE platform = ? AND hw_config = ? AND "
                                "task = ? AND config = ? AND hardware_id = ? AND git_commit = ? AND "
                                "search_space = ?",
                                kTunedColumns));
  st.bind(tuned_key_values(key));
  if (!st.step()) return std::nullopt;
  return tuned_from(st);
}

std::vector<TunedBaseline> ResultStore::tuned_baselines() const {
  Statement st(db_, fmt::format("SELECT {} FROM tuned_baselines ORDER BY platform, hw_config, task, config, "
                                "computed_at",
                                kTunedColumns));
  std::vector<TunedBaseline> out;
  while (st.step()) out.push_back(tuned_from(st));
  return out;
}

size_t ResultStore::put_tuned_baseline(const TunedBaseline& tb) {
  Transaction t(db_);
  {
    Statement st(db_, fmt::format("INSERT OR IGNORE INTO tuned_baselines({}) VALUES({})", kTunedColumns,
                                  placeholders(16)));
    auto v = tuned_key_values(tb.key);
    const std::vector<Value> rest = {static_cast<int64_t>(tb.cycles),
                                     static_cast<int64_t>(tb.baseline_cycles),
                                     int64_t{tb.budget},
                                     int64_t{tb.iterations},
                                     tb.kernel,
                                     tb.source,
                                     tb.transcript,
                                     tb.computed_at,
                                     tb.seconds};
    v.insert(v.end(), rest.begin(), rest.end());
    st.bind(v).step();
  }
  // The first tuned baseline stored for a key is the one that counts (a concurrent writer may have won).
  const auto stored = tuned_baseline(tb.key);
  const uint64_t cycles = stored ? stored->cycles : tb.cycles;
  // Runs of the cell measured by the same kcraft on the same hardware get their speedup over it; runs of
  // another commit are left alone (their cycles may come from other RTL).
  Statement fill(db_,
                 "UPDATE runs SET tuned_baseline_cycles = ?1, tuned_speedup = CASE WHEN verdict = 'pass' AND "
                 "cycles > 0 AND ?1 > 0 THEN CAST(?1 AS REAL) / cycles ELSE 0 END WHERE platform = ?2 AND "
                 "hw_config = ?3 AND task = ?4 AND config = ?5 AND hardware_id = ?6 AND git_commit = ?7 AND "
                 "tuned_baseline_cycles IS NULL");
  fill.bind({static_cast<int64_t>(cycles), tb.key.platform, tb.key.hw_config, tb.key.task, tb.key.config,
             tb.key.hardware_id, tb.key.git_commit})
      .step();
  const auto filled = static_cast<size_t>(sqlite3_changes(db_));
  t.commit();
  return filled;
}

MergeStats ResultStore::merge_from(const std::filesystem::path& other) {
  if (!std::filesystem::is_regular_file(other))
    throw StoreError(other.string() + ": no such results database");
  if (std::filesystem::equivalent(other, file_))
    throw StoreError(other.string() + ": cannot merge a database into itself");
  MergeStats stats;
  int source_version = kSchemaVersion;
  {
    Statement attach(db_, "ATTACH DATABASE ? AS src");
    attach.bind({other.string()}).step();
  }
  try {
    {
      std::string version;
      try {
        Statement st(db_, "SELECT value FROM src.meta WHERE key = 'schema_version'");
        if (st.step()) version = st.text(0);
      } catch (const StoreError&) {
      }
      if (version.empty()) throw StoreError(other.string() + ": not a kcraft results database");
      if (version != "1" && version != "2" && version != "3" && version != "4" && version != "5" &&
          version != "6" && version != std::to_string(kSchemaVersion)) {
        throw StoreError(fmt::format("{}: results schema version {}: this kcraft reads versions 1 to {}",
                                     other.string(), version, kSchemaVersion));
      }
      source_version = std::stoi(version);
    }
    Transaction t(db_);
    const std::string keys = kKeyColumns;
    const std::string join_on =
        "m.platform = s.platform AND m.hw_config = s.hw_config AND m.task = s.task AND m.config = s.config "
        "AND "
        "m.agent = s.agent AND m.attempt = s.attempt";
    {
      Statement dup(db_,
                    "SELECT COUNT(*), COALESCE(SUM(m.verdict != s.verdict OR m.cycles != s.cycles), 0) "
                    "FROM src.runs s JOIN main.runs m ON " +
                        join_on);
      dup.step();
      stats.runs_already_present = static_cast<size_t>(dup.integer(0));
      stats.runs_conflicting = static_cast<size_t>(dup.integer(1));
    }
    exec(
        "INSERT OR IGNORE INTO main.sweeps SELECT id, started_at, finished_at, status, command, "
        "kcraft_version, "
        "git_commit, host, shard, jobs, planned, completed FROM src.sweeps");
    exec("INSERT OR IGNORE INTO main.hardware SELECT id, platform, name, config_json FROM src.hardware");
    exec(fmt::format("INSERT OR IGNORE INTO main.plan SELECT {}, level FROM src.plan", keys));
    exec(
        "INSERT OR IGNORE INTO main.unsupported SELECT platform, hw_config, task, config, level, reason "
        "FROM src.unsupported");
    // A version-1 store has no tuned baselines: its runs keep NULL in the tuned columns.
    const std::string cols = run_column_list(source_version);
    exec(fmt::format("INSERT OR IGNORE INTO main.runs({}) SELECT {} FROM src.runs", cols, cols));
    stats.runs_added = static_cast<size_t>(sqlite3_changes(db_));
    if (source_version >= 2) {
      exec(fmt::format("INSERT OR IGNORE INTO main.tuned_baselines({}) SELECT {} FROM src.tuned_baselines",
                       kTunedColumns, kTunedColumns));
    }
    // The kernel library: a version-3 source brings its own (kernels from `kcraft agent` runs too); an
    // older one's passing runs are added as the upgrade would have.
    if (source_version >= 3) {
      exec(library::copy_kernels_sql("src"));
    } else {
      fill_library_from_runs();
    }
    // A shard's runs may lack the tuned baseline another shard computed (its tuner run was there).
    exec(kFillFromTunedBaselines);
    t.commit();
  } catch (...) {
    sqlite3_exec(db_, "DETACH DATABASE src", nullptr, nullptr, nullptr);
    throw;
  }
  exec("DETACH DATABASE src");
  return stats;
}

void ResultStore::add_to_library(const RunRecord& run, const std::string& language) {
  library::KernelEntry e;
  e.platform = run.key.platform;
  e.hw_config = run.key.hw_config;
  e.task = run.key.task;
  e.config = run.key.config;
  e.cycles = run.cycles;
  e.agent = run.key.agent;
  e.language = language;
  e.source = run.kernel;
  e.git_commit = run.git_commit;
  e.recorded_at = run.finished_at;
  try {
    library::insert_kernel(db_, e);
  } catch (const library::LibraryError& err) {
    throw StoreError(file_.string() + ": " + err.what());
  }
}

void ResultStore::fill_library_from_runs() {
  // Runs stored before the library kept no language: "" is the platform's default, which is what every
  // kernel was written in then.
  Statement st(db_, fmt::format("SELECT {}, cycles, kernel, git_commit, finished_at FROM main.runs "
                                "WHERE verdict = 'pass' AND kernel IS NOT NULL AND kernel != ''",
                                kKeyColumns));
  while (st.step()) {
    RunRecord r;
    r.key = key_from(st);
    r.cycles = static_cast<uint64_t>(st.integer(6));
    r.kernel = st.text(7);
    r.git_commit = st.text(8);
    r.finished_at = st.text(9);
    add_to_library(r, "");
  }
}

std::vector<library::KernelEntry> ResultStore::kernels() const {
  Statement st(db_, fmt::format("SELECT {} FROM kernels ORDER BY id", library::kKernelColumns));
  std::vector<library::KernelEntry> out;
  while (st.step()) {
    out.push_back({st.text(0), st.text(1), st.text(2), st.text(3), static_cast<uint64_t>(st.integer(4)),
                   st.text(5), st.text(6), st.text(7), st.text(8), st.text(9), st.text(10)});
  }
  return out;
}

}  // namespace kcraft::bench
