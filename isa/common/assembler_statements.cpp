#include "isa/common/assembler_internal.h"

#include <algorithm>
#include <cctype>
#include <climits>
#include <cmath>
#include <deque>
#include <optional>
#include <set>
#include <tuple>

#include <fmt/format.h>

#include "isa/common/disassembler.h"

namespace kcraft::isa::assembler_detail {

// Pass 1 of the assembler (assembler_internal.h): statements and their addresses, pseudo-instructions
// (operands, forms, expansion), directives, labels and constants.

PseudoArgs Assembler::pseudo_args(const PseudoSpec& p, const Statement& st, bool pass1, const Site& site) {
  PseudoArgs args;
  args.text.resize(p.operands.size());
  args.value.resize(p.operands.size());
  for (size_t i = 0; i < p.operands.size() && i < st.operands.size(); ++i) {
    const OperandSpec& op = p.operands[i];
    const Slice& s = st.operands[i];
    if (s.empty()) {
      std::string hint = fmt::format("syntax: {}", p.syntax);
      if (st.hash_comment) hint = "'#' starts a comment: write values without '#' (5, not #5)";
      report_at(site, Severity::kError, s.column, s.length, "", fmt::format("missing operand {}", op.name),
                hint);
      args.ok = false;
      continue;
    }
    const auto reg = operand_register(st.tokens, s);
    if (op.kind == OperandKind::kRegister) {
      const std::string noun = register_noun(op.register_class);
      const RegisterClass& rc = spec_.register_classes[static_cast<size_t>(op.register_class)];
      if (!reg || reg->register_class != op.register_class) {
        error_at(site, s,
                 fmt::format("expected {} {}, got {}'{}'", article(noun), register_range(op.register_class),
                             reg ? register_noun(reg->register_class) + " " : "", s.text),
                 fmt::format("syntax: {}", p.syntax));
        args.ok = false;
        continue;
      }
      if (reg->number >= static_cast<int64_t>(rc.count)) {
        error_at(site, s, fmt::format("register '{}' does not exist", s.text),
                 fmt::format("{}s are {}", noun, register_range(op.register_class)));
        args.ok = false;
        continue;
      }
      if (op.access != Access::kRead) {
        for (const auto& [number, value] : rc.hardwired) {
          if (number == reg->number) {
            report_at(
                site, Severity::kWarning, s.column, s.length, s.text,
                fmt::format("write to {}{} has no effect: it is hardwired to {}", rc.prefix, number, value),
                "use another destination register");
          }
        }
      }
      args.text[i] = fmt::format("{}{}", rc.prefix, reg->number);
      args.value[i] = reg->number;
      continue;
    }
    if (reg) {
      error_at(site, s, fmt::format("expected a value, got register '{}'", s.text),
               fmt::format("syntax: {}", p.syntax));
      args.ok = false;
      continue;
    }
    auto expr = parse_slice(st.tokens, s, site);
    if (!expr) {
      args.ok = false;
      continue;
    }
    poisoned_ = false;
    if (op.kind == OperandKind::kFp32) {
      const FloatValue v = evaluate_float(*expr, resolver(), st.pc, pass1);
      if (poisoned_ || v.status == EvalStatus::kError) {
        if (!poisoned_) report_eval_error(site, s, v.error);
        args.ok = false;
        continue;
      }
      if (v.status == EvalStatus::kUnresolved) {
        args.unresolved = true;
        continue;
      }
      uint32_t bits = fp32_bits_from_double(v.value);
      if (v.single_literal) {
        // One rounding from the decimal text, not decimal -> double -> float.
        const ExprNode& root = expr->nodes[static_cast<size_t>(expr->root)];
        const bool negate = root.kind == ExprNode::Kind::kUnary && root.op == "-";
        const ExprNode& literal = negate ? expr->nodes[static_cast<size_t>(root.lhs)] : root;
        if (auto exact = fp32_bits_from_text(literal.literal, negate)) bits = *exact;
      }
      const uint32_t magnitude = bits & 0x7FFFFFFFu;
      if (std::isfinite(v.value) && v.value != 0.0 && magnitude < 0x00800000u) {
        report_at(site, Severity::kWarning, s.column, s.length, s.text,
                  fmt::format("{} is {} in FP32; the FP units read it as zero", s.text,
                              magnitude == 0 ? "too small (it rounds to zero)" : "subnormal"),
                  "the smallest normal FP32 magnitude is about 1.1754944e-38; write 0.0 if zero is meant");
      } else if (std::isfinite(v.value) && magnitude == 0x7F800000u) {
        report_at(site, Severity::kWarning, s.column, s.length, s.text,
                  fmt::format("{} overflows FP32 and becomes {}inf", s.text, bits >> 31 ? "-" : ""),
                  "the largest FP32 magnitude is about 3.4028235e38; write inf if infinity is meant");
      }
      args.text[i] = std::to_string(bits);
      args.value[i] = bits;
      continue;
    }
    const IntValue v = evaluate_int(*expr, resolver(), st.pc, pass1);
    if (poisoned_ || v.status == EvalStatus::kError) {
      if (!poisoned_) report_eval_error(site, s, v.error);
      args.ok = false;
      continue;
    }
    if (v.status == EvalStatus::kUnresolved) {
      args.unresolved = true;
      continue;
    }
    int64_t value = v.value;
    if (op.kind == OperandKind::kInt32) {
      if (value < kWordMin || value > kWordMax) {
        error_at(site, s, fmt::format("value {} does not fit 32 bits ({}..{})", value, kWordMin, kWordMax),
                 fmt::format("{} loads one 32-bit register", p.name));
        args.ok = false;
        continue;
      }
      value = static_cast<int32_t>(static_cast<uint32_t>(value));  // 0xFFFFFFFF is -1
    } else if (value < op.min || value > op.max) {
      error_at(site, s, range_message(op, value), fmt::format("syntax: {}", p.syntax));
      args.ok = false;
      continue;
    }
    args.text[i] = value < 0 ? fmt::format("({})", value) : std::to_string(value);
    args.value[i] = value;
  }
  return args;
}

std::string Assembler::expand_line(const PseudoSpec& p, const std::string& line, const PseudoArgs& args) {
  std::string out;
  for (const Token& t : tokenize(line)) {
    if (!out.empty()) out += ' ';
    std::string_view text = t.text;
    if (t.kind == TokenKind::kIdentifier) {
      for (size_t i = 0; i < p.operands.size(); ++i) {
        if (p.operands[i].name == t.text) text = args.text[i];
      }
    }
    out += text;
  }
  return out;
}

std::optional<uint32_t> Assembler::encode_line(const std::string& text, int64_t pc, const Site& site) {
  const std::vector<Token> tokens = tokenize(text);
  const InstructionSpec* insn = !tokens.empty() && tokens[0].kind == TokenKind::kIdentifier
                                    ? spec_.find_instruction(tokens[0].text)
                                    : nullptr;
  if (insn == nullptr) {
    report_at(site, Severity::kError, 0, 0, text, fmt::format("template '{}' is not an instruction", text),
              "the ISA specification's pseudo-instruction forms are wrong");
    return std::nullopt;
  }
  const std::vector<Slice> ops = split_operands(text, tokens, 1);
  return encode(*insn, tokens, ops, tokens[0], pc, site, false, nullptr);
}

bool Assembler::form_applies(const PseudoSpec& p, const PseudoForm& form, const PseudoArgs& args,
                             int64_t pc) {
  if (!form.when.empty()) {
    const std::vector<Token> tokens = tokenize(form.when);
    auto expr = parse_expression(tokens, 0, tokens.size(), nullptr);
    if (!expr) return false;
    const SymbolResolver lookup = [&](std::string_view name) -> std::optional<int64_t> {
      for (size_t i = 0; i < p.operands.size(); ++i) {
        if (p.operands[i].name == name) return args.value[i];
      }
      return std::nullopt;
    };
    const IntValue v = evaluate_int(*expr, lookup, pc, false);
    if (v.status != EvalStatus::kOk || v.value == 0) return false;
  }
  Site trial;
  trial.silent = true;
  int64_t at = pc;
  for (const std::string& line : form.lines) {
    site_failed_ = false;
    if (!encode_line(expand_line(p, line, args), at++, trial) || site_failed_) return false;
  }
  return true;
}

size_t Assembler::longest_form(const PseudoSpec& p) {
  size_t best = 0;
  for (size_t i = 1; i < p.forms.size(); ++i) {
    if (p.forms[i].lines.size() > p.forms[best].lines.size()) best = i;
  }
  return best;
}

void Assembler::pass1() {
  int line_number = 0;
  size_t start = 0;
  int64_t pc = 0;
  while (start < source_.size()) {
    size_t end = source_.find('\n', start);
    if (end == std::string_view::npos) end = source_.size();
    std::string_view line = source_.substr(start, end - start);
    start = end + 1;
    ++line_number;
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);

    // Comments: ';', '#' or '//' to the end of the line; in a VLIW ISA ';' inside braces separates ops.
    const size_t comment = comment_start(line);
    Statement st;
    st.line = line_number;
    st.code = line.substr(0, comment);
    if (comment != std::string_view::npos && line[comment] == '#' && comment + 1 < line.size() &&
        !std::isspace(static_cast<unsigned char>(line[comment + 1])) && line[comment + 1] != '#') {
      st.hash_comment = true;
    }
    st.tokens = tokenize(st.code);
    if (spec_.bundle.present()) {
      bundled_line(st, pc);
      continue;
    }
    size_t i = 0;
    const std::vector<Token>& tokens = st.tokens;
    while (i + 1 < tokens.size() && tokens[i].kind == TokenKind::kIdentifier &&
           tokens[i + 1].kind == TokenKind::kColon) {
      define_label(tokens[i], line_number, pc);
      i += 2;
    }
    if (i >= tokens.size()) continue;
    single_statement(std::move(st), i, pc);
  }
  if (bundle_.open) {
    report(Severity::kError, bundle_.line, bundle_.column, 1, "{", "bundle is not closed",
           "end the bundle with '}'");
    close_bundle(pc);
  }
  if (open_old_region_) {
    const OldReadMark& m = *open_old_region_;
    report(Severity::kError, m.line, m.column, m.length, m.text, "'.reads_old begin' is never ended",
           "close the region with '.reads_old end' after its last bundle");
    open_old_region_.reset();
  }
  program_size_ = pc;
}

