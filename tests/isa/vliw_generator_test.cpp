// kcraft_isagen's bundle extension (`bundle:` and per-instruction `slot:`) as isa/vliw.yaml uses it: the
// spec loads and validates, the generated C++ tables and SystemVerilog package carry the bundle rules, and
// the outputs generated for `systolic`, which has no bundles, are byte for byte what they were before the
// extension.
#include <cstdint>
#include <string>

#include <fmt/format.h>
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "isa/common/disassembler.h"
#include "isa/tools/emitters.h"
#include "isa/tools/spec_loader.h"
#include "test_util.h"
#include "vliw_isa.h"

namespace kcraft::isa::test {
namespace {

using ::testing::AllOf;
using ::testing::HasSubstr;

const std::string kSystolicYaml = std::string(KCRAFT_SOURCE_DIR) + "/isa/systolic.yaml";
const std::string kVliwYaml = std::string(KCRAFT_SOURCE_DIR) + "/isa/vliw.yaml";

uint64_t fnv1a64(const std::string& text) {
  uint64_t hash = 0xcbf29ce484222325ull;
  for (unsigned char c : text) {
    hash ^= c;
    hash *= 0x100000001b3ull;
  }
  return hash;
}

// The generator's outputs for isa/systolic.yaml, recorded before the bundle extension (FNV-1a 64 of each
// file as `kcraft_isagen generate` wrote it). They hold for this revision of the YAML only: after an edit
// of isa/systolic.yaml the test skips, and whoever changes the generator's systolic output on purpose
// updates the digests (print them with the failure message below).
constexpr uint64_t kSystolicYamlDigest = 0x3aa7e5f3cfc5604aull;
constexpr uint64_t kSystolicMarkdownDigest = 0x297bcc4a5ee71a20ull;
constexpr uint64_t kSystolicHeaderDigest = 0xfc0d6cf9748b4c5bull;
constexpr uint64_t kSystolicPackageDigest = 0x5ce7e97c4a7fe833ull;
constexpr uint64_t kSystolicTablesDigest = 0x3c62dfb2b2e36a12ull;

TEST(VliwGenerator, SystolicOutputsAreByteIdenticalToBeforeBundles) {
  const std::string yaml = read_file(kSystolicYaml);
  if (fnv1a64(yaml) != kSystolicYamlDigest) {
    GTEST_SKIP() << "isa/systolic.yaml changed since the digests were recorded";
  }
  const auto loaded = gen::load_isa_spec(kSystolicYaml);
  ASSERT_TRUE(loaded.spec) << ::testing::PrintToString(loaded.errors);
  EXPECT_FALSE(loaded.spec->bundle.present());
  const std::string source = "isa/systolic.yaml";
  const std::string markdown = gen::emit_markdown(*loaded.spec, source);
  EXPECT_EQ(fnv1a64(markdown), kSystolicMarkdownDigest) << fmt::format("{:#x}", fnv1a64(markdown));
  const std::string header = gen::emit_cpp_header(*loaded.spec, source);
  EXPECT_EQ(fnv1a64(header), kSystolicHeaderDigest) << fmt::format("{:#x}", fnv1a64(header));
  const std::string package = gen::emit_sv_package(*loaded.spec, source);
  EXPECT_EQ(fnv1a64(package), kSystolicPackageDigest) << fmt::format("{:#x}", fnv1a64(package));
  const std::string tables = gen::emit_cpp_tables(*loaded.spec, source, markdown);
  EXPECT_EQ(fnv1a64(tables), kSystolicTablesDigest) << fmt::format("{:#x}", fnv1a64(tables));
}

TEST(VliwGenerator, TheSpecLoadsAndTheTablesRebuildIt) {
  const auto loaded = gen::load_isa_spec(kVliwYaml);
  ASSERT_TRUE(loaded.spec) << ::testing::PrintToString(loaded.errors);
  EXPECT_TRUE(*loaded.spec == vliw::spec());
  const BundleSpec& b = vliw::spec().bundle;
  ASSERT_TRUE(b.present());
  std::vector<std::string> slots;
  for (const SlotSpec& s : b.slots) slots.push_back(s.name + ":" + s.kind);
  EXPECT_THAT(slots, ::testing::ElementsAre("ls0:ls", "ls1:ls", "vec:vec", "scl:scl", "ctl:ctl"));
  EXPECT_EQ(b.end_field, (Field{31, 1}));
  EXPECT_THAT(b.exposed_classes, ::testing::ElementsAre("vreg", "areg"));
  for (const InstructionSpec& insn : vliw::spec().instructions) {
    EXPECT_NE(b.find_kind(insn.slot), nullptr) << insn.name;
    // The end-of-bundle flag is never reserved: a word with it set is as legal as without.
    EXPECT_EQ(insn.reserved_mask & 0x80000000u, 0u) << insn.name;
  }
}

TEST(VliwGenerator, HeaderConstantsFollowTheYaml) {
  using namespace vliw;
  EXPECT_EQ(kMaxBundleWords, 5u);
  EXPECT_EQ(slot_of(static_cast<uint8_t>(Op::L_VLD)), Slot::kLs);
  EXPECT_EQ(slot_of(static_cast<uint8_t>(Op::A_MMAC)), Slot::kVec);
  EXPECT_EQ(slot_of(static_cast<uint8_t>(Op::S_PADDI)), Slot::kScl);
  EXPECT_EQ(slot_of(static_cast<uint8_t>(Op::C_DMALD)), Slot::kCtl);
  for (const InstructionSpec& insn : spec().instructions) {
    EXPECT_EQ(std::to_string(latency_of(static_cast<uint8_t>(insn.opcode))), insn.latency) << insn.name;
  }
  const uint32_t nop = static_cast<uint32_t>(Op::C_NOP);
  EXPECT_TRUE(is_legal(nop));
  EXPECT_TRUE(is_legal(nop | 0x80000000u));
  EXPECT_FALSE(is_legal(nop | 0x40000000u));
  EXPECT_TRUE(is_end_of_bundle(nop | 0x80000000u));
  EXPECT_FALSE(is_end_of_bundle(nop));
}

// The real vliw YAML with `from` replaced by `to` (the first occurrence, which must exist).
std::string mutated(const std::string& from, const std::string& to) {
  std::string text = read_file(kVliwYaml);
  const size_t at = text.find(from);
  EXPECT_NE(at, std::string::npos) << from;
  if (at != std::string::npos) text.replace(at, from.size(), to);
  return text;
}

std::string single_error(const std::string& yaml) {
  const auto result = gen::load_isa_spec_text(yaml, "broken.yaml");
  EXPECT_FALSE(result.spec);
  EXPECT_EQ(result.errors.size(), 1u) << ::testing::PrintToString(result.errors);
  return result.errors.empty() ? "" : result.errors[0];
}

TEST(VliwGenerator, SlotRulesOfTheSchema) {
  EXPECT_THAT(single_error(mutated("    unit: vector\n    slot: vec\n", "    unit: vector\n")),
              AllOf(HasSubstr("instruction V_ADD"), HasSubstr("field 'slot'"), HasSubstr("missing")));
  EXPECT_THAT(single_error(mutated("    slot: vec\n    format: R\n", "    slot: vector\n    format: R\n")),
              AllOf(HasSubstr("instruction V_ADD"), HasSubstr("unknown slot kind 'vector'")));
  EXPECT_THAT(single_error(mutated("{name: ls1, kind: ls}", "{name: ls1, kind: load}")),
              AllOf(HasSubstr("bundle slots[1]"), HasSubstr("'load' is not one of the kinds")));
  EXPECT_THAT(single_error(mutated("end_bit: eob", "end_bit: opcode")),
              HasSubstr("field 'opcode' is 7 bits wide; the end-of-bundle flag is one bit"));
  EXPECT_THAT(single_error(mutated("N:   {fields: [opcode]", "N:   {fields: [opcode, eob]")),
              HasSubstr("format N uses field 'eob'"));
  // An ISA without bundles has no slots.
  std::string systolic = read_file(kSystolicYaml);
  systolic.replace(systolic.find("    unit: control\n"), 18, "    unit: control\n    slot: ctl\n");
  EXPECT_THAT(single_error(systolic), AllOf(HasSubstr("instruction C_NOP"),
                                            HasSubstr("only an ISA with a `bundle:` section has slots")));
}

TEST(VliwGenerator, LatenciesAreBundlesAndOnlyExposedResultsWait) {
  EXPECT_THAT(single_error(mutated("semantics: vd[i] = va[i] + vb[i].\n    latency: 2",
                                   "semantics: vd[i] = va[i] + vb[i].\n    latency: 6")),
              AllOf(HasSubstr("instruction V_ADD"), HasSubstr("'6' is not a number of bundles 1..5")));
  EXPECT_THAT(single_error(mutated("semantics: vd[i] = va[i] + vb[i].\n    latency: 2",
                                   "semantics: vd[i] = va[i] + vb[i].\n    latency: VLEN")),
              HasSubstr("'VLEN' is not a number of bundles"));
  EXPECT_THAT(single_error(mutated("semantics: rd = rs1 + rs2 (modulo 2^32).\n    latency: 1",
                                   "semantics: rd = rs1 + rs2 (modulo 2^32).\n    latency: 2")),
              AllOf(HasSubstr("instruction S_ADD"), HasSubstr("writes no register of an exposed class")));
}

TEST(VliwGenerator, PackageLintsCleanWhenImported) {
  ScratchDir scratch;
  std::string assigns;
  for (const InstructionSpec& insn : vliw::spec().instructions) {
    assigns += fmt::format("  assign lat_o[{0}] = 8'(latency_of(OP_{1})) + 8'(LATENCY_{1});\n", insn.opcode,
                           insn.name);
  }
  const std::string top = scratch.write(
      "lint_top.sv",
      "module lint_top\n  import vliw_isa_pkg::*;\n(\n"
      "  input  logic [31:0] insn_i,\n"
      "  output logic        legal_o,\n"
      "  output logic        eob_o,\n"
      "  output logic [SLOT_KIND_BITS-1:0] kind_o,\n"
      "  output logic [SLOT_KIND_BITS-1:0] pos_o [MAX_BUNDLE_WORDS],\n"
      "  output logic [7:0]  lat_o [128],\n"
      "  output logic [7:0]  misc_o\n"
      ");\n"
      "  assign legal_o = is_legal(insn_i);\n"
      "  assign eob_o = insn_i[EOB_BIT];\n"
      "  assign kind_o = slot_kind(opcode_field(insn_i));\n"
      "  assign pos_o[0] = SLOT_POS0_KIND;\n  assign pos_o[1] = SLOT_POS1_KIND;\n"
      "  assign pos_o[2] = SLOT_POS2_KIND;\n  assign pos_o[3] = SLOT_POS3_KIND;\n"
      "  assign pos_o[4] = SLOT_POS4_KIND;\n"
      "  assign misc_o = 8'(MAX_LATENCY) + 8'(NUM_SLOT_KINDS) + 8'(SLOT_LS) + 8'(SLOT_VEC) + 8'(SLOT_SCL) + "
      "8'(SLOT_CTL);\n" +
          assigns + "endmodule\n");
  const CommandResult r = run_command(
      fmt::format("{} --lint-only -Wall -Wno-UNUSEDPARAM -Wno-UNDRIVEN --top-module lint_top {} {}",
                  KCRAFT_VERILATOR, KCRAFT_VLIW_ISA_PKG, top));
  EXPECT_EQ(r.status, 0) << r.output;
}

}  // namespace
}  // namespace kcraft::isa::test
