// Builds a run's timeline from the vliw RTL, sampled every cycle: the issue stage (each bundle with its
// disassembly, each stall with its cause from vliw_top.stall_o), every bundle slot's unit (the op it
// issued), and the DRAM port (DMA row requests and the rows in flight).
//
// The slices add up to the performance counters they are named after (bundles, ops, ops_<slot>,
// stall_<cause>), which the tests check against the RTL's counters.
#pragma once

#include <cstdint>
#include <deque>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "isa/vliw/vliw_machine.h"
#include "tb/common/run_job.h"
#include "tb/common/timeline.h"

namespace kcraft::vliw {

class VliwTimelineRecorder final : public tb::TimelineRecorder {
 public:
  // `program` is the IMEM image: the recorder decodes a whole bundle from its first word's pc.
  VliwTimelineRecorder(std::vector<uint32_t> program, std::string title = "", double cycle_ns = 1.0);

  void on_cycle(uint64_t cycle, uint32_t stall, bool issued, uint32_t pc, uint32_t word) override;
  void on_dram_request(uint64_t cycle, bool write, uint64_t addr, unsigned bytes, uint64_t due) override;
  tb::Timeline finish(uint64_t cycles) override;

 private:
  struct Decoded {
    std::string text;                                   // the bundle as the disassembler writes it
    std::vector<std::pair<unsigned, std::string>> ops;  // (slot index, op text)
  };

  const Decoded& decode(uint32_t pc);
  // Extends the open slice of `track` over `cycle` when it continues it with the same name, else closes it
  // and opens a new one.
  void mark(unsigned track, uint64_t cycle, const std::string& name, const std::string& category, int64_t pc,
            const std::string& cause = "", const std::string& detail = "");
  void retire_rows(uint64_t cycle);

  std::vector<uint32_t> program_;
  tb::Timeline timeline_;
  unsigned dram_track_ = 0;
  static size_t track_count();  // issue, one per bundle slot, DRAM port
  tb::SliceBuilder slices_{timeline_, track_count()};
  std::unordered_map<uint32_t, Decoded> decoded_;
  std::vector<uint64_t> slot_ops_;
  uint64_t stall_cycles_[1u << kStallCauseBits] = {};
  uint64_t bundles_ = 0, ops_ = 0;
  std::deque<uint64_t> rows_due_;  // DRAM rows requested, by the cycle their response is due
  int64_t rows_in_flight_ = -1;    // last sampled value
};

}  // namespace kcraft::vliw
