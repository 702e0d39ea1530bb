// kcraft debug's comparison of two snapshots: the first difference, with pcs written as the platform's
// listings write them.
#include <gtest/gtest.h>

#include <fmt/format.h>

#include "tb/common/debug_session.h"

namespace kcraft::tb {
namespace {

TEST(DebugSnapshot, APcDifferenceIsWrittenTheWayThePlatformWritesPcs) {
  MachineSnapshot rtl, model;
  rtl.pc = 0x404;
  model.pc = 0x38c;
  const auto decimal = first_difference(rtl, model);
  ASSERT_TRUE(decimal.has_value());
  EXPECT_EQ(decimal->where, "pc");
  EXPECT_EQ(decimal->rtl, "1028");
  EXPECT_EQ(decimal->model, "908");
  const auto hex = first_difference(rtl, model, [](uint32_t pc) { return fmt::format("0x{:x}", pc); });
  ASSERT_TRUE(hex.has_value());
  EXPECT_EQ(hex->rtl, "0x404");
  EXPECT_EQ(hex->model, "0x38c");
  model.pc = rtl.pc;
  EXPECT_FALSE(first_difference(rtl, model).has_value());
}

}  // namespace
}  // namespace kcraft::tb
