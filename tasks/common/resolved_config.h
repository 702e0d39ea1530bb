// One (task, config, dtype) resolved to numbers (TaskSpec::resolve, tasks/common/task_spec.h): the shapes,
// inits, parameters, FLOP counts and tolerance that the inputs, the layout, the golden references and the
// evaluator work from. Apart from the spec so that what works on resolved configs (tasks/golden) needs
// nothing of the spec's loading, which checks specs against the golden references.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "tasks/common/dtype.h"
#include "tasks/common/tensor.h"

namespace kcraft::tasks {

enum class TensorRole { activation, weight };
std::string_view role_name(TensorRole role);

enum class InitDist { normal, uniform, constant, rope_cos, rope_sin };
std::string_view dist_name(InitDist dist);

// A named stretch of a composite kernel (norm, attention, FFN, ...). The layout gives each phase a marker
// region; the kernel writes to it when the phase starts, and eval splits the cycles by phase.
struct PhaseSpec {
  std::string name;
  std::string description;
};

struct Tolerance {
  double atol = 0.0;
  double rtol = 0.0;
  double rel_l2 = 0.0;
};
// bf16: atol 1e-3, rtol 2e-2, rel_l2 1e-2; fp32: atol 1e-5, rtol 1e-4, rel_l2 1e-4.
Tolerance default_tolerance(DType dtype);

struct ResolvedTensor {
  std::string name;
  bool is_output = false;
  TensorRole role = TensorRole::activation;  // inputs only
  Shape shape;
  int64_t elements = 0;
  InitDist dist = InitDist::normal;  // inputs only
  double init_a = 0.0;
  double init_b = 0.0;
  // Inputs only: the init under the range-stress set (equal to the ordinary one when the task has none or
  // does not name this tensor).
  InitDist stress_dist = InitDist::normal;
  double stress_a = 0.0;
  double stress_b = 0.0;
  std::string description;
};

// Everything about one (task, config, dtype) as numbers.
struct ResolvedConfig {
  std::string task;
  std::string config;
  int level = 1;
  DType dtype = DType::bf16;
  std::vector<std::pair<std::string, int64_t>> dims;  // spec order
  std::vector<std::pair<std::string, double>> params;
  std::vector<ResolvedTensor> inputs;
  std::vector<ResolvedTensor> outputs;
  double flops = 0.0;
  double macs = 0.0;  // matrix multiply-accumulates among the flops (each counts as 2 flops)
  // The part of flops and macs no correct kernel can skip (a causal mask's masked half can be): what
  // the platforms' ideal and attainable bounds count. Equal to flops and macs unless the spec says less.
  double essential_flops = 0.0;
  double essential_macs = 0.0;
  double complexity = 0.0;
  uint64_t scratch_bytes = 0;
  std::vector<PhaseSpec> phases;  // spec order; empty for tasks without phases
  Tolerance tolerance;
  bool has_range_stress = false;  // the spec has a range_stress block
  std::string range_stress;       // its description

  int64_t dim(const std::string& name) const;   // throws std::out_of_range
  double param(const std::string& name) const;  // throws std::out_of_range
  const ResolvedTensor& tensor(const std::string& name) const;
};

}  // namespace kcraft::tasks
