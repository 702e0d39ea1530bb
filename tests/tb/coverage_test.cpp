// tb/common/coverage.h: bins, hits per source, merge, summaries, JSON round trip and the renderings.
#include "tb/common/coverage.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <stdexcept>

namespace kcraft::tb {
namespace {

Coverage two_groups() {
  Coverage c;
  c.declare("instruction", "ADD");
  c.declare("instruction", "MUL");
  c.declare("instruction", "HALT");
  c.declare("stall cause", "dependency");
  return c;
}

TEST(Coverage, HitsCountPerSourceAndUndeclaredBinsThrow) {
  Coverage c = two_groups();
  c.hit("instruction", "ADD", CoverageSource::kRandom, 3);
  c.hit("instruction", "ADD", CoverageSource::kBaselines);
  EXPECT_EQ(c.hits("instruction", "ADD", CoverageSource::kRandom), 3u);
  EXPECT_EQ(c.hits("instruction", "ADD", CoverageSource::kDirected), 0u);
  EXPECT_EQ(c.hits("instruction", "ADD"), 4u);
  EXPECT_THROW(c.hit("instruction", "SUB", CoverageSource::kRandom), std::logic_error);
  EXPECT_THROW(c.hits("error", "ADD"), std::logic_error);
}

TEST(Coverage, SummaryCountsCoveredBinsPerSourceAndListsTheRest) {
  Coverage c = two_groups();
  c.hit("instruction", "ADD", CoverageSource::kRandom);
  c.hit("instruction", "HALT", CoverageSource::kDirected);
  c.hit("instruction", "HALT", CoverageSource::kRandom);
  const auto s = c.summary();
  ASSERT_EQ(s.size(), 2u);
  EXPECT_EQ(s[0].group, "instruction");
  EXPECT_EQ(s[0].total, 3u);
  EXPECT_EQ(s[0].covered[0], 1u);  // directed: HALT
  EXPECT_EQ(s[0].covered[1], 2u);  // random: ADD, HALT
  EXPECT_EQ(s[0].covered[2], 0u);
  EXPECT_EQ(s[0].covered_any, 2u);
  EXPECT_EQ(s[0].never_hit, std::vector<std::string>{"MUL"});
  EXPECT_EQ(s[1].never_hit, std::vector<std::string>{"dependency"});
  const std::string text = c.text();
  EXPECT_NE(text.find("never hit in instruction (1): MUL"), std::string::npos) << text;
  EXPECT_NE(text.find("2/4 50%"), std::string::npos) << text;
}

TEST(Coverage, MergeAddsHitsAndBins) {
  Coverage a = two_groups(), b;
  a.hit("instruction", "MUL", CoverageSource::kDirected, 2);
  b.declare("instruction", "MUL");
  b.declare("error", "illegal");
  b.hit("instruction", "MUL", CoverageSource::kDirected, 5);
  b.hit("error", "illegal", CoverageSource::kRandom);
  a.merge(b);
  EXPECT_EQ(a.hits("instruction", "MUL", CoverageSource::kDirected), 7u);
  EXPECT_EQ(a.hits("error", "illegal", CoverageSource::kRandom), 1u);
  EXPECT_EQ(a.bins().size(), 5u);
}

TEST(Coverage, JsonRoundTripAndMalformedInput) {
  Coverage c = two_groups();
  c.hit("stall cause", "dependency", CoverageSource::kBaselines, 40);
  const Coverage back = Coverage::from_json(c.to_json());
  EXPECT_EQ(back.to_json(), c.to_json());
  EXPECT_EQ(c.to_json()["groups"][1]["covered"]["combined"], 1);
  EXPECT_THROW(Coverage::from_json(nlohmann::json::array()), std::invalid_argument);
  EXPECT_THROW(Coverage::from_json({{"bins", {{{"group", 1}, {"name", "x"}}}}}), std::invalid_argument);
}

TEST(Coverage, HtmlListsEveryBinAndEscapesNames) {
  Coverage c;
  c.declare("operand", "a<b");
  const std::string html = c.html("t", "notes & more");
  EXPECT_NE(html.find("a&lt;b"), std::string::npos);
  EXPECT_NE(html.find("notes &amp; more"), std::string::npos);
  EXPECT_EQ(html.find("a<b"), std::string::npos);
}

TEST(Coverage, Fp32Classes) {
  EXPECT_STREQ(fp32_class(0x00000000), "zero");
  EXPECT_STREQ(fp32_class(0x80000000), "zero");
  EXPECT_STREQ(fp32_class(0x00000001), "subnormal");
  EXPECT_STREQ(fp32_class(0x3f800000), "normal");
  EXPECT_STREQ(fp32_class(0xff800000), "inf");
  EXPECT_STREQ(fp32_class(0x7fc00000), "nan");
}

TEST(Coverage, Fp32SignedClassesSplitSignsAndNanKinds) {
  EXPECT_STREQ(fp32_signed_class(0x00000000), "+zero");
  EXPECT_STREQ(fp32_signed_class(0x80000000), "-zero");
  EXPECT_STREQ(fp32_signed_class(0x807fffff), "subnormal");
  EXPECT_STREQ(fp32_signed_class(0xbf800000), "normal");
  EXPECT_STREQ(fp32_signed_class(0x7f800000), "+inf");
  EXPECT_STREQ(fp32_signed_class(0xff800000), "-inf");
  EXPECT_STREQ(fp32_signed_class(0x7fc00000), "qnan");
  EXPECT_STREQ(fp32_signed_class(0xffc00001), "qnan");
  EXPECT_STREQ(fp32_signed_class(0x7f800001), "snan");
  EXPECT_STREQ(fp32_signed_class(0xffbfffff), "snan");
  // Every value falls in one of the declared classes.
  for (uint32_t bits : {0x00000000u, 0x00400000u, 0x7f7fffffu, 0x7fa00000u, 0xffffffffu}) {
    const std::string cls = fp32_signed_class(bits);
    EXPECT_NE(std::find(kFp32SignedClasses.begin(), kFp32SignedClasses.end(), cls), kFp32SignedClasses.end())
        << cls;
  }
  EXPECT_EQ(fp_operand_class_bin("FADD.S", "fs1", "snan"), "FADD.S fs1=snan");
}

}  // namespace
}  // namespace kcraft::tb
