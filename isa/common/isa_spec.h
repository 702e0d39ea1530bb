// The ISA as data: the generic description every custom ISA (systolic, later vliw) is reduced to.
//
// kcraft_isagen builds an IsaSpec from isa/<platform>.yaml (validating it) and emits C++ code that rebuilds
// the same IsaSpec at run time (<platform>_isa_tables.cpp), so the assembler, the disassembler and the
// documentation generator are written once, against this header, for every ISA.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace kcraft::isa {

// A bit field of an instruction word: bits [lsb, lsb + width).
struct Field {
  unsigned lsb = 0;
  unsigned width = 0;
};
constexpr bool operator==(Field a, Field b) {
  return a.lsb == b.lsb && a.width == b.width;
}
constexpr bool operator!=(Field a, Field b) {
  return !(a == b);
}

// Mask of the field's bits in place.
constexpr uint32_t field_mask(Field f) {
  const uint32_t low = f.width >= 32 ? 0xFFFFFFFFu : (1u << f.width) - 1u;
  return f.lsb >= 32 ? 0u : low << f.lsb;
}
// Unsigned value of the field.
constexpr uint32_t extract(uint32_t word, Field f) {
  return f.lsb >= 32 ? 0u : (word & field_mask(f)) >> f.lsb;
}
// Sign-extended value of the field (two's complement in `width` bits).
constexpr int32_t extract_signed(uint32_t word, Field f) {
  if (f.width == 0) return 0;
  const uint32_t value = extract(word, f);
  if (f.width >= 32) return static_cast<int32_t>(value);
  const uint32_t sign = 1u << (f.width - 1);
  return static_cast<int32_t>((value ^ sign) - sign);
}
// `word` with the field replaced by the low `width` bits of `value`.
constexpr uint32_t insert(uint32_t word, Field f, uint32_t value) {
  return (word & ~field_mask(f)) | (f.lsb >= 32 ? 0u : (value << f.lsb) & field_mask(f));
}

enum class OperandKind : uint8_t {
  kRegister,  // a register of `register_class`
  kUimm,      // unsigned immediate in [min, max]
  kSimm,      // signed immediate in [min, max], two's complement in the field
  kBody,      // loop end label; encoded as the body length (label - (pc + 1)) in [min, max]
  kInt32,     // pseudo-instructions only: any 32-bit integer, read as signed (-2^31 .. 2^32-1 accepted)
  kFp32,      // pseudo-instructions only: a floating expression, rounded to FP32; its value is the bits
};
enum class Access : uint8_t { kRead, kWrite, kReadWrite };  // for register operands
enum class Display : uint8_t { kDecimal, kHex };            // how the disassembler prints immediates

struct RegisterClass {
  std::string name;    // "xreg"
  std::string prefix;  // "r": registers are written r0, r1, ...
  unsigned count = 0;
  unsigned width = 0;
  std::vector<std::pair<unsigned, std::string>> hardwired;  // register number -> fixed value (text)
  std::string noun;                                         // "integer register", for messages
  std::string description;
};

struct OperandSpec {
  std::string name;        // shown in syntax and diagnostics ("rd", "imm", "end")
  std::string field_name;  // the instruction field holding it ("" for pseudo-instruction operands)
  Field field;
  OperandKind kind = OperandKind::kUimm;
  int register_class = -1;  // index into IsaSpec::register_classes for kRegister
  int64_t min = 0;
  int64_t max = 0;
  std::optional<int64_t> default_value;  // trailing operands with a default may be omitted
  Access access = Access::kRead;
  Display display = Display::kDecimal;
};

// How long a memory access keeps its range busy for a later instruction that conflicts with it (one that
// writes rows this one reads, or reads or writes rows this one writes): what the interlocks hold it for.
enum class MemoryBusy : uint8_t {
  kNone,       // never: the unit or the memory keeps such accesses in program order by itself
  kOccupancy,  // while the instruction holds its unit (for DMA: its slot)
  kLatency,    // until the instruction's latency has passed (its result is visible)
};

// A range of one memory that an instruction reads or writes: `rows` rows of `size` address units each,
// the first at address `first`, every next one `stride` units further. Each is an expression over the
// instruction's operands and the hardware parameters, like `latency`.
struct MemoryAccess {
  std::string space;  // a `memories:` name
  std::string first;
  std::string rows = "1";
  std::string stride = "1";
  std::string size = "1";
  MemoryBusy busy = MemoryBusy::kNone;
};

