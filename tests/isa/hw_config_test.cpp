// Hardware configuration files (isa/common/hw_config.cpp): what a broken file reports.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "isa/common/hw_config.h"
#include "isa/tools/hwconfig.h"

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
  EXPECT_THAT(error_of("platform: systolic\nname: x\n"),
              HasSubstr("configs/broken.yaml: build: expected a mapping"));
  EXPECT_THAT(error_of("platform: systolic\nname: x\nbuild: {MLEN: big}\n"),
              HasSubstr("build.MLEN: expected an integer, got 'big'"));
  EXPECT_THAT(error_of("platform: systolic\nname: x\nbuild: {}\ncolour: red\n"),
              HasSubstr("colour: unknown field"));
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
  EXPECT_THAT(error_of("platform: systolic\nname: x\nbuild: {: 8}\n"),
              HasSubstr("build: keys must be names"));
}

// Found by fuzzing (tests/fuzz/regressions/hw_config_yaml): kcraft and kcraft_isagen read the same file
// differently. A build key that is no Verilog identifier was accepted by kcraft and rejected by the
// generator; "010" was 8 for kcraft (yaml-cpp reads octal) and 10 for the generator (and Verilog), so the
// RTL would have been built with other parameters than the model and the tools use; "-0x10" and "08" were
// accepted by one reader only; a key given twice kept one value in kcraft and both in the generator.
TEST(HwConfig, KcraftAndTheGeneratorReadTheSameParameters) {
  const std::string head = "platform: systolic\nname: x\n";
  for (const auto& [text, value] :
       std::vector<std::pair<std::string, int64_t>>{{"010", 10},
                                                    {"08", 8},
                                                    {"-0x10", -16},
                                                    {"+8", 8},
                                                    {"0X1f", 31},
                                                    {"-9223372036854775808", INT64_MIN}}) {
    const std::string yaml = head + "build: {MLEN: " + text + "}\n";
    EXPECT_EQ(parse_hw_config(yaml, "x.yaml").build_param("MLEN"), value) << text;
    const auto args = isa::gen::verilator_args_from_hwconfig_text(yaml, "x.yaml");
    EXPECT_EQ(args.text, "-GMLEN=" + std::to_string(value) + "\n") << text;
  }
  for (const char* text : {"0o10", "0b1", "8.0", "1e3", "9223372036854775808", "0x", "-", "1_000"}) {
    const std::string yaml = head + "build: {MLEN: '" + text + "'}\n";
    EXPECT_THAT(error_of(yaml), HasSubstr("build.MLEN: expected an integer")) << text;
    EXPECT_FALSE(isa::gen::verilator_args_from_hwconfig_text(yaml, "x.yaml").errors.empty()) << text;
  }
  EXPECT_THAT(error_of(head + "build: {9MLEN: 8}\n"), HasSubstr("build.9MLEN: not a parameter name"));
  EXPECT_THAT(error_of(head + "build: {MLEN: 8, MLEN: 16}\n"), HasSubstr("build.MLEN: given twice"));
  EXPECT_THAT(
      isa::gen::verilator_args_from_hwconfig_text(head + "build: {MLEN: 8, MLEN: 16}\n", "x.yaml").errors,
      ::testing::ElementsAre(HasSubstr("field 'build.MLEN': given twice")));
  EXPECT_THAT(error_of(head + "build: {}\nbuild: {}\n"), HasSubstr("build: given twice"));
}

// The testbench converts runtime settings to integers; NaN, infinities and negative values would be
// undefined there.
TEST(HwConfig, RuntimeSettingsAreFiniteAndNotNegative) {
  for (const char* value : {".nan", ".inf", "-1", "1e300", "[1]"}) {
    EXPECT_THAT(error_of(std::string("platform: systolic\nname: x\nbuild: {}\nruntime: {clock_mhz: ") +
                         value + "}\n"),
                HasSubstr("runtime.clock_mhz: expected a number from 0 to 2^53"))
        << value;
  }
  EXPECT_EQ(parse_hw_config("platform: s\nname: x\nbuild: {}\nruntime: {clock_mhz: 0.5}\n", "x.yaml")
                .runtime_param("clock_mhz"),
            0.5);
}

}  // namespace
}  // namespace kcraft
