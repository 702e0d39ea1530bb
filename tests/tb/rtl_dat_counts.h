// For the platforms' RTL coverage tests: the raw counts of a Verilator coverage file, which
// tb::RtlCoverage reduces to hit or not. Counts let a test check that running a program again adds to
// them.
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <sstream>
#include <stdexcept>
#include <string>

#include "tb/common/rtl_coverage.h"

namespace kcraft::tb::test {

// Line and branch points (Verilator pages v_line/..., v_branch/...) of a .dat file: key -> count.
inline std::map<std::string, uint64_t> line_point_counts(const std::string& dat_path) {
  std::ifstream in(dat_path);
  if (!in) throw std::runtime_error("cannot read " + dat_path);
  std::map<std::string, uint64_t> counts;
  std::string line;
  while (std::getline(in, line)) {
    const size_t open = line.find('\''), close = line.rfind('\'');
    if (line.rfind("C ", 0) != 0 || open == std::string::npos || close <= open) continue;
    const std::string key = line.substr(open + 1, close - open - 1);
    if (key.find("page\2v_line/") == std::string::npos && key.find("page\2v_branch/") == std::string::npos)
      continue;
    counts[key] += std::stoull(line.substr(close + 1));
  }
  return counts;
}

// The counts follow the runs: after a warm-up run of `run` (the decode logic is combinational, so the
// first run after another program also counts case arms of the stale instruction words it starts from),
// two runs count every line and branch point exactly twice as often as one, reach the same points, and a
// take with nothing run since has every count zero. `dir` keeps the three .dat files.
inline void expect_counts_follow_runs(AcceleratorHw& hw, const std::function<void()>& run,
                                      const std::string& dir) {
  run();
  RtlCoverage discard;
  discard.take(hw, CoverageSource::kBaselines);
  std::filesystem::remove_all(dir);

  RtlCoverage once, twice, nothing;
  run();
  once.take(hw, CoverageSource::kDirected, dir + "/once");
  run();
  run();
  twice.take(hw, CoverageSource::kDirected, dir + "/twice");
  nothing.take(hw, CoverageSource::kDirected, dir + "/nothing");

  const auto c1 = line_point_counts(dir + "/once/directed.dat");
  const auto c2 = line_point_counts(dir + "/twice/directed.dat");
  const auto c0 = line_point_counts(dir + "/nothing/directed.dat");
  ASSERT_FALSE(c1.empty());
  ASSERT_EQ(c1.size(), c2.size()) << "the same build has the same points";
  uint64_t sum1 = 0, sum2 = 0, sum0 = 0;
  size_t hit1 = 0, hit2 = 0;
  for (const auto& [key, n1] : c1) {
    const uint64_t n2 = c2.at(key);
    EXPECT_EQ(n2, 2 * n1) << "two runs of the same program count every line twice as often as one: " << key;
    sum1 += n1;
    sum2 += n2;
    hit1 += n1 > 0;
    hit2 += n2 > 0;
  }
  for (const auto& [key, n] : c0) sum0 += n;
  EXPECT_GT(sum1, 0u);
  EXPECT_GT(sum2, sum1);
  EXPECT_EQ(hit1, hit2) << "the same program reaches the same lines";
  EXPECT_EQ(sum0, 0u) << "nothing ran since the last take";

  // The summary agrees: a take with nothing run hits nothing.
  const auto rows = nothing.modules();
  ASSERT_FALSE(rows.empty());
  EXPECT_EQ(rows.back().lines_hit_any, 0u);
  EXPECT_EQ(rows.back().toggles_hit_any, 0u);
  EXPECT_GT(rows.back().lines, 0u);
}

}  // namespace kcraft::tb::test
