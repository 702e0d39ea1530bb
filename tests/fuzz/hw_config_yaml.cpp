// Fuzzes the readers of hardware configuration files (rtl/<platform>/configs/*.yaml), which hardware teams
// write to try new array sizes and memories. Three readers see the same file:
//   - kcraft's loader (isa/common/hw_config.cpp) and the systolic parameters built from it,
//   - kcraft_isagen's Verilator parameter writer (isa/tools/hwconfig.cpp),
//   - the results store's copy of the configuration (agent/bench/plan.cpp, YAML to JSON).
//
// Each must answer with its documented error (ConfigError; messages for kcraft_isagen) or a result, never a
// crash. A file the systolic platform accepts must also give Verilator parameters: otherwise kcraft would
// list a configuration that cannot be built.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "agent/bench/plan.h"
#include "isa/common/hw_config.h"
#include "isa/systolic/systolic_machine.h"
#include "isa/tools/hwconfig.h"
#include "tests/fuzz/fuzz_support.h"

using namespace kcraft;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string text = fuzz::text_of(data, size);

  isa::gen::VerilatorArgs args;
  try {
    args = isa::gen::verilator_args_from_hwconfig_text(text, "fuzz.yaml");
  } catch (const std::exception& e) {
    fuzz::fail_unexpected(e, "verilator_args_from_hwconfig_text");  // reports errors as messages
  }
  fuzz::check(args.errors.empty() || args.text.empty(), "Verilator parameters despite errors");

  HwConfig config;
  if (!fuzz::expect_errors<ConfigError>("parse_hw_config",
                                        [&] { config = parse_hw_config(text, "fuzz.yaml"); })) {
    return 0;
  }
  fuzz::check(config.source == "fuzz.yaml", "the configuration forgot its file");
  for (const auto& [key, value] : config.runtime) {
    fuzz::check(value >= 0 && value < kMaxRuntimeValue, "runtime." + key + " out of the promised range");
  }
  // What the results store keeps of a configuration kcraft loaded.
  fuzz::expect_errors<ConfigError>("yaml_text_to_json", [&] {
    (void)bench::yaml_text_to_json(text, "fuzz.yaml")
        .dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
  });

  systolic::Params params;
  if (!fuzz::expect_errors<ConfigError>("Params::from_config",
                                        [&] { params = systolic::Params::from_config(config); })) {
    return 0;
  }
  if (!args.errors.empty()) {
    fuzz::fail("the systolic platform accepts a configuration kcraft_isagen rejects: " + args.errors.front());
  }
  // ... and the RTL gets the values the functional model and the tools use.
  std::vector<std::string> expected;
  for (const auto& [key, value] : config.build) expected.push_back("-G" + key + "=" + std::to_string(value));
  std::vector<std::string> got;
  for (size_t at = 0; at < args.text.size();) {
    const size_t end = args.text.find('\n', at);
    got.push_back(args.text.substr(at, end - at));
    at = end + 1;
  }
  std::sort(expected.begin(), expected.end());
  std::sort(got.begin(), got.end());
  if (got != expected) {
    std::string both;
    for (const auto& line : got) both += line + "\n";
    both += "vs\n";
    for (const auto& line : expected) both += line + "\n";
    fuzz::fail("kcraft_isagen's parameters differ from kcraft's:\n" + both);
  }
  return 0;
}
