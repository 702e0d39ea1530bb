// Functional model of the vliw tile, cycle-exact.
//
// It defines the timing the RTL must reproduce on architectural state: one bundle issues per cycle unless
// the core stalls (a lock at 0, a full DMA queue, a bank conflict between the two load/store ops); results
// land `latency` bundles after issue (isa/vliw.yaml), with no interlock, and a stall freezes the pipeline;
// DMA channels share the DRAM port (one row launched per cycle at most, DMA_OUTSTANDING rows in flight at
// most, DRAM timed like tb/common/dram_model.h: DRAM_BYTES_PER_CYCLE bandwidth, then DRAM_LATENCY cycles).
// Within a cycle: a DMA row launch reads its source (DRAM, or DM for a store, whose DRAM bytes are written
// then) first, then the core issues (stores write DM, locks and queues change), then the row due this
// cycle completes (a load's DM write, lock releases); the core sees completions from the next cycle on.
// docs/vliw.md states the same rules for kernel writers.
#pragma once

#include <cstdint>
#include <deque>
#include <functional>
#include <optional>
#include <vector>

#include "isa/common/disassembler.h"
#include "isa/vliw/vliw_machine.h"

namespace kcraft::vliw {

class Iss {
 public:
  explicit Iss(const Params& params);

  const Params& params() const { return p_; }

  // Zeroes all state and loads the program at word 0 (the rest of IMEM is zero, an illegal word).
  // Throws std::invalid_argument when the program does not fit IMEM_WORDS.
  void reset(const std::vector<uint32_t>& program);

  enum class Stop { kHalted, kError, kCycleCap };
  struct Result {
    Stop stop = Stop::kHalted;
    uint64_t cycles = 0;
  };

  // Runs until C_HALT (and the drain after it), an error, or max_cycles cycles. `dram` is the DRAM image,
  // read and written in place (its size is the DRAM size for range checks).
  Result run(std::vector<uint8_t>& dram, uint64_t max_cycles);

  // Called when a bundle issues: its first word's index, its words, the cycle.
  std::function<void(uint32_t pc, const std::vector<uint32_t>& words, uint64_t cycle)> on_issue;

  const MachineState& state() const { return s_; }
  // For `kcraft debug`'s test hook (DebugOptions::model_fault): changes the state between two run()s.
  MachineState& mutable_state() { return s_; }
  // Makes the results due at the current pipeline step visible now, as the RTL's register files hold them
  // at the start of the cycle (the next step would apply them before its bundle reads any): for comparing
  // the state with the RTL's in the middle of a run (`kcraft debug`).
  void settle() { apply_due(); }
  const Counters& counters() const { return counters_; }
  // Why the core did not issue in the last cycle (kNone if it did): for hang reports.
  StallCause last_stall() const { return last_stall_; }
  // What the DMA and the loops hold now, as the RTL's hang report reads them (tb/vliw/vliw_hw.h).
  struct Activity {
    uint32_t dma_busy_channels = 0;  // bit c: channel c has a transfer queued or in flight
    uint32_t dma_rows_in_flight = 0;
    uint32_t loop_depth = 0;
  };
  Activity activity() const;
  // The bundle the core issues next (the one it stalls on, in a hang).
  uint32_t pc() const { return pc_; }

 private:
  struct DecodedOp {
    const isa::InstructionSpec* insn = nullptr;
    isa::vliw::Op op{};
    std::vector<int64_t> values;
    size_t slot = 0;  // position in the bundle's slot list
  };
  struct Bundle {
    std::vector<uint32_t> words;
    std::vector<DecodedOp> ops;
    MachineError error;  // set when the words do not form a legal bundle
  };
  struct PendingWrite {
    uint64_t due = 0;  // pipeline step at which it becomes visible
    uint64_t order = 0;
    char kind = 'r';  // r, p, v, a
    unsigned index = 0;
    std::vector<uint32_t> lanes;
  };
  struct Transfer {
    bool store = false;
    uint64_t dm = 0;
    uint64_t dram = 0;
    uint64_t stride = 0;
    uint64_t rows = 0;
    unsigned lock = kNoLock;
    uint32_t pc = 0;
    uint64_t requested = 0;
    uint64_t completed = 0;
  };
  struct RowInFlight {
    uint64_t done = 0;  // cycle at the end of which the row completes
    unsigned channel = 0;
    bool store = false;
    uint64_t dm = 0;
    uint64_t dram = 0;
    std::vector<uint8_t> data;
  };

  const Bundle& bundle_at(uint32_t pc);
  void core_step(std::vector<uint8_t>& dram);
  std::optional<MachineError> check(const Bundle& b, uint32_t pc, const std::vector<uint8_t>& dram) const;
  void execute(const Bundle& b, uint32_t pc);
  struct OpExec;  // one op of the bundle execute() runs, by unit (vliw_iss.cpp)
  void dma_requests(std::vector<uint8_t>& dram);
  void dma_completions();
  void apply_due();
  void schedule(char kind, unsigned index, std::vector<uint32_t> lanes, unsigned latency);
  void fault(const MachineError& e);
  bool dma_idle() const;

  Params p_;
  std::vector<uint32_t> imem_;
  std::vector<std::optional<Bundle>> decoded_;  // per pc, filled on first fetch
  Bundle out_of_range_bundle_;                  // what bundle_at answers for a pc past the memory
  MachineState s_;
  Counters counters_{};
  struct Loop {
    uint32_t start, end;
    uint32_t left;
  };
  std::vector<Loop> loops_;
  std::vector<PendingWrite> pending_;
  std::vector<std::deque<Transfer>> queues_;
  std::deque<RowInFlight> rows_;
  uint64_t pipe_ = 0;  // pipeline steps: one per issued bundle and per drain cycle
  uint64_t order_ = 0;
  uint64_t cycle_ = 0;
  uint64_t dram_free_ = 0;  // the cycle DRAM's channel is free (tb::DramModel's channel_free_)
  unsigned next_channel_ = 0;
  uint32_t pc_ = 0;
  bool draining_ = false;
  bool stopped_ = false;
  bool bank_stall_taken_ = false;
  StallCause last_stall_ = StallCause::kNone;
};

}  // namespace kcraft::vliw
