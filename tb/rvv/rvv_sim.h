// Running rvv kernels on the Verilated core inside SystemC (tb/common/sc_testbench.h).
//
// The core's part of the process's SystemC design holds, for every hardware configuration linked in, the
// accelerator (a Verilated rvv_top advanced many cycles per wait), a TLM-2.0 DRAM target and a host that
// loads the linked program (ITCM and DTCM segments, the loader's words) and the DRAM image. Kernels run
// one after another in it, with a reset and memory clear in between.
#pragma once

#include <array>
#include <cstdint>
#include <optional>

#include "isa/rvv/elf32.h"
#include "isa/rvv/qemu_runner.h"
#include "tb/common/run_job.h"
#include "tb/rvv/rvv_hw.h"

namespace kcraft::rvv {

using RunJob = tb::RunJob;

// An RTL run through the SystemC testbench. (RunResult is QEMU's, isa/rvv/qemu_runner.h.)
struct SimResult : tb::RunOutcome {
  bool stopped = false;  // an ecall or an error (false: the cycle cap)
  ErrorReport error;     // code kNone: the run ended at an ecall
  Counters counters{};
  std::optional<Signature> signature;  // crt0's end state, when it wrote one
  uint32_t pc = 0;                     // ST_PC at the end: the ecall, the faulting or the waiting instruction
  StallCause stall = StallCause::kNone;  // at the end (what a hanging core waits for)
  std::array<uint32_t, 32> x{};          // the integer registers at the end
};

// Announces the core's part of the process's SystemC design; the platform does so when it is made,
// simulate() before its first job.
void announce_systemc_world();

// Runs `program` (job.program must be its ITCM words: the size check and traces use them) against
// job.dram. Not thread-safe: one simulation per process.
SimResult simulate(const RunJob& job, const ElfImage& program);

// The RTL model of a configuration (for coverage counts: tb/common/rtl_coverage.h).
tb::AcceleratorHw& rtl_hw(const std::string& config);

}  // namespace kcraft::rvv
