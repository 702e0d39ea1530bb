// Golden references: FP64 computations from the exact stored input values, looked up by the name a spec's
// `golden` field gives.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "tasks/common/resolved_config.h"
#include "tasks/common/tensor.h"
#include "tasks/golden/golden_context.h"

namespace kcraft::tasks {

using GoldenFn = void (*)(GoldenContext&);

// A reference and the tensor/param names it reads and writes; specs naming it must declare exactly these.
struct GoldenEntry {
  std::string name;
  std::vector<std::string> inputs;
  std::vector<std::string> outputs;
  std::vector<std::string> params;
  GoldenFn fn = nullptr;
  std::vector<std::string> dims = {};  // dimensions the reference reads by name; specs must declare them
};

// The built-in references plus any registered later, in registration order.
std::vector<GoldenEntry> golden_registry();
const GoldenEntry* find_golden(std::string_view name);
// Adds a reference (for tasks defined outside this library, and tests). Throws std::invalid_argument on a
// duplicate or empty name or a null function. Entries are never removed, so pointers stay valid.
void register_golden(GoldenEntry entry);

// Runs the task's reference on `inputs` (make_inputs order). Throws GoldenError on mismatched inputs.
std::vector<Tensor> compute_reference(const ResolvedConfig& config, const std::string& golden,
                                      const std::vector<Tensor>& inputs);

}  // namespace kcraft::tasks
