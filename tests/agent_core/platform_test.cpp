// The registry of the built-in platforms (tb/common/platform.h), as this tree registers them: the default
// first, and unknown names are errors that list the known ones. What every registered platform must answer
// is platform_interface_test.cpp, in a binary of its own that links no platform by name.
#include <gtest/gtest.h>

#include <stdexcept>
#include <string>

#include "tb/common/platform.h"

namespace kcraft {
namespace {

TEST(PlatformRegistry, ListsTheBuiltInPlatformsWithTheDefaultFirst) {
  const auto names = platform_names();
  ASSERT_FALSE(names.empty());
  EXPECT_EQ(names.front(), "systolic");
  EXPECT_EQ(default_platform_name(), "systolic");
  EXPECT_EQ(platform_list_text().rfind("systolic", 0), 0u) << platform_list_text();
  const auto all = platforms();
  ASSERT_EQ(all.size(), names.size());
  for (size_t i = 0; i < all.size(); ++i) {
    EXPECT_EQ(all[i]->name(), names[i]);
    EXPECT_EQ(find_platform(names[i]), all[i]);
    EXPECT_EQ(&platform(names[i]), all[i]);
  }
  EXPECT_EQ(find_platform("nope"), nullptr);
}

TEST(PlatformRegistry, AnUnknownNameListsTheAvailableOnes) {
  try {
    platform("nope");
    FAIL() << "no exception";
  } catch (const std::invalid_argument& e) {
    EXPECT_EQ(std::string(e.what()), "unknown platform 'nope' (available: " + platform_list_text() + ")");
    EXPECT_NE(std::string(e.what()).find("(available: systolic"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace kcraft