size_t Assembler::comment_start(std::string_view line) const {
  if (!spec_.bundle.present()) return std::min({line.find(';'), line.find('#'), line.find("//")});
  bool open = bundle_.open;
  for (size_t k = 0; k < line.size(); ++k) {
    const char c = line[k];
    if (c == '#' || (c == '/' && k + 1 < line.size() && line[k + 1] == '/')) return k;
    if (c == '{') open = true;
    if (c == '}') open = false;
    if (c == ';' && !open) return k;
  }
  return std::string_view::npos;
}

void Assembler::single_statement(Statement st, size_t i, int64_t& pc) {
  const std::vector<Token>& tokens = st.tokens;
  const Token& head = tokens[i];
  st.mnemonic = i;
  st.pc = pc;
  if (head.kind == TokenKind::kDirective) {
    directive(st, pc);
    return;
  }
  if (head.kind != TokenKind::kIdentifier) {
    std::string message =
        head.kind == TokenKind::kInvalid
            ? head.error
            : fmt::format("expected an instruction, label or directive, found '{}'", head.text);
    std::string hint = "a line holds optional labels ('name:'), then one instruction or directive";
    if (head.kind == TokenKind::kLBrace || head.kind == TokenKind::kRBrace) {
      hint = fmt::format("the {} ISA has no instruction bundles: write one instruction per line", spec_.name);
    } else if (head.kind == TokenKind::kColon) {
      hint = "a label is a name followed by ':'";
    }
    report(Severity::kError, st.line, head.column, static_cast<int>(head.text.size()), head.text,
           std::move(message), std::move(hint));
    return;
  }
  st.operands = split_operands(st.code, tokens, i + 1);
  st.end_of_bundle = true;
  if ((st.insn = spec_.find_instruction(head.text)) != nullptr) {
    st.kind = StatementKind::kInstruction;
    st.size = 1;
    if (!st.insn->enabled_by.empty()) disabled_instruction(st);
  } else if ((st.pseudo = spec_.find_pseudo(head.text)) != nullptr) {
    st.kind = StatementKind::kPseudo;
    plan_pseudo(st);
  } else {
    st.kind = StatementKind::kUnknown;
    st.size = 1;  // keeps later labels where the author meant them
    unknown_mnemonic(st);
  }
  pc += static_cast<int64_t>(st.size);
  statements_.push_back(std::move(st));
}

