#include "isa/common/assembler.h"

#include <algorithm>
#include <cctype>
#include <climits>
#include <cmath>
#include <optional>

#include <fmt/format.h>

#include "isa/common/assembler_internal.h"

namespace kcraft::isa::assembler_detail {

// The assembler's shared services (assembler_internal.h): operand splitting, diagnostics, symbols and
// expressions, and the end of a run.

int token_end_column(const Token& t) {
  return t.column + static_cast<int>(t.text.size());
}

std::vector<Slice> split_operands(std::string_view code, const std::vector<Token>& tokens, size_t first) {
  std::vector<Slice> out;
  if (first >= tokens.size()) return out;
  int depth = 0;
  size_t start = first;
  auto close = [&](size_t end, int missing_column) {
    Slice s;
    s.begin = start;
    s.end = end;
    if (end > start) {
      s.column = tokens[start].column;
      s.length = token_end_column(tokens[end - 1]) - s.column;
      s.text = code.substr(static_cast<size_t>(s.column - 1), static_cast<size_t>(s.length));
    } else {
      s.column = missing_column;
      s.length = 1;
    }
    out.push_back(s);
  };
  for (size_t i = first; i < tokens.size(); ++i) {
    if (tokens[i].kind == TokenKind::kLParen) ++depth;
    if (tokens[i].kind == TokenKind::kRParen && depth > 0) --depth;
    if (tokens[i].kind == TokenKind::kComma && depth == 0) {
      close(i, tokens[i].column);
      start = i + 1;
    }
  }
  close(tokens.size(), token_end_column(tokens.back()));
  return out;
}

Assembler::Assembler(const IsaSpec& spec, std::string_view source, const std::string& filename,
                     const SymbolTable& predefined)
    : spec_(spec), source_(source) {
  result_.filename = filename;
  if (spec_.bundle.present()) end_of_bundle_mask_ = field_mask(spec_.bundle.end_field);
  for (const auto& [name, value] : predefined) {
    SymbolInfo info;
    info.kind = SymbolInfo::Kind::kPredefined;
    info.value = value;
    symbols_.emplace(name, std::move(info));
  }
}

AssembleResult Assembler::run() {
  pass1();
  resolve_pending_constants();
  pass2();
  check_loops();
  check_bundle_loops();
  if (errors_ == 0) check_hazards();
  check_program();
  finish();
  return std::move(result_);
}

void Assembler::report(Severity severity, int line, int column, int length, std::string_view text,
                       std::string message, std::string hint) {
  if (severity == Severity::kError) {
    if (errors_ >= kMaxErrors) {
      too_many_errors_ = true;
      return;
    }
    ++errors_;
  }
  Diagnostic d;
  d.severity = severity;
  d.line = line;
  d.column = column;
  d.length = std::max(length, 1);
  d.text = std::string(text);
  d.message = std::move(message);
  d.hint = std::move(hint);
  result_.diagnostics.push_back(std::move(d));
}

bool Assembler::dropped(const Site& site, Severity severity) const {
  if (site.silent) return true;
  if (site.errors_only && severity != Severity::kError) return true;
  return severity == Severity::kError && errors_ >= kMaxErrors;
}

void Assembler::report_at(const Site& site, Severity severity, int column, int length, std::string_view text,
                          std::string message, std::string hint) {
  if (site.silent) {
    if (severity == Severity::kError) site_failed_ = true;
    return;
  }
  if (site.errors_only && severity != Severity::kError) return;
  if (site.redirect) {
    report(severity, site.line, site.column, site.length, site.text, site.prefix + message, std::move(hint));
  } else {
    report(severity, site.line, column, length, text, std::move(message), std::move(hint));
  }
}

void Assembler::error_at(const Site& site, const Slice& s, std::string message, std::string hint) {
  report_at(site, Severity::kError, s.column, s.length, s.text, std::move(message), std::move(hint));
}

std::optional<int64_t> Assembler::resolve(std::string_view name) {
  auto it = symbols_.find(name);
  if (it == symbols_.end()) return std::nullopt;
  switch (it->second.state) {
    case SymbolInfo::State::kDefined:
      return it->second.value;
    case SymbolInfo::State::kPending:
      return std::nullopt;
    case SymbolInfo::State::kFailed:
      poisoned_ = true;  // its own error was reported; do not cascade
      return 0;
  }
  return std::nullopt;
}

SymbolResolver Assembler::resolver() {
  return [this](std::string_view name) { return resolve(name); };
}

std::string Assembler::describe_symbol(const SymbolInfo& info) const {
  switch (info.kind) {
    case SymbolInfo::Kind::kPredefined:
      return "predefined symbol";
    case SymbolInfo::Kind::kLabel:
      return fmt::format("label defined at line {}", info.line);
    case SymbolInfo::Kind::kConstant:
      return fmt::format("constant defined at line {}", info.line);
  }
  return "symbol";
}

bool Assembler::check_new_symbol(const Token& name, int line, std::string_view what) {
  if (parse_register(spec_, name.text)) {
    report(Severity::kError, line, name.column, static_cast<int>(name.text.size()), name.text,
           fmt::format("'{}' is a register name and cannot be used as a {}", name.text, what),
           "choose another name");
    return false;
  }
  auto it = symbols_.find(name.text);
  if (it == symbols_.end()) return true;
  if (it->second.kind == SymbolInfo::Kind::kPredefined) {
    report(Severity::kError, line, name.column, static_cast<int>(name.text.size()), name.text,
           fmt::format("'{}' is predefined (a hardware parameter or task symbol) and cannot be redefined",
                       name.text),
           "choose another name");
  } else {
    report(Severity::kError, line, name.column, static_cast<int>(name.text.size()), name.text,
           fmt::format("duplicate {} '{}'", what, name.text),
           fmt::format("'{}' is already a {}", name.text, describe_symbol(it->second)));
  }
  return false;
}

std::string Assembler::unknown_symbol_hint(std::string_view name) const {
  if (parse_register(spec_, name)) {
    return "registers cannot be used in expressions; this operand takes a value";
  }
  std::vector<std::string_view> candidates;
  candidates.reserve(symbols_.size());
  for (const auto& [symbol, info] : symbols_) candidates.push_back(symbol);
  std::string hint = did_you_mean(closest_matches(name, candidates));
  if (!hint.empty()) return hint;
  for (const ParameterSpec& p : spec_.parameters) {
    if (p.name == name) {
      return fmt::format("{} is a hardware parameter, but the assembler was not given its value", name);
    }
  }
  return fmt::format("define it with '.equ {}, value' or as a label '{}:'", name, name);
}

std::optional<Expression> Assembler::parse_slice(const std::vector<Token>& tokens, const Slice& s,
                                                 const Site& site) {
  ExprError err;
  auto expr = parse_expression(tokens, s.begin, s.end, &err);
  if (!expr) {
    const int column = err.column > 0 ? err.column : s.column;
    const int length = err.column > 0 ? err.length : s.length;
    report_at(site, Severity::kError, column, length, s.text, err.message, err.hint);
  }
  return expr;
}

void Assembler::report_eval_error(const Site& site, const Slice& s, const ExprError& err) {
  std::string hint = err.hint;
  if (!err.symbol.empty() && !dropped(site, Severity::kError)) hint = unknown_symbol_hint(err.symbol);
  const std::string_view text =
      err.column >= s.column && err.column + err.length <= s.column + s.length
          ? s.text.substr(static_cast<size_t>(err.column - s.column), static_cast<size_t>(err.length))
          : s.text;
  report_at(site, Severity::kError, err.column, err.length, text, err.message, hint);
}

std::optional<int64_t> Assembler::eval_int(const std::vector<Token>& tokens, const Slice& s, int64_t pc,
                                           const Site& site) {
  auto expr = parse_slice(tokens, s, site);
  if (!expr) return std::nullopt;
  poisoned_ = false;
  const IntValue v = evaluate_int(*expr, resolver(), pc, false);
  if (poisoned_) {
    site_failed_ = true;
    return std::nullopt;
  }
  if (v.status != EvalStatus::kOk) {
    report_eval_error(site, s, v.error);
    return std::nullopt;
  }
  return v.value;
}

void Assembler::finish() {
  for (const auto& [name, info] : symbols_) {
    if (info.state != SymbolInfo::State::kDefined) continue;
    if (info.kind == SymbolInfo::Kind::kLabel) result_.labels.emplace(name, info.value);
    if (info.kind == SymbolInfo::Kind::kConstant) result_.constants.emplace(name, info.value);
  }
  std::stable_sort(result_.diagnostics.begin(), result_.diagnostics.end(),
                   [](const Diagnostic& a, const Diagnostic& b) {
                     const int la = a.line > 0 ? a.line : INT_MAX;
                     const int lb = b.line > 0 ? b.line : INT_MAX;
                     return la != lb ? la < lb : a.column < b.column;
                   });
  if (too_many_errors_) {
    Diagnostic note;
    note.severity = Severity::kNote;
    note.message = fmt::format("too many errors; only the first {} are shown", kMaxErrors);
    result_.diagnostics.push_back(std::move(note));
  }
  result_.ok = errors_ == 0 && !too_many_errors_;
}

}  // namespace kcraft::isa::assembler_detail

