// The rvv core's timeline (tb/common/timeline.h), recorded from the Verilated rvv_top: every retired
// instruction (retire_o, at WB), every stall cycle with its cause (stall_o, the counters' cause), and the
// DRAM port's requests (DRAM rows in flight as a counter track).
#pragma once

#include <array>
#include <cstdint>
#include <deque>
#include <map>
#include <string>
#include <vector>

#include "tb/common/run_job.h"
#include "tb/common/timeline.h"
#include "tb/rvv/rvv_regs.h"

namespace kcraft::rvv {

class RvvTimelineRecorder final : public tb::TimelineRecorder {
 public:
  // `program`: the ITCM words (slices are named by their disassembly).
  RvvTimelineRecorder(std::vector<uint32_t> program, std::string title, double cycle_ns);

  void on_cycle(uint64_t cycle, uint32_t trace_word, bool issued, uint32_t pc, uint32_t insn) override;
  void on_dram_request(uint64_t cycle, bool write, uint64_t addr, unsigned bytes, uint64_t due) override;
  tb::Timeline finish(uint64_t cycles) override;

 private:
  const std::string& text(uint32_t pc, uint32_t word);
  void retire_rows(uint64_t cycle);

  std::vector<uint32_t> program_;
  std::map<uint32_t, std::string> listing_;
  std::map<uint32_t, std::string> texts_;
  tb::Timeline timeline_;
  tb::SliceBuilder slices_{timeline_, 3};
  uint64_t retired_ = 0;
  std::array<uint64_t, 8> stall_cycles_{};
  std::deque<uint64_t> rows_due_;
  int64_t rows_in_flight_ = 0;
};

}  // namespace kcraft::rvv
