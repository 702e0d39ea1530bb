// Markdown output: the ISA reference that users and LLM agents read (`kcraft isa <platform>`).
// Every example encoding shown is produced by the real assembler, so the manual cannot lie.
#include <algorithm>
#include <map>

#include <fmt/format.h>

#include "isa/common/assembler.h"
#include "isa/common/disassembler.h"
#include "isa/tools/emitters.h"

namespace kcraft::isa::gen {
namespace {

std::string bits(Field f) {
  if (f.width == 1) return std::to_string(f.lsb);
  return fmt::format("{}:{}", f.lsb + f.width - 1, f.lsb);
}

// Table cells must not contain '|' or newlines.
std::string cell(std::string text) {
  std::string out;
  for (char c : text) {
    if (c == '|') {
      out += "\\|";
    } else if (c == '\n') {
      out += ' ';
    } else {
      out += c;
    }
  }
  return out;
}

std::string anchor(const std::string& title) {
  std::string out;
  for (char c : title) {
    if (std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-') {
      out += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    } else if (c == ' ') {
      out += '-';
    }
  }
  return out;
}

// Up to the first ". " that ends a sentence (followed by a capital letter; not "i.e. x" or ".. +2").
std::string first_sentence(const std::string& text) {
  for (size_t stop = text.find(". "); stop != std::string::npos; stop = text.find(". ", stop + 1)) {
    const bool after_dot = stop > 0 && text[stop - 1] == '.';
    if (!after_dot && stop + 2 < text.size() && std::isupper(static_cast<unsigned char>(text[stop + 2]))) {
      return text.substr(0, stop + 1);
    }
  }
  return text;
}

struct Segment {
  unsigned msb = 0;
  unsigned lsb = 0;
  std::string label;
};

// The word from bit (word_bits-1) down to 0, as named segments and reserved gaps ("0").
std::vector<Segment> layout(unsigned word_bits, std::vector<std::pair<std::string, Field>> fields) {
  std::sort(fields.begin(), fields.end(),
            [](const auto& a, const auto& b) { return a.second.lsb > b.second.lsb; });
  std::vector<Segment> segments;
  int next = static_cast<int>(word_bits) - 1;  // highest bit not yet covered
  for (const auto& [label, f] : fields) {
    const int msb = static_cast<int>(f.lsb + f.width) - 1;
    if (msb < next) segments.push_back({static_cast<unsigned>(next), static_cast<unsigned>(msb + 1), "0"});
    segments.push_back({static_cast<unsigned>(msb), f.lsb, label});
    next = static_cast<int>(f.lsb) - 1;
  }
  if (next >= 0) segments.push_back({static_cast<unsigned>(next), 0, "0"});
  return segments;
}

std::string layout_table(const std::vector<Segment>& segments) {
  std::string head = "|";
  std::string rule = "|";
  std::string body = "|";
  for (const Segment& s : segments) {
    head += s.msb == s.lsb ? fmt::format(" {} |", s.msb) : fmt::format(" {}:{} |", s.msb, s.lsb);
    rule += ":-:|";
    body += fmt::format(" {} |", s.label);
  }
  return head + "\n" + rule + "\n" + body + "\n";
}

class MarkdownWriter {
 public:
  MarkdownWriter(const IsaSpec& spec, std::string source_name)
      : spec_(spec), source_(std::move(source_name)) {
    for (const InstructionSpec& insn : spec_.instructions) {
      for (const OperandSpec& op : insn.operands) {
        if (op.kind == OperandKind::kBody) loop_instructions_.push_back(insn.name);
      }
    }
  }

  std::string write() {
    header();
    overview();
    timing_model();
    parameters();
    memories();
    registers();
    bundles();
    encoding();
    summary_table();
    units();
    pseudos();
    assembly_language();
    errors();
    counters();
    example_programs();
    return out_;
  }

 private:
  void line(const std::string& text = "") { out_ += text + "\n"; }

  std::string register_names(const RegisterClass& rc) const {
    return fmt::format("{}0..{}{}", rc.prefix, rc.prefix, rc.count - 1);
  }