namespace kcraft::isa {

size_t AssembleResult::error_count() const {
  return static_cast<size_t>(std::count_if(diagnostics.begin(), diagnostics.end(), [](const Diagnostic& d) {
    return d.severity == Severity::kError;
  }));
}

size_t AssembleResult::warning_count() const {
  return static_cast<size_t>(std::count_if(diagnostics.begin(), diagnostics.end(), [](const Diagnostic& d) {
    return d.severity == Severity::kWarning;
  }));
}

AssembleResult assemble(const IsaSpec& spec, std::string_view source, const std::string& filename,
                        const SymbolTable& predefined) {
  assembler_detail::Assembler assembler(spec, source, filename, predefined);
  return assembler.run();
}

std::string format_diagnostics(const AssembleResult& result, std::string_view source) {
  return format_diagnostics(result.diagnostics, source, result.filename);
}

std::optional<RegisterRef> parse_register(const IsaSpec& spec, std::string_view text) {
  std::optional<RegisterRef> best;
  size_t best_prefix = 0;
  for (size_t c = 0; c < spec.register_classes.size(); ++c) {
    const std::string& prefix = spec.register_classes[c].prefix;
    if (text.size() <= prefix.size() || prefix.size() < best_prefix) continue;
    // The prefix, case-insensitively (no copies: this runs for every operand and every name defined).
    bool same = true;
    for (size_t k = 0; k < prefix.size() && same; ++k) {
      same = std::toupper(static_cast<unsigned char>(text[k])) ==
             std::toupper(static_cast<unsigned char>(prefix[k]));
    }
    if (!same) continue;
    const std::string_view digits = text.substr(prefix.size());
    if (digits.size() > 9 ||
        !std::all_of(digits.begin(), digits.end(), [](char ch) { return ch >= '0' && ch <= '9'; })) {
      continue;
    }
    RegisterRef ref;
    ref.register_class = static_cast<int>(c);
    ref.number = 0;
    for (char ch : digits) ref.number = ref.number * 10 + (ch - '0');  // at most 9 digits: no overflow
    best = ref;
    best_prefix = prefix.size();
  }
  return best;
}

}  // namespace kcraft::isa
