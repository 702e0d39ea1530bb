// The assembler on the systolic ISA: encodings, syntax, expressions, pseudo-instructions, loops, and one
// test per diagnostic class (line, column, message and hint).
#include <algorithm>
#include <cctype>
#include <cstring>
#include <string>
#include <vector>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "isa/common/assembler.h"
#include "isa/common/diagnostics.h"
#include "isa/common/disassembler.h"
#include "test_util.h"

namespace kcraft::isa::test {
namespace {

using ::testing::HasSubstr;

uint32_t one_word(const std::string& line) {
  const AssembleResult r = asm_ok(line + "\nC_HALT\n");
  return r.words.empty() ? 0 : r.words[0];
}

// ------------------------------------------------------------------ encodings checked by hand

TEST(Encoding, HandComputedFromYamlBitPositions) {
  // opcode[6:0] rd[10:7] rs1[14:11] rs2[18:15] fs[22:19] off9[31:23] imm17[31:15] imm16[31:16] imm13[31:19]
  // cnt12[18:7]; the expected words were computed independently of the tool.
  EXPECT_EQ(one_word("S_ADDI r1, r2, -5"), 0xFFFD9098u);        // 0x18 | 1<<7 | 2<<11 | 0x1FFFB<<15
  EXPECT_EQ(one_word("V_ADD_VF r3, r1, f2, 5"), 0x029009B8u);   // 0x38 | 3<<7 | 1<<11 | 2<<19 | 5<<23
  EXPECT_EQ(one_word("H_LOAD_V r1, r2, r3, 16"), 0x008190E0u);  // 0x60 | 1<<7 | 2<<11 | 3<<15 | 16<<19
  EXPECT_EQ(one_word("S_LUI r4, 0xFFFF"), 0xFFFF021Cu);         // 0x1C | 4<<7 | 0xFFFF<<16
  EXPECT_EQ(one_word("M_LDW r6, 511"), 0xFF803050u);            // 0x50 | 6<<11 | 511<<23 (rs1, off9 only)
  EXPECT_EQ(one_word("C_HALT"), 0x00000002u);
  const AssembleResult loopi = asm_ok("C_LOOPI 4095, done\nC_NOP\ndone: C_HALT\n");
  EXPECT_EQ(loopi.words[0], 0x000FFF85u);  // 0x05 | 4095<<7 | 1<<19
  const AssembleResult loop = asm_ok("C_LOOP r2, done\nC_NOP\nC_NOP\ndone: C_HALT\n");
  EXPECT_EQ(loop.words[0], 0x00101004u);  // 0x04 | 2<<11 | 2<<19 (body of two)
}

// The optional fused multiply: d, a, fs, b, off in format V's fields; the assembler rejects it only where
// the hardware parameter that enables it is predefined as 0.
TEST(Encoding, OptionalFusedMultiplyEncodesDecodesAndIsRejectedWithoutItsHardware) {
  // 0x3D | 3<<7 | 1<<11 | 4<<15 | 2<<19 | 5<<23, computed by hand
  EXPECT_EQ(one_word("V_MUL_VFV r3, r1, f2, r4, 5"), 0x029209BDu);
  EXPECT_EQ(disassemble(sys(), 0x029209BDu), "V_MUL_VFV r3, r1, f2, r4, 5");
  const InstructionSpec* insn = sys().find_instruction("V_MUL_VFV");
  ASSERT_NE(insn, nullptr);
  EXPECT_EQ(insn->enabled_by, "HAS_V_MUL_VFV");
  EXPECT_EQ(asm_ok("V_MUL_VFV r3, r1, f2, r4\nC_HALT\n", {{"HAS_V_MUL_VFV", 1}}).words[0], 0x001209BDu);
  const std::string source = "S_LI r1, 2\n  V_MUL_VFV r3, r1, f2, r4\nC_HALT\n";
  const AssembleResult r = assemble(sys(), source, "test.s", {{"HAS_V_MUL_VFV", 0}});
  EXPECT_FALSE(r.ok);
  const auto errors = of(r, Severity::kError);
  ASSERT_EQ(errors.size(), 1u) << format_diagnostics(r, source);
  EXPECT_EQ(errors[0].line, 2);
  EXPECT_EQ(errors[0].column, 3);
  EXPECT_THAT(errors[0].message, HasSubstr("HAS_V_MUL_VFV = 0"));
  EXPECT_THAT(errors[0].message, HasSubstr("illegal instruction"));
  EXPECT_THAT(errors[0].hint, HasSubstr("HAS_V_MUL_VFV: 1"));
}

TEST(Encoding, EveryExampleAssemblesAndDisassemblesToItself) {
  for (const InstructionSpec& insn : sys().instructions) {
    SCOPED_TRACE(insn.name);
    std::string program = insn.example + "\n";
    std::string expected = insn.example;
    for (const OperandSpec& op : insn.operands) {
      if (op.kind != OperandKind::kBody) continue;
      // The example names an end label: define it after a one-instruction body.
      const std::string label = insn.example.substr(insn.example.rfind(' ') + 1);
      program += "C_NOP\n" + label + ":\nC_HALT\n";
      expected = insn.example.substr(0, insn.example.rfind(' ') + 1) + ".+2";
    }
    const AssembleResult r = asm_ok(program);
    ASSERT_FALSE(r.words.empty());
    EXPECT_EQ(extract(r.words[0], sys().opcode_field), insn.opcode);
    EXPECT_EQ(disassemble(sys(), r.words[0]), expected);
    // The disassembly assembles back to the same word.
    const AssembleResult again = asm_ok(expected + "\nC_NOP\nC_HALT\n");
    ASSERT_FALSE(again.words.empty());
    EXPECT_EQ(again.words[0], r.words[0]);
  }
}

TEST(Encoding, OmittedDefaultOperandUsesTheDefault) {
  EXPECT_EQ(one_word("V_ADD_VV r3, r1, r2"), one_word("V_ADD_VV r3, r1, r2, 0"));
  EXPECT_EQ(extract(one_word("V_ADD_VV r3, r1, r2, 7"), systolic::kOff9), 7u);
}

// ------------------------------------------------------------------ syntax

TEST(Syntax, CaseInsensitiveMnemonicsAndRegisters) {
  EXPECT_EQ(one_word("v_add_vv R3, r1, R2"), one_word("V_ADD_VV r3, r1, r2"));
  EXPECT_EQ(one_word("s_add_fp F1, f2, F3"), one_word("S_ADD_FP f1, f2, f3"));
}

TEST(Syntax, CommentsAllThreeStyles) {
  const AssembleResult r = asm_ok(
      "; a comment line\n"
      "# another\n"
      "// and another\n"
      "S_ADD r1, r2, r3 ; trailing\n"
      "S_ADD r1, r2, r3 # trailing\n"
      "S_ADD r1, r2, r3 // trailing\n"
      "C_HALT\n");
  ASSERT_EQ(r.words.size(), 4u);
  EXPECT_EQ(r.words[0], r.words[1]);
  EXPECT_EQ(r.words[0], r.words[2]);
}

TEST(Syntax, LabelsAloneBeforeInstructionsAndSeveralPerLine) {
  const AssembleResult r = asm_ok("start:\n  C_NOP\nmid: C_NOP\na: b: C_NOP\nend:\nC_HALT\n");
  EXPECT_EQ(r.labels.at("start"), 0);
  EXPECT_EQ(r.labels.at("mid"), 1);
  EXPECT_EQ(r.labels.at("a"), 2);
  EXPECT_EQ(r.labels.at("b"), 2);
  EXPECT_EQ(r.labels.at("end"), 3);
  EXPECT_EQ(r.instruction_count(), 4u);
  EXPECT_EQ(r.word_lines, (std::vector<int>{2, 3, 4, 6}));
}

TEST(Syntax, WordDirectiveEmitsRawWords) {
  const AssembleResult r = asm_ok(".word 0x12345678, -1, 2+3\nC_HALT\n");
  EXPECT_EQ(r.words, (std::vector<uint32_t>{0x12345678u, 0xFFFFFFFFu, 5u, 2u}));
}

// ------------------------------------------------------------------ expressions and symbols

TEST(Expressions, OperatorsPrecedenceAndLiterals) {
  const auto imm = [](const std::string& expr) {
    return extract_signed(one_word("S_ADDI r1, r0, " + expr), systolic::kImm17);
  };
  EXPECT_EQ(imm("1 + 2 * 3"), 7);
  EXPECT_EQ(imm("(1 + 2) * 3"), 9);
  EXPECT_EQ(imm("1 << 4 | 1"), 17);
  EXPECT_EQ(imm("0x10 + 0b11"), 19);
  EXPECT_EQ(imm("-7 / 2"), -3);  // truncates toward zero
  EXPECT_EQ(imm("-7 % 2"), -1);
  EXPECT_EQ(imm("~0"), -1);
  EXPECT_EQ(imm("-(3 - 5) * -2"), -4);
  EXPECT_EQ(imm("100 >> 2 ^ 1"), 24);
  EXPECT_EQ(imm("6 & 3"), 2);
  EXPECT_EQ(imm("(3 > 2) + (2 == 2) + !0"), 3);
  EXPECT_EQ(imm("-64 >> 2"), -16);  // arithmetic shift
}

TEST(Expressions, ConstantsLabelsLocationAndPredefinedSymbols) {
  const SymbolTable predefined{{"MLEN", 16}, {"ADDR_X", 4096}};
  const AssembleResult r = asm_ok(
      ".equ ROWS, 2*MLEN\n"
      ".set LATER, AFTER + 1\n"  // forward reference to a constant
      ".equ AFTER, 10\n"
      "S_ADDI r1, r0, ROWS + 1\n"
      "S_ADDI r2, r0, LATER\n"
      "S_ADDI r3, r0, ADDR_X / 2\n"
      "S_ADDI r4, r0, end - here\n"
      "here: S_ADDI r5, r0, .\n"
      "end: C_HALT\n",
      predefined);
  EXPECT_EQ(r.constants.at("ROWS"), 32);
  EXPECT_EQ(r.constants.at("LATER"), 11);
  EXPECT_EQ(extract_signed(r.words[0], systolic::kImm17), 33);
  EXPECT_EQ(extract_signed(r.words[1], systolic::kImm17), 11);
  EXPECT_EQ(extract_signed(r.words[2], systolic::kImm17), 2048);
  EXPECT_EQ(extract_signed(r.words[3], systolic::kImm17), 1);
  EXPECT_EQ(extract_signed(r.words[4], systolic::kImm17), 4);
  EXPECT_TRUE(r.labels.count("here") && r.labels.count("end"));
  EXPECT_FALSE(r.labels.count("MLEN"));
}

TEST(Expressions, PredefinedSymbolCannotBeRedefined) {
  const AssembleResult r = assemble(sys(), ".equ MLEN, 8\nC_HALT\n", "t.s", {{"MLEN", 16}});
  ASSERT_FALSE(r.ok);
  const auto errors = of(r, Severity::kError);
  ASSERT_EQ(errors.size(), 1u);
  EXPECT_EQ(errors[0].line, 1);
  EXPECT_EQ(errors[0].column, 6);
  EXPECT_THAT(errors[0].message, HasSubstr("predefined"));
}

TEST(Expressions, CircularConstantsAreReported) {
  const AssembleResult r = assemble(sys(), ".equ A, B + 1\n.equ B, A\nC_HALT\n", "t.s");
  ASSERT_FALSE(r.ok);
  const auto errors = of(r, Severity::kError);
  ASSERT_EQ(errors.size(), 2u);
  EXPECT_THAT(errors[0].message, HasSubstr("circular definition: A -> B -> A"));
  EXPECT_THAT(errors[1].message, HasSubstr("circular definition: B -> A -> B"));
}

// ------------------------------------------------------------------ pseudo-instructions

TEST(Pseudo, LoadImmediateChoosesTheShortestForm) {
  const AssembleResult small = asm_ok("S_LI r1, -65536\nC_HALT\n");
  ASSERT_EQ(small.words.size(), 2u);
  EXPECT_EQ(disassemble(sys(), small.words[0]), "S_ADDI r1, r0, -65536");

  const AssembleResult large = asm_ok("S_LI r1, 100000\nC_HALT\n");
  ASSERT_EQ(large.words.size(), 3u);
  EXPECT_EQ(large.words[0], 0x0001009Cu);  // S_LUI r1, 1 (0x1C | 1<<7 | 1<<16)
  EXPECT_EQ(large.words[1], 0x43500899u);  // S_ORI r1, r1, 0x86A0 (0x19 | 1<<7 | 1<<11 | 0x86A0<<15)

  const AssembleResult negative = asm_ok("S_LI r2, -100000\nC_HALT\n");
  ASSERT_EQ(negative.words.size(), 3u);
  EXPECT_EQ(disassemble(sys(), negative.words[0]), "S_LUI r2, 0xFFFE");  // 0xFFFE7960 = -100000
  EXPECT_EQ(disassemble(sys(), negative.words[1]), "S_ORI r2, r2, 0x7960");

  // An unsigned 32-bit value is the same register content as its signed reading.
  const AssembleResult all_ones = asm_ok("S_LI r3, 0xFFFFFFFF\nC_HALT\n");
  ASSERT_EQ(all_ones.words.size(), 2u);
  EXPECT_EQ(disassemble(sys(), all_ones.words[0]), "S_ADDI r3, r0, -1");
}

TEST(Pseudo, ForwardReferenceUsesTheLongestForm) {
  const AssembleResult r = asm_ok("S_LI r1, SMALL\nafter: C_HALT\n.equ SMALL, 5\n");
  ASSERT_EQ(r.words.size(), 3u);
  EXPECT_EQ(disassemble(sys(), r.words[0]), "S_LUI r1, 0x0000");
  EXPECT_EQ(disassemble(sys(), r.words[1]), "S_ORI r1, r1, 0x0005");
  EXPECT_EQ(r.labels.at("after"), 2);
  // A label defined later is a forward reference too.
  const AssembleResult label = asm_ok("S_LI r1, target\ntarget: C_HALT\n");
  EXPECT_EQ(label.words.size(), 3u);
  EXPECT_EQ(label.labels.at("target"), 2);
}

TEST(Pseudo, LoadFloatImmediateRoundsOnceToFp32) {
  const auto words = [](const std::string& value) {
    return asm_ok("S_LI_FP f1, " + value + "\nC_HALT\n").words;
  };
  EXPECT_EQ(words("1.0"), (std::vector<uint32_t>{0x3F8000A9u, 2u}));  // S_LUI_FP f1, 0x3F80 only
  // 0.1 = 0x3DCCCCCD: S_LUI_FP f1, 0x3DCC ; S_LLI_FP f1, 0xCCCD
  const auto tenth = words("0.1");
  ASSERT_EQ(tenth.size(), 3u);
  EXPECT_EQ(disassemble(sys(), tenth[0]), "S_LUI_FP f1, 0x3DCC");
  EXPECT_EQ(disassemble(sys(), tenth[1]), "S_LLI_FP f1, 0xCCCD");
  EXPECT_EQ(disassemble(sys(), words("1.0/64")[0]), "S_LUI_FP f1, 0x3C80");
  EXPECT_EQ(disassemble(sys(), words("-inf")[0]), "S_LUI_FP f1, 0xFF80");
  EXPECT_EQ(disassemble(sys(), words("nan")[0]), "S_LUI_FP f1, 0x7FC0");
  EXPECT_EQ(disassemble(sys(), words("0x1.8p1")[0]), "S_LUI_FP f1, 0x4040");  // 3.0
  EXPECT_EQ(disassemble(sys(), words("-2")[0]), "S_LUI_FP f1, 0xC000");
  // 1e-6 is 0x358637BD in FP32.
  const auto micro = words("1e-6");
  EXPECT_EQ(disassemble(sys(), micro[0]), "S_LUI_FP f1, 0x3586");
  EXPECT_EQ(disassemble(sys(), micro[1]), "S_LLI_FP f1, 0x37BD");
  // 16777217 is not representable: the literal rounds to even, 2^24 = 0x4B800000.
  EXPECT_EQ(words("16777217").size(), 2u);
}

TEST(Pseudo, LoadFloatImmediateWarnsAboutSubnormalsAndOverflow) {
  const std::string source = "S_LI_FP f1, 1e-40\nS_LI_FP f2, 1e39\nC_HALT\n";
  const AssembleResult r = assemble(sys(), source, "t.s");
  EXPECT_TRUE(r.ok);
  const auto warnings = of(r, Severity::kWarning);
  ASSERT_EQ(warnings.size(), 2u);
  EXPECT_THAT(warnings[0].message, HasSubstr("subnormal"));
  EXPECT_THAT(warnings[1].message, HasSubstr("overflows FP32"));
}

TEST(Pseudo, MovesExpandToTheDocumentedInstructions) {
  EXPECT_EQ(disassemble(sys(), one_word("S_MV r2, r7")), "S_ADDI r2, r7, 0");
  EXPECT_EQ(disassemble(sys(), one_word("S_MV_FP f2, f5")), "S_MAX_FP f2, f5, f5");
}

TEST(Pseudo, OperandErrorsPointAtTheOperand) {
  const std::string source = "S_LI f1, 5\nS_LI r1, 0x100000000\nS_LI_FP f1, 1 << 2\nC_HALT\n";
  const AssembleResult r = assemble(sys(), source, "t.s");
  const auto errors = of(r, Severity::kError);
  ASSERT_EQ(errors.size(), 3u) << format_diagnostics(r, source);
  EXPECT_EQ(errors[0].line, 1);
  EXPECT_EQ(errors[0].column, 6);
  EXPECT_THAT(errors[0].message, HasSubstr("expected an integer register"));
  EXPECT_EQ(errors[1].column, 10);
  EXPECT_THAT(errors[1].message, HasSubstr("does not fit 32 bits"));
  EXPECT_THAT(errors[2].message, HasSubstr("not allowed in a floating-point expression"));
}

// ------------------------------------------------------------------ loops

TEST(Loops, BodyLengthCountsWordsIncludingPseudoExpansions) {
  const AssembleResult r = asm_ok(
      "C_LOOPI 3, end\n"
      "S_LI r1, 100000\n"  // two words
      "C_NOP\n"
      "end: C_HALT\n");
  EXPECT_EQ(extract(r.words[0], systolic::kImm13), 3u);
  EXPECT_EQ(extract(r.words[0], systolic::kCnt12), 3u);
}

TEST(Loops, ProperNestingIsAccepted) {
  asm_ok(
      "C_LOOPI 4, outer\n"
      "C_LOOP r2, inner\n"
      "S_ADDI r1, r1, 1\n"
      "inner: S_ADDI r3, r3, 1\n"
      "outer: C_HALT\n");
}

TEST(Loops, InnerBodyEndingWithTheOuterBodyIsAnError) {
  const std::string source =
      "C_LOOPI 4, done\n"
      "  C_LOOP r2, done\n"
      "  S_ADDI r1, r1, 1\n"
      "done: C_HALT\n";
  const AssembleResult r = assemble(sys(), source, "t.s");
  const auto errors = of(r, Severity::kError);
  ASSERT_EQ(errors.size(), 1u);
  EXPECT_EQ(errors[0].line, 2);
  EXPECT_EQ(errors[0].column, 3);
  EXPECT_THAT(errors[0].message, HasSubstr("strictly before"));
  EXPECT_THAT(errors[0].hint, HasSubstr("between the two end labels"));
}

TEST(Loops, OverlappingBodiesAreAnError) {
  const std::string source =
      "C_LOOPI 4, a\n"
      "C_LOOPI 2, b\n"
      "C_NOP\n"
      "a: C_NOP\n"
      "b: C_HALT\n";
  const auto errors = of(assemble(sys(), source, "t.s"), Severity::kError);
  ASSERT_EQ(errors.size(), 1u);
  EXPECT_EQ(errors[0].line, 2);
  EXPECT_THAT(errors[0].message, HasSubstr("extends past the end of the enclosing"));
}

TEST(Loops, EndMustFollowTheLoop) {
  const std::string source =
      "back: C_NOP\n"
      "C_LOOP r1, back\n"
      "C_LOOPI 2, next\n"
      "next: C_HALT\n";
  const AssembleResult r = assemble(sys(), source, "t.s");
  const auto errors = of(r, Severity::kError);
  ASSERT_EQ(errors.size(), 2u);
  EXPECT_EQ(errors[0].line, 2);
  EXPECT_EQ(errors[0].column, 12);
  EXPECT_THAT(errors[0].message, HasSubstr("is not after the loop"));
  EXPECT_FALSE(errors[0].hint.empty());
  EXPECT_EQ(errors[1].line, 3);
  EXPECT_THAT(errors[1].message, HasSubstr("loop body is empty"));
}

TEST(Loops, DepthIsLimitedWhenTheParameterIsPredefined) {
  const std::string source =
      "C_LOOPI 2, a\n"
      "C_LOOPI 2, b\n"
      "C_LOOPI 2, c\n"
      "C_NOP\n"
      "c: C_NOP\n"
      "b: C_NOP\n"
      "a: C_HALT\n";
  EXPECT_TRUE(assemble(sys(), source, "t.s", {{"LOOP_DEPTH", 3}}).ok);
  const auto errors = of(assemble(sys(), source, "t.s", {{"LOOP_DEPTH", 2}}), Severity::kError);
  ASSERT_EQ(errors.size(), 1u);
  EXPECT_EQ(errors[0].line, 3);
  EXPECT_THAT(errors[0].message, HasSubstr("nested 3 deep; the hardware supports 2 (LOOP_DEPTH)"));
}

TEST(Program, LengthIsLimitedWhenTheParameterIsPredefined) {
  const std::string source = "C_NOP\nC_NOP\nC_HALT\n";
  EXPECT_TRUE(assemble(sys(), source, "t.s", {{"IMEM_WORDS", 3}}).ok);
  const auto errors = of(assemble(sys(), source, "t.s", {{"IMEM_WORDS", 2}}), Severity::kError);
  ASSERT_EQ(errors.size(), 1u);
  EXPECT_THAT(errors[0].message, HasSubstr("3 instruction words; the instruction memory holds 2"));
}

// ------------------------------------------------------------------ diagnostics, one per class

Diagnostic single_error(const std::string& source, const SymbolTable& predefined = {}) {
  const AssembleResult r = assemble(sys(), source, "t.s", predefined);
  EXPECT_FALSE(r.ok);
  const auto errors = of(r, Severity::kError);
  EXPECT_EQ(errors.size(), 1u) << format_diagnostics(r, source);
  return errors.empty() ? Diagnostic{} : errors[0];
}

TEST(Diagnostics, UnknownMnemonicSuggestsTheClosest) {
  const Diagnostic d = single_error("  V_ADD_FV r3, r1, f2\nC_HALT\n");
  EXPECT_EQ(d.line, 1);
  EXPECT_EQ(d.column, 3);
  EXPECT_EQ(d.length, 8);
  EXPECT_EQ(d.text, "V_ADD_FV");
  EXPECT_EQ(d.message, "unknown instruction 'V_ADD_FV'");
  EXPECT_EQ(d.hint, "did you mean V_ADD_VF?");
  EXPECT_THAT(single_error("HALT\n").hint, HasSubstr("C_HALT"));
  EXPECT_THAT(single_error("loop_end\nC_HALT\n").hint, HasSubstr("loop_end:"));
}

TEST(Diagnostics, WrongOperandCountShowsTheSyntax) {
  const Diagnostic d = single_error("S_ADD r1, r2\nC_HALT\n");
  EXPECT_EQ(d.column, 1);
  EXPECT_EQ(d.message, "S_ADD expects 3 operands, got 2");
  EXPECT_EQ(d.hint, "syntax: S_ADD rd, rs1, rs2");
  const Diagnostic extra = single_error("V_EXP_V r1, r2, 3, 4\nC_HALT\n");
  EXPECT_EQ(extra.column, 20);
  EXPECT_EQ(extra.message, "V_EXP_V expects 2 to 3 operands, got 4");
  // '#' starts a comment, so "#5" silently drops the operand: say so.
  const Diagnostic hash = single_error("S_ADDI r1, r0, #5\nC_HALT\n");
  EXPECT_EQ(hash.column, 15);  // just after the last comma
  EXPECT_THAT(hash.hint, HasSubstr("'#' starts a comment"));
}

TEST(Diagnostics, WrongRegisterClass) {
  const Diagnostic d = single_error("V_ADD_VF r3, r1, r2\nC_HALT\n");
  EXPECT_EQ(d.column, 18);
  EXPECT_EQ(d.text, "r2");
  EXPECT_EQ(d.message, "expected an FP register f0..f15, got integer register 'r2'");
  EXPECT_THAT(d.hint, HasSubstr("did you mean V_ADD_VV?"));
  const auto fp = of(assemble(sys(), "S_ADD f1, f2, f3\nC_HALT\n", "t.s"), Severity::kError);
  ASSERT_EQ(fp.size(), 3u);
  EXPECT_EQ(fp[0].message, "expected an integer register r0..r15, got FP register 'f1'");
  EXPECT_THAT(fp[0].hint, HasSubstr("did you mean S_ADD_FP?"));
  const Diagnostic number = single_error("S_ADD r1, 5, r3\nC_HALT\n");
  EXPECT_EQ(number.column, 11);
  EXPECT_EQ(number.message, "expected an integer register r0..r15, got '5'");
  const Diagnostic comma = single_error("S_ADD r1, r2, r3 r4\nC_HALT\n");
  EXPECT_EQ(comma.column, 18);
  EXPECT_EQ(comma.message, "unexpected 'r4' after 'r3'");
  EXPECT_EQ(comma.hint, "separate operands with ','");
}

TEST(Diagnostics, RegisterOutOfRange) {
  const Diagnostic d = single_error("S_ADD r16, r1, r2\nC_HALT\n");
  EXPECT_EQ(d.column, 7);
  EXPECT_EQ(d.length, 3);
  EXPECT_EQ(d.message, "register 'r16' does not exist");
  EXPECT_EQ(d.hint, "integer registers are r0..r15");
}

TEST(Diagnostics, ImmediateOutOfRange) {
  const Diagnostic d = single_error("S_ADDI r1, r0, 70000\nC_HALT\n");
  EXPECT_EQ(d.line, 1);
  EXPECT_EQ(d.column, 16);
  EXPECT_EQ(d.text, "70000");
  EXPECT_EQ(d.message, "immediate 70000 does not fit the 17-bit signed field (-65536..65535)");
  EXPECT_THAT(d.hint, HasSubstr("S_LI rd, value"));
  const Diagnostic narrow = single_error("S_SLLI r1, r1, 32\nC_HALT\n");
  EXPECT_EQ(narrow.message, "shamt 32 is out of range 0..31");
  EXPECT_EQ(narrow.hint, "S_SLLI rd, rs1, shamt: shamt takes 0..31");
  const Diagnostic count = single_error("H_LOAD_V r1, r2, r3, 0\nC_HALT\n");
  EXPECT_EQ(count.message, "count 0 is out of range 1..8191");
}

TEST(Diagnostics, UnknownSymbolSuggestsSimilarNames) {
  const Diagnostic d = single_error(".equ ROWS, 4\nC_LOOPI ROWZ, done\nC_NOP\ndone: C_HALT\n");
  EXPECT_EQ(d.line, 2);
  EXPECT_EQ(d.column, 9);
  EXPECT_EQ(d.message, "unknown symbol 'ROWZ'");
  EXPECT_EQ(d.hint, "did you mean ROWS?");
  const Diagnostic label = single_error("C_LOOPI 2, dnoe\nC_NOP\ndone: C_HALT\n");
  EXPECT_EQ(label.hint, "did you mean done?");
  const Diagnostic parameter = single_error("S_ADDI r1, r0, MLEN\nC_HALT\n");
  EXPECT_THAT(parameter.hint, HasSubstr("hardware parameter"));
  const Diagnostic reg = single_error("S_ADDI r1, r0, r2 + 1\nC_HALT\n");
  EXPECT_THAT(reg.hint, HasSubstr("registers cannot be used in expressions"));
}

TEST(Diagnostics, DuplicateLabelAndConstant) {
  const Diagnostic label = single_error("top: C_NOP\ntop: C_HALT\n");
  EXPECT_EQ(label.line, 2);
  EXPECT_EQ(label.column, 1);
  EXPECT_EQ(label.message, "duplicate label 'top'");
  EXPECT_EQ(label.hint, "'top' is already a label defined at line 1");
  const Diagnostic constant = single_error(".equ N, 1\n.equ N, 2\nC_HALT\n");
  EXPECT_EQ(constant.line, 2);
  EXPECT_EQ(constant.column, 6);
  EXPECT_EQ(constant.message, "duplicate constant 'N'");
  const Diagnostic reg = single_error("r1: C_HALT\n");
  EXPECT_THAT(reg.message, HasSubstr("register name"));
}

TEST(Diagnostics, BadExpressionsAndCharacters) {
  const Diagnostic paren = single_error("S_ADDI r1, r0, (1 + 2\nC_HALT\n");
  EXPECT_EQ(paren.message, "missing ')'");
  EXPECT_EQ(paren.column, 22);
  const Diagnostic character = single_error("S_ADDI r1, r0, 5 @ 2\nC_HALT\n");
  EXPECT_EQ(character.column, 18);
  EXPECT_EQ(character.message, "unexpected character '@'");
  const Diagnostic number = single_error("S_ADDI r1, r0, 12abc\nC_HALT\n");
  EXPECT_EQ(number.message, "malformed number '12abc'");
  const Diagnostic missing = single_error("S_ADD r1, , r2\nC_HALT\n");
  EXPECT_EQ(missing.column, 11);
  EXPECT_EQ(missing.message, "missing operand rs1");
  const Diagnostic directive = single_error(".eqv N, 1\nC_HALT\n");
  EXPECT_EQ(directive.message, "unknown directive '.eqv'");
  EXPECT_EQ(directive.hint, "did you mean .equ?");
  const Diagnostic floating = single_error("S_ADDI r1, r0, 1.5\nC_HALT\n");
  EXPECT_THAT(floating.message, HasSubstr("floating-point number '1.5' in an integer expression"));
  const Diagnostic bundle = single_error("{ C_NOP }\nC_HALT\n");
  EXPECT_THAT(bundle.hint, HasSubstr("no instruction bundles"));
}

TEST(Diagnostics, DivisionByZero) {
  const Diagnostic d = single_error("S_ADDI r1, r0, 4 / (2 - 2)\nC_HALT\n");
  EXPECT_EQ(d.message, "division by zero");
  EXPECT_EQ(d.column, 20);
  EXPECT_EQ(d.text, "(2 - 2)");
  EXPECT_EQ(single_error(".equ Z, 0\nS_ADDI r1, r0, 1 % Z\nC_HALT\n").message, "division by zero");
}

TEST(Diagnostics, WarningsForHardwiredWritesAndMissingHalt) {
  const std::string source = "S_ADDI r0, r1, 1\nS_ADD_FP f0, f1, f2\nS_LI r0, 5\nS_ADD r1, r0, r0\n";
  const AssembleResult r = assemble(sys(), source, "t.s");
  EXPECT_TRUE(r.ok);
  const auto warnings = of(r, Severity::kWarning);
  ASSERT_EQ(warnings.size(), 4u) << format_diagnostics(r, source);
  EXPECT_EQ(warnings[0].line, 1);
  EXPECT_EQ(warnings[0].column, 8);
  EXPECT_EQ(warnings[0].message, "write to r0 has no effect: it is hardwired to 0");
  EXPECT_EQ(warnings[1].message, "write to f0 has no effect: it is hardwired to 0.0");
  EXPECT_EQ(warnings[2].line, 3);
  EXPECT_EQ(warnings[3].line, 0);  // the file as a whole
  EXPECT_THAT(warnings[3].message, HasSubstr("no C_HALT"));
  // Reading r0 or f0 is fine; writing the FP register of a reduction is a write.
  EXPECT_EQ(of(assemble(sys(), "V_RED_SUM f0, r1\nC_HALT\n", "t.s"), Severity::kWarning).size(), 1u);
  EXPECT_TRUE(of(assemble(sys(), "V_MAX_VF r1, r0, f0\nC_HALT\n", "t.s"), Severity::kWarning).empty());
}

TEST(Diagnostics, EveryErrorIsReportedNotJustTheFirst) {
  const std::string source =
      "S_ADD r1, r2\n"          // 1: count
      "V_ADDD r1, r2, r3\n"     // 2: mnemonic
      "S_ADDI r1, r0, 99999\n"  // 3: range
      "C_NOP\n"                 // 4: fine
      "S_ADD r1, r2, r99\n"     // 5: register
      "S_ADDI r1, r0, nope\n"   // 6: symbol
      "C_HALT\n";
  const AssembleResult r = assemble(sys(), source, "t.s");
  const auto errors = of(r, Severity::kError);
  ASSERT_EQ(errors.size(), 5u);
  std::vector<int> lines;
  for (const Diagnostic& d : errors) lines.push_back(d.line);
  EXPECT_EQ(lines, (std::vector<int>{1, 2, 3, 5, 6}));
  EXPECT_EQ(r.words.size(), 7u);  // every statement keeps its address
}

TEST(Diagnostics, ErrorsAreCapped) {
  std::string source;
  for (int i = 0; i < 150; ++i) source += "BOGUS\n";
  const AssembleResult r = assemble(sys(), source, "t.s");
  EXPECT_EQ(r.error_count(), kMaxErrors);
  EXPECT_EQ(r.diagnostics.back().severity, Severity::kNote);
  EXPECT_THAT(r.diagnostics.back().message, HasSubstr("too many errors"));
}

TEST(Diagnostics, EveryErrorHasALocationAndAHint) {
  const std::vector<std::string> bad = {
      "V_ADD_FV r3, r1, f2",
      "S_ADD r1, r2",
      "V_ADD_VF r3, r1, r2",
      "S_ADD r16, r1, r2",
      "S_ADDI r1, r0, 70000",
      "S_SLLI r1, r1, 40",
      "S_ADDI r1, r0, nope",
      "S_ADDI r1, r0, (1",
      "S_ADDI r1, r0, 5 @",
      "S_ADDI r1, r0, 0x",
      "S_ADDI r1, r0, 1/0",
      "S_ADDI r1, r0, 1 << 99",
      "S_ADDI r1, r0, 1.5",
      "S_ADDI r1, r0, r2",
      "S_ADD r1, , r2",
      "S_ADD r1, r2, r3,",
      "5",
      "{ C_NOP }",
      ": C_NOP",
      ".eqv X, 1",
      ".equ",
      ".equ X",
      ".equ X 1",
      ".equ r1, 1",
      ".word",
      ".word 0x100000000",
      "S_LI r1, 0x100000000",
      "S_LI f1, 1",
      "S_LI_FP f1, 1 << 2",
      "S_LI_FP f1, 1.0/0",
      "S_MV r1",
      "C_LOOP r1, .",
      "C_LOOPI 5000, .+2",
      "C_LOOP 3, .+2",
      "H_LOAD_V r1, r2, r3, 0",
      "x: x: C_NOP",
      "S_ADDI r1, r0, #5",
      "M_LDW f1",
      "S_ADDI r1, r0, 0b12",
      "S_ADD r1, r2, r3 r4",
  };
  for (const std::string& line : bad) {
    const std::string source = line + "\nC_HALT\n";
    const AssembleResult r = assemble(sys(), source, "t.s");
    EXPECT_FALSE(r.ok) << line;
    for (const Diagnostic& d : of(r, Severity::kError)) {
      EXPECT_EQ(d.line, 1) << line;
      EXPECT_GE(d.column, 1) << line << ": " << d.message;
      EXPECT_FALSE(d.message.empty()) << line;
      EXPECT_FALSE(d.hint.empty()) << line << ": " << d.message;
    }
  }
}

TEST(Diagnostics, FormattedLikeACompiler) {
  const std::string source = "C_NOP\n    S_ADDI r1, r0, 70000\nC_HALT\n";
  const AssembleResult r = assemble(sys(), source, "kernel.s");
  EXPECT_EQ(format_diagnostics(r, source),
            "kernel.s:2:20: error: immediate 70000 does not fit the 17-bit signed field (-65536..65535)\n"
            " 2 |     S_ADDI r1, r0, 70000\n"
            "   |                    ^~~~~\n"
            "hint: 'S_LI rd, value' loads any 32-bit value, choosing the shortest instruction sequence\n"
            "1 error\n");
}

TEST(Diagnostics, TabsKeepTheCaretAligned) {
  const std::string source = "\tS_ADD\tr16, r1, r2\nC_HALT\n";
  const std::string text = format_diagnostics(assemble(sys(), source, "k.s"), source);
  EXPECT_THAT(text, HasSubstr("k.s:1:8: error"));
  EXPECT_THAT(text, HasSubstr(" 1 | \tS_ADD\tr16, r1, r2\n   | \t     \t^~~\n"));
}

// The full-matrix optimal string alignment distance, case-insensitive: what edit_distance computes in
// three rows.
size_t reference_distance(const std::string& a, const std::string& b) {
  auto fold = [](char c) { return static_cast<char>(std::toupper(static_cast<unsigned char>(c))); };
  std::vector<std::vector<size_t>> d(a.size() + 1, std::vector<size_t>(b.size() + 1, 0));
  for (size_t i = 0; i <= a.size(); ++i) d[i][0] = i;
  for (size_t j = 0; j <= b.size(); ++j) d[0][j] = j;
  for (size_t i = 1; i <= a.size(); ++i) {
    for (size_t j = 1; j <= b.size(); ++j) {
      d[i][j] = std::min(
          {d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + (fold(a[i - 1]) == fold(b[j - 1]) ? 0 : 1)});
      if (i > 1 && j > 1 && fold(a[i - 1]) == fold(b[j - 2]) && fold(a[i - 2]) == fold(b[j - 1])) {
        d[i][j] = std::min(d[i][j], d[i - 2][j - 2] + 1);
      }
    }
  }
  return d[a.size()][b.size()];
}

TEST(Diagnostics, EditDistanceIsOptimalStringAlignment) {
  EXPECT_EQ(edit_distance("V_ADD_VF", "V_ADD_FV"), 1u);  // one transposition
  EXPECT_EQ(edit_distance("s_addi", "S_ADDI"), 0u);
  EXPECT_EQ(edit_distance("", "abc"), 3u);
  EXPECT_EQ(edit_distance("CA", "ABC"), 3u);  // OSA, not Damerau: no edit inside a transposed pair
  uint32_t state = 12345;
  auto next = [&] { return state = state * 1664525u + 1013904223u; };
  for (int n = 0; n < 2000; ++n) {
    std::string a, b;
    for (uint32_t k = next() % 9; k > 0; --k) a.push_back("abAB_"[next() % 5]);
    for (uint32_t k = next() % 9; k > 0; --k) b.push_back("abAB_"[next() % 5]);
    ASSERT_EQ(edit_distance(a, b), reference_distance(a, b)) << a << " / " << b;
  }
}

// Long unknown names (fuzzed kernels, pasted garbage) must not cost a matrix per candidate; the result is
// what the distances say.
TEST(Diagnostics, ClosestMatchesSkipsCandidatesTooDifferentInLength) {
  const std::vector<std::string> names = {"S_ADD", "S_ADDI", "V_ADD_VV", "C_HALT"};
  EXPECT_EQ(closest_matches("ADD", names), std::vector<std::string>{"S_ADD"});     // the prefix rule
  EXPECT_EQ(closest_matches("S_ADDD", names), std::vector<std::string>{"S_ADD"});  // fewer letters differ
  EXPECT_TRUE(closest_matches(std::string(100000, 'X'), names).empty());
  EXPECT_EQ(closest_matches("C_HALTT", names), std::vector<std::string>{"C_HALT"});
}

}  // namespace
}  // namespace kcraft::isa::test
