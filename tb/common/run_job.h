// A kernel run as every platform's testbench takes it and reports it, without SystemC
// (tb/common/sc_testbench.h runs it).
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "tb/common/accelerator_hw.h"
#include "tb/common/dram_model.h"
#include "tb/common/timeline.h"

namespace kcraft::tb {

// One kernel run, as every platform's testbench takes it.
struct RunJob {
  std::string config = "default";  // hardware configuration (a Verilated build)
  std::vector<uint32_t> program;
  std::vector<uint8_t> dram;              // initial DRAM image; its size is the DRAM size
  std::vector<DramRegion> writable;       // where the kernel may write; empty = anywhere
  std::vector<DramRegion> phase_markers;  // the task's phase marker regions, in phase order
  DramTiming timing;
  double clock_mhz = 1000;  // only scales SystemC time; results are in cycles
  uint64_t cycle_cap = 50'000'000;
  std::string waveform_path;  // FST file, empty for none
  bool instruction_trace = false;
  bool timeline = false;       // record what every unit does per cycle (RunOutcome::timeline)
  std::string timeline_title;  // names the run in the timeline viewer
  bool read_state = false;     // read back every register and memory (for model comparison)
  // Sees every cycle too (besides the timeline recorder), e.g. to read registers per retirement through
  // the back door; not owned, must outlive the run.
  CycleObserver* observer = nullptr;
};

// What every platform's run reports; a platform's RunResult adds its counters, errors and state.
struct RunOutcome {
  bool timed_out = false;  // the cycle cap ended the run
  uint64_t cycles = 0;
  std::vector<DramWriteViolation> violations;
  std::vector<PhaseMark> phase_marks;  // writes to job.phase_markers, in arrival order
  std::vector<TraceEntry> trace;       // when job.instruction_trace
  std::shared_ptr<Timeline> timeline;  // when job.timeline and the platform records one
  std::vector<uint8_t> dram;           // final DRAM image
  double wall_seconds = 0;
};

// A platform's timeline recorder: sees every cycle, then builds the Timeline.
class TimelineRecorder : public CycleObserver {
 public:
  virtual Timeline finish(uint64_t cycles) = 0;
};

}  // namespace kcraft::tb
