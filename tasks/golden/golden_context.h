// What a golden reference (tasks/golden/references.h) sees of its task: the resolved config, the inputs by
// name and the outputs to fill; apart from the registry (golden.h), which lists the references.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "tasks/common/resolved_config.h"
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

}  // namespace kcraft::tasks
