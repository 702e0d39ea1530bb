// Template compiler for the systolic NPU: turns a task's shapes into an assembly kernel.
//
// Each supported task has a C++ template with a few knobs (tile sizes, unrolling, double buffering,
// accumulator count). Its default knobs give the baseline kernel that agents are measured against; the
// offline tuner explores the other values. Generated kernels use the symbols the evaluator predefines
// (ADDR_<TENSOR>, the task's dimensions, the hardware parameters), so they read like hand-written code.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "isa/systolic/systolic_machine.h"
#include "tasks/common/layout.h"
#include "tasks/common/task_spec.h"

namespace kcraft::systolic {

struct Knob {
  std::string name;
  std::string description;
  int64_t baseline = 0;             // the value the baseline kernel uses
  std::vector<int64_t> candidates;  // values the tuner may try (baseline included)
};

using KnobValues = std::map<std::string, int64_t>;

struct GeneratedKernel {
  std::string source;   // assembly text
  KnobValues knobs;     // every knob, as used (after clamping to what the shapes allow)
  std::string summary;  // one line: the strategy in words
};

class TemplateCompiler {
 public:
  explicit TemplateCompiler(const Params& params) : p_(params) {}

  // Tasks with a template.
  static std::vector<std::string> supported_tasks();
  static bool supports(const std::string& task);

  // Empty when the configuration can run; otherwise why not (shapes vs. the hardware's limits).
  std::string unsupported_reason(const tasks::ResolvedConfig& cfg) const;

  std::vector<Knob> knobs(const tasks::ResolvedConfig& cfg) const;

  // Missing knobs take their baseline value; values outside what the shapes allow are clamped to the
  // nearest legal one. Throws std::invalid_argument for an unsupported task or configuration.
  GeneratedKernel generate(const tasks::ResolvedConfig& cfg, const tasks::DramLayout& layout,
                           const KnobValues& knobs = {}) const;

 private:
  Params p_;
};

}  // namespace kcraft::systolic
