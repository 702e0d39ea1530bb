#include "tb/vliw/vliw_timeline.h"

#include <fmt/format.h>

#include <algorithm>
#include <iterator>

#include "isa/common/bundle.h"
#include "isa/common/disassembler.h"

namespace kcraft::vliw {

namespace {

enum : unsigned { kIssueTrack = 0, kFirstSlotTrack = 1 };

const isa::IsaSpec& spec() {
  return isa::vliw::spec();
}

}  // namespace

size_t VliwTimelineRecorder::track_count() {
  return spec().bundle.slots.size() + 2;
}

VliwTimelineRecorder::VliwTimelineRecorder(std::vector<uint32_t> program, std::string title, double cycle_ns)
    : program_(std::move(program)) {
  timeline_.title = std::move(title);
  timeline_.cycle_ns = cycle_ns;
  using Role = tb::TimelineTrack::Role;
  timeline_.tracks.push_back({"issue", "bundles", Role::kOther});
  const isa::BundleSpec& bundle = spec().bundle;
  for (const isa::SlotSpec& slot : bundle.slots) {
    const isa::SlotKind* kind = bundle.find_kind(slot.kind);
    // The vector slot computes; the others feed it (loads/stores, addresses, loops, locks, DMA ops).
    timeline_.tracks.push_back(
        {fmt::format("{} ({} slot)", slot.name, kind != nullptr ? kind->noun : slot.kind), "ops_" + slot.name,
         slot.kind == "vec" ? Role::kCompute : Role::kOther});
  }
  dram_track_ = static_cast<unsigned>(timeline_.tracks.size());
  timeline_.tracks.push_back({"DRAM port", "", Role::kMemory});
  slot_ops_.assign(bundle.slots.size(), 0);
}

const VliwTimelineRecorder::Decoded& VliwTimelineRecorder::decode(uint32_t pc) {
  auto it = decoded_.find(pc);
  if (it != decoded_.end()) return it->second;
  const isa::IsaSpec& s = spec();
  Decoded d;
  // The bundle's words: from pc up to the word with the end bit (the RTL would not issue it otherwise).
  std::vector<uint32_t> words;
  for (size_t i = pc; i < program_.size(); ++i) {
    words.push_back(program_[i]);
    if (isa::extract(program_[i], s.bundle.end_field) != 0) break;
  }
  std::vector<std::string> texts;
  std::vector<const isa::InstructionSpec*> ops;
  for (uint32_t w : words) {
    texts.push_back(isa::disassemble(s, w));
    ops.push_back(s.find_opcode(isa::extract(w, s.opcode_field)));
  }
  // An illegal bundle never issues (it stops the run), so positions exist for every issued one.
  if (std::find(ops.begin(), ops.end(), nullptr) == ops.end()) {
    if (const auto positions = isa::slot_positions(s, ops)) {
      for (size_t i = 0; i < ops.size(); ++i)
        d.ops.emplace_back(static_cast<unsigned>((*positions)[i]), texts[i]);
    }
  }
  if (texts.size() == 1) {
    d.text = texts[0];
  } else {
    d.text = "{ ";
    for (size_t i = 0; i < texts.size(); ++i) d.text += (i ? " ; " : "") + texts[i];
    d.text += " }";
  }
  return decoded_.emplace(pc, std::move(d)).first->second;
}

void VliwTimelineRecorder::mark(unsigned track, uint64_t cycle, const std::string& name,
                                const std::string& category, int64_t pc, const std::string& cause,
                                const std::string& detail) {
  tb::TimelineSlice fields;
  fields.name = name;
  fields.category = category;
  fields.pc = pc;
  fields.cause = cause;
  fields.detail = detail;
  slices_.mark(track, cycle, name, fields);
}

void VliwTimelineRecorder::retire_rows(uint64_t cycle) {
  while (!rows_due_.empty() && rows_due_.front() <= cycle) rows_due_.pop_front();
  const auto in_flight = static_cast<int64_t>(rows_due_.size());
  if (in_flight != rows_in_flight_) {
    timeline_.samples.push_back({"DRAM rows in flight", cycle, in_flight});
    rows_in_flight_ = in_flight;
  }
}

void VliwTimelineRecorder::on_cycle(uint64_t c, uint32_t stall, bool issued, uint32_t pc, uint32_t /*word*/) {
  retire_rows(c);
  if (stall != 0 && stall < std::size(stall_cycles_)) ++stall_cycles_[stall];
  if (issued) {
    const Decoded& d = decode(pc);
    ++bundles_;
    ops_ += d.ops.size();
    slices_.close(kIssueTrack);
    tb::TimelineSlice s;
    s.track = kIssueTrack;
    s.begin = c;
    s.end = c + 1;
    s.name = d.text;
    s.category = "instruction";
    s.pc = pc;
    timeline_.slices.push_back(std::move(s));
    for (const auto& [slot, text] : d.ops) {
      ++slot_ops_[slot];
      const unsigned track = kFirstSlotTrack + slot;
      slices_.close(track);
      timeline_.slices.push_back({track, c, c + 1, text, "op", static_cast<int64_t>(pc), "", "", 0});
    }
  } else if (stall != 0) {
    const auto* info = isa::vliw::machine::find_stall_cause(stall);
    const std::string cause = info != nullptr ? info->name : fmt::format("cause {}", stall);
    // The bundle waiting to issue: the one at the issue stage's pc (none while draining after C_HALT).
    const bool waiting = info == nullptr || info->code != StallCause::kDrain;
    mark(kIssueTrack, c, "stall: " + cause, "stall", waiting ? static_cast<int64_t>(pc) : -1, cause,
         waiting ? decode(pc).text : "");
  } else {
    slices_.close(kIssueTrack);
  }
}

void VliwTimelineRecorder::on_dram_request(uint64_t cycle, bool write, uint64_t /*addr*/, unsigned /*bytes*/,
                                           uint64_t due) {
  retire_rows(cycle);
  rows_due_.insert(std::upper_bound(rows_due_.begin(), rows_due_.end(), due), due);
  timeline_.samples.push_back({"DRAM rows in flight", cycle, static_cast<int64_t>(rows_due_.size())});
  rows_in_flight_ = static_cast<int64_t>(rows_due_.size());
  mark(dram_track_, cycle, write ? "DMA writes" : "DMA reads", "busy", -1);
}

tb::Timeline VliwTimelineRecorder::finish(uint64_t cycles) {
  slices_.close_all();
  timeline_.cycles = cycles;
  std::stable_sort(timeline_.slices.begin(), timeline_.slices.end(),
                   [](const tb::TimelineSlice& a, const tb::TimelineSlice& b) {
                     return a.track != b.track ? a.track < b.track : a.begin < b.begin;
                   });
  timeline_.totals.emplace_back("bundles", bundles_);
  timeline_.totals.emplace_back("ops", ops_);
  const isa::BundleSpec& bundle = spec().bundle;
  for (size_t k = 0; k < bundle.slots.size(); ++k)
    timeline_.totals.emplace_back("ops_" + bundle.slots[k].name, slot_ops_[k]);
  for (const auto& info : isa::vliw::machine::kStallCauses) {
    if (info.counter < 0) continue;
    timeline_.totals.emplace_back(isa::vliw::machine::kCounters[static_cast<size_t>(info.counter)].name,
                                  stall_cycles_[static_cast<unsigned>(info.code)]);
  }
  return std::move(timeline_);
}

}  // namespace kcraft::vliw
