// Task specifications (tasks/specs/<name>.yaml) and their resolution for one configuration.
//
// The schema is documented in tasks/README.md. Loading validates everything that can be validated without
// running a kernel, including every configuration's shapes, parameters, FLOP count and scratch size, so a
// spec that loads can be used for every (config, dtype).
#pragma once

#include <cstdint>
#include <filesystem>
#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "tasks/common/dtype.h"
#include "tasks/common/expr.h"
#include "tasks/common/resolved_config.h"
#include "tasks/common/tensor.h"

namespace kcraft::tasks {

// A broken spec: names the file, the field path (e.g. "configs.C3.K") and, when known, the line.
class TaskSpecError : public std::runtime_error {
 public:
  TaskSpecError(std::string file, std::string field, int line, const std::string& message);
  const std::string& file() const { return file_; }
  const std::string& field() const { return field_; }
  int line() const { return line_; }  // 1-based; 0 when unknown

 private:
  std::string file_;
  std::string field_;
  int line_;
};

// How an input is filled. normal: (a, b) = (mean, std); uniform: [a, b) = [lo, hi); constant: a;
// rope_cos / rope_sin: a = base, the [S, D] rotary table cos/sin(s * base^(-2*(d mod D/2)/D)).
// Each value is an expression over dims and params.
struct InitSpec {
  InitDist dist = InitDist::normal;
  Expr a;
  Expr b;
};

// The range-stress input set (tasks/README.md, Range-stress inputs): a task whose numerics depend on the
// input range states how its inputs are drawn under stress (large logits, a large common offset, wide tails),
// and a seed with kRangeStressSeedBit set draws that set instead of the ordinary one. Inputs it does not name
// keep their ordinary init; a per-dtype entry overrides the common one for that dtype.
constexpr uint64_t kRangeStressSeedBit = uint64_t{1} << 50;
inline bool is_range_stress_seed(uint64_t seed) {
  return (seed & kRangeStressSeedBit) != 0;
}
inline uint64_t range_stress_seed(uint64_t seed) {
  return seed | kRangeStressSeedBit;
}

struct RangeStressSpec {
  std::string description;                               // why, and what a naive kernel gets wrong
  std::vector<std::pair<std::string, InitSpec>> inputs;  // tensor name -> init under stress
  std::map<DType, std::vector<std::pair<std::string, InitSpec>>> per_dtype;  // overrides per dtype
};

struct DimSpec {
  std::string name;
  int64_t multiple_of = 16;  // every config value must be a multiple (the accelerators' row width)
  int64_t min = 1;           // smallest allowed config value; 0 for flags and counts such as PAD, CAUSAL
  std::string description;
};

struct ConfigSpec {
  std::string name;             // "C1".."C5"
  std::vector<int64_t> values;  // one per dim, in TaskSpec::dims order
};

struct InputSpec {
  std::string name;
  std::vector<Expr> shape;  // each a dim name, an integer or an expression over dims
  TensorRole role = TensorRole::activation;
  InitSpec init;
  std::string description;
};

struct OutputSpec {
  std::string name;
  std::vector<Expr> shape;
  std::string description;
};

struct ParamSpec {
  std::string name;
  Expr value;  // over dims and earlier params
  std::string description;
};

struct ToleranceOverride {
  std::optional<double> atol;
  std::optional<double> rtol;
  std::optional<double> rel_l2;
};

// log10(flops) + 2*(level-1), rounded to 0.01.
double complexity_score(double flops, int level);

struct TaskSpec {
  std::filesystem::path file;
  std::string name;
  int level = 1;
  std::string title;
  std::string description;
  std::vector<DimSpec> dims;
  std::vector<ConfigSpec> configs;
  std::vector<InputSpec> inputs;
  std::vector<OutputSpec> outputs;
  std::vector<ParamSpec> params;
  Expr flops;
  std::optional<Expr> macs;             // multiply-accumulates a matrix unit can do (optional, default 0)
  std::optional<Expr> essential_flops;  // flops no kernel can skip (optional, default flops)
  std::optional<Expr> essential_macs;   // macs no kernel can skip (optional, default macs)
  std::optional<Expr> scratch_bytes;    // may use ELEM_BYTES (2 for bf16, 4 for fp32)
  std::vector<PhaseSpec> phases;
  // Lower-level tasks a composite task is built from (its L1/L2 building blocks), checked to exist when
  // a directory of specs loads.
  std::vector<std::string> composed_of;
  std::map<DType, ToleranceOverride> tolerance_overrides;
  std::optional<RangeStressSpec> range_stress;
  std::string golden;

  std::vector<std::string> config_names() const;
  bool has_config(const std::string& config) const;
  Tolerance tolerance(DType dtype) const;
  // Throws std::invalid_argument for an unknown config (listing the known ones).
  ResolvedConfig resolve(const std::string& config, DType dtype) const;
};

// The configuration names every task defines, in order.
const std::vector<std::string>& standard_config_names();

// Parses and validates one spec file. Throws TaskSpecError.
TaskSpec load_task(const std::filesystem::path& file);
// Same, from text (tests and tools); `file` is only used in messages.
TaskSpec parse_task(const std::string& yaml_text, const std::filesystem::path& file);

// All specs of a directory (*.yaml), sorted by level then name.
class TaskRegistry {
 public:
  TaskRegistry() = default;
  // Throws TaskSpecError naming every broken file (one per line) when any is broken.
  static TaskRegistry load_directory(const std::filesystem::path& dir);
  void add(TaskSpec spec);  // throws std::invalid_argument on a duplicate name

  const std::vector<TaskSpec>& tasks() const { return tasks_; }
  const TaskSpec* find(const std::string& name) const;
  // Throws std::invalid_argument ("unknown task 'gem' (did you mean gemm?)").
  const TaskSpec& get(const std::string& name) const;
  std::vector<std::string> names() const;

 private:
  std::vector<TaskSpec> tasks_;
};

// Closest candidate by edit distance, for "did you mean" hints; empty when nothing is close.
std::string closest_match(const std::string& word, const std::vector<std::string>& candidates);

}  // namespace kcraft::tasks
