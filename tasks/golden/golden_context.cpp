#include "tasks/golden/golden_context.h"

namespace kcraft::tasks {

GoldenContext::GoldenContext(const ResolvedConfig& config, const std::vector<Tensor>& inputs)
    : config_(config), inputs_(inputs) {
  for (const ResolvedTensor& output : config.outputs) outputs_.emplace_back(output.name, output.shape);
}

const Tensor& GoldenContext::input(const std::string& name) const {
  for (const Tensor& tensor : inputs_) {
    if (tensor.name == name) return tensor;
  }
  throw GoldenError(config_.task + ": reference needs input '" + name + "', which was not given");
}

Tensor& GoldenContext::output(const std::string& name) {
  for (Tensor& tensor : outputs_) {
    if (tensor.name == name) return tensor;
  }
  throw GoldenError(config_.task + ": reference writes output '" + name +
                    "', which the spec does not declare");
}

int64_t GoldenContext::dim(const std::string& name) const {
  for (const auto& [dim_name, value] : config_.dims) {
    if (dim_name == name) return value;
  }
  throw GoldenError(config_.task + ": reference reads dimension '" + name +
                    "', which the spec does not declare");
}

void GoldenContext::require(bool condition, const std::string& message) const {
  if (!condition) throw GoldenError(config_.task + " " + config_.config + ": " + message);
}

}  // namespace kcraft::tasks
