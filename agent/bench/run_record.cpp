#include "agent/bench/run_record.h"

#include <fmt/format.h>

#include <limits>
#include <stdexcept>
#include <type_traits>

namespace kcraft::bench {

using nlohmann::json;

namespace {

json optional_json(const std::optional<unsigned>& v) {
  return v ? json(*v) : json(nullptr);
}

// A whole number of type T from a record read back from outside (a report file): nlohmann's get<T>() casts
// a float or an out-of-range number without a check (undefined behaviour for a float too big for T).
template <typename T>
T whole_number(const json& value, const char* field) {
  const auto range = [&] {
    return fmt::format("\"{}\" must be a whole number from {} to {}", field, std::numeric_limits<T>::min(),
                       std::numeric_limits<T>::max());
  };
  if (value.is_number_unsigned()) {
    const uint64_t v = value.get<uint64_t>();
    if (v > static_cast<uint64_t>(std::numeric_limits<T>::max())) throw std::runtime_error(range());
    return static_cast<T>(v);
  }
  if (value.is_number_integer()) {
    const int64_t v = value.get<int64_t>();
    if constexpr (std::is_unsigned_v<T>) {
      throw std::runtime_error(range());
    } else {
      if (v < static_cast<int64_t>(std::numeric_limits<T>::min()) ||
          v > static_cast<int64_t>(std::numeric_limits<T>::max())) {
        throw std::runtime_error(range());
      }
      return static_cast<T>(v);
    }
  }
  throw std::runtime_error(range() + ", not " + value.dump(-1, ' ', false, json::error_handler_t::replace));
}

template <typename T>
T whole_number_or(const json& j, const char* field, T fallback) {
  if (!j.contains(field)) return fallback;
  return whole_number<T>(j.at(field), field);
}

std::optional<unsigned> optional_from(const json& j, const char* field) {
  if (!j.contains(field) || j.at(field).is_null()) return std::nullopt;
  return whole_number<unsigned>(j.at(field), field);
}

}  // namespace

uint64_t stable_hash(const std::string& text) {
  uint64_t h = 1469598103934665603ull;
  for (unsigned char c : text) {
    h ^= c;
    h *= 1099511628211ull;
  }
  return h;
}

std::string RunKey::id() const {
  return fmt::format("{}/{}/{}/{}/{}/{}", platform, hw_config, task, config, agent, attempt);
}

json RunKey::to_json() const {
  return {{"platform", platform}, {"hw_config", hw_config}, {"task", task},
          {"config", config},     {"agent", agent},         {"attempt", attempt}};
}

RunKey RunKey::from_json(const json& j) {
  RunKey k;
  k.platform = j.at("platform").get<std::string>();
  k.hw_config = j.at("hw_config").get<std::string>();
  k.task = j.at("task").get<std::string>();
  k.config = j.at("config").get<std::string>();
  k.agent = j.at("agent").get<std::string>();
  k.attempt = whole_number<unsigned>(j.at("attempt"), "attempt");
  return k;
}

void RunRecord::set_tuned_baseline(uint64_t tuned_cycles) {
  tuned_baseline_cycles = tuned_cycles;
  tuned_speedup = correct() && cycles > 0 && tuned_cycles > 0
                      ? static_cast<double>(tuned_cycles) / static_cast<double>(cycles)
                      : 0;
}

json RunRecord::to_json() const {
  json j = key.to_json();
  j.update({{"level", level},
            {"status", status},
            {"error", error},
            {"verdict", verdict},
            {"seed_verdicts", seed_verdicts},
            {"cycles", cycles},
            {"baseline_cycles", baseline_cycles},
            {"speedup", speedup},
            {"utilization", utilization},
            {"compiler_baseline_cycles", compiler_baseline_cycles},
            {"compiler_speedup", compiler_speedup},
            {"compiler_baseline_not_simulated", compiler_baseline_not_simulated},
            {"tuned_baseline_cycles", tuned_baseline_cycles ? json(*tuned_baseline_cycles) : json(nullptr)},
            {"tuned_speedup", tuned_baseline_cycles ? json(tuned_speedup) : json(nullptr)},
            {"iterations", iterations},
            {"budget", budget},
            {"first_valid_iteration", optional_json(first_valid_iteration)},
            {"first_pass_iteration", optional_json(first_pass_iteration)},
            {"evaluations", evaluations},
            {"prompt_tokens", prompt_tokens},
            {"completion_tokens", completion_tokens},
            {"reasoning_tokens", reasoning_tokens},
            {"cached_prompt_tokens", cached_prompt_tokens},
            {"roles", roles},
            {"agent_seconds", agent_seconds},
            {"job_seconds", job_seconds},
            {"counters", counters},
            {"dev_seed", dev_seed},
            {"kernel", kernel},
            {"language", language},
            {"transcript", transcript},
            {"kcraft_version", kcraft_version},
            {"git_commit", git_commit},
            {"hardware_id", hardware_id},
            {"agent_settings", agent_settings},
            {"sweep_id", sweep_id},
            {"host", host},
            {"finished_at", finished_at},
            {"worker_pid", worker_pid},
            {"trajectory", trajectory}});
  if (!evaluation.empty()) j["evaluation"] = evaluation;
  if (!phases.empty()) j["phases"] = phases;
  if (evaluations_simulated || evaluations_cached)
    j["eval_cache"] = {{"simulated", evaluations_simulated}, {"cached", evaluations_cached}};
  // Reports only (price_runs): null when a model it called has no prices, never 0 for "not known".
  if (cost.applies) {
    j["cost_usd"] = cost.usd ? json(*cost.usd) : json(nullptr);
    if (!cost.roles.empty()) j["role_cost_usd"] = cost.roles;
    if (!cost.unpriced_models.empty()) j["unpriced_models"] = cost.unpriced_models;
  }
  return j;
}

RunRecord RunRecord::from_json(const json& j) {
  RunRecord r;
  r.key = RunKey::from_json(j);
  r.level = whole_number_or(j, "level", 1);
  r.status = j.value("status", "");
  r.error = j.value("error", "");
  r.verdict = j.value("verdict", kErrorVerdict);
  r.seed_verdicts = j.value("seed_verdicts", json::array());
  r.cycles = whole_number_or(j, "cycles", uint64_t{0});
  r.baseline_cycles = whole_number_or(j, "baseline_cycles", uint64_t{0});
  r.speedup = j.value("speedup", 0.0);
  r.utilization = j.value("utilization", 0.0);
  r.compiler_baseline_cycles = whole_number_or(j, "compiler_baseline_cycles", uint64_t{0});
  r.compiler_speedup = j.value("compiler_speedup", 0.0);
  r.compiler_baseline_not_simulated = j.value("compiler_baseline_not_simulated", false);
  if (j.contains("tuned_baseline_cycles") && !j.at("tuned_baseline_cycles").is_null()) {
    r.tuned_baseline_cycles = whole_number<uint64_t>(j.at("tuned_baseline_cycles"), "tuned_baseline_cycles");
    r.tuned_speedup = j.value("tuned_speedup", 0.0);
  }
  r.iterations = whole_number_or(j, "iterations", 0u);
  r.budget = whole_number_or(j, "budget", 0u);
  r.first_valid_iteration = optional_from(j, "first_valid_iteration");
  r.first_pass_iteration = optional_from(j, "first_pass_iteration");
  r.evaluations = whole_number_or(j, "evaluations", 0u);
  r.prompt_tokens = whole_number_or(j, "prompt_tokens", uint64_t{0});
  r.completion_tokens = whole_number_or(j, "completion_tokens", uint64_t{0});
  r.reasoning_tokens = whole_number_or(j, "reasoning_tokens", uint64_t{0});
  r.cached_prompt_tokens = whole_number_or(j, "cached_prompt_tokens", uint64_t{0});
  r.roles = j.value("roles", json::object());
  r.agent_seconds = j.value("agent_seconds", 0.0);
  r.job_seconds = j.value("job_seconds", 0.0);
  r.counters = j.value("counters", json::object());
  r.dev_seed = whole_number_or(j, "dev_seed", uint64_t{1});
  r.kernel = j.value("kernel", "");
  r.language = j.value("language", "");
  r.transcript = j.value("transcript", "");
  r.kcraft_version = j.value("kcraft_version", "");
  r.git_commit = j.value("git_commit", "");
  r.hardware_id = j.value("hardware_id", "");
  r.agent_settings = j.value("agent_settings", json::object());
  r.sweep_id = j.value("sweep_id", "");
  r.host = j.value("host", "");
  r.finished_at = j.value("finished_at", "");
  r.worker_pid = whole_number_or(j, "worker_pid", int64_t{0});
  r.evaluation = j.value("evaluation", json::array());
  r.phases = j.value("phases", json::object());
  r.trajectory = j.value("trajectory", json(nullptr));
  if (j.contains("eval_cache")) {
    r.evaluations_simulated = j["eval_cache"].value("simulated", uint64_t{0});
    r.evaluations_cached = j["eval_cache"].value("cached", uint64_t{0});
  }
  return r;
}

RunRecord error_record(const RunKey& key, int level, const std::string& reason) {
  RunRecord r;
  r.key = key;
  r.level = level;
  r.status = kErrorStatus;
  r.verdict = kErrorVerdict;
  r.error = reason;
  return r;
}

}  // namespace kcraft::bench