struct InstructionSpec {
  std::string name;  // upper case mnemonic
  uint32_t opcode = 0;
  std::string unit;
  std::string format;
  std::vector<OperandSpec> operands;
  uint32_t reserved_mask = 0;  // bits outside the opcode and the operands' fields; must be zero
  std::string semantics;
  std::string latency;  // cycles; an integer or an expression over hardware parameters and operands
  // Cycles the instruction holds its unit (or, for DMA, a slot) before the unit takes the next one of its
  // kind; an expression like `latency`, "" when not stated.
  std::string occupancy;
  std::string example;
  std::string slot;  // VLIW ISAs: the kind of bundle slot the instruction occupies ("" without bundles)
  // An optional instruction: the hardware parameter (a `parameters:` name, a build parameter) that must be
  // non-zero for it to exist ("" = always there). Hardware without it stops with an illegal instruction;
  // the assembler rejects it when the caller predefines the parameter as 0.
  std::string enabled_by;
  // The memory it reads and writes (`memory:`, optional): registers are in `operands`, these are the
  // rest of the state a scheduler must keep in order.
  std::vector<MemoryAccess> memory_reads;
  std::vector<MemoryAccess> memory_writes;
};

// One way to expand a pseudo-instruction: instruction templates whose identifiers naming the pseudo's
// operands are replaced by their values. The first form whose `when` holds (empty = always) and whose
// immediates all fit is used.
struct PseudoForm {
  std::string when;
  std::vector<std::string> lines;
};

struct PseudoSpec {
  std::string name;
  std::string syntax;
  std::string expands;  // prose for the documentation
  std::string example;
  std::vector<OperandSpec> operands;
  std::vector<PseudoForm> forms;
};

struct NamedField {
  std::string name;
  Field field;
};
struct FormatSpec {
  std::string name;
  std::vector<std::string> fields;
  std::string description;
};
struct UnitSpec {
  std::string name;
  std::string description;
  std::string notes;  // rules shared by the unit's instructions
};
struct ParameterSpec {
  std::string name;
  std::string description;
};
// One rule of the timing model a kernel writer optimises against (how units overlap, queue, stall).
struct TimingRule {
  std::string title;
  std::string text;
};
struct MemorySpec {
  std::string name;
  std::string size;
  std::string word;  // what one addressable row/word holds
  std::string description;
};

// A value the machine reports in a status field: an error code or a stall cause. The generator emits it
// as RTL `<PREFIX>_<symbol>` (ERR_, STALL_) and C++ enumerator `k<Symbol>`.
struct MachineCode {
  std::string name;    // lower_snake, as the tools print it ("vsram_out_of_range")
  std::string symbol;  // UPPER_SNAKE identifier ("VSRAM_RANGE")
  unsigned code = 0;
  std::string description;  // what it means for a kernel writer
  std::string counter;      // stall causes: the counter of the cycles spent in it ("" = none)
};
// All codes of one kind. Code 0 means "nothing to report" (no error, not stalled).
struct MachineCodeSet {
  unsigned bits = 0;  // width of the code in the RTL; 0 when the YAML has no such section
  std::string notes;  // rules shared by the codes, for the reference
  std::vector<MachineCode> codes;
};
// A performance counter: RTL CNT_<symbol> (its index), C++ enumerator k<Symbol>.
struct CounterSpec {
  std::string name;  // lower_snake, as `kcraft eval` prints it
  std::string symbol;
  unsigned index = 0;
  bool architectural = false;  // timing-independent: the functional model computes it too
  std::string description;
};

// VLIW ISAs: the words of one bundle are issued together, one per slot, in slot order.
struct SlotKind {
  std::string name;         // "vec", as instructions name it in `slot:`
  std::string noun;         // "vector": what messages call its ops ("two vector ops in one bundle")
  std::string description;  // what the slot's unit does
};
struct SlotSpec {
  std::string name;  // "ls0"
  std::string kind;  // a SlotKind name
};
struct BundleSpec {
  std::string end_field_name;  // the 1-bit field set in the last word of a bundle
  Field end_field;
  std::vector<SlotSpec> slots;  // in the order their words appear in a bundle
  std::vector<SlotKind> kinds;
  // Register classes whose results land `latency` bundles after issue, with no interlock (the assembler
  // warns about reads before then); results in other classes are visible to the next bundle.
  std::vector<std::string> exposed_classes;
  unsigned max_latency = 0;
  std::string description;

  bool present() const { return !slots.empty(); }
  const SlotKind* find_kind(std::string_view kind) const;
  bool is_exposed(const std::string& register_class) const;
};

