// The vliw assembler's exposed-pipeline warnings made precise and silenceable: a read sees the last write
// in program order unless that write is still in flight (an earlier, landed write no longer matters), two
// writes that land out of program order are a warning of their own, and `.reads_old` marks the reads of
// an old value a kernel means (one bundle or a region, every register or the ones listed).
#include <string>
#include <vector>

#include <fmt/format.h>
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "isa/common/assembler.h"
#include "test_util.h"
#include "vliw_isa.h"

namespace kcraft::isa::test {
namespace {

using ::testing::HasSubstr;

AssembleResult vasm(const std::string& source) {
  return assemble(vliw::spec(), source, "kernel.s", {});
}

std::vector<std::string> warnings(const std::string& source) {
  const AssembleResult r = vasm(source);
  EXPECT_TRUE(r.ok) << format_diagnostics(r, source);
  std::vector<std::string> out;
  for (const Diagnostic& d : of(r, Severity::kWarning))
    out.push_back(fmt::format("{}: {}", d.line, d.message));
  return out;
}

std::vector<Diagnostic> errors(const IsaSpec& spec, const std::string& source) {
  return of(assemble(spec, source, "kernel.s", {}), Severity::kError);
}

// A software-pipelined loop: each iteration loads a row into v1 (latency 3) and, in the same bundle, adds
// the row loaded three iterations earlier, the value still in v1 (the last load to have landed).
std::string pipelined_body(const std::string& before_loop, const std::string& before_body,
                           const std::string& after_body) {
  return before_loop + "        C_LOOPI 16, done\n" + before_body +
         "        { L_VLD v1, p0, 32 ; V_ADD v2, v1, v3 }\n" + after_body + "done:   C_HALT\n";
}

TEST(VliwReadsOld, AnUnmarkedPipelinedLoopWarns) {
  EXPECT_THAT(warnings(pipelined_body("", "", "")),
              ::testing::ElementsAre(
                  "2: v1 is read 1 bundle after L_VLD (line 2) writes it (counting across the loop's back "
                  "edge), but that result lands 3 bundles after its issue: this reads the old value"));
  const AssembleResult r = vasm(pipelined_body("", "", ""));
  EXPECT_THAT(of(r, Severity::kWarning)[0].hint, HasSubstr("write `.reads_old v1` on the line before"));
}

TEST(VliwReadsOld, AMarkOnTheBundleSilencesItsReads) {
  EXPECT_THAT(warnings(pipelined_body("", ".reads_old\n", "")), ::testing::IsEmpty());
  EXPECT_THAT(warnings(pipelined_body("", ".reads_old v1\n", "")), ::testing::IsEmpty());
  EXPECT_THAT(warnings(pipelined_body("", ".READS_OLD V1\n", "")), ::testing::IsEmpty());
}

TEST(VliwReadsOld, AMarkCoversOnlyTheRegistersItLists) {
  // v3 is not in flight: the read of v1 still warns, and the mark that covers nothing says so.
  const std::vector<std::string> w = warnings(pipelined_body("", "        .reads_old v3\n", ""));
  ASSERT_EQ(w.size(), 2u);
  EXPECT_EQ(w[0], "2: the bundle after this .reads_old reads no old value of v3");
  EXPECT_THAT(w[1], HasSubstr("3: v1 is read 1 bundle after L_VLD (line 3)"));
}

TEST(VliwReadsOld, AMarkCoversOnlyTheNextBundle) {
  const std::string source =
      "L_VLD v1, p0, 32\n"
      ".reads_old\n"
      "V_ADD v2, v1, v1\n"
      "V_ADD v4, v1, v1\n"
      "C_HALT\n";
  EXPECT_THAT(warnings(source),
              ::testing::ElementsAre(HasSubstr("4: v1 is read 2 bundles after L_VLD (line 1)")));
}

TEST(VliwReadsOld, ARegionCoversEveryBundleInside) {
  const std::string source =
      ".reads_old begin v1\n"
      "L_VLD v1, p0, 32\n"
      "V_ADD v2, v1, v1\n"
      "V_ADD v4, v1, v1\n"
      ".reads_old end\n"
      "V_ADD v5, v1, v1\n"
      "C_HALT\n";
  EXPECT_THAT(warnings(source), ::testing::IsEmpty());
  // A region that ends before the reads covers none of them and says so.
  const std::string early =
      ".reads_old begin\n"
      "L_VLD v1, p0, 32\n"
      ".reads_old end\n"
      "V_ADD v2, v1, v1\n"
      "C_HALT\n";
  EXPECT_THAT(warnings(early),
              ::testing::ElementsAre("1: no read in this .reads_old region sees an old value",
                                     HasSubstr("4: v1 is read 1 bundle after L_VLD")));
}

TEST(VliwReadsOld, AMarkWithNothingAfterItWarns) {
  EXPECT_THAT(warnings("C_HALT\n.reads_old\n"),
              ::testing::ElementsAre("2: the bundle after this .reads_old reads no old value"));
}

TEST(VliwHazards, ALaterWriteThatHasLandedTakesOver) {
  // V_ADD writes v1 after the load and lands with it (issue order decides: V_ADD's value stays). The
  // read two bundles later sees V_ADD's result, so the load is not what it reads before ready.
  const std::string source =
      "L_VLD v1, p0, 32\n"
      "V_ADD v1, v3, v3\n"
      "V_MAX v2, v1, v1\n"
      "C_HALT\n";
  EXPECT_THAT(warnings(source),
              ::testing::ElementsAre(HasSubstr("3: v1 is read 1 bundle after V_ADD (line 2)")));
  EXPECT_THAT(warnings("L_VLD v1, p0, 32\nV_ADD v1, v3, v3\nC_NOP\nV_MAX v2, v1, v1\nC_HALT\n"),
              ::testing::IsEmpty());
}

TEST(VliwHazards, WritesThatLandOutOfOrder) {
  // V_BCST (latency 1) lands a bundle before the load it follows (latency 3): the read in between sees the
  // broadcast, and from bundle 3 on v1 holds the load's older row.
  const std::string source =
      "L_VLD v1, p0, 32\n"
      "V_BCST v1, r0\n"
      "V_MAX v2, v1, v1\n"
      "C_HALT\n";
  const AssembleResult r = vasm(source);
  const std::vector<Diagnostic> w = of(r, Severity::kWarning);
  ASSERT_EQ(w.size(), 1u) << format_diagnostics(r, source);
  EXPECT_EQ(w[0].line, 2);
  EXPECT_EQ(w[0].text, "v1");
  EXPECT_EQ(w[0].message,
            "V_BCST writes v1 1 bundle after L_VLD (line 1) does, but lands 1 bundle before it: when L_VLD's "
            "result lands, v1 holds the older result");
  EXPECT_EQ(w[0].hint,
            "write v1 again only once L_VLD's result has landed (1 more bundle), or use another register");
  // `.reads_old` is about reads: it does not hide this.
  EXPECT_EQ(of(vasm(".reads_old begin\n" + source + ".reads_old end\n"), Severity::kWarning).size(), 2u);
}

TEST(VliwReadsOld, MalformedMarksAreErrors) {
  const auto message = [](const std::string& source) {
    const std::vector<Diagnostic> e = errors(vliw::spec(), source);
    return e.empty() ? std::string("(no error)") : fmt::format("{}: {}", e[0].line, e[0].message);
  };
  EXPECT_EQ(message(".reads_old r1\nC_HALT\n"), "1: 'r1' is not a register whose results land late");
  EXPECT_EQ(message(".reads_old v99\nC_HALT\n"), "1: 'v99' is not a register whose results land late");
  EXPECT_EQ(message(".reads_old end\nC_HALT\n"), "1: '.reads_old end' without a '.reads_old begin'");
  EXPECT_EQ(message(".reads_old begin\nC_HALT\n"), "1: '.reads_old begin' is never ended");
  EXPECT_EQ(message(".reads_old begin\n.reads_old begin\nC_HALT\n.reads_old end\n"),
            "2: a .reads_old region is already open (line 1)");
  EXPECT_EQ(message("{ .reads_old ; C_HALT }\n"), "1: expected an op inside the bundle, found '.reads_old'");
  const std::vector<Diagnostic> hint = errors(vliw::spec(), ".reads_old x1\nC_HALT\n");
  ASSERT_FALSE(hint.empty());
  EXPECT_THAT(hint[0].hint, HasSubstr("(vreg, areg)"));
}

TEST(VliwReadsOld, AnIsaWithoutAnExposedPipelineRejectsTheMark) {
  const std::vector<Diagnostic> e = errors(sys(), ".reads_old\nC_HALT\n");
  ASSERT_FALSE(e.empty());
  EXPECT_EQ(e[0].message, "the systolic ISA has no exposed pipeline, so no read sees an old value");
}

}  // namespace
}  // namespace kcraft::isa::test