  void header() {
    size_t pseudo_count = spec_.pseudos.size();
    line(fmt::format("# {} ISA reference", spec_.name));
    line();
    line(
        fmt::format("Version {}. Generated from `{}`; do not edit. {} instructions, {} pseudo-instructions, "
                    "{}-bit instruction words.",
                    spec_.version, source_, spec_.instructions.size(), pseudo_count, spec_.word_bits));
    line();
    line("Contents: [Overview](#overview) · " +
         std::string(spec_.timing_rules.empty() ? "" : "[Timing model](#timing-model) · ") +
         "[Hardware parameters](#hardware-parameters) · "
         "[Memories](#memories) · "
         "[Registers](#registers) · " +
         std::string(spec_.bundle.present() ? "[Bundles](#bundles) · " : "") +
         "[Instruction encoding](#instruction-encoding) · "
         "[Instruction summary](#instruction-summary) · [Instructions by unit](#instructions-by-unit) · "
         "[Pseudo-instructions](#pseudo-instructions) · [Assembly language](#assembly-language) · " +
         std::string(spec_.errors.codes.empty() ? "" : "[Errors](#errors) · ") +
         std::string(spec_.counters.empty() ? "" : "[Performance counters](#performance-counters) · ") +
         "[Example programs](#example-programs)");
    line();
  }

  void overview() {
    line("## Overview");
    line();
    line(spec_.summary);
    line();
    if (!spec_.timing.empty()) {
      line("**Timing.** " + spec_.timing);
      line();
    }
    line("| Unit | Role | Instructions |");
    line("|---|---|---|");
    for (const UnitSpec& u : spec_.units) {
      std::vector<std::string> names;
      for (const InstructionSpec& insn : spec_.instructions) {
        if (insn.unit == u.name) names.push_back(insn.name);
      }
      line(fmt::format("| {} | {} | {} |", u.name, cell(u.description), fmt::join(names, ", ")));
    }
    line();
  }

  void timing_model() {
    if (spec_.timing_rules.empty()) return;
    line("## Timing model");
    line();
    line(
        "What a kernel overlaps and where it waits. Every number here is measured on the RTL by the tests; "
        "`Occupancy` in each instruction's entry is how long it holds its unit. `kcraft eval --timeline "
        "FILE` "
        "shows a run this way, unit by unit.");
    line();
    for (const TimingRule& r : spec_.timing_rules) {
      line("**" + r.title + ".** " + r.text);
      line();
    }
  }

  void parameters() {
    if (spec_.parameters.empty()) return;
    line("## Hardware parameters");
    line();
    line(
        "Each hardware configuration sets these. The tools predefine them as assembler symbols (write "
        "`MLEN`, "
        "`2*VLEN`, ... in operands), and latencies below are expressed in them.");
    line();
    line("| Parameter | Meaning |");
    line("|---|---|");
    for (const ParameterSpec& p : spec_.parameters)
      line(fmt::format("| `{}` | {} |", p.name, cell(p.description)));
    line();
  }

  void memories() {
    if (spec_.memories.empty()) return;
    line("## Memories");
    line();
    line("| Memory | Size | Unit of addressing | Use |");
    line("|---|---|---|---|");
    for (const MemorySpec& m : spec_.memories) {
      line(fmt::format("| {} | {} | {} | {} |", m.name, cell(m.size), cell(m.word), cell(m.description)));
    }
    line();
  }

  void registers() {
    line("## Registers");
    line();
    line("| Class | Names | Width | Fixed values | Use |");
    line("|---|---|---|---|---|");
    for (const RegisterClass& rc : spec_.register_classes) {
      std::vector<std::string> fixed;
      for (const auto& [number, value] : rc.hardwired) {
        fixed.push_back(fmt::format("`{}{}` = {} (writes are ignored)", rc.prefix, number, value));
      }
      line(fmt::format("| {} ({}) | `{}` | {} bits | {} | {} |", rc.name, rc.noun, register_names(rc),
                       rc.width, fixed.empty() ? "none" : fmt::format("{}", fmt::join(fixed, ", ")),
                       cell(rc.description)));
    }
    line();
    line("Register names are case-insensitive (`r3` = `R3`).");
    line();
  }

