// Runs an rvv task kernel (C source) under QEMU, the platform's functional reference, the way evaluation
// will: the rvv layout, seeded FP32 inputs, the symbols header, the toolchain's fixed flags, then the golden
// reference and the task's pass rule.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "isa/rvv/qemu_runner.h"
#include "isa/rvv/toolchain.h"
#include "tasks/common/compare.h"
#include "tasks/common/layout.h"
#include "tasks/common/task_spec.h"

namespace kcraft::rvv::testing {

const tasks::TaskRegistry& registry();

struct TaskRun {
  tasks::ResolvedConfig cfg;
  tasks::DramLayout layout;
  BuiltKernel built;
  RunResult run;
  bool inputs_intact = false;  // the kernel left every input region as it was
  tasks::TaskCompareResult compare;
  double build_seconds = 0.0;
  std::string message;  // why it did not get to a comparison, if it did not

  bool passed() const { return run.end == RunEnd::kExited && inputs_intact && compare.pass; }
};

// language: "c" or "asm".
TaskRun run_task(const std::string& task, const std::string& config, const std::string& source,
                 int vlen = 128, uint64_t seed = 1234, const std::string& language = "c");

// The ELF run_qemu would run (the same regions and host words), for tools that run QEMU themselves.
std::vector<uint8_t> program_elf(const BuiltKernel& kernel, const std::vector<uint8_t>& dram);

// The instructions QEMU executes running `kernel` (crt0 included), from its TB log
// (-d in_asm,exec,nochain: each translated block's instructions once, then one line per executed block),
// streamed through a pipe. Vector instructions: mnemonics starting with 'v'. Throws std::runtime_error when
// QEMU fails.
struct InstructionCount {
  uint64_t instructions = 0;
  uint64_t vector_instructions = 0;
  uint64_t blocks = 0;   // executed
  double seconds = 0.0;  // QEMU's wall time with the logging
};
InstructionCount count_instructions(const BuiltKernel& kernel, const std::vector<uint8_t>& dram,
                                    int vlen = 128);

}  // namespace kcraft::rvv::testing
