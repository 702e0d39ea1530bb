#include "isa/common/assembler.h"

#include <algorithm>
#include <cctype>
#include <climits>
#include <cmath>
#include <deque>
#include <optional>
#include <set>
#include <tuple>

#include <fmt/format.h>

#include "isa/common/bundle.h"
#include "isa/common/disassembler.h"
#include "isa/common/expression.h"
#include "isa/common/pipeline_hazards.h"

namespace kcraft::isa {
namespace {

constexpr int64_t kWordMin = -2147483648LL;  // .word and int32 operands accept signed or unsigned 32-bit
constexpr int64_t kWordMax = 4294967295LL;

// The tokens of one operand: [begin, end) of the statement's token list.
struct Slice {
  size_t begin = 0;
  size_t end = 0;
  int column = 0;
  int length = 0;
  std::string_view text;
  bool empty() const { return begin == end; }
};

int token_end_column(const Token& t) {
  return t.column + static_cast<int>(t.text.size());
}

// Splits tokens [first, size) at top-level commas. A trailing or doubled comma yields an empty slice that
// points at the place the operand is missing.
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

enum class StatementKind : uint8_t { kInstruction, kPseudo, kWord, kUnknown };

struct Statement {
  StatementKind kind = StatementKind::kUnknown;
  int line = 0;
  std::string_view code;  // the line without its comment
  std::vector<Token> tokens;
  size_t mnemonic = 0;  // token index of the mnemonic or directive
  std::vector<Slice> operands;
  const InstructionSpec* insn = nullptr;
  const PseudoSpec* pseudo = nullptr;
  int64_t pc = 0;
  size_t size = 1;
  size_t form = 0;
  bool hash_comment = false;  // a '#' comment glued to the code: probably a "#5" style immediate
  // VLIW ISAs: the statement's last word ends a bundle; `in_bundle` when it was written inside braces;
  // `bundle_failed` when the bundle rules rejected it (it then occupies one zero word).
  bool end_of_bundle = false;
  bool in_bundle = false;
  bool bundle_failed = false;
};

// A bundle being read (VLIW ISAs): from '{' to '}', possibly over several lines.
struct OpenBundle {
  bool open = false;
  int line = 0;
  int column = 0;
  std::vector<Statement> ops;
  bool rejected_op = false;  // an op had an error that kept it out of `ops`
};

struct SymbolInfo {
  enum class Kind : uint8_t { kPredefined, kLabel, kConstant };
  enum class State : uint8_t { kDefined, kPending, kFailed };
  Kind kind = Kind::kLabel;
  State state = State::kDefined;
  int64_t value = 0;
  int line = 0;
  // A constant waiting for forward references (pass 1): its expression and where it was written.
  std::optional<Expression> expr;
  int64_t location = 0;
  int column = 0;
  int length = 0;
  std::string text;
};

// Where the diagnostics of one encoding go.
struct Site {
  int line = 0;
  bool silent = false;       // trial encodings (choosing a pseudo-instruction form) report nothing
  bool errors_only = false;  // expansions: the pseudo statement already warned about its operands
  // For a pseudo-instruction's expansion: report at the pseudo statement, with this prefix.
  bool redirect = false;
  int column = 0;
  int length = 0;
  std::string text;
  std::string prefix;
};

struct LoopRecord {
  int64_t pc = 0;
  int64_t end = 0;  // index of the first instruction after the body
  int line = 0;
  int column = 0;
  int length = 0;
  std::string text;
};

// `.reads_old [registers]` (the next bundle) or `.reads_old begin [registers]` ... `.reads_old end` (a
// region of words): reads of an old value there are intended (VLIW ISAs; docs/vliw.md §1).
struct OldReadMark {
  bool region = false;
  int64_t first_word = 0;
  int64_t end_word = 0;                // regions: one past the last word
  std::vector<RegisterRef> registers;  // empty: every register
  std::vector<std::string> register_names;
  int line = 0;
  int column = 0;
  int length = 0;
  std::string text;
  bool used = false;
};

// The values a pseudo-instruction's operands substitute into its templates.
struct PseudoArgs {
  bool ok = true;
  bool unresolved = false;
  std::vector<std::string> text;              // per operand, as written into the templates
  std::vector<std::optional<int64_t>> value;  // per operand, for `when`
};

class Assembler {
 public:
  Assembler(const IsaSpec& spec, std::string_view source, const std::string& filename,
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

  AssembleResult run() {
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

 private:
  // ------------------------------------------------------------------ diagnostics
  void report(Severity severity, int line, int column, int length, std::string_view text, std::string message,
              std::string hint) {
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

  // Whether report_at(site, severity, ...) would drop the diagnostic (a trial encoding, a warning of an
  // expansion, an error past kMaxErrors): its message and hint need not be built. Dropping it this way
  // must still count as reporting it, so callers that skip the work call report_at all the same.
  bool dropped(const Site& site, Severity severity) const {
    if (site.silent) return true;
    if (site.errors_only && severity != Severity::kError) return true;
    return severity == Severity::kError && errors_ >= kMaxErrors;
  }

  void report_at(const Site& site, Severity severity, int column, int length, std::string_view text,
                 std::string message, std::string hint) {
    if (site.silent) {
      if (severity == Severity::kError) site_failed_ = true;
      return;
    }
    if (site.errors_only && severity != Severity::kError) return;
    if (site.redirect) {
      report(severity, site.line, site.column, site.length, site.text, site.prefix + message,
             std::move(hint));
    } else {
      report(severity, site.line, column, length, text, std::move(message), std::move(hint));
    }
  }
  void error_at(const Site& site, const Slice& s, std::string message, std::string hint) {
    report_at(site, Severity::kError, s.column, s.length, s.text, std::move(message), std::move(hint));
  }

  // ------------------------------------------------------------------ symbols
  std::optional<int64_t> resolve(std::string_view name) {
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
  SymbolResolver resolver() {
    return [this](std::string_view name) { return resolve(name); };
  }

  std::string describe_symbol(const SymbolInfo& info) const {
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

  // Checks that `name` may be defined; reports and returns false otherwise.
  bool check_new_symbol(const Token& name, int line, std::string_view what) {
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

  std::string unknown_symbol_hint(std::string_view name) const {
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

  // ------------------------------------------------------------------ expressions
  std::optional<Expression> parse_slice(const std::vector<Token>& tokens, const Slice& s, const Site& site) {
    ExprError err;
    auto expr = parse_expression(tokens, s.begin, s.end, &err);
    if (!expr) {
      const int column = err.column > 0 ? err.column : s.column;
      const int length = err.column > 0 ? err.length : s.length;
      report_at(site, Severity::kError, column, length, s.text, err.message, err.hint);
    }
    return expr;
  }

  void report_eval_error(const Site& site, const Slice& s, const ExprError& err) {
    std::string hint = err.hint;
    if (!err.symbol.empty() && !dropped(site, Severity::kError)) hint = unknown_symbol_hint(err.symbol);
    const std::string_view text =
        err.column >= s.column && err.column + err.length <= s.column + s.length
            ? s.text.substr(static_cast<size_t>(err.column - s.column), static_cast<size_t>(err.length))
            : s.text;
    report_at(site, Severity::kError, err.column, err.length, text, err.message, hint);
  }

  // Evaluates an integer operand; nullopt after reporting an error (or silently if it hit a failed symbol).
  std::optional<int64_t> eval_int(const std::vector<Token>& tokens, const Slice& s, int64_t pc,
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

  // ------------------------------------------------------------------ operands
  std::string register_noun(int register_class) const {
    const RegisterClass& rc = spec_.register_classes[static_cast<size_t>(register_class)];
    return rc.noun.empty() ? rc.name + " register" : rc.noun;
  }
  std::string register_range(int register_class) const {
    const RegisterClass& rc = spec_.register_classes[static_cast<size_t>(register_class)];
    return fmt::format("{}0..{}{}", rc.prefix, rc.prefix, rc.count - 1);
  }
  static std::string article(const std::string& noun) {
    return (!noun.empty() && std::string_view("aeiouAEIOUF").find(noun[0]) != std::string_view::npos ? "an "
                                                                                                     : "a ") +
           noun;
  }

  // The register an operand names, if it is exactly one register token.
  std::optional<RegisterRef> operand_register(const std::vector<Token>& tokens, const Slice& s) const {
    if (s.end - s.begin != 1 || tokens[s.begin].kind != TokenKind::kIdentifier) return std::nullopt;
    return parse_register(spec_, tokens[s.begin].text);
  }

  bool is_register_token(const std::vector<Token>& tokens, size_t index) const {
    return tokens[index].kind == TokenKind::kIdentifier &&
           parse_register(spec_, tokens[index].text).has_value();
  }

  // Another instruction whose operand types match what was written ("did you mean V_ADD_VF?").
  std::string suggest_alternative(const std::string& mnemonic, const std::vector<Token>& tokens,
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

  std::string range_message(const OperandSpec& op, int64_t value) const {
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

  std::string range_hint(const InstructionSpec& insn, const OperandSpec& op) const {
    // A multi-form pseudo-instruction that starts with this instruction loads values of any size.
    for (const PseudoSpec& p : spec_.pseudos) {
      if (p.forms.size() < 2 || p.forms.front().lines.empty()) continue;
      const std::string& first = p.forms.front().lines.front();
      const std::string mnemonic = first.substr(0, first.find(' '));
      if (to_upper(mnemonic) == insn.name) {
        return fmt::format("'{}' loads any 32-bit value, choosing the shortest instruction sequence",
                           p.syntax);
      }
    }
    return fmt::format("{}: {} takes {}", syntax_of(insn), op.name, operand_range_text(spec_, op));
  }

  // Encodes one instruction; nullopt after reporting errors through `site`.
  std::optional<uint32_t> encode(const InstructionSpec& insn, const std::vector<Token>& tokens,
                                 const std::vector<Slice>& ops, const Token& mnemonic, int64_t pc,
                                 const Site& site, bool hash_comment, std::vector<LoopRecord>* loops) {
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
          std::string hint =
              dropped(site, Severity::kError) ? "" : suggest_alternative(insn.name, tokens, ops);
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
                   fmt::format("loop end '{}' (instruction {}) is not after the loop (instruction {})",
                               s.text, *value, pc),
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

  // ------------------------------------------------------------------ pseudo-instructions
  PseudoArgs pseudo_args(const PseudoSpec& p, const Statement& st, bool pass1, const Site& site) {
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

  // A template line with the pseudo-instruction's operands substituted.
  static std::string expand_line(const PseudoSpec& p, const std::string& line, const PseudoArgs& args) {
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

  // Encodes one expanded template line; nullopt after reporting through `site`.
  std::optional<uint32_t> encode_line(const std::string& text, int64_t pc, const Site& site) {
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

  bool form_applies(const PseudoSpec& p, const PseudoForm& form, const PseudoArgs& args, int64_t pc) {
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

  static size_t longest_form(const PseudoSpec& p) {
    size_t best = 0;
    for (size_t i = 1; i < p.forms.size(); ++i) {
      if (p.forms[i].lines.size() > p.forms[best].lines.size()) best = i;
    }
    return best;
  }

  // ------------------------------------------------------------------ pass 1: addresses
  void pass1() {
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

  size_t comment_start(std::string_view line) const {
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

  // One statement that is not part of a bundle: an instruction, pseudo-instruction or directive starting at
  // token `i` (labels already taken). In a VLIW ISA an instruction written alone is a bundle of one op.
  void single_statement(Statement st, size_t i, int64_t& pc) {
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
        hint =
            fmt::format("the {} ISA has no instruction bundles: write one instruction per line", spec_.name);
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

  // ------------------------------------------------------------------ bundles (VLIW ISAs)
  // A line of a VLIW program: labels, single ops, and bundles `{ op ; op }` that may span lines.
  void bundled_line(const Statement& line, int64_t& pc) {
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
        report(
            Severity::kError, line.line, separator.column, 1, separator.text,
            fmt::format("'{{' inside a bundle (opened at line {}, column {})", bundle_.line, bundle_.column),
            "bundles do not nest: close the first one with '}'");
      }
      i = stop + 1;
    }
  }

  // The first '{', '}' or ';' at or after `i`.
  static size_t next_separator(const std::vector<Token>& tokens, size_t i) {
    while (i < tokens.size() && tokens[i].kind != TokenKind::kLBrace &&
           tokens[i].kind != TokenKind::kRBrace && tokens[i].kind != TokenKind::kSemicolon) {
      ++i;
    }
    return i;
  }

  // A statement made of tokens [first, stop) of a line.
  static Statement segment(const Statement& line, size_t first, size_t stop) {
    Statement st;
    st.line = line.line;
    st.code = line.code;
    st.hash_comment = line.hash_comment;
    st.tokens.assign(line.tokens.begin() + static_cast<std::ptrdiff_t>(first),
                     line.tokens.begin() + static_cast<std::ptrdiff_t>(stop));
    return st;
  }

  // One op inside braces; the bundle's rules are checked when it closes.
  void bundle_op(Statement st) {
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

  // " (S_LUI, S_ORI)": the mnemonics of a pseudo-instruction's chosen form.
  static std::string form_names(const Statement& st) {
    std::vector<std::string> names;
    for (const std::string& line : st.pseudo->forms[st.form].lines)
      names.push_back(line.substr(0, line.find(' ')));
    return fmt::format(" ({})", fmt::join(names, ", "));
  }

  // The slot kind of a bundle op ("" when unknown: the op has its own error).
  std::string slot_kind(const Statement& st) const {
    if (st.kind == StatementKind::kInstruction) return st.insn->slot;
    if (st.kind == StatementKind::kPseudo && !st.bundle_failed) {
      const std::string& first = st.pseudo->forms[st.form].lines.front();
      const InstructionSpec* insn = spec_.find_instruction(first.substr(0, first.find(' ')));
      return insn != nullptr ? insn->slot : "";
    }
    return "";
  }

  // The registers an op writes, as written: (class, number) with the operand's slice.
  std::vector<std::pair<RegisterRef, Slice>> written_registers(const Statement& st) const {
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

  // Checks the slot rules, puts the ops in slot order and gives them their words.
  void close_bundle(int64_t& pc) {
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
                 fmt::format("a bundle has {} {} slot{}: move {} to another bundle", count_word(capacity),
                             noun, capacity == 1 ? "" : "s", to_upper(head.text)));
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
        report(
            Severity::kError, st.line, slice.column, slice.length, slice.text,
            fmt::format("two ops in one bundle write {}{} ({} at line {} and {})", rc.prefix, reg.number,
                        to_upper(it->second->tokens[0].text), it->second->line, to_upper(st.tokens[0].text)),
            "both results would land in the same register; use another register or another bundle");
      }
    }
    std::vector<size_t> order(ops.size());
    for (size_t k = 0; k < order.size(); ++k) order[k] = k;
    std::stable_sort(order.begin(), order.end(),
                     [&](size_t x, size_t y) { return position[x] < position[y]; });
    for (size_t n = 0; n < order.size(); ++n) {
      Statement& st = ops[order[n]];
      st.pc = pc++;
      st.end_of_bundle = n + 1 == order.size();
      statements_.push_back(std::move(st));
    }
  }

  void define_label(const Token& name, int line, int64_t pc) {
    if (!check_new_symbol(name, line, "label")) return;
    SymbolInfo info;
    info.kind = SymbolInfo::Kind::kLabel;
    info.value = pc;
    info.line = line;
    symbols_.emplace(std::string(name.text), std::move(info));
  }

  void unknown_mnemonic(const Statement& st) {
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

  void plan_pseudo(Statement& st) {
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

  void directive(Statement& st, int64_t& pc) {
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

  // `.reads_old [reg, ...]`, `.reads_old begin [reg, ...]`, `.reads_old end`.
  void reads_old(const Statement& st, const Token& head, int64_t pc) {
    const int head_length = static_cast<int>(head.text.size());
    if (!spec_.bundle.present()) {
      report(Severity::kError, st.line, head.column, head_length, head.text,
             fmt::format("the {} ISA has no exposed pipeline, so no read sees an old value", spec_.name),
             ".reads_old marks intended reads of an old value in VLIW ISAs; remove it");
      return;
    }
    // An optional keyword, `begin` or `end`, then the registers, comma-separated.
    size_t first_register = st.mnemonic + 1;
    std::string keyword;
    const Token* keyword_token = nullptr;
    if (first_register < st.tokens.size() && st.tokens[first_register].kind == TokenKind::kIdentifier) {
      const std::string word = to_upper(st.tokens[first_register].text);
      if (word == "BEGIN" || word == "END") {
        keyword = word;
        keyword_token = &st.tokens[first_register];
        ++first_register;
      }
    }
    const std::vector<Slice> operands = split_operands(st.code, st.tokens, first_register);
    Site site;
    site.line = st.line;
    OldReadMark mark;
    mark.line = st.line;
    mark.column = head.column;
    mark.length = head_length;
    mark.text = std::string(head.text);
    mark.first_word = pc;
    const auto keyword_error = [&](std::string message, std::string hint) {
      report(Severity::kError, st.line, keyword_token->column, static_cast<int>(keyword_token->text.size()),
             keyword_token->text, std::move(message), std::move(hint));
    };
    if (keyword == "END") {
      if (!operands.empty()) {
        error_at(site, operands[0], "'.reads_old end' takes nothing after 'end'",
                 "list the registers on the '.reads_old begin' line");
      }
      if (!open_old_region_) {
        keyword_error("'.reads_old end' without a '.reads_old begin'",
                      "open the region with '.reads_old begin' before its first bundle");
        return;
      }
      open_old_region_->end_word = pc;
      old_read_marks_.push_back(std::move(*open_old_region_));
      open_old_region_.reset();
      return;
    }
    if (keyword == "BEGIN") {
      if (open_old_region_) {
        keyword_error(fmt::format("a .reads_old region is already open (line {})", open_old_region_->line),
                      "regions do not nest: close the first with '.reads_old end'");
        return;
      }
      mark.region = true;
    }
    for (const Slice& s : operands) {
      const std::optional<RegisterRef> r = parse_register(spec_, s.text);
      const RegisterClass* rc = r ? &spec_.register_classes[static_cast<size_t>(r->register_class)] : nullptr;
      if (rc == nullptr || r->number >= static_cast<int64_t>(rc->count) ||
          !spec_.bundle.is_exposed(rc->name)) {
        error_at(site, s, fmt::format("'{}' is not a register whose results land late", s.text),
                 fmt::format("list registers of the exposed classes ({}), or none for every register; a "
                             "region is '.reads_old begin' ... '.reads_old end'",
                             fmt::join(spec_.bundle.exposed_classes, ", ")));
        return;
      }
      mark.registers.push_back(*r);
      mark.register_names.emplace_back(s.text);
    }
    if (mark.region) {
      open_old_region_ = std::move(mark);
    } else {
      old_read_marks_.push_back(std::move(mark));
    }
  }

  void define_constant(const Statement& st, const Token& head) {
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

  // Constants that referred to later labels or constants.
  void resolve_pending_constants() {
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

  void report_pending_error(const SymbolInfo& info, const ExprError& err) {
    Site site;
    site.line = info.line;
    Slice s;
    s.column = info.column;
    s.length = info.length;
    s.text = info.text;
    report_eval_error(site, s, err);
  }

  // ------------------------------------------------------------------ pass 2: encoding
  void pass2() {
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

  uint32_t end_of_bundle(bool last) const { return last ? end_of_bundle_mask_ : 0u; }

  void emit(uint32_t word, int line) {
    result_.words.push_back(word);
    result_.word_lines.push_back(line);
    word_statements_.push_back(current_statement_);
  }

  void emit_pseudo(const Statement& st, const Site& site) {
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

  // ------------------------------------------------------------------ whole-program checks
  void check_loops() {
    std::sort(loops_.begin(), loops_.end(),
              [](const LoopRecord& a, const LoopRecord& b) { return a.pc < b.pc; });
    std::optional<int64_t> max_depth;
    if (!spec_.loop_depth_symbol.empty()) {
      auto it = symbols_.find(spec_.loop_depth_symbol);
      if (it != symbols_.end() && it->second.kind == SymbolInfo::Kind::kPredefined)
        max_depth = it->second.value;
    }
    std::vector<const LoopRecord*> open;  // enclosing loops, innermost last
    for (const LoopRecord& loop : loops_) {
      while (!open.empty() && open.back()->end <= loop.pc) open.pop_back();
      if (!open.empty() && loop.end >= open.back()->end) {
        const LoopRecord& outer = *open.back();
        const bool same_end = loop.end == outer.end;
        report(
            Severity::kError, loop.line, loop.column, loop.length, loop.text,
            same_end
                ? fmt::format("this loop's body ends where the body of the enclosing {} (line {}) ends; an "
                              "inner body must end strictly before its enclosing body",
                              outer.text, outer.line)
                : fmt::format("this loop's body (to instruction {}) extends past the end of the enclosing "
                              "{} body (line {}, to instruction {})",
                              loop.end, outer.text, outer.line, outer.end),
            same_end
                ? fmt::format("put at least one instruction{} between the two end labels", filler_example())
                : "an inner loop must lie completely inside the enclosing loop's body");
        continue;
      }
      open.push_back(&loop);
      if (max_depth && static_cast<int64_t>(open.size()) > *max_depth) {
        report(Severity::kError, loop.line, loop.column, loop.length, loop.text,
               fmt::format("loops nested {} deep; the hardware supports {} ({})", open.size(), *max_depth,
                           spec_.loop_depth_symbol),
               "flatten the innermost loop or merge two loop levels");
      }
      if (loop.end > program_size_) {
        report(Severity::kWarning, loop.line, loop.column, loop.length, loop.text,
               fmt::format("loop body extends past the end of the program (instruction {} of {})", loop.end,
                           program_size_),
               "the end label should follow the last instruction of the body, inside the program");
      }
    }
  }

  // VLIW ISAs: a loop's body is whole bundles, so its end label must start a bundle.
  void check_bundle_loops() {
    if (!spec_.bundle.present()) return;
    std::vector<bool> starts(result_.words.size() + 1, false);
    for (const BundleRange& r : split_bundles(spec_, result_.words)) starts[r.first] = true;
    starts[result_.words.size()] = true;
    for (const LoopRecord& loop : loops_) {
      if (loop.end < 0 || loop.end > static_cast<int64_t>(result_.words.size())) continue;
      if (starts[static_cast<size_t>(loop.end)]) continue;
      report(
          Severity::kError, loop.line, loop.column, loop.length, loop.text,
          fmt::format("the loop's end (word {}) is inside a bundle; a loop body is whole bundles", loop.end),
          "put the end label before a bundle, not an expression pointing into one");
    }
  }

  // VLIW ISAs: the exposed pipeline's hazards (pipeline_hazards.h). A read of an old value that a
  // `.reads_old` mark covers is intended and silent; a mark that covers no such read is itself a warning,
  // so marks cannot go stale unnoticed.
  void check_hazards() {
    if (!spec_.bundle.present() || result_.words.empty()) return;
    const PipelineHazards hazards = find_pipeline_hazards(spec_, result_.words);
    const std::vector<BundleRange> bundles = split_bundles(spec_, result_.words);
    for (const ReadBeforeReady& h : hazards.reads) {
      if (OldReadMark* mark = mark_covering(h.read, bundles)) {
        mark->used = true;
        continue;
      }
      report_read_before_ready(h);
    }
    for (const LandingOutOfOrder& h : hazards.overwrites) report_landing_out_of_order(h);
    for (const OldReadMark& mark : old_read_marks_) {
      if (mark.used) continue;
      report(Severity::kWarning, mark.line, mark.column, mark.length, mark.text,
             mark.registers.empty()
                 ? std::string(mark.region ? "no read in this .reads_old region sees an old value"
                                           : "the bundle after this .reads_old reads no old value")
                 : fmt::format("{} reads no old value of {}",
                               mark.region ? "this .reads_old region" : "the bundle after this .reads_old",
                               fmt::join(mark.register_names, ", ")),
             "remove the mark, or move it to the read it means (the next bundle, or a region around it)");
    }
  }

  // The mark, if any, that declares this read of an old value intended: a one-bundle mark on the bundle
  // holding the read, or a region around it; with registers listed, only reads of those.
  OldReadMark* mark_covering(const RegisterUse& read, const std::vector<BundleRange>& bundles) {
    const auto word = static_cast<int64_t>(read.word);
    for (OldReadMark& mark : old_read_marks_) {
      bool covers = false;
      if (mark.region) {
        covers = word >= mark.first_word && word < mark.end_word;
      } else {
        for (const BundleRange& b : bundles) {
          if (static_cast<int64_t>(b.first) == mark.first_word)
            covers = word >= mark.first_word && word < static_cast<int64_t>(b.first + b.count);
        }
      }
      if (!covers) continue;
      if (mark.registers.empty()) return &mark;
      for (const RegisterRef& r : mark.registers) {
        if (r.register_class == read.register_class && static_cast<int64_t>(r.number) == read.number)
          return &mark;
      }
    }
    return nullptr;
  }

  std::string register_name(const RegisterUse& use) const {
    return fmt::format("{}{}", spec_.register_classes[static_cast<size_t>(use.register_class)].prefix,
                       use.number);
  }

  // Where an operand of a word was written: column, length and text of the operand, if the word is one
  // instruction statement.
  std::tuple<int, int, std::string_view> operand_site(const RegisterUse& use) const {
    const Statement* st = word_statements_[use.word];
    if (st != nullptr && st->kind == StatementKind::kInstruction && use.operand < st->operands.size()) {
      const Slice& s = st->operands[use.operand];
      return {s.column, s.length, s.text};
    }
    return {0, 0, std::string_view()};
  }

  void report_read_before_ready(const ReadBeforeReady& h) {
    const std::string reg = register_name(h.write);
    const InstructionSpec& producer = *decode(spec_, result_.words[h.write.word])->insn;
    const auto [column, length, text] = operand_site(h.read);
    const int64_t missing = h.latency - h.distance;
    report(Severity::kWarning, result_.word_lines[h.read.word], column, length, text,
           fmt::format(
               "{} is read {} bundle{} after {} (line {}) writes it{}, but that result lands {} bundles "
               "after its issue: this reads the old value",
               reg, h.distance, h.distance == 1 ? "" : "s", producer.name, result_.word_lines[h.write.word],
               h.crossed_back_edge ? " (counting across the loop's back edge)" : "", h.latency),
           fmt::format("put {} more bundle{} between them (independent work, or C_NOP), or use another "
                       "register; if the old value is meant, write `.reads_old {}` on the line before",
                       missing, missing == 1 ? "" : "s", reg));
  }

  void report_landing_out_of_order(const LandingOutOfOrder& h) {
    const std::string reg = register_name(h.later);
    const InstructionSpec& earlier = *decode(spec_, result_.words[h.earlier.word])->insn;
    const InstructionSpec& later = *decode(spec_, result_.words[h.later.word])->insn;
    const auto [column, length, text] = operand_site(h.later);
    const int64_t gap = h.earlier_latency - (h.distance + h.later_latency);
    report(Severity::kWarning, result_.word_lines[h.later.word], column, length, text,
           fmt::format("{} writes {} {} bundle{} after {} (line {}) does{}, but lands {} bundle{} before it: "
                       "when {}'s result lands, {} holds the older result",
                       later.name, reg, h.distance, h.distance == 1 ? "" : "s", earlier.name,
                       result_.word_lines[h.earlier.word],
                       h.crossed_back_edge ? " (counting across the loop's back edge)" : "", gap,
                       gap == 1 ? "" : "s", earlier.name, reg),
           fmt::format("write {} again only once {}'s result has landed ({} more bundle{}), or use another "
                       "register",
                       reg, earlier.name, gap, gap == 1 ? "" : "s"));
  }

  // " (e.g. C_NOP)": an instruction without operands that is not the halt, for hints.
  std::string filler_example() const {
    for (const InstructionSpec& insn : spec_.instructions) {
      if (insn.operands.empty() && insn.name != spec_.halt_mnemonic)
        return fmt::format(" (e.g. {})", insn.name);
    }
    return "";
  }

  void check_program() {
    if (!spec_.program_size_symbol.empty()) {
      auto it = symbols_.find(spec_.program_size_symbol);
      if (it != symbols_.end() && it->second.kind == SymbolInfo::Kind::kPredefined &&
          static_cast<int64_t>(result_.words.size()) > it->second.value) {
        report(Severity::kError, 0, 0, 0, "",
               fmt::format("the program has {} instruction words; the instruction memory holds {} ({})",
                           result_.words.size(), it->second.value, spec_.program_size_symbol),
               "use hardware loops instead of unrolled code");
      }
    }
    if (!spec_.halt_mnemonic.empty()) {
      const InstructionSpec* halt = spec_.find_instruction(spec_.halt_mnemonic);
      const bool has_halt =
          halt != nullptr && std::any_of(result_.words.begin(), result_.words.end(), [&](uint32_t w) {
            return extract(w, spec_.opcode_field) == halt->opcode && (w & halt->reserved_mask) == 0;
          });
      if (halt != nullptr && !has_halt) {
        report(Severity::kWarning, 0, 0, 0, "",
               fmt::format("the program has no {}; the machine will run past its end", halt->name),
               fmt::format("end the kernel with {}", halt->name));
      }
    }
  }

  void finish() {
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

  const IsaSpec& spec_;
  std::string_view source_;
  AssembleResult result_;
  std::map<std::string, SymbolInfo, std::less<>> symbols_;
  std::vector<Statement> statements_;
  std::vector<LoopRecord> loops_;
  OpenBundle bundle_;
  std::vector<OldReadMark> old_read_marks_;
  std::optional<OldReadMark> open_old_region_;  // a `.reads_old begin` not yet ended
  uint32_t end_of_bundle_mask_ = 0;
  const Statement* current_statement_ = nullptr;   // pass 2: the statement being encoded
  std::vector<const Statement*> word_statements_;  // the statement of each word
  std::vector<std::string_view> mnemonic_names_;   // instructions and pseudo-instructions, for hints
  int64_t program_size_ = 0;
  size_t errors_ = 0;
  bool too_many_errors_ = false;
  bool poisoned_ = false;     // the last evaluation used a symbol whose definition failed
  bool site_failed_ = false;  // a silent or poisoned encoding failed
};

}  // namespace

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
  Assembler assembler(spec, source, filename, predefined);
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
