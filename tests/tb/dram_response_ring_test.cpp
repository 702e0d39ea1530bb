// The Verilated driver's DRAM bookkeeping (tb/common/dram_response_ring.h): responses come out in request
// order with their rows intact across the ring's growth and wrap-around, and byte enables spread bit for
// byte.
#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <vector>

#include "tb/common/dram_response_ring.h"

namespace kcraft::tb {
namespace {

TEST(ResponseRing, KeepsRequestOrderAndRowsThroughGrowthAndWrapAround) {
  constexpr unsigned kRow = 12;
  ResponseRing ring(kRow);
  uint64_t pushed = 0;
  uint64_t popped = 0;
  auto push = [&] {
    uint8_t* slot = ring.next_slot();
    for (unsigned i = 0; i < kRow; ++i) {
      EXPECT_EQ(slot[i], 0) << "a slot starts zero-filled";
      slot[i] = static_cast<uint8_t>(pushed * 7 + i);
    }
    ring.commit(1000 + pushed);
    ++pushed;
  };
  auto pop = [&] {
    ASSERT_FALSE(ring.empty());
    EXPECT_EQ(ring.front_due(), 1000 + popped);
    for (unsigned i = 0; i < kRow; ++i) EXPECT_EQ(ring.front_data()[i], static_cast<uint8_t>(popped * 7 + i));
    ring.pop();
    ++popped;
  };
  // Interleaved so that the head moves before each growth: 40 outstanding, more than the first capacity.
  for (int round = 0; round < 5; ++round) {
    for (int i = 0; i < 40; ++i) push();
    for (int i = 0; i < 31; ++i) pop();
  }
  while (popped < pushed) pop();
  EXPECT_TRUE(ring.empty());
  // A slot handed out but not committed (the port rejected the request) is not queued.
  ring.next_slot();
  EXPECT_TRUE(ring.empty());
  push();
  ring.clear();
  EXPECT_TRUE(ring.empty());
}

TEST(ExpandByteEnables, SpreadsEachBitToAByteAndCountsThem) {
  std::mt19937 rng(7);
  for (unsigned row_bytes : {1u, 5u, 8u, 13u, 32u, 64u}) {
    for (int trial = 0; trial < 200; ++trial) {
      std::vector<uint8_t> bits((row_bytes + 7) / 8);
      for (auto& b : bits) b = static_cast<uint8_t>(rng());
      std::vector<uint8_t> out(row_bytes, 0x55);
      const unsigned enabled = expand_byte_enables(bits.data(), row_bytes, out.data());
      unsigned expect_enabled = 0;
      for (unsigned i = 0; i < row_bytes; ++i) {
        const bool on = (bits[i / 8] >> (i % 8)) & 1u;
        expect_enabled += on;
        ASSERT_EQ(out[i], on ? 0xFF : 0x00) << "row " << row_bytes << " byte " << i;
      }
      EXPECT_EQ(enabled, expect_enabled) << "bits past the row are not counted";
    }
  }
}

}  // namespace
}  // namespace kcraft::tb
