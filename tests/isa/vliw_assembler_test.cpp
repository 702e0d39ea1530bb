// The assembler and disassembler on the vliw ISA: bundles `{ op ; op }`, their slot rules and diagnostics,
// the end-of-bundle flag, and disassembly that renders bundles with braces and assembles back to the same
// words.
#include <string>
#include <vector>

#include <fmt/format.h>
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "isa/common/assembler.h"
#include "isa/common/disassembler.h"
#include "test_util.h"
#include "vliw_isa.h"

namespace kcraft::isa::test {
namespace {

using ::testing::AllOf;
using ::testing::ElementsAre;
using ::testing::HasSubstr;

constexpr uint32_t kEob = 0x80000000u;

const IsaSpec& vliw_spec() {
  return vliw::spec();
}

AssembleResult vasm(const std::string& source) {
  return assemble(vliw_spec(), source, "kernel.s", {});
}

AssembleResult vasm_ok(const std::string& source) {
  AssembleResult r = vasm(source);
  EXPECT_TRUE(r.ok) << format_diagnostics(r, source);
  return r;
}

// The word of one op assembled alone, without its end-of-bundle flag.
uint32_t op_word(const std::string& op) {
  const AssembleResult r = vasm_ok(op + "\n");
  EXPECT_EQ(r.words.size(), 1u) << op;
  return r.words.empty() ? 0 : r.words[0] & ~kEob;
}

// The only error of a result (the test fails if there are others).
Diagnostic only_error(const AssembleResult& r, const std::string& source) {
  const std::vector<Diagnostic> errors = of(r, Severity::kError);
  EXPECT_EQ(errors.size(), 1u) << format_diagnostics(r, source);
  return errors.empty() ? Diagnostic{} : errors[0];
}

TEST(VliwAssembler, AnOpAloneIsABundleOfOneWord) {
  const AssembleResult r = vasm_ok("V_ADD v3, v1, v2\nC_HALT\n");
  ASSERT_EQ(r.words.size(), 2u);
  EXPECT_EQ(r.words[0], op_word("V_ADD v3, v1, v2") | kEob);
  EXPECT_EQ(r.words[1], static_cast<uint32_t>(vliw::Op::C_HALT) | kEob);
  EXPECT_TRUE(vliw::is_legal(r.words[0]));
}

TEST(VliwAssembler, BundleOpsGoInSlotOrderAndOnlyTheLastWordEndsTheBundle) {
  const AssembleResult r =
      vasm_ok("{ C_HALT ; S_ADD r1, r2, r3 ; L_VLD v1, p0, 32 ; A_VMAC a0, v1, v2 ; L_VST v4, p1, -32 }\n");
  EXPECT_THAT(r.words, ElementsAre(op_word("L_VLD v1, p0, 32"), op_word("L_VST v4, p1, -32"),
                                   op_word("A_VMAC a0, v1, v2"), op_word("S_ADD r1, r2, r3"),
                                   static_cast<uint32_t>(vliw::Op::C_HALT) | kEob));
  EXPECT_THAT(r.word_lines, ElementsAre(1, 1, 1, 1, 1));
}

TEST(VliwAssembler, TwoLoadStoreOpsKeepTheirWrittenOrder) {
  const AssembleResult a = vasm_ok("{ L_VLD v1, p0 ; L_VLD v2, p1 }\n");
  const AssembleResult b = vasm_ok("{ L_VLD v2, p1 ; L_VLD v1, p0 }\n");
  EXPECT_THAT(a.words, ElementsAre(op_word("L_VLD v1, p0"), op_word("L_VLD v2, p1") | kEob));
  EXPECT_THAT(b.words, ElementsAre(op_word("L_VLD v2, p1"), op_word("L_VLD v1, p0") | kEob));
}

TEST(VliwAssembler, BundlesSpanLinesWithCommentsAndLabelsGoBeforeThem) {
  const std::string source =
      "        S_LI r1, 4          ; a comment outside braces\n"
      "top:    {                   // a bundle over three lines\n"
      "          L_VLD v1, p0, 32  # loads\n"
      "          A_VMAC a0, v1, v2 ; C_LOOP r1, done }  ; comment after the bundle\n"
      "        C_NOP\n"
      "done:   C_HALT\n";
  const AssembleResult r = vasm_ok(source);
  ASSERT_EQ(r.words.size(), 6u);
  EXPECT_EQ(r.labels.at("top"), 1);
  EXPECT_EQ(r.labels.at("done"), 5);
  // The loop's body is the C_NOP bundle: from word 4 (after the loop op) to `done`.
  EXPECT_EQ(r.words[3] & ~kEob, op_word("C_LOOP r1, .+2"));
  EXPECT_EQ(r.words[3] & kEob, kEob);
  EXPECT_EQ(r.words[1] & kEob, 0u);
  EXPECT_THAT(r.word_lines, ElementsAre(1, 3, 4, 4, 5, 6));
}

TEST(VliwAssembler, TwoVectorOpsInOneBundle) {
  const std::string source = "  { V_ADD v1, v2, v3 ; A_VMAC a0, v1, v2 }\n";
  const AssembleResult r = vasm(source);
  const Diagnostic d = only_error(r, source);
  EXPECT_EQ(d.message, "two vector ops in one bundle");
  EXPECT_EQ(d.line, 1);
  EXPECT_EQ(d.column, 24);
  EXPECT_EQ(d.text, "A_VMAC");
  EXPECT_EQ(d.hint, "a bundle has one vector slot: move A_VMAC to another bundle");
  EXPECT_THAT(format_diagnostics(r, source), HasSubstr("kernel.s:1:24: error: two vector ops in one bundle"));
}

TEST(VliwAssembler, ThreeLoadStoreOpsAndTwoControlOps) {
  const std::string ls = "{ L_VLD v1, p0 ; L_VLD v2, p1 ; L_VST v3, p2 }\n";
  const Diagnostic d = only_error(vasm(ls), ls);
  EXPECT_EQ(d.message, "three load/store ops in one bundle");
  EXPECT_EQ(d.column, 33);
  EXPECT_EQ(d.hint, "a bundle has two load/store slots: move L_VST to another bundle");
  const std::string ctl = "{ C_NOP ; S_ADD r1, r1, r1 ; C_HALT }\n";
  EXPECT_EQ(only_error(vasm(ctl), ctl).message, "two control ops in one bundle");
}

TEST(VliwAssembler, TwoOpsWritingOneRegister) {
  const std::string source = "{ L_VLD v1, p0, 32 ; V_ADD v1, v2, v3 }\n";
  const Diagnostic d = only_error(vasm(source), source);
  EXPECT_EQ(d.message, "two ops in one bundle write v1 (L_VLD at line 1 and V_ADD)");
  EXPECT_EQ(d.text, "v1");
  EXPECT_EQ(d.column, 28);
  // Post-increments write their pointer: two ops on p0 collide too.
  const std::string pointers = "{ L_VLD v1, p0, 32 ; L_VLD v2, p0, 32 }\n";
  EXPECT_THAT(only_error(vasm(pointers), pointers).message, HasSubstr("write p0"));
  // Reading what another op of the bundle writes is fine: it reads the old value.
  vasm_ok("{ L_VLD v1, p0, 32 ; V_ADD v2, v1, v1 }\n");
}

TEST(VliwAssembler, MalformedBundles) {
  EXPECT_EQ(only_error(vasm("  { }\n"), "  { }\n").message, "empty bundle");
  EXPECT_EQ(only_error(vasm("  { }\n"), "  { }\n").column, 3);
  const std::string unclosed = "{ C_NOP\nV_ADD v1, v1, v1\n";
  const Diagnostic open = only_error(vasm(unclosed), unclosed);
  EXPECT_EQ(open.message, "bundle is not closed");
  EXPECT_EQ(open.line, 1);
  EXPECT_THAT(only_error(vasm("C_NOP }\n"), "C_NOP }\n").message, "'}' without a bundle");
  EXPECT_THAT(only_error(vasm("{ C_NOP ; { V_ADD v1, v1, v1 }\n"), "").message,
              HasSubstr("'{' inside a bundle"));
  const Diagnostic label = only_error(vasm("{ x: C_NOP }\n"), "");
  EXPECT_EQ(label.message, "label 'x' inside a bundle");
  EXPECT_THAT(only_error(vasm("{ .word 1 }\n"), "").hint, "directives go outside bundles");
}

TEST(VliwAssembler, UnknownOpsInsideBundlesGetSuggestions) {
  const std::string source = "{ V_ADDD v1, v2, v3 ; C_NOP }\n";
  const Diagnostic d = only_error(vasm(source), source);
  EXPECT_EQ(d.message, "unknown instruction 'V_ADDD'");
  EXPECT_EQ(d.column, 3);
  EXPECT_THAT(d.hint, HasSubstr("V_ADD"));
}

TEST(VliwAssembler, PseudoInstructionsInAndOutOfBundles) {
  // Outside braces each word of a two-word expansion is a bundle of its own.
  const AssembleResult two = vasm_ok("S_LI r5, 100000\n");
  ASSERT_EQ(two.words.size(), 2u);
  EXPECT_EQ(two.words[0] & kEob, kEob);
  EXPECT_EQ(two.words[1] & kEob, kEob);
  // Inside, a one-word form is an op of the bundle ...
  const AssembleResult one = vasm_ok("{ S_LI r5, 7 ; V_BCST v1, r5 }\n");
  EXPECT_THAT(one.words, ElementsAre(op_word("V_BCST v1, r5"), op_word("S_ADDI r5, r0, 7") | kEob));
  // ... and a two-word one is an error.
  const std::string big = "{ S_LI r5, 100000 ; C_NOP }\n";
  const Diagnostic d = only_error(vasm(big), big);
  EXPECT_EQ(d.message, "S_LI expands to 2 ops here (S_LUI, S_ORI), and one op of a bundle is one word");
}

TEST(VliwAssembler, RawWordsAreKeptExactly) {
  const AssembleResult r = vasm_ok(".word 0x00000001, 0x80000002\n");
  EXPECT_THAT(r.words, ElementsAre(0x00000001u, 0x80000002u));
}

TEST(VliwAssembler, LoopEndsMustStartABundle) {
  const std::string source =
      "C_LOOPI 2, .+2\n"
      "{ V_ADD v1, v1, v1 ; C_NOP }\n"
      "C_HALT\n";
  const Diagnostic d = only_error(vasm(source), source);
  EXPECT_THAT(d.message, HasSubstr("the loop's end (word 2) is inside a bundle"));
  EXPECT_EQ(d.line, 1);
}

TEST(VliwDisassembler, RendersBundlesWithBracesAndRoundTrips) {
  const std::string source =
      "        S_LI r1, 100000\n"
      "        S_LI_FP r2, 0.5\n"
      "        { A_BCST a0, r2 ; S_PMOV p0, r0 ; C_LOOP r1, done }\n"
      "        { L_VLD v1, p0, 32 ; L_VLDB v2, p1, 2 ; A_VMAC a0, v1, v2 ; S_ADDI r3, r3, 1 ; C_NOP }\n"
      "        V_SRS v3, a0\n"
      "done:   { L_VST v3, p2 ; C_DMAST 1, r1, r2, r3, r4, 7 }\n"
      "        C_HALT\n";
  const AssembleResult r = vasm_ok(source);
  const std::string text = disassemble_program(vliw_spec(), r.words);
  EXPECT_THAT(text, HasSubstr("{ A_BCST a0, r2 ; S_PMOV p0, r0 ; C_LOOP r1, L"));
  EXPECT_THAT(
      text,
      HasSubstr(
          "    { L_VLD v1, p0, 32 ; L_VLDB v2, p1, 2 ; A_VMAC a0, v1, v2 ; S_ADDI r3, r3, 1 ; C_NOP }\n"));
  EXPECT_THAT(text, HasSubstr("    V_SRS v3, a0\n"));
  const AssembleResult again = vasm_ok(text);
  EXPECT_EQ(again.words, r.words);
  const std::string annotated = disassemble_program(vliw_spec(), r.words, {true});
  EXPECT_THAT(annotated, HasSubstr("; 6: 0x"));
  EXPECT_EQ(vasm_ok(annotated).words, r.words);
}

TEST(VliwDisassembler, WordsThatAreNoBundleComeOutAsWords) {
  // Two vector ops in one bundle, an op without the end-of-bundle flag at the end, and an illegal word.
  const std::vector<uint32_t> words = {op_word("V_ADD v1, v2, v3"), op_word("V_SUB v1, v2, v3") | kEob,
                                       op_word("C_NOP") | kEob, 0x7Fu | kEob, op_word("C_HALT")};
  const std::string text = disassemble_program(vliw_spec(), words);
  EXPECT_THAT(text,
              AllOf(HasSubstr(fmt::format(".word 0x{:08X} ; V_ADD v1, v2, v3 in an invalid bundle: more "
                                          "vector ops than the bundle's one vector slot",
                                          words[0])),
                    HasSubstr("    C_NOP\n"), HasSubstr("illegal: unknown opcode 0x7F"),
                    HasSubstr("the program ends inside this bundle")));
  EXPECT_EQ(vasm(text).words, words) << text;
}

TEST(VliwAssembler, TheExampleProgramsAssembleCleanly) {
  for (const ExampleProgram& e : vliw_spec().examples) {
    const SymbolTable symbols(e.symbols.begin(), e.symbols.end());
    const AssembleResult r = assemble(vliw_spec(), e.source, "example.s", symbols);
    EXPECT_TRUE(r.ok && r.diagnostics.empty()) << e.title << "\n" << format_diagnostics(r, e.source);
  }
}

}  // namespace
}  // namespace kcraft::isa::test

