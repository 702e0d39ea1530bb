// Running kernels on the Verilated systolic NPU inside SystemC.
//
// The process elaborates one SystemC design holding, for every hardware configuration linked in, the
// accelerator (a Verilated model advanced many cycles per wait), a TLM-2.0 DRAM target and a host that
// loads programs and data. Kernels run one after another in it, with a reset and memory clear in between.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "isa/systolic/systolic_machine.h"
#include "tb/common/dram_model.h"
#include "tb/common/timeline.h"
#include "tb/systolic/systolic_hw.h"

namespace kcraft::systolic {

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
  bool timeline = false;       // record what every unit does per cycle (RunResult::timeline)
  std::string timeline_title;  // names the run in the timeline viewer
  bool read_state = false;     // read back every register and SRAM (for model comparison)
};

struct RunResult {
  enum class Stop { kHalted, kError, kTimeout };
  Stop stop = Stop::kHalted;
  uint64_t cycles = 0;
  Counters counters{};
  MachineError error;  // when stop == kError
  HangReport hang;     // when stop == kTimeout
  std::vector<tb::DramWriteViolation> violations;
  std::vector<TraceEntry> trace;
  std::shared_ptr<tb::Timeline> timeline;  // when job.timeline
  std::vector<uint8_t> dram;               // final DRAM image
  MachineState state;                      // when read_state
  double wall_seconds = 0;
};

// Announces this testbench's part of the process's SystemC design (tb/common/sc_run.h); the platform does
// so when it is made, run_on_rtl before its first job.
void announce_systemc_world();

// Runs one kernel. Not thread-safe: one simulation per process (use processes for parallelism).
RunResult run_on_rtl(const RunJob& job);

// The parameters of a linked configuration as its RTL reports them.
Params rtl_params(const std::string& config);

}  // namespace kcraft::systolic
