// The Verilated vliw tile seen from C++: a cycle driver independent of SystemC.
//
// VliwHw owns one Verilated model (one hardware configuration) and knows vliw_top's ports: the
// control/debug back door, the DRAM request/response port and the bundle-issue trace. It runs cycles in a
// tight C++ loop; DRAM requests go to a MemoryPort (a plain tb::DramModel here, a TLM socket in a SystemC
// testbench), which answers with the cycle the response is due. The port has the shape of systolic_top's.
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "isa/vliw/vliw_machine.h"

namespace kcraft::tb {
class DramModel;
}

namespace kcraft::vliw {

class MemoryPort {
 public:
  virtual ~MemoryPort() = default;
  // Performs the access DRAM sees at `cycle` (cycles since START) and returns the cycle its response is
  // due. Throws on an access the DRAM cannot serve.
  virtual uint64_t access(bool write, uint64_t addr, uint8_t* data, unsigned len, uint64_t cycle,
                          uint32_t pc) = 0;
};

// A MemoryPort straight onto a DramModel (tb/common/dram_model.h): the timing the functional model assumes.
class DramModelPort final : public MemoryPort {
 public:
  explicit DramModelPort(tb::DramModel& dram) : dram_(dram) {}
  uint64_t access(bool write, uint64_t addr, uint8_t* data, unsigned len, uint64_t cycle,
                  uint32_t pc) override;

 private:
  tb::DramModel& dram_;
};

struct TraceEntry {
  uint64_t cycle = 0;  // cycles since START
  uint32_t pc = 0;     // the bundle's first word
  uint32_t word = 0;   // that word
};

// What the machine was doing, read when a run hits its cycle cap.
struct HangReport {
  uint32_t pc = 0;
  unsigned stall_cause = 0;  // a StallCause code (isa/vliw.yaml stall_causes)
  uint32_t dma_busy_channels = 0;
  uint32_t dma_rows_in_flight = 0;
  uint32_t loop_depth = 0;
  std::array<uint8_t, kLocks> locks{};
};

class VliwHw {
 public:
  virtual ~VliwHw() = default;

  // The parameters the RTL was built with, read from the hardware itself at construction (the runtime
  // DRAM timing is left at its defaults).
  virtual const Params& params() const = 0;
  virtual const std::string& config_name() const = 0;

  // Resets the flops (a few cycles), then zeroes IMEM and DM.
  virtual void reset_and_clear() = 0;
  // One clocked write on the control port (IMEM words, DRAM size, START).
  virtual void ctl_write(uint32_t addr, uint32_t data) = 0;
  // Combinational back-door read of `bytes` bytes (little-endian) of selector `sel`, index `addr`.
  virtual void dbg_read(unsigned sel, uint32_t addr, void* out, unsigned bytes) = 0;

  // Runs at most `budget` cycles (fewer if the machine stops). Returns the cycles run.
  virtual uint64_t run_cycles(uint64_t budget, MemoryPort& port) = 0;
  // The run is over (C_HALT or an error, and the drain after it).
  virtual bool stopped() = 0;
  virtual uint64_t cycle() const = 0;  // since START

  // Optional FST waveform of the next run (opened before START, closed by close_waveform()).
  virtual void open_waveform(const std::string& path) = 0;
  virtual void close_waveform() = 0;
  // Optional bundle trace: every issued bundle with its cycle.
  virtual void set_instruction_trace(std::vector<TraceEntry>* sink) = 0;

  // Helpers on top of the ports.
  void load_program(const std::vector<uint32_t>& words);
  uint32_t status(unsigned word);
  uint64_t status64(unsigned word);
  Counters counters();
  MachineState read_state();
  HangReport hang_report();
};

// The Verilated configurations linked into this binary, and a driver for one of them.
std::vector<std::string> vliw_hw_configs();
std::unique_ptr<VliwHw> make_vliw_hw(const std::string& config);

}  // namespace kcraft::vliw
