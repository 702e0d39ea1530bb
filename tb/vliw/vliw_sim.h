// Running kernels on the Verilated vliw tile inside SystemC.
//
// The tile's part of the process's SystemC design (tb/common/sc_run.h) holds, for every hardware
// configuration linked in, the accelerator (a Verilated model advanced many cycles per wait), a TLM-2.0
// DRAM target (tb::DramTarget) and a host that loads programs and data. Kernels run one after another in
// it, with a reset and memory clear in between.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "isa/vliw/vliw_machine.h"
#include "tb/common/dram_model.h"
#include "tb/vliw/vliw_hw.h"

namespace kcraft::vliw {

struct RunJob {
  std::string config = "default";  // hardware configuration (a Verilated build)
  std::vector<uint32_t> program;
  std::vector<uint8_t> dram;             // initial DRAM image; its size is the DRAM size
  std::vector<tb::DramRegion> writable;  // where the kernel may write; empty = anywhere
  tb::DramTiming timing;
  double clock_mhz = 1000;  // only scales SystemC time; results are in cycles
  uint64_t cycle_cap = 50'000'000;
  std::string waveform_path;  // FST file, empty for none
  bool instruction_trace = false;
};

struct RunResult {
  enum class Stop { kStopped, kTimeout };
  Stop stop = Stop::kStopped;  // kStopped: C_HALT or an error (state.error says which)
  uint64_t cycles = 0;
  Counters counters{};
  MachineState state;  // every register, accumulator, DM byte, lock, the error
  HangReport hang;     // when stop == kTimeout
  std::vector<tb::DramWriteViolation> violations;
  std::vector<TraceEntry> trace;
  std::vector<uint8_t> dram;  // final DRAM image
  double wall_seconds = 0;
};

// Announces the tile's part of the process's SystemC design; the platform does so when it is made,
// simulate() before its first job.
void announce_systemc_world();

// Runs one kernel. Not thread-safe: one simulation per process (use processes for parallelism).
RunResult simulate(const RunJob& job);

}  // namespace kcraft::vliw
