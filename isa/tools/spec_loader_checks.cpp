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

// The ISA YAML's consistency checks (spec_loader_internal.h): operand ranges, expressions, the bundle's
// rules, unique names, and the examples assembled and disassembled against the whole spec.

void Loader::check_operand_range(const YAML::Node& node, const std::string& context, const std::string& where,
                                 OperandSpec& op) {
  const bool immediate =
      op.kind == OperandKind::kUimm || op.kind == OperandKind::kSimm || op.kind == OperandKind::kBody;
  if (!immediate) {
    for (const char* key : {"min", "max", "default"}) {
      if (child(node, key).IsDefined()) {
        error(child(node, key), node, context, where + "." + key,
              fmt::format("only immediate operands have '{}'", key));
      }
    }
    if (op.kind == OperandKind::kRegister && !op.field_name.empty()) {
      const RegisterClass& rc = spec_.register_classes[static_cast<size_t>(op.register_class)];
      if (op.field.width < 32 && rc.count > (1u << op.field.width)) {
        error(child(node, "field"), node, context, where + ".field",
              fmt::format("the {}-bit field '{}' cannot hold register numbers up to {}{}", op.field.width,
                          op.field_name, rc.prefix, rc.count - 1));
      }
    }
    return;
  }
  const auto min = get_int(node, "min", context, true);
  const auto max = get_int(node, "max", context, true);
  if (!min || !max) return;
  op.min = *min;
  op.max = *max;
  const unsigned w = op.field.width;
  const int64_t field_min = op.kind == OperandKind::kSimm ? -(int64_t{1} << (w - 1)) : 0;
  const int64_t field_max =
      op.kind == OperandKind::kSimm ? (int64_t{1} << (w - 1)) - 1 : (int64_t{1} << w) - 1;
  if (*min > *max) {
    error(child(node, "min"), node, context, where + ".min",
          fmt::format("min {} is greater than max {}", *min, *max));
  }
  if (*min < field_min || *max > field_max) {
    error(*min < field_min ? child(node, "min") : child(node, "max"), node, context,
          where + (*min < field_min ? ".min" : ".max"),
          fmt::format("range {}..{} does not fit the {}-bit {} field '{}' ({}..{})", *min, *max, w,
                      op.kind == OperandKind::kSimm ? "signed" : "unsigned", op.field_name, field_min,
                      field_max));
  }
  if (op.kind == OperandKind::kBody && *min < 1) {
    error(child(node, "min"), node, context, where + ".min",
          "a loop body holds at least one instruction (min >= 1)");
  }
  if (child(node, "default").IsDefined()) {
    const auto def = get_int(node, "default", context, true);
    if (def && (*def < *min || *def > *max)) {
      error(child(node, "default"), node, context, where + ".default",
            fmt::format("default {} is outside the range {}..{}", *def, *min, *max));
    }
    if (op.kind == OperandKind::kBody) {
      error(child(node, "default"), node, context, where + ".default", "a loop end cannot have a default");
    }
    op.default_value = def;
  }
}

void Loader::check_expression(const YAML::Node& node, const std::string& context, const std::string& key,
                              const std::string& text, const InstructionSpec& insn,
                              const std::vector<std::string>& parameters) {
  const std::vector<Token> tokens = tokenize(text);
  ExprError err;
  const auto expr = parse_expression(tokens, 0, tokens.size(), &err);
  if (!expr) {
    error(node, node, context, key, fmt::format("'{}' is not a valid expression: {}", text, err.message));
    return;
  }
  for (const std::string& symbol : referenced_symbols(*expr)) {
    const bool is_parameter = std::find(parameters.begin(), parameters.end(), symbol) != parameters.end();
    const bool is_operand = std::any_of(insn.operands.begin(), insn.operands.end(),
                                        [&](const OperandSpec& op) { return op.name == symbol; });
    if (!is_parameter && !is_operand) {
      std::vector<std::string> known = parameters;
      for (const OperandSpec& op : insn.operands) known.push_back(op.name);
      error(node, node, context, key,
            fmt::format("'{}' uses unknown symbol '{}'{}", text, symbol,
                        prefix_space(did_you_mean(closest_matches(symbol, known)))));
    }
  }
}

void Loader::check_end_field_unused(const YAML::Node& node, const std::string& field) {
  for (const FormatSpec& format : spec_.formats) {
    if (std::find(format.fields.begin(), format.fields.end(), field) != format.fields.end()) {
      error(child(node, "end_bit"), node, "bundle", "end_bit",
            fmt::format("format {} uses field '{}'; the end-of-bundle flag belongs to no format", format.name,
                        field));
    }
  }
}

