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
  if (byte_enable == nullptr) return addr + len <= mem_.size() && addr + len >= addr;
  for (unsigned i = 0; i < len; ++i) {
    if (byte_enable[i] != 0 && (addr + i < addr || addr + i >= mem_.size())) return false;
  }
  return true;
}

uint64_t DramModel::access(bool write, uint64_t addr, uint8_t* data, unsigned len, uint64_t now, uint32_t pc,
                           const uint8_t* byte_enable) {
  auto writable = [&](uint64_t a) {
    return writable_.empty() || std::any_of(writable_.begin(), writable_.end(),
                                            [&](const DramRegion& r) { return a >= r.begin && a < r.end; });
  };
  if (byte_enable == nullptr) {
    if (write) {
      std::memcpy(&mem_[addr], data, len);
      bytes_written_ += len;
      if (!writable_.empty()) {
        bool allowed = std::any_of(writable_.begin(), writable_.end(), [&](const DramRegion& r) {
          return addr >= r.begin && addr + len <= r.end;
        });
        if (!allowed) violations_.push_back(DramWriteViolation{addr, len, pc});
      }
    } else {
      std::memcpy(data, &mem_[addr], len);
      bytes_read_ += len;
    }
  } else {
    DramWriteViolation v{0, 0, pc};
    for (unsigned i = 0; i < len; ++i) {
      if (byte_enable[i] == 0) continue;
      if (write) {
        mem_[addr + i] = data[i];
        ++bytes_written_;
        if (!writable(addr + i)) {
          if (v.bytes == 0) v.addr = addr + i;
          ++v.bytes;
        }
      } else {
        data[i] = mem_[addr + i];
        ++bytes_read_;
      }
    }
    if (v.bytes != 0) violations_.push_back(v);
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