void Assembler::define_label(const Token& name, int line, int64_t pc) {
  if (!check_new_symbol(name, line, "label")) return;
  SymbolInfo info;
  info.kind = SymbolInfo::Kind::kLabel;
  info.value = pc;
  info.line = line;
  symbols_.emplace(std::string(name.text), std::move(info));
}

void Assembler::unknown_mnemonic(const Statement& st) {
  const Token& head = st.tokens[st.mnemonic];
  if (errors_ >= kMaxErrors) {  // report() would drop it
    too_many_errors_ = true;
    return;
  }
  if (mnemonic_names_.empty()) {
    mnemonic_names_.reserve(spec_.instructions.size() + spec_.pseudos.size());
    for (const InstructionSpec& insn : spec_.instructions) mnemonic_names_.push_back(insn.name);
    for (const PseudoSpec& p : spec_.pseudos) mnemonic_names_.push_back(p.name);
  }
  std::string hint = did_you_mean(closest_matches(head.text, mnemonic_names_));
  if (hint.empty() && st.operands.empty()) {
    hint = fmt::format("a label needs a colon: '{}:'", head.text);
  } else if (hint.empty()) {
    hint = fmt::format("`kcraft isa {}` lists every instruction", spec_.name);
  }
  report(Severity::kError, st.line, head.column, static_cast<int>(head.text.size()), head.text,
         fmt::format("unknown instruction '{}'", head.text), hint);
}

