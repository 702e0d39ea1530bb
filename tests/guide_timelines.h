// The worked timelines of a platform guide (docs/platforms.md §1.6): blocks fenced ```timeline, one
// `cycle  instruction  note` per line (two or more spaces before the note). Shared by the platforms' tests
// that run each block on the RTL and compare the issue cycles.
#pragma once

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <regex>
#include <string>
#include <utility>
#include <vector>

namespace kcraft::test {

using GuideTimeline = std::vector<std::pair<uint64_t, std::string>>;  // (cycle, instruction) per line

inline std::vector<GuideTimeline> guide_timelines(const std::filesystem::path& guide) {
  std::ifstream in(guide);
  std::vector<GuideTimeline> blocks;
  bool inside = false;
  const std::regex row(R"(^\s*(\d+)\s+(\S(?:\S| (?! ))*)(?:\s{2,}.*)?$)");
  for (std::string line; std::getline(in, line);) {
    if (line.rfind("```timeline", 0) == 0) {
      inside = true;
      blocks.emplace_back();
      continue;
    }
    if (inside && line.rfind("```", 0) == 0) {
      inside = false;
      continue;
    }
    std::smatch m;
    if (inside && std::regex_match(line, m, row)) blocks.back().emplace_back(std::stoull(m[1]), m[2]);
  }
  return blocks;
}

}  // namespace kcraft::test
