// Fuzzes the reader of `kcraft coverage --json` files (tb/common/coverage.cpp), which `kcraft validate
// --steer FILE` and `kcraft coverage --steer FILE` take from the user: text from outside.
//
// Any text must give a Coverage or throw the documented errors (nlohmann's parse errors, which
// load_coverage_json reports with the file's name, or std::invalid_argument naming the malformed part).
// What loads must write back the same JSON, and its text, HTML and never-hit bins must render.
#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>

#include "tb/common/coverage.h"
#include "tests/fuzz/fuzz_support.h"

using namespace kcraft;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  tb::Coverage coverage;
  if (!fuzz::expect_errors<nlohmann::json::exception, std::invalid_argument>("Coverage::from_json", [&] {
        coverage = tb::Coverage::from_json(nlohmann::json::parse(fuzz::text_of(data, size)));
      })) {
    return 0;
  }
  try {
    const auto written = coverage.to_json();
    fuzz::check(tb::Coverage::from_json(written).to_json() == written,
                "to_json, from_json, to_json changed it");
    (void)coverage.text();
    (void)coverage.html("fuzz <title>", "notes & more");
    (void)tb::never_hit_bins(coverage);
  } catch (const std::exception& e) {
    fuzz::fail_unexpected(e, "coverage that loaded");
  }
  return 0;
}
