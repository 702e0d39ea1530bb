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

// The assembler's encoding (assembler_internal.h): operands and their diagnostics, one instruction's word,
// and pass 2, which encodes every statement and pseudo-instruction.

std::string Assembler::register_noun(int register_class) const {
  const RegisterClass& rc = spec_.register_classes[static_cast<size_t>(register_class)];
  return rc.noun.empty() ? rc.name + " register" : rc.noun;
}

std::string Assembler::register_range(int register_class) const {
  const RegisterClass& rc = spec_.register_classes[static_cast<size_t>(register_class)];
  return fmt::format("{}0..{}{}", rc.prefix, rc.prefix, rc.count - 1);
}

std::string Assembler::article(const std::string& noun) {
  return (!noun.empty() && std::string_view("aeiouAEIOUF").find(noun[0]) != std::string_view::npos ? "an "
                                                                                                   : "a ") +
         noun;
}

std::optional<RegisterRef> Assembler::operand_register(const std::vector<Token>& tokens,
                                                       const Slice& s) const {
  if (s.end - s.begin != 1 || tokens[s.begin].kind != TokenKind::kIdentifier) return std::nullopt;
  return parse_register(spec_, tokens[s.begin].text);
}

bool Assembler::is_register_token(const std::vector<Token>& tokens, size_t index) const {
  return tokens[index].kind == TokenKind::kIdentifier &&
         parse_register(spec_, tokens[index].text).has_value();
}

std::string Assembler::suggest_alternative(const std::string& mnemonic, const std::vector<Token>& tokens,
                                           const std::vector<Slice>& ops) const {
  const InstructionSpec* best = nullptr;
  size_t best_distance = 4;
  for (const InstructionSpec& candidate : spec_.instructions) {
    if (candidate.name == mnemonic) continue;
    size_t required = 0;
    while (required < candidate.operands.size() && !candidate.operands[required].default_value) ++required;
    if (ops.size() < required || ops.size() > candidate.operands.size()) continue;
    bool match = true;
    for (size_t i = 0; i < ops.size() && match; ++i) {
      const auto reg = operand_register(tokens, ops[i]);
      const OperandSpec& o = candidate.operands[i];
      if (o.kind == OperandKind::kRegister) {
        match = reg && reg->register_class == o.register_class;
      } else {
        match = !reg && !ops[i].empty();
      }
    }
    if (!match) continue;
    const size_t distance = edit_distance(mnemonic, candidate.name);
    if (distance < best_distance) {
      best_distance = distance;
      best = &candidate;
    }
  }
  if (best == nullptr) return "";
  return fmt::format("did you mean {}? (syntax: {})", best->name, syntax_of(*best));
}

std::string Assembler::range_message(const OperandSpec& op, int64_t value) const {
  const unsigned w = op.field.width;
  const std::string shown = op.display == Display::kHex && value >= 0
                                ? fmt::format("{} ({})", value, format_immediate(op, value))
                                : std::to_string(value);
  if (w > 0 && w < 63) {
    const int64_t field_min = op.kind == OperandKind::kSimm ? -(int64_t{1} << (w - 1)) : 0;
    const int64_t field_max =
        op.kind == OperandKind::kSimm ? (int64_t{1} << (w - 1)) - 1 : (int64_t{1} << w) - 1;
    if (op.min == field_min && op.max == field_max) {
      return fmt::format("immediate {} does not fit the {}-bit {} field ({}..{})", shown, w,
                         op.kind == OperandKind::kSimm ? "signed" : "unsigned", op.min, op.max);
    }
  }
  return fmt::format("{} {} is out of range {}", op.name, shown, operand_range_text(spec_, op));
}

std::string Assembler::range_hint(const InstructionSpec& insn, const OperandSpec& op) const {
  // A multi-form pseudo-instruction that starts with this instruction loads values of any size.
  for (const PseudoSpec& p : spec_.pseudos) {
    if (p.forms.size() < 2 || p.forms.front().lines.empty()) continue;
    const std::string& first = p.forms.front().lines.front();
    const std::string mnemonic = first.substr(0, first.find(' '));
    if (to_upper(mnemonic) == insn.name) {
      return fmt::format("'{}' loads any 32-bit value, choosing the shortest instruction sequence", p.syntax);
    }
  }
  return fmt::format("{}: {} takes {}", syntax_of(insn), op.name, operand_range_text(spec_, op));
}