void Loader::check_bundle_latency(const YAML::Node& node, const std::string& context,
                                  const InstructionSpec& insn) {
  const auto latency = parse_integer(insn.latency);
  const unsigned max = spec_.bundle.max_latency;
  if (!latency || *latency < 1 || *latency > static_cast<int64_t>(max)) {
    error(child(node, "latency"), node, context, "latency",
          fmt::format("'{}' is not a number of bundles 1..{} (bundle.max_latency)", insn.latency, max));
    return;
  }
  const bool writes_exposed =
      std::any_of(insn.operands.begin(), insn.operands.end(), [&](const OperandSpec& op) {
        return op.kind == OperandKind::kRegister && op.access != Access::kRead &&
               spec_.bundle.is_exposed(spec_.register_classes[static_cast<size_t>(op.register_class)].name);
      });
  if (*latency > 1 && !writes_exposed) {
    error(child(node, "latency"), node, context, "latency",
          fmt::format("latency {} but the instruction writes no register of an exposed class ({}); other "
                      "results are visible to the next bundle, so the latency is 1",
                      *latency, fmt::join(spec_.bundle.exposed_classes, ", ")));
  }
}

bool Loader::check_unique(const YAML::Node& node, const std::string& context, const std::string& key,
                          const std::string& value, const std::string& owner,
                          std::map<std::string, std::string>* seen) {
  if (value.empty()) return true;
  const auto [it, inserted] = seen->emplace(value, owner);
  if (inserted) return true;
  error(child(node, key).IsDefined() ? child(node, key) : node, node, context, key,
        fmt::format("duplicate {} {} (also used by {})", key, key == "code" ? value : "'" + value + "'",
                    it->second));
  return false;
}

void Loader::check_example_programs() {
  for (size_t i = 0; i < spec_.examples.size(); ++i) {
    const ExampleProgram& program = spec_.examples[i];
    const SymbolTable symbols(program.symbols.begin(), program.symbols.end());
    const AssembleResult result = assemble(spec_, program.source, file_, symbols);
    for (const Diagnostic& d : result.diagnostics) {
      error(child(program_nodes_[i], "source"), program_nodes_[i], "example program '" + program.title + "'",
            "source",
            fmt::format("line {}: {}: {}", d.line, d.severity == Severity::kError ? "error" : "warning",
                        d.message));
    }
  }
}

void Loader::report_assembly(const YAML::Node& node, const std::string& context, const std::string& field,
                             const std::string& what, const AssembleResult& result) {
  for (const Diagnostic& d : result.diagnostics) {
    if (d.severity != Severity::kError) continue;
    error(node, node, context, field,
          fmt::format("{} does not assemble: {}{}", what, d.message,
                      d.hint.empty() ? "" : " (" + d.hint + ")"));
  }
}

void Loader::check_examples() {
  const InstructionSpec* filler = nullptr;  // an instruction without operands, to fill loop bodies
  for (const InstructionSpec& insn : spec_.instructions) {
    if (insn.operands.empty() && insn.name != spec_.halt_mnemonic) {
      filler = &insn;
      break;
    }
  }
  for (size_t i = 0; i < spec_.instructions.size(); ++i) {
    const InstructionSpec& insn = spec_.instructions[i];
    const YAML::Node node = child(example_nodes_[i], "example");
    const std::string context = "instruction " + insn.name;
    if (insn.example.empty()) continue;
    // A loop's end label is defined after one filler instruction, so the body has length 1.
    std::string program = insn.example + "\n";
    std::string expected = insn.example;
    for (size_t k = 0; k < insn.operands.size(); ++k) {
      if (insn.operands[k].kind != OperandKind::kBody) continue;
      const std::string label = example_operand(insn.example, k);
      if (filler == nullptr || !is_identifier(label)) {
        error(node, node, context, "example", "a loop example must name its end label");
        continue;
      }
      program += filler->name + "\n" + label + ":\n";
      expected = insn.example.substr(0, insn.example.rfind(label)) + ".+2" +
                 insn.example.substr(insn.example.rfind(label) + label.size());
    }
    const AssembleResult result = assemble(spec_, program, file_, {});
    if (!result.ok) {
      report_assembly(node, context, "example", fmt::format("example '{}'", insn.example), result);
      continue;
    }
    if (result.words.empty() || extract(result.words[0], spec_.opcode_field) != insn.opcode) {
      error(node, node, context, "example",
            fmt::format("example '{}' is not a {} instruction", insn.example, insn.name));
      continue;
    }
    const std::string canonical = disassemble(spec_, result.words[0]);
    if (canonical != expected) {
      error(node, node, context, "example",
            fmt::format("example '{}' is not written the way the disassembler prints it: '{}'", insn.example,
                        canonical));
    }
  }
  for (size_t i = 0; i < spec_.pseudos.size(); ++i) check_pseudo(spec_.pseudos[i], pseudo_nodes_[i]);
  check_example_programs();
}