namespace kcraft::isa::test {
namespace {

std::vector<Diagnostic> hazards(const std::string& source) {
  const AssembleResult r = vasm(source);
  EXPECT_TRUE(r.ok) << format_diagnostics(r, source);
  std::vector<Diagnostic> out;
  for (const Diagnostic& d : of(r, Severity::kWarning)) {
    if (d.message.find("reads the old value") != std::string::npos) out.push_back(d);
  }
  return out;
}

TEST(VliwHazards, ReadBeforeReadyNamesBothLines) {
  const std::string source =
      "A_VMAC a0, v1, v2\n"
      "V_SRS  v3, a0\n"
      "C_HALT\n";
  const std::vector<Diagnostic> w = hazards(source);
  ASSERT_EQ(w.size(), 1u);
  EXPECT_EQ(w[0].line, 2);
  EXPECT_EQ(w[0].column, 12);
  EXPECT_EQ(w[0].text, "a0");
  EXPECT_EQ(w[0].message,
            "a0 is read 1 bundle after A_VMAC (line 1) writes it, but that result lands 3 bundles after its "
            "issue: this reads the old value");
  EXPECT_EQ(
      w[0].hint,
      "put 2 more bundles between them (independent work, or C_NOP), or use another register; if the old "
      "value is meant, write `.reads_old a0` on the line before");
  EXPECT_THAT(format_diagnostics(vasm(source), source),
              HasSubstr("kernel.s:2:12: warning: a0 is read 1 bundle after A_VMAC (line 1)"));
}

TEST(VliwHazards, AResultReadAtItsLatencyIsReady) {
  EXPECT_TRUE(hazards("A_VMAC a0, v1, v2\nC_NOP\nC_NOP\nV_SRS v3, a0\nC_HALT\n").empty());
  // Two bundles after a load (latency 3) is one too early.
  const std::vector<Diagnostic> w = hazards("L_VLD v1, p0, 32\nC_NOP\n{ V_ADD v2, v1, v1 ; C_HALT }\n");
  ASSERT_EQ(w.size(), 1u);
  EXPECT_THAT(w[0].message, HasSubstr("v1 is read 2 bundles after L_VLD (line 1)"));
  EXPECT_THAT(w[0].hint, HasSubstr("put 1 more bundle between"));
}

TEST(VliwHazards, ScalarAndPointerResultsAreVisibleToTheNextBundle) {
  EXPECT_TRUE(
      hazards("S_ADDI r1, r0, 4\nS_ADD r2, r1, r1\nL_VLD v1, p0, 32\nL_VLD v2, p0, 32\nC_HALT\n").empty());
}

TEST(VliwHazards, AccumulationAcrossTheLoopBackEdge) {
  const std::string chained =
      "        C_LOOPI 8, done\n"
      "        A_VMAC a0, v1, v2\n"
      "done:   C_HALT\n";
  const std::vector<Diagnostic> w = hazards(chained);
  ASSERT_EQ(w.size(), 1u);
  EXPECT_EQ(w[0].line, 2);
  EXPECT_THAT(w[0].message,
              HasSubstr("a0 is read 1 bundle after A_VMAC (line 2) writes it (counting across the "
                        "loop's back edge)"));
  // Three accumulators in turn keep every chain at its latency.
  EXPECT_TRUE(hazards("        C_LOOPI 8, done\n"
                      "        A_VMAC a0, v1, v2\n"
                      "        A_VMAC a1, v1, v2\n"
                      "        A_VMAC a2, v1, v2\n"
                      "done:   C_HALT\n")
                  .empty());
  // A loop that runs once has no back edge.
  EXPECT_TRUE(hazards("        C_LOOPI 1, done\n        A_VMAC a0, v1, v2\ndone:   C_HALT\n").empty());
}

TEST(VliwHazards, EveryPathIsFollowedAndEachPairReportedOnce) {
  // The exp at the end of the body is read on the way out of the loop and, at the top of the body, on the
  // way round.
  const std::string source =
      "        C_LOOPI 4, done\n"
      "        A_ADD a1, a2, a3\n"
      "        A_EXP a2, a1\n"
      "done:   A_ADD a4, a2, a2\n"
      "        C_HALT\n";
  const std::vector<Diagnostic> w = hazards(source);
  std::vector<std::string> found;
  for (const Diagnostic& d : w) found.push_back(fmt::format("{}:{}", d.line, d.message.substr(0, 40)));
  EXPECT_THAT(found, ::testing::UnorderedElementsAre("3:a1 is read 1 bundle after A_ADD (line 2)",
                                                     "4:a2 is read 1 bundle after A_EXP (line 3)",
                                                     "2:a2 is read 1 bundle after A_EXP (line 3)"));
}

}  // namespace
}  // namespace kcraft::isa::test
