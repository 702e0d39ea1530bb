#include "agent/common/eval_cache.h"

#include <openssl/evp.h>
#include <sqlite3.h>

#include <fmt/format.h>

#include <chrono>
#include <ctime>
#include <fstream>
#include <sstream>
#include <stdexcept>

#include "tasks/common/compare.h"
#include "tb/common/eval_identity.h"
#include "tb/common/platform.h"

namespace kcraft::agent {

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

// Changes whenever the key material or the stored report's form changes: old entries then miss.
constexpr int kCacheFormat = 1;

std::string file_text(const fs::path& file) {
  std::ifstream in(file, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

json ideal_json(const IdealCycles& i) {
  return {{"dram", i.dram},
          {"matrix", i.matrix},
          {"vector", i.vector},
          {"attainable", i.attainable},
          {"attainable_bound", i.attainable_bound},
          {"attainable_why", i.attainable_why}};
}

IdealCycles ideal_from_json(const json& j) {
  IdealCycles i;
  i.dram = j.at("dram").get<double>();
  i.matrix = j.at("matrix").get<double>();
  i.vector = j.at("vector").get<double>();
  i.attainable = j.at("attainable").get<double>();
  i.attainable_bound = j.at("attainable_bound").get<std::string>();
  i.attainable_why = j.at("attainable_why").get<std::string>();
  return i;
}

class Statement {
 public:
  Statement(sqlite3* db, const char* sql) : db_(db) {
    if (sqlite3_prepare_v2(db, sql, -1, &stmt_, nullptr) != SQLITE_OK)
      throw std::runtime_error(std::string("evaluation cache: ") + sqlite3_errmsg(db));
  }
  ~Statement() { sqlite3_finalize(stmt_); }
  Statement(const Statement&) = delete;
  Statement& operator=(const Statement&) = delete;
  void bind(int i, const std::string& text) {
    sqlite3_bind_text(stmt_, i, text.data(), static_cast<int>(text.size()), SQLITE_TRANSIENT);
  }
  void bind(int i, int64_t value) { sqlite3_bind_int64(stmt_, i, value); }
  int step() {
    const int rc = sqlite3_step(stmt_);
    if (rc != SQLITE_ROW && rc != SQLITE_DONE)
      throw std::runtime_error(std::string("evaluation cache: ") + sqlite3_errmsg(db_));
    return rc;
  }
  std::string text(int column) const {
    const auto* p = sqlite3_column_text(stmt_, column);
    return p ? std::string(reinterpret_cast<const char*>(p),
                           static_cast<size_t>(sqlite3_column_bytes(stmt_, column)))
             : std::string();
  }
  int64_t integer(int column) const { return sqlite3_column_int64(stmt_, column); }

 private:
  sqlite3* db_;
  sqlite3_stmt* stmt_ = nullptr;
};

std::string utc_now() {
  const std::time_t t = std::time(nullptr);
  std::tm tm{};
  gmtime_r(&t, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return buf;
}

}  // namespace

std::string sha256_hex(const std::string& data) {
  unsigned char digest[EVP_MAX_MD_SIZE];
  unsigned int length = 0;
  if (EVP_Digest(data.data(), data.size(), digest, &length, EVP_sha256(), nullptr) != 1)
    throw std::runtime_error("SHA-256 failed (OpenSSL)");
  std::string hex;
  for (unsigned int i = 0; i < length; ++i) hex += fmt::format("{:02x}", digest[i]);
  return hex;
}

// ---- the key

json evaluation_key_material(const EvalRequest& r, const tasks::TaskRegistry& tasks) {
  if (!r.waveform_path.empty() || r.instruction_trace || r.timeline) return nullptr;
  const Platform* p = find_platform(r.platform);
  if (p == nullptr) return nullptr;
  EvalKeyContext context;
  context.identity = tb::eval_identity(r.platform);
  if (context.identity.empty()) return nullptr;  // a platform registered at run time (tests): no identity
  try {
    context.hw = p->hw_config(r.hw_config);
    context.task_spec = file_text(tasks.get(r.task).file);
  } catch (const std::exception&) {
    return nullptr;  // an input error: evaluate reports it
  }
  context.toolchain = p->toolchain_identity();
  return evaluation_key_material(r, context);
}

json evaluation_key_material(const EvalRequest& r, const EvalKeyContext& c) {
  if (!r.waveform_path.empty() || r.instruction_trace || r.timeline) return nullptr;
  json material = {{"format", kCacheFormat},
                   {"platform", r.platform},
                   {"identity", c.identity},
                   {"toolchain", c.toolchain},
                   {"hw", {{"name", c.hw.name}, {"build", c.hw.build}, {"runtime", c.hw.runtime}}},
                   {"task", r.task},
                   {"task_spec", sha256_hex(c.task_spec)},
                   {"config", r.config},
                   {"seed", r.seed},
                   {"cycle_cap", r.cycle_cap},
                   {"check_model", r.check_model},
                   {"filename", r.filename},
                   {"source", r.source}};
  // Only when set: every key made before the ceiling existed (and every run without one) stays the same.
  if (r.max_cycles != 0) material["max_cycles"] = r.max_cycles;
  return material;
}

std::string evaluation_key(const EvalRequest& request, const tasks::TaskRegistry& tasks) {
  const json material = evaluation_key_material(request, tasks);
  return material.is_null() ? std::string() : sha256_hex(material.dump());
}

// ---- the stored form of a report

json report_to_cache_json(const EvalReport& r) {
  json counters = json::array();
  for (const auto& c : r.counters) counters.push_back({c.name, c.value});
  json phases = json::array();
  for (const auto& p : r.phases)
    phases.push_back({{"name", p.name}, {"cycles", p.cycles}, {"marks", p.marks}});
  json j = {{"verdict", verdict_name(r.verdict)},
            {"headline", r.headline},
            {"platform", r.platform},
            {"hw_config", r.hw_config},
            {"task", r.task},
            {"config", r.config},
            {"seed", r.seed},
            {"diagnostics", r.diagnostics},
            {"errors", r.errors},
            {"warnings", r.warnings},
            {"instruction_count", r.instruction_count},
            {"cycles", r.cycles},
            {"counters", std::move(counters)},
            {"ideal", ideal_json(r.ideal)},
            {"utilization", tasks::json_number(r.utilization)},
            {"attainable_utilization", tasks::json_number(r.attainable_utilization)},
            {"runtime_error", r.runtime_error},
            {"error_pc", r.error_pc ? json(*r.error_pc) : json(nullptr)},
            {"hang", r.hang},
            {"model_check", r.model_check},
            {"compare", r.compare ? tasks::to_json(*r.compare) : json(nullptr)},
            {"phases", std::move(phases)},
            {"unmarked_cycles", r.unmarked_cycles},
            {"wall_seconds", r.wall_seconds}};
  return j;
}

EvalReport report_from_cache_json(const json& j) {
  EvalReport r;
  r.verdict = verdict_from_name(j.at("verdict").get<std::string>());
  r.headline = j.at("headline").get<std::string>();
  r.platform = j.at("platform").get<std::string>();
  r.hw_config = j.at("hw_config").get<std::string>();
  r.task = j.at("task").get<std::string>();
  r.config = j.at("config").get<std::string>();
  r.seed = j.at("seed").get<uint64_t>();
  r.diagnostics = j.at("diagnostics").get<std::string>();
  r.errors = j.at("errors").get<size_t>();
  r.warnings = j.at("warnings").get<size_t>();
  r.instruction_count = j.at("instruction_count").get<size_t>();
  r.cycles = j.at("cycles").get<uint64_t>();
  for (const auto& c : j.at("counters"))
    r.counters.push_back(CounterValue{c.at(0).get<std::string>(), c.at(1).get<uint64_t>()});
  r.ideal = ideal_from_json(j.at("ideal"));
  r.utilization = tasks::number_from_json(j.at("utilization"));
  r.attainable_utilization = tasks::number_from_json(j.at("attainable_utilization"));
  r.runtime_error = j.at("runtime_error").get<std::string>();
  if (!j.at("error_pc").is_null()) r.error_pc = j.at("error_pc").get<uint32_t>();
  r.hang = j.at("hang").get<std::string>();
  r.model_check = j.at("model_check").get<std::string>();
  if (!j.at("compare").is_null()) r.compare = tasks::task_compare_result_from_json(j.at("compare"));
  for (const auto& p : j.at("phases")) {
    r.phases.push_back(PhaseCycles{p.at("name").get<std::string>(), p.at("cycles").get<uint64_t>(),
                                   p.at("marks").get<unsigned>()});
  }
  r.unmarked_cycles = j.at("unmarked_cycles").get<uint64_t>();
  r.wall_seconds = j.at("wall_seconds").get<double>();
  return r;
}

// ---- the store

EvalCache::EvalCache(const fs::path& db) : file_(db) {
  if (db.has_parent_path()) fs::create_directories(db.parent_path());
  if (sqlite3_open_v2(db.c_str(), &db_, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, nullptr) != SQLITE_OK) {
    const std::string why = db_ ? sqlite3_errmsg(db_) : "out of memory";
    sqlite3_close(db_);
    throw std::runtime_error(fmt::format("cannot open the evaluation cache {}: {}", db.string(), why));
  }
  sqlite3_busy_timeout(db_, 60000);
  const char* setup =
      "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;"
      "CREATE TABLE IF NOT EXISTS evaluations ("
      " key TEXT PRIMARY KEY, platform TEXT NOT NULL, hw_config TEXT NOT NULL, task TEXT NOT NULL,"
      " config TEXT NOT NULL, seed INTEGER NOT NULL, verdict TEXT NOT NULL, cycles INTEGER NOT NULL,"
      " identity TEXT NOT NULL, report TEXT NOT NULL, created_at TEXT NOT NULL)";
  char* error = nullptr;
  if (sqlite3_exec(db_, setup, nullptr, nullptr, &error) != SQLITE_OK) {
    const std::string why = error ? error : "unknown error";
    sqlite3_free(error);
    sqlite3_close(db_);
    db_ = nullptr;
    throw std::runtime_error(fmt::format("cannot use {} as an evaluation cache: {}", db.string(), why));
  }
}

EvalCache::~EvalCache() {
  sqlite3_close(db_);
}

std::optional<EvalReport> EvalCache::find(const std::string& key) {
  std::lock_guard<std::mutex> lock(mutex_);
  Statement s(db_, "SELECT report FROM evaluations WHERE key = ?");
  s.bind(1, key);
  if (s.step() != SQLITE_ROW) return std::nullopt;
  try {
    return report_from_cache_json(json::parse(s.text(0)));
  } catch (const std::exception&) {
    return std::nullopt;  // an entry this kcraft cannot read is a miss; put() replaces it
  }
}

void EvalCache::put(const std::string& key, const EvalReport& r) {
  std::lock_guard<std::mutex> lock(mutex_);
  Statement s(
      db_,
      "INSERT OR REPLACE INTO evaluations (key, platform, hw_config, task, config, seed, verdict, cycles,"
      " identity, report, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)");
  s.bind(1, key);
  s.bind(2, r.platform);
  s.bind(3, r.hw_config);
  s.bind(4, r.task);
  s.bind(5, r.config);
  s.bind(6, static_cast<int64_t>(r.seed));
  s.bind(7, std::string(verdict_name(r.verdict)));
  s.bind(8, static_cast<int64_t>(r.cycles));
  s.bind(9, tb::eval_identity(r.platform));
  s.bind(10, report_to_cache_json(r).dump());
  s.bind(11, utc_now());
  s.step();
}

uint64_t EvalCache::size() {
  std::lock_guard<std::mutex> lock(mutex_);
  Statement s(db_, "SELECT COUNT(*) FROM evaluations");
  s.step();
  return static_cast<uint64_t>(s.integer(0));
}

EvalCacheStats EvalCache::stats() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return stats_;
}

EvalReport EvalCache::evaluate(const EvalRequest& request, const tasks::TaskRegistry& tasks) {
  const std::string key = evaluation_key(request, tasks);
  if (!key.empty()) {
    if (auto stored = find(key)) {
      stored->cache = "hit";
      std::lock_guard<std::mutex> lock(mutex_);
      ++stats_.hits;
      return std::move(*stored);
    }
  }
  EvalReport report = platform(request.platform).evaluate(request, tasks);
  if (key.empty() || !report.cacheable || report.verdict == Verdict::kInputError) {
    std::lock_guard<std::mutex> lock(mutex_);
    ++stats_.uncached;
    return report;
  }
  put(key, report);
  report.cache = "miss";
  std::lock_guard<std::mutex> lock(mutex_);
  ++stats_.misses;
  return report;
}

// ---- the process's cache

namespace {
std::mutex process_cache_mutex;
std::unique_ptr<EvalCache>& process_cache() {
  static std::unique_ptr<EvalCache> cache;
  return cache;
}
}  // namespace

void use_evaluation_cache(const fs::path& db) {
  std::lock_guard<std::mutex> lock(process_cache_mutex);
  auto& cache = process_cache();
  if (db.empty()) {
    cache.reset();
  } else if (!cache || fs::absolute(cache->file()) != fs::absolute(db)) {
    cache = std::make_unique<EvalCache>(db);
  }
}

EvalCache* evaluation_cache() {
  std::lock_guard<std::mutex> lock(process_cache_mutex);
  return process_cache().get();
}

EvalReport evaluate(const EvalRequest& request, const tasks::TaskRegistry& tasks) {
  if (EvalCache* cache = evaluation_cache()) return cache->evaluate(request, tasks);
  return platform(request.platform).evaluate(request, tasks);
}

}  // namespace kcraft::agent
