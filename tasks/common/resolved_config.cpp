#include "tasks/common/resolved_config.h"

#include <stdexcept>

namespace kcraft::tasks {

std::string_view role_name(TensorRole role) {
  return role == TensorRole::activation ? "activation" : "weight";
}

std::string_view dist_name(InitDist dist) {
  switch (dist) {
    case InitDist::normal:
      return "normal";
    case InitDist::uniform:
      return "uniform";
    case InitDist::constant:
      return "constant";
    case InitDist::rope_cos:
      return "rope_cos";
    case InitDist::rope_sin:
      return "rope_sin";
  }
  return "?";
}

Tolerance default_tolerance(DType dtype) {
  if (dtype == DType::bf16) return {1e-3, 2e-2, 1e-2};
  return {1e-5, 1e-4, 1e-4};
}

int64_t ResolvedConfig::dim(const std::string& name) const {
  for (const auto& [dim_name, value] : dims) {
    if (dim_name == name) return value;
  }
  throw std::out_of_range(task + ": no dimension '" + name + "'");
}

double ResolvedConfig::param(const std::string& name) const {
  for (const auto& [param_name, value] : params) {
    if (param_name == name) return value;
  }
  throw std::out_of_range(task + ": no parameter '" + name + "'");
}

const ResolvedTensor& ResolvedConfig::tensor(const std::string& name) const {
  for (const ResolvedTensor& input : inputs) {
    if (input.name == name) return input;
  }
  for (const ResolvedTensor& output : outputs) {
    if (output.name == name) return output;
  }
  throw std::out_of_range(task + ": no tensor '" + name + "'");
}

}  // namespace kcraft::tasks
