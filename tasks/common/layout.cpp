#include "tasks/common/layout.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstring>
#include <stdexcept>

namespace kcraft::tasks {

namespace {
uint64_t align_up(uint64_t value, uint64_t alignment) {
  return (value + alignment - 1) / alignment * alignment;
}

std::string strides_text(const std::vector<int64_t>& strides) {
  return format_shape(strides);
}
}  // namespace

std::string_view region_kind_name(RegionKind kind) {
  switch (kind) {
    case RegionKind::input:
      return "input";
    case RegionKind::output:
      return "output";
    case RegionKind::scratch:
      return "scratch";
    case RegionKind::phase:
      return "phase marker";
  }
  return "?";
}

std::string phase_region_name(const std::string& phase) {
  return "phase_" + phase;
}

std::vector<const DramRegion*> DramLayout::phase_markers() const {
  std::vector<const DramRegion*> markers;
  for (const DramRegion& r : regions) {
    if (r.kind == RegionKind::phase) markers.push_back(&r);
  }
  return markers;
}

const DramRegion* DramLayout::find(const std::string& name) const {
  for (const DramRegion& candidate : regions) {
    if (candidate.name == name) return &candidate;
  }
  return nullptr;
}

const DramRegion& DramLayout::region(const std::string& name) const {
  if (const DramRegion* found = find(name)) return *found;
  throw std::out_of_range("layout of " + task + ": no region '" + name + "'");
}

std::vector<std::pair<uint64_t, uint64_t>> DramLayout::writable_ranges() const {
  std::vector<std::pair<uint64_t, uint64_t>> ranges;
  for (const DramRegion& r : regions) {
    if (r.writable && r.bytes > 0) ranges.emplace_back(r.address, r.end());
  }
  std::sort(ranges.begin(), ranges.end());
  return ranges;
}

bool DramLayout::is_writable(uint64_t address, uint64_t bytes) const {
  for (const auto& [begin, end] : writable_ranges()) {
    if (address >= begin && address + bytes <= end) return true;
  }
  return false;
}

DramLayout compute_layout(const ResolvedConfig& config, uint64_t alignment) {
  const uint64_t element = dtype_bytes(config.dtype);
  if (alignment < element || (alignment & (alignment - 1)) != 0) {
    throw std::invalid_argument(
        fmt::format("DRAM alignment {} must be a power of two of at least {} bytes", alignment, element));
  }
  DramLayout layout;
  layout.task = config.task;
  layout.config = config.config;
  layout.dtype = config.dtype;
  layout.alignment = alignment;
  uint64_t cursor = 0;
  auto place = [&](const ResolvedTensor& tensor, RegionKind kind) {
    DramRegion region;
    region.name = tensor.name;
    region.kind = kind;
    region.role = kind == RegionKind::output ? "output" : std::string(role_name(tensor.role));
    region.address = align_up(cursor, alignment);
    region.bytes = static_cast<uint64_t>(tensor.elements) * element;
    region.shape = tensor.shape;
    for (int64_t stride : row_major_strides(tensor.shape)) {
      region.strides_bytes.push_back(stride * static_cast<int64_t>(element));
    }
    region.writable = kind == RegionKind::output;
    cursor = region.end();
    layout.regions.push_back(std::move(region));
  };
  for (const ResolvedTensor& input : config.inputs) place(input, RegionKind::input);
  for (const ResolvedTensor& output : config.outputs) place(output, RegionKind::output);
  if (config.scratch_bytes > 0) {
    DramRegion scratch;
    scratch.name = "scratch";
    scratch.kind = RegionKind::scratch;
    scratch.role = "scratch";
    scratch.address = align_up(cursor, alignment);
    scratch.bytes = config.scratch_bytes;
    scratch.writable = true;
    cursor = scratch.end();
    layout.regions.push_back(std::move(scratch));
  }
  for (const PhaseSpec& phase : config.phases) {
    DramRegion marker;
    marker.name = phase_region_name(phase.name);
    marker.kind = RegionKind::phase;
    marker.role = "phase";
    marker.address = align_up(cursor, std::max(alignment, kPhaseMarkerBytes));
    marker.bytes = kPhaseMarkerBytes;
    marker.writable = true;
    cursor = marker.end();
    layout.regions.push_back(std::move(marker));
  }
  layout.total_bytes = align_up(cursor, alignment);
  return layout;
}

DramLayout compute_layout(const TaskSpec& spec, const std::string& config, DType dtype, uint64_t alignment) {
  return compute_layout(spec.resolve(config, dtype), alignment);
}

std::string format_layout(const DramLayout& layout) {
  std::string text = fmt::format(
      "DRAM layout of {} {} ({}: {} bytes/element, little-endian, row-major, dense; regions aligned to {} "
      "bytes; offsets from the DRAM base, where ADDR_* are absolute)\n",
      layout.task, layout.config, dtype_name(layout.dtype), dtype_bytes(layout.dtype), layout.alignment);
  size_t name_width = 10;  // phase marker names (phase_attn_norm) are longer than tensor names
  for (const DramRegion& r : layout.regions) name_width = std::max(name_width, r.name.size());
  text += fmt::format("  {:<{}} {:<10} {:<14} {:>10} {:>10} {:>9}  {:<18} {}\n", "name", name_width, "role",
                      "shape", "offset", "end", "bytes", "strides (bytes)", "access");
  for (const DramRegion& r : layout.regions) {
    text +=
        fmt::format("  {:<{}} {:<10} {:<14} {:>#10x} {:>#10x} {:>9}  {:<18} {}\n", r.name, name_width, r.role,
                    r.shape.empty() ? std::string("-") : format_shape(r.shape), r.address, r.end(), r.bytes,
                    r.strides_bytes.empty() ? std::string("-") : strides_text(r.strides_bytes),
                    r.writable ? "read/write" : "read-only");
  }
  text += fmt::format("  total {} bytes ({:#x}); a kernel may write only:", layout.total_bytes,
                      layout.total_bytes);
  bool first = true;
  for (const DramRegion& r : layout.regions) {
    if (!r.writable) continue;
    text += fmt::format("{} {} [{:#x}, {:#x})", first ? "" : ",", r.name, r.address, r.end());
    first = false;
  }
  text += "\n";
  return text;
}

nlohmann::json to_json(const DramLayout& layout) {
  nlohmann::json regions = nlohmann::json::array();
  for (const DramRegion& r : layout.regions) {
    regions.push_back({{"name", r.name},
                       {"kind", region_kind_name(r.kind)},
                       {"role", r.role},
                       {"address", r.address},
                       {"bytes", r.bytes},
                       {"shape", r.shape},
                       {"strides_bytes", r.strides_bytes},
                       {"writable", r.writable}});
  }
  nlohmann::json writable = nlohmann::json::array();
  for (const auto& [begin, end] : layout.writable_ranges()) writable.push_back({begin, end});
  return {{"task", layout.task},
          {"config", layout.config},
          {"dtype", dtype_name(layout.dtype)},
          {"element_bytes", dtype_bytes(layout.dtype)},
          {"byte_order", "little"},
          {"alignment", layout.alignment},
          {"regions", std::move(regions)},
          {"total_bytes", layout.total_bytes},
          {"writable_ranges", std::move(writable)}};
}

std::vector<uint8_t> make_dram_image(const DramLayout& layout, const std::vector<Tensor>& inputs,
                                     uint8_t fill) {
  std::vector<uint8_t> image(layout.total_bytes, 0);
  for (const DramRegion& r : layout.regions) {
    if (r.kind != RegionKind::input) {
      std::fill(image.begin() + static_cast<std::ptrdiff_t>(r.address),
                image.begin() + static_cast<std::ptrdiff_t>(r.end()), fill);
      continue;
    }
    auto it = std::find_if(inputs.begin(), inputs.end(), [&](const Tensor& t) { return t.name == r.name; });
    if (it == inputs.end()) throw std::invalid_argument("make_dram_image: no input tensor '" + r.name + "'");
    if (it->shape != r.shape) {
      throw std::invalid_argument("make_dram_image: input " + r.name + " is " + format_shape(it->shape) +
                                  ", the layout expects " + format_shape(r.shape));
    }
    const std::vector<uint8_t> bytes = encode_tensor(*it, layout.dtype);
    std::memcpy(image.data() + r.address, bytes.data(), bytes.size());
  }
  return image;
}

std::vector<Tensor> read_outputs(const DramLayout& layout, const std::vector<uint8_t>& image) {
  if (image.size() < layout.total_bytes) {
    throw std::invalid_argument(fmt::format("read_outputs: image has {} bytes, the layout needs {}",
                                            image.size(), layout.total_bytes));
  }
  std::vector<Tensor> outputs;
  for (const DramRegion& r : layout.regions) {
    if (r.kind != RegionKind::output) continue;
    outputs.push_back(decode_tensor(r.name, r.shape, layout.dtype, image.data() + r.address, r.bytes));
  }
  return outputs;
}

}  // namespace kcraft::tasks
