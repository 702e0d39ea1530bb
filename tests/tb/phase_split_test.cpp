// Splitting a run's cycles by the phase markers a kernel wrote (tb/common/evaluation.h).
#include <gtest/gtest.h>

#include "tb/common/evaluation.h"

namespace kcraft {
namespace {

std::vector<PhaseCycles> names(std::initializer_list<const char*> list) {
  std::vector<PhaseCycles> phases;
  for (const char* n : list) phases.push_back(PhaseCycles{n, 99, 99});  // overwritten
  return phases;
}

TEST(PhaseSplit, EachMarkSwitchesPhaseUntilTheNextOrTheEnd) {
  auto phases = names({"norm", "attention", "ffn"});
  uint64_t unmarked = 7;
  // Out of arrival order on purpose (two initiators); a second visit to norm; an unknown index ignored.
  split_cycles_by_phase(phases, {{1, 300}, {0, 100}, {0, 700}, {2, 900}, {9, 950}}, 1000, unmarked);
  EXPECT_EQ(unmarked, 100u);
  EXPECT_EQ(phases[0].cycles, 200u + 200u);  // 100-300 and 700-900
  EXPECT_EQ(phases[0].marks, 2u);
  EXPECT_EQ(phases[1].cycles, 400u);
  EXPECT_EQ(phases[2].cycles, 100u);
  EXPECT_EQ(phases[2].marks, 1u);
}

TEST(PhaseSplit, NoMarksLeaveEverythingUnmarkedAndLateMarksAreClamped) {
  auto phases = names({"a", "b"});
  uint64_t unmarked = 0;
  split_cycles_by_phase(phases, {}, 500, unmarked);
  EXPECT_EQ(unmarked, 500u);
  EXPECT_EQ(phases[0].cycles + phases[1].cycles, 0u);
  EXPECT_EQ(phases[0].marks, 0u);
  split_cycles_by_phase(phases, {{1, 0}, {0, 800}}, 500, unmarked);
  EXPECT_EQ(unmarked, 0u);
  EXPECT_EQ(phases[1].cycles, 500u);
  EXPECT_EQ(phases[0].cycles, 0u);
  EXPECT_EQ(phases[0].marks, 1u);
}

}  // namespace
}  // namespace kcraft