  // VLIW ISAs: slots, the bundle syntax and the exposed pipeline.
  void bundles() {
    const BundleSpec& b = spec_.bundle;
    if (!b.present()) return;
    line("## Bundles");
    line();
    line(b.description);
    line();
    line("| Position | Slot | Kind | Instructions |");
    line("|---|---|---|---|");
    for (size_t i = 0; i < b.slots.size(); ++i) {
      const SlotKind* kind = b.find_kind(b.slots[i].kind);
      std::vector<std::string> names;
      for (const InstructionSpec& insn : spec_.instructions) {
        if (insn.slot == b.slots[i].kind) names.push_back(insn.name);
      }
      line(fmt::format("| {} | `{}` | {} | {} |", i, b.slots[i].name, kind != nullptr ? kind->noun : "",
                       fmt::join(names, ", ")));
    }
    line();
    line(fmt::format(
        "A bundle is 1 to {} words. Its words appear in the slot order of this table, and its last word has "
        "the end-of-bundle flag `{}` (bit {}) set; a word sequence that breaks these rules is an illegal "
        "bundle. In assembly a bundle is written `{{ op ; op ; op }}` with its ops in any order (the "
        "assembler puts them in slot order; ops of one kind keep their written order), and an op written "
        "alone is a one-op bundle.",
        b.slots.size(), b.end_field_name, b.end_field.lsb));
    line();
    std::vector<std::string> exposed;
    for (const std::string& rc : b.exposed_classes) {
      const int index = spec_.find_register_class(rc);
      if (index >= 0) exposed.push_back(register_names(spec_.register_classes[static_cast<size_t>(index)]));
    }
    line(fmt::format(
        "**Exposed pipeline.** An instruction's latency is counted in bundles: its result is visible to the "
        "bundle issued `latency` bundles after it and to later ones, while the bundles in between still "
        "read the old value. Nothing waits for a result of {}; results in other registers are visible to "
        "the next bundle. A stall (see [Stall causes](#stall-causes)) freezes the whole pipeline, so it "
        "never changes which value a bundle reads. `kcraft check` warns about every read before a result "
        "is ready that it can see, across loop back edges too.",
        fmt::join(exposed, " and ")));
    line();
  }

  void encoding() {
    line("## Instruction encoding");
    line();
    line(
        fmt::format("Every instruction is one {0}-bit word. The opcode is bits {1}. Each instruction uses "
                    "the opcode field and "
                    "the fields of its own operands; **every other bit is reserved and must be zero**. A "
                    "word whose opcode is "
                    "unknown or whose reserved bits are not all zero is an *illegal instruction*. Signed "
                    "immediates are two's "
                    "complement in their field. Register operands hold the register number.",
                    spec_.word_bits, bits(spec_.opcode_field)));
    line();
    if (spec_.bundle.present()) {
      line(fmt::format(
          "The end-of-bundle flag `{}` is not reserved in any instruction (see [Bundles](#bundles)).",
          spec_.bundle.end_field_name));
      line();
    }
    line("### Fields");
    line();
    line("| Field | Bits | Width |");
    line("|---|---|---|");
    for (const NamedField& f : spec_.fields)
      line(fmt::format("| `{}` | {} | {} |", f.name, bits(f.field), f.field.width));
    line();
    line("### Formats");
    line();
    line(
        "A format lists the fields its instructions may use (an instruction may use fewer; the unused ones "
        "are "
        "reserved for it).");
    line();
    for (const FormatSpec& format : spec_.formats) {
      std::vector<std::string> users;
      for (const InstructionSpec& insn : spec_.instructions) {
        if (insn.format == format.name) users.push_back(insn.name);
      }
      line(fmt::format(
          "**{}**: {}. Used by {}.", format.name, format.description,
          users.empty() ? std::string("no instruction") : fmt::format("{}", fmt::join(users, ", "))));
      line();
      std::vector<std::pair<std::string, Field>> fields;
      for (const std::string& name : format.fields) fields.emplace_back(name, spec_.find_field(name)->field);
      out_ += layout_table(layout(spec_.word_bits, fields));
      line();
    }
  }

