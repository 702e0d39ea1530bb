// Where a task's tensors live in DRAM: inputs in declaration order from address 0, then outputs, then the
// scratch region, each starting on an `alignment` boundary. Tensors are dense, row-major, little-endian.
// A kernel may write only the output and scratch regions.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "tasks/common/task_spec.h"
#include "tasks/common/tensor.h"

namespace kcraft::tasks {

enum class RegionKind { input, output, scratch, phase };

// Each phase of a task (TaskSpec::phases) gets a writable marker region of this size named
// "phase_<name>", after the scratch region: a kernel writes anything there when the phase starts. Large
// enough for any platform's smallest DRAM store (a full vector row).
constexpr uint64_t kPhaseMarkerBytes = 256;
std::string phase_region_name(const std::string& phase);

std::string_view region_kind_name(RegionKind kind);

struct DramRegion {
  std::string name;
  RegionKind kind = RegionKind::input;
  std::string role;  // activation | weight | output | scratch
  uint64_t address = 0;
  uint64_t bytes = 0;
  Shape shape;                         // empty for scratch
  std::vector<int64_t> strides_bytes;  // row-major strides in bytes
  bool writable = false;

  uint64_t end() const { return address + bytes; }
};

struct DramLayout {
  std::string task;
  std::string config;
  DType dtype = DType::bf16;
  uint64_t alignment = 64;
  std::vector<DramRegion> regions;
  uint64_t total_bytes = 0;  // end of the last region, rounded up to the alignment

  const DramRegion& region(const std::string& name) const;  // throws std::out_of_range
  const DramRegion* find(const std::string& name) const;
  // [begin, end) byte ranges a kernel may write (outputs and scratch), ascending.
  std::vector<std::pair<uint64_t, uint64_t>> writable_ranges() const;
  bool is_writable(uint64_t address, uint64_t bytes) const;
  // The phase marker regions in phase order (empty for tasks without phases).
  std::vector<const DramRegion*> phase_markers() const;
};

// Throws std::invalid_argument when alignment is not a power of two of at least the element size.
DramLayout compute_layout(const ResolvedConfig& config, uint64_t alignment = 64);
DramLayout compute_layout(const TaskSpec& spec, const std::string& config, DType dtype,
                          uint64_t alignment = 64);

std::string format_layout(const DramLayout& layout);
nlohmann::json to_json(const DramLayout& layout);

// A DRAM image of layout.total_bytes with the inputs in place. Output and scratch regions are filled with
// `fill` (0xFF: every element reads as NaN, so outputs a kernel never writes cannot pass by accident).
std::vector<uint8_t> make_dram_image(const DramLayout& layout, const std::vector<Tensor>& inputs,
                                     uint8_t fill = 0xFF);
// Reads the output regions back as tensors (layout order).
std::vector<Tensor> read_outputs(const DramLayout& layout, const std::vector<uint8_t>& image);

}  // namespace kcraft::tasks
