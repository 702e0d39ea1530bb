// The evaluation cache: an evaluation is a pure function of the kernel's bytes (and file name), the task
// (its spec file), the configuration, the seed, the hardware configuration (every build and runtime
// parameter), the simulated model's build and kcraft's version (the platform's evaluation identity,
// tb/common/eval_identity.h: its RTL, ISA, testbench and the shared evaluation code, the compiler, the
// Verilator version and options), the platform's external tools (Platform::toolchain_identity) and the
// request's cycle cap and model check. Its result is kept under a SHA-256 of exactly that, in the
// `evaluations` table of a results store, so that no sweep, tuner or `kcraft eval` simulates the same
// thing twice. docs/bench.md, "The evaluation cache".
//
// Not cached: requests for a waveform, an instruction trace or a timeline (their output goes elsewhere),
// input errors (they depend on the data root's files, and cost nothing), and results the platform marks
// not cacheable (EvalReport::cacheable: an external tool timed out).
#pragma once

#include <cstdint>
#include <filesystem>
#include <memory>
#include <mutex>
#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include "isa/common/hw_config.h"
#include "tasks/common/task_spec.h"
#include "tb/common/evaluation.h"

struct sqlite3;

namespace kcraft::agent {

// What a cache did in this process.
struct EvalCacheStats {
  uint64_t hits = 0;
  uint64_t misses = 0;    // simulated, then stored
  uint64_t uncached = 0;  // requests or results the cache does not keep
};

class EvalCache {
 public:
  // Opens (creating if needed) the database and its `evaluations` table; throws std::runtime_error naming
  // the file. Several processes may use one database at once (SQLite WAL).
  explicit EvalCache(const std::filesystem::path& db);
  ~EvalCache();
  EvalCache(const EvalCache&) = delete;
  EvalCache& operator=(const EvalCache&) = delete;

  const std::filesystem::path& file() const { return file_; }

  // The stored result of `key`, or nullopt.
  std::optional<EvalReport> find(const std::string& key);
  // Stores a result (over an earlier one of the same key: both are the same by construction).
  void put(const std::string& key, const EvalReport& report);
  // Stored results.
  uint64_t size();

  // Platform::evaluate through the cache: a stored result when there is one (cache = "hit"), else the
  // evaluation, stored when it may be (cache = "miss").
  EvalReport evaluate(const EvalRequest& request, const tasks::TaskRegistry& tasks);

  EvalCacheStats stats() const;

 private:
  std::filesystem::path file_;
  sqlite3* db_ = nullptr;
  mutable std::mutex mutex_;
  EvalCacheStats stats_;
};

// The key of a request: 64 hex digits; "" when the request is not cached (a waveform, trace or timeline
// is asked for, or the platform, task or hardware configuration is unknown).
std::string evaluation_key(const EvalRequest& request, const tasks::TaskRegistry& tasks);

// What, besides the request, the key covers: looked up from the registry by evaluation_key_material().
struct EvalKeyContext {
  std::string identity;   // tb::eval_identity(platform)
  std::string toolchain;  // Platform::toolchain_identity()
  HwConfig hw;            // the hardware configuration, every build and runtime parameter
  std::string task_spec;  // the task's spec file, as text
};
// What the key hashes, as JSON; null when the request is not cached.
nlohmann::json evaluation_key_material(const EvalRequest& request, const tasks::TaskRegistry& tasks);
nlohmann::json evaluation_key_material(const EvalRequest& request, const EvalKeyContext& context);

// A report as the cache stores it, every field but the trace and the timeline, losslessly; and back.
nlohmann::json report_to_cache_json(const EvalReport& report);
EvalReport report_from_cache_json(const nlohmann::json& json);

// The process's cache, used by the agent tools (run_eval), scoring and the tuner: bench workers open the
// sweep's results store, `kcraft agent` and `kcraft eval` theirs. An empty path turns it off.
void use_evaluation_cache(const std::filesystem::path& db);
EvalCache* evaluation_cache();

// Platform::evaluate through the process's cache, or directly when there is none.
EvalReport evaluate(const EvalRequest& request, const tasks::TaskRegistry& tasks);

// SHA-256 of `data` as 64 hex digits (OpenSSL).
std::string sha256_hex(const std::string& data);

}  // namespace kcraft::agent
