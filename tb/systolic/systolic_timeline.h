// Builds a run's timeline from the systolic RTL's trace word (systolic_top.trace_o), sampled every cycle.
//
// The trace word carries the very terms the performance counters add up (stall cause, vector issue,
// matrix/array/DMA/SFU busy, DRAM rows), plus command boundaries (matrix unit state, M_MM retirement,
// DMA command start and completion), so the timeline's totals equal the counters by construction and
// the tests check it.
#pragma once

#include <cstdint>
#include <deque>
#include <string>
#include <unordered_map>

#include "isa/systolic/systolic_machine.h"
#include "tb/common/run_job.h"
#include "tb/common/timeline.h"
#include "tb/systolic/systolic_hw.h"

namespace kcraft::systolic {

class SystolicTimelineRecorder final : public tb::TimelineRecorder {
 public:
  explicit SystolicTimelineRecorder(const Params& params, std::string title = "", double cycle_ns = 1.0);

  void on_cycle(uint64_t cycle, uint32_t trace_word, bool issued, uint32_t pc, uint32_t insn) override;
  // Closes what is still open at `cycles` (the run's length) and computes the totals.
  tb::Timeline finish(uint64_t cycles) override;

 private:
  enum Track : unsigned { kIssue, kVector, kSfu, kMatrix, kArray, kDma, kNumTracks };

  struct Decoded {
    std::string text;  // disassembly
    std::string unit;  // ISA unit: control, scalar, vector, matrix, dma
    bool sfu = false;
    bool ldw = false, mm = false, wo = false;
  };

  const Decoded& decode(uint32_t pc, uint32_t insn);
  // Extends the open slice of `track` to cover `cycle` when the key matches, else closes it and opens one.
  void mark(Track track, uint64_t cycle, const std::string& key, const std::string& name,
            const std::string& category, int64_t pc = -1, const std::string& cause = "");
  void close(Track track);

  Params params_;
  tb::Timeline timeline_;
  tb::SliceBuilder slices_{timeline_, kNumTracks};
  std::unordered_map<uint64_t, Decoded> decoded_;  // by (pc, word)

  // matrix unit
  int64_t mat_current_ = -1;  // index in ops of the last accepted matrix operation
  bool mat_current_is_ldw_ = false;
  bool mat_current_is_wo_ = false;
  std::deque<size_t> mat_pending_;  // M_MM/M_MMA waiting for their last row to reach the accumulators
  // special functions: operations in the open busy window, and those issued before it opens
  unsigned sfu_ops_in_window_ = 0, sfu_pending_ops_ = 0;
  std::string sfu_first_, sfu_pending_first_;
  // DMA: commands in order of acceptance
  std::deque<size_t> dma_not_started_, dma_not_done_;
  int64_t dma_slots_in_use_ = 0;
  uint64_t dma_all_slots_taken_ = 0;
  uint64_t last_cycle_ = 0;
  bool any_cycle_ = false;

  uint64_t stall_cycles_[16] = {};
  uint64_t instructions_ = 0, bytes_read_ = 0, bytes_written_ = 0;
};

}  // namespace kcraft::systolic
