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

// The assembler's VLIW bundles (assembler_internal.h): `{ op ; op }` lines, each op's slot, and the bundle's
// rules checked when it closes.

void Assembler::bundled_line(const Statement& line, int64_t& pc) {
  const std::vector<Token>& tokens = line.tokens;
  size_t i = 0;
  while (i < tokens.size()) {
    if (!bundle_.open) {
      while (i + 1 < tokens.size() && tokens[i].kind == TokenKind::kIdentifier &&
             tokens[i + 1].kind == TokenKind::kColon) {
        define_label(tokens[i], line.line, pc);
        i += 2;
      }
      if (i >= tokens.size()) break;
      if (tokens[i].kind == TokenKind::kLBrace) {
        bundle_.open = true;
        bundle_.line = line.line;
        bundle_.column = tokens[i].column;
        ++i;
        continue;
      }
      if (tokens[i].kind == TokenKind::kRBrace || tokens[i].kind == TokenKind::kSemicolon) {
        report(Severity::kError, line.line, tokens[i].column, 1, tokens[i].text,
               fmt::format("'{}' without a bundle", tokens[i].text),
               "a bundle is written '{ op ; op ; op }'");
        ++i;
        continue;
      }
      const size_t stop = next_separator(tokens, i);
      single_statement(segment(line, i, stop), 0, pc);
      i = stop;
      continue;
    }
    const size_t stop = next_separator(tokens, i);
    if (stop > i) bundle_op(segment(line, i, stop));
    if (stop >= tokens.size()) break;
    const Token& separator = tokens[stop];
    if (separator.kind == TokenKind::kRBrace) {
      close_bundle(pc);
    } else if (separator.kind == TokenKind::kLBrace) {
      report(Severity::kError, line.line, separator.column, 1, separator.text,
             fmt::format("'{{' inside a bundle (opened at line {}, column {})", bundle_.line, bundle_.column),
             "bundles do not nest: close the first one with '}'");
    }
    i = stop + 1;
  }
}

size_t Assembler::next_separator(const std::vector<Token>& tokens, size_t i) {
  while (i < tokens.size() && tokens[i].kind != TokenKind::kLBrace && tokens[i].kind != TokenKind::kRBrace &&
         tokens[i].kind != TokenKind::kSemicolon) {
    ++i;
  }
  return i;
}

Statement Assembler::segment(const Statement& line, size_t first, size_t stop) {
  Statement st;
  st.line = line.line;
  st.code = line.code;
  st.hash_comment = line.hash_comment;
  st.tokens.assign(line.tokens.begin() + static_cast<std::ptrdiff_t>(first),
                   line.tokens.begin() + static_cast<std::ptrdiff_t>(stop));
  return st;
}

void Assembler::bundle_op(Statement st) {
  st.in_bundle = true;
  st.mnemonic = 0;
  // A label here is an error, but the op after it is still read (one error, not a cascade).
  while (st.tokens.size() >= 2 && st.tokens[0].kind == TokenKind::kIdentifier &&
         st.tokens[1].kind == TokenKind::kColon) {
    const Token& label = st.tokens[0];
    report(Severity::kError, st.line, label.column, static_cast<int>(label.text.size()), label.text,
           fmt::format("label '{}' inside a bundle", label.text),
           "a label names a whole bundle: put it before the '{'");
    st.tokens.erase(st.tokens.begin(), st.tokens.begin() + 2);
    bundle_.rejected_op = true;
  }
  if (st.tokens.empty()) return;
  const Token& head = st.tokens[0];
  if (head.kind != TokenKind::kIdentifier) {
    bundle_.rejected_op = true;
    report(Severity::kError, st.line, head.column, static_cast<int>(head.text.size()), head.text,
           head.kind == TokenKind::kInvalid
               ? head.error
               : fmt::format("expected an op inside the bundle, found '{}'", head.text),
           head.kind == TokenKind::kDirective ? "directives go outside bundles"
                                              : "a bundle is written '{ op ; op ; op }'");
    return;
  }
  st.operands = split_operands(st.code, st.tokens, 1);
  st.pc = static_cast<int64_t>(bundle_.ops.size());  // provisional; fixed when the bundle closes
  if ((st.insn = spec_.find_instruction(head.text)) != nullptr) {
    st.kind = StatementKind::kInstruction;
  } else if ((st.pseudo = spec_.find_pseudo(head.text)) != nullptr) {
    st.kind = StatementKind::kPseudo;
    plan_pseudo(st);
    if (st.size > 1) {
      report(Severity::kError, st.line, head.column, static_cast<int>(head.text.size()), head.text,
             fmt::format("{} expands to {} ops here{}, and one op of a bundle is one word", st.pseudo->name,
                         st.size, form_names(st)),
             fmt::format("write {} outside the braces (each word becomes a bundle of its own)",
                         st.pseudo->name));
      st.bundle_failed = true;
    }
  } else {
    st.kind = StatementKind::kUnknown;
    unknown_mnemonic(st);
  }
  st.size = 1;
  bundle_.ops.push_back(std::move(st));
}

