#include "agent/bench/run_columns.h"

#include <fmt/format.h>

#include <optional>
#include <type_traits>
#include <utility>

namespace kcraft::bench {

using nlohmann::json;

namespace {

using Type = RunColumnType;

// What the store read back: NULL reads as 0, 0.0 or "" (as sqlite3_column_* return for it).
int64_t integer_of(const RunValue& v) {
  return std::holds_alternative<int64_t>(v) ? std::get<int64_t>(v) : 0;
}
double real_of(const RunValue& v) {
  return std::holds_alternative<double>(v) ? std::get<double>(v) : 0.0;
}
std::string text_of(const RunValue& v) {
  return std::holds_alternative<std::string>(v) ? std::get<std::string>(v) : std::string();
}
// JSON text; NULL, empty or unparseable text reads as `fallback`.
json json_of(const RunValue& v, const json& fallback) {
  const std::string text = text_of(v);
  if (text.empty()) return fallback;
  json parsed = json::parse(text, nullptr, false);
  return parsed.is_discarded() ? fallback : parsed;
}

RunColumn key_text(const char* name, std::string RunKey::*field) {
  return {name,
          Type::kText,
          1,
          true,
          [field](const RunRecord& r) -> RunValue { return r.key.*field; },
          [field](RunRecord& r, const RunValue& v) { r.key.*field = text_of(v); },
          nullptr};
}

RunColumn text(const char* name, std::string RunRecord::*field) {
  return {name,
          Type::kText,
          1,
          true,
          [field](const RunRecord& r) -> RunValue { return r.*field; },
          [field](RunRecord& r, const RunValue& v) { r.*field = text_of(v); },
          nullptr};
}

// An integer field: uint64_t ones stay unsigned in the CSV, the others (int, unsigned, int64_t) are signed.
template <typename T>
RunColumn integer(const char* name, T RunRecord::*field) {
  return {name,
          Type::kInteger,
          1,
          true,
          [field](const RunRecord& r) -> RunValue {
            if constexpr (std::is_same_v<T, uint64_t>) {
              return r.*field;
            } else {
              return static_cast<int64_t>(r.*field);
            }
          },
          [field](RunRecord& r, const RunValue& v) { r.*field = static_cast<T>(integer_of(v)); },
          nullptr};
}

// NULL when not known.
RunColumn optional_integer(const char* name, std::optional<unsigned> RunRecord::*field) {
  return {name,
          Type::kInteger,
          1,
          true,
          [field](const RunRecord& r) -> RunValue {
            return r.*field ? RunValue(static_cast<int64_t>(*(r.*field))) : RunValue(nullptr);
          },
          [field](RunRecord& r, const RunValue& v) {
            if (std::holds_alternative<std::nullptr_t>(v)) {
              r.*field = std::nullopt;
            } else {
              r.*field = static_cast<unsigned>(integer_of(v));
            }
          },
          nullptr};
}

RunColumn real(const char* name, double RunRecord::*field) {
  return {name,
          Type::kReal,
          1,
          true,
          [field](const RunRecord& r) -> RunValue { return r.*field; },
          [field](RunRecord& r, const RunValue& v) { r.*field = real_of(v); },
          nullptr};
}

RunColumn json_text(const char* name, json RunRecord::*field, json fallback) {
  return {name,
          Type::kText,
          1,
          true,
          [field](const RunRecord& r) -> RunValue { return (r.*field).dump(); },
          [field, fallback](RunRecord& r, const RunValue& v) { r.*field = json_of(v, fallback); },
          nullptr};
}

RunColumn since(int version, RunColumn column) {
  column.since_version = version;
  return column;
}

RunColumn not_in_csv(RunColumn column) {
  column.in_csv = false;
  return column;
}

RunColumn csv_as(std::function<std::string(const RunRecord&)> csv, RunColumn column) {
  column.csv = std::move(csv);
  return column;
}

std::vector<RunColumn> make_columns() {
  return {
      key_text("platform", &RunKey::platform),
      key_text("hw_config", &RunKey::hw_config),
      key_text("task", &RunKey::task),
      integer("level", &RunRecord::level),
      key_text("config", &RunKey::config),
      key_text("agent", &RunKey::agent),
      {"attempt", Type::kInteger, 1, true,
       [](const RunRecord& r) -> RunValue { return static_cast<int64_t>(r.key.attempt); },
       [](RunRecord& r, const RunValue& v) { r.key.attempt = static_cast<unsigned>(integer_of(v)); },
       nullptr},
      text("status", &RunRecord::status),
      text("verdict", &RunRecord::verdict),
      text("error", &RunRecord::error),
      integer("cycles", &RunRecord::cycles),
      integer("baseline_cycles", &RunRecord::baseline_cycles),
      real("speedup", &RunRecord::speedup),
      // NULL while the tuned baseline is not known (never 0, which means the tuner found no correct
      // kernel); the speedup then too.
      {"tuned_baseline_cycles", Type::kInteger, 2, true,
       [](const RunRecord& r) -> RunValue {
         return r.tuned_baseline_cycles ? RunValue(*r.tuned_baseline_cycles) : RunValue(nullptr);
       },
       [](RunRecord& r, const RunValue& v) {
         if (!std::holds_alternative<std::nullptr_t>(v))
           r.tuned_baseline_cycles = static_cast<uint64_t>(integer_of(v));
       },
       nullptr},
      {"tuned_speedup", Type::kReal, 2, true,
       [](const RunRecord& r) -> RunValue {
         return r.tuned_baseline_cycles ? RunValue(r.tuned_speedup) : RunValue(nullptr);
       },
       [](RunRecord& r, const RunValue& v) {
         if (r.tuned_baseline_cycles) r.tuned_speedup = real_of(v);
       },
       nullptr},
      real("utilization", &RunRecord::utilization),
      integer("iterations", &RunRecord::iterations),
      integer("budget", &RunRecord::budget),
      optional_integer("first_valid_iteration", &RunRecord::first_valid_iteration),
      optional_integer("first_pass_iteration", &RunRecord::first_pass_iteration),
      integer("evaluations", &RunRecord::evaluations),
      integer("prompt_tokens", &RunRecord::prompt_tokens),
      integer("completion_tokens", &RunRecord::completion_tokens),
      integer("reasoning_tokens", &RunRecord::reasoning_tokens),
      integer("cached_prompt_tokens", &RunRecord::cached_prompt_tokens),
      real("agent_seconds", &RunRecord::agent_seconds),
      real("job_seconds", &RunRecord::job_seconds),
      integer("dev_seed", &RunRecord::dev_seed),
      json_text("seed_verdicts", &RunRecord::seed_verdicts, json::array()),
      json_text("counters", &RunRecord::counters, json::object()),
      not_in_csv(text("kernel", &RunRecord::kernel)),  // the JSON report has it
      text("transcript", &RunRecord::transcript),
      text("kcraft_version", &RunRecord::kcraft_version),
      text("git_commit", &RunRecord::git_commit),
      text("hardware_id", &RunRecord::hardware_id),
      json_text("agent_settings", &RunRecord::agent_settings, json::object()),
      text("sweep_id", &RunRecord::sweep_id),
      text("host", &RunRecord::host),
      integer("worker_pid", &RunRecord::worker_pid),
      text("finished_at", &RunRecord::finished_at),
      since(4, json_text("role_usage", &RunRecord::roles, json::object())),
      // The CSV leaves a run without phases empty.
      csv_as([](const RunRecord& r) { return r.phases.empty() ? std::string() : r.phases.dump(); },
             since(5, json_text("phases", &RunRecord::phases, json::object()))),
      // NULL: the sweep did not simulate the run's compiler baseline
      // (RunRecord::compiler_baseline_not_simulated; also in runs recorded before the compiler baseline was,
      // for the correct ones of a platform that has one: not known either). The CSV has its cycles, 0 then.
      {"compiler_baseline_cycles", Type::kInteger, 6, true,
       [](const RunRecord& r) -> RunValue {
         return r.compiler_baseline_not_simulated ? RunValue(nullptr) : RunValue(r.compiler_baseline_cycles);
       },
       [](RunRecord& r, const RunValue& v) {
         if (std::holds_alternative<std::nullptr_t>(v)) {
           r.compiler_baseline_not_simulated = r.correct();
         } else {
           r.compiler_baseline_cycles = static_cast<uint64_t>(integer_of(v));
         }
       },
       [](const RunRecord& r) { return std::to_string(r.compiler_baseline_cycles); }},
      since(6, real("compiler_speedup", &RunRecord::compiler_speedup)),
      // NULL: not recorded (rows of older stores; the report then reads the run's transcript). Per iteration,
      // so the CSV leaves it out: the JSON report has it.
      since(7, not_in_csv({"trajectory", Type::kText, 1, true,
                           [](const RunRecord& r) -> RunValue {
                             return r.trajectory.is_null() ? RunValue(nullptr)
                                                           : RunValue(r.trajectory.dump());
                           },
                           [](RunRecord& r, const RunValue& v) { r.trajectory = json_of(v, json(nullptr)); },
                           nullptr})),
  };
}

}  // namespace

const std::vector<RunColumn>& run_columns() {
  static const std::vector<RunColumn> columns = make_columns();
  return columns;
}

std::string run_value_text(const RunValue& value) {
  if (const auto* i = std::get_if<int64_t>(&value)) return std::to_string(*i);
  if (const auto* u = std::get_if<uint64_t>(&value)) return std::to_string(*u);
  if (const auto* d = std::get_if<double>(&value)) return fmt::format("{:.6g}", *d);
  if (const auto* s = std::get_if<std::string>(&value)) return *s;
  return "";
}

std::string run_csv_text(const RunColumn& column, const RunRecord& run) {
  return column.csv ? column.csv(run) : run_value_text(column.get(run));
}

}  // namespace kcraft::bench
