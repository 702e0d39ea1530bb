// The Verilated systolic NPU seen from C++: tb::AcceleratorHw (tb/common/accelerator_hw.h) with the
// systolic top's parameters, counters, state and hang report read through its back door.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "isa/systolic/systolic_machine.h"
#include "tb/common/accelerator_hw.h"

namespace kcraft::systolic {

using tb::CycleObserver;
using tb::MemoryPort;
using tb::TraceEntry;

// What the units were doing, read when a run hits its cycle cap.
struct HangReport {
  uint32_t pc = 0;
  uint32_t insn = 0;
  bool vector_busy = false;
  bool matrix_busy = false;
  bool dma_busy = false;
  bool sfu_busy = false;
  unsigned stall_cause = 0;  // a StallCause code (isa/systolic.yaml stall_causes)
  uint32_t dma_pc = 0;
  uint32_t dma_rows_left = 0;
  uint32_t loop_depth = 0;
};
// What the issue stage was waiting for, as shown in hang reports; "unknown" for other values.
const char* stall_cause_name(unsigned cause);

class SystolicHw : public tb::AcceleratorHw {
 public:
  using ParamsType = Params;
  // systolic_top registers the DRAM response port: the driver presents each response a cycle before it is
  // due.
  static constexpr uint64_t kDramResponseLead = 1;

  // The parameters the RTL was built with, read from the hardware itself at construction.
  virtual const Params& params() const = 0;

  // Built on the back door.
  Params read_params();
  Counters counters();
  MachineState read_state();
  HangReport hang_report();

  // systolic_top.trace_o: what every unit does in a cycle (systolic_pkg TR_* bits, regs::kTr*).
  template <class VModel>
  static uint32_t trace_word(const VModel& m) {
    return m.trace_o;
  }
};

// The Verilated configurations linked into this binary, e.g. {"default", "small"}.
std::vector<std::string> systolic_hw_configs();
// Throws std::invalid_argument for an unknown configuration.
std::unique_ptr<SystolicHw> make_systolic_hw(const std::string& config);

}  // namespace kcraft::systolic