// A complete program shown in the reference; the generator assembles it with `symbols` predefined.
struct ExampleProgram {
  std::string title;
  std::string description;
  std::vector<std::pair<std::string, int64_t>> symbols;
  std::string source;
};

struct IsaSpec {
  std::string name;
  int version = 0;
  unsigned word_bits = 32;
  std::string summary;
  std::string timing;
  std::vector<TimingRule> timing_rules;
  std::vector<RegisterClass> register_classes;
  std::vector<NamedField> fields;
  std::vector<FormatSpec> formats;
  std::vector<UnitSpec> units;
  std::vector<ParameterSpec> parameters;
  std::vector<MemorySpec> memories;
  std::vector<InstructionSpec> instructions;
  std::vector<PseudoSpec> pseudos;
  std::vector<ExampleProgram> examples;
  MachineCodeSet errors;              // why a program stops with an error
  MachineCodeSet stall_causes;        // why the issue stage waits
  std::vector<CounterSpec> counters;  // sorted by index, indices 0..size()-1
  std::string counter_notes;
  Field opcode_field;
  std::string halt_mnemonic;        // the assembler warns when a program contains none ("" = no check)
  std::string loop_depth_symbol;    // predefined symbol bounding loop nesting ("" = no check)
  std::string program_size_symbol;  // predefined symbol bounding the program's length ("" = no check)
  BundleSpec bundle;                // VLIW ISAs only; empty (bundle.present() false) otherwise

  // Builds the lookup indexes; call after filling the vectors.
  void finalize();

  const InstructionSpec* find_instruction(std::string_view mnemonic) const;  // case-insensitive
  const PseudoSpec* find_pseudo(std::string_view mnemonic) const;            // case-insensitive
  const InstructionSpec* find_opcode(uint32_t opcode) const;
  const NamedField* find_field(std::string_view name) const;
  int find_register_class(std::string_view name) const;  // -1 if unknown
  // Whether the YAML states the memory its instructions touch (any `memory:`); then an instruction
  // without one touches none.
  bool describes_memory() const;

 private:
  std::map<std::string, size_t, std::less<>> instruction_index_;
  std::map<std::string, size_t, std::less<>> pseudo_index_;
  std::vector<int> opcode_index_;
};

bool operator==(const RegisterClass& a, const RegisterClass& b);
bool operator==(const OperandSpec& a, const OperandSpec& b);
bool operator==(const InstructionSpec& a, const InstructionSpec& b);
bool operator==(const PseudoForm& a, const PseudoForm& b);
bool operator==(const PseudoSpec& a, const PseudoSpec& b);
bool operator==(const NamedField& a, const NamedField& b);
bool operator==(const FormatSpec& a, const FormatSpec& b);
bool operator==(const UnitSpec& a, const UnitSpec& b);
bool operator==(const ParameterSpec& a, const ParameterSpec& b);
bool operator==(const MemorySpec& a, const MemorySpec& b);
bool operator==(const MemoryAccess& a, const MemoryAccess& b);
bool operator==(const TimingRule& a, const TimingRule& b);
bool operator==(const ExampleProgram& a, const ExampleProgram& b);
bool operator==(const SlotKind& a, const SlotKind& b);
bool operator==(const SlotSpec& a, const SlotSpec& b);
bool operator==(const BundleSpec& a, const BundleSpec& b);
bool operator==(const MachineCode& a, const MachineCode& b);
bool operator==(const MachineCodeSet& a, const MachineCodeSet& b);
bool operator==(const CounterSpec& a, const CounterSpec& b);
bool operator==(const IsaSpec& a, const IsaSpec& b);  // the data, not the indexes

// "V_ADD_VV rd, rs1, rs2[, off]": the operand list as the assembler accepts it.
std::string syntax_of(const InstructionSpec& insn);
// "r0..r15", "0..511", "-65536..65535", "label (body of 1..8191 instructions)".
std::string operand_range_text(const IsaSpec& spec, const OperandSpec& operand);
// Text of an immediate as the disassembler prints it (decimal, or hex padded to the range's digits).
std::string format_immediate(const OperandSpec& operand, int64_t value);
std::string to_upper(std::string_view text);
std::string_view kind_name(OperandKind kind);
// "none", "occupancy", "latency": how the YAML and the scheduling table write it.
std::string_view busy_name(MemoryBusy busy);
std::optional<MemoryBusy> parse_busy(std::string_view name);

}  // namespace kcraft::isa
