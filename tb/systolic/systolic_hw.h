// The Verilated systolic NPU seen from C++: a cycle driver independent of SystemC.
//
// SystolicHw owns one Verilated model (one hardware configuration) and knows the top's ports: the
// control/debug back door, the DRAM request/response port and the instruction-retire trace. It runs
// cycles in a tight C++ loop; DRAM requests go to a MemoryPort (a SystemC TLM socket in the testbench,
// a plain DramModel in the bare-speed benchmark), which answers with the cycle the response is due.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "isa/systolic/systolic_machine.h"

namespace kcraft::systolic {

class MemoryPort {
 public:
  virtual ~MemoryPort() = default;
  // Performs the access requested at `cycle` (the driver's cycle count since reset) and returns the
  // cycle at which its response is due. Throws on an access the DRAM cannot serve.
  virtual uint64_t access(bool write, uint64_t addr, uint8_t* data, unsigned len, uint64_t cycle,
                          uint32_t pc) = 0;
};

struct TraceEntry {
  uint64_t cycle = 0;  // cycles since START
  uint32_t pc = 0;
  uint32_t word = 0;
};

// Sees every cycle of a run (for timelines): the trace word (systolic_pkg TR_* bits, regs::kTr*), and
// whether an instruction issued, with the pc and word at the issue stage (the waiting one when stalled).
class CycleObserver {
 public:
  virtual ~CycleObserver() = default;
  virtual void on_cycle(uint64_t cycle, uint32_t trace_word, bool issued, uint32_t pc, uint32_t insn) = 0;
};

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

class SystolicHw {
 public:
  virtual ~SystolicHw() = default;

  // The parameters the RTL was built with, read from the hardware itself at construction.
  virtual const Params& params() const = 0;
  virtual const std::string& config_name() const = 0;

  // Resets the flops (a few cycles), then zeroes IMEM, VSRAM, MSRAM, accumulators and FPSRAM.
  virtual void reset_and_clear() = 0;
  // One clocked write on the control port (IMEM words, DRAM size, START).
  virtual void ctl_write(uint32_t addr, uint32_t data) = 0;
  // Combinational back-door read of `bytes` bytes (little-endian) of selector `sel`, index `addr`.
  virtual void dbg_read(unsigned sel, uint32_t addr, void* out, unsigned bytes) = 0;

  // Runs at most `budget` cycles (fewer if the machine halts). Returns the cycles run.
  virtual uint64_t run_cycles(uint64_t budget, MemoryPort& port) = 0;
  virtual bool halted() = 0;
  virtual uint64_t cycle() const = 0;  // since START

  // Optional FST waveform of the next run (opened before START, closed by close_waveform()).
  virtual void open_waveform(const std::string& path) = 0;
  virtual void close_waveform() = 0;
  // Optional instruction trace: every issued instruction with its cycle.
  virtual void set_instruction_trace(std::vector<TraceEntry>* sink) = 0;
  // Optional observer of every cycle of the next runs (nullptr: none; costs nothing then).
  virtual void set_cycle_observer(CycleObserver* observer) = 0;

  // Convenience built on the back door.
  Params read_params();
  uint32_t status(unsigned word);
  uint64_t status64(unsigned word);
  Counters counters();
  MachineState read_state();
  HangReport hang_report();
  void load_program(const std::vector<uint32_t>& words);
};

// The Verilated configurations linked into this binary, e.g. {"default", "small"}.
std::vector<std::string> systolic_hw_configs();
// Throws std::invalid_argument for an unknown configuration.
std::unique_ptr<SystolicHw> make_systolic_hw(const std::string& config);

}  // namespace kcraft::systolic