std::optional<uint32_t> Assembler::encode(const InstructionSpec& insn, const std::vector<Token>& tokens,
                                          const std::vector<Slice>& ops, const Token& mnemonic, int64_t pc,
                                          const Site& site, bool hash_comment,
                                          std::vector<LoopRecord>* loops) {
  const int mnemonic_length = static_cast<int>(mnemonic.text.size());
  size_t required = 0;
  while (required < insn.operands.size() && !insn.operands[required].default_value) ++required;
  if (ops.size() < required || ops.size() > insn.operands.size()) {
    const std::string expected = required == insn.operands.size()
                                     ? fmt::format("{} operand{}", required, required == 1 ? "" : "s")
                                     : fmt::format("{} to {} operands", required, insn.operands.size());
    std::string hint = fmt::format("syntax: {}", syntax_of(insn));
    if (hash_comment) hint += "; '#' starts a comment, so write immediates without '#'";
    if (ops.size() > insn.operands.size()) {
      const Slice& extra = ops[insn.operands.size()];
      report_at(site, Severity::kError, extra.column, extra.length, extra.text,
                fmt::format("{} expects {}, got {}", insn.name, expected, ops.size()), hint);
    } else {
      report_at(site, Severity::kError, mnemonic.column, mnemonic_length, mnemonic.text,
                fmt::format("{} expects {}, got {}", insn.name, expected, ops.size()), hint);
    }
    return std::nullopt;
  }

  uint32_t word = insert(0, spec_.opcode_field, insn.opcode);
  bool ok = true;
  for (size_t i = 0; i < insn.operands.size(); ++i) {
    const OperandSpec& op = insn.operands[i];
    if (i >= ops.size()) {
      word = insert(word, op.field, static_cast<uint32_t>(*op.default_value));
      continue;
    }
    const Slice& s = ops[i];
    if (s.empty()) {
      std::string hint = fmt::format("syntax: {}", syntax_of(insn));
      if (hash_comment) hint = "'#' starts a comment: write immediates without '#' (5, not #5)";
      report_at(site, Severity::kError, s.column, s.length, "", fmt::format("missing operand {}", op.name),
                hint);
      ok = false;
      continue;
    }
    const auto reg = operand_register(tokens, s);
    if (op.kind == OperandKind::kRegister) {
      const std::string noun = register_noun(op.register_class);
      const std::string range = register_range(op.register_class);
      if (!reg && s.end - s.begin > 1 && is_register_token(tokens, s.begin)) {
        // "r3 r4": a comma is missing.
        const Token& extra = tokens[s.begin + 1];
        report_at(site, Severity::kError, extra.column, static_cast<int>(extra.text.size()), extra.text,
                  fmt::format("unexpected '{}' after '{}'", extra.text, tokens[s.begin].text),
                  "separate operands with ','");
        ok = false;
        continue;
      }
      if (!reg) {
        std::string hint = fmt::format("{}: {} is {}", syntax_of(insn), op.name, article(noun));
        const std::string alternative =
            dropped(site, Severity::kError) ? "" : suggest_alternative(insn.name, tokens, ops);
        if (!alternative.empty()) hint = alternative;
        error_at(site, s, fmt::format("expected {} {}, got '{}'", article(noun), range, s.text), hint);
        ok = false;
        continue;
      }
      if (reg->register_class != op.register_class) {
        std::string hint = dropped(site, Severity::kError) ? "" : suggest_alternative(insn.name, tokens, ops);
        if (hint.empty()) hint = fmt::format("{}: {} is {}", syntax_of(insn), op.name, article(noun));
        error_at(site, s,
                 fmt::format("expected {} {}, got {} '{}'", article(noun), range,
                             register_noun(reg->register_class), s.text),
                 hint);
        ok = false;
        continue;
      }
      const RegisterClass& rc = spec_.register_classes[static_cast<size_t>(op.register_class)];
      if (reg->number >= static_cast<int64_t>(rc.count)) {
        error_at(site, s, fmt::format("register '{}' does not exist", s.text),
                 fmt::format("{}s are {}", noun, range));
        ok = false;
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
      word = insert(word, op.field, static_cast<uint32_t>(reg->number));
      continue;
    }
    if (reg) {
      const std::string what = op.kind == OperandKind::kBody
                                   ? "a label (the end of the loop body)"
                                   : fmt::format("an immediate {}", operand_range_text(spec_, op));
      std::string hint = dropped(site, Severity::kError) ? "" : suggest_alternative(insn.name, tokens, ops);
      if (hint.empty()) hint = fmt::format("syntax: {}", syntax_of(insn));
      error_at(site, s, fmt::format("expected {}, got register '{}'", what, s.text), hint);
      ok = false;
      continue;
    }
    const auto value = eval_int(tokens, s, pc, site);
    if (!value) {
      ok = false;
      continue;
    }
    if (op.kind == OperandKind::kBody) {
      const int64_t length = *value - (pc + 1);
      if (*value <= pc) {
        error_at(site, s,
                 fmt::format("loop end '{}' (instruction {}) is not after the loop (instruction {})", s.text,
                             *value, pc),
                 "put the end label right after the last instruction of the loop body");
        ok = false;
      } else if (length < op.min) {
        error_at(site, s,
                 length == 0 ? fmt::format("loop body is empty: '{}' labels the instruction right after {}",
                                           s.text, insn.name)
                             : fmt::format("loop body of {} instructions is shorter than the minimum {}",
                                           length, op.min),
                 "the body is the instructions between the loop and its end label; put the label after the "
                 "last instruction of the body");
        ok = false;
      } else if (length > op.max) {
        error_at(site, s,
                 fmt::format("loop body of {} instructions is longer than the maximum {}", length, op.max),
                 "split the loop or move work out of its body");
        ok = false;
      } else {
        word = insert(word, op.field, static_cast<uint32_t>(length));
        if (loops != nullptr) {
          loops->push_back(LoopRecord{pc, *value, site.line, mnemonic.column, mnemonic_length,
                                      std::string(mnemonic.text)});
        }
      }
      continue;
    }
    if (*value < op.min || *value > op.max) {
      error_at(site, s, range_message(op, *value), range_hint(insn, op));
      ok = false;
      continue;
    }
    word = insert(word, op.field, static_cast<uint32_t>(*value));
  }
  if (!ok) return std::nullopt;
  return word;
}

void Assembler::pass2() {
  for (const Statement& st : statements_) {
    current_statement_ = &st;
    Site site;
    site.line = st.line;
    const Token& head = st.tokens[st.mnemonic];
    switch (st.kind) {
      case StatementKind::kInstruction: {
        const auto word =
            encode(*st.insn, st.tokens, st.operands, head, st.pc, site, st.hash_comment, &loops_);
        emit(word.value_or(0) | end_of_bundle(st.end_of_bundle), st.line);
        break;
      }
      case StatementKind::kPseudo:
        emit_pseudo(st, site);
        break;
      case StatementKind::kWord:
        for (const Slice& s : st.operands) {
          if (s.empty()) {
            report(Severity::kError, st.line, s.column, s.length, "", "missing value",
                   "syntax: .word value[, value...]");
            emit(0, st.line);
            continue;
          }
          const auto value = eval_int(st.tokens, s, st.pc, site);
          if (value && (*value < kWordMin || *value > kWordMax)) {
            report(Severity::kError, st.line, s.column, s.length, s.text,
                   fmt::format("value {} does not fit a 32-bit word", *value),
                   fmt::format("'.word' takes {}..{}", kWordMin, kWordMax));
          }
          emit(value ? static_cast<uint32_t>(*value) : 0u, st.line);
        }
        break;
      case StatementKind::kUnknown:
        emit(end_of_bundle(st.end_of_bundle), st.line);
        break;
    }
  }
}

uint32_t Assembler::end_of_bundle(bool last) const {
  return last ? end_of_bundle_mask_ : 0u;
}

void Assembler::emit(uint32_t word, int line) {
  result_.words.push_back(word);
  result_.word_lines.push_back(line);
  word_statements_.push_back(current_statement_);
}

void Assembler::emit_pseudo(const Statement& st, const Site& site) {
  const PseudoSpec& p = *st.pseudo;
  const Token& head = st.tokens[st.mnemonic];
  auto pad = [&] {
    for (size_t i = 0; i < st.size; ++i) emit(end_of_bundle(!st.in_bundle || st.end_of_bundle), st.line);
  };
  if (st.bundle_failed) {
    pad();
    return;
  }
  if (st.operands.size() != p.operands.size()) {
    std::string hint = fmt::format("syntax: {}", p.syntax);
    if (st.hash_comment) hint += "; '#' starts a comment, so write values without '#'";
    if (st.operands.size() > p.operands.size()) {
      const Slice& extra = st.operands[p.operands.size()];
      report(Severity::kError, st.line, extra.column, extra.length, extra.text,
             fmt::format("{} expects {} operands, got {}", p.name, p.operands.size(), st.operands.size()),
             hint);
    } else {
      report(Severity::kError, st.line, head.column, static_cast<int>(head.text.size()), head.text,
             fmt::format("{} expects {} operands, got {}", p.name, p.operands.size(), st.operands.size()),
             hint);
    }
    pad();
    return;
  }
  site_failed_ = false;
  const PseudoArgs args = pseudo_args(p, st, /*pass1=*/false, site);
  if (!args.ok || site_failed_) {
    pad();
    return;
  }
  Site expansion;
  expansion.line = st.line;
  expansion.redirect = true;
  expansion.errors_only = true;
  expansion.column = head.column;
  expansion.length = st.operands.empty()
                         ? static_cast<int>(head.text.size())
                         : st.operands.back().column + st.operands.back().length - head.column;
  expansion.text = std::string(
      st.code.substr(static_cast<size_t>(head.column - 1), static_cast<size_t>(expansion.length)));
  expansion.prefix = fmt::format("in the expansion of {}: ", p.name);
  int64_t at = st.pc;
  for (const std::string& line : p.forms[st.form].lines) {
    const auto word = encode_line(expand_line(p, line, args), at++, expansion);
    // Outside braces each word of the expansion is a bundle of its own.
    emit(word.value_or(0) | end_of_bundle(!st.in_bundle || st.end_of_bundle), st.line);
  }
}

}  // namespace kcraft::isa::assembler_detail