  void summary_table() {
    line("## Instruction summary");
    line();
    if (spec_.bundle.present()) {
      line("| Instruction | Syntax | Opcode | Slot | Latency (bundles) | Operation |");
      line("|---|---|---|---|---|---|");
      for (const InstructionSpec& insn : spec_.instructions) {
        line(fmt::format("| [{}](#{}) | `{}` | 0x{:02X} | {} | {} | {} |", insn.name, anchor(insn.name),
                         cell(syntax_of(insn)), insn.opcode, insn.slot, cell(insn.latency),
                         cell(first_sentence(insn.semantics))));
      }
    } else {
      line("| Instruction | Syntax | Opcode | Unit | Latency (cycles) | Operation |");
      line("|---|---|---|---|---|---|");
      for (const InstructionSpec& insn : spec_.instructions) {
        line(fmt::format("| [{}](#{}) | `{}` | 0x{:02X} | {} | {} | {} |", insn.name, anchor(insn.name),
                         cell(syntax_of(insn)), insn.opcode, insn.unit, cell(insn.latency),
                         cell(first_sentence(insn.semantics))));
      }
    }
    line();
    line("In a syntax, `[, x]` marks an optional trailing operand (it takes its default when omitted).");
    line();
  }

  std::string operand_kind_text(const OperandSpec& op) const {
    switch (op.kind) {
      case OperandKind::kRegister: {
        const std::string noun = spec_.register_classes[static_cast<size_t>(op.register_class)].noun;
        switch (op.access) {
          case Access::kRead:
            return noun + ", read";
          case Access::kWrite:
            return noun + ", written";
          case Access::kReadWrite:
            return noun + ", read and written";
        }
        return noun;
      }
      case OperandKind::kUimm:
        return "unsigned immediate";
      case OperandKind::kSimm:
        return "signed immediate";
      case OperandKind::kBody:
        return "label: the end of the loop body";
      case OperandKind::kInt32:
        return "integer expression";
      case OperandKind::kFp32:
        return "floating-point expression";
    }
    return "";
  }

  std::string operand_range(const OperandSpec& op) const {
    std::string range = operand_range_text(spec_, op);
    if (op.kind == OperandKind::kBody) {
      range = fmt::format("the label after the last body instruction; encoded as the body length {}..{}",
                          op.min, op.max);
    }
    if (op.default_value) range += fmt::format("; default {}", format_immediate(op, *op.default_value));
    return range;
  }

  void units() {
    line("## Instructions by unit");
    line();
    for (const UnitSpec& u : spec_.units) {
      line(fmt::format("### {} unit", u.name));
      line();
      line(u.description);
      line();
      if (!u.notes.empty()) {
        line(u.notes);
        line();
      }
      for (const InstructionSpec& insn : spec_.instructions) {
        if (insn.unit == u.name) instruction(insn);
      }
    }
  }

