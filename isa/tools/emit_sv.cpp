// SystemVerilog output: <isa>_isa_pkg.sv with field positions, opcodes, reserved-bit masks and is_legal().
#include <algorithm>
#include <cctype>

#include <fmt/format.h>

#include "isa/tools/emitters.h"

namespace kcraft::isa::gen {

std::string sv_name(const std::string& name) {
  return to_upper(name);
}

namespace {

size_t longest_symbol(const std::vector<MachineCode>& codes, const std::string& prefix) {
  size_t width = 0;
  for (const MachineCode& c : codes) width = std::max(width, prefix.size() + c.symbol.size());
  return width;
}

std::string code_params(const MachineCodeSet& set, const std::string& prefix) {
  std::string out;
  const size_t width = longest_symbol(set.codes, prefix);
  size_t value_width = 0;
  for (const MachineCode& c : set.codes)
    value_width = std::max(value_width, fmt::format("{}'d{};", set.bits, c.code).size());
  for (const MachineCode& c : set.codes) {
    out += fmt::format("  localparam logic [{}:0] {:<{}} = {:<{}}  // {}\n", set.bits - 1, prefix + c.symbol,
                       width, fmt::format("{}'d{};", set.bits, c.code), value_width, c.name);
  }
  return out;
}

// Error codes, counter indices and stall causes: the same values as the C++ enums.
std::string sv_machine_constants(const IsaSpec& spec) {
  std::string out;
  if (!spec.errors.codes.empty()) {
    out += "\n  // Error codes: why a program stopped with an error (C++ ErrorCode).\n";
    out += code_params(spec.errors, "ERR_");
  }
  if (!spec.counters.empty()) {
    out += "\n  // Performance counters: the index of each counter (C++ Counter).\n";
    size_t width = std::string("NUM_COUNTERS").size();
    for (const CounterSpec& c : spec.counters) width = std::max(width, 4 + c.symbol.size());
    for (const CounterSpec& c : spec.counters) {
      out += fmt::format("  localparam int unsigned {:<{}} = {};{}\n", "CNT_" + c.symbol, width, c.index,
                         c.architectural ? "  // architectural" : "");
    }
    out +=
        fmt::format("  localparam int unsigned {:<{}} = {};\n", "NUM_COUNTERS", width, spec.counters.size());
  }
  if (!spec.stall_causes.codes.empty()) {
    out += "\n  // Why the issue stage waits (C++ StallCause).\n";
    out += code_params(spec.stall_causes, "STALL_");
  }
  return out;
}

// VLIW ISAs: the end-of-bundle flag, slot kinds and per-opcode latencies (nothing for other ISAs).
std::string sv_bundle_constants(const IsaSpec& spec) {
  const BundleSpec& b = spec.bundle;
  if (!b.present()) return "";
  const unsigned opcode_width = spec.opcode_field.width;
  std::string out = fmt::format(
      "\n  // Bundles: up to MAX_BUNDLE_WORDS words in slot order, the last with insn[EOB_BIT] set.\n"
      "  localparam int unsigned EOB_BIT          = {};\n"
      "  localparam int unsigned MAX_BUNDLE_WORDS = {};\n"
      "  localparam int unsigned MAX_LATENCY      = {};\n"
      "  localparam int unsigned NUM_SLOT_KINDS   = {};\n",
      b.end_field.lsb, b.slots.size(), b.max_latency, b.kinds.size());
  unsigned kind_bits = 1;
  while ((size_t{1} << kind_bits) < b.kinds.size()) ++kind_bits;
  out += fmt::format("  localparam int unsigned SLOT_KIND_BITS   = {};\n", kind_bits);
  for (size_t k = 0; k < b.kinds.size(); ++k) {
    out += fmt::format("  localparam logic [SLOT_KIND_BITS-1:0] SLOT_{} = {}'d{};  // {}\n",
                       sv_name(b.kinds[k].name), kind_bits, k, b.kinds[k].noun);
  }
  out += "  // The kind of each slot position, in word order.\n";
  for (size_t i = 0; i < b.slots.size(); ++i) {
    out += fmt::format("  localparam logic [SLOT_KIND_BITS-1:0] SLOT_POS{}_KIND = SLOT_{};  // {}\n", i,
                       sv_name(b.slots[i].kind), b.slots[i].name);
  }
  size_t insn_width = 0;
  for (const InstructionSpec& insn : spec.instructions) insn_width = std::max(insn_width, insn.name.size());
  out += "\n  // Bundles after issue at which each instruction's result is visible.\n";
  for (const InstructionSpec& insn : spec.instructions) {
    out += fmt::format("  localparam int unsigned {:<{}} = {};\n", "LATENCY_" + sv_name(insn.name),
                       insn_width + 8, insn.latency);
  }
  out += fmt::format(
      "\n  function automatic logic [SLOT_KIND_BITS-1:0] slot_kind(input logic [{}:0] opcode);\n"
      "    logic [SLOT_KIND_BITS-1:0] kind;\n"
      "    case (opcode)\n",
      opcode_width - 1);
  for (const InstructionSpec& insn : spec.instructions) {
    out += fmt::format("      {:<{}}: kind = SLOT_{};\n", "OP_" + sv_name(insn.name), insn_width + 3,
                       sv_name(insn.slot));
  }
  out += fmt::format("      {:<{}}: kind = '0;\n    endcase\n    slot_kind = kind;\n  endfunction\n",
                     "default", insn_width + 3);
  out += fmt::format(
      "\n  function automatic int unsigned latency_of(input logic [{}:0] opcode);\n"
      "    int unsigned latency;\n"
      "    case (opcode)\n",
      opcode_width - 1);
  for (const InstructionSpec& insn : spec.instructions) {
    out += fmt::format("      {:<{}}: latency = {};\n", "OP_" + sv_name(insn.name), insn_width + 3,
                       "LATENCY_" + sv_name(insn.name));
  }
  out += fmt::format("      {:<{}}: latency = 0;\n    endcase\n    latency_of = latency;\n  endfunction\n",
                     "default", insn_width + 3);
  return out;
}

}  // namespace

std::string emit_sv_package(const IsaSpec& spec, const std::string& source_name) {
  const std::string package = spec.name + "_isa_pkg";
  const unsigned opcode_width = spec.opcode_field.width;
  const unsigned word_bits = spec.word_bits;
  std::string out = fmt::format(
      "// Generated from {0} by kcraft_isagen. Do not edit.\n"
      "//\n"
      "// The {1} ISA for the RTL: instruction field positions, opcodes, reserved-bit masks, the legality\n"
      "// check, error codes, performance counters and stall causes. The C++ tools are generated from the\n"
      "// same YAML, so the two cannot drift.\n"
      "package {2};\n\n"
      "  // Instruction word fields: insn[<NAME>_LSB +: <NAME>_WIDTH].\n",
      source_name, spec.name, package);
  size_t name_width = 0;
  for (const NamedField& f : spec.fields) name_width = std::max(name_width, f.name.size());
  for (const NamedField& f : spec.fields) {
    out += fmt::format("  localparam int unsigned {:<{}} = {};\n", sv_name(f.name) + "_LSB", name_width + 6,
                       f.field.lsb);
    out += fmt::format("  localparam int unsigned {:<{}} = {};\n", sv_name(f.name) + "_WIDTH", name_width + 6,
                       f.field.width);
  }
  size_t insn_width = 0;
  for (const InstructionSpec& insn : spec.instructions) insn_width = std::max(insn_width, insn.name.size());
  out += "\n  // Opcodes (insn[OPCODE_LSB +: OPCODE_WIDTH]).\n";
  for (const InstructionSpec& insn : spec.instructions) {
    out += fmt::format("  localparam logic [{}:0] {:<{}} = {}'h{:02X};  // {}, format {}\n", opcode_width - 1,
                       "OP_" + sv_name(insn.name), insn_width + 3, opcode_width, insn.opcode, insn.unit,
                       insn.format);
  }
  out +=
      "\n  // Per opcode, the bits that must be zero: all bits outside the opcode and the instruction's "
      "operand\n"
      "  // fields.\n";
  for (const InstructionSpec& insn : spec.instructions) {
    out += fmt::format("  localparam logic [{}:0] {:<{}} = {}'h{:08X};\n", word_bits - 1,
                       "RESERVED_" + sv_name(insn.name), insn_width + 9, word_bits, insn.reserved_mask);
  }
  out += fmt::format(
      "\n  // A word is legal when its opcode is known and all its reserved bits are zero (the same rule as\n"
      "  // kcraft::isa::{0}::is_legal).\n"
      "  function automatic logic is_legal(input logic [{1}:0] insn);\n"
      "    logic legal;\n"
      "    case (insn[OPCODE_LSB +: OPCODE_WIDTH])\n",
      spec.name, word_bits - 1);
  for (const InstructionSpec& insn : spec.instructions) {
    out += fmt::format("      {:<{}}: legal = (insn & {}) == '0;\n", "OP_" + sv_name(insn.name),
                       insn_width + 3, "RESERVED_" + sv_name(insn.name));
  }
  out += fmt::format("      {:<{}}: legal = 1'b0;\n", "default", insn_width + 3);
  // Results are assigned to the function name: yosys 0.23 does not parse `return`.
  out += "    endcase\n    is_legal = legal;\n  endfunction\n\n";
  // Optional instructions: per enabling hardware parameter P, needs_<p>(opcode) says whether the opcode is
  // one of P's instructions, which hardware built with P = 0 treats as illegal.
  std::vector<std::string> enablers;
  for (const InstructionSpec& insn : spec.instructions) {
    if (!insn.enabled_by.empty() &&
        std::find(enablers.begin(), enablers.end(), insn.enabled_by) == enablers.end()) {
      enablers.push_back(insn.enabled_by);
    }
  }
  for (const std::string& p : enablers) {
    std::string lower = p;
    std::transform(lower.begin(), lower.end(), lower.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    out += fmt::format(
        "  // The instructions that exist only in hardware built with the parameter {0} != 0 (illegal "
        "otherwise).\n"
        "  function automatic logic needs_{1}(input logic [{2}:0] opcode);\n"
        "    logic needs;\n"
        "    case (opcode)\n",
        p, lower, opcode_width - 1);
    for (const InstructionSpec& insn : spec.instructions) {
      if (insn.enabled_by == p) {
        out += fmt::format("      {:<{}}: needs = 1'b1;\n", "OP_" + sv_name(insn.name), insn_width + 3);
      }
    }
    out += fmt::format("      {:<{}}: needs = 1'b0;\n", "default", insn_width + 3);
    out += fmt::format("    endcase\n    needs_{} = needs;\n  endfunction\n\n", lower);
  }
  out += "  // Field accessors: <field>_field(insn) is the field's raw (unsigned) value.\n";
  for (const NamedField& f : spec.fields) {
    const std::string upper = sv_name(f.name);
    out += fmt::format(
        "  function automatic logic [{0}_WIDTH-1:0] {1}_field(input logic [{2}:0] insn);\n"
        "    {1}_field = {0}_WIDTH'(insn >> {0}_LSB);\n"
        "  endfunction\n",
        upper, f.name, word_bits - 1);
  }
  out += sv_bundle_constants(spec);
  out += sv_machine_constants(spec);
  out += "\nendpackage\n";
  return out;
}

}  // namespace kcraft::isa::gen
