// Golden references: FP64 computations from the exact stored input values, looked up by the name a spec's
// `golden` field gives.
#pragma once

#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "tasks/common/task_spec.h"
#include "tasks/common/tensor.h"

namespace kcraft::tasks {

class GoldenError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// What a reference function sees: the resolved config, the inputs by name and zero-filled outputs shaped
// as the spec says.
class GoldenContext {
 public:
  GoldenContext(const ResolvedConfig& config, const std::vector<Tensor>& inputs);

  const ResolvedConfig& config() const { return config_; }
  double param(const std::string& name) const { return config_.param(name); }
  // A dimension's value (e.g. a CAUSAL flag or a STRIDE); GoldenError when the spec has no such dim.
  int64_t dim(const std::string& name) const;
  const Tensor& input(const std::string& name) const;
  Tensor& output(const std::string& name);
  std::vector<Tensor>& outputs() { return outputs_; }
  // Throws GoldenError("<golden> <task>: <message>") unless `condition` holds.
  void require(bool condition, const std::string& message) const;

 private:
  const ResolvedConfig& config_;
  const std::vector<Tensor>& inputs_;
  std::vector<Tensor> outputs_;
};

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
std::vector<Tensor> compute_reference(const TaskSpec& spec, const std::string& config,
                                      const std::vector<Tensor>& inputs);

}  // namespace kcraft::tasks
