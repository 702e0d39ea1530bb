// A platform's Verilated top seen from C++: the host contract every kcraft accelerator top implements, and
// a cycle driver interface independent of SystemC.
//
// Every top has the same host-facing ports, implemented once by rtl/common/kc_host_if.sv: a clocked control
// port (IMEM words, DRAM size, START, CLEAR), a combinational debug back door (status words, counters, then
// platform-specific selectors), one DRAM request/response port of one row per beat, and an issue trace
// (retire_o/retire_pc_o/retire_insn_o). An AcceleratorHw owns one Verilated model (one hardware
// configuration) and runs cycles in a tight C++ loop; DRAM requests go to a MemoryPort (a SystemC TLM
// socket in the testbench, a plain DramModel in the bare speed benchmark and the differential campaigns),
// which answers with the cycle the response is due.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

// The addresses and selectors every top shares (namespace tb::regs), generated from
// rtl/common/host_regs.yaml like the RTL's kc_host_pkg.
#include "tb/common/host_regs.h"

namespace kcraft::tb {

class DramModel;

class MemoryPort {
 public:
  virtual ~MemoryPort() = default;
  // Performs the access DRAM sees at `cycle` (cycles since START) and returns the cycle its response is
  // due. `pc` is the issuing instruction's. `byte_enable` (TLM-2.0's convention: one byte per data byte,
  // 0x00 = disabled, anything else enabled; nullptr = every byte) selects the bytes a write changes and
  // the bytes a read fills; only enabled bytes are range-checked and counted. Throws on an access the DRAM
  // cannot serve.
  virtual uint64_t access(bool write, uint64_t addr, uint8_t* data, unsigned len, uint64_t cycle, uint32_t pc,
                          const uint8_t* byte_enable = nullptr) = 0;
};

// A MemoryPort straight onto a DramModel (tb/common/dram_model.h): the timing the SystemC DRAM target and
// the functional models assume. An access beyond the DRAM is an error naming it.
class DramModelPort final : public MemoryPort {
 public:
  explicit DramModelPort(DramModel& dram) : dram_(dram) {}
  uint64_t access(bool write, uint64_t addr, uint8_t* data, unsigned len, uint64_t cycle, uint32_t pc,
                  const uint8_t* byte_enable = nullptr) override;

 private:
  DramModel& dram_;
};

struct TraceEntry {
  uint64_t cycle = 0;  // cycles since START
  uint32_t pc = 0;     // the issued instruction's (a bundle's first word's) index
  uint32_t word = 0;   // that word
};

// Sees every cycle of a run (for timelines): the top's trace word (its meaning is the platform's), and
// whether an instruction issued, with the pc and word at the issue stage (the waiting one when stalled);
// and every DRAM request with the cycle DRAM sees it in.
class CycleObserver {
 public:
  virtual ~CycleObserver() = default;
  virtual void on_cycle(uint64_t cycle, uint32_t trace_word, bool issued, uint32_t pc, uint32_t insn) = 0;
  // `bytes`: the enabled bytes of the row (the whole row when the top has no byte enables).
  virtual void on_dram_request(uint64_t /*cycle*/, bool /*write*/, uint64_t /*addr*/, unsigned /*bytes*/,
                               uint64_t /*due*/) {}
};

class AcceleratorHw {
 public:
  virtual ~AcceleratorHw() = default;

  virtual const std::string& config_name() const = 0;
  // Instruction words IMEM holds, as the RTL reports it.
  virtual unsigned imem_words() const = 0;

  // Resets the flops (a few cycles), then zeroes every memory and register file.
  virtual void reset_and_clear() = 0;
  // One clocked write on the control port (IMEM words, DRAM size, START).
  virtual void ctl_write(uint32_t addr, uint32_t data) = 0;
  // Combinational back-door read of `bytes` bytes (little-endian) of selector `sel`, index `addr`.
  virtual void dbg_read(unsigned sel, uint32_t addr, void* out, unsigned bytes) = 0;

  // A control-port write (e.g. an IMEM word) made at the next clock edge run_cycles() runs, while the run
  // goes on (ctl_write() takes a clock edge of its own, which serves no DRAM). Called from a CycleObserver's
  // on_cycle(), it lands on the edge that ends the observed cycle. For debuggers that stop a run at a given
  // instruction; the default throws std::logic_error. (Inline: AcceleratorHw keeps no key function, so
  // hardware drivers built apart from kcraft_tb_common, such as variant plugins, link alone.)
  virtual void ctl_write_next_edge(uint32_t /*addr*/, uint32_t /*data*/) {
    throw std::logic_error(config_name() + ": this hardware model takes no control writes during a run");
  }

  // Runs at most `budget` cycles (fewer if the run ends). Returns the cycles run.
  virtual uint64_t run_cycles(uint64_t budget, MemoryPort& port) = 0;
  // The run is over (a halt instruction or an error, and any drain after it).
  virtual bool stopped() = 0;
  virtual uint64_t cycle() const = 0;  // since START
  // The run's length as kcraft reports it (`kcraft eval`'s and `kcraft debug`'s "cycles"): the one
  // definition both print. Default: the driver's cycles since START; a top whose cycle counter stops
  // earlier (vliw: the cycle before halted_o rises) reads its counter. Valid once the run is over.
  virtual uint64_t run_length() { return cycle(); }

  // Optional FST waveform of the next run (opened before START, closed by close_waveform()).
  virtual void open_waveform(const std::string& path) = 0;
  virtual void close_waveform() = 0;
  // Optional instruction trace: every issued instruction (bundle) with its cycle.
  virtual void set_instruction_trace(std::vector<TraceEntry>* sink) = 0;
  // Optional observer of every cycle of the next runs (nullptr: none; costs nothing then).
  virtual void set_cycle_observer(CycleObserver* observer) = 0;
  // Verilator line and toggle coverage (`kcraft coverage --rtl`): writes the counts since the last call to
  // `dat_path` in Verilator's coverage format and zeroes them. False (nothing written) when the model was
  // not Verilated with coverage.
  virtual bool take_rtl_coverage(const std::string& /*dat_path*/) { return false; }

  // Helpers on top of the ports.
  uint32_t status(unsigned word);
  uint64_t status64(unsigned word);
  uint64_t counter(unsigned index);
  // A 32-bit word of back-door selector `sel` at index `addr` (a register, a memory word).
  uint32_t dbg_word(unsigned sel, uint32_t addr);
  // A stopped run's error from the common status words: ERR_CODE, and ERR_PC/LO/HI when it is not 0
  // (none). MachineError is the platform's (its fields code, pc, lo and hi).
  template <typename MachineError>
  MachineError read_error() {
    MachineError e;
    e.code = static_cast<decltype(e.code)>(status(regs::kStErrCode));
    if (status(regs::kStErrCode) != 0) {
      e.pc = status(regs::kStErrPc);
      e.lo = status64(regs::kStErrLo);
      e.hi = status64(regs::kStErrHi);
    }
    return e;
  }
  // Writes the program into IMEM; std::invalid_argument if it does not fit.
  void load_program(const std::vector<uint32_t>& words);
  // Reset, program, DRAM size, START: the run begins with the next run_cycles().
  void start(const std::vector<uint32_t>& program, uint64_t dram_bytes);
};

}  // namespace kcraft::tb
