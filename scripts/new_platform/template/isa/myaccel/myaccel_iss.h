// Functional model of myaccel, cycle-exact.
//
// The core runs one instruction at a time (isa/myaccel.yaml, "Timing model"): an instruction that does not
// touch DRAM takes one cycle; VLD, VST and VBC send their request in the cycle after their issue cycle and
// finish in the cycle their response arrives, DRAM timed like tb/common/dram_model.h (ROW_BYTES /
// DRAM_BYTES_PER_CYCLE cycles on the channel, then DRAM_LATENCY cycles). A run's cycles count from the
// first instruction's issue to the end of the cycle of the HALT (or of the faulting instruction).
#pragma once

#include <cstdint>
#include <functional>
#include <vector>

#include "isa/myaccel/myaccel_machine.h"

namespace kcraft::myaccel {

class Iss {
 public:
  explicit Iss(const Params& params);
  const Params& params() const { return p_; }

  // Zeroes all state and loads the program at word 0 (the rest of IMEM is zero, an illegal word).
  // Throws std::invalid_argument when the program does not fit IMEM_WORDS.
  void reset(const std::vector<uint32_t>& program);

  enum class Stop { kHalted, kError, kCycleCap, kPaused };  // kPaused: step() ran its count
  struct Result {
    Stop stop = Stop::kHalted;
    uint64_t cycles = 0;
  };
  // Runs until HALT, an error, or `max_cycles` cycles. `dram` is read and written in place (its size is
  // the DRAM size for range checks).
  Result run(std::vector<uint8_t>& dram, uint64_t max_cycles);
  // Runs at most `count` instructions (or to the end of the program); for `kcraft debug`-style stepping.
  Result step(std::vector<uint8_t>& dram, uint64_t count, uint64_t max_cycles);

  // Called when an instruction issues: its index, its word, its issue cycle.
  std::function<void(uint32_t pc, uint32_t word, uint64_t cycle)> on_issue;

  const MachineState& state() const { return s_; }
  const Counters& counters() const { return counters_; }
  uint32_t pc() const { return pc_; }
  bool stopped() const { return stopped_; }

 private:
  // Executes the instruction at pc_, returns the cycles it took.
  uint64_t execute(std::vector<uint8_t>& dram);
  // The DRAM checks of VLD, VST and VBC on the row at `row_addr` for the address `addr`.
  bool check_dram(uint32_t addr, uint64_t row_addr, const std::vector<uint8_t>& dram);
  // The cycles a DRAM request sent `now` cycles into the run waits for its response (tb::DramModel).
  uint64_t dram_cycles(uint64_t now);
  void fault(ErrorCode code, uint64_t lo, uint64_t hi);

  Params p_;
  std::vector<uint32_t> imem_;
  MachineState s_;
  Counters counters_{};
  uint64_t cycle_ = 0;
  uint64_t channel_free_ = 0;
  uint32_t pc_ = 0;
  bool stopped_ = false;
};

}  // namespace kcraft::myaccel
