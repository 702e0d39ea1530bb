// tb/common/rtl_coverage.h: Verilator's coverage format summarised per module.
#include <gtest/gtest.h>

#include <stdexcept>
#include <string>

#include "tb/common/rtl_coverage.h"

namespace kcraft::tb {
namespace {

// One line of a Verilator coverage file (verilated_cov.cpp): "C '<\1key\2value...>' count".
std::string point(const std::string& page, const std::string& hier, const std::string& line,
                  const std::string& lines, const std::string& comment, uint64_t count) {
  std::string key =
      "\1f\2rtl/a.sv\1l\2" + line + "\1n\2" + "3" + "\1page\2" + page + "\1o\2" + comment + "\1h\2" + hier;
  if (!lines.empty()) key += "\1S\2" + lines;
  return "C '" + key + "' " + std::to_string(count) + "\n";
}

TEST(RtlCoverage, PointsMergeOverInstancesAndLinesExpandTheirRanges) {
  RtlCoverage c;
  // Module m, two instances: the block at lines 10-12 hit only in u0; the toggle of sig[0] only in u1; sig[1]
  // never. Module n: one line point never hit.
  const std::string dat =
      "# SystemC::Coverage-3\n" + point("v_line/m", "TOP.u0", "10", "10-12", "block", 4) +
      point("v_line/m", "TOP.u1", "10", "10-12", "block", 0) +
      point("v_branch/m", "TOP.u0", "20", "", "if", 0) + point("v_toggle/m", "TOP.u0", "5", "", "sig[0]", 0) +
      point("v_toggle/m", "TOP.u1", "5", "", "sig[0]", 2) +
      point("v_toggle/m", "TOP.u0", "5", "", "sig[1]", 0) + point("v_line/n", "TOP.v", "7", "", "block", 0);
  c.absorb_text(dat, CoverageSource::kRandom);
  const auto rows = c.modules();
  ASSERT_EQ(rows.size(), 3u);
  EXPECT_EQ(rows[0].module, "m");
  EXPECT_EQ(rows[0].lines, 4u);  // 10, 11, 12, 20
  EXPECT_EQ(rows[0].lines_hit_any, 3u);
  EXPECT_EQ(rows[0].lines_hit[static_cast<unsigned>(CoverageSource::kRandom)], 3u);
  EXPECT_EQ(rows[0].lines_hit[static_cast<unsigned>(CoverageSource::kDirected)], 0u);
  EXPECT_EQ(rows[0].toggles, 2u);
  EXPECT_EQ(rows[0].toggles_hit_any, 1u);
  EXPECT_EQ(rows[1].module, "n");
  EXPECT_EQ(rows[1].lines, 1u);
  EXPECT_EQ(rows[1].lines_hit_any, 0u);
  EXPECT_EQ(rows[2].module, "all modules");
  EXPECT_EQ(rows[2].lines, 5u);
  EXPECT_EQ(rows[2].toggles_hit_any, 1u);

  // Another source hitting line 20 adds to the combined count, not to the random one.
  c.absorb_text(point("v_branch/m", "TOP.u1", "20", "", "if", 1), CoverageSource::kBaselines);
  EXPECT_EQ(c.modules()[0].lines_hit_any, 4u);
  EXPECT_EQ(c.modules()[0].lines_hit[static_cast<unsigned>(CoverageSource::kRandom)], 3u);
  EXPECT_EQ(c.to_json()[0]["lines"]["baselines"], 1u);
  EXPECT_NE(c.text().find("4/4 100%"), std::string::npos);
}

TEST(RtlCoverage, AMalformedLineIsAnErrorNamingItsLine) {
  RtlCoverage c;
  try {
    c.absorb_text("# SystemC::Coverage-3\nC 'no fields' 3\n", CoverageSource::kDirected, "x.dat");
    FAIL() << "no error";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("x.dat:2"), std::string::npos) << e.what();
  }
  EXPECT_THROW(c.absorb_dat("/nonexistent/coverage.dat", CoverageSource::kDirected), std::runtime_error);
}

TEST(RtlCoverage, LineNumbersRangesAndCountsThatAreNotWholeNumbersAreErrorsNamingTheLine) {
  // Fuzz findings (tests/fuzz/regressions/rtl_coverage_dat): std::stoul threw invalid_argument out of the
  // reader for a line field that is not a number, and a range up to 4294967295 would allocate for ever.
  const std::vector<std::string> bad = {
      point("v_line/m", "TOP.u", "x", "", "block", 1),
      point("v_line/m", "TOP.u", "10", "1-x", "block", 1),
      point("v_line/m", "TOP.u", "10", "0-4294967295", "block", 1),
      point("v_line/m", "TOP.u", "10", "9-3", "block", 1),
      point("v_line/m", "TOP.u", "99999999999", "", "block", 1),
  };
  for (const auto& line : bad) {
    RtlCoverage c;
    try {
      c.absorb_text("# SystemC::Coverage-3\n" + line, CoverageSource::kRandom, "y.dat");
      ADD_FAILURE() << "no error for " << line;
    } catch (const std::runtime_error& e) {
      EXPECT_NE(std::string(e.what()).find("y.dat:2"), std::string::npos) << e.what();
    }
  }
  for (const std::string count : {"-5", "12abc", "99999999999999999999999", ""}) {
    RtlCoverage c;
    const std::string line = "C '\1f\2a.sv\1l\0027\1page\2v_line/m\1h\2TOP.u' " + count + "\n";
    EXPECT_THROW(c.absorb_text(line, CoverageSource::kRandom), std::runtime_error) << count;
  }
  RtlCoverage c;  // a good count with spaces around it is still read
  c.absorb_text("C '\1f\2a.sv\1l\0027\1page\2v_line/m\1h\2TOP.u'  3 \n", CoverageSource::kRandom);
  ASSERT_EQ(c.modules().size(), 2u);
  EXPECT_EQ(c.modules()[0].lines_hit_any, 1u);
}

}  // namespace
}  // namespace kcraft::tb
