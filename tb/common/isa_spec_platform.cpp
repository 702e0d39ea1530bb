#include "tb/common/isa_spec_platform.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>

#include "isa/common/assembler.h"
#include "isa/common/disassembler.h"
#include "tb/common/paths.h"

namespace kcraft::tb {

IsaSpecPlatform::IsaSpecPlatform(std::string name, const isa::IsaSpec& spec, std::string markdown)
    : name_(std::move(name)),
      spec_(spec),
      markdown_(std::move(markdown)),
      configs_(load_hw_configs(hw_config_dir(name_))) {
  if (configs_.empty()) {
    throw ConfigError(fmt::format("{}: no hardware configurations found", hw_config_dir(name_).string()));
  }
}

std::vector<HwParameter> IsaSpecPlatform::hw_parameters(const std::string& hw) const {
  const HwConfig& c = hw_config(hw);
  auto description = [&](const std::string& name) {
    for (const auto& p : spec_.parameters) {
      if (p.name == name) return p.description;
    }
    return std::string();
  };
  std::vector<HwParameter> rows;
  for (const auto& [key, value] : c.build) {
    rows.push_back({key, std::to_string(value), "", description(key), HwParameter::Kind::kBuild});
  }
  rows.push_back({"DRAM_LATENCY", fmt::format("{}", c.runtime_param("dram_latency_cycles")), "cycles",
                  description("DRAM_LATENCY"), HwParameter::Kind::kRuntime});
  rows.push_back({"DRAM_BYTES_PER_CYCLE", fmt::format("{}", c.runtime_param("dram_bytes_per_cycle")), "",
                  description("DRAM_BYTES_PER_CYCLE"), HwParameter::Kind::kRuntime});
  return rows;
}

std::vector<KernelLanguage> IsaSpecPlatform::languages() const {
  std::string description = name_ + " assembly (the ISA reference)";
  if (!spec_.halt_mnemonic.empty()) description += "; a kernel ends with " + spec_.halt_mnemonic;
  return {KernelLanguage{"asm", {".s", ".S"}, description}};
}

std::vector<std::string> IsaSpecPlatform::instruction_names() const {
  std::vector<std::string> names;
  for (const auto& insn : spec_.instructions) names.push_back(insn.name);
  return names;
}

isa::AssembleResult IsaSpecPlatform::assemble(const std::string& source, const std::string& filename,
                                              const isa::SymbolTable& symbols) const {
  return isa::assemble(spec_, source, filename, symbols);
}

std::string IsaSpecPlatform::disassemble(const std::vector<uint32_t>& words) const {
  return isa::disassemble_program(spec_, words, {true});
}

namespace {

// What holds the instructions that depend on or conflict with `insn`, by the ISA's kind.
std::string hazard_rule(const isa::IsaSpec& spec, const isa::InstructionSpec& insn) {
  std::vector<std::string> exposed, next;
  for (size_t i = 0; i < insn.operands.size(); ++i) {
    const isa::OperandSpec& op = insn.operands[i];
    if (op.kind != isa::OperandKind::kRegister || op.access == isa::Access::kRead) continue;
    const isa::RegisterClass& rc = spec.register_classes[static_cast<size_t>(op.register_class)];
    (spec.bundle.is_exposed(rc.name) ? exposed : next).push_back(op.name);
  }
  if (!spec.bundle.present()) {
    return "interlocked: an instruction that reads what this one writes waits at issue until its latency has "
           "passed, and one for the same unit until its occupancy has; a waiting instruction holds every "
           "instruction behind it";
  }
  std::string text;
  if (!exposed.empty()) {
    text = fmt::format(
        "no interlock: {} lands `latency` bundles after issue, and the bundles in between read the old value "
        "(kcraft check warns; `.reads_old` marks an intended read); a later write of the same register must "
        "not land before it",
        fmt::join(exposed, ", "));
  }
  if (!next.empty()) {
    if (!text.empty()) text += "; ";
    text += fmt::format("{} is visible to the next bundle", fmt::join(next, ", "));
  }
  return text.empty() ? "writes no register: no result hazard" : text;
}

std::vector<MemoryRange> memory_ranges(const std::vector<isa::MemoryAccess>& accesses,
                                       const isa::SymbolTable& symbols) {
  std::vector<MemoryRange> ranges;
  for (const isa::MemoryAccess& a : accesses) {
    ranges.push_back({a.space, a.first, a.rows, a.stride, a.size, std::string(isa::busy_name(a.busy)),
                      formula_value(a.rows, symbols), formula_value(a.size, symbols)});
  }
  return ranges;
}

// How to read reads_memory and writes_memory; the ISA's own timing rules say which of its units keep
// which accesses in order.
constexpr const char* kMemoryRangesRule =
    "reads_memory and writes_memory list the memory an instruction reads and writes besides its registers: "
    "`rows` rows of `size` address units of `space` (one of the reference's memories), the first at "
    "address `first` and each next one `stride` units further, as formulas over the instruction's operands "
    "(a register operand stands for the register's value) and the hardware parameters. Two instructions "
    "conflict when one writes an address the other reads or writes; instructions with no conflicting "
    "memory or register access give the same results in either order. `busy` is how long an access holds a "
    "later, conflicting instruction at issue: `latency` until the earlier instruction's latency has passed, "
    "`occupancy` while it holds its unit (a DMA command: its slot), `none` never (its unit or memory keeps "
    "such accesses in program order by itself).";

}  // namespace

SchedulingTable IsaSpecPlatform::scheduling_table(const std::string& hw) const {
  const isa::SymbolTable symbols = this->symbols(hw);
  SchedulingTable t;
  t.platform = name_;
  t.hw = hw_config(hw).name;
  t.time_unit = spec_.bundle.present() ? "bundles" : "cycles";
  t.issue = spec_.timing;
  for (const isa::UnitSpec& u : spec_.units) {
    t.units.emplace_back(u.name, u.description);
    if (!u.notes.empty()) t.rules.emplace_back(u.name + " unit", u.notes);
  }
  if (spec_.bundle.present()) t.rules.emplace_back("Bundles", spec_.bundle.description);
  for (const isa::TimingRule& r : spec_.timing_rules) t.rules.emplace_back(r.title, r.text);
  const bool memory = spec_.describes_memory();
  if (memory) t.rules.emplace_back("Memory ranges", kMemoryRangesRule);
  for (const isa::InstructionSpec& insn : spec_.instructions) {
    // An optional instruction that this hardware lacks (its parameter is 0) is not in its table: there it
    // is an illegal instruction.
    if (!insn.enabled_by.empty()) {
      const auto enabled = symbols.find(insn.enabled_by);
      if (enabled != symbols.end() && enabled->second == 0) continue;
    }
    InstructionTiming row;
    row.name = insn.name;
    row.syntax = isa::syntax_of(insn);
    row.unit = insn.unit;
    row.slot = insn.slot;
    row.latency = insn.latency;
    // The issue stage takes one instruction (bundle) per cycle: an instruction whose YAML states no
    // occupancy holds its unit for its issue cycle alone.
    row.occupancy = insn.occupancy.empty() ? "1" : insn.occupancy;
    row.latency_value = formula_value(row.latency, symbols);
    row.occupancy_value = formula_value(row.occupancy, symbols);
    for (const isa::OperandSpec& op : insn.operands) {
      if (op.kind != isa::OperandKind::kRegister) continue;
      if (op.access != isa::Access::kWrite) row.reads.push_back(op.name);
      if (op.access != isa::Access::kRead) row.writes.push_back(op.name);
    }
    if (memory) {
      row.reads_memory = memory_ranges(insn.memory_reads, symbols);
      row.writes_memory = memory_ranges(insn.memory_writes, symbols);
    }
    row.hazards = hazard_rule(spec_, insn);
    t.instructions.push_back(std::move(row));
  }
  return t;
}

namespace {

std::string df_trim(const std::string& text) {
  const size_t b = text.find_first_not_of(" \t");
  if (b == std::string::npos) return "";
  const size_t e = text.find_last_not_of(" \t");
  return text.substr(b, e - b + 1);
}

std::vector<std::string> df_split(const std::string& text, char separator) {
  std::vector<std::string> parts;
  size_t pos = 0;
  while (pos <= text.size()) {
    const size_t next = std::min(text.find(separator, pos), text.size());
    std::string part = df_trim(text.substr(pos, next - pos));
    if (!part.empty()) parts.push_back(std::move(part));
    pos = next + 1;
  }
  return parts;
}

// One op of the spec's ISA from its disassembly ("V_MUL_VF r3, r1, f2, 4").
DataflowOp op_dataflow(const isa::IsaSpec& spec, const std::string& text) {
  DataflowOp op;
  const size_t space = text.find_first_of(" \t");
  op.mnemonic = text.substr(0, space);
  const isa::InstructionSpec* insn = spec.find_instruction(op.mnemonic);
  if (insn == nullptr) return op;
  op.unit = insn->unit;
  const auto values = df_split(space == std::string::npos ? "" : text.substr(space), ',');
  // Operand names (and field names) to their text in this instruction; registers are places.
  std::vector<std::pair<std::string, std::string>> names;
  std::vector<std::string> registers;
  for (size_t i = 0; i < insn->operands.size(); ++i) {
    const auto& operand = insn->operands[i];
    std::string value = i < values.size()       ? values[i]
                        : operand.default_value ? std::to_string(*operand.default_value)
                                                : std::string("?");
    names.emplace_back(operand.name, value);
    if (!operand.field_name.empty()) names.emplace_back(operand.field_name, value);
    if (operand.kind != isa::OperandKind::kRegister) continue;
    registers.push_back(value);
    if (operand.access != isa::Access::kWrite) op.reads.push_back({value, ""});
    if (operand.access != isa::Access::kRead) op.writes.push_back({value, ""});
  }
  // A memory range of one row by an address expression: "SPACE[r1+4]", based on the register in it.
  auto place = [&](const isa::MemoryAccess& access) {
    if (df_trim(access.rows) != "1") return DataflowPlace{access.space + "[*]", ""};
    std::string address, base;
    size_t pos = 0;
    const std::string& e = access.first;
    while (pos < e.size()) {
      if (std::isalpha(static_cast<unsigned char>(e[pos])) || e[pos] == '_') {
        size_t end = pos;
        while (end < e.size() && (std::isalnum(static_cast<unsigned char>(e[end])) || e[end] == '_')) ++end;
        const std::string id = e.substr(pos, end - pos);
        auto it = std::find_if(names.begin(), names.end(), [&](const auto& n) { return n.first == id; });
        if (it == names.end()) return DataflowPlace{access.space + "[*]", ""};  // a parameter: not a row
        if (std::find(registers.begin(), registers.end(), it->second) != registers.end()) base = it->second;
        address += it->second;
        pos = end;
      } else {
        if (e[pos] != ' ') address += e[pos];
        ++pos;
      }
    }
    return DataflowPlace{access.space + "[" + address + "]", base};
  };
  for (const auto& access : insn->memory_reads) op.reads.push_back(place(access));
  for (const auto& access : insn->memory_writes) op.writes.push_back(place(access));
  return op;
}

}  // namespace

std::vector<DataflowOp> IsaSpecPlatform::dataflow(const std::string& instruction_text) const {
  std::string text = df_trim(instruction_text);
  if (!text.empty() && text.front() == '{') text = text.substr(1);
  if (!text.empty() && text.back() == '}') text.pop_back();
  std::vector<DataflowOp> ops;
  for (const auto& part : df_split(text, ';')) ops.push_back(op_dataflow(spec_, part));
  return ops;
}

}  // namespace kcraft::tb
