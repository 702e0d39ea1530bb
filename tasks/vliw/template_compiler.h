// Template compiler for the vliw tile: turns a task's shapes into a software-pipelined bundle kernel.
//
// The platform's baseline compiler (tasks/common/baseline_compiler.h). Each task has a C++ template that
// writes the kernel as ops in program order; the kernel builder (kernel_builder.h) packs them into bundles
// under the exposed-pipeline rules, so the kernels assemble without hazard warnings. Loops are software-
// pipelined (the loads of the next unit issue in the body of the current one) and DMA is double-buffered
// with locks. The machine parameters (VLEN, DM size and banks, DMA channels, the matrix-multiply shape)
// come from the hardware configuration's Params. docs/vliw.md §5 walks through one kernel. The level-3
// blocks are composites: the templates as jobs between DRAM regions, intermediates in scratch, each phase
// marked for the evaluator (docs/vliw.md "Composite baselines").
#pragma once

#include <string>
#include <vector>

#include "isa/vliw/vliw_machine.h"
#include "tasks/common/baseline_compiler.h"
#include "tasks/common/layout.h"
#include "tasks/common/task_spec.h"

namespace kcraft::vliw {

using tasks::GeneratedKernel;
using tasks::Knob;
using tasks::KnobValues;

// Why a configuration's shapes do not fit whole vectors of `vlen` lanes ("" when they do): the dimensions
// that run along DM rows must be multiples of VLEN; counts such as BATCH, HEADS, H, KH or PAD need not be.
std::string vector_dims_reason(const tasks::ResolvedConfig& cfg, int64_t vlen);

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
  // generate() without the support check (which uses it for what only the kernel's size can tell).
  GeneratedKernel generate_kernel(const tasks::ResolvedConfig& cfg, const tasks::DramLayout& layout,
                                  const KnobValues& values) const;
  Params p_;
};

}  // namespace kcraft::vliw
