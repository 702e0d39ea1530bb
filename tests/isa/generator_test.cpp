// kcraft_isagen: validation of broken ISA YAML (each error names the file, line, instruction and field),
// the verilator-args subcommand, and the generated files being what the generator produces.
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>

#include <fmt/format.h>
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "isa/tools/emitters.h"
#include "isa/tools/hwconfig.h"
#include "isa/tools/spec_loader.h"
#include "test_util.h"

namespace kcraft::isa::test {
namespace {

using ::testing::AllOf;
using ::testing::HasSubstr;
using ::testing::MatchesRegex;

const std::string kYamlPath = std::string(KCRAFT_SOURCE_DIR) + "/isa/systolic.yaml";

// The real YAML with `from` replaced by `to` (the first occurrence, which must exist).
std::string mutated(const std::string& from, const std::string& to) {
  std::string text = read_file(kYamlPath);
  const size_t at = text.find(from);
  EXPECT_NE(at, std::string::npos) << from;
  if (at != std::string::npos) text.replace(at, from.size(), to);
  return text;
}

std::vector<std::string> errors_for(const std::string& yaml) {
  const auto result = gen::load_isa_spec_text(yaml, "broken.yaml");
  EXPECT_FALSE(result.spec);
  return result.errors;
}

std::string single(const std::vector<std::string>& errors) {
  EXPECT_EQ(errors.size(), 1u) << ::testing::PrintToString(errors);
  return errors.empty() ? "" : errors[0];
}

TEST(Generator, TheRealSpecIsValid) {
  const auto result = gen::load_isa_spec(kYamlPath);
  EXPECT_TRUE(result.spec) << ::testing::PrintToString(result.errors);
}

TEST(Generator, DuplicateOpcode) {
  const std::string e = single(errors_for(mutated("opcode: 0x31", "opcode: 0x30")));
  EXPECT_THAT(e, MatchesRegex("broken\\.yaml:[0-9]+:[0-9]+: error: .*"));
  EXPECT_THAT(e, AllOf(HasSubstr("instruction V_SUB_VV"), HasSubstr("field 'opcode'"),
                       HasSubstr("duplicate opcode 0x30 (also used by V_ADD_VV)")));
}

TEST(Generator, OpcodeTooWideAndZero) {
  EXPECT_THAT(single(errors_for(mutated("opcode: 0x62", "opcode: 0x80"))),
              AllOf(HasSubstr("instruction H_STORE_V"), HasSubstr("field 'opcode'"),
                    HasSubstr("opcode 0x80 does not fit the 7-bit opcode field")));
  EXPECT_THAT(single(errors_for(mutated("opcode: 0x01", "opcode: 0x00"))),
              AllOf(HasSubstr("instruction C_NOP"), HasSubstr("opcode 0 is reserved")));
}

TEST(Generator, OperandFieldNotInFormat) {
  // S_ADD is format R (opcode, rd, rs1, rs2): fs is not one of its fields.
  const std::string e =
      single(errors_for(mutated("[{field: rd, kind: xreg, access: write}, {field: rs1, kind: xreg}, "
                                "{field: rs2, kind: xreg}]",
                                "[{field: rd, kind: xreg, access: write}, {field: rs1, kind: xreg}, "
                                "{field: fs, kind: xreg}]")));
  EXPECT_THAT(e, AllOf(HasSubstr("instruction S_ADD"), HasSubstr("field 'operands[2].field'"),
                       HasSubstr("'fs' is not an operand field of format R (its fields: rd, rs1, rs2)")));
}

TEST(Generator, OverlappingFieldsInAFormat) {
  const std::string e = single(errors_for(
      mutated("R:   {fields: [opcode, rd, rs1, rs2]", "R:   {fields: [opcode, rd, rs1, rs2, imm17]")));
  EXPECT_THAT(e, AllOf(HasSubstr("format R"), HasSubstr("field 'fields'"),
                       HasSubstr("field 'imm17' (bits 15..31) overlaps field 'rs2' (bits 15..18)")));
}

TEST(Generator, ImmediateRangeMustFitItsField) {
  const std::string e =
      single(errors_for(mutated("{field: imm17, kind: simm, name: imm, min: -65536, max: 65535}",
                                "{field: imm17, kind: simm, name: imm, min: -65536, max: 70000}")));
  EXPECT_THAT(
      e,
      AllOf(HasSubstr("instruction S_ADDI"), HasSubstr("field 'operands[2].max'"),
            HasSubstr("range -65536..70000 does not fit the 17-bit signed field 'imm17' (-65536..65535)")));
}

TEST(Generator, UnknownKindAndUnknownKey) {
  EXPECT_THAT(single(errors_for(mutated("kind: simm", "kind: ximm"))),
              AllOf(HasSubstr("instruction S_ADDI"), HasSubstr("field 'operands[2].kind'"),
                    HasSubstr("unknown kind 'ximm' (expected one of xreg, freg, uimm, simm, body)")));
  const auto errors = errors_for(mutated("    semantics: Does nothing", "    semantic: Does nothing"));
  ASSERT_EQ(errors.size(), 2u) << ::testing::PrintToString(errors);
  EXPECT_THAT(errors[0], AllOf(HasSubstr("instruction C_NOP"),
                               HasSubstr("unknown key 'semantic'; did you mean semantics?")));
  EXPECT_THAT(errors[1], AllOf(HasSubstr("instruction C_NOP"), HasSubstr("field 'semantics': missing")));
}

TEST(Generator, FieldOutsideTheWord) {
  EXPECT_THAT(single(errors_for(mutated("imm17:  {lsb: 15, width: 17}", "imm17:  {lsb: 15, width: 18}"))),
              AllOf(HasSubstr("field imm17"), HasSubstr("field 'width'"),
                    HasSubstr("bits 15..32 do not fit the 32-bit word")));
}

TEST(Generator, ExamplesMustAssembleInCanonicalForm) {
  EXPECT_THAT(
      single(errors_for(mutated("example: \"S_ORI r1, r1, 0x8000\"", "example: \"S_ORI r1, r1, 32768\""))),
      AllOf(HasSubstr("instruction S_ORI"), HasSubstr("field 'example'"),
            HasSubstr("not written the way the disassembler prints it: 'S_ORI r1, r1, 0x8000'")));
  EXPECT_THAT(single(errors_for(mutated("example: \"S_SUB r3, r1, r2\"", "example: \"S_SUB r3, r1\""))),
              AllOf(HasSubstr("instruction S_SUB"), HasSubstr("S_SUB expects 3 operands, got 2")));
}

TEST(Generator, LatencySymbolsMustBeParametersOrOperands) {
  EXPECT_THAT(single(errors_for(mutated("latency: MLEN + 2\n", "latency: MLENN + 2\n"))),
              AllOf(HasSubstr("instruction M_LDW"), HasSubstr("field 'latency'"),
                    HasSubstr("uses unknown symbol 'MLENN'; did you mean MLEN?")));
}

// `memory:` (the scheduling table's memory ranges): spaces are `memories:`, expressions use the operands
// and parameters, and each error points at the line of the range.
TEST(Generator, MemoryRangesNameMemoriesOperandsAndParameters) {
  const std::string wo = "reads: [{space: ACC, first: acc + off, rows: BLEN}]";  // M_WO's
  auto with = [&](const std::string& reads) { return mutated(wo, "reads: [" + reads + "]"); };
  auto line_of = [](const std::string& yaml, const std::string& text) {
    const size_t at = yaml.find(text);
    return at == std::string::npos ? -1 : std::count(yaml.begin(), yaml.begin() + at, '\n') + 1;
  };
  const std::string unknown_space = with("{space: ACCC, first: acc + off, rows: BLEN}");
  EXPECT_THAT(
      single(errors_for(unknown_space)),
      AllOf(MatchesRegex(
                fmt::format("broken\\.yaml:{}:[0-9]+: error: .*", line_of(unknown_space, "space: ACCC"))),
            HasSubstr("instruction M_WO: field 'memory.reads[0].space'"),
            HasSubstr("unknown memory 'ACCC'; did you mean ACC? (memories: DRAM, VSRAM, MSRAM, ACC,")));
  const std::string unknown_operand = with("{space: ACC, first: accc + off, rows: BLEN}");
  EXPECT_THAT(single(errors_for(unknown_operand)),
              AllOf(MatchesRegex(fmt::format("broken\\.yaml:{}:.*", line_of(unknown_operand, "first: accc"))),
                    HasSubstr("instruction M_WO: field 'memory.reads[0].first'"),
                    HasSubstr("'accc + off' uses unknown symbol 'accc'; did you mean acc?")));
  EXPECT_THAT(single(errors_for(with("{space: ACC, first: acc, rows: BLENN}"))),
              AllOf(HasSubstr("field 'memory.reads[0].rows'"), HasSubstr("did you mean BLEN?")));
  EXPECT_THAT(single(errors_for(with("{space: ACC, first: acc +, rows: BLEN}"))),
              AllOf(HasSubstr("field 'memory.reads[0].first'"), HasSubstr("is not a valid expression")));
  EXPECT_THAT(single(errors_for(with("{space: ACC, first: acc, busy: always}"))),
              AllOf(HasSubstr("field 'memory.reads[0].busy'"),
                    HasSubstr("'always' is not one of none, occupancy, latency")));
  const auto misspelt = errors_for(with("{space: ACC, frist: acc}"));
  ASSERT_EQ(misspelt.size(), 2u) << ::testing::PrintToString(misspelt);
  EXPECT_THAT(misspelt[0], HasSubstr("unknown key 'frist'; did you mean first?"));
  EXPECT_THAT(misspelt[1], AllOf(HasSubstr("field 'memory.reads[0].first'"), HasSubstr("missing")));
  EXPECT_THAT(
      single(errors_for(mutated(wo, "read: [{space: ACC, first: acc}]"))),
      AllOf(HasSubstr("instruction M_WO, memory"), HasSubstr("unknown key 'read'; did you mean reads?")));
  EXPECT_THAT(single(errors_for(mutated(wo, "reads: 3"))),
              AllOf(HasSubstr("field 'memory.reads'"), HasSubstr("expected a list")));
  EXPECT_THAT(single(errors_for(mutated("    memory:\n      reads: [{space: FPSRAM, first: rs1 + imm}]\n",
                                        "    memory: FPSRAM\n"))),
              AllOf(HasSubstr("instruction S_LD_FP: field 'memory'"), HasSubstr("expected a mapping")));
}

// The field is optional: an ISA without it (vliw's, or systolic's with every `memory:` taken out) loads, and
// its instructions state no memory.
TEST(Generator, MemoryRangesAreOptional) {
  const auto vliw = gen::load_isa_spec(std::string(KCRAFT_SOURCE_DIR) + "/isa/vliw.yaml");
  ASSERT_TRUE(vliw.spec) << ::testing::PrintToString(vliw.errors);
  EXPECT_FALSE(vliw.spec->describes_memory());
  std::string yaml = read_file(kYamlPath);
  size_t removed = 0;
  for (size_t at = yaml.find("\n    memory:"); at != std::string::npos; at = yaml.find("\n    memory:", at)) {
    size_t end = yaml.find('\n', at + 1);
    while (yaml.compare(end, 7, "\n      ") == 0) end = yaml.find('\n', end + 1);
    yaml.erase(at, end - at);
    ++removed;
  }
  EXPECT_GE(removed, 28u);
  const auto loaded = gen::load_isa_spec_text(yaml, "no_memory.yaml");
  ASSERT_TRUE(loaded.spec) << ::testing::PrintToString(loaded.errors);
  EXPECT_FALSE(loaded.spec->describes_memory());
  const auto real = gen::load_isa_spec(kYamlPath);
  ASSERT_TRUE(real.spec);
  EXPECT_TRUE(real.spec->describes_memory());
  const InstructionSpec* mm = real.spec->find_instruction("M_MM");
  ASSERT_NE(mm, nullptr);
  ASSERT_EQ(mm->memory_writes.size(), 1u);
  EXPECT_EQ(mm->memory_writes[0], (MemoryAccess{"ACC", "acc + off", "BLEN", "1", "1", MemoryBusy::kLatency}));
}

TEST(Generator, PseudoTemplatesAreChecked) {
  // The template fails for negative values, and so does the example that needs the long form.
  const auto errors = errors_for(mutated("\"S_ORI rd, rd, value & 0xFFFF\"", "\"S_ORI rd, rd, value\""));
  ASSERT_EQ(errors.size(), 2u) << ::testing::PrintToString(errors);
  EXPECT_THAT(errors[0], AllOf(HasSubstr("pseudo-instruction S_LI"), HasSubstr("field 'forms[1].lines'"),
                               HasSubstr("with operands (r1, (-1))"), HasSubstr("imm -1 is out of range")));
  EXPECT_THAT(errors[1], AllOf(HasSubstr("pseudo-instruction S_LI"), HasSubstr("field 'example'"),
                               HasSubstr("imm 100000 (0x186A0) is out of range")));
  EXPECT_THAT(single(errors_for(mutated("syntax: \"S_MV rd, rs\"", "syntax: \"S_MV rd, src\""))),
              AllOf(HasSubstr("pseudo-instruction S_MV"), HasSubstr("expected 'S_MV rd, rs'")));
}

TEST(Generator, DuplicateNameAndManyErrorsAtOnce) {
  std::string yaml = mutated("- name: S_SUB\n", "- name: S_ADD\n");
  const size_t at = yaml.find("opcode: 0x12");
  yaml.replace(at, 12, "opcode: 0x10");
  const auto errors = errors_for(yaml);
  ASSERT_EQ(errors.size(), 2u) << ::testing::PrintToString(errors);
  EXPECT_THAT(errors[0], HasSubstr("duplicate instruction S_ADD"));
  EXPECT_THAT(errors[1], AllOf(HasSubstr("instruction S_MUL"), HasSubstr("duplicate opcode 0x10")));
}

// ---------------------------------------------------------------- errors, counters, stall causes
TEST(Generator, TheRealSpecHasTheMachineConstants) {
  const auto result = gen::load_isa_spec(kYamlPath);
  ASSERT_TRUE(result.spec);
  EXPECT_EQ(result.spec->errors.bits, 4u);
  EXPECT_EQ(result.spec->errors.codes.size(), 11u);
  EXPECT_EQ(result.spec->counters.size(), 20u);
  for (size_t i = 0; i < result.spec->counters.size(); ++i) EXPECT_EQ(result.spec->counters[i].index, i);
  EXPECT_EQ(result.spec->stall_causes.codes.size(), 5u);
  // `symbol` defaults to the name in upper case.
  EXPECT_EQ(result.spec->counters[12].symbol, "MACS");
  EXPECT_EQ(result.spec->errors.codes[1].symbol, "ILLEGAL_INSN");
}

TEST(Generator, DuplicateErrorCode) {
  const std::string e = single(errors_for(
      mutated("      symbol: PC_RANGE\n      code: 2\n", "      symbol: PC_RANGE\n      code: 1\n")));
  EXPECT_THAT(e, MatchesRegex("broken\\.yaml:[0-9]+:[0-9]+: error: .*"));
  EXPECT_THAT(e, AllOf(HasSubstr("error pc_out_of_range"), HasSubstr("field 'code'"),
                       HasSubstr("duplicate code 1 (also used by illegal_instruction)")));
}

TEST(Generator, ErrorCodeMustFitItsBitsAndZeroMustExist) {
  EXPECT_THAT(single(errors_for(mutated("      code: 10\n", "      code: 16\n"))),
              AllOf(HasSubstr("error dram_out_of_range"), HasSubstr("field 'code'"),
                    HasSubstr("code 16 does not fit the 4-bit field (0..15)")));
  EXPECT_THAT(
      single(errors_for(mutated("    - name: none\n      code: 0\n", "    - name: none\n      code: 11\n"))),
      AllOf(HasSubstr("errors: field 'list'"),
            HasSubstr("there must be an error with code 0 (the value meaning nothing to report)")));
  EXPECT_THAT(single(errors_for(
                  mutated("  bits: 4   # width of an error code", "  bits: 0   # width of an error code"))),
              AllOf(HasSubstr("errors: field 'bits'"), HasSubstr("must be 1..16")));
}

TEST(Generator, ErrorNamesAndSymbols) {
  EXPECT_THAT(single(errors_for(mutated("name: dram_misaligned", "name: DramMisaligned"))),
              AllOf(HasSubstr("error DramMisaligned"), HasSubstr("field 'name'"),
                    HasSubstr("'DramMisaligned' must be lower_snake_case")));
  EXPECT_THAT(single(errors_for(mutated("symbol: PC_RANGE", "symbol: pc-range"))),
              AllOf(HasSubstr("error pc_out_of_range"), HasSubstr("field 'symbol'"),
                    HasSubstr("'pc-range' must be UPPER_SNAKE_CASE")));
  EXPECT_THAT(single(errors_for(mutated("symbol: PC_RANGE", "symbol: PC__RANGE"))),
              AllOf(HasSubstr("error pc_out_of_range"), HasSubstr("'PC__RANGE' must be UPPER_SNAKE_CASE")));
  EXPECT_THAT(single(errors_for(mutated("symbol: PC_RANGE", "symbol: ILLEGAL_INSN"))),
              AllOf(HasSubstr("error pc_out_of_range"), HasSubstr("field 'symbol'"),
                    HasSubstr("duplicate symbol 'ILLEGAL_INSN' (also used by illegal_instruction)")));
  EXPECT_THAT(single(errors_for(mutated("name: dram_misaligned", "name: dram_out_of_range"))),
              AllOf(HasSubstr("error dram_out_of_range"), HasSubstr("field 'name'"),
                    HasSubstr("duplicate name 'dram_out_of_range' (also used by dram_out_of_range)")));
  const auto errors = errors_for(mutated("      symbol: LOOP_NEST\n", "      symbl: LOOP_NEST\n"));
  ASSERT_EQ(errors.size(), 1u) << ::testing::PrintToString(errors);
  EXPECT_THAT(errors[0],
              AllOf(HasSubstr("error loop_nesting"), HasSubstr("unknown key 'symbl'; did you mean symbol?")));
}

TEST(Generator, CounterIndicesMustBeDense) {
  EXPECT_THAT(
      single(errors_for(mutated("      index: 19\n", "      index: 21\n"))),
      AllOf(HasSubstr("counter array_active"), HasSubstr("field 'index'"),
            HasSubstr("index 21 is outside 0..19 (indices are dense: one per counter); no counter has "
                      "index 19")));
  EXPECT_THAT(single(errors_for(mutated("      index: 5\n", "      index: 4\n"))),
              AllOf(HasSubstr("counter sfu_busy"), HasSubstr("field 'index'"),
                    HasSubstr("duplicate index 4 (also used by stall_unit_busy); no counter has index 5")));
}

TEST(Generator, CounterFields) {
  EXPECT_THAT(single(errors_for(mutated("- name: macs\n", "- name: dram_bytes_written\n"))),
              AllOf(HasSubstr("counter dram_bytes_written"), HasSubstr("field 'name'"),
                    HasSubstr("duplicate name 'dram_bytes_written' (also used by dram_bytes_written)")));
  EXPECT_THAT(single(errors_for(mutated("      architectural: true\n", "      architectural: yes\n"))),
              AllOf(HasSubstr("counter instructions"), HasSubstr("field 'architectural'"),
                    HasSubstr("expected true or false, got 'yes'")));
  EXPECT_THAT(single(errors_for(mutated("      architectural: true\n", ""))),
              AllOf(HasSubstr("counter instructions"), HasSubstr("field 'architectural': missing")));
  EXPECT_THAT(
      single(errors_for(mutated("- name: macs\n", "- name: macs\n      symbol: NUM_COUNTERS\n"))),
      AllOf(HasSubstr("counter macs"), HasSubstr("NUM_COUNTERS is the generated number of counters")));
}

TEST(Generator, StallCausesReferToCounters) {
  EXPECT_THAT(single(errors_for(mutated("counter: stall_drain", "counter: stall_drian"))),
              AllOf(HasSubstr("stall cause drain"), HasSubstr("field 'counter'"),
                    HasSubstr("'stall_drian' is not a counter; did you mean stall_drain?")));
  // Only stall causes have a counter.
  EXPECT_THAT(single(errors_for(
                  mutated("      symbol: PC_RANGE\n", "      symbol: PC_RANGE\n      counter: cycles\n"))),
              AllOf(HasSubstr("error pc_out_of_range"), HasSubstr("unknown key 'counter'")));
}

TEST(Generator, YamlSyntaxErrorHasALine) {
  EXPECT_THAT(single(errors_for("isa: systolic\nfields: {opcode: {lsb: 0, width: 7}\n")),
              MatchesRegex("broken\\.yaml:[0-9]+:[0-9]+: error: YAML syntax: .*"));
}

// Found by fuzzing (tests/fuzz/regressions/isa_spec_yaml): a missing section made yaml-cpp throw
// InvalidNode out of the loader (kcraft_isagen died with "terminate called") instead of reporting it.
TEST(Generator, MissingSectionsAreReportedNotThrown) {
  std::vector<std::string> errors;
  ASSERT_NO_THROW(errors = errors_for("isa: x\n"));
  EXPECT_THAT(errors,
              ::testing::Contains(HasSubstr("field 'registers': expected a list of register classes")));
  EXPECT_THAT(errors, ::testing::Contains(HasSubstr("field 'instructions'")));
  for (const char* yaml :
       {":", "- a\n", "isa: x\nregisters: [{class: xreg}]\nfields: []\n", "pseudo: [{}]"}) {
    EXPECT_NO_THROW(EXPECT_FALSE(errors_for(yaml).empty())) << yaml;
  }
}

TEST(Generator, ExecutableReportsErrorsAndFails) {
  ScratchDir scratch;
  const std::string broken = scratch.write("systolic.yaml", mutated("opcode: 0x31", "opcode: 0x30"));
  const CommandResult check = run_command(std::string(KCRAFT_ISAGEN) + " check " + broken);
  EXPECT_EQ(check.status, 2);
  EXPECT_THAT(check.output, AllOf(HasSubstr(broken + ":"), HasSubstr("duplicate opcode 0x30")));
  const CommandResult generate =
      run_command(std::string(KCRAFT_ISAGEN) + " generate " + broken + " " + (scratch.dir / "out").string());
  EXPECT_EQ(generate.status, 2);
  EXPECT_FALSE(std::filesystem::exists(scratch.dir / "out" / "systolic_isa.h"));
}

TEST(Generator, BuildTreeOutputsAreWhatTheGeneratorProduces) {
  ScratchDir scratch;
  const CommandResult generate = run_command(std::string(KCRAFT_ISAGEN) + " generate " + kYamlPath + " " +
                                             scratch.dir.string() + " --source-name isa/systolic.yaml");
  ASSERT_EQ(generate.status, 0) << generate.output;
  const std::string built = std::filesystem::path(KCRAFT_SYSTOLIC_ISA_PKG).parent_path().string();
  for (const char* name :
       {"systolic_isa.h", "systolic_isa_tables.cpp", "systolic_isa_pkg.sv", "systolic.md"}) {
    SCOPED_TRACE(name);
    const std::string fresh = read_file((scratch.dir / name).string());
    EXPECT_FALSE(fresh.empty());
    EXPECT_EQ(fresh, read_file(built + "/" + name));
  }
  EXPECT_THAT(read_file((scratch.dir / "systolic_isa_pkg.sv").string()),
              HasSubstr("// Generated from isa/systolic.yaml by kcraft_isagen. Do not edit."));
}

TEST(VerilatorArgs, OneParameterLinePerBuildEntry) {
  ScratchDir scratch;
  const std::string config =
      scratch.write("default.yaml",
                    "platform: systolic\n"
                    "name: default\n"
                    "description: the default configuration\n"
                    "build: {MLEN: 16, VLEN: 16, BLEN: 4, IMEM_WORDS: 8192, LOOP_DEPTH: 0x4}\n"
                    "runtime: {clock_mhz: 1000, dram_latency_cycles: 40}\n");
  const auto args = gen::verilator_args_from_hwconfig(config);
  EXPECT_TRUE(args.errors.empty());
  EXPECT_EQ(args.text, "-GMLEN=16\n-GVLEN=16\n-GBLEN=4\n-GIMEM_WORDS=8192\n-GLOOP_DEPTH=4\n");
  const std::string out = (scratch.dir / "default.vc").string();
  const CommandResult r = run_command(std::string(KCRAFT_ISAGEN) + " verilator-args " + config + " " + out);
  EXPECT_EQ(r.status, 0) << r.output;
  EXPECT_EQ(read_file(out), args.text);
}

TEST(VerilatorArgs, NonIntegerValuesAreRejectedWithTheirLocation) {
  ScratchDir scratch;
  const std::string config = scratch.write("bad.yaml",
                                           "platform: systolic\n"
                                           "build:\n"
                                           "  MLEN: 16.5\n"
                                           "  VLEN: sixteen\n"
                                           "  BLEN: [4]\n");
  const auto args = gen::verilator_args_from_hwconfig(config);
  ASSERT_EQ(args.errors.size(), 3u);
  EXPECT_EQ(args.errors[0], config + ":3:9: error: field 'build.MLEN': expected an integer, got '16.5'");
  EXPECT_EQ(args.errors[1], config + ":4:9: error: field 'build.VLEN': expected an integer, got 'sixteen'");
  EXPECT_THAT(args.errors[2], HasSubstr("field 'build.BLEN': expected an integer, got 'a collection'"));
  EXPECT_TRUE(args.text.empty());
  const CommandResult r = run_command(std::string(KCRAFT_ISAGEN) + " verilator-args " + config + " " +
                                      (scratch.dir / "o.vc").string());
  EXPECT_EQ(r.status, 2);
  EXPECT_THAT(r.output, HasSubstr("build.MLEN"));
  const auto missing = gen::verilator_args_from_hwconfig(scratch.write("none.yaml", "platform: systolic\n"));
  ASSERT_EQ(missing.errors.size(), 1u);
  EXPECT_THAT(missing.errors[0], HasSubstr("field 'build': missing"));
}

}  // namespace
}  // namespace kcraft::isa::test
