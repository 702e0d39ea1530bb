// The text summary of a run's timeline (tb/common/timeline.h), as `kcraft profile` prints it.
#include <gtest/gtest.h>

#include "tb/common/timeline.h"

namespace kcraft::tb {
namespace {

// A core that records retired instructions and stall spans on tracks of their own, like rvv's, and one
// memory unit with busy spans.
Timeline retire_and_stall_tracks() {
  Timeline t;
  t.title = "test";
  t.cycles = 100;
  t.tracks.push_back({"retire (WB)", "instructions", TimelineTrack::Role::kCompute});
  t.tracks.push_back({"pipeline stalls", "", TimelineTrack::Role::kOther});
  t.tracks.push_back({"DRAM port", "", TimelineTrack::Role::kMemory});
  for (uint64_t c = 0; c < 40; c += 2) t.slices.push_back({0, c, c + 1, "add", "instruction", 4, "", "", 0});
  TimelineSlice stall{1, 40, 70, "stall: vector", "stall", kPcNotRecorded, "vector", "", 0};
  t.slices.push_back(stall);
  t.slices.push_back({2, 10, 30, "DRAM reads", "busy", -1, "", "", 0});
  return t;
}

TEST(TimelineSummary, TracksOfSingleInstructionsAndStallsAreNotReportedAsUnusedUnits) {
  const std::string text = retire_and_stall_tracks().summary(40);
  EXPECT_EQ(text.find("retire (WB)"), std::string::npos) << text;
  EXPECT_EQ(text.find("pipeline stalls"), std::string::npos) << text;
  EXPECT_EQ(text.find("(unused)"), std::string::npos) << text;
  EXPECT_NE(text.find("DRAM port"), std::string::npos) << text;
  // No compute unit has busy spans, so there is no overlap line claiming the core did nothing.
  EXPECT_EQ(text.find("no unit busy"), std::string::npos) << text;
}

TEST(TimelineSummary, AStallWhoseWaitingInstructionIsNotRecordedSaysSo) {
  const std::string text = retire_and_stall_tracks().summary(40);
  EXPECT_NE(text.find("30 cycles at 40..70  vector      (the waiting instruction is not recorded)"),
            std::string::npos)
      << text;
  EXPECT_EQ(text.find("no instruction waiting"), std::string::npos) << text;
}

TEST(TimelineSummary, AUnitThatNeverWorkedIsReportedUnused) {
  Timeline t = retire_and_stall_tracks();
  t.tracks.push_back({"vector unit", "", TimelineTrack::Role::kCompute});
  const std::string text = t.summary(40);
  EXPECT_NE(text.find("vector unit"), std::string::npos) << text;
  EXPECT_NE(text.find("(unused)"), std::string::npos) << text;
}

}  // namespace
}  // namespace kcraft::tb
