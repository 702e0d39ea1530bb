// The Verilated vliw tile seen from C++: tb::AcceleratorHw (tb/common/accelerator_hw.h) with the tile's
// parameters, counters, state and hang report read through its back door.
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "isa/vliw/vliw_machine.h"
#include "tb/common/accelerator_hw.h"

namespace kcraft::vliw {

using tb::CycleObserver;
using tb::DramModelPort;
using tb::MemoryPort;
using tb::TraceEntry;

// What the machine was doing, read when a run hits its cycle cap.
struct HangReport {
  uint32_t pc = 0;
  unsigned stall_cause = 0;  // a StallCause code (isa/vliw.yaml stall_causes)
  uint32_t dma_busy_channels = 0;
  uint32_t dma_rows_in_flight = 0;
  uint32_t loop_depth = 0;
  std::array<uint8_t, kLocks> locks{};
};

class VliwHw : public tb::AcceleratorHw {
 public:
  // vliw_top registers the DRAM response port: the driver presents each response a cycle before it is due.
  static constexpr uint64_t kDramResponseLead = 1;
  using ParamsType = Params;

  // The parameters the RTL was built with, read from the hardware itself at construction (the runtime
  // DRAM timing is left at its defaults).
  virtual const Params& params() const = 0;

  // Built on the back door.
  Params read_params();
  Counters counters();
  MachineState read_state();
  HangReport hang_report();
  // The tile's cycle counter stops the cycle before halted_o rises (the driver counts that one too).
  uint64_t run_length() override { return counter(kCycles); }

  // vliw_top.stall_o: what the issue stage waited for this cycle (vliw_isa_pkg STALL_*, 0 = none).
  template <class VModel>
  static uint32_t trace_word(const VModel& m) {
    return m.stall_o;
  }
};

// The Verilated configurations linked into this binary, and a driver for one of them.
std::vector<std::string> vliw_hw_configs();
std::unique_ptr<VliwHw> make_vliw_hw(const std::string& config);

}  // namespace kcraft::vliw
