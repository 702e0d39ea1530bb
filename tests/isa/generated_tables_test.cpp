// The generated systolic tables (systolic_isa.h / systolic_isa_tables.cpp) against the YAML and against
// values checked by hand.
#include <fmt/format.h>
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "isa/tools/spec_loader.h"
#include "systolic_isa.h"
#include "test_util.h"

namespace kcraft::isa::test {
namespace {

namespace sy = kcraft::isa::systolic;
using ::testing::HasSubstr;

// The header is usable at compile time (the functional model and RTL wrapper rely on it).
static_assert(sy::is_legal(0x00000002u));   // C_HALT
static_assert(!sy::is_legal(0x00000000u));  // opcode 0 is reserved
static_assert(!sy::is_legal(0x00000082u));  // C_HALT with a reserved bit
static_assert(sy::reserved_mask(0x7F) == 0xFFFFFFFFu);
static_assert(sy::extract(0xFFFD9098u, sy::kImm17) == 0x1FFFBu);
static_assert(sy::extract_signed(0xFFFD9098u, sy::kImm17) == -5);
static_assert(static_cast<uint8_t>(sy::Op::H_STORE_V) == 0x62);
// Machine constants: the values the RTL and the tools used before they moved into the YAML.
static_assert(static_cast<unsigned>(sy::ErrorCode::kNone) == 0);
static_assert(static_cast<unsigned>(sy::ErrorCode::kIllegalInsn) == 1);
static_assert(static_cast<unsigned>(sy::ErrorCode::kDramRange) == 10);
static_assert(sy::kErrorCodeBits == 4 && sy::kStallCauseBits == 4);
static_assert(sy::kCycles == 0 && sy::kMacs == 12 && sy::kArrayActive == 19 && sy::kNumCounters == 20);
static_assert(sy::kCounters[sy::kMacs].architectural && !sy::kCounters[sy::kCycles].architectural);
static_assert(sy::find_error(8)->code == sy::ErrorCode::kFpsramRange);  // not constant if nullptr
static_assert(sy::find_error(11) == nullptr);
static_assert(static_cast<unsigned>(sy::StallCause::kDrain) == 4);
static_assert(sy::find_stall_cause(1)->counter == sy::kStallDependency);

TEST(GeneratedTables, FieldsAndOpcodesAsSpecified) {
  EXPECT_EQ(sy::kOpcode, (Field{0, 7}));
  EXPECT_EQ(sy::kRd, (Field{7, 4}));
  EXPECT_EQ(sy::kRs1, (Field{11, 4}));
  EXPECT_EQ(sy::kRs2, (Field{15, 4}));
  EXPECT_EQ(sy::kFs, (Field{19, 4}));
  EXPECT_EQ(sy::kOff9, (Field{23, 9}));
  EXPECT_EQ(sy::kImm17, (Field{15, 17}));
  EXPECT_EQ(sy::kImm16, (Field{16, 16}));
  EXPECT_EQ(sy::kImm13, (Field{19, 13}));
  EXPECT_EQ(sy::kCnt12, (Field{7, 12}));
  EXPECT_EQ(static_cast<int>(sy::Op::C_NOP), 0x01);
  EXPECT_EQ(static_cast<int>(sy::Op::V_ADD_VV), 0x30);
  EXPECT_EQ(static_cast<int>(sy::Op::M_WO), 0x54);
  EXPECT_EQ(sy::kAllOps.size(), sys().instructions.size());
  for (const InstructionSpec& insn : sys().instructions) {
    EXPECT_STREQ(sy::op_name(static_cast<uint8_t>(insn.opcode)), insn.name.c_str());
  }
  EXPECT_EQ(sy::op_name(0x7F), nullptr);
  EXPECT_EQ(sy::op_name(200), nullptr);
}

TEST(GeneratedTables, SpecEqualsTheYamlLoadedAtRunTime) {
  const auto loaded = gen::load_isa_spec(std::string(KCRAFT_SOURCE_DIR) + "/isa/systolic.yaml");
  ASSERT_TRUE(loaded.spec) << (loaded.errors.empty() ? "" : loaded.errors[0]);
  EXPECT_TRUE(*loaded.spec == sy::spec());
  EXPECT_EQ(loaded.spec->instructions.size(), 59u);
}

TEST(GeneratedTables, ReservedMasksUseOnlyTheInstructionsOwnOperands) {
  // Checked by hand: the used bits are the opcode plus the operands' fields.
  EXPECT_EQ(sy::reserved_mask(0x01), 0xFFFFFF80u);  // C_NOP: opcode only
  EXPECT_EQ(sy::reserved_mask(0x50), 0x007F8780u);  // M_LDW: rs1 and off9 (not rd, rs2, fs)
  EXPECT_EQ(sy::reserved_mask(0x52), 0x007F8000u);  // M_MM: rd, rs1, off9
  EXPECT_EQ(sy::reserved_mask(0x30), 0x00780000u);  // V_ADD_VV: all but fs
  EXPECT_EQ(sy::reserved_mask(0x38), 0x00078000u);  // V_ADD_VF: all but rs2
  EXPECT_EQ(sy::reserved_mask(0x48), 0x00078780u);  // V_RED_SUM: fs, rs1, off9 (not rd, rs2)
  EXPECT_EQ(sy::reserved_mask(0x04), 0x00078780u);  // C_LOOP: rs1, imm13
  EXPECT_EQ(sy::reserved_mask(0x05), 0x00000000u);  // C_LOOPI: cnt12 + imm13 fill the word
  EXPECT_EQ(sy::reserved_mask(0x1C), 0x0000F800u);  // S_LUI: rd, imm16
  EXPECT_EQ(sy::reserved_mask(0x1D), 0xFFFFFFFFu);  // unassigned opcode
  EXPECT_EQ(sy::reserved_mask(0x00), 0xFFFFFFFFu);
}

TEST(GeneratedTables, IsLegalMatchesReservedBitsForEverySingleBit) {
  for (unsigned opcode = 0; opcode < 128; ++opcode) {
    const InstructionSpec* insn = sys().find_opcode(opcode);
    uint32_t used = 0x7F;
    if (insn != nullptr) {
      for (const OperandSpec& op : insn->operands) used |= field_mask(op.field);
    }
    EXPECT_EQ(sy::is_legal(opcode), insn != nullptr) << opcode;
    for (unsigned bit = 7; bit < 32; ++bit) {
      const uint32_t word = opcode | (1u << bit);
      const bool expected = insn != nullptr && (used >> bit & 1u) != 0;
      EXPECT_EQ(sy::is_legal(word), expected) << std::hex << word;
    }
  }
}

TEST(GeneratedTables, MarkdownIsEmbeddedAndWrittenToTheBuildTree) {
  const std::string markdown = sy::isa_markdown();
  EXPECT_EQ(markdown, read_file(KCRAFT_SYSTOLIC_ISA_MD));
  for (const char* heading :
       {"## Overview", "## Registers", "## Instruction encoding", "## Instructions by unit",
        "## Pseudo-instructions", "## Assembly language", "### Hardware loops"}) {
    EXPECT_THAT(markdown, HasSubstr(heading));
  }
  for (const InstructionSpec& insn : sys().instructions) {
    EXPECT_THAT(markdown, HasSubstr("#### " + insn.name + "\n\n`" + syntax_of(insn) + "`"));
  }
  for (const PseudoSpec& p : sys().pseudos) EXPECT_THAT(markdown, HasSubstr("#### " + p.name));
  // Example encodings come from the assembler: V_ADD_VV r3, r1, r2, 1 = 0x30 | 3<<7 | 1<<11 | 2<<15 | 1<<23.
  EXPECT_THAT(markdown, HasSubstr("`V_ADD_VV r3, r1, r2, 1` encodes as `0x008109B0`"));
}

TEST(GeneratedTables, MachineConstantsAsSpecified) {
  ASSERT_EQ(sy::kErrors.size(), sys().errors.codes.size());
  for (size_t i = 0; i < sy::kErrors.size(); ++i) {
    const MachineCode& c = sys().errors.codes[i];
    EXPECT_EQ(static_cast<unsigned>(sy::kErrors[i].code), c.code);
    EXPECT_EQ(sy::kErrors[i].name, c.name);
    EXPECT_EQ(sy::kErrors[i].description, c.description);
    EXPECT_EQ(sy::find_error(c.code), &sy::kErrors[i]);
  }
  // Architectural = computed by the functional model too (timing-independent), checked by hand.
  std::vector<std::string> architectural;
  for (unsigned k = 0; k < sy::kNumCounters; ++k) {
    EXPECT_EQ(static_cast<unsigned>(sy::kCounters[k].counter), k);
    EXPECT_EQ(sy::kCounters[k].name, sys().counters[k].name);
    if (sy::kCounters[k].architectural) architectural.push_back(sy::kCounters[k].name);
  }
  EXPECT_EQ(architectural,
            (std::vector<std::string>{"instructions", "dram_bytes_read", "dram_bytes_written", "macs",
                                      "vector_elements", "instr_control", "instr_scalar", "instr_vector",
                                      "instr_matrix", "instr_dma"}));
  ASSERT_EQ(sy::kStallCauses.size(), sys().stall_causes.codes.size());
  for (size_t i = 0; i < sy::kStallCauses.size(); ++i) {
    const MachineCode& c = sys().stall_causes.codes[i];
    EXPECT_EQ(static_cast<unsigned>(sy::kStallCauses[i].code), c.code);
    const int counter = sy::kStallCauses[i].counter;
    EXPECT_EQ(counter < 0 ? std::string() : sy::kCounters.at(static_cast<size_t>(counter)).name, c.counter);
  }
}

TEST(GeneratedTables, MarkdownDocumentsErrorsCountersAndStallCauses) {
  const std::string markdown = sy::isa_markdown();
  for (const char* heading : {"## Errors", "## Performance counters", "### Stall causes"}) {
    EXPECT_THAT(markdown, HasSubstr(heading));
  }
  for (const MachineCode& c : sys().errors.codes) {
    EXPECT_THAT(markdown, HasSubstr(fmt::format("| {} | `{}` | {} |", c.code, c.name, c.description)));
  }
  for (const CounterSpec& c : sys().counters) {
    EXPECT_THAT(markdown, HasSubstr(fmt::format("| {} | `{}` | {} | {} |", c.index, c.name,
                                                c.architectural ? "yes" : "no", c.description)));
  }
  for (const MachineCode& c : sys().stall_causes.codes) {
    EXPECT_THAT(markdown, HasSubstr(fmt::format("| {} | `{}` | {} |", c.code, c.name, c.description)));
  }
  EXPECT_THAT(markdown,
              HasSubstr("| 2 | `fp_pending` | waiting for an FP register that an unfinished reduction or "
                        "special function writes | `stall_fp_pending` |"));
}

TEST(GeneratedTables, ExampleProgramsAssembleCleanly) {
  ASSERT_FALSE(sys().examples.empty());
  for (const ExampleProgram& e : sys().examples) {
    const SymbolTable symbols(e.symbols.begin(), e.symbols.end());
    const AssembleResult r = assemble(sys(), e.source, e.title, symbols);
    EXPECT_TRUE(r.ok && r.diagnostics.empty()) << format_diagnostics(r, e.source);
  }
}

}  // namespace
}  // namespace kcraft::isa::test
