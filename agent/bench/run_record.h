// The records a benchmark sweep produces: what one run is (its key), what was planned, and the
// result of one run as the results store keeps it.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <tuple>
#include <vector>

#include <nlohmann/json.hpp>

namespace kcraft::bench {

// One run: an agent's attempt at one task configuration on one platform's hardware configuration.
struct RunKey {
  std::string platform;
  std::string hw_config;
  std::string task;
  std::string config;
  std::string agent;
  unsigned attempt = 1;  // 1-based

  std::string target() const { return platform + "/" + hw_config; }  // "<platform>/default"
  std::string id() const;  // "<platform>/default/gemm/C1/tuner/1": stable, used for sharding and paths
  auto tie() const { return std::tie(platform, hw_config, task, config, agent, attempt); }
  bool operator<(const RunKey& o) const { return tie() < o.tie(); }
  bool operator==(const RunKey& o) const { return tie() == o.tie(); }
  nlohmann::json to_json() const;
  static RunKey from_json(const nlohmann::json& j);
};

struct PlannedRun {
  RunKey key;
  int level = 1;
};

// A (target, task, configuration) the platform cannot run: shown as "--" in the tables.
struct UnsupportedCell {
  std::string platform, hw_config, task, config;
  int level = 1;
  std::string reason;
};

// A hardware configuration as the runs used it: its YAML converted to JSON, identified by a hash of it.
struct HardwareRecord {
  std::string id;  // 16 hex digits, FNV-1a of config_json
  std::string platform, name;
  nlohmann::json config;
};

// The verdict of a run whose job failed (worker crash, timeout, exception): not a kernel verdict.
inline constexpr const char* kErrorVerdict = "error";
inline constexpr const char* kErrorStatus = "error";

// What a run's model calls cost (cost.h, price_runs): derived from its tokens and the prices its settings
// carry (or a price table given to the report), never stored.
struct RunCost {
  bool applies = false;       // an LLM agent's run with its usage recorded (not a failed job, not offline)
  std::optional<double> usd;  // nullopt: a model it called has no prices
  std::map<std::string, double> roles;       // USD per workflow role that called a model, when priced
  std::vector<std::string> unpriced_models;  // the models it called without prices
};

struct RunRecord {
  RunKey key;
  int level = 1;
  std::string
      status;  // the agent's: submitted | budget_exhausted | token_cap | provider_error | no_kernel; or error
  std::string error;                    // why the agent stopped early, or why the job failed
  std::string verdict = kErrorVerdict;  // on the hidden seeds: pass | mismatch | build_error | ... | error
  nlohmann::json seed_verdicts = nlohmann::json::array();
  uint64_t cycles = 0;           // first hidden seed
  uint64_t baseline_cycles = 0;  // the template compiler's kernel on the same inputs (0: none)
  double speedup = 0;            // baseline_cycles / cycles for a correct kernel with a baseline, else 0
  double utilization = 0;        // ideal (roofline) cycles / cycles
  // The platform's compiler baseline (tasks::BaselineCompiler::compiler_baseline) on the same inputs, and
  // the speedup over it; 0: the platform has none, or the run is not correct.
  uint64_t compiler_baseline_cycles = 0;
  double compiler_speedup = 0;
  // A correct run whose compiler baseline the sweep did not simulate (`--compiler-baseline`: the cell's
  // cycles come from the evaluation cache only, and it had none); its compiler_* fields are then 0.
  bool compiler_baseline_not_simulated = false;
  // The autotuned baseline (tuned_baseline.h) of the run's cell, once known; nullopt: not known (yet).
  // 0: the tuner found no kernel correct on the hidden seeds.
  std::optional<uint64_t> tuned_baseline_cycles;
  double tuned_speedup = 0;  // tuned_baseline_cycles / cycles for a correct kernel, else 0
  unsigned iterations = 0;
  unsigned budget = 0;
  std::optional<unsigned> first_valid_iteration;
  std::optional<unsigned> first_pass_iteration;
  unsigned evaluations = 0;
  uint64_t prompt_tokens = 0, completion_tokens = 0, reasoning_tokens = 0, cached_prompt_tokens = 0;
  // Per role of an LLM workflow: {"<role>": {steps, calls, prompt_tokens, completion_tokens,
  // reasoning_tokens, cached_prompt_tokens}}; empty for the offline agents.
  nlohmann::json roles = nlohmann::json::object();
  double agent_seconds = 0;                            // the agent's own wall time
  double job_seconds = 0;                              // dispatch to result, as the sweep saw it
  nlohmann::json counters = nlohmann::json::object();  // a correct kernel's counters on the first hidden seed
  uint64_t dev_seed = 1;
  std::string kernel;      // the submitted kernel
  std::string language;    // its KernelLanguage::name ("" = the platform's default); kept in the library
  std::string transcript;  // JSONL transcript path
  std::string kcraft_version, git_commit;
  std::string hardware_id;
  nlohmann::json agent_settings = nlohmann::json::object();
  std::string sweep_id, host, finished_at;
  int64_t worker_pid = 0;
  // A search candidate's evaluation (JobSpec agent_kind candidate): the tool calls made on it, each
  // {name, arguments, text, is_error, data}. Empty for every other run (and not kept in the store).
  nlohmann::json evaluation = nlohmann::json::array();
  // Cycles per phase of a composite kernel (tasks with phases, passing runs): {"unmarked_cycles": n,
  // "phases": [{"name", "cycles", "marks"}]} from the first hidden seed's run; {} otherwise.
  nlohmann::json phases = nlohmann::json::object();
  // Per iteration of the run, from its transcript (curves.h, RunProgress): [{iteration, tokens, passed,
  // best_cycles}], `tokens` the prompt + completion tokens spent up to and including that iteration,
  // `passed` whether a development-seed run_eval has passed by then, `best_cycles` the fewest cycles of such
  // a passing evaluation so far (0: none). null: not recorded (runs stored before schema 7, candidates).
  nlohmann::json trajectory = nullptr;
  // The job's evaluations through the evaluation cache (agent/common/eval_cache.h): simulated, and taken
  // from the cache. Reported by the worker for the sweep's totals; not kept in the store.
  uint64_t evaluations_simulated = 0, evaluations_cached = 0;
  // Filled by price_runs (cost.h) for reports; not kept in the store. In to_json as cost_usd.
  RunCost cost;

  bool correct() const { return verdict == "pass"; }
  bool failed_job() const { return status == kErrorStatus; }
  uint64_t tokens() const { return prompt_tokens + completion_tokens; }
  void set_tuned_baseline(uint64_t tuned_cycles);  // fills tuned_baseline_cycles and tuned_speedup
  nlohmann::json to_json() const;
  static RunRecord from_json(const nlohmann::json& j);
};

// A record for a run whose job never produced a result.
RunRecord error_record(const RunKey& key, int level, const std::string& reason);

// FNV-1a, 64 bits: stable across compilers, platforms and runs.
uint64_t stable_hash(const std::string& text);

}  // namespace kcraft::bench
