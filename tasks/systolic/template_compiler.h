// Template compiler for the systolic NPU: turns a task's shapes into an assembly kernel.
//
// The platform's baseline compiler (tasks/common/baseline_compiler.h): each supported task has a C++
// template with a few knobs (tile sizes, unrolling, double buffering, accumulator count). Its default knobs
// give the baseline kernel that agents are measured against; the offline tuner explores the other values.
// Generated kernels use the symbols the evaluator predefines (ADDR_<TENSOR>, the task's dimensions, the
// hardware parameters), so they read like hand-written code.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "isa/systolic/systolic_machine.h"
#include "tasks/common/baseline_compiler.h"
#include "tasks/common/layout.h"
#include "tasks/common/task_spec.h"

namespace kcraft::systolic {

using tasks::GeneratedKernel;
using tasks::Knob;
using tasks::KnobValues;

class TemplateCompiler : public tasks::BaselineCompiler {
 public:
  explicit TemplateCompiler(const Params& params) : p_(params) {}

  std::vector<std::string> supported_tasks() const override;
  std::string unsupported_reason(const tasks::ResolvedConfig& cfg) const override;
  std::vector<Knob> knobs(const tasks::ResolvedConfig& cfg) const override;
  using BaselineCompiler::generate;
  GeneratedKernel generate(const tasks::ResolvedConfig& cfg, const tasks::DramLayout& layout,
                           const KnobValues& knobs) const override;

 private:
  Params p_;
};

}  // namespace kcraft::systolic
