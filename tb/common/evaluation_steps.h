// The steps every platform's evaluate() shares around its own run: resolving the request, laying out
// DRAM, the bounds, assembling, the inputs and the golden reference, the RunJob; and, after the run, the
// cycles, counters, bounds and instruction trace of the report.
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "isa/common/assembler.h"
#include "tasks/common/layout.h"
#include "tasks/common/task_spec.h"
#include "tb/common/platform.h"
#include "tb/common/run_job.h"

namespace kcraft::tb {

struct PreparedRun {
  const tasks::TaskSpec* spec = nullptr;
  tasks::ResolvedConfig cfg;
  const HwConfig* hw = nullptr;
  tasks::DramLayout layout;
  isa::AssembleResult program;
  std::vector<tasks::Tensor> references;
  RunJob job;  // the program, the DRAM image (inputs, the rest `fill`), writable regions, DRAM timing,
               // clock, cycle cap and the traces the request asks for
};

// The hardware configurations this process can simulate (the platform's generated <p>_hw_configs()).
using LinkedConfigs = std::function<std::vector<std::string>()>;

// Everything before the run. `linked` lists the hardware configurations with a Verilated model in this
// process; a configuration of the data root without one gets its model built on first use
// (ensure_hw_model, tb/common/hw_variants.h). nullopt when the kernel cannot run: `r` then holds the
// input_error (unknown task, configuration or hardware configuration, unsupported shape, no model) or
// build_error (assembler errors, a program larger than the program memory) and its wall time.
std::optional<PreparedRun> prepare_run(const Platform& platform, const EvalRequest& req,
                                       const tasks::TaskRegistry& registry, const LinkedConfigs& linked,
                                       uint8_t fill, EvalReport& r);

// After the run: cycles, counters, utilisation against the bounds, the timeline and the instruction trace
// (each entry's text from `describe(pc, word)`).
void record_run(EvalReport& r, const RunOutcome& run, std::vector<CounterValue> counters,
                const std::function<std::string(uint32_t pc, uint32_t word)>& describe);

// The verdict of a run that ended normally: a DRAM write outside the outputs and scratch is a runtime
// error naming the region it hit and the instruction (`describe(pc)`); otherwise the outputs against the
// golden reference, pass or mismatch.
EvalReport& judge_outputs(EvalReport& r, const PreparedRun& k, const RunOutcome& run,
                          const std::function<std::string(uint32_t pc)>& describe,
                          std::chrono::steady_clock::time_point start);

// Ends the report with a verdict and headline, stamping the wall time since `start`.
EvalReport& finish(EvalReport& r, Verdict verdict, std::string headline,
                   std::chrono::steady_clock::time_point start);

// Default cycle cap of a run: room for kernels far slower than the baseline (scalar loops, a matrix product
// on the vector unit), while a hang is still reported within seconds of simulation.
uint64_t default_cycle_cap(const tasks::ResolvedConfig& cfg);

}  // namespace kcraft::tb
