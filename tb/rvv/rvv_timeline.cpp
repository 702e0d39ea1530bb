#include "tb/rvv/rvv_timeline.h"

#include <fmt/format.h>

#include <algorithm>

#include "tb/rvv/rvv_disasm.h"
#include "tb/rvv/rvv_hw.h"

namespace kcraft::rvv {

namespace {
enum : unsigned { kRetireTrack = 0, kStallTrack = 1, kDramTrack = 2 };
}  // namespace

RvvTimelineRecorder::RvvTimelineRecorder(std::vector<uint32_t> program, std::string title, double cycle_ns)
    : program_(std::move(program)) {
  timeline_.title = std::move(title);
  timeline_.cycle_ns = cycle_ns;
  using Role = tb::TimelineTrack::Role;
  timeline_.tracks.push_back({"retire (WB)", "instructions", Role::kCompute});
  timeline_.tracks.push_back({"pipeline stalls", "", Role::kOther});
  timeline_.tracks.push_back({"DRAM port", "", Role::kMemory});
  // One objdump run names every instruction; without the tools the slices show raw words.
  try {
    listing_ = parse_objdump(objdump_words(program_));
  } catch (const std::exception&) {
    listing_.clear();
  }
}

const std::string& RvvTimelineRecorder::text(uint32_t pc, uint32_t word) {
  auto it = texts_.find(pc);
  if (it == texts_.end()) it = texts_.emplace(pc, instruction_text(listing_, pc, word)).first;
  return it->second;
}

void RvvTimelineRecorder::retire_rows(uint64_t cycle) {
  while (!rows_due_.empty() && rows_due_.front() <= cycle) rows_due_.pop_front();
  const auto in_flight = static_cast<int64_t>(rows_due_.size());
  if (in_flight != rows_in_flight_) {
    timeline_.samples.push_back({"DRAM rows in flight", cycle, in_flight});
    rows_in_flight_ = in_flight;
  }
}

void RvvTimelineRecorder::on_cycle(uint64_t c, uint32_t trace_word, bool issued, uint32_t pc, uint32_t word) {
  retire_rows(c);
  const uint32_t stall = trace_stall(trace_word);
  if (issued) {
    ++retired_;
    timeline_.slices.push_back(
        {kRetireTrack, c, c + 1, text(pc, word), "instruction", static_cast<int64_t>(pc), "", "", 0});
  }
  if (stall != 0 && stall < stall_cycles_.size()) {
    ++stall_cycles_[stall];
    const std::string cause = stall_name(static_cast<StallCause>(stall));
    tb::TimelineSlice fields;
    fields.name = "stall: " + cause;
    fields.category = "stall";
    fields.cause = cause;
    fields.pc = tb::kPcNotRecorded;  // the core's trace names retired instructions, not waiting ones
    slices_.mark(kStallTrack, c, fields.name, fields);
  } else {
    slices_.close(kStallTrack);
  }
}

void RvvTimelineRecorder::on_dram_request(uint64_t cycle, bool write, uint64_t /*addr*/, unsigned /*bytes*/,
                                          uint64_t due) {
  retire_rows(cycle);
  rows_due_.insert(std::upper_bound(rows_due_.begin(), rows_due_.end(), due), due);
  timeline_.samples.push_back({"DRAM rows in flight", cycle, static_cast<int64_t>(rows_due_.size())});
  rows_in_flight_ = static_cast<int64_t>(rows_due_.size());
  tb::TimelineSlice fields;
  fields.name = write ? "DRAM writes" : "DRAM reads";
  fields.category = "busy";
  slices_.mark(kDramTrack, cycle, fields.name, fields);
}

tb::Timeline RvvTimelineRecorder::finish(uint64_t cycles) {
  slices_.close_all();
  timeline_.cycles = cycles;
  std::stable_sort(timeline_.slices.begin(), timeline_.slices.end(),
                   [](const tb::TimelineSlice& a, const tb::TimelineSlice& b) {
                     return a.track != b.track ? a.track < b.track : a.begin < b.begin;
                   });
  timeline_.totals.emplace_back("instructions", retired_);
  for (unsigned cause = 1; cause < stall_cycles_.size(); ++cause) {
    const auto c = static_cast<StallCause>(cause);
    if (std::string(stall_name(c)) == "unknown") continue;
    timeline_.totals.emplace_back(std::string("stall_") + stall_name(c), stall_cycles_[cause]);
  }
  return std::move(timeline_);
}

}  // namespace kcraft::rvv