void Assembler::disabled_instruction(const Statement& st) {
  // An optional instruction is rejected only when the caller predefines its parameter (the hardware
  // configuration's build parameters) and the parameter is 0.
  const std::string& parameter = st.insn->enabled_by;
  auto it = symbols_.find(parameter);
  if (it == symbols_.end() || it->second.kind != SymbolInfo::Kind::kPredefined || it->second.value != 0)
    return;
  const Token& head = st.tokens[st.mnemonic];
  report(Severity::kError, st.line, head.column, static_cast<int>(head.text.size()), head.text,
         fmt::format("{} is an optional instruction and this hardware configuration does not have it "
                     "({} = 0); on this hardware the word is an illegal instruction",
                     st.insn->name, parameter),
         fmt::format("use a hardware configuration whose build has {0}: 1 (`kcraft platforms` shows the "
                     "parameters; `kcraft explore --set {0}=1` builds one), or the instructions it replaces",
                     parameter));
}

void Assembler::plan_pseudo(Statement& st) {
  const PseudoSpec& p = *st.pseudo;
  st.form = longest_form(p);
  st.size = p.forms[st.form].lines.size();
  if (st.operands.size() != p.operands.size()) return;  // reported in pass 2
  Site silent;
  silent.silent = true;
  const PseudoArgs args = pseudo_args(p, st, /*pass1=*/true, silent);
  if (!args.ok || args.unresolved) return;  // forward reference: keep the longest form
  for (size_t f = 0; f < p.forms.size(); ++f) {
    if (form_applies(p, p.forms[f], args, st.pc)) {
      st.form = f;
      st.size = p.forms[f].lines.size();
      return;
    }
  }
}

