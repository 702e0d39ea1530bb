// Hardware configuration files (isa/common/hw_config.cpp): what a broken file reports.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "isa/common/hw_config.h"

namespace kcraft {
namespace {

using ::testing::HasSubstr;

const char* const kValid =
    "platform: systolic\nname: tiny\nbuild: {MLEN: 8, VLEN: 8}\nruntime: {dram_latency_cycles: 40}\n";

std::string error_of(const std::string& yaml) {
  try {
    (void)parse_hw_config(yaml, "configs/broken.yaml");
  } catch (const ConfigError& e) {
    return e.what();
  }
  ADD_FAILURE() << "no ConfigError for:\n" << yaml;
  return "";
}

TEST(HwConfig, ParsesText) {
  const HwConfig c = parse_hw_config(kValid, "configs/tiny.yaml");
  EXPECT_EQ(c.name, "tiny");
  EXPECT_EQ(c.source, "configs/tiny.yaml");
  EXPECT_EQ(c.build_param("MLEN"), 8);
  EXPECT_EQ(c.runtime_param("dram_latency_cycles"), 40.0);
}

TEST(HwConfig, BrokenFilesNameTheFileAndField) {
  EXPECT_THAT(error_of("platform: systolic\nname: x\n"), HasSubstr("configs/broken.yaml: build: expected a mapping"));
  EXPECT_THAT(error_of("platform: systolic\nname: x\nbuild: {MLEN: big}\n"),
              HasSubstr("build.MLEN: expected an integer, got 'big'"));
  EXPECT_THAT(error_of("platform: systolic\nname: x\nbuild: {}\ncolour: red\n"), HasSubstr("colour: unknown field"));
  EXPECT_THAT(error_of("platform: [systolic\n"), HasSubstr("YAML syntax error"));
}

// Found by fuzzing (tests/fuzz/regressions/hw_config_yaml): a key that is a list, a mapping or empty made
// yaml-cpp throw its conversion exception out of the loader (kcraft: "internal error").
TEST(HwConfig, KeysThatAreNotNamesAreConfigErrors) {
  EXPECT_THAT(error_of("platform: systolic\nname: x\nbuild: {MLEN: 8}\nruntime:\n  ? dram_bytes: 1\n  : 2\n"),
              HasSubstr("configs/broken.yaml:5:5: runtime: keys must be names, got a mapping"));
  EXPECT_THAT(error_of("platform: systolic\nname: x\nbuild:\n  ? [MLEN]\n  : 8\n"),
              HasSubstr("build: keys must be names, got a list"));
  EXPECT_THAT(error_of("? {a: 1}\n: x\n"), HasSubstr("<top>: keys must be names, got a mapping"));
  EXPECT_THAT(error_of("platform: systolic\nname: x\nbuild: {: 8}\n"), HasSubstr("build: keys must be names"));
}

}  // namespace
}  // namespace kcraft
