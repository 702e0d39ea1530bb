// The Verilated driver's DRAM bookkeeping (tb/common/verilated_driver.h), kept free of Verilator so that it
// can be tested on its own: the queue of responses waiting for their cycle, and byte enables spread from
// the RTL's one bit per byte to TLM-2.0's one byte per byte.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <vector>

namespace kcraft::tb {

// The DRAM responses waiting for their cycle, in request order: a ring of row-sized slots (a power of two of
// them) that doubles when full, so that the steady state allocates nothing (one request every few cycles on a
// streaming kernel).
class ResponseRing {
 public:
  explicit ResponseRing(unsigned row_bytes = 0) : row_bytes_(row_bytes) {}

  void clear() {
    head_ = 0;
    size_ = 0;
  }
  bool empty() const { return size_ == 0; }
  uint64_t front_due() const { return due_[head_]; }
  const uint8_t* front_data() const { return &data_[head_ * row_bytes_]; }
  void pop() {
    head_ = (head_ + 1) & (due_.size() - 1);
    --size_;
  }
  // The slot after the last response, zero-filled; commit() queues it with its due cycle (a request the
  // port rejects is never queued).
  uint8_t* next_slot() {
    if (size_ == due_.size()) grow();
    uint8_t* data = &data_[((head_ + size_) & (due_.size() - 1)) * row_bytes_];
    std::memset(data, 0, row_bytes_);
    return data;
  }
  void commit(uint64_t due) {
    due_[(head_ + size_) & (due_.size() - 1)] = due;
    ++size_;
  }

 private:
  void grow() {
    const size_t capacity = std::max<size_t>(16, 2 * due_.size());
    std::vector<uint64_t> due(capacity);
    std::vector<uint8_t> data(capacity * row_bytes_);
    for (size_t i = 0; i < size_; ++i) {
      const size_t from = (head_ + i) & (due_.size() - 1);
      due[i] = due_[from];
      std::memcpy(&data[i * row_bytes_], &data_[from * row_bytes_], row_bytes_);
    }
    due_ = std::move(due);
    data_ = std::move(data);
    head_ = 0;
  }

  std::vector<uint64_t> due_;
  std::vector<uint8_t> data_;
  size_t head_ = 0;
  size_t size_ = 0;
  unsigned row_bytes_;
};

// One byte-enable bit per row byte, spread to TLM's one byte per data byte (0xFF enabled, 0x00 disabled),
// eight at a time; returns how many are enabled.
inline unsigned expand_byte_enables(const uint8_t* bits, unsigned row_bytes, uint8_t* out) {
  unsigned enabled = 0;
  for (unsigned i = 0; i < row_bytes; i += 8) {
    const unsigned n = std::min(8u, row_bytes - i);
    const uint64_t b = bits[i / 8] & ((1u << n) - 1);
    // Byte k of `ones` keeps bit k of b, then becomes 1 if that bit was set; their sum is the count.
    uint64_t ones = (b * 0x0101010101010101ull) & 0x8040201008040201ull;
    ones = (((ones + 0x7F7F7F7F7F7F7F7Full) | ones) & 0x8080808080808080ull) >> 7;
    enabled += static_cast<unsigned>((ones * 0x0101010101010101ull) >> 56);
    const uint64_t spread = ones * 0xFF;
    if (n == 8) {
      std::memcpy(out + i, &spread, 8);  // a fixed size: one store
    } else {
      std::memcpy(out + i, &spread, n);
    }
  }
  return enabled;
}

}  // namespace kcraft::tb