std::string Assembler::form_names(const Statement& st) {
  std::vector<std::string> names;
  for (const std::string& line : st.pseudo->forms[st.form].lines)
    names.push_back(line.substr(0, line.find(' ')));
  return fmt::format(" ({})", fmt::join(names, ", "));
}

std::string Assembler::slot_kind(const Statement& st) const {
  if (st.kind == StatementKind::kInstruction) return st.insn->slot;
  if (st.kind == StatementKind::kPseudo && !st.bundle_failed) {
    const std::string& first = st.pseudo->forms[st.form].lines.front();
    const InstructionSpec* insn = spec_.find_instruction(first.substr(0, first.find(' ')));
    return insn != nullptr ? insn->slot : "";
  }
  return "";
}

std::vector<std::pair<RegisterRef, Slice>> Assembler::written_registers(const Statement& st) const {
  const std::vector<OperandSpec>* specs = nullptr;
  if (st.kind == StatementKind::kInstruction) specs = &st.insn->operands;
  if (st.kind == StatementKind::kPseudo) specs = &st.pseudo->operands;
  std::vector<std::pair<RegisterRef, Slice>> out;
  if (specs == nullptr) return out;
  for (size_t i = 0; i < specs->size() && i < st.operands.size(); ++i) {
    const OperandSpec& op = (*specs)[i];
    if (op.kind != OperandKind::kRegister || op.access == Access::kRead) continue;
    const auto reg = operand_register(st.tokens, st.operands[i]);
    if (reg && reg->register_class == op.register_class) out.emplace_back(*reg, st.operands[i]);
  }
  return out;
}

void Assembler::close_bundle(int64_t& pc) {
  std::vector<Statement> ops = std::move(bundle_.ops);
  const int line = bundle_.line;
  const int column = bundle_.column;
  const bool rejected_op = bundle_.rejected_op;
  bundle_ = OpenBundle{};
  if (ops.empty() && rejected_op) return;
  if (ops.empty()) {
    report(Severity::kError, line, column, 1, "{", "empty bundle",
           fmt::format("a bundle holds 1 to {} ops; write a bundle that does nothing as{}",
                       spec_.bundle.slots.size(), filler_example()));
    return;
  }
  const BundleSpec& b = spec_.bundle;
  // Slot kinds and capacity: the first op beyond a kind's slots gets the error.
  std::map<std::string, size_t> count;
  for (const Statement& st : ops) ++count[slot_kind(st)];
  std::map<std::string, size_t> seen;
  std::vector<size_t> position(ops.size(), b.slots.size());
  for (size_t k = 0; k < ops.size(); ++k) {
    Statement& st = ops[k];
    const std::string kind = slot_kind(st);
    if (kind.empty()) continue;
    const size_t index = seen[kind]++;
    const size_t capacity = slots_of_kind(b, kind);
    if (index >= capacity) {
      if (index == capacity) {
        const SlotKind* info = b.find_kind(kind);
        const std::string noun = info != nullptr ? info->noun : kind;
        const Token& head = st.tokens[0];
        report(Severity::kError, st.line, head.column, static_cast<int>(head.text.size()), head.text,
               fmt::format("{} {} ops in one bundle", count_word(count[kind]), noun),
               fmt::format("a bundle has {} {} slot{}: move {} to another bundle", count_word(capacity), noun,
                           capacity == 1 ? "" : "s", to_upper(head.text)));
      }
      st.bundle_failed = true;
      continue;
    }
    size_t slot = 0;
    for (size_t seen_of_kind = 0; slot < b.slots.size(); ++slot) {
      if (b.slots[slot].kind == kind && seen_of_kind++ == index) break;
    }
    position[k] = slot;
  }
  // Two ops writing one register.
  std::map<std::pair<int, int64_t>, const Statement*> writers;
  for (const Statement& st : ops) {
    for (const auto& [reg, slice] : written_registers(st)) {
      const auto [it, inserted] = writers.emplace(std::make_pair(reg.register_class, reg.number), &st);
      if (inserted) continue;
      const RegisterClass& rc = spec_.register_classes[static_cast<size_t>(reg.register_class)];
      report(Severity::kError, st.line, slice.column, slice.length, slice.text,
             fmt::format("two ops in one bundle write {}{} ({} at line {} and {})", rc.prefix, reg.number,
                         to_upper(it->second->tokens[0].text), it->second->line, to_upper(st.tokens[0].text)),
             "both results would land in the same register; use another register or another bundle");
    }
  }
  std::vector<size_t> order(ops.size());
  for (size_t k = 0; k < order.size(); ++k) order[k] = k;
  std::stable_sort(order.begin(), order.end(), [&](size_t x, size_t y) { return position[x] < position[y]; });
  for (size_t n = 0; n < order.size(); ++n) {
    Statement& st = ops[order[n]];
    st.pc = pc++;
    st.end_of_bundle = n + 1 == order.size();
    statements_.push_back(std::move(st));
  }
}

}  // namespace kcraft::isa::assembler_detail
