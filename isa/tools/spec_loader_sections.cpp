#include "isa/tools/spec_loader_internal.h"

#include <algorithm>
#include <map>
#include <set>

#include <fmt/format.h>

#include "isa/common/assembler.h"
#include "isa/common/diagnostics.h"
#include "isa/common/disassembler.h"
#include "isa/common/expression.h"

namespace kcraft::isa::gen::loader_detail {

// Reading the ISA YAML (spec_loader_internal.h): each section into the IsaSpec, field by field, every
// problem reported at its node.

void Loader::load_header(const YAML::Node& root) {
  if (auto name = get_string(root, "isa", "top level", true)) {
    if (!is_identifier(*name)) {
      error(child(root, "isa"), root, "top level", "isa",
            fmt::format("'{}' is not a valid identifier", *name));
    }
    spec_.name = *name;
  }
  if (auto version = get_int(root, "version", "top level", true)) spec_.version = static_cast<int>(*version);
  if (auto bits = get_int(root, "word_bits", "top level", true)) {
    if (*bits != 32) {
      error(child(root, "word_bits"), root, "top level", "word_bits",
            fmt::format("{}-bit words are not supported; the tools handle 32-bit instruction words", *bits));
    }
    spec_.word_bits = 32;
  }
  spec_.summary = get_string(root, "summary", "top level", true).value_or("");
  spec_.timing = get_string(root, "timing", "top level", false).value_or("");
  const YAML::Node rules = child(root, "timing_model");
  if (rules.IsDefined()) {
    if (!rules.IsSequence()) {
      error(rules, root, "top level", "timing_model", "expected a list of {title, text} rules");
    } else {
      for (size_t i = 0; i < rules.size(); ++i) {
        const std::string context = fmt::format("timing_model[{}]", i);
        if (!rules[i].IsMap()) {
          error(rules[i], rules, context, "", "expected a mapping with title and text");
          continue;
        }
        check_keys(rules[i], {"title", "text"}, context);
        spec_.timing_rules.push_back(TimingRule{get_string(rules[i], "title", context, true).value_or(""),
                                                get_string(rules[i], "text", context, true).value_or("")});
      }
    }
  }
}

void Loader::load_registers(const YAML::Node& root) {
  const YAML::Node list = child(root, "registers");
  if (!list.IsSequence()) {
    error(list, root, "top level", "registers", "expected a list of register classes");
    return;
  }
  for (const YAML::Node& node : list) {
    RegisterClass rc;
    const std::string context = fmt::format(
        "register class {}", child(node, "class").IsScalar() ? child(node, "class").Scalar() : "?");
    if (!node.IsMap()) {
      error(node, list, "registers", "", "expected a mapping");
      continue;
    }
    check_keys(node, {"class", "prefix", "count", "width", "hardwired", "noun", "description"}, context);
    rc.name = get_string(node, "class", context, true).value_or("");
    if (!rc.name.empty() && !is_identifier(rc.name)) {
      error(child(node, "class"), node, context, "class", "not a valid identifier");
    }
    if (spec_.find_register_class(rc.name) >= 0) {
      error(child(node, "class"), node, context, "class",
            fmt::format("duplicate register class '{}'", rc.name));
    }
    rc.prefix = get_string(node, "prefix", context, true).value_or("");
    if (!rc.prefix.empty() && !std::all_of(rc.prefix.begin(), rc.prefix.end(), [](char c) {
          return std::isalpha(static_cast<unsigned char>(c));
        })) {
      error(child(node, "prefix"), node, context, "prefix", "a register prefix is made of letters");
    }
    for (const RegisterClass& other : spec_.register_classes) {
      if (to_upper(other.prefix) == to_upper(rc.prefix)) {
        error(child(node, "prefix"), node, context, "prefix",
              fmt::format("prefix '{}' is already used by register class {}", rc.prefix, other.name));
      }
    }
    const auto count = get_int(node, "count", context, true);
    if (count && (*count < 1 || *count > 1024))
      error(child(node, "count"), node, context, "count", "must be 1..1024");
    rc.count = static_cast<unsigned>(count.value_or(1));
    const auto width = get_int(node, "width", context, true);
    if (width && (*width < 1 || *width > 64))
      error(child(node, "width"), node, context, "width", "must be 1..64");
    rc.width = static_cast<unsigned>(width.value_or(32));
    rc.noun = get_string(node, "noun", context, false).value_or(rc.name + " register");
    rc.description = get_string(node, "description", context, true).value_or("");
    const YAML::Node hardwired = child(node, "hardwired");
    if (hardwired.IsDefined() && !hardwired.IsNull()) {
      if (!hardwired.IsMap()) {
        error(hardwired, node, context, "hardwired", "expected a mapping register: value");
      } else {
        for (const auto& kv : hardwired) {
          const std::string reg = kv.first.Scalar();
          const auto number = to_upper(reg.substr(0, rc.prefix.size())) == to_upper(rc.prefix)
                                  ? parse_integer(reg.substr(rc.prefix.size()))
                                  : std::nullopt;
          if (!number || *number < 0 || *number >= static_cast<int64_t>(rc.count)) {
            error(kv.first, hardwired, context, "hardwired",
                  fmt::format("'{}' is not a register of this class ({}0..{}{})", reg, rc.prefix, rc.prefix,
                              rc.count - 1));
            continue;
          }
          rc.hardwired.emplace_back(static_cast<unsigned>(*number), kv.second.Scalar());
        }
      }
    }
    spec_.register_classes.push_back(std::move(rc));
  }
}

void Loader::load_fields(const YAML::Node& root) {
  const YAML::Node map = child(root, "fields");
  if (!map.IsMap()) {
    error(map, root, "top level", "fields", "expected a mapping name: {lsb, width}");
    return;
  }
  for (const auto& kv : map) {
    const std::string name = kv.first.Scalar();
    const std::string context = fmt::format("field {}", name);
    const YAML::Node node = kv.second;
    if (!is_identifier(name)) error(kv.first, map, context, "", "not a valid identifier");
    if (spec_.find_field(name) != nullptr) error(kv.first, map, context, "", "duplicate field");
    if (!node.IsMap()) {
      error(node, map, context, "", "expected {lsb, width}");
      continue;
    }
    check_keys(node, {"lsb", "width"}, context);
    const auto lsb = get_int(node, "lsb", context, true);
    const auto width = get_int(node, "width", context, true);
    if (!lsb || !width) continue;
    if (*lsb < 0) error(child(node, "lsb"), node, context, "lsb", "must not be negative");
    if (*width < 1) error(child(node, "width"), node, context, "width", "must be at least 1");
    if (*lsb >= 0 && *width >= 1 && *lsb + *width > static_cast<int64_t>(spec_.word_bits)) {
      error(child(node, "width"), node, context, "width",
            fmt::format("bits {}..{} do not fit the {}-bit word", *lsb, *lsb + *width - 1, spec_.word_bits));
    }
    spec_.fields.push_back(
        NamedField{name, Field{static_cast<unsigned>(std::max<int64_t>(*lsb, 0)),
                               static_cast<unsigned>(std::clamp<int64_t>(*width, 0, 32))}});
  }
  if (const NamedField* opcode = spec_.find_field("opcode")) {
    spec_.opcode_field = opcode->field;
    if (opcode->field.width > 16) {
      error(child(map, "opcode"), map, "field opcode", "width",
            "the opcode field may be at most 16 bits wide");
    }
  } else {
    error(map, root, "top level", "fields", "there must be a field named 'opcode'");
  }
}

void Loader::load_formats(const YAML::Node& root) {
  const YAML::Node map = child(root, "formats");
  if (!map.IsMap()) {
    error(map, root, "top level", "formats", "expected a mapping name: {fields, description}");
    return;
  }
  for (const auto& kv : map) {
    FormatSpec format;
    format.name = kv.first.Scalar();
    const std::string context = fmt::format("format {}", format.name);
    const YAML::Node node = kv.second;
    if (!node.IsMap()) {
      error(node, map, context, "", "expected {fields, description}");
      continue;
    }
    check_keys(node, {"fields", "description"}, context);
    format.description = get_string(node, "description", context, true).value_or("");
    const YAML::Node fields = child(node, "fields");
    if (!fields.IsSequence()) {
      error(fields, node, context, "fields", "expected a list of field names");
      continue;
    }
    for (const YAML::Node& f : fields) {
      const std::string name = f.Scalar();
      const NamedField* field = spec_.find_field(name);
      if (field == nullptr) {
        error(f, fields, context, "fields",
              fmt::format("unknown field '{}'{}", name,
                          prefix_space(did_you_mean(closest_matches(name, field_names())))));
        continue;
      }
      if (std::find(format.fields.begin(), format.fields.end(), name) != format.fields.end()) {
        error(f, fields, context, "fields", fmt::format("field '{}' is listed twice", name));
        continue;
      }
      for (const std::string& other : format.fields) {
        const Field o = spec_.find_field(other)->field;
        if ((field_mask(o) & field_mask(field->field)) != 0) {
          error(f, fields, context, "fields",
                fmt::format("field '{}' (bits {}..{}) overlaps field '{}' (bits {}..{})", name,
                            field->field.lsb, field->field.lsb + field->field.width - 1, other, o.lsb,
                            o.lsb + o.width - 1));
        }
      }
      format.fields.push_back(name);
    }
    if (std::find(format.fields.begin(), format.fields.end(), "opcode") == format.fields.end()) {
      error(fields, node, context, "fields", "every format must contain the 'opcode' field");
    }
    spec_.formats.push_back(std::move(format));
  }
}

void Loader::load_units(const YAML::Node& root) {
  const YAML::Node map = child(root, "units");
  if (!map.IsMap()) {
    error(map, root, "top level", "units", "expected a mapping unit: description");
    return;
  }
  for (const auto& kv : map) {
    UnitSpec unit;
    unit.name = kv.first.Scalar();
    const std::string context = fmt::format("unit {}", unit.name);
    if (kv.second.IsScalar()) {
      unit.description = kv.second.Scalar();
    } else if (kv.second.IsMap()) {
      check_keys(kv.second, {"description", "notes"}, context);
      unit.description = get_string(kv.second, "description", context, true).value_or("");
      unit.notes = get_string(kv.second, "notes", context, false).value_or("");
    } else {
      error(kv.second, map, context, "", "expected a description or {description, notes}");
    }
    spec_.units.push_back(std::move(unit));
  }
}

void Loader::load_parameters(const YAML::Node& root) {
  const YAML::Node map = child(root, "parameters");
  if (!map.IsDefined()) return;
  if (!map.IsMap()) {
    error(map, root, "top level", "parameters", "expected a mapping NAME: description");
    return;
  }
  for (const auto& kv : map) {
    const std::string name = kv.first.Scalar();
    if (!is_identifier(name)) error(kv.first, map, "parameter " + name, "", "not a valid identifier");
    if (!kv.second.IsScalar()) error(kv.second, map, "parameter " + name, "", "expected a description");
    spec_.parameters.push_back(ParameterSpec{name, kv.second.IsScalar() ? kv.second.Scalar() : ""});
  }
}

void Loader::load_memories(const YAML::Node& root) {
  const YAML::Node list = child(root, "memories");
  if (!list.IsDefined()) return;
  if (!list.IsSequence()) {
    error(list, root, "top level", "memories", "expected a list of {name, size, word, description}");
    return;
  }
  for (const YAML::Node& node : list) {
    const std::string context = fmt::format(
        "memory {}", node.IsMap() && child(node, "name").IsScalar() ? child(node, "name").Scalar() : "?");
    if (!node.IsMap()) {
      error(node, list, "memories", "", "expected a mapping");
      continue;
    }
    check_keys(node, {"name", "size", "word", "description"}, context);
    MemorySpec m;
    m.name = get_string(node, "name", context, true).value_or("");
    m.size = get_string(node, "size", context, true).value_or("");
    m.word = get_string(node, "word", context, true).value_or("");
    m.description = get_string(node, "description", context, true).value_or("");
    spec_.memories.push_back(std::move(m));
  }
}

bool Loader::has_instruction(const std::string& name) const {
  return std::any_of(spec_.instructions.begin(), spec_.instructions.end(),
                     [&](const InstructionSpec& insn) { return to_upper(insn.name) == to_upper(name); });
}

std::vector<std::string> Loader::field_names() const {
  std::vector<std::string> names;
  for (const NamedField& f : spec_.fields) names.push_back(f.name);
  return names;
}

std::string Loader::prefix_space(const std::string& s) {
  return s.empty() ? s : "; " + s;
}

std::vector<std::string> Loader::kind_names(bool pseudo) const {
  std::vector<std::string> kinds;
  for (const RegisterClass& rc : spec_.register_classes) kinds.push_back(rc.name);
  if (pseudo) {
    kinds.insert(kinds.end(), {"int32", "fp32"});
  } else {
    kinds.insert(kinds.end(), {"uimm", "simm", "body"});
  }
  return kinds;
}

std::vector<OperandSpec> Loader::load_operands(const YAML::Node& parent, const std::string& context,
                                               const FormatSpec* format) {
  std::vector<OperandSpec> operands;
  const YAML::Node list = child(parent, "operands");
  if (!list.IsSequence()) {
    error(list, parent, context, "operands", "expected a list (use [] for none)");
    return operands;
  }
  std::set<std::string> used_fields;
  std::set<std::string> names;
  bool seen_default = false;
  for (size_t i = 0; i < list.size(); ++i) {
    const YAML::Node node = list[i];
    const std::string where = fmt::format("operands[{}]", i);
    if (!node.IsMap()) {
      error(node, list, context, where, "expected a mapping {field, kind, ...}");
      continue;
    }
    OperandSpec op;
    check_keys(node,
               format != nullptr ? std::vector<std::string>{"field", "kind", "name", "min", "max", "default",
                                                            "access", "display"}
                                 : std::vector<std::string>{"name", "kind", "access"},
               context + ", " + where);
    // kind
    const std::string kind = get_string(node, "kind", context, true).value_or("");
    if (const int rc = spec_.find_register_class(kind); rc >= 0) {
      op.kind = OperandKind::kRegister;
      op.register_class = rc;
    } else if (format != nullptr && kind == "uimm") {
      op.kind = OperandKind::kUimm;
    } else if (format != nullptr && kind == "simm") {
      op.kind = OperandKind::kSimm;
    } else if (format != nullptr && kind == "body") {
      op.kind = OperandKind::kBody;
    } else if (format == nullptr && kind == "int32") {
      op.kind = OperandKind::kInt32;
    } else if (format == nullptr && kind == "fp32") {
      op.kind = OperandKind::kFp32;
    } else if (!kind.empty()) {
      error(child(node, "kind"), node, context, where + ".kind",
            fmt::format("unknown kind '{}' (expected one of {})", kind,
                        fmt::join(kind_names(format == nullptr), ", ")));
      continue;
    } else {
      continue;
    }
    // field
    if (format != nullptr) {
      op.field_name = get_string(node, "field", context, true).value_or("");
      if (op.field_name.empty()) continue;
      if (std::find(format->fields.begin(), format->fields.end(), op.field_name) == format->fields.end() ||
          op.field_name == "opcode") {
        std::vector<std::string> usable;
        for (const std::string& f : format->fields) {
          if (f != "opcode") usable.push_back(f);
        }
        error(child(node, "field"), node, context, where + ".field",
              fmt::format("'{}' is not an operand field of format {} (its fields: {})", op.field_name,
                          format->name, fmt::join(usable, ", ")));
        continue;
      }
      if (!used_fields.insert(op.field_name).second) {
        error(child(node, "field"), node, context, where + ".field",
              fmt::format("field '{}' is used by two operands", op.field_name));
      }
      op.field = spec_.find_field(op.field_name)->field;
    }
    op.name = get_string(node, "name", context, format == nullptr).value_or(op.field_name);
    if (!op.name.empty() && !is_identifier(op.name)) {
      error(child(node, "name"), node, context, where + ".name",
            fmt::format("'{}' is not a valid identifier", op.name));
    }
    if (!names.insert(op.name).second) {
      error(child(node, "name").IsDefined() ? child(node, "name") : node, node, context, where + ".name",
            fmt::format("two operands are named '{}'", op.name));
    }
    // access / display
    if (auto access = get_string(node, "access", context, false)) {
      if (*access == "read") {
        op.access = Access::kRead;
      } else if (*access == "write") {
        op.access = Access::kWrite;
      } else if (*access == "readwrite") {
        op.access = Access::kReadWrite;
      } else {
        error(child(node, "access"), node, context, where + ".access",
              fmt::format("unknown access '{}' (expected read, write or readwrite)", *access));
      }
      if (op.kind != OperandKind::kRegister) {
        error(child(node, "access"), node, context, where + ".access",
              "only register operands have an access");
      }
    }
    if (auto display = get_string(node, "display", context, false)) {
      if (*display == "hex") {
        op.display = Display::kHex;
      } else if (*display != "dec") {
        error(child(node, "display"), node, context, where + ".display",
              fmt::format("unknown display '{}' (expected dec or hex)", *display));
      }
      if (op.kind != OperandKind::kUimm && op.kind != OperandKind::kSimm) {
        error(child(node, "display"), node, context, where + ".display",
              "only immediates have a display format");
      }
    }
    check_operand_range(node, context, where, op);
    if (op.default_value) {
      seen_default = true;
    } else if (seen_default) {
      error(node, list, context, where,
            fmt::format(
                "operand '{}' has no default but an earlier operand has one; only trailing operands may "
                "be omitted",
                op.name));
    }
    operands.push_back(std::move(op));
  }
  return operands;
}

void Loader::load_instructions(const YAML::Node& root) {
  const YAML::Node list = child(root, "instructions");
  if (!list.IsSequence()) {
    error(list, root, "top level", "instructions", "expected a list of instructions");
    return;
  }
  std::map<int64_t, std::string> opcodes;
  const std::vector<std::string> parameters = [&] {
    std::vector<std::string> names;
    for (const ParameterSpec& p : spec_.parameters) names.push_back(p.name);
    return names;
  }();
  for (size_t index = 0; index < list.size(); ++index) {
    const YAML::Node node = list[index];
    if (!node.IsMap()) {
      error(node, list, fmt::format("instructions[{}]", index), "", "expected a mapping");
      continue;
    }
    InstructionSpec insn;
    insn.name = child(node, "name").IsScalar() ? child(node, "name").Scalar() : "";
    const std::string context =
        insn.name.empty() ? fmt::format("instructions[{}]", index) : fmt::format("instruction {}", insn.name);
    check_keys(node,
               {"name", "opcode", "unit", "format", "operands", "semantics", "latency", "occupancy",
                "example", "slot", "memory", "enabled_by"},
               context);
    if (insn.name.empty()) {
      error(child(node, "name"), node, context, "name", "missing");
    } else if (!is_mnemonic(insn.name)) {
      error(child(node, "name"), node, context, "name", "a mnemonic is upper case letters, digits and '_'");
    } else if (has_instruction(insn.name)) {
      error(child(node, "name"), node, context, "name", fmt::format("duplicate instruction {}", insn.name));
    }
    // opcode
    const unsigned opcode_width = spec_.opcode_field.width;
    if (const auto opcode = get_int(node, "opcode", context, true)) {
      const int64_t limit = int64_t{1} << opcode_width;
      if (*opcode < 0 || *opcode >= limit) {
        error(child(node, "opcode"), node, context, "opcode",
              fmt::format("opcode {} does not fit the {}-bit opcode field (0x01..{})", hex(*opcode),
                          opcode_width, hex(limit - 1)));
      } else if (*opcode == 0) {
        error(child(node, "opcode"), node, context, "opcode",
              "opcode 0 is reserved so that an all-zero word is illegal");
      } else if (auto it = opcodes.find(*opcode); it != opcodes.end()) {
        error(child(node, "opcode"), node, context, "opcode",
              fmt::format("duplicate opcode {} (also used by {})", hex(*opcode), it->second));
      } else {
        opcodes.emplace(*opcode, insn.name);
      }
      insn.opcode = static_cast<uint32_t>(*opcode);
    }
    // unit, format
    insn.unit = get_string(node, "unit", context, true).value_or("");
    if (!insn.unit.empty() && std::none_of(spec_.units.begin(), spec_.units.end(),
                                           [&](const UnitSpec& u) { return u.name == insn.unit; })) {
      std::vector<std::string> units;
      for (const UnitSpec& u : spec_.units) units.push_back(u.name);
      error(child(node, "unit"), node, context, "unit",
            fmt::format("unknown unit '{}' (units: {})", insn.unit, fmt::join(units, ", ")));
    }
    insn.format = get_string(node, "format", context, true).value_or("");
    const FormatSpec* format = nullptr;
    for (const FormatSpec& f : spec_.formats) {
      if (f.name == insn.format) format = &f;
    }
    if (format == nullptr && !insn.format.empty()) {
      std::vector<std::string> formats;
      for (const FormatSpec& f : spec_.formats) formats.push_back(f.name);
      error(child(node, "format"), node, context, "format",
            fmt::format("unknown format '{}' (formats: {})", insn.format, fmt::join(formats, ", ")));
    }
    if (format != nullptr) insn.operands = load_operands(node, context, format);
    // Reserved bits: everything but the opcode, the fields this instruction's operands use and, in a
    // VLIW ISA, the end-of-bundle flag.
    uint32_t used = field_mask(spec_.opcode_field);
    for (const OperandSpec& op : insn.operands) used |= field_mask(op.field);
    if (spec_.bundle.present()) used |= field_mask(spec_.bundle.end_field);
    insn.reserved_mask = ~used;
    load_slot(node, context, insn);
    // text
    insn.semantics = get_string(node, "semantics", context, true).value_or("");
    insn.example = get_string(node, "example", context, true).value_or("");
    if (auto latency = get_string(node, "latency", context, true)) {
      insn.latency = *latency;
      check_expression(child(node, "latency"), context, "latency", insn.latency, insn, parameters);
    }
    if (auto occupancy = get_string(node, "occupancy", context, false)) {
      insn.occupancy = *occupancy;
      check_expression(child(node, "occupancy"), context, "occupancy", insn.occupancy, insn, parameters);
    }
    if (spec_.bundle.present()) check_bundle_latency(node, context, insn);
    load_memory_accesses(node, context, insn, parameters);
    if (auto enabled_by = get_string(node, "enabled_by", context, false)) {
      if (std::find(parameters.begin(), parameters.end(), *enabled_by) == parameters.end()) {
        error(child(node, "enabled_by"), node, context, "enabled_by",
              fmt::format("'{}' is not a hardware parameter (`parameters:`)", *enabled_by));
      }
      insn.enabled_by = *enabled_by;
    }
    spec_.instructions.push_back(std::move(insn));
    example_nodes_.push_back(node);
  }
}

void Loader::load_memory_accesses(const YAML::Node& node, const std::string& context, InstructionSpec& insn,
                                  const std::vector<std::string>& parameters) {
  const YAML::Node memory = child(node, "memory");
  if (!memory.IsDefined()) return;
  if (!memory.IsMap()) {
    error(memory, node, context, "memory", "expected a mapping {reads: [...], writes: [...]}");
    return;
  }
  check_keys(memory, {"reads", "writes"}, context + ", memory");
  insn.memory_reads = load_access_list(memory, "reads", context, insn, parameters, MemoryBusy::kNone);
  // A write is visible once the instruction's latency has passed; until then later accesses wait.
  insn.memory_writes = load_access_list(memory, "writes", context, insn, parameters, MemoryBusy::kLatency);
}

std::vector<MemoryAccess> Loader::load_access_list(const YAML::Node& memory, const std::string& key,
                                                   const std::string& context, const InstructionSpec& insn,
                                                   const std::vector<std::string>& parameters,
                                                   MemoryBusy default_busy) {
  std::vector<MemoryAccess> accesses;
  const YAML::Node list = child(memory, key);
  if (!list.IsDefined() || list.IsNull()) return accesses;
  if (!list.IsSequence()) {
    error(list, memory, context, "memory." + key, "expected a list of {space, first, rows, ...}");
    return accesses;
  }
  for (size_t i = 0; i < list.size(); ++i) {
    const std::string where = fmt::format("memory.{}[{}]", key, i);
    if (!list[i].IsMap()) {
      error(list[i], list, context, where, "expected a mapping {space, first, rows, stride, size, busy}");
      continue;
    }
    accesses.push_back(load_access(list[i], context, where, insn, parameters, default_busy));
  }
  return accesses;
}

MemoryAccess Loader::load_access(const YAML::Node& node, const std::string& context, const std::string& where,
                                 const InstructionSpec& insn, const std::vector<std::string>& parameters,
                                 MemoryBusy default_busy) {
  check_keys(node, {"space", "first", "rows", "stride", "size", "busy"}, context + ", " + where);
  MemoryAccess a;
  a.space = load_memory_space(node, context, where);
  const std::pair<const char*, std::string*> expressions[] = {
      {"first", &a.first}, {"rows", &a.rows}, {"stride", &a.stride}, {"size", &a.size}};
  for (const auto& [field, target] : expressions) {
    const YAML::Node value = child(node, field);
    const std::string key = where + "." + field;
    if (!value.IsDefined() || value.IsNull()) {
      // Only where the range starts has no sensible default: one dense row is the common case.
      if (target == &a.first) error(value, node, context, key, "missing");
      continue;
    }
    if (!value.IsScalar()) {
      error(value, node, context, key, "expected an expression");
      continue;
    }
    *target = value.Scalar();
    check_expression(value, context, key, *target, insn, parameters);
  }
  a.busy = load_busy(node, context, where).value_or(default_busy);
  return a;
}

std::string Loader::load_memory_space(const YAML::Node& node, const std::string& context,
                                      const std::string& where) {
  const YAML::Node space = child(node, "space");
  if (!space.IsDefined() || !space.IsScalar()) {
    error(space, node, context, where + ".space", "expected the name of one of `memories:`");
    return "";
  }
  std::vector<std::string> names;
  for (const MemorySpec& m : spec_.memories) names.push_back(m.name);
  if (std::find(names.begin(), names.end(), space.Scalar()) == names.end()) {
    error(space, node, context, where + ".space",
          fmt::format("unknown memory '{}'{}", space.Scalar(),
                      names.empty() ? std::string("; the ISA has no `memories:`")
                                    : prefix_space(did_you_mean(closest_matches(space.Scalar(), names))) +
                                          fmt::format(" (memories: {})", fmt::join(names, ", "))));
  }
  return space.Scalar();
}

std::optional<MemoryBusy> Loader::load_busy(const YAML::Node& node, const std::string& context,
                                            const std::string& where) {
  const YAML::Node busy = child(node, "busy");
  if (!busy.IsDefined() || busy.IsNull()) return std::nullopt;
  const std::optional<MemoryBusy> parsed = busy.IsScalar() ? parse_busy(busy.Scalar()) : std::nullopt;
  if (!parsed) {
    error(busy, node, context, where + ".busy",
          fmt::format("'{}' is not one of none, occupancy, latency", busy.IsScalar() ? busy.Scalar() : "?"));
  }
  return parsed;
}

void Loader::load_pseudos(const YAML::Node& root) {
  const YAML::Node list = child(root, "pseudo");
  if (!list.IsDefined()) return;
  if (!list.IsSequence()) {
    error(list, root, "top level", "pseudo", "expected a list of pseudo-instructions");
    return;
  }
  for (size_t index = 0; index < list.size(); ++index) {
    const YAML::Node node = list[index];
    PseudoSpec p;
    p.name = node.IsMap() && child(node, "name").IsScalar() ? child(node, "name").Scalar() : "";
    const std::string context =
        p.name.empty() ? fmt::format("pseudo[{}]", index) : fmt::format("pseudo-instruction {}", p.name);
    if (!node.IsMap()) {
      error(node, list, context, "", "expected a mapping");
      continue;
    }
    check_keys(node, {"name", "syntax", "operands", "forms", "expands", "example"}, context);
    if (p.name.empty()) {
      error(child(node, "name"), node, context, "name", "missing");
    } else if (!is_mnemonic(p.name)) {
      error(child(node, "name"), node, context, "name", "a mnemonic is upper case letters, digits and '_'");
    } else if (has_instruction(p.name)) {
      error(child(node, "name"), node, context, "name", fmt::format("{} is already an instruction", p.name));
    } else if (std::any_of(spec_.pseudos.begin(), spec_.pseudos.end(),
                           [&](const PseudoSpec& q) { return q.name == p.name; })) {
      error(child(node, "name"), node, context, "name",
            fmt::format("duplicate pseudo-instruction {}", p.name));
    }
    p.syntax = get_string(node, "syntax", context, true).value_or("");
    p.expands = get_string(node, "expands", context, true).value_or("");
    p.example = get_string(node, "example", context, true).value_or("");
    p.operands = load_operands(node, context, nullptr);
    std::vector<std::string> names;
    for (const OperandSpec& op : p.operands) {
      names.push_back(op.name);
      if (parse_register(spec_, op.name)) {
        error(child(node, "operands"), node, context, "operands",
              fmt::format("operand name '{}' is a register name", op.name));
      }
    }
    const std::string expected_syntax =
        names.empty() ? p.name : p.name + " " + fmt::format("{}", fmt::join(names, ", "));
    if (!p.syntax.empty() && p.syntax != expected_syntax) {
      error(child(node, "syntax"), node, context, "syntax",
            fmt::format("'{}' does not match the operands; expected '{}'", p.syntax, expected_syntax));
    }
    const YAML::Node forms = child(node, "forms");
    if (!forms.IsSequence() || forms.size() == 0) {
      error(forms, node, context, "forms", "expected a non-empty list of {lines, when}");
    } else {
      for (size_t f = 0; f < forms.size(); ++f) {
        const YAML::Node form_node = forms[f];
        const std::string where = fmt::format("forms[{}]", f);
        if (!form_node.IsMap()) {
          error(form_node, forms, context, where, "expected {lines: [...], when: ...}");
          continue;
        }
        check_keys(form_node, {"lines", "when"}, context + ", " + where);
        PseudoForm form;
        form.when = get_string(form_node, "when", context, false).value_or("");
        const YAML::Node lines = child(form_node, "lines");
        if (!lines.IsSequence() || lines.size() == 0) {
          error(lines, form_node, context, where + ".lines",
                "expected a non-empty list of instruction templates");
          continue;
        }
        for (const YAML::Node& line : lines) form.lines.push_back(line.Scalar());
        p.forms.push_back(std::move(form));
        form_nodes_.emplace_back(spec_.pseudos.size(), form_node);
      }
    }
    spec_.pseudos.push_back(std::move(p));
    pseudo_nodes_.push_back(node);
  }
}

void Loader::load_bundle(const YAML::Node& root) {
  const YAML::Node node = child(root, "bundle");
  if (!node.IsDefined()) return;
  const std::string context = "bundle";
  if (!node.IsMap()) {
    error(node, root, context, "", "expected {end_bit, description, max_latency, exposed, kinds, slots}");
    return;
  }
  check_keys(node, {"end_bit", "description", "max_latency", "exposed", "kinds", "slots"}, context);
  BundleSpec& b = spec_.bundle;
  b.description = get_string(node, "description", context, true).value_or("");
  b.end_field_name = get_string(node, "end_bit", context, true).value_or("");
  if (const NamedField* f = spec_.find_field(b.end_field_name)) {
    b.end_field = f->field;
    if (f->field.width != 1) {
      error(child(node, "end_bit"), node, context, "end_bit",
            fmt::format("field '{}' is {} bits wide; the end-of-bundle flag is one bit", f->name,
                        f->field.width));
    } else {
      check_end_field_unused(node, f->name);
    }
  } else if (!b.end_field_name.empty()) {
    error(child(node, "end_bit"), node, context, "end_bit",
          fmt::format("unknown field '{}'{}", b.end_field_name,
                      prefix_space(did_you_mean(closest_matches(b.end_field_name, field_names())))));
  }
  if (const auto max = get_int(node, "max_latency", context, true)) {
    if (*max < 1 || *max > 64)
      error(child(node, "max_latency"), node, context, "max_latency", "must be 1..64");
    b.max_latency = static_cast<unsigned>(std::clamp<int64_t>(*max, 1, 64));
  }
  const YAML::Node exposed = child(node, "exposed");
  if (exposed.IsDefined() && !exposed.IsSequence()) {
    error(exposed, node, context, "exposed", "expected a list of register classes");
  } else if (exposed.IsDefined()) {
    for (const YAML::Node& rc : exposed) {
      if (spec_.find_register_class(rc.Scalar()) < 0) {
        error(rc, exposed, context, "exposed", fmt::format("'{}' is not a register class", rc.Scalar()));
        continue;
      }
      b.exposed_classes.push_back(rc.Scalar());
    }
  }
  const YAML::Node kinds = child(node, "kinds");
  if (!kinds.IsMap()) {
    error(kinds, node, context, "kinds", "expected a mapping kind: {noun, description}");
  } else {
    for (const auto& kv : kinds) {
      const std::string name = kv.first.Scalar();
      const std::string kind_context = "slot kind " + name;
      if (!is_identifier(name)) error(kv.first, kinds, kind_context, "", "not a valid identifier");
      if (!kv.second.IsMap()) {
        error(kv.second, kinds, kind_context, "", "expected {noun, description}");
        continue;
      }
      check_keys(kv.second, {"noun", "description"}, kind_context);
      b.kinds.push_back(SlotKind{name, get_string(kv.second, "noun", kind_context, true).value_or(""),
                                 get_string(kv.second, "description", kind_context, true).value_or("")});
    }
  }
  const YAML::Node slots = child(node, "slots");
  if (!slots.IsSequence() || slots.size() == 0) {
    error(slots, node, context, "slots", "expected a non-empty list of {name, kind}, in word order");
    return;
  }
  std::set<std::string> names;
  for (size_t i = 0; i < slots.size(); ++i) {
    const std::string slot_context = fmt::format("bundle slots[{}]", i);
    if (!slots[i].IsMap()) {
      error(slots[i], slots, slot_context, "", "expected {name, kind}");
      continue;
    }
    check_keys(slots[i], {"name", "kind"}, slot_context);
    SlotSpec slot{get_string(slots[i], "name", slot_context, true).value_or(""),
                  get_string(slots[i], "kind", slot_context, true).value_or("")};
    if (!slot.name.empty() && !names.insert(slot.name).second) {
      error(child(slots[i], "name"), slots[i], slot_context, "name",
            fmt::format("duplicate slot '{}'", slot.name));
    }
    if (!slot.kind.empty() && b.find_kind(slot.kind) == nullptr) {
      error(child(slots[i], "kind"), slots[i], slot_context, "kind",
            fmt::format("'{}' is not one of the kinds", slot.kind));
    }
    b.slots.push_back(std::move(slot));
  }
  for (const SlotKind& k : b.kinds) {
    if (std::none_of(b.slots.begin(), b.slots.end(), [&](const SlotSpec& s) { return s.kind == k.name; })) {
      error(kinds, node, context, "kinds", fmt::format("no slot has kind '{}'", k.name));
    }
  }
}

void Loader::load_slot(const YAML::Node& node, const std::string& context, InstructionSpec& insn) {
  const auto slot = get_string(node, "slot", context, spec_.bundle.present());
  if (!slot) return;
  if (!spec_.bundle.present()) {
    error(child(node, "slot"), node, context, "slot", "only an ISA with a `bundle:` section has slots");
    return;
  }
  if (spec_.bundle.find_kind(*slot) == nullptr) {
    std::vector<std::string> kinds;
    for (const SlotKind& k : spec_.bundle.kinds) kinds.push_back(k.name);
    error(child(node, "slot"), node, context, "slot",
          fmt::format("unknown slot kind '{}' (kinds: {})", *slot, fmt::join(kinds, ", ")));
  }
  insn.slot = *slot;
}

void Loader::load_names(const YAML::Node& node, const std::string& context, std::string* name,
                        std::string* symbol) {
  *name = get_string(node, "name", context, true).value_or("");
  if (!name->empty() && !is_lower_snake(*name)) {
    error(child(node, "name"), node, context, "name",
          fmt::format("'{}' must be lower_snake_case (letters, digits, '_', starting with a letter)", *name));
  }
  *symbol = get_string(node, "symbol", context, false).value_or(to_upper(*name));
  // "__" or a trailing "_" would make two symbols share a C++ name (kVsramRange).
  if (!symbol->empty() && (!is_mnemonic(*symbol) || !is_identifier(*symbol) ||
                           symbol->find("__") != std::string::npos || symbol->back() == '_')) {
    error(child(node, "symbol"), node, context, "symbol",
          fmt::format("'{}' must be UPPER_SNAKE_CASE (it names RTL and C++ constants)", *symbol));
  }
}

std::string Loader::entry_context(const YAML::Node& node, const std::string& section, const std::string& noun,
                                  size_t index) {
  if (node.IsMap() && child(node, "name").IsScalar() && !child(node, "name").Scalar().empty()) {
    return noun + " " + child(node, "name").Scalar();
  }
  return fmt::format("{}.list[{}]", section, index);
}

void Loader::load_machine_codes(const YAML::Node& root, const std::string& section, const std::string& noun,
                                MachineCodeSet* out) {
  const YAML::Node map = child(root, section);
  if (!map.IsDefined()) return;
  if (!map.IsMap()) {
    error(map, root, "top level", section, "expected a mapping {bits, notes, list}");
    return;
  }
  check_keys(map, {"bits", "notes", "list"}, section);
  const auto bits = get_int(map, "bits", section, true);
  if (bits && (*bits < 1 || *bits > 16)) error(child(map, "bits"), map, section, "bits", "must be 1..16");
  const unsigned width = bits && *bits >= 1 && *bits <= 16 ? static_cast<unsigned>(*bits) : 16;
  out->bits = width;
  out->notes = get_string(map, "notes", section, false).value_or("");
  const YAML::Node list = child(map, "list");
  if (!list.IsSequence() || list.size() == 0) {
    error(list, map, section, "list",
          fmt::format("expected a non-empty list of {}s {{name, code, description}}", noun));
    return;
  }
  const bool stall = section == "stall_causes";
  std::map<std::string, std::string> names, symbols, codes;
  for (size_t i = 0; i < list.size(); ++i) {
    const YAML::Node node = list[i];
    const std::string context = entry_context(node, section, noun, i);
    if (!node.IsMap()) {
      error(node, list, context, "", "expected a mapping {name, code, description}");
      continue;
    }
    std::vector<std::string> keys = {"name", "symbol", "code", "description"};
    if (stall) keys.push_back("counter");
    check_keys(node, keys, context);
    MachineCode c;
    load_names(node, context, &c.name, &c.symbol);
    c.description = get_string(node, "description", context, true).value_or("");
    if (const auto code = get_int(node, "code", context, true)) {
      if (*code < 0 || *code >= (int64_t{1} << width)) {
        error(child(node, "code"), node, context, "code",
              fmt::format("code {} does not fit the {}-bit field (0..{})", *code, width, (1u << width) - 1));
      } else {
        c.code = static_cast<unsigned>(*code);
        check_unique(node, context, "code", std::to_string(c.code), c.name, &codes);
      }
    }
    if (check_unique(node, context, "name", c.name, c.name, &names)) {
      check_unique(node, context, "symbol", c.symbol, c.name, &symbols);
    }
    if (stall) {
      c.counter = get_string(node, "counter", context, false).value_or("");
      if (!c.counter.empty() && std::none_of(spec_.counters.begin(), spec_.counters.end(),
                                             [&](const CounterSpec& k) { return k.name == c.counter; })) {
        std::vector<std::string> counter_names;
        for (const CounterSpec& k : spec_.counters) counter_names.push_back(k.name);
        error(child(node, "counter"), node, context, "counter",
              fmt::format("'{}' is not a counter{}", c.counter,
                          prefix_space(did_you_mean(closest_matches(c.counter, counter_names)))));
      }
    }
    out->codes.push_back(std::move(c));
  }
  if (codes.count("0") == 0) {
    error(list, map, section, "list",
          fmt::format("there must be {} {} with code 0 (the value meaning nothing to report)",
                      noun[0] == 'e' ? "an" : "a", noun));
  }
}

void Loader::load_counters(const YAML::Node& root) {
  const std::string section = "counters";
  const YAML::Node map = child(root, section);
  if (!map.IsDefined()) return;
  if (!map.IsMap()) {
    error(map, root, "top level", section, "expected a mapping {notes, list}");
    return;
  }
  check_keys(map, {"notes", "list"}, section);
  spec_.counter_notes = get_string(map, "notes", section, false).value_or("");
  const YAML::Node list = child(map, "list");
  if (!list.IsSequence() || list.size() == 0) {
    error(list, map, section, "list",
          "expected a non-empty list of counters {name, index, architectural, description}");
    return;
  }
  std::map<std::string, std::string> names, symbols;
  std::vector<CounterSpec> counters;
  std::vector<std::pair<YAML::Node, int64_t>> index_nodes;  // per counter with an integer index
  for (size_t i = 0; i < list.size(); ++i) {
    const YAML::Node node = list[i];
    const std::string context = entry_context(node, section, "counter", i);
    if (!node.IsMap()) {
      error(node, list, context, "", "expected a mapping {name, index, architectural, description}");
      continue;
    }
    check_keys(node, {"name", "symbol", "index", "architectural", "description"}, context);
    CounterSpec c;
    load_names(node, context, &c.name, &c.symbol);
    if (c.symbol == "NUM_COUNTERS") {
      error(child(node, "symbol").IsDefined() ? child(node, "symbol") : child(node, "name"), node, context,
            "symbol", "NUM_COUNTERS is the generated number of counters");
    }
    c.description = get_string(node, "description", context, true).value_or("");
    if (const auto index = get_int(node, "index", context, true)) {
      index_nodes.emplace_back(node, *index);
      c.index = static_cast<unsigned>(std::clamp<int64_t>(*index, 0, UINT32_MAX));
    }
    const YAML::Node arch = child(node, "architectural");
    if (!arch.IsDefined() || arch.IsNull()) {
      error(arch, node, context, "architectural", "missing (true if the functional model computes it too)");
    } else if (!arch.IsScalar() || (arch.Scalar() != "true" && arch.Scalar() != "false")) {
      error(
          arch, node, context, "architectural",
          fmt::format("expected true or false, got '{}'", arch.IsScalar() ? arch.Scalar() : "a collection"));
    } else {
      c.architectural = arch.Scalar() == "true";
    }
    if (check_unique(node, context, "name", c.name, c.name, &names)) {
      check_unique(node, context, "symbol", c.symbol, c.name, &symbols);
    }
    counters.push_back(std::move(c));
  }
  // The RTL indexes an array of NUM_COUNTERS counters: the indices must be exactly 0..N-1.
  const int64_t count = static_cast<int64_t>(list.size());
  std::vector<std::string> owner(list.size());
  for (const auto& [node, index] : index_nodes) {
    if (index >= 0 && index < count && owner[static_cast<size_t>(index)].empty()) {
      owner[static_cast<size_t>(index)] = child(node, "name").IsScalar() ? child(node, "name").Scalar() : "?";
    }
  }
  std::vector<std::string> missing;
  for (size_t k = 0; k < owner.size(); ++k) {
    if (owner[k].empty()) missing.push_back(std::to_string(k));
  }
  const std::string gap =
      missing.empty() ? "" : fmt::format("; no counter has index {}", fmt::join(missing, ", "));
  std::vector<bool> reported(list.size(), false);
  for (const auto& [node, index] : index_nodes) {
    const std::string context = entry_context(node, section, "counter", 0);
    const std::string name = child(node, "name").IsScalar() ? child(node, "name").Scalar() : "?";
    if (index < 0 || index >= count) {
      error(child(node, "index"), node, context, "index",
            fmt::format("index {} is outside 0..{} (indices are dense: one per counter){}", index, count - 1,
                        gap));
    } else if (owner[static_cast<size_t>(index)] != name || reported[static_cast<size_t>(index)]) {
      error(child(node, "index"), node, context, "index",
            fmt::format("duplicate index {} (also used by {}){}", index, owner[static_cast<size_t>(index)],
                        gap));
    } else {
      reported[static_cast<size_t>(index)] = true;
    }
  }
  std::sort(counters.begin(), counters.end(),
            [](const CounterSpec& a, const CounterSpec& b) { return a.index < b.index; });
  spec_.counters = std::move(counters);
}

void Loader::load_assembler(const YAML::Node& root) {
  const YAML::Node node = child(root, "assembler");
  if (!node.IsDefined()) return;
  const std::string context = "assembler";
  if (!node.IsMap()) {
    error(node, root, context, "", "expected {halt, loop_depth, program_size}");
    return;
  }
  check_keys(node, {"halt", "loop_depth", "program_size"}, context);
  spec_.halt_mnemonic = get_string(node, "halt", context, false).value_or("");
  if (!spec_.halt_mnemonic.empty() && !has_instruction(spec_.halt_mnemonic)) {
    error(child(node, "halt"), node, context, "halt",
          fmt::format("'{}' is not an instruction", spec_.halt_mnemonic));
  }
  for (auto [key, target] :
       {std::pair<const char*, std::string*>{"loop_depth", &spec_.loop_depth_symbol},
        std::pair<const char*, std::string*>{"program_size", &spec_.program_size_symbol}}) {
    *target = get_string(node, key, context, false).value_or("");
    const std::string& symbol = *target;  // C++17 lambdas cannot capture structured bindings
    if (!symbol.empty() && std::none_of(spec_.parameters.begin(), spec_.parameters.end(),
                                        [&](const ParameterSpec& p) { return p.name == symbol; })) {
      error(child(node, key), node, context, key, fmt::format("'{}' is not a parameter", *target));
    }
  }
}

void Loader::load_example_programs(const YAML::Node& root) {
  const YAML::Node list = child(root, "examples");
  if (!list.IsDefined()) return;
  if (!list.IsSequence()) {
    error(list, root, "top level", "examples", "expected a list of {title, description, symbols, source}");
    return;
  }
  for (const YAML::Node& node : list) {
    const std::string context =
        fmt::format("example program '{}'",
                    node.IsMap() && child(node, "title").IsScalar() ? child(node, "title").Scalar() : "?");
    if (!node.IsMap()) {
      error(node, list, context, "", "expected a mapping");
      continue;
    }
    check_keys(node, {"title", "description", "symbols", "source"}, context);
    ExampleProgram program;
    program.title = get_string(node, "title", context, true).value_or("");
    program.description = get_string(node, "description", context, true).value_or("");
    program.source = get_string(node, "source", context, true).value_or("");
    const YAML::Node symbols = child(node, "symbols");
    if (symbols.IsDefined() && !symbols.IsMap()) {
      error(symbols, node, context, "symbols", "expected a mapping NAME: value");
    } else if (symbols.IsDefined()) {
      for (const auto& kv : symbols) {
        const auto value = kv.second.IsScalar() ? parse_integer(kv.second.Scalar()) : std::nullopt;
        if (!value) {
          error(kv.second, symbols, context, "symbols." + kv.first.Scalar(), "expected an integer");
          continue;
        }
        program.symbols.emplace_back(kv.first.Scalar(), *value);
      }
    }
    spec_.examples.push_back(std::move(program));
    program_nodes_.push_back(node);
  }
}

}  // namespace kcraft::isa::gen::loader_detail
