// Runs a task kernel on the vliw functional model: seeded inputs -> DRAM image (the task's layout) ->
// assemble -> ISS -> outputs -> comparison with the golden reference under the task's tolerance. The
// baseline compiler's tests use it, and the platform's evaluate() can build on it.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "isa/common/assembler.h"
#include "isa/vliw/vliw_iss.h"
#include "tasks/common/compare.h"
#include "tasks/common/layout.h"
#include "tasks/common/task_spec.h"
#include "tasks/common/tensor.h"

namespace kcraft::vliw {

// Where a task's tensors live in DRAM on vliw (64-byte aligned regions, tasks/common/layout.h).
tasks::DramLayout task_layout(const tasks::ResolvedConfig& cfg);

// The symbols a kernel may use: the hardware parameters, the task's dimensions, ADDR_<TENSOR> and
// BYTES_<TENSOR> of every region, DRAM_BYTES.
isa::SymbolTable task_symbols(const Params& p, const tasks::ResolvedConfig& cfg,
                              const tasks::DramLayout& layout);

struct TaskRun {
  isa::AssembleResult assembled;
  bool ran = false;
  Iss::Result result;
  MachineError error;
  Counters counters{};
  std::vector<tasks::Tensor> outputs;
  tasks::TaskCompareResult compare;
  std::string message;  // why it did not run or stopped early ("" when it halted)

  bool halted() const { return ran && result.stop == Iss::Stop::kHalted; }
  bool pass() const { return halted() && compare.pass; }
};

// Assembles `source` and runs it on inputs of `seed`. Never throws for kernel problems.
TaskRun run_task_kernel(const Params& p, const std::string& source, const tasks::TaskSpec& spec,
                        const std::string& config, uint64_t seed, uint64_t max_cycles = 200'000'000);
// The same for an assembled program (e.g. a deliberately altered one).
TaskRun run_task_program(const Params& p, const std::vector<uint32_t>& words, const tasks::TaskSpec& spec,
                         const std::string& config, uint64_t seed, uint64_t max_cycles = 200'000'000);

}  // namespace kcraft::vliw
