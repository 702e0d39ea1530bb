// DRAM: storage, a latency/bandwidth timing model and write-permission checking.
//
// Plain C++ so the same model serves the SystemC TLM target (tb/common/dram_target.h) and the bare
// Verilator loop the speed benchmark compares against. Requests are served in order on one channel:
// a request of n bytes arriving at cycle t occupies the channel for ceil(n / bytes_per_cycle) cycles from
// max(t, channel free) and completes `latency` cycles after that, so back-to-back rows stream at the
// channel's bandwidth after one latency.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace kcraft::tb {

struct DramTiming {
  uint64_t latency_cycles = 40;
  uint64_t bytes_per_cycle = 32;
};

// A DRAM byte range [begin, end) a kernel is allowed to write (outputs and scratch of its task).
struct DramRegion {
  uint64_t begin = 0;
  uint64_t end = 0;
  std::string name;
};

struct DramWriteViolation {
  // Without byte enables the whole write; with them, its first enabled byte outside every writable region
  // and the number of such bytes.
  uint64_t addr = 0;
  unsigned bytes = 0;
  uint32_t pc = 0;  // the instruction that issued the write
};

// A write to a phase marker region (tasks::DramLayout::phase_markers): phase `phase` starts at `cycle`.
struct PhaseMark {
  unsigned phase = 0;
  uint64_t cycle = 0;
};

class DramModel {
 public:
  void configure(const DramTiming& timing) { timing_ = timing; }
  const DramTiming& timing() const { return timing_; }

  // The image the run starts from; its size is the DRAM size. Resets timing and statistics.
  void load(std::vector<uint8_t> image);
  std::vector<uint8_t>& bytes() { return mem_; }
  const std::vector<uint8_t>& bytes() const { return mem_; }
  uint64_t size() const { return mem_.size(); }

  // Empty means every write is allowed.
  void set_writable(std::vector<DramRegion> regions) { writable_ = std::move(regions); }
  const std::vector<DramWriteViolation>& violations() const { return violations_; }
  // Marker regions in phase order; a write whose first (enabled) byte falls in region i records PhaseMark
  // {i, the cycle the write arrives}. load() clears the marks, not the regions.
  void set_phase_markers(std::vector<DramRegion> regions) { phase_markers_ = std::move(regions); }
  const std::vector<PhaseMark>& phase_marks() const { return phase_marks_; }

  // Whether [addr, addr + len) is inside the DRAM; with byte enables (see access()), only the enabled bytes
  // must be (a row that straddles the end of the image is fine if its bytes past the end are disabled).
  bool in_range(uint64_t addr, unsigned len, const uint8_t* byte_enable = nullptr) const;

  // Performs the access at cycle `now` and returns the cycle its response is due. The caller has checked
  // in_range(). `byte_enable` (nullptr: all bytes) has one byte per data byte, 0 = disabled (TLM-2.0's
  // convention): a write changes only the enabled bytes, a read fills only them (the others keep what
  // `data` held), and the statistics and write violations count only them. The channel is occupied for
  // the whole beat of `len` bytes either way. Writes outside the writable regions still happen (the
  // hardware cannot know) but are recorded as violations, which fail the run.
  uint64_t access(bool write, uint64_t addr, uint8_t* data, unsigned len, uint64_t now, uint32_t pc,
                  const uint8_t* byte_enable = nullptr);

  uint64_t bytes_read() const { return bytes_read_; }
  uint64_t bytes_written() const { return bytes_written_; }

 private:
  // Whether [addr, addr + len) lies inside one writable region (or none are set).
  bool inside_one_writable_region(uint64_t addr, unsigned len) const;
  // access() with byte enables: the data and the statistics, then the write violations.
  void access_enabled_bytes(bool write, uint64_t addr, uint8_t* data, unsigned len, uint32_t pc,
                            const uint8_t* byte_enable);

  DramTiming timing_;
  std::vector<uint8_t> mem_;
  std::vector<DramRegion> writable_;
  std::vector<DramWriteViolation> violations_;
  std::vector<DramRegion> phase_markers_;
  std::vector<PhaseMark> phase_marks_;
  uint64_t channel_free_ = 0;
  uint64_t bytes_read_ = 0;
  uint64_t bytes_written_ = 0;
};

}  // namespace kcraft::tb
