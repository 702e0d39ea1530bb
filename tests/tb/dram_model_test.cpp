// The DRAM model (tb/common/dram_model.h), its MemoryPort and its TLM-2.0 target: storage, timing, write
// permissions, and byte enables (only enabled bytes are written, read, range-checked and counted).
#include <gtest/gtest.h>

#include <tlm_utils/simple_initiator_socket.h>

#include <cstdint>
#include <numeric>
#include <stdexcept>
#include <systemc>
#include <tlm>
#include <vector>

#include "tb/common/accelerator_hw.h"
#include "tb/common/dram_model.h"
#include "tb/common/dram_target.h"

namespace kcraft::tb {
namespace {

std::vector<uint8_t> iota_image(size_t n) {
  std::vector<uint8_t> v(n);
  std::iota(v.begin(), v.end(), uint8_t{0});
  return v;
}

std::vector<uint8_t> enables(std::initializer_list<int> bits) {
  std::vector<uint8_t> be;
  for (int b : bits) be.push_back(b ? 0xFF : 0x00);
  return be;
}

TEST(DramModel, WholeRowAccessesReadWriteAndCountEveryByte) {
  DramModel dram;
  dram.load(iota_image(64));
  std::vector<uint8_t> row(8, 0xAA);
  dram.access(true, 8, row.data(), 8, 0, 1);
  std::vector<uint8_t> back(8, 0);
  dram.access(false, 8, back.data(), 8, 0, 2);
  EXPECT_EQ(back, row);
  EXPECT_EQ(dram.bytes()[7], 7);
  EXPECT_EQ(dram.bytes()[16], 16);
  EXPECT_EQ(dram.bytes_written(), 8u);
  EXPECT_EQ(dram.bytes_read(), 8u);
}

TEST(DramModel, ByteEnablesWriteOnlyTheEnabledBytesAndCountOnlyThem) {
  DramModel dram;
  dram.load(iota_image(32));
  std::vector<uint8_t> row = {0xA0, 0xA1, 0xA2, 0xA3, 0xA4, 0xA5, 0xA6, 0xA7};
  const auto be = enables({0, 1, 1, 0, 0, 0, 0, 1});
  dram.access(true, 8, row.data(), 8, 0, 0, be.data());
  const std::vector<uint8_t> expect = {8, 0xA1, 0xA2, 11, 12, 13, 14, 0xA7};
  EXPECT_EQ(std::vector<uint8_t>(dram.bytes().begin() + 8, dram.bytes().begin() + 16), expect);
  EXPECT_EQ(dram.bytes_written(), 3u);
  EXPECT_EQ(dram.bytes()[7], 7);
  EXPECT_EQ(dram.bytes()[16], 16);
}

TEST(DramModel, ByteEnablesReadOnlyTheEnabledBytesAndCountOnlyThem) {
  DramModel dram;
  dram.load(iota_image(32));
  std::vector<uint8_t> data(8, 0x55);
  const auto be = enables({1, 0, 0, 0, 0, 0, 1, 1});
  dram.access(false, 16, data.data(), 8, 0, 0, be.data());
  const std::vector<uint8_t> expect = {16, 0x55, 0x55, 0x55, 0x55, 0x55, 22, 23};
  EXPECT_EQ(data, expect);
  EXPECT_EQ(dram.bytes_read(), 3u);
}

TEST(DramModel, AByteEnabledAccessTakesTheChannelForItsWholeBeat) {
  DramModel dram;
  dram.configure(DramTiming{10, 4});
  dram.load(std::vector<uint8_t>(64));
  std::vector<uint8_t> data(16);
  const auto be = enables({1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0});
  EXPECT_EQ(dram.access(true, 0, data.data(), 16, 0, 0, be.data()), 4u + 10u);
  EXPECT_EQ(dram.access(false, 16, data.data(), 16, 0, 0), 8u + 10u);
}

TEST(DramModel, ViolationsCountOnlyEnabledBytesOutsideTheWritableRegions) {
  DramModel dram;
  dram.load(std::vector<uint8_t>(64));
  dram.set_writable({DramRegion{8, 12, "y"}});
  std::vector<uint8_t> row(8, 1);
  // Bytes 8..11 enabled: inside y although the row [8, 16) is not.
  auto be = enables({1, 1, 1, 1, 0, 0, 0, 0});
  dram.access(true, 8, row.data(), 8, 0, 3, be.data());
  EXPECT_TRUE(dram.violations().empty());
  // Bytes 10, 11 (inside), 13 and 14 (outside).
  be = enables({0, 0, 1, 1, 0, 1, 1, 0});
  dram.access(true, 8, row.data(), 8, 0, 4, be.data());
  ASSERT_EQ(dram.violations().size(), 1u);
  EXPECT_EQ(dram.violations()[0].addr, 13u);
  EXPECT_EQ(dram.violations()[0].bytes, 2u);
  EXPECT_EQ(dram.violations()[0].pc, 4u);
  EXPECT_EQ(dram.bytes()[13], 1);  // the hardware cannot know: the write happens
  EXPECT_EQ(dram.bytes()[12], 0);
  // Without byte enables the whole write is the violation (unchanged for the platforms without them).
  dram.access(true, 8, row.data(), 8, 0, 5);
  ASSERT_EQ(dram.violations().size(), 2u);
  EXPECT_EQ(dram.violations()[1].addr, 8u);
  EXPECT_EQ(dram.violations()[1].bytes, 8u);
}

// A row with every byte enabled (a vector unit's full rows) is copied whole, but its permissions are still
// judged byte by byte: two adjacent regions together cover it, and only the bytes outside them count.
TEST(DramModel, FullyEnabledRowsAreJudgedByteByByte) {
  DramModel dram;
  dram.load(iota_image(64));
  dram.set_writable({DramRegion{8, 12, "y"}, DramRegion{12, 20, "z"}});
  std::vector<uint8_t> row = {0xB0, 0xB1, 0xB2, 0xB3, 0xB4, 0xB5, 0xB6, 0xB7};
  const auto all = enables({1, 1, 1, 1, 1, 1, 1, 1});
  dram.access(true, 8, row.data(), 8, 0, 6, all.data());
  EXPECT_TRUE(dram.violations().empty());
  EXPECT_EQ(std::vector<uint8_t>(dram.bytes().begin() + 8, dram.bytes().begin() + 16), row);
  // [16, 24): bytes 20..23 are outside both regions.
  dram.access(true, 16, row.data(), 8, 0, 7, all.data());
  ASSERT_EQ(dram.violations().size(), 1u);
  EXPECT_EQ(dram.violations()[0].addr, 20u);
  EXPECT_EQ(dram.violations()[0].bytes, 4u);
  EXPECT_EQ(dram.violations()[0].pc, 7u);
  EXPECT_EQ(dram.bytes()[23], 0xB7);
  EXPECT_EQ(dram.bytes_written(), 16u);
  std::vector<uint8_t> back(8, 0);
  dram.access(false, 32, back.data(), 8, 0, 8, all.data());
  EXPECT_EQ(back, std::vector<uint8_t>({32, 33, 34, 35, 36, 37, 38, 39}));
  EXPECT_EQ(dram.bytes_read(), 8u);
}

TEST(DramModel, OnlyEnabledBytesMustBeInRange) {
  DramModel dram;
  dram.load(std::vector<uint8_t>(20));
  EXPECT_FALSE(dram.in_range(16, 8));
  const auto tail = enables({1, 1, 1, 1, 0, 0, 0, 0});
  EXPECT_TRUE(dram.in_range(16, 8, tail.data()));
  const auto past = enables({1, 1, 1, 1, 1, 0, 0, 0});
  EXPECT_FALSE(dram.in_range(16, 8, past.data()));
  const auto none = enables({0, 0, 0, 0, 0, 0, 0, 0});
  EXPECT_TRUE(dram.in_range(1u << 20, 8, none.data()));
  const auto all = enables({1, 1, 1, 1, 1, 1, 1, 1});
  EXPECT_TRUE(dram.in_range(12, 8, all.data()));
  EXPECT_FALSE(dram.in_range(13, 8, all.data()));
  EXPECT_FALSE(dram.in_range(~uint64_t{0} - 3, 8, all.data()));  // wraps around
}

TEST(DramModelPort, PassesByteEnablesAndRejectsEnabledBytesPastTheEnd) {
  DramModel dram;
  dram.load(iota_image(20));
  DramModelPort port(dram);
  std::vector<uint8_t> data(8, 0xEE);
  const auto tail = enables({1, 1, 0, 0, 0, 0, 0, 0});
  port.access(true, 16, data.data(), 8, 0, 0, tail.data());
  EXPECT_EQ(dram.bytes()[16], 0xEE);
  EXPECT_EQ(dram.bytes()[17], 0xEE);
  EXPECT_EQ(dram.bytes()[18], 18);
  EXPECT_EQ(dram.bytes_written(), 2u);
  const auto past = enables({0, 0, 0, 0, 1, 0, 0, 0});
  EXPECT_THROW(port.access(true, 16, data.data(), 8, 0, 0, past.data()), std::runtime_error);
  EXPECT_THROW(port.access(false, 16, data.data(), 8, 0, 0), std::runtime_error);
}

// A TLM initiator bound to the DRAM target.
struct Initiator : sc_core::sc_module {
  tlm_utils::simple_initiator_socket<Initiator> socket{"socket"};
  explicit Initiator(sc_core::sc_module_name name) : sc_module(name) {}
};

tlm::tlm_response_status transport(Initiator& init, bool write, uint64_t addr, uint8_t* data, unsigned len,
                                   uint8_t* be, unsigned be_len) {
  tlm::tlm_generic_payload trans;
  trans.set_command(write ? tlm::TLM_WRITE_COMMAND : tlm::TLM_READ_COMMAND);
  trans.set_address(addr);
  trans.set_data_ptr(data);
  trans.set_data_length(len);
  trans.set_streaming_width(len);
  trans.set_byte_enable_ptr(be);
  trans.set_byte_enable_length(be_len);
  trans.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
  sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
  init.socket->b_transport(trans, delay);
  return trans.get_response_status();
}

TEST(DramTarget, HonoursTlmByteEnables) {
  DramTarget target("dram", sc_core::sc_time(1, sc_core::SC_NS));
  Initiator init("init");
  init.socket.bind(target.socket);
  sc_core::sc_start(sc_core::SC_ZERO_TIME);  // ends elaboration
  target.model().load(iota_image(24));

  std::vector<uint8_t> data(8, 0xC3);
  auto be = enables({0, 0, 0, 1, 1, 0, 0, 0});
  EXPECT_EQ(transport(init, true, 8, data.data(), 8, be.data(), 8), tlm::TLM_OK_RESPONSE);
  EXPECT_EQ(target.model().bytes()[10], 10);
  EXPECT_EQ(target.model().bytes()[11], 0xC3);
  EXPECT_EQ(target.model().bytes()[12], 0xC3);
  EXPECT_EQ(target.model().bytes()[13], 13);
  EXPECT_EQ(target.model().bytes_written(), 2u);

  std::vector<uint8_t> back(8, 0);
  EXPECT_EQ(transport(init, false, 8, back.data(), 8, be.data(), 8), tlm::TLM_OK_RESPONSE);
  EXPECT_EQ(back, std::vector<uint8_t>({0, 0, 0, 0xC3, 0xC3, 0, 0, 0}));

  // A row straddling the end is served when its bytes past the end are disabled, refused otherwise.
  auto tail = enables({1, 1, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0});
  std::vector<uint8_t> row(16, 0x11);
  EXPECT_EQ(transport(init, true, 16, row.data(), 16, tail.data(), 16), tlm::TLM_OK_RESPONSE);
  EXPECT_EQ(target.model().bytes()[23], 0x11);
  EXPECT_EQ(transport(init, true, 16, row.data(), 16, nullptr, 0), tlm::TLM_ADDRESS_ERROR_RESPONSE);
  // A byte-enable array that does not cover the data one to one is refused.
  EXPECT_EQ(transport(init, true, 8, data.data(), 8, be.data(), 4), tlm::TLM_BYTE_ENABLE_ERROR_RESPONSE);
}

TEST(DramModel, WritesToPhaseMarkersAreTimedByTheirFirstEnabledByte) {
  DramModel dram;
  dram.load(std::vector<uint8_t>(4096, 0));
  dram.set_phase_markers({{1024, 1280, "phase_a"}, {1280, 1536, "phase_b"}});
  std::vector<uint8_t> row(64, 7);
  dram.access(true, 1280, row.data(), 64, 10, 0);       // b at 10
  dram.access(false, 1024, row.data(), 64, 20, 0);      // a read is no marker
  dram.access(true, 1024 - 32, row.data(), 64, 30, 0);  // starts before a: no marker
  std::vector<uint8_t> enable(64, 0);
  enable[40] = 1;  // the first enabled byte is at 1024 + 8: a
  dram.access(true, 1024 - 32, row.data(), 64, 40, 0, enable.data());
  dram.access(true, 1535, row.data(), 1, 50, 0);  // last byte of b
  ASSERT_EQ(dram.phase_marks().size(), 3u);
  EXPECT_EQ(dram.phase_marks()[0].phase, 1u);
  EXPECT_EQ(dram.phase_marks()[0].cycle, 10u);
  EXPECT_EQ(dram.phase_marks()[1].phase, 0u);
  EXPECT_EQ(dram.phase_marks()[1].cycle, 40u);
  EXPECT_EQ(dram.phase_marks()[2].phase, 1u);
  dram.load(std::vector<uint8_t>(4096, 0));
  EXPECT_TRUE(dram.phase_marks().empty());
}

}  // namespace
}  // namespace kcraft::tb
