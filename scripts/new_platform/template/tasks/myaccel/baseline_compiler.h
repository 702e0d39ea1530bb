// The myaccel baseline compiler (tasks/common/baseline_compiler.h): the kernels agents are measured against.
// The scaffold has two, relu and gemm, for configurations whose rows are whole multiples of LANES.
//
// TEAM: add a task by adding its name to supported_tasks() and a generator to generate(); the platform's
// unsupported_reason (tb/myaccel/myaccel_platform.cpp) then offers it.
#pragma once

#include <string>
#include <vector>

#include "isa/myaccel/myaccel_machine.h"
#include "tasks/common/baseline_compiler.h"

namespace kcraft::myaccel {

class BaselineCompiler final : public tasks::BaselineCompiler {
 public:
  explicit BaselineCompiler(const Params& p) : p_(p) {}

  using tasks::BaselineCompiler::generate;

  std::vector<std::string> supported_tasks() const override { return {"relu", "gemm"}; }
  // The row length (N) must be a multiple of LANES and every address must fit LI's immediate.
  std::string unsupported_reason(const tasks::ResolvedConfig& cfg) const override;
  // No knobs: one kernel per task.
  std::vector<tasks::Knob> knobs(const tasks::ResolvedConfig& cfg) const override;
  tasks::GeneratedKernel generate(const tasks::ResolvedConfig& cfg, const tasks::DramLayout& layout,
                                  const tasks::KnobValues& knobs) const override;

 private:
  Params p_;
};

}  // namespace kcraft::myaccel