  void instruction(const InstructionSpec& insn) {
    line(fmt::format("#### {}", insn.name));
    line();
    line(fmt::format("`{}`", syntax_of(insn)));
    line();
    line(insn.semantics);
    line();
    if (!insn.operands.empty()) {
      line("| Operand | Kind | Field (bits) | Values |");
      line("|---|---|---|---|");
      for (const OperandSpec& op : insn.operands) {
        line(fmt::format("| `{}` | {} | `{}` ({}) | {} |", op.name, operand_kind_text(op), op.field_name,
                         bits(op.field), cell(operand_range(op))));
      }
      line();
    }
    std::vector<std::pair<std::string, Field>> fields{
        {fmt::format("0x{:02X}", insn.opcode), spec_.opcode_field}};
    for (const OperandSpec& op : insn.operands) {
      fields.emplace_back(op.kind == OperandKind::kBody ? op.name + " (length)" : op.name, op.field);
    }
    line(fmt::format("Encoding (format {}, reserved bits `0x{:08X}`):", insn.format, insn.reserved_mask));
    line();
    out_ += layout_table(layout(spec_.word_bits, fields));
    line();
    const bool numeric = insn.latency.find_first_not_of("0123456789") == std::string::npos;
    if (!insn.enabled_by.empty()) {
      line(fmt::format(
          "Optional: only hardware built with `{0}` = 1 (a `build:` parameter of the hardware configuration, "
          "`kcraft explore --set {0}=0,1` prices it) has it. Elsewhere the word is an illegal instruction, "
          "and the assembler rejects it when the configuration's `{0}` is 0.",
          insn.enabled_by));
      line();
    }
    if (spec_.bundle.present()) {
      line(fmt::format("Slot: `{}`. Latency: {} bundle{}.", insn.slot, insn.latency,
                       insn.latency == "1" ? "" : "s"));
      line();
      line(example_text(insn));
      line();
      return;
    }
    std::string timing =
        fmt::format("Latency: {} cycle{}.", numeric ? insn.latency : "`" + insn.latency + "`",
                    insn.latency == "1" ? "" : "s");
    if (!insn.occupancy.empty()) {
      const bool plain = insn.occupancy.find_first_not_of("0123456789") == std::string::npos;
      timing += fmt::format(" Occupancy: {} cycle{}.", plain ? insn.occupancy : "`" + insn.occupancy + "`",
                            insn.occupancy == "1" ? "" : "s");
    }
    line(timing);
    line();
    line(example_text(insn));
    line();
  }

  std::string example_text(const InstructionSpec& insn) const {
    // Loop examples get an end label one instruction after the loop, as in the generator's check.
    std::string program = insn.example + "\n";
    bool loop = false;
    for (const OperandSpec& op : insn.operands) loop |= op.kind == OperandKind::kBody;
    if (loop) {
      const std::string label = insn.example.substr(insn.example.rfind(',') + 1);
      const size_t start = label.find_first_not_of(' ');
      for (const InstructionSpec& other : spec_.instructions) {
        if (other.operands.empty() && other.name != spec_.halt_mnemonic) {
          program = insn.example + "\n" + other.name + "\n" + label.substr(start) + ":\n";
          break;
        }
      }
    }
    const AssembleResult r = assemble(spec_, program, source_, {});
    if (!r.ok || r.words.empty()) return fmt::format("Example: `{}`", insn.example);
    return fmt::format("Example: `{}` encodes as `0x{:08X}`{}.", insn.example, r.words[0],
                       loop ? " (with a one-instruction body)" : "");
  }

  void pseudos() {
    if (spec_.pseudos.empty()) return;
    line("## Pseudo-instructions");
    line();
    line(
        "The assembler expands these into real instructions. A multi-form pseudo-instruction uses the first "
        "form whose condition holds and whose immediates fit; if its value refers to a symbol defined later "
        "in "
        "the file, it uses its longest form (the form that works for every value). A pseudo-instruction "
        "counts "
        "as as many instructions as it expands to (labels and loop bodies count words).");
    line();
    for (const PseudoSpec& p : spec_.pseudos) {
      line(fmt::format("#### {}", p.name));
      line();
      line(fmt::format("`{}`", p.syntax));
      line();
      line(p.expands);
      line();
      line("| Operand | Kind | Values |");
      line("|---|---|---|");
      for (const OperandSpec& op : p.operands) {
        line(fmt::format("| `{}` | {} | {} |", op.name, operand_kind_text(op),
                         cell(operand_range_text(spec_, op))));
      }
      line();
      line("Forms, tried in order:");
      line();
      for (size_t f = 0; f < p.forms.size(); ++f) {
        std::vector<std::string> lines;
        for (const std::string& l : p.forms[f].lines) lines.push_back("`" + l + "`");
        line(fmt::format("{}. {}{}", f + 1, fmt::join(lines, " ; "),
                         p.forms[f].when.empty() ? "" : fmt::format(" (when `{}`)", p.forms[f].when)));
      }
      line();
      const AssembleResult r = assemble(spec_, p.example + "\n", source_, {});
      if (r.ok) {
        line(fmt::format("Example: `{}` assembles to", p.example));
        line();
        line("```");
        for (uint32_t w : r.words) line(fmt::format("{:<32}; 0x{:08X}", disassemble(spec_, w), w));
        line("```");
        line();
      }
    }
  }

