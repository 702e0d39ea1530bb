// C++ outputs: <isa>_isa.h (opcodes, fields, legality, constexpr) and <isa>_isa_tables.cpp (the IsaSpec
// and the Markdown reference).
#include <cctype>
#include <cstdint>
#include <stdexcept>

#include <fmt/format.h>

#include "isa/tools/emitters.h"

namespace kcraft::isa::gen {
namespace {

// A C++ string literal for arbitrary text.
std::string quote(const std::string& text) {
  std::string out = "\"";
  for (char c : text) {
    switch (c) {
      case '"':
        out += "\\\"";
        break;
      case '\\':
        out += "\\\\";
        break;
      case '\n':
        out += "\\n";
        break;
      case '\t':
        out += "\\t";
        break;
      default:
        if (static_cast<unsigned char>(c) < 0x20) {
          out += fmt::format("\\{:03o}", static_cast<unsigned char>(c));
        } else {
          out += c;
        }
    }
  }
  return out + "\"";
}

std::string_view kind_enum(OperandKind kind) {
  switch (kind) {
    case OperandKind::kRegister:
      return "OperandKind::kRegister";
    case OperandKind::kUimm:
      return "OperandKind::kUimm";
    case OperandKind::kSimm:
      return "OperandKind::kSimm";
    case OperandKind::kBody:
      return "OperandKind::kBody";
    case OperandKind::kInt32:
      return "OperandKind::kInt32";
    case OperandKind::kFp32:
      return "OperandKind::kFp32";
  }
  return "";
}

std::string_view access_enum(Access access) {
  switch (access) {
    case Access::kRead:
      return "Access::kRead";
    case Access::kWrite:
      return "Access::kWrite";
    case Access::kReadWrite:
      return "Access::kReadWrite";
  }
  return "";
}

std::string int64_literal(int64_t v) {
  // INT64_MIN has no literal; nothing in an ISA needs it, but stay correct.
  if (v == INT64_MIN) return "INT64_MIN";
  return fmt::format("int64_t{{{}}}", v);
}

std::string operand_code(const OperandSpec& op) {
  return fmt::format(
      "operand({}, {}, Field{{{}, {}}}, {}, {}, {}, {}, {}, {}, {})", quote(op.name), quote(op.field_name),
      op.field.lsb, op.field.width, kind_enum(op.kind), op.register_class, int64_literal(op.min),
      int64_literal(op.max),
      op.default_value ? fmt::format("std::optional<int64_t>{{{}}}", int64_literal(*op.default_value))
                       : std::string("std::nullopt"),
      access_enum(op.access), op.display == Display::kHex ? "Display::kHex" : "Display::kDecimal");
}

std::string_view busy_enum(MemoryBusy busy) {
  switch (busy) {
    case MemoryBusy::kNone:
      return "kcraft::isa::MemoryBusy::kNone";
    case MemoryBusy::kOccupancy:
      return "kcraft::isa::MemoryBusy::kOccupancy";
    case MemoryBusy::kLatency:
      return "kcraft::isa::MemoryBusy::kLatency";
  }
  return "";
}

// `i.memory_reads = {...};` (or memory_writes): nothing for an instruction that states none, so the
// tables of an ISA without `memory:` stay as they were.
std::string memory_access_list(const char* member, const std::vector<MemoryAccess>& accesses) {
  if (accesses.empty()) return "";
  std::string out = fmt::format("    i.{} = {{\n", member);
  for (const MemoryAccess& a : accesses) {
    out += fmt::format("        kcraft::isa::MemoryAccess{{{}, {}, {}, {}, {}, {}}},\n", quote(a.space),
                       quote(a.first), quote(a.rows), quote(a.stride), quote(a.size), busy_enum(a.busy));
  }
  return out + "    };\n";
}

std::string operand_list(const std::vector<OperandSpec>& operands, const std::string& indent) {
  if (operands.empty()) return "{}";
  std::string out = "{\n";
  for (const OperandSpec& op : operands) out += indent + "    " + operand_code(op) + ",\n";
  return out + indent + "}";
}

// Splits text into raw string literals of bounded size (compilers limit the length of one literal).
std::string raw_literals(const std::string& text) {
  const std::string delimiter = "kcraft_md";
  if (text.find(")" + delimiter + "\"") != std::string::npos) {
    throw std::runtime_error("the Markdown contains the raw string delimiter");
  }
  std::string out;
  size_t pos = 0;
  while (pos < text.size()) {
    size_t end = std::min(text.size(), pos + 12000);
    if (end < text.size()) {
      const size_t newline = text.rfind('\n', end);
      if (newline != std::string::npos && newline > pos) end = newline + 1;
    }
    out += fmt::format("    R\"{}({}){}\"\n", delimiter, text.substr(pos, end - pos), delimiter);
    pos = end;
  }
  return out.empty() ? "    \"\"\n" : out;
}

// "kVsramRange" for symbol "VSRAM_RANGE".
std::string cpp_constant(const std::string& symbol) {
  std::string lower = symbol;
  for (char& c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return cpp_field_constant(lower);
}

const char* code_type(unsigned bits) {
  return bits <= 8 ? "uint8_t" : "uint16_t";
}

// An enum class of codes, its info table and a lookup by code.
std::string code_set(const MachineCodeSet& set, const std::string& type, const std::string& info,
                     const std::string& table, const std::string& find, const std::string& bits_constant,
                     const std::string& what, bool with_counter, const std::vector<CounterSpec>& counters) {
  std::string out = fmt::format("enum class {} : {} {{\n", type, code_type(set.bits));
  for (const MachineCode& c : set.codes)
    out += fmt::format("  {} = {},  // {}\n", cpp_constant(c.symbol), c.code, c.name);
  out += "};\n";
  out += fmt::format("inline constexpr unsigned {} = {};  // width of the code in the RTL\n\n", bits_constant,
                     set.bits);
  out += fmt::format(
      "struct {} {{\n  {} code;\n  const char* name;         // as the tools print it\n"
      "  const char* description;  // {}\n",
      info, type, what);
  if (with_counter)
    out += "  int counter;              // the Counter of the cycles spent in it, -1 if none\n";
  out += "};\n";
  out += fmt::format("inline constexpr std::array<{}, {}> {}{{{{\n", info, set.codes.size(), table);
  for (const MachineCode& c : set.codes) {
    std::string counter;
    if (with_counter) {
      int index = -1;
      for (const CounterSpec& k : counters) {
        if (k.name == c.counter) index = static_cast<int>(k.index);
      }
      counter = fmt::format(", {}", index);
    }
    out += fmt::format("    {{{}::{}, {}, {}{}}},\n", type, cpp_constant(c.symbol), quote(c.name),
                       quote(c.description), counter);
  }
  out += "}};\n";
  out += fmt::format(
      "// The entry of a code, nullptr if the value is not one.\n"
      "constexpr const {0}* {1}(unsigned code) {{\n"
      "  for (const {0}& entry : {2}) {{\n"
      "    if (static_cast<unsigned>(entry.code) == code) return &entry;\n"
      "  }}\n"
      "  return nullptr;\n"
      "}}\n\n",
      info, find, table);
  return out;
}

// Error codes, performance counters and stall causes, in an inline namespace so that a machine model can
// bring just these names into its own namespace (`using namespace kcraft::isa::<isa>::machine;`).
std::string cpp_machine_constants(const IsaSpec& spec) {
  if (spec.errors.codes.empty() && spec.counters.empty() && spec.stall_causes.codes.empty()) return "";
  std::string out =
      "// Machine-level constants (the YAML's errors:, counters: and stall_causes:), shared with the RTL\n"
      "// through the SystemVerilog package.\n"
      "inline namespace machine {\n\n";
  if (!spec.errors.codes.empty()) {
    out += "// Error codes: why a program stopped with an error (RTL ERR_<SYMBOL>).\n";
    out += code_set(spec.errors, "ErrorCode", "ErrorInfo", "kErrors", "find_error", "kErrorCodeBits",
                    "what it means for a kernel writer", false, {});
  }
  if (!spec.counters.empty()) {
    out += "// Performance counters, by index (RTL CNT_<SYMBOL>, NUM_COUNTERS).\n";
    out += "enum Counter : unsigned {\n";
    for (const CounterSpec& c : spec.counters)
      out += fmt::format("  {} = {},\n", cpp_constant(c.symbol), c.index);
    out += fmt::format("  kNumCounters = {},\n}};\n", spec.counters.size());
    out +=
        "struct CounterInfo {\n  Counter counter;\n  const char* name;  // as `kcraft eval` prints it\n"
        "  bool architectural;  // timing-independent: the functional model computes it too\n"
        "  const char* description;\n};\n";
    out += "// Indexed by Counter.\n";
    out += "inline constexpr std::array<CounterInfo, kNumCounters> kCounters{{\n";
    for (const CounterSpec& c : spec.counters) {
      out += fmt::format("    {{{}, {}, {}, {}}},\n", cpp_constant(c.symbol), quote(c.name),
                         c.architectural ? "true" : "false", quote(c.description));
    }
    out += "}};\n\n";
  }
  if (!spec.stall_causes.codes.empty()) {
    out += "// Why the issue stage waits (RTL STALL_<SYMBOL>).\n";
    out += code_set(spec.stall_causes, "StallCause", "StallCauseInfo", "kStallCauses", "find_stall_cause",
                    "kStallCauseBits", "as shown in hang reports", true, spec.counters);
  }
  return out + "}  // inline namespace machine\n\n";
}
// The bundle section of build_spec() (nothing for ISAs without bundles).
std::string cpp_bundle_spec(const BundleSpec& b) {
  if (!b.present()) return "";
  std::string out = "  {\n    kcraft::isa::BundleSpec& b = s.bundle;\n";
  out += fmt::format("    b.end_field_name = {};\n    b.end_field = Field{{{}, {}}};\n",
                     quote(b.end_field_name), b.end_field.lsb, b.end_field.width);
  for (const SlotSpec& slot : b.slots) {
    out += fmt::format("    b.slots.push_back({{{}, {}}});\n", quote(slot.name), quote(slot.kind));
  }
  for (const SlotKind& k : b.kinds) {
    out += fmt::format("    b.kinds.push_back({{{}, {}, {}}});\n", quote(k.name), quote(k.noun),
                       quote(k.description));
  }
  for (const std::string& rc : b.exposed_classes)
    out += fmt::format("    b.exposed_classes.push_back({});\n", quote(rc));
  out += fmt::format("    b.max_latency = {};\n    b.description = {};\n  }}\n", b.max_latency,
                     quote(b.description));
  return out;
}

// Slot kinds and latencies for the model and tools of a VLIW ISA (nothing for other ISAs).
std::string cpp_bundle_constants(const IsaSpec& spec) {
  const BundleSpec& b = spec.bundle;
  if (!b.present()) return "";
  const unsigned opcode_count = 1u << spec.opcode_field.width;
  std::string out = fmt::format(
      "// Bundles: up to kMaxBundleWords words, one per slot in slot order; the last one has the\n"
      "// end-of-bundle flag ({} = bits [{}, {}]) set.\n"
      "inline constexpr Field kEndOfBundle{{{}, {}}};\n"
      "inline constexpr unsigned kMaxBundleWords = {};\n"
      "inline constexpr unsigned kMaxLatency = {};  // bundles\n\n",
      b.end_field_name, b.end_field.lsb, b.end_field.lsb + b.end_field.width - 1, b.end_field.lsb,
      b.end_field.width, b.slots.size(), b.max_latency);
  out += "enum class Slot : uint8_t {\n";
  for (size_t k = 0; k < b.kinds.size(); ++k) {
    out += fmt::format("  {} = {},  // {}\n", cpp_field_constant(b.kinds[k].name), k, b.kinds[k].noun);
  }
  out += "};\n";
  auto kind_index = [&](const std::string& kind) {
    for (size_t k = 0; k < b.kinds.size(); ++k) {
      if (b.kinds[k].name == kind) return k;
    }
    return size_t{0};
  };
  out += fmt::format("// The kind of each slot, in word order ({}).\n", [&] {
    std::string names;
    for (const SlotSpec& slot : b.slots) names += (names.empty() ? "" : ", ") + slot.name;
    return names;
  }());
  out += fmt::format("inline constexpr std::array<Slot, {}> kSlotKinds{{{{\n", b.slots.size());
  for (const SlotSpec& slot : b.slots) out += fmt::format("    Slot::{},\n", cpp_field_constant(slot.kind));
  out += "}};\n\nnamespace detail {\n";
  out += fmt::format("inline constexpr std::array<uint8_t, {}> kSlotOfOpcode{{{{\n", opcode_count);
  for (unsigned op = 0; op < opcode_count; ++op) {
    unsigned value = 0xFF;
    for (const InstructionSpec& insn : spec.instructions) {
      if (insn.opcode == op) value = static_cast<unsigned>(kind_index(insn.slot));
    }
    out += fmt::format("{} {:>3},{}", op % 8 == 0 ? "   " : "", value, op % 8 == 7 ? "\n" : "");
  }
  out += "}};\n";
  out += fmt::format("inline constexpr std::array<uint8_t, {}> kLatencyOfOpcode{{{{\n", opcode_count);
  for (unsigned op = 0; op < opcode_count; ++op) {
    std::string value = "0";
    for (const InstructionSpec& insn : spec.instructions) {
      if (insn.opcode == op) value = insn.latency;
    }
    out += fmt::format("{} {:>3},{}", op % 8 == 0 ? "   " : "", value, op % 8 == 7 ? "\n" : "");
  }
  out += "}};\n}  // namespace detail\n\n";
  out +=
      "// The slot kind of an opcode's instruction (call only for known opcodes).\n"
      "constexpr Slot slot_of(uint8_t opcode) {\n"
      "  return static_cast<Slot>(opcode < detail::kSlotOfOpcode.size() ? detail::kSlotOfOpcode[opcode] : "
      "0);\n"
      "}\n\n"
      "// Bundles after issue at which an opcode's result is visible (0 for unknown opcodes).\n"
      "constexpr unsigned latency_of(uint8_t opcode) {\n"
      "  return opcode < detail::kLatencyOfOpcode.size() ? detail::kLatencyOfOpcode[opcode] : 0;\n"
      "}\n\n"
      "constexpr bool is_end_of_bundle(uint32_t word) { return extract(word, kEndOfBundle) != 0; }\n\n";
  return out;
}

}  // namespace

std::string cpp_field_constant(const std::string& field) {
  std::string out = "k";
  bool upper = true;
  for (char c : field) {
    if (c == '_') {
      upper = true;
      continue;
    }
    out += upper ? static_cast<char>(std::toupper(static_cast<unsigned char>(c))) : c;
    upper = false;
  }
  return out;
}

std::string emit_cpp_header(const IsaSpec& spec, const std::string& source_name) {
  const unsigned opcode_count = 1u << spec.opcode_field.width;
  const char* op_type = spec.opcode_field.width <= 8 ? "uint8_t" : "uint16_t";
  std::string out = fmt::format(
      "// Generated from {0} by kcraft_isagen. Do not edit.\n"
      "//\n"
      "// The {1} ISA for C++: opcodes, instruction fields, legality, and the generic IsaSpec that the\n"
      "// assembler, disassembler and documentation use. The reference manual is isa_markdown().\n"
      "#pragma once\n\n"
      "#include <array>\n"
      "#include <cstdint>\n\n"
      "#include \"isa/common/isa_spec.h\"\n\n"
      "namespace kcraft::isa::{1} {{\n\n"
      "using kcraft::isa::extract;\n"
      "using kcraft::isa::extract_signed;\n"
      "using kcraft::isa::Field;\n"
      "using kcraft::isa::insert;\n\n"
      "inline constexpr unsigned kWordBits = {2};\n"
      "inline constexpr int kVersion = {3};\n\n",
      source_name, spec.name, spec.word_bits, spec.version);

  out += fmt::format("enum class Op : {} {{\n", op_type);
  for (const InstructionSpec& insn : spec.instructions) {
    out += fmt::format("  {} = 0x{:02X},\n", insn.name, insn.opcode);
  }
  out += "};\n\n";
  out += fmt::format("inline constexpr std::array<Op, {}> kAllOps{{{{\n", spec.instructions.size());
  for (const InstructionSpec& insn : spec.instructions) out += fmt::format("    Op::{},\n", insn.name);
  out += "}};\n\n";

  out += "// Instruction word fields: bits [lsb, lsb + width).\n";
  for (const NamedField& f : spec.fields) {
    out += fmt::format("inline constexpr Field {}{{{}, {}}};\n", cpp_field_constant(f.name), f.field.lsb,
                       f.field.width);
  }

  out += "\nnamespace detail {\n";
  out += fmt::format(
      "// Per opcode: the bits that must be zero (0xFFFFFFFF = unknown opcode) and the mnemonic.\n"
      "inline constexpr std::array<uint32_t, {}> kReservedMasks{{{{\n",
      opcode_count);
  for (unsigned op = 0; op < opcode_count; ++op) {
    uint32_t mask = 0xFFFFFFFFu;
    for (const InstructionSpec& insn : spec.instructions) {
      if (insn.opcode == op) mask = insn.reserved_mask;
    }
    out += fmt::format("    0x{:08X}u,{}", mask, op % 4 == 3 ? "\n" : "");
  }
  out += "}};\n";
  out += fmt::format("inline constexpr std::array<const char*, {}> kOpNames{{{{\n", opcode_count);
  for (unsigned op = 0; op < opcode_count; ++op) {
    std::string name = "nullptr";
    for (const InstructionSpec& insn : spec.instructions) {
      if (insn.opcode == op) name = quote(insn.name);
    }
    out += fmt::format("    {},\n", name);
  }
  out += "}};\n}  // namespace detail\n\n";

  out += fmt::format(
      "// Bits that must be zero in an instruction with this opcode (0xFFFFFFFF if the opcode is unknown):\n"
      "// every bit outside the opcode field and the fields of the instruction's own operands.\n"
      "constexpr uint32_t reserved_mask(uint8_t opcode) {{\n"
      "  return opcode < detail::kReservedMasks.size() ? detail::kReservedMasks[opcode] : 0xFFFFFFFFu;\n"
      "}}\n\n"
      "// Mnemonic of an opcode, nullptr if unknown.\n"
      "constexpr const char* op_name(uint8_t opcode) {{\n"
      "  return opcode < detail::kOpNames.size() ? detail::kOpNames[opcode] : nullptr;\n"
      "}}\n\n"
      "// A known opcode with all reserved bits zero. (Operand values outside their documented range, e.g. "
      "a\n"
      "// loop body of length 0, are legal words; the assembler never produces them.)\n"
      "constexpr bool is_legal(uint32_t word) {{\n"
      "  const auto opcode = static_cast<uint8_t>(extract(word, {0}));\n"
      "  return op_name(opcode) != nullptr && (word & reserved_mask(opcode)) == 0;\n"
      "}}\n\n"
      "constexpr Op op_of(uint32_t word) {{ return static_cast<Op>(extract(word, {0})); }}\n\n"
      "// The generic description used by the assembler, disassembler and documentation.\n"
      "const kcraft::isa::IsaSpec& spec();\n\n"
      "// The ISA reference manual (Markdown), as printed by `kcraft isa {1}`.\n"
      "const char* isa_markdown();\n\n",
      cpp_field_constant("opcode"), spec.name);
  out += cpp_bundle_constants(spec);
  out += cpp_machine_constants(spec);
  out += fmt::format("}}  // namespace kcraft::isa::{}\n", spec.name);
  return out;
}

std::string emit_cpp_tables(const IsaSpec& spec, const std::string& source_name,
                            const std::string& markdown) {
  std::string out = fmt::format(
      "// Generated from {0} by kcraft_isagen. Do not edit.\n"
      "#include \"{1}_isa.h\"\n\n"
      "#include <cstdint>\n"
      "#include <optional>\n\n"
      "namespace kcraft::isa::{1} {{\n"
      "namespace {{\n\n"
      "using kcraft::isa::Access;\n"
      "using kcraft::isa::Display;\n"
      "using kcraft::isa::OperandKind;\n"
      "using kcraft::isa::OperandSpec;\n\n"
      "OperandSpec operand(const char* name, const char* field_name, Field field, OperandKind kind, int "
      "register_class,\n"
      "                    int64_t min, int64_t max, std::optional<int64_t> default_value, Access access,\n"
      "                    Display display) {{\n"
      "  OperandSpec op;\n"
      "  op.name = name;\n"
      "  op.field_name = field_name;\n"
      "  op.field = field;\n"
      "  op.kind = kind;\n"
      "  op.register_class = register_class;\n"
      "  op.min = min;\n"
      "  op.max = max;\n"
      "  op.default_value = default_value;\n"
      "  op.access = access;\n"
      "  op.display = display;\n"
      "  return op;\n"
      "}}\n\n"
      "kcraft::isa::IsaSpec build_spec() {{\n"
      "  kcraft::isa::IsaSpec s;\n",
      source_name, spec.name);
  out += fmt::format("  s.name = {};\n  s.version = {};\n  s.word_bits = {};\n", quote(spec.name),
                     spec.version, spec.word_bits);
  out += fmt::format("  s.summary = {};\n  s.timing = {};\n", quote(spec.summary), quote(spec.timing));
  for (const TimingRule& r : spec.timing_rules) {
    out += fmt::format("  s.timing_rules.push_back({{{}, {}}});\n", quote(r.title), quote(r.text));
  }
  out += fmt::format("  s.opcode_field = Field{{{}, {}}};\n", spec.opcode_field.lsb, spec.opcode_field.width);
  out +=
      fmt::format("  s.halt_mnemonic = {};\n  s.loop_depth_symbol = {};\n  s.program_size_symbol = {};\n",
                  quote(spec.halt_mnemonic), quote(spec.loop_depth_symbol), quote(spec.program_size_symbol));
  for (const RegisterClass& rc : spec.register_classes) {
    out += "  {\n    kcraft::isa::RegisterClass& rc = s.register_classes.emplace_back();\n";
    out += fmt::format("    rc.name = {};\n    rc.prefix = {};\n    rc.count = {};\n    rc.width = {};\n",
                       quote(rc.name), quote(rc.prefix), rc.count, rc.width);
    for (const auto& [number, value] : rc.hardwired) {
      out += fmt::format("    rc.hardwired.emplace_back({}u, {});\n", number, quote(value));
    }
    out += fmt::format("    rc.noun = {};\n    rc.description = {};\n  }}\n", quote(rc.noun),
                       quote(rc.description));
  }
  for (const NamedField& f : spec.fields) {
    out += fmt::format("  s.fields.push_back({{{}, Field{{{}, {}}}}});\n", quote(f.name), f.field.lsb,
                       f.field.width);
  }
  for (const FormatSpec& f : spec.formats) {
    std::string fields;
    for (const std::string& name : f.fields) fields += (fields.empty() ? "" : ", ") + quote(name);
    out += fmt::format("  s.formats.push_back({{{}, {{{}}}, {}}});\n", quote(f.name), fields,
                       quote(f.description));
  }
  for (const UnitSpec& u : spec.units) {
    out += fmt::format("  s.units.push_back({{{}, {}, {}}});\n", quote(u.name), quote(u.description),
                       quote(u.notes));
  }
  for (const ParameterSpec& p : spec.parameters) {
    out += fmt::format("  s.parameters.push_back({{{}, {}}});\n", quote(p.name), quote(p.description));
  }
  for (const MemorySpec& m : spec.memories) {
    out += fmt::format("  s.memories.push_back({{{}, {}, {}, {}}});\n", quote(m.name), quote(m.size),
                       quote(m.word), quote(m.description));
  }
  for (const InstructionSpec& insn : spec.instructions) {
    out += "  {\n    kcraft::isa::InstructionSpec& i = s.instructions.emplace_back();\n";
    out += fmt::format("    i.name = {};\n    i.opcode = 0x{:02X};\n    i.unit = {};\n    i.format = {};\n",
                       quote(insn.name), insn.opcode, quote(insn.unit), quote(insn.format));
    out += fmt::format("    i.operands = {};\n", operand_list(insn.operands, "    "));
    out += fmt::format("    i.reserved_mask = 0x{:08X}u;\n", insn.reserved_mask);
    out += fmt::format(
        "    i.semantics = {};\n    i.latency = {};\n    i.occupancy = {};\n    i.example = {};\n",
        quote(insn.semantics), quote(insn.latency), quote(insn.occupancy), quote(insn.example));
    if (!insn.slot.empty()) out += fmt::format("    i.slot = {};\n", quote(insn.slot));
    if (!insn.enabled_by.empty()) out += fmt::format("    i.enabled_by = {};\n", quote(insn.enabled_by));
    out += memory_access_list("memory_reads", insn.memory_reads);
    out += memory_access_list("memory_writes", insn.memory_writes);
    out += "  }\n";
  }
  for (const PseudoSpec& p : spec.pseudos) {
    out += "  {\n    kcraft::isa::PseudoSpec& p = s.pseudos.emplace_back();\n";
    out += fmt::format("    p.name = {};\n    p.syntax = {};\n    p.expands = {};\n    p.example = {};\n",
                       quote(p.name), quote(p.syntax), quote(p.expands), quote(p.example));
    out += fmt::format("    p.operands = {};\n", operand_list(p.operands, "    "));
    for (const PseudoForm& form : p.forms) {
      std::string lines;
      for (const std::string& line : form.lines) lines += (lines.empty() ? "" : ", ") + quote(line);
      out += fmt::format("    p.forms.push_back({{{}, {{{}}}}});\n", quote(form.when), lines);
    }
    out += "  }\n";
  }
  for (const ExampleProgram& e : spec.examples) {
    out += "  {\n    kcraft::isa::ExampleProgram& e = s.examples.emplace_back();\n";
    out += fmt::format("    e.title = {};\n    e.description = {};\n    e.source = {};\n", quote(e.title),
                       quote(e.description), quote(e.source));
    for (const auto& [name, value] : e.symbols) {
      out += fmt::format("    e.symbols.emplace_back({}, {});\n", quote(name), int64_literal(value));
    }
    out += "  }\n";
  }
  for (auto [set, member] :
       {std::pair<const MachineCodeSet*, const char*>{&spec.errors, "errors"},
        std::pair<const MachineCodeSet*, const char*>{&spec.stall_causes, "stall_causes"}}) {
    out +=
        fmt::format("  s.{}.bits = {};\n  s.{}.notes = {};\n", member, set->bits, member, quote(set->notes));
    for (const MachineCode& c : set->codes) {
      out += fmt::format("  s.{}.codes.push_back({{{}, {}, {}, {}, {}}});\n", member, quote(c.name),
                         quote(c.symbol), c.code, quote(c.description), quote(c.counter));
    }
  }
  out += fmt::format("  s.counter_notes = {};\n", quote(spec.counter_notes));
  for (const CounterSpec& c : spec.counters) {
    out += fmt::format("  s.counters.push_back({{{}, {}, {}, {}, {}}});\n", quote(c.name), quote(c.symbol),
                       c.index, c.architectural ? "true" : "false", quote(c.description));
  }
  out += cpp_bundle_spec(spec.bundle);
  out += "  s.finalize();\n  return s;\n}\n\n}  // namespace\n\n";
  out +=
      "const kcraft::isa::IsaSpec& spec() {\n  static const kcraft::isa::IsaSpec instance = build_spec();\n"
      "  return instance;\n}\n\n";
  out += "const char* isa_markdown() {\n  static const char* const text =\n" + raw_literals(markdown) +
         "      ;\n  return text;\n}\n\n";
  out += fmt::format("}}  // namespace kcraft::isa::{}\n", spec.name);
  return out;
}

}  // namespace kcraft::isa::gen