std::string Loader::example_operand(const std::string& example, size_t index) {
  const size_t space = example.find(' ');
  if (space == std::string::npos) return "";
  std::stringstream operands(example.substr(space + 1));
  std::string item;
  for (size_t k = 0; std::getline(operands, item, ','); ++k) {
    if (k != index) continue;
    const size_t first = item.find_first_not_of(" \t");
    const size_t last = item.find_last_not_of(" \t");
    return first == std::string::npos ? "" : item.substr(first, last - first + 1);
  }
  return "";
}

void Loader::check_pseudo(const PseudoSpec& p, const YAML::Node& node) {
  const std::string context = "pseudo-instruction " + p.name;
  // Every form must assemble for representative operand values; the longest form, which the assembler
  // uses for forward references, must work for extreme values too.
  size_t longest = 0;
  for (size_t f = 1; f < p.forms.size(); ++f) {
    if (p.forms[f].lines.size() > p.forms[longest].lines.size()) longest = f;
  }
  std::vector<std::vector<std::string>> samples(1);
  for (const OperandSpec& op : p.operands) {
    std::vector<std::string> values;
    switch (op.kind) {
      case OperandKind::kRegister: {
        const RegisterClass& rc = spec_.register_classes[static_cast<size_t>(op.register_class)];
        values = {rc.prefix + std::to_string(rc.count > 1 ? 1 : 0)};
        break;
      }
      case OperandKind::kInt32:
        values = {"0", "(-1)", "65535", "65536", "(-2147483648)", "2147483647"};
        break;
      case OperandKind::kFp32:
        values = {"0", "1065353216", "4286578688", "2143289344", "1"};
        break;
      default:
        values = {"0"};
    }
    std::vector<std::vector<std::string>> next;
    for (const auto& prefix : samples) {
      for (const std::string& v : values) {
        next.push_back(prefix);
        next.back().push_back(v);
      }
    }
    samples = std::move(next);
  }
  size_t form_index = 0;
  for (const auto& [pseudo_index, form_node] : form_nodes_) {
    if (&spec_.pseudos[pseudo_index] != &p) continue;
    const PseudoForm& form = p.forms[form_index];
    const std::string where = fmt::format("forms[{}]", form_index);
    if (!form.when.empty()) {
      const std::vector<Token> tokens = tokenize(form.when);
      ExprError err;
      const auto expr = parse_expression(tokens, 0, tokens.size(), &err);
      if (!expr) {
        error(child(form_node, "when"), form_node, context, where + ".when",
              fmt::format("'{}' is not a valid expression: {}", form.when, err.message));
      } else {
        for (const std::string& symbol : referenced_symbols(*expr)) {
          if (std::none_of(p.operands.begin(), p.operands.end(),
                           [&](const OperandSpec& o) { return o.name == symbol; })) {
            error(child(form_node, "when"), form_node, context, where + ".when",
                  fmt::format("'{}' is not an operand of {}", symbol, p.name));
          }
        }
      }
    }
    const size_t sample_count = form_index == longest ? samples.size() : 1;
    for (size_t s = 0; s < sample_count; ++s) {
      std::string program;
      for (const std::string& line : form.lines) {
        const std::vector<Token> tokens = tokenize(line);
        const bool is_instruction = !tokens.empty() && tokens[0].kind == TokenKind::kIdentifier &&
                                    spec_.find_instruction(tokens[0].text) != nullptr;
        if (!is_instruction) {
          error(
              child(form_node, "lines"), form_node, context, where + ".lines",
              fmt::format("'{}' does not start with an instruction (pseudo-instructions cannot nest)", line));
          return;
        }
        for (const Token& t : tokens) {
          std::string_view text = t.text;
          for (size_t k = 0; k < p.operands.size(); ++k) {
            if (t.kind == TokenKind::kIdentifier && p.operands[k].name == t.text) text = samples[s][k];
          }
          program += std::string(text) + " ";
        }
        program += "\n";
      }
      const AssembleResult result = assemble(spec_, program, file_, {});
      if (!result.ok) {
        report_assembly(child(form_node, "lines"), context, where + ".lines",
                        fmt::format("with operands ({}) the expansion", fmt::join(samples[s], ", ")), result);
        break;
      }
    }
    ++form_index;
  }
  if (!p.example.empty()) {
    const AssembleResult result = assemble(spec_, p.example + "\n", file_, {});
    if (!result.ok) {
      report_assembly(child(node, "example"), context, "example", fmt::format("example '{}'", p.example),
                      result);
    }
    const std::vector<Token> tokens = tokenize(p.example);
    if (tokens.empty() || to_upper(tokens[0].text) != p.name) {
      error(child(node, "example"), node, context, "example",
            fmt::format("example '{}' does not use {}", p.example, p.name));
    }
  }
}

}  // namespace kcraft::isa::gen::loader_detail