void Assembler::directive(Statement& st, int64_t& pc) {
  const std::vector<Token>& tokens = st.tokens;
  const Token& head = tokens[st.mnemonic];
  const std::string name = to_upper(head.text);
  if (name == ".EQU" || name == ".SET") {
    define_constant(st, head);
    return;
  }
  if (name == ".READS_OLD") {
    reads_old(st, head, pc);
    return;
  }
  if (name == ".WORD") {
    st.kind = StatementKind::kWord;
    st.operands = split_operands(st.code, tokens, st.mnemonic + 1);
    if (st.operands.empty()) {
      report(Severity::kError, st.line, head.column, static_cast<int>(head.text.size()), head.text,
             "'.word' needs at least one value", "syntax: .word value[, value...]");
    }
    st.size = st.operands.size();
    pc += static_cast<int64_t>(st.size);
    statements_.push_back(std::move(st));
    return;
  }
  report(Severity::kError, st.line, head.column, static_cast<int>(head.text.size()), head.text,
         fmt::format("unknown directive '{}'", head.text), [&] {
           std::vector<std::string_view> known{".equ", ".set", ".word"};
           if (spec_.bundle.present()) known.push_back(".reads_old");
           std::string hint = did_you_mean(closest_matches(head.text, known));
           if (!hint.empty()) return hint;
           return std::string(spec_.bundle.present() ? "directives are .equ, .set, .word and .reads_old"
                                                     : "directives are .equ, .set and .word");
         }());
}

void Assembler::define_constant(const Statement& st, const Token& head) {
  const std::vector<Token>& tokens = st.tokens;
  const std::string syntax = fmt::format("syntax: {} NAME, value", head.text);
  const size_t at = st.mnemonic + 1;
  if (at >= tokens.size() || tokens[at].kind != TokenKind::kIdentifier) {
    if (at >= tokens.size()) {
      report(Severity::kError, st.line, head.column, static_cast<int>(head.text.size()), head.text,
             fmt::format("'{}' needs a name and a value", head.text), syntax);
    } else {
      report(Severity::kError, st.line, tokens[at].column, static_cast<int>(tokens[at].text.size()),
             tokens[at].text,
             fmt::format("expected a symbol name after '{}', found '{}'", head.text, tokens[at].text),
             syntax);
    }
    return;
  }
  const Token& name = tokens[at];
  if (at + 1 >= tokens.size() || tokens[at + 1].kind != TokenKind::kComma) {
    const int column = at + 1 < tokens.size() ? tokens[at + 1].column : token_end_column(name);
    const std::string_view text = at + 1 < tokens.size() ? tokens[at + 1].text : std::string_view();
    report(Severity::kError, st.line, column, static_cast<int>(std::max<size_t>(text.size(), 1)), text,
           at + 1 < tokens.size() ? fmt::format("expected ',' after '{}'", name.text)
                                  : fmt::format("missing value for '{}'", name.text),
           syntax);
    return;
  }
  if (!check_new_symbol(name, st.line, "constant")) return;
  SymbolInfo info;
  info.kind = SymbolInfo::Kind::kConstant;
  info.line = st.line;
  info.location = st.pc;
  const std::vector<Slice> value = split_operands(st.code, tokens, at + 2);
  if (value.size() != 1 || value[0].empty()) {
    const Slice& s = value.empty() ? Slice{} : value[value.size() > 1 ? 1 : 0];
    report(Severity::kError, st.line, s.column > 0 ? s.column : token_end_column(tokens[at + 1]), s.length,
           s.text, value.size() > 1 ? "too many values" : fmt::format("missing value for '{}'", name.text),
           syntax);
    info.state = SymbolInfo::State::kFailed;
    symbols_.emplace(std::string(name.text), std::move(info));
    return;
  }
  Site site;
  site.line = st.line;
  info.column = value[0].column;
  info.length = value[0].length;
  info.text = std::string(value[0].text);
  auto expr = parse_slice(tokens, value[0], site);
  if (!expr) {
    info.state = SymbolInfo::State::kFailed;
    symbols_.emplace(std::string(name.text), std::move(info));
    return;
  }
  poisoned_ = false;
  const IntValue v = evaluate_int(*expr, resolver(), st.pc, /*unresolved_ok=*/true);
  if (poisoned_) {
    info.state = SymbolInfo::State::kFailed;
  } else if (v.status == EvalStatus::kOk) {
    info.state = SymbolInfo::State::kDefined;
    info.value = v.value;
  } else if (v.status == EvalStatus::kUnresolved) {
    info.state = SymbolInfo::State::kPending;
    info.expr = std::move(expr);
  } else {
    report_eval_error(site, value[0], v.error);
    info.state = SymbolInfo::State::kFailed;
  }
  symbols_.emplace(std::string(name.text), std::move(info));
}

