// For the platforms' RTL coverage tests: the raw counts of a Verilator coverage file, which
// tb::RtlCoverage reduces to hit or not. Counts let a test check that running a program again adds to
// them.
#pragma once

#include <cstdint>
#include <fstream>
#include <map>
#include <sstream>
#include <stdexcept>
#include <string>

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

}  // namespace kcraft::tb::test
