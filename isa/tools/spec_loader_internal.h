// The ISA YAML loader's internals, private to isa/tools/spec_loader*.cpp: the YAML helpers and the Loader,
// whose member functions are in one file per phase: spec_loader.cpp (the entry points, the order of the
// sections, error reporting and typed field access), spec_loader_sections.cpp (reading each section of the
// YAML into the IsaSpec) and spec_loader_checks.cpp (the consistency checks: operand ranges, expressions,
// bundle rules, unique names, and the examples assembled and disassembled against the whole spec).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <yaml-cpp/yaml.h>

#include "isa/common/assembler.h"
#include "isa/common/diagnostics.h"
#include "isa/common/isa_spec.h"
#include "isa/tools/spec_loader.h"

namespace kcraft::isa::gen::loader_detail {

bool is_identifier(std::string_view s);

// lower_snake_case: how the tools print machine constants ("vsram_out_of_range").
bool is_lower_snake(std::string_view s);

bool is_mnemonic(std::string_view s);

// Integers as written in the YAML: decimal, 0x hex or 0b binary, optionally negative.
std::optional<int64_t> parse_integer(std::string_view text);

// map[key] when `map` is a mapping that has `key`, otherwise an undefined node. yaml-cpp's const
// operator[] returns an *invalid* node for a missing key, and asking that node its type (IsMap(),
// IsSequence(), ...) throws InvalidNode, so every lookup goes through here.
YAML::Node child(const YAML::Node& map, const std::string& key);

// v as 0x.. with at least two hex digits.
std::string hex(int64_t v);

class Loader {
 public:
  explicit Loader(std::string filename);

  SpecLoadResult load(const YAML::Node& root);

  void error_at_mark(const YAML::Mark& mark, std::string_view context, std::string_view field,
                     const std::string& message);

  SpecLoadResult finish();

 private:
  // Reports at `node`, or at `parent` when `node` is missing.
  void error(const YAML::Node& node, const YAML::Node& parent, std::string_view context,
             std::string_view field, const std::string& message);

  void check_keys(const YAML::Node& map, const std::vector<std::string>& allowed, std::string_view context);

  std::optional<std::string> get_string(const YAML::Node& map, const std::string& key,
                                        std::string_view context, bool required);

  std::optional<int64_t> get_int(const YAML::Node& map, const std::string& key, std::string_view context,
                                 bool required);

  // ------------------------------------------------------------------ sections
  void load_header(const YAML::Node& root);

  void load_registers(const YAML::Node& root);

  void load_fields(const YAML::Node& root);

  void load_formats(const YAML::Node& root);

  void load_units(const YAML::Node& root);

  void load_parameters(const YAML::Node& root);

  void load_memories(const YAML::Node& root);

  bool has_instruction(const std::string& name) const;

  std::vector<std::string> field_names() const;
  static std::string prefix_space(const std::string& s);

  std::vector<std::string> kind_names(bool pseudo) const;

  // Operands of an instruction (format != nullptr) or of a pseudo-instruction.
  std::vector<OperandSpec> load_operands(const YAML::Node& parent, const std::string& context,
                                         const FormatSpec* format);

  void check_operand_range(const YAML::Node& node, const std::string& context, const std::string& where,
                           OperandSpec& op);

  void load_instructions(const YAML::Node& root);

  // memory: {reads: [access...], writes: [access...]}, both optional; an access is
  // {space, first, rows, stride, size, busy} (MemoryAccess), its expressions over the instruction's operands
  // and the parameters, like latency.
  void load_memory_accesses(const YAML::Node& node, const std::string& context, InstructionSpec& insn,
                            const std::vector<std::string>& parameters);

  std::vector<MemoryAccess> load_access_list(const YAML::Node& memory, const std::string& key,
                                             const std::string& context, const InstructionSpec& insn,
                                             const std::vector<std::string>& parameters,
                                             MemoryBusy default_busy);

  MemoryAccess load_access(const YAML::Node& node, const std::string& context, const std::string& where,
                           const InstructionSpec& insn, const std::vector<std::string>& parameters,
                           MemoryBusy default_busy);

  // The `space` of a memory range: one of `memories:`.
  std::string load_memory_space(const YAML::Node& node, const std::string& context, const std::string& where);

  // The `busy` of a memory range; nullopt when not stated (or wrong: reported).
  std::optional<MemoryBusy> load_busy(const YAML::Node& node, const std::string& context,
                                      const std::string& where);

  // An expression over the hardware parameters and the instruction's operands: latency, occupancy and the
  // formulas of its memory ranges.
  void check_expression(const YAML::Node& node, const std::string& context, const std::string& key,
                        const std::string& text, const InstructionSpec& insn,
                        const std::vector<std::string>& parameters);

  void load_pseudos(const YAML::Node& root);

  // ------------------------------------------------------------------ bundles (VLIW ISAs)
  // bundle: {end_bit, description, max_latency, exposed: [classes], kinds: {kind: {noun, description}},
  //          slots: [{name, kind}]}
  void load_bundle(const YAML::Node& root);

  void check_end_field_unused(const YAML::Node& node, const std::string& field);

  // `slot:` is required in a VLIW ISA and meaningless elsewhere.
  void load_slot(const YAML::Node& node, const std::string& context, InstructionSpec& insn);

  // In a VLIW ISA the latency is a number of bundles (the exposed pipeline's timing, which the assembler's
  // hazard check and the functional model read), and only results in exposed register classes may take
  // longer than the next bundle.
  void check_bundle_latency(const YAML::Node& node, const std::string& context, const InstructionSpec& insn);

  // ------------------------------------------------------------------ machine-level constants
  // `name` (lower_snake) and `symbol` (UPPER_SNAKE, default: the name in upper case) of one entry.
  void load_names(const YAML::Node& node, const std::string& context, std::string* name, std::string* symbol);

  // The context of list entry `index` of a section: "error vsram_out_of_range" or "errors[3]".
  static std::string entry_context(const YAML::Node& node, const std::string& section,
                                   const std::string& noun, size_t index);

  // Reports a name or symbol already used in this section (`seen` maps it to the first entry's name).
  // Returns false after reporting a duplicate.
  bool check_unique(const YAML::Node& node, const std::string& context, const std::string& key,
                    const std::string& value, const std::string& owner,
                    std::map<std::string, std::string>* seen);

  // A section {bits, notes, list: [{name, symbol, code, description, counter}]}: errors or stall causes.
  void load_machine_codes(const YAML::Node& root, const std::string& section, const std::string& noun,
                          MachineCodeSet* out);

  // counters: {notes, list: [{name, symbol, index, architectural, description}]}, indices 0..N-1.
  void load_counters(const YAML::Node& root);

  void load_assembler(const YAML::Node& root);

  void load_example_programs(const YAML::Node& root);

  void check_example_programs();

  // ------------------------------------------------------------------ examples (needs the whole spec)
  void report_assembly(const YAML::Node& node, const std::string& context, const std::string& field,
                       const std::string& what, const AssembleResult& result);

  void check_examples();

  static std::string example_operand(const std::string& example, size_t index);

  void check_pseudo(const PseudoSpec& p, const YAML::Node& node);

  std::string file_;
  std::vector<std::string> errors_;
  IsaSpec spec_;
  std::vector<YAML::Node> example_nodes_;  // per instruction
  std::vector<YAML::Node> pseudo_nodes_;   // per pseudo-instruction
  std::vector<std::pair<size_t, YAML::Node>> form_nodes_;
  std::vector<YAML::Node> program_nodes_;  // per example program
};

}  // namespace kcraft::isa::gen::loader_detail
