// Functional model (instruction-set simulator) of the systolic NPU.
//
// Executes one instruction at a time in program order: the semantics the RTL's interlocks guarantee.
// Bit-exact with the RTL on registers, SRAMs, accumulators, weights, DRAM, the error it stops with and
// the timing-independent counters. It knows nothing about cycles.
#pragma once

#include <cstdint>
#include <functional>
#include <vector>

#include "isa/systolic/systolic_machine.h"

namespace kcraft::systolic {

class Iss {
 public:
  explicit Iss(const Params& params);

  const Params& params() const { return p_; }

  // Zeroes all state and loads the program at instruction 0 (the rest of IMEM is zero = illegal).
  // Throws std::invalid_argument when the program does not fit IMEM_WORDS.
  void reset(const std::vector<uint32_t>& program);

  enum class Stop { kHalted, kError, kInstructionCap };
  struct Result {
    Stop stop = Stop::kHalted;
    uint64_t instructions = 0;
  };

  // Runs until C_HALT, an error, or max_instructions executed. `dram` is the DRAM image, read and written
  // in place (its size is the DRAM size for range checks).
  Result run(std::vector<uint8_t>& dram, uint64_t max_instructions);

  // Called for every DMA store row written to DRAM (address, bytes, pc of the H_STORE_V).
  std::function<void(uint64_t addr, unsigned bytes, uint32_t pc)> on_dram_write;
  // Called before each instruction executes (pc, word), e.g. for an instruction trace.
  std::function<void(uint32_t pc, uint32_t word)> on_issue;

  const MachineState& state() const { return s_; }
  // For `kcraft debug`'s test hook (DebugOptions::model_fault): changes the state between two run()s.
  MachineState& mutable_state() { return s_; }
  const Counters& counters() const { return counters_; }

 private:
  struct Insn;  // an instruction's fields, operands and what it touches (systolic_iss.cpp)
  bool step(std::vector<uint8_t>& dram);  // false when the machine stopped
  // step() by job: decode, the checks in the RTL's order (false after a fault), then one unit executes.
  Insn decode(uint32_t pc, uint32_t word) const;
  bool check(const Insn& i, const std::vector<uint8_t>& dram);
  bool execute_control(const Insn& i, uint32_t& next_pc);  // true: halt
  void execute_scalar(const Insn& i);
  void execute_vector(const Insn& i);
  void execute_matrix(const Insn& i);
  void execute_dma(const Insn& i, std::vector<uint8_t>& dram);
  void fault(uint32_t pc, ErrorCode code, uint64_t lo, uint64_t hi);

  Params p_;
  std::vector<uint32_t> imem_;
  MachineState s_;
  Counters counters_{};
  struct Loop {
    uint32_t start, end;
    uint32_t left;
  };
  std::vector<Loop> loops_;
  uint32_t pc_ = 0;
  bool stopped_ = false;
};

}  // namespace kcraft::systolic
