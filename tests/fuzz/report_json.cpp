// Fuzzes the report-JSON reader of `kcraft compare OLD NEW` (agent/bench/compare.cpp): either side may be a
// `kcraft --json report` file a CI job kept as an artifact, i.e. text from outside.
//
// Any text must give runs or throw std::runtime_error. Runs that load must compare with themselves as
// unchanged (nothing slower, broken, faster, fixed, missing or new; no regression), and every output
// (text, JSON) must render.
#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>

#include "agent/bench/compare.h"
#include "tests/fuzz/fuzz_support.h"

using namespace kcraft;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::vector<bench::RunRecord> runs;
  if (!fuzz::expect_errors<std::runtime_error>("runs_from_report_json", [&] {
        runs = bench::runs_from_report_json(fuzz::text_of(data, size), "fuzz.json");
      })) {
    return 0;
  }
  try {
    const bench::CompareOptions options;
    const auto r = bench::compare_runs(runs, runs, options);
    fuzz::check(!r.regressed, "results compared with themselves regressed");
    fuzz::check(r.slower + r.broken + r.faster + r.fixed + r.only_old + r.only_new == 0,
                "results compared with themselves changed");
    fuzz::check(r.same == r.runs.size(), "results compared with themselves: not every run is unchanged");
    (void)bench::compare_text(r, options, true);
    (void)bench::compare_json(r, options).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
  } catch (const std::exception& e) {
    fuzz::fail_unexpected(e, "runs that loaded");
  }
  return 0;
}
