#include "tb/common/dram_model.h"

#include <algorithm>
#include <cstring>

namespace kcraft::tb {

void DramModel::load(std::vector<uint8_t> image) {
  mem_ = std::move(image);
  violations_.clear();
  channel_free_ = 0;
  bytes_read_ = 0;
  bytes_written_ = 0;
}

uint64_t DramModel::access(bool write, uint64_t addr, uint8_t* data, unsigned len, uint64_t now,
                           uint32_t pc) {
  if (write) {
    std::memcpy(&mem_[addr], data, len);
    bytes_written_ += len;
    if (!writable_.empty()) {
      bool allowed = std::any_of(writable_.begin(), writable_.end(),
                                 [&](const DramRegion& r) { return addr >= r.begin && addr + len <= r.end; });
      if (!allowed) violations_.push_back(DramWriteViolation{addr, len, pc});
    }
  } else {
    std::memcpy(data, &mem_[addr], len);
    bytes_read_ += len;
  }
  const uint64_t bpc = std::max<uint64_t>(1, timing_.bytes_per_cycle);
  const uint64_t start = std::max(now, channel_free_);
  channel_free_ = start + (len + bpc - 1) / bpc;
  return channel_free_ + timing_.latency_cycles;
}

}  // namespace kcraft::tb
