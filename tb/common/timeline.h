// A run's timeline: what every unit did in which cycle, recorded from the RTL, for kernel writers.
//
// Platform-independent. A platform's recorder (e.g. tb/systolic/systolic_timeline.h) samples its RTL's
// trace signals every cycle and fills a Timeline; this file writes it in the Chrome/Perfetto trace-event
// JSON format (open it in ui.perfetto.dev or chrome://tracing) and summarises it as text for agents.
#pragma once

#include <cstdint>
#include <ostream>
#include <string>
#include <utility>
#include <vector>

namespace kcraft::tb {

// One row of the viewer: the issue stage or a unit.
struct TimelineTrack {
  enum class Role {
    kOther,    // the issue stage, or a unit the summary's overlap figures leave out
    kCompute,  // does the kernel's arithmetic
    kMemory,   // moves data between DRAM and the chip
  };
  std::string name;     // "matrix unit"
  std::string counter;  // the performance counter its slices add up to ("" = none)
  Role role = Role::kOther;
};

// Cycles [begin, end) on one track. Slices of one track never overlap and are in time order.
inline constexpr int64_t kPcNotRecorded = -2;

struct TimelineSlice {
  unsigned track = 0;
  uint64_t begin = 0;
  uint64_t end = 0;
  std::string name;       // an instruction's disassembly, "stall: dependency", "rows in flight"
  std::string category;   // "instruction", "stall", "op", "busy"
  int64_t pc = -1;        // the instruction (issued, or waiting to issue for stalls); -1 = none,
                          // kPcNotRecorded = a stall whose waiting instruction the recorder cannot see
  std::string cause;      // stalls: the stall cause's name ("dependency")
  std::string detail;     // stalls: the instruction waiting to issue
  uint64_t finished = 0;  // ops shown as slices: first cycle their result is usable (0 = not shown)
};

// An operation of a unit from acceptance to completion; operations of one unit may overlap (several DMA
// commands in their slots, several M_MM in the array).
struct TimelineOp {
  std::string unit;  // "dma", "matrix", "sfu"
  std::string name;  // the instruction's disassembly
  uint32_t pc = 0;
  uint64_t accepted = 0;  // the unit took it (its issue cycle)
  uint64_t started = 0;   // it began its work (first DRAM request, weight loading, ...)
  uint64_t finished = 0;  // first cycle after its work: the slot is free, the result usable
  uint64_t bytes = 0;     // DMA: DRAM bytes moved
};

// A value that changes over time (DMA slots in use), as of `cycle`.
struct TimelineSample {
  std::string name;
  uint64_t cycle = 0;
  int64_t value = 0;
};

struct Timeline {
  std::string title;      // "systolic/default: gemm C3"
  uint64_t cycles = 0;    // length of the run
  double cycle_ns = 1.0;  // the configuration's clock period (the viewer's axis counts cycles as ns)
  std::vector<TimelineTrack> tracks;
  std::vector<TimelineSlice> slices;
  std::vector<TimelineOp> ops;
  std::vector<TimelineSample> samples;
  // Totals recomputed from the events, named like the performance counters they must equal.
  std::vector<std::pair<std::string, uint64_t>> totals;

  uint64_t total(const std::string& name) const;   // 0 if absent
  int track_index(const std::string& name) const;  // -1 if absent

  // Chrome trace-event JSON (object format): "X" slices per track, nestable async "b"/"e" pairs per
  // operation, "C" counters, "M" metadata naming the process and tracks. ts is in microseconds with one
  // cycle shown as 1 ns, so the viewer's nanoseconds are cycles.
  void write_chrome_json(std::ostream& out) const;
  // A compact text view for agents: busy share and windows per unit, overlaps, the longest stalls with
  // their causes and instructions, DMA slot use. At most about `max_lines` lines.
  std::string summary(size_t max_lines = 60) const;
};

// Builds slices cycle by cycle for a recorder: a track's consecutive cycles marked with the same key, pc and
// cause join into one slice; anything else closes the open slice and opens a new one.
class SliceBuilder {
 public:
  SliceBuilder(Timeline& timeline, size_t tracks) : timeline_(timeline), open_(tracks) {}
  // `fields` gives the slice's name, category, pc, cause and detail (its track and cycles are set here).
  void mark(unsigned track, uint64_t cycle, const std::string& key, const TimelineSlice& fields);
  // Ends the open slice of a track (a cycle in which the track did nothing).
  void close(unsigned track);
  // Whether marking `cycle` could extend the track's open slice (it is open and ends there).
  bool open_until(unsigned track, uint64_t cycle) const {
    return open_[track].open && open_[track].slice.end == cycle;
  }
  // Renames the open slice (e.g. with how many operations it now covers).
  void rename(unsigned track, std::string name) { open_[track].slice.name = std::move(name); }
  void close_all();

 private:
  struct Open {
    bool open = false;
    std::string key;
    TimelineSlice slice;
  };
  Timeline& timeline_;
  std::vector<Open> open_;
};

}  // namespace kcraft::tb
