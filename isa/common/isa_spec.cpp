#include "isa/common/isa_spec.h"

#include <algorithm>
#include <cctype>
#include <tuple>

#include <fmt/format.h>

namespace kcraft::isa {

std::string to_upper(std::string_view text) {
  std::string out(text);
  for (char& c : out) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return out;
}

std::string_view kind_name(OperandKind kind) {
  switch (kind) {
    case OperandKind::kRegister:
      return "register";
    case OperandKind::kUimm:
      return "uimm";
    case OperandKind::kSimm:
      return "simm";
    case OperandKind::kBody:
      return "body";
    case OperandKind::kInt32:
      return "int32";
    case OperandKind::kFp32:
      return "fp32";
  }
  return "?";
}

std::string_view busy_name(MemoryBusy busy) {
  switch (busy) {
    case MemoryBusy::kNone:
      return "none";
    case MemoryBusy::kOccupancy:
      return "occupancy";
    case MemoryBusy::kLatency:
      return "latency";
  }
  return "?";
}

std::optional<MemoryBusy> parse_busy(std::string_view name) {
  for (MemoryBusy busy : {MemoryBusy::kNone, MemoryBusy::kOccupancy, MemoryBusy::kLatency}) {
    if (busy_name(busy) == name) return busy;
  }
  return std::nullopt;
}

void IsaSpec::finalize() {
  instruction_index_.clear();
  pseudo_index_.clear();
  for (size_t i = 0; i < instructions.size(); ++i)
    instruction_index_.emplace(to_upper(instructions[i].name), i);
  for (size_t i = 0; i < pseudos.size(); ++i) pseudo_index_.emplace(to_upper(pseudos[i].name), i);
  const unsigned opcode_bits = opcode_field.width > 16 ? 16 : opcode_field.width;
  opcode_index_.assign(size_t{1} << opcode_bits, -1);
  for (size_t i = 0; i < instructions.size(); ++i) {
    if (instructions[i].opcode < opcode_index_.size())
      opcode_index_[instructions[i].opcode] = static_cast<int>(i);
  }
}

const InstructionSpec* IsaSpec::find_instruction(std::string_view mnemonic) const {
  auto it = instruction_index_.find(to_upper(mnemonic));
  return it == instruction_index_.end() ? nullptr : &instructions[it->second];
}

const PseudoSpec* IsaSpec::find_pseudo(std::string_view mnemonic) const {
  auto it = pseudo_index_.find(to_upper(mnemonic));
  return it == pseudo_index_.end() ? nullptr : &pseudos[it->second];
}

const InstructionSpec* IsaSpec::find_opcode(uint32_t opcode) const {
  if (opcode >= opcode_index_.size() || opcode_index_[opcode] < 0) return nullptr;
  return &instructions[static_cast<size_t>(opcode_index_[opcode])];
}

const NamedField* IsaSpec::find_field(std::string_view field_name) const {
  for (const NamedField& f : fields) {
    if (f.name == field_name) return &f;
  }
  return nullptr;
}

bool IsaSpec::describes_memory() const {
  return std::any_of(instructions.begin(), instructions.end(), [](const InstructionSpec& insn) {
    return !insn.memory_reads.empty() || !insn.memory_writes.empty();
  });
}

int IsaSpec::find_register_class(std::string_view class_name) const {
  for (size_t i = 0; i < register_classes.size(); ++i) {
    if (register_classes[i].name == class_name) return static_cast<int>(i);
  }
  return -1;
}

bool operator==(const RegisterClass& a, const RegisterClass& b) {
  return std::tie(a.name, a.prefix, a.count, a.width, a.hardwired, a.noun, a.description) ==
         std::tie(b.name, b.prefix, b.count, b.width, b.hardwired, b.noun, b.description);
}
bool operator==(const OperandSpec& a, const OperandSpec& b) {
  return std::tie(a.name, a.field_name, a.field, a.kind, a.register_class, a.min, a.max, a.default_value,
                  a.access, a.display) == std::tie(b.name, b.field_name, b.field, b.kind, b.register_class,
                                                   b.min, b.max, b.default_value, b.access, b.display);
}
bool operator==(const MemoryAccess& a, const MemoryAccess& b) {
  return std::tie(a.space, a.first, a.rows, a.stride, a.size, a.busy) ==
         std::tie(b.space, b.first, b.rows, b.stride, b.size, b.busy);
}
bool operator==(const InstructionSpec& a, const InstructionSpec& b) {
  return std::tie(a.name, a.opcode, a.unit, a.format, a.operands, a.reserved_mask, a.semantics, a.latency,
                  a.occupancy, a.example, a.slot, a.enabled_by, a.memory_reads, a.memory_writes) ==
         std::tie(b.name, b.opcode, b.unit, b.format, b.operands, b.reserved_mask, b.semantics, b.latency,
                  b.occupancy, b.example, b.slot, b.enabled_by, b.memory_reads, b.memory_writes);
}
bool operator==(const PseudoForm& a, const PseudoForm& b) {
  return a.when == b.when && a.lines == b.lines;
}
bool operator==(const PseudoSpec& a, const PseudoSpec& b) {
  return std::tie(a.name, a.syntax, a.expands, a.example, a.operands, a.forms) ==
         std::tie(b.name, b.syntax, b.expands, b.example, b.operands, b.forms);
}
bool operator==(const NamedField& a, const NamedField& b) {
  return a.name == b.name && a.field == b.field;
}
bool operator==(const FormatSpec& a, const FormatSpec& b) {
  return a.name == b.name && a.fields == b.fields && a.description == b.description;
}
bool operator==(const UnitSpec& a, const UnitSpec& b) {
  return a.name == b.name && a.description == b.description && a.notes == b.notes;
}
bool operator==(const ParameterSpec& a, const ParameterSpec& b) {
  return a.name == b.name && a.description == b.description;
}
bool operator==(const MemorySpec& a, const MemorySpec& b) {
  return std::tie(a.name, a.size, a.word, a.description) == std::tie(b.name, b.size, b.word, b.description);
}
bool operator==(const ExampleProgram& a, const ExampleProgram& b) {
  return std::tie(a.title, a.description, a.symbols, a.source) ==
         std::tie(b.title, b.description, b.symbols, b.source);
}
bool operator==(const MachineCode& a, const MachineCode& b) {
  return std::tie(a.name, a.symbol, a.code, a.description, a.counter) ==
         std::tie(b.name, b.symbol, b.code, b.description, b.counter);
}
bool operator==(const MachineCodeSet& a, const MachineCodeSet& b) {
  return a.bits == b.bits && a.notes == b.notes && a.codes == b.codes;
}
bool operator==(const CounterSpec& a, const CounterSpec& b) {
  return std::tie(a.name, a.symbol, a.index, a.architectural, a.description) ==
         std::tie(b.name, b.symbol, b.index, b.architectural, b.description);
}
bool operator==(const TimingRule& a, const TimingRule& b) {
  return a.title == b.title && a.text == b.text;
}
bool operator==(const IsaSpec& a, const IsaSpec& b) {
  return std::tie(a.name, a.version, a.word_bits, a.summary, a.timing, a.timing_rules, a.register_classes,
                  a.fields, a.formats, a.units, a.parameters, a.memories, a.instructions, a.pseudos,
                  a.examples, a.errors, a.stall_causes, a.counters, a.counter_notes, a.opcode_field,
                  a.halt_mnemonic, a.loop_depth_symbol, a.program_size_symbol, a.bundle) ==
         std::tie(b.name, b.version, b.word_bits, b.summary, b.timing, b.timing_rules, b.register_classes,
                  b.fields, b.formats, b.units, b.parameters, b.memories, b.instructions, b.pseudos,
                  b.examples, b.errors, b.stall_causes, b.counters, b.counter_notes, b.opcode_field,
                  b.halt_mnemonic, b.loop_depth_symbol, b.program_size_symbol, b.bundle);
}
bool operator==(const SlotKind& a, const SlotKind& b) {
  return std::tie(a.name, a.noun, a.description) == std::tie(b.name, b.noun, b.description);
}
bool operator==(const SlotSpec& a, const SlotSpec& b) {
  return a.name == b.name && a.kind == b.kind;
}
bool operator==(const BundleSpec& a, const BundleSpec& b) {
  return std::tie(a.end_field_name, a.end_field, a.slots, a.kinds, a.exposed_classes, a.max_latency,
                  a.description) == std::tie(b.end_field_name, b.end_field, b.slots, b.kinds,
                                             b.exposed_classes, b.max_latency, b.description);
}

const SlotKind* BundleSpec::find_kind(std::string_view kind) const {
  for (const SlotKind& k : kinds) {
    if (k.name == kind) return &k;
  }
  return nullptr;
}

bool BundleSpec::is_exposed(const std::string& register_class) const {
  return std::find(exposed_classes.begin(), exposed_classes.end(), register_class) != exposed_classes.end();
}

std::string syntax_of(const InstructionSpec& insn) {
  std::string out = insn.name;
  for (size_t i = 0; i < insn.operands.size(); ++i) {
    const OperandSpec& op = insn.operands[i];
    const bool optional = op.default_value.has_value();
    if (optional) out += "[";
    out += i == 0 ? " " : ", ";
    out += op.name;
    if (optional) out += "]";
  }
  return out;
}

std::string operand_range_text(const IsaSpec& spec, const OperandSpec& operand) {
  switch (operand.kind) {
    case OperandKind::kRegister: {
      const RegisterClass& rc = spec.register_classes.at(static_cast<size_t>(operand.register_class));
      return fmt::format("{}0..{}{}", rc.prefix, rc.prefix, rc.count - 1);
    }
    case OperandKind::kUimm:
    case OperandKind::kSimm:
      if (operand.display == Display::kHex) {
        return fmt::format("{}..{}", format_immediate(operand, operand.min),
                           format_immediate(operand, operand.max));
      }
      return fmt::format("{}..{}", operand.min, operand.max);
    case OperandKind::kBody:
      return fmt::format("label; body of {}..{} instructions", operand.min, operand.max);
    case OperandKind::kInt32:
      return "any 32-bit integer (-2147483648..4294967295)";
    case OperandKind::kFp32:
      return "floating-point expression, rounded to FP32";
  }
  return "";
}

std::string format_immediate(const OperandSpec& operand, int64_t value) {
  if (operand.display != Display::kHex || value < 0) return std::to_string(value);
  int digits = 1;
  for (uint64_t max = static_cast<uint64_t>(operand.max > 0 ? operand.max : 0); max > 0xF; max >>= 4)
    ++digits;
  return fmt::format("0x{:0{}X}", value, digits);
}

}  // namespace kcraft::isa
