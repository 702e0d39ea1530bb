// Fuzzes the reader of Verilator's coverage data (`.dat`, tb/common/rtl_coverage.cpp): `kcraft coverage
// --rtl` reads what a coverage build of the RTL wrote, a format another program defines.
//
// Any text must be absorbed or throw std::runtime_error naming the line. What is absorbed must summarise
// consistently: per module and over all modules, never more points hit than exist, the last row the sum
// of the others, and the text, JSON and HTML must render.
#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>

#include "tb/common/rtl_coverage.h"
#include "tests/fuzz/fuzz_support.h"

using namespace kcraft;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  tb::RtlCoverage coverage;
  if (!fuzz::expect_errors<std::runtime_error>("RtlCoverage::absorb_text", [&] {
        coverage.absorb_text(fuzz::text_of(data, size), tb::CoverageSource::kRandom, "fuzz.dat");
      })) {
    return 0;
  }
  try {
    const auto modules = coverage.modules();
    size_t lines = 0, toggles = 0, lines_hit = 0, toggles_hit = 0;
    for (size_t i = 0; i + 1 < modules.size(); ++i) {
      const auto& m = modules[i];
      fuzz::check(m.lines_hit_any <= m.lines && m.toggles_hit_any <= m.toggles, "more points hit than exist");
      lines += m.lines;
      toggles += m.toggles;
      lines_hit += m.lines_hit_any;
      toggles_hit += m.toggles_hit_any;
    }
    if (!modules.empty()) {
      const auto& all = modules.back();
      fuzz::check(all.lines == lines && all.toggles == toggles && all.lines_hit_any == lines_hit &&
                      all.toggles_hit_any == toggles_hit,
                  "the \"all modules\" row is not the sum of the modules");
    }
    (void)coverage.text();
    (void)coverage.html();
    (void)coverage.to_json().dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
  } catch (const std::exception& e) {
    fuzz::fail_unexpected(e, "coverage data that was absorbed");
  }
  return 0;
}