  void assembly_language() {
    const RegisterClass* first = spec_.register_classes.empty() ? nullptr : &spec_.register_classes.front();
    const std::string reg = first != nullptr ? first->prefix : "r";
    line("## Assembly language");
    line();
    line("### Lines");
    line();
    line("```");
    line("[label:]... [MNEMONIC operand, operand, ...]   ; comment");
    line("```");
    line();
    if (spec_.bundle.present()) {
      line(
          "- One bundle per line: `{ op ; op ; op }`, or a single op without braces. A bundle may also span "
          "lines (`{` ... `}`), one op per line. Operands are separated by commas.");
      line(
          "- Inside braces `;` separates ops, so comments there start with `//` or `#`; outside braces `;` "
          "starts a comment. Labels go before a bundle, never inside it.");
    } else {
      line("- One instruction per line. Operands are separated by commas.");
    }
    line(fmt::format(
        "- Mnemonics and register names are case-insensitive (`{0}` = `{1}`); labels and constants "
        "are case-sensitive.",
        spec_.instructions.empty() ? "" : spec_.instructions.front().name,
        spec_.instructions.empty() ? "" : [&] {
          std::string lower = spec_.instructions.front().name;
          for (char& c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
          return lower;
        }()));
    line("- Trailing operands shown in brackets in a syntax may be omitted; they take their default.");
    line(
        "- Comments run from `;`, `#` or `//` to the end of the line. Because `#` starts a comment, write "
        "immediates without it (`5`, not `#5`).");
    line();
    line("### Labels");
    line();
    line(
        "`name:` defines a label; names are `[A-Za-z_][A-Za-z0-9_]*`. A label stands alone on its line or "
        "precedes an instruction, and several may share a line. Its value is the **index of the next "
        "instruction "
        "word** (the first instruction is 0; a pseudo-instruction that expands to two instructions occupies "
        "two "
        "indices). Labels may be used before they are defined. A label cannot be named like a register, and "
        "cannot redefine another symbol.");
    line();
    line("### Directives");
    line();
    line("| Directive | Meaning |");
    line("|---|---|");
    line(
        "| `.equ NAME, expr` | Defines the constant `NAME`. `expr` may use labels and constants defined "
        "anywhere "
        "in the file. |");
    line("| `.set NAME, expr` | The same as `.equ` (a constant cannot be redefined). |");
    line("| `.word expr[, expr...]` | Emits raw instruction words (each -2147483648..4294967295). |");
    if (spec_.bundle.present()) {
      line(
          "| `.reads_old [reg, ...]` | The next bundle reads the old value of these registers (none listed: "
          "of "
          "every register) on purpose: `kcraft check` does not warn about those reads, and warns about a "
          "mark "
          "that covers none. |");
      line("| `.reads_old begin [reg, ...]` ... `.reads_old end` | The same for every bundle in between. |");
    }
    line();
    line("### Expressions");
    line();
    line(
        "Immediate operands, loop ends and directive values are integer expressions, computed with 64-bit "
        "two's complement arithmetic and then range-checked for their field.");
    line();
    line("- Literals: decimal `42`, hexadecimal `0x2A`, binary `0b101010`.");
    line("- Symbols: labels, `.equ`/`.set` constants and predefined symbols.");
    line("- `.` is the index of the current instruction (so `.+3` is three instructions ahead).");
    line("- Operators, from highest to lowest precedence (C rules):");
    line();
    line("| Precedence | Operators | Notes |");
    line("|---|---|---|");
    line("| 1 | unary `-` `+` `~` `!` | |");
    line("| 2 | `*` `/` `%` | `/` and `%` truncate toward zero; division by zero is an error |");
    line("| 3 | `+` `-` | |");
    line("| 4 | `<<` `>>` | `>>` is arithmetic; shift counts 0..63 |");
    line("| 5 | `<` `<=` `>` `>=` | 1 if true, 0 if false |");
    line("| 6 | `==` `!=` | |");
    line("| 7 | `&` | |");
    line("| 8 | `^` | |");
    line("| 9 | `\\|` | |");
    line("| 10 | `&&` | |");
    line("| 11 | `\\|\\|` | |");
    line();
    line(
        "Parentheses group. Floating-point expressions (only for `fp32` operands, such as the value of a "
        "floating-point load-immediate) also accept `1.5`, `1e-6`, hex floats `0x1.8p3`, `inf` and `nan`, "
        "and "
        "use only `+ - * /`, unary `-` and parentheses; all arithmetic is floating-point (`1/64` is "
        "0.015625). "
        "The result is rounded once to FP32 (nearest even); a single literal is rounded directly from its "
        "text.");
    line();
    line("### Predefined symbols");
    line();
    line(
        "The tools predefine the hardware configuration's parameters (see [Hardware parameters]"
        "(#hardware-parameters)) and the task's symbols, such as the DRAM byte address of each tensor "
        "(`ADDR_X`, ...), as listed in the task's description. A program cannot redefine a predefined "
        "symbol.");
    line();
    if (!loop_instructions_.empty()) {
      line("### Hardware loops");
      line();
      line(
          fmt::format("{} take the loop's **end label**: the label right after the last instruction of the "
                      "body. The body is "
                      "the instructions between the loop instruction and that label; it must hold at least "
                      "one instruction. "
                      "The encoding stores the body length (`end - (index of the loop + 1)`). Rules checked "
                      "by the assembler:",
                      fmt::join(loop_instructions_, " and ")));
      line();
      line(
          "- The end label must come after the loop instruction, with at least one instruction between "
          "them.");
      line(
          "- Loops nest: a loop inside another loop's body must have its whole body inside that body, and "
          "its "
          "body must **end strictly before** the enclosing body ends (put at least one instruction between "
          "the "
          "two end labels).");
      if (!spec_.loop_depth_symbol.empty()) {
        line(fmt::format("- Nesting depth is limited to `{}` levels.", spec_.loop_depth_symbol));
      }
      if (!spec_.examples.empty()) {
        line();
        line("The [example programs](#example-programs) include nested loops.");
      }
      line();
    }
    line("### Diagnostics");
    line();
    line(
        "The assembler reports every error (up to 100), each as `file:line:column: error: message` with the "
        "source line, a caret under the offending text and a `hint:` line, for example:");
    line();
    line("```");
    const std::string bad = out_of_range_example();
    const AssembleResult r = assemble(spec_, bad, "kernel.s", {});
    out_ += format_diagnostics(r, bad);
    line("```");
    line();
    line(
        "Errors: unknown instruction (with suggestions), wrong operand count (with the syntax), wrong "
        "register "
        "class or a register that does not exist, immediate out of range, unknown or duplicate symbol, bad "
        "expression or character, division by zero, a loop end that is not after its loop, badly nested "
        "loops. "
        "Warnings: writing a hardwired register, a program without the halt instruction, a loop body that "
        "runs "
        "past the end of the program, a floating-point constant that is subnormal or overflows in FP32.");
    line();
    if (spec_.bundle.present()) {
      line(
          "Bundles add errors for more ops of a kind than the bundle has slots (`two vector ops in one "
          "bundle`), two ops of a bundle writing one register, an empty or unclosed bundle, a label inside "
          "one, and a loop end inside one. The **read-before-ready** warning names the consumer's line "
          "(where it points) and the producer's, how many bundles apart they are (counting across a loop's "
          "back edge when that is the shorter way) and how many more bundles the result needs:");
      line();
      line("```");
      const std::string hazard = "        A_VMAC a0, v1, v2\n        V_SRS  v3, a0\n        C_HALT\n";
      out_ += format_diagnostics(assemble(spec_, hazard, "kernel.s", {}), hazard);
      line("```");
      line();
    }
    line("### Disassembly");
    line();
    line(
        "The disassembler prints a program in this syntax, inventing labels `L<index>` for loop ends, and "
        "the "
        "output assembles back to the same words. A single instruction's loop end is printed relative to its "
        "own index (`.+N`). An illegal word is printed as `.word 0x........ ; illegal: <reason>`.");
    line();
  }

  // An instruction's example with its signed immediate pushed out of range, to show a diagnostic.
  std::string out_of_range_example() const {
    for (const InstructionSpec& insn : spec_.instructions) {
      for (size_t k = 0; k < insn.operands.size(); ++k) {
        if (insn.operands[k].kind != OperandKind::kSimm) continue;
        std::vector<std::string> operands;
        const size_t space = insn.example.find(' ');
        std::string rest = space == std::string::npos ? "" : insn.example.substr(space + 1);
        for (size_t comma; (comma = rest.find(',')) != std::string::npos; rest = rest.substr(comma + 1)) {
          operands.push_back(rest.substr(0, comma));
        }
        operands.push_back(rest);
        if (operands.size() <= k) continue;
        int64_t value = insn.operands[k].max + 1;
        int64_t unit = 1;
        while (unit * 10 <= value) unit *= 10;
        value = (value + unit - 1) / unit * unit;  // 65536 -> 70000
        operands[k] = (k == 0 ? "" : " ") + std::to_string(value);
        std::string text =
            "        " + insn.example.substr(0, space + 1) + fmt::format("{}", fmt::join(operands, ","));
        if (!spec_.halt_mnemonic.empty()) text += "\n        " + spec_.halt_mnemonic;
        return text + "\n";
      }
    }
    return "        BOGUS\n";
  }

  void errors() {
    if (spec_.errors.codes.empty()) return;
    line("## Errors");
    line();
    if (!spec_.errors.notes.empty()) {
      line(spec_.errors.notes);
      line();
    }
    line("| Code | Error | Meaning |");
    line("|---|---|---|");
    for (const MachineCode& c : spec_.errors.codes) {
      line(fmt::format("| {} | `{}` | {} |", c.code, c.name, cell(c.description)));
    }
    line();
  }

  void counters() {
    if (spec_.counters.empty()) return;
    line("## Performance counters");
    line();
    if (!spec_.counter_notes.empty()) {
      line(spec_.counter_notes);
      line();
    }
    line("| Index | Counter | Architectural | Meaning |");
    line("|---|---|---|---|");
    for (const CounterSpec& c : spec_.counters) {
      line(fmt::format("| {} | `{}` | {} | {} |", c.index, c.name, c.architectural ? "yes" : "no",
                       cell(c.description)));
    }
    line();
    if (spec_.stall_causes.codes.empty()) return;
    line("### Stall causes");
    line();
    if (!spec_.stall_causes.notes.empty()) {
      line(spec_.stall_causes.notes);
      line();
    }
    line("| Code | Cause | Meaning | Counted in |");
    line("|---|---|---|---|");
    for (const MachineCode& c : spec_.stall_causes.codes) {
      line(fmt::format("| {} | `{}` | {} | {} |", c.code, c.name, cell(c.description),
                       c.counter.empty() ? "" : "`" + c.counter + "`"));
    }
    line();
  }

  void example_programs() {
    if (spec_.examples.empty()) return;
    line("## Example programs");
    line();
    for (const ExampleProgram& e : spec_.examples) {
      line(fmt::format("### {}", e.title));
      line();
      line(e.description);
      line();
      line("```");
      out_ += e.source;
      if (!e.source.empty() && e.source.back() != '\n') line();
      line("```");
      line();
    }
  }

  const IsaSpec& spec_;
  std::string source_;
  std::string out_;
  std::vector<std::string> loop_instructions_;
};

}  // namespace

std::string emit_markdown(const IsaSpec& spec, const std::string& source_name) {
  return MarkdownWriter(spec, source_name).write();
}

}  // namespace kcraft::isa::gen