void Assembler::resolve_pending_constants() {
  for (bool progress = true; progress;) {
    progress = false;
    for (auto& [name, info] : symbols_) {
      if (info.state != SymbolInfo::State::kPending) continue;
      poisoned_ = false;
      const IntValue v = evaluate_int(*info.expr, resolver(), info.location, true);
      if (v.status == EvalStatus::kUnresolved && !poisoned_) continue;
      progress = true;
      if (poisoned_) {
        info.state = SymbolInfo::State::kFailed;
      } else if (v.status == EvalStatus::kOk) {
        info.state = SymbolInfo::State::kDefined;
        info.value = v.value;
      } else {
        report_pending_error(info, v.error);
        info.state = SymbolInfo::State::kFailed;
      }
    }
  }
  // What is still pending refers to an unknown symbol or to itself. Each chain of first unresolved
  // references ends in one of the two; report at the unknown symbol's use and at every member of a cycle.
  auto first_unresolved = [&](const SymbolInfo& info) {
    return evaluate_int(*info.expr, resolver(), info.location, false).error;
  };
  auto pending = [&](const std::string& name) {
    auto it = symbols_.find(name);
    return it != symbols_.end() && it->second.state == SymbolInfo::State::kPending ? &it->second : nullptr;
  };
  for (auto& [name, info] : symbols_) {
    if (info.state != SymbolInfo::State::kPending) continue;
    const ExprError err = first_unresolved(info);
    if (pending(err.symbol) == nullptr) {
      report_pending_error(info, err);
      continue;
    }
    std::vector<std::string> chain{name, err.symbol};
    while (chain.size() <= symbols_.size() + 1) {
      const SymbolInfo* next = pending(chain.back());
      const std::string ref = next != nullptr ? first_unresolved(*next).symbol : std::string();
      if (ref == name) {
        ExprError cycle = err;
        cycle.symbol.clear();
        chain.push_back(name);
        cycle.message = fmt::format("circular definition: {}", fmt::join(chain, " -> "));
        cycle.hint = "a constant cannot be defined in terms of itself";
        report_pending_error(info, cycle);
        break;
      }
      if (pending(ref) == nullptr || std::find(chain.begin(), chain.end(), ref) != chain.end()) {
        break;  // ends at an error reported elsewhere
      }
      chain.push_back(ref);
    }
  }
  for (auto& [name, info] : symbols_) {
    if (info.state == SymbolInfo::State::kPending) info.state = SymbolInfo::State::kFailed;
  }
}

void Assembler::report_pending_error(const SymbolInfo& info, const ExprError& err) {
  Site site;
  site.line = info.line;
  Slice s;
  s.column = info.column;
  s.length = info.length;
  s.text = info.text;
  report_eval_error(site, s, err);
}

}  // namespace kcraft::isa::assembler_detail
