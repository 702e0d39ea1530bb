// The generated SystemVerilog package: it lints clean under `verilator --lint-only -Wall` when imported by
// a small module, and its is_legal() and field accessors agree with the C++ tables on thousands of words
// (simulated with `verilator --binary`).
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <random>
#include <regex>

#include <fmt/format.h>
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "systolic_isa.h"
#include "test_util.h"

namespace kcraft::isa::test {
namespace {

using ::testing::HasSubstr;

TEST(SvPackage, HasTheDocumentedNames) {
  const std::string sv = read_file(KCRAFT_SYSTOLIC_ISA_PKG);
  EXPECT_THAT(sv, HasSubstr("// Generated from isa/systolic.yaml by kcraft_isagen. Do not edit."));
  EXPECT_THAT(sv, HasSubstr("package systolic_isa_pkg;"));
  for (const char* name : {"OPCODE", "RD", "RS1", "RS2", "FS", "OFF9", "IMM17", "IMM16", "IMM13", "CNT12"}) {
    EXPECT_THAT(sv, HasSubstr(fmt::format("localparam int unsigned {}_LSB", name)));
    EXPECT_THAT(sv, HasSubstr(fmt::format("localparam int unsigned {}_WIDTH", name)));
  }
  EXPECT_THAT(sv, HasSubstr("localparam logic [6:0] OP_C_NOP      = 7'h01;"));
  EXPECT_THAT(sv, HasSubstr("localparam logic [6:0] OP_V_ADD_VV   = 7'h30;"));
  EXPECT_THAT(sv, HasSubstr("localparam logic [6:0] OP_H_STORE_V  = 7'h62;"));
  EXPECT_THAT(sv, HasSubstr("function automatic logic is_legal(input logic [31:0] insn);"));
}

// NAME -> value of every `localparam ... NAME = <value>;` with a decimal value (4'd10 or 10).
std::map<std::string, unsigned> localparams(const std::string& sv) {
  std::map<std::string, unsigned> out;
  const std::regex line(R"(localparam [^=]*\b([A-Z0-9_]+) += (?:[0-9]+'d)?([0-9]+);)");
  for (auto it = std::sregex_iterator(sv.begin(), sv.end(), line); it != std::sregex_iterator(); ++it) {
    out[(*it)[1]] = static_cast<unsigned>(std::stoul((*it)[2]));
  }
  return out;
}

TEST(SvPackage, HasTheMachineConstantsOfTheYaml) {
  namespace sy = kcraft::isa::systolic;
  const std::string sv = read_file(KCRAFT_SYSTOLIC_ISA_PKG);
  // The names and values the RTL used before they moved into the YAML, checked by hand.
  EXPECT_THAT(sv, HasSubstr("localparam logic [3:0] ERR_NONE          = 4'd0;"));
  EXPECT_THAT(sv, HasSubstr("localparam logic [3:0] ERR_ILLEGAL_INSN  = 4'd1;"));
  EXPECT_THAT(sv, HasSubstr("localparam logic [3:0] ERR_DRAM_RANGE    = 4'd10;"));
  EXPECT_THAT(sv, HasSubstr("localparam int unsigned CNT_CYCLES             = 0;"));
  EXPECT_THAT(sv, HasSubstr("localparam int unsigned CNT_ARRAY_ACTIVE       = 19;"));
  EXPECT_THAT(sv, HasSubstr("localparam int unsigned NUM_COUNTERS           = 20;"));
  EXPECT_THAT(sv, HasSubstr("localparam logic [3:0] STALL_DRAIN      = 4'd4;"));
  // Every entry of the YAML, with the C++ enumerator's value.
  const std::map<std::string, unsigned> params = localparams(sv);
  ASSERT_EQ(sys().errors.codes.size(), sy::kErrors.size());
  for (const sy::ErrorInfo& e : sy::kErrors) {
    const MachineCode& c = sys().errors.codes.at(static_cast<size_t>(&e - sy::kErrors.data()));
    EXPECT_EQ(params.at("ERR_" + c.symbol), static_cast<unsigned>(e.code)) << c.name;
    EXPECT_EQ(c.name, e.name);
  }
  for (const CounterSpec& c : sys().counters) {
    EXPECT_EQ(params.at("CNT_" + c.symbol), static_cast<unsigned>(sy::kCounters.at(c.index).counter))
        << c.name;
    EXPECT_EQ(c.name, sy::kCounters.at(c.index).name);
  }
  EXPECT_EQ(params.at("NUM_COUNTERS"), static_cast<unsigned>(sy::kNumCounters));
  ASSERT_EQ(sys().stall_causes.codes.size(), sy::kStallCauses.size());
  for (const sy::StallCauseInfo& s : sy::kStallCauses) {
    const MachineCode& c = sys().stall_causes.codes.at(static_cast<size_t>(&s - sy::kStallCauses.data()));
    EXPECT_EQ(params.at("STALL_" + c.symbol), static_cast<unsigned>(s.code)) << c.name;
  }
}

TEST(SvPackage, LintsCleanWhenImported) {
  // The module uses every constant: -Wall reports package parameters nobody uses.
  std::string ports, assigns;
  for (const MachineCode& c : sys().errors.codes) {
    ports += fmt::format("  output logic [3:0]  err_{}_o,\n", c.name);
    assigns += fmt::format("  assign err_{}_o = ERR_{};\n", c.name, c.symbol);
  }
  for (const MachineCode& c : sys().stall_causes.codes) {
    ports += fmt::format("  output logic [3:0]  stall_{}_o,\n", c.name);
    assigns += fmt::format("  assign stall_{}_o = STALL_{};\n", c.name, c.symbol);
  }
  ports += "  output logic [31:0] counter_index_o [NUM_COUNTERS],\n";
  for (const CounterSpec& c : sys().counters) {
    assigns += fmt::format("  assign counter_index_o[CNT_{}] = 32'(CNT_{});\n", c.symbol, c.symbol);
  }
  ScratchDir scratch;
  const std::string top = scratch.write("lint_top.sv",
                                        "module lint_top\n"
                                        "  import systolic_isa_pkg::*;\n"
                                        "(\n" +
                                            ports +
                                            "  input  logic [31:0] insn_i,\n"
                                            "  output logic        legal_o,\n"
                                            "  output logic        halt_o,\n"
                                            "  output logic [3:0]  rd_o\n"
                                            ");\n"
                                            "  assign legal_o = is_legal(insn_i);\n"
                                            "  assign halt_o  = opcode_field(insn_i) == OP_C_HALT;\n"
                                            "  assign rd_o    = rd_field(insn_i);\n" +
                                            assigns + "endmodule\n");
  const CommandResult r = run_command(fmt::format("{} --lint-only -Wall --top-module lint_top {} {}",
                                                  KCRAFT_VERILATOR, KCRAFT_SYSTOLIC_ISA_PKG, top));
  EXPECT_EQ(r.status, 0) << r.output;
  EXPECT_EQ(r.output, "");
}

TEST(SvPackage, AgreesWithTheCppTablesInSimulation) {
  namespace sy = kcraft::isa::systolic;
  const auto& fields = sys().fields;
  // Each vector: the expected field values (in spec order, first field highest), legality, then the word.
  unsigned total_bits = 33;
  for (const NamedField& f : fields) total_bits += f.field.width;
  std::vector<uint32_t> words;
  for (uint32_t opcode = 0; opcode < 128; ++opcode) {
    words.push_back(opcode);
    for (unsigned bit = 7; bit < 32; ++bit) words.push_back(opcode | 1u << bit);
  }
  std::mt19937 rng(99);
  for (int i = 0; i < 4000; ++i) {
    uint32_t w = rng();
    if (i % 2 == 0) {  // a known opcode with random operands and only a few stray bits
      const InstructionSpec& insn = sys().instructions[rng() % sys().instructions.size()];
      w = insert(w & ~insn.reserved_mask, sys().opcode_field, insn.opcode);
      if (i % 4 == 0) w |= insn.reserved_mask & (1u << (rng() % 32));
    }
    words.push_back(w);
  }
  std::string hex;
  size_t legal_count = 0;
  for (uint32_t w : words) {
    // Build the vector as a big binary string, then print it in hex.
    std::string bits;
    for (const NamedField& f : fields) {
      const uint32_t v = extract(w, f.field);
      for (int b = static_cast<int>(f.field.width) - 1; b >= 0; --b) bits += (v >> b & 1u) ? '1' : '0';
    }
    bits += sy::is_legal(w) ? '1' : '0';
    legal_count += sy::is_legal(w);
    for (int b = 31; b >= 0; --b) bits += (w >> b & 1u) ? '1' : '0';
    bits.insert(0, (4 - bits.size() % 4) % 4, '0');
    std::string line;
    for (size_t i = 0; i < bits.size(); i += 4)
      line += "0123456789ABCDEF"[std::stoi(bits.substr(i, 4), nullptr, 2)];
    hex += line + "\n";
  }
  ASSERT_GT(legal_count, words.size() / 5);  // both outcomes are well represented
  ASSERT_LT(legal_count, words.size() * 4 / 5);

  ScratchDir scratch;
  const std::string vectors = scratch.write("vectors.hex", hex);
  std::string checks;
  unsigned lsb = 33;
  for (auto it = fields.rbegin(); it != fields.rend(); ++it) {
    checks += fmt::format(
        "      if ({0}_field(word) !== vec[{1}:{2}]) begin\n"
        "        if (errors < 10) $display(\"{0}_field wrong for %h\", word);\n"
        "        errors++;\n"
        "      end\n",
        it->name, lsb + it->field.width - 1, lsb);
    lsb += it->field.width;
  }
  const std::string tb = scratch.write(
      "tb.sv", fmt::format("module tb;\n"
                           "  import systolic_isa_pkg::*;\n"
                           "  localparam int N = {0};\n"
                           "  logic [{1}:0] vectors [N];\n"
                           "  initial begin\n"
                           "    int errors = 0;\n"
                           "    logic [{1}:0] vec;\n"
                           "    logic [31:0] word;\n"
                           "    $readmemh(\"{2}\", vectors);\n"
                           "    for (int i = 0; i < N; i++) begin\n"
                           "      vec = vectors[i];\n"
                           "      word = vec[31:0];\n"
                           "      if (is_legal(word) !== vec[32]) begin\n"
                           "        if (errors < 10) $display(\"is_legal wrong for %h\", word);\n"
                           "        errors++;\n"
                           "      end\n"
                           "{3}"
                           "    end\n"
                           "    $display(\"checked %0d words, %0d mismatches\", N, errors);\n"
                           "    $finish;\n"
                           "  end\n"
                           "endmodule\n",
                           words.size(), total_bits - 1, vectors, checks));
  const std::string mdir = (scratch.dir / "obj").string();
  const CommandResult build = run_command(fmt::format("{} --binary -j 2 --top-module tb -Mdir {} {} {}",
                                                      KCRAFT_VERILATOR, mdir, KCRAFT_SYSTOLIC_ISA_PKG, tb));
  ASSERT_EQ(build.status, 0) << build.output;
  const CommandResult sim = run_command(mdir + "/Vtb");
  EXPECT_EQ(sim.status, 0) << sim.output;
  EXPECT_THAT(sim.output, HasSubstr(fmt::format("checked {} words, 0 mismatches", words.size())));
}

}  // namespace
}  // namespace kcraft::isa::test
