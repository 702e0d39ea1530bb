#include "tb/common/dram_model.h"

#include <algorithm>
#include <cstring>

namespace kcraft::tb {

void DramModel::load(std::vector<uint8_t> image) {
  mem_ = std::move(image);
  violations_.clear();
  phase_marks_.clear();
  channel_free_ = 0;
  bytes_read_ = 0;
  bytes_written_ = 0;
}

bool DramModel::in_range(uint64_t addr, unsigned len, const uint8_t* byte_enable) const {
  const bool whole = addr + len <= mem_.size() && addr + len >= addr;
  // Every byte of the row in range: whatever is enabled is too (the common case, checked without a loop).
  if (byte_enable == nullptr || whole) return whole;
  for (unsigned i = 0; i < len; ++i) {
    if (byte_enable[i] != 0 && (addr + i < addr || addr + i >= mem_.size())) return false;
  }
  return true;
}

bool DramModel::inside_one_writable_region(uint64_t addr, unsigned len) const {
  return writable_.empty() || std::any_of(writable_.begin(), writable_.end(), [&](const DramRegion& r) {
           return addr >= r.begin && addr + len <= r.end;
         });
}

void DramModel::access_enabled_bytes(bool write, uint64_t addr, uint8_t* data, unsigned len, uint32_t pc,
                                     const uint8_t* byte_enable) {
  // A row whose bytes are all enabled (a vector unit's full rows) is copied whole; the write permissions
  // are still judged byte by byte, but only when the row is not inside one writable region.
  const bool all_enabled = std::memchr(byte_enable, 0, len) == nullptr;
  const bool check_each_byte = write && !inside_one_writable_region(addr, len);
  if (all_enabled) {
    if (write) {
      std::memcpy(&mem_[addr], data, len);
      bytes_written_ += len;
    } else {
      std::memcpy(data, &mem_[addr], len);
      bytes_read_ += len;
    }
  } else {
    for (unsigned i = 0; i < len; ++i) {
      if (byte_enable[i] == 0) continue;
      if (write) {
        mem_[addr + i] = data[i];
        ++bytes_written_;
      } else {
        data[i] = mem_[addr + i];
        ++bytes_read_;
      }
    }
  }
  if (!check_each_byte) return;
  DramWriteViolation v{0, 0, pc};
  for (unsigned i = 0; i < len; ++i) {
    if (byte_enable[i] == 0 || inside_one_writable_region(addr + i, 1)) continue;
    if (v.bytes == 0) v.addr = addr + i;
    ++v.bytes;
  }
  if (v.bytes != 0) violations_.push_back(v);
}

uint64_t DramModel::access(bool write, uint64_t addr, uint8_t* data, unsigned len, uint64_t now, uint32_t pc,
                           const uint8_t* byte_enable) {
  if (byte_enable == nullptr) {
    if (write) {
      std::memcpy(&mem_[addr], data, len);
      bytes_written_ += len;
      if (!inside_one_writable_region(addr, len)) violations_.push_back(DramWriteViolation{addr, len, pc});
    } else {
      std::memcpy(data, &mem_[addr], len);
      bytes_read_ += len;
    }
  } else {
    access_enabled_bytes(write, addr, data, len, pc, byte_enable);
  }
  if (write && !phase_markers_.empty()) {
    uint64_t first = addr;
    if (byte_enable != nullptr) {
      unsigned i = 0;
      while (i < len && byte_enable[i] == 0) ++i;
      first = i < len ? addr + i : ~uint64_t{0};
    }
    for (size_t p = 0; p < phase_markers_.size(); ++p) {
      if (first >= phase_markers_[p].begin && first < phase_markers_[p].end) {
        phase_marks_.push_back(PhaseMark{static_cast<unsigned>(p), now});
        break;
      }
    }
  }
  const uint64_t bpc = std::max<uint64_t>(1, timing_.bytes_per_cycle);
  const uint64_t start = std::max(now, channel_free_);
  channel_free_ = start + (len + bpc - 1) / bpc;
  return channel_free_ + timing_.latency_cycles;
}

}  // namespace kcraft::tb
