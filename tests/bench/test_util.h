// Helpers shared by the bench tests: hand-made run records and temporary directories.
#pragma once

#include <filesystem>
#include <string>

#include "agent/bench/run_record.h"

namespace kcraft::bench::testing {

// A finished run with the given outcome; everything else plausible and fixed.
inline RunRecord make_run(const std::string& agent, const std::string& hw, const std::string& task, int level,
                          const std::string& config, unsigned attempt, const std::string& verdict,
                          uint64_t cycles, uint64_t baseline_cycles) {
  RunRecord r;
  r.key = {"systolic", hw, task, config, agent, attempt};
  r.level = level;
  r.status = "submitted";
  r.verdict = verdict;
  r.cycles = cycles;
  r.baseline_cycles = verdict == "pass" ? baseline_cycles : 0;
  r.speedup = verdict == "pass" && baseline_cycles > 0
                  ? static_cast<double>(baseline_cycles) / static_cast<double>(cycles)
                  : 0;
  r.utilization = verdict == "pass" ? 1000.0 / static_cast<double>(cycles) : 0;
  r.iterations = 3;
  r.budget = 15;
  r.evaluations = 3;
  return r;
}

inline std::filesystem::path fresh_dir(const std::string& name) {
  const auto dir = std::filesystem::temp_directory_path() /
                   ("kcraft_bench_test_" + name + "_" + std::to_string(::getpid()));
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  return dir;
}

}  // namespace kcraft::bench::testing
