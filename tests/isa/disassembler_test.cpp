// The disassembler, and the round trip assemble(disassemble(words)) == words on single words (random legal
// and arbitrary) and on random programs with nested loops.
#include <random>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "isa/common/assembler.h"
#include "isa/common/disassembler.h"
#include "test_util.h"

namespace kcraft::isa::test {
namespace {

using ::testing::HasSubstr;

// A random word the assembler can produce: a random instruction with every operand in its range.
uint32_t random_legal_word(std::mt19937& rng, bool allow_loops) {
  const auto& instructions = sys().instructions;
  for (;;) {
    const InstructionSpec& insn = instructions[rng() % instructions.size()];
    bool loop = false;
    uint32_t word = insert(0, sys().opcode_field, insn.opcode);
    for (const OperandSpec& op : insn.operands) {
      int64_t low = op.min;
      int64_t high = op.max;
      if (op.kind == OperandKind::kRegister) {
        low = 0;
        high = sys().register_classes[static_cast<size_t>(op.register_class)].count - 1;
      }
      loop |= op.kind == OperandKind::kBody;
      const int64_t value = low + static_cast<int64_t>(rng() % static_cast<uint64_t>(high - low + 1));
      word = insert(word, op.field, static_cast<uint32_t>(value));
    }
    if (!loop || allow_loops) return word;
  }
}

std::vector<uint32_t> reassemble(const std::string& text) {
  const AssembleResult r = assemble(sys(), text, "disassembly.s");
  EXPECT_TRUE(r.ok) << text << format_diagnostics(r, text);
  return r.words;
}

TEST(Disassembler, DecodesOperands) {
  std::string reason;
  const auto d = decode(sys(), 0x029009B8u, &reason);  // V_ADD_VF r3, r1, f2, 5
  ASSERT_TRUE(d);
  EXPECT_EQ(d->insn->name, "V_ADD_VF");
  EXPECT_EQ(d->values, (std::vector<int64_t>{3, 1, 2, 5}));
  EXPECT_EQ(disassemble(sys(), 0x029009B8u), "V_ADD_VF r3, r1, f2, 5");
  EXPECT_EQ(disassemble(sys(), 0xFFFD9098u), "S_ADDI r1, r2, -5");
  EXPECT_EQ(disassemble(sys(), 0x00101004u), "C_LOOP r2, .+3");  // body of 2: end = . + 1 + 2
}

TEST(Disassembler, IllegalWordsBecomeCommentedWordDirectives) {
  EXPECT_EQ(disassemble(sys(), 0x0000007Fu), ".word 0x0000007F ; illegal: unknown opcode 0x7F");
  EXPECT_EQ(disassemble(sys(), 0x00000000u), ".word 0x00000000 ; illegal: unknown opcode 0x00");
  EXPECT_EQ(disassemble(sys(), 0x00000081u),
            ".word 0x00000081 ; illegal: reserved bits 0x00000080 set in C_NOP");
  // M_LDW uses rs1 and off9 only: rd (bits 10:7) is reserved for it although format V has an rd field.
  EXPECT_EQ(disassemble(sys(), 0x00000150u),
            ".word 0x00000150 ; illegal: reserved bits 0x00000100 set in M_LDW");
}

TEST(Disassembler, LegalWordsOutsideTheDocumentedRangesStayRawWords) {
  // S_SLLI r2, r1 with shamt 40: no reserved bit is set, so the word is legal, but shamt must be 0..31.
  const uint32_t word = 0x1Au | 2u << 7 | 1u << 11 | 40u << 15;
  EXPECT_TRUE(systolic::is_legal(word));
  const std::string text = disassemble(sys(), word);
  EXPECT_THAT(text, HasSubstr(".word 0x"));
  EXPECT_THAT(text, HasSubstr("S_SLLI with shamt = 40 outside 0..31"));
  EXPECT_EQ(reassemble(text), std::vector<uint32_t>{word});
}

TEST(Disassembler, RoundTripOnRandomLegalWords) {
  std::mt19937 rng(12345);
  for (int i = 0; i < 20000; ++i) {
    const uint32_t word = random_legal_word(rng, true);
    ASSERT_TRUE(systolic::is_legal(word));
    const std::string text = disassemble(sys(), word);
    ASSERT_EQ(text.find(".word"), std::string::npos) << text;
    ASSERT_EQ(reassemble(text), std::vector<uint32_t>{word}) << text;
  }
}

TEST(Disassembler, RoundTripOnArbitraryWords) {
  std::mt19937 rng(777);
  for (int i = 0; i < 20000; ++i) {
    // Bias towards known opcodes so most words exercise reserved-bit and range checks.
    uint32_t word = rng();
    if (i % 2 == 0)
      word = insert(word, sys().opcode_field, sys().instructions[rng() % sys().instructions.size()].opcode);
    ASSERT_EQ(reassemble(disassemble(sys(), word)), std::vector<uint32_t>{word}) << disassemble(sys(), word);
  }
}

// Appends a block of 1..budget statements; loops nest up to `depth` and an inner loop is always followed
// by another instruction, so every inner body ends strictly before its enclosing body.
void random_block(std::mt19937& rng, std::vector<uint32_t>& out, int depth, int budget) {
  const int count = 1 + static_cast<int>(rng() % static_cast<unsigned>(budget));
  const InstructionSpec* loop = sys().find_instruction("C_LOOP");
  const InstructionSpec* loopi = sys().find_instruction("C_LOOPI");
  for (int i = 0; i < count; ++i) {
    const unsigned pick = rng() % 20;
    if (depth > 0 && pick < 3) {
      const size_t at = out.size();
      out.push_back(0);
      random_block(rng, out, depth - 1, budget / 2 + 1);
      const uint32_t length = static_cast<uint32_t>(out.size() - at - 1);
      uint32_t word = 0;
      if (pick == 0) {
        word = insert(insert(0, sys().opcode_field, loop->opcode), systolic::kRs1, rng() % 16);
      } else {
        word = insert(insert(0, sys().opcode_field, loopi->opcode), systolic::kCnt12, rng() % 4096);
      }
      out[at] = insert(word, systolic::kImm13, length);
      out.push_back(random_legal_word(rng, false));
    } else if (pick == 3) {
      // Usually illegal, printed as .word; never a loop, whose body would be random.
      uint32_t word = rng();
      for (auto d = decode(sys(), word); d && (d->insn == loop || d->insn == loopi);
           d = decode(sys(), word)) {
        word = rng();
      }
      out.push_back(word);
    } else {
      out.push_back(random_legal_word(rng, false));
    }
  }
}

TEST(Disassembler, ProgramRoundTripWithNestedLoops) {
  std::mt19937 rng(2024);
  for (int trial = 0; trial < 200; ++trial) {
    std::vector<uint32_t> words;
    random_block(rng, words, 4, 40);
    const std::string text = disassemble_program(sys(), words);
    ASSERT_EQ(reassemble(text), words) << text;
    ASSERT_EQ(reassemble(disassemble_program(sys(), words, DisassemblyOptions{true})), words);
  }
}

TEST(Disassembler, ProgramInventsLabelsForLoopEnds) {
  const AssembleResult r = asm_ok(
      "C_LOOPI 2, outer\n"
      "C_LOOP r3, inner\n"
      "V_ADD_VV r1, r1, r2\n"
      "inner: C_NOP\n"
      "outer: C_LOOPI 1, last\n"
      "C_HALT\n"
      "last:\n");
  EXPECT_EQ(disassemble_program(sys(), r.words),
            "    C_LOOPI 2, L4\n"
            "    C_LOOP r3, L3\n"
            "    V_ADD_VV r1, r1, r2\n"
            "L3:\n"
            "    C_NOP\n"
            "L4:\n"
            "    C_LOOPI 1, L6\n"
            "    C_HALT\n"
            "L6:\n");
  EXPECT_THAT(disassemble_program(sys(), {0x00000002u}, DisassemblyOptions{true}),
              HasSubstr("C_HALT                                  ; 0: 0x00000002"));
}

}  // namespace
}  // namespace kcraft::isa::test
