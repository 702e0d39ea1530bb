#include "isa/common/expression.h"

#include <cctype>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <limits>

#include <fmt/format.h>

namespace kcraft::isa {
namespace {

bool is_ident_start(char c) {
  return std::isalpha(static_cast<unsigned char>(c)) || c == '_';
}
bool is_ident_char(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
}
bool is_digit(char c) {
  return c >= '0' && c <= '9';
}
bool is_hex_digit(char c) {
  return std::isxdigit(static_cast<unsigned char>(c)) != 0;
}

// Scans a number starting at line[pos]; fills `token` and returns the end position.
size_t scan_number(std::string_view line, size_t pos, Token& token) {
  const size_t start = pos;
  bool is_float = false;
  bool overflow = false;
  uint64_t value = 0;
  auto accumulate = [&](unsigned base, unsigned digit) {
    if (value > (std::numeric_limits<uint64_t>::max() - digit) / base) overflow = true;
    value = value * base + digit;
  };
  const bool hex =
      line.size() > pos + 1 && line[pos] == '0' && (line[pos + 1] == 'x' || line[pos + 1] == 'X');
  const bool bin =
      line.size() > pos + 1 && line[pos] == '0' && (line[pos + 1] == 'b' || line[pos + 1] == 'B');
  size_t digits = 0;
  if (hex) {
    pos += 2;
    for (; pos < line.size() && is_hex_digit(line[pos]); ++pos, ++digits) {
      accumulate(16,
                 static_cast<unsigned>(std::isdigit(static_cast<unsigned char>(line[pos]))
                                           ? line[pos] - '0'
                                           : std::tolower(static_cast<unsigned char>(line[pos])) - 'a' + 10));
    }
    if (pos < line.size() && line[pos] == '.') {  // hex float: 0x1.8p3
      is_float = true;
      for (++pos; pos < line.size() && is_hex_digit(line[pos]); ++pos) ++digits;
    }
    if (pos < line.size() && (line[pos] == 'p' || line[pos] == 'P')) {
      is_float = true;
      ++pos;
      if (pos < line.size() && (line[pos] == '+' || line[pos] == '-')) ++pos;
      while (pos < line.size() && is_digit(line[pos])) ++pos;
    }
  } else if (bin) {
    pos += 2;
    for (; pos < line.size() && (line[pos] == '0' || line[pos] == '1'); ++pos, ++digits) {
      accumulate(2, static_cast<unsigned>(line[pos] - '0'));
    }
  } else {
    for (; pos < line.size() && is_digit(line[pos]); ++pos, ++digits) {
      accumulate(10, static_cast<unsigned>(line[pos] - '0'));
    }
    if (pos < line.size() && line[pos] == '.') {
      is_float = true;
      for (++pos; pos < line.size() && is_digit(line[pos]); ++pos) ++digits;
    }
    if (pos < line.size() && (line[pos] == 'e' || line[pos] == 'E') &&
        (pos + 1 < line.size() &&
         (is_digit(line[pos + 1]) || ((line[pos + 1] == '+' || line[pos + 1] == '-') &&
                                      pos + 2 < line.size() && is_digit(line[pos + 2]))))) {
      is_float = true;
      pos += 2;
      while (pos < line.size() && is_digit(line[pos])) ++pos;
    }
  }
  // A name glued to a number ("12abc", "0x1G") is a typo, not two tokens.
  while (pos < line.size() && (is_ident_char(line[pos]) || line[pos] == '.')) ++pos;
  token.text = line.substr(start, pos - start);
  token.column = static_cast<int>(start) + 1;
  const std::string text(token.text);
  if (is_float) {
    char* end = nullptr;
    token.real = std::strtod(text.c_str(), &end);
    if (end != text.c_str() + text.size() || digits == 0) {
      token.kind = TokenKind::kInvalid;
      token.error = fmt::format("malformed number '{}'", text);
      return pos;
    }
    token.kind = TokenKind::kFloat;
    return pos;
  }
  const size_t prefix = (hex || bin) ? 2 : 0;
  if (digits == 0 || prefix + digits != text.size()) {
    token.kind = TokenKind::kInvalid;
    token.error = fmt::format("malformed number '{}'", text);
    return pos;
  }
  if (overflow) {
    token.kind = TokenKind::kInvalid;
    token.error = fmt::format("integer literal '{}' does not fit 64 bits", text);
    return pos;
  }
  token.kind = TokenKind::kInteger;
  token.integer = value;
  token.real = static_cast<double>(value);
  return pos;
}

}  // namespace

std::vector<Token> tokenize(std::string_view line) {
  std::vector<Token> tokens;
  size_t pos = 0;
  while (pos < line.size()) {
    const char c = line[pos];
    if (std::isspace(static_cast<unsigned char>(c))) {
      ++pos;
      continue;
    }
    Token token;
    token.column = static_cast<int>(pos) + 1;
    if (is_digit(c) || (c == '.' && pos + 1 < line.size() && is_digit(line[pos + 1]))) {
      pos = scan_number(line, pos, token);
      tokens.push_back(std::move(token));
      continue;
    }
    if (is_ident_start(c)) {
      size_t end = pos + 1;
      while (end < line.size() && is_ident_char(line[end])) ++end;
      token.kind = TokenKind::kIdentifier;
      token.text = line.substr(pos, end - pos);
      tokens.push_back(std::move(token));
      pos = end;
      continue;
    }
    if (c == '.') {
      if (pos + 1 < line.size() && is_ident_start(line[pos + 1])) {
        size_t end = pos + 2;
        while (end < line.size() && is_ident_char(line[end])) ++end;
        token.kind = TokenKind::kDirective;
        token.text = line.substr(pos, end - pos);
        pos = end;
      } else {
        token.kind = TokenKind::kLocation;
        token.text = line.substr(pos, 1);
        ++pos;
      }
      tokens.push_back(std::move(token));
      continue;
    }
    static constexpr std::string_view kTwoCharOps[] = {"<<", ">>", "<=", ">=", "==", "!=", "&&", "||"};
    bool matched = false;
    for (std::string_view op : kTwoCharOps) {
      if (line.substr(pos, 2) == op) {
        token.kind = TokenKind::kOperator;
        token.text = line.substr(pos, 2);
        pos += 2;
        matched = true;
        break;
      }
    }
    if (!matched) {
      token.text = line.substr(pos, 1);
      ++pos;
      switch (c) {
        case '+':
        case '-':
        case '*':
        case '/':
        case '%':
        case '&':
        case '|':
        case '^':
        case '~':
        case '!':
        case '<':
        case '>':
          token.kind = TokenKind::kOperator;
          break;
        case ',':
          token.kind = TokenKind::kComma;
          break;
        case ':':
          token.kind = TokenKind::kColon;
          break;
        case '(':
          token.kind = TokenKind::kLParen;
          break;
        case ')':
          token.kind = TokenKind::kRParen;
          break;
        case '{':
          token.kind = TokenKind::kLBrace;
          break;
        case '}':
          token.kind = TokenKind::kRBrace;
          break;
        case ';':
          token.kind = TokenKind::kSemicolon;  // separates the ops of a bundle (elsewhere a comment)
          break;
        default: {
          // Keep a multi-byte UTF-8 character together so the message shows it whole.
          size_t end = pos;
          if (static_cast<unsigned char>(c) >= 0x80) {
            while (end < line.size() && (static_cast<unsigned char>(line[end]) & 0xC0) == 0x80) ++end;
          }
          token.text = line.substr(pos - 1, end - pos + 1);
          pos = end;
          token.kind = TokenKind::kInvalid;
          token.error = fmt::format("unexpected character '{}'", token.text);
        }
      }
    }
    tokens.push_back(std::move(token));
  }
  return tokens;
}

namespace {

int binary_precedence(std::string_view op) {
  if (op == "||") return 1;
  if (op == "&&") return 2;
  if (op == "|") return 3;
  if (op == "^") return 4;
  if (op == "&") return 5;
  if (op == "==" || op == "!=") return 6;
  if (op == "<" || op == "<=" || op == ">" || op == ">=") return 7;
  if (op == "<<" || op == ">>") return 8;
  if (op == "+" || op == "-") return 9;
  if (op == "*" || op == "/" || op == "%") return 10;
  return 0;
}

int token_end(const Token& t) {
  return t.column + static_cast<int>(t.text.size());
}

std::string invalid_token_hint(const Token& t) {
  if (t.error.rfind("malformed number", 0) == 0) {
    return "numbers are decimal (42), hexadecimal (0x2A) or binary (0b101010); floating-point operands also "
           "take "
           "1.5, 1e-6 and 0x1.8p3";
  }
  if (t.error.rfind("unexpected character", 0) == 0) {
    return "operands are registers, numbers, symbols, '.', parentheses and the operators + - * / % << >> & | "
           "^ ~";
  }
  return "";
}

class Parser {
 public:
  Parser(const std::vector<Token>& tokens, size_t begin, size_t end, ExprError* error)
      : tokens_(tokens), pos_(begin), end_(end), error_(error) {}

  std::optional<Expression> parse() {
    if (pos_ >= end_) return fail(0, 0, "missing value", "");
    const int root = parse_binary(1, 0);
    if (root < 0) return std::nullopt;
    if (pos_ < end_) {
      const Token& t = tokens_[pos_];
      if (t.kind == TokenKind::kInvalid) {
        return fail(t.column, static_cast<int>(t.text.size()), t.error, invalid_token_hint(t));
      }
      if (t.kind == TokenKind::kRParen) {
        return fail(t.column, 1, "unmatched ')'", "remove it or add the matching '('");
      }
      return fail(t.column, static_cast<int>(t.text.size()),
                  fmt::format("unexpected '{}' in expression", t.text),
                  "operands are separated by ','; an expression combines values with operators");
    }
    expr_.root = root;
    expr_.column = expr_.nodes[static_cast<size_t>(root)].column;
    expr_.length = expr_.nodes[static_cast<size_t>(root)].length;
    return std::move(expr_);
  }

 private:
  std::nullopt_t fail(int column, int length, std::string message, std::string hint) {
    if (error_ != nullptr && !failed_) {
      error_->column = column;
      error_->length = length;
      error_->message = std::move(message);
      error_->hint = std::move(hint);
    }
    failed_ = true;
    return std::nullopt;
  }
  int fail_node(int column, int length, std::string message, std::string hint) {
    fail(column, length, std::move(message), std::move(hint));
    return -1;
  }

  int add(ExprNode node) {
    expr_.nodes.push_back(std::move(node));
    return static_cast<int>(expr_.nodes.size()) - 1;
  }
  const ExprNode& node(int index) const { return expr_.nodes[static_cast<size_t>(index)]; }

  int parse_binary(int min_precedence, int depth) {
    int lhs = parse_unary(depth);
    if (lhs < 0) return -1;
    while (pos_ < end_ && tokens_[pos_].kind == TokenKind::kOperator) {
      const Token& op = tokens_[pos_];
      const int precedence = binary_precedence(op.text);
      if (precedence == 0) {
        return fail_node(op.column, static_cast<int>(op.text.size()),
                         fmt::format("'{}' is not a binary operator", op.text), "");
      }
      if (precedence < min_precedence) break;
      ++pos_;
      const int rhs = parse_binary(precedence + 1, depth + 1);
      if (rhs < 0) return -1;
      ExprNode n;
      n.kind = ExprNode::Kind::kBinary;
      n.op = std::string(op.text);
      n.lhs = lhs;
      n.rhs = rhs;
      n.column = node(lhs).column;
      n.length = node(rhs).column + node(rhs).length - n.column;
      lhs = add(std::move(n));
    }
    return lhs;
  }

  int parse_unary(int depth) {
    if (depth > 100) return fail_node(0, 0, "expression nested too deeply", "");
    if (pos_ >= end_) {
      const int column = pos_ > 0 ? token_end(tokens_[pos_ - 1]) : 0;
      return fail_node(column, 1, "expression ends where a value is expected", "complete the expression");
    }
    const Token& t = tokens_[pos_];
    if (t.kind == TokenKind::kOperator &&
        (t.text == "-" || t.text == "+" || t.text == "~" || t.text == "!")) {
      ++pos_;
      const int operand = parse_unary(depth + 1);
      if (operand < 0) return -1;
      ExprNode n;
      n.kind = ExprNode::Kind::kUnary;
      n.op = std::string(t.text);
      n.lhs = operand;
      n.column = t.column;
      n.length = node(operand).column + node(operand).length - t.column;
      return add(std::move(n));
    }
    return parse_primary(depth);
  }

  int parse_primary(int depth) {
    const Token& t = tokens_[pos_];
    ExprNode n;
    n.column = t.column;
    n.length = static_cast<int>(t.text.size());
    switch (t.kind) {
      case TokenKind::kInteger:
        if (t.integer > static_cast<uint64_t>(std::numeric_limits<int64_t>::max())) {
          return fail_node(t.column, n.length,
                           fmt::format("integer literal '{}' does not fit 64 bits", t.text), "");
        }
        n.kind = ExprNode::Kind::kInteger;
        n.integer = t.integer;
        n.real = t.real;
        n.literal = std::string(t.text);
        ++pos_;
        return add(std::move(n));
      case TokenKind::kFloat:
        n.kind = ExprNode::Kind::kFloat;
        n.real = t.real;
        n.literal = std::string(t.text);
        ++pos_;
        return add(std::move(n));
      case TokenKind::kIdentifier:
        n.kind = ExprNode::Kind::kSymbol;
        n.name = std::string(t.text);
        ++pos_;
        return add(std::move(n));
      case TokenKind::kLocation:
        n.kind = ExprNode::Kind::kLocation;
        ++pos_;
        return add(std::move(n));
      case TokenKind::kLParen: {
        ++pos_;
        const int inner = parse_binary(1, depth + 1);
        if (inner < 0) return -1;
        if (pos_ >= end_ || tokens_[pos_].kind != TokenKind::kRParen) {
          const int column = pos_ < end_ ? tokens_[pos_].column : token_end(tokens_[pos_ - 1]);
          return fail_node(column, 1, "missing ')'",
                           fmt::format("the '(' at column {} is not closed", t.column));
        }
        // Widen the span to include the parentheses.
        ExprNode& in = expr_.nodes[static_cast<size_t>(inner)];
        in.length = token_end(tokens_[pos_]) - t.column;
        in.column = t.column;
        ++pos_;
        return inner;
      }
      case TokenKind::kInvalid:
        return fail_node(t.column, n.length, t.error, invalid_token_hint(t));
      default:
        return fail_node(t.column, n.length, fmt::format("expected a value, found '{}'", t.text), "");
    }
  }

  const std::vector<Token>& tokens_;
  size_t pos_;
  size_t end_;
  ExprError* error_;
  Expression expr_;
  bool failed_ = false;
};

struct Evaluator {
  const Expression& expr;
  const SymbolResolver& resolve;
  std::optional<int64_t> location;
  bool unresolved_ok;
  EvalStatus status = EvalStatus::kOk;
  ExprError error;

  const ExprNode& node(int index) const { return expr.nodes[static_cast<size_t>(index)]; }

  void fail(const ExprNode& n, std::string message, std::string hint = "") {
    if (status != EvalStatus::kOk) return;
    status = EvalStatus::kError;
    error.column = n.column;
    error.length = n.length;
    error.message = std::move(message);
    error.hint = std::move(hint);
  }

  std::optional<int64_t> symbol(const ExprNode& n) {
    if (auto value = resolve ? resolve(n.name) : std::nullopt) return value;
    if (unresolved_ok) {
      if (status == EvalStatus::kOk) status = EvalStatus::kUnresolved;
    } else if (status == EvalStatus::kOk) {
      fail(n, fmt::format("unknown symbol '{}'", n.name));
      error.symbol = n.name;
    }
    return std::nullopt;
  }

  int64_t location_value(const ExprNode& n) {
    if (location) return *location;
    fail(n, "'.' (the current address) is not available here");
    return 0;
  }

  int64_t eval_int(int index) {
    const ExprNode& n = node(index);
    switch (n.kind) {
      case ExprNode::Kind::kInteger:
        return static_cast<int64_t>(n.integer);
      case ExprNode::Kind::kFloat:
        fail(n, fmt::format("floating-point number '{}' in an integer expression", n.literal),
             "this operand takes an integer; only fp32 operands (such as the value of S_LI_FP) take "
             "floating-point numbers");
        return 0;
      case ExprNode::Kind::kSymbol:
        return symbol(n).value_or(0);
      case ExprNode::Kind::kLocation:
        return location_value(n);
      case ExprNode::Kind::kUnary: {
        const uint64_t v = static_cast<uint64_t>(eval_int(n.lhs));
        if (n.op == "-") return static_cast<int64_t>(0 - v);
        if (n.op == "~") return static_cast<int64_t>(~v);
        if (n.op == "!") return v == 0 ? 1 : 0;
        return static_cast<int64_t>(v);
      }
      case ExprNode::Kind::kBinary: {
        const int64_t a = eval_int(n.lhs);
        const int64_t b = eval_int(n.rhs);
        if (status != EvalStatus::kOk) return 0;
        const uint64_t ua = static_cast<uint64_t>(a);
        const uint64_t ub = static_cast<uint64_t>(b);
        const std::string& op = n.op;
        if (op == "+") return static_cast<int64_t>(ua + ub);
        if (op == "-") return static_cast<int64_t>(ua - ub);
        if (op == "*") return static_cast<int64_t>(ua * ub);
        if (op == "/" || op == "%") {
          if (b == 0) {
            fail(node(n.rhs), "division by zero", "check the divisor's symbols and parentheses");
            return 0;
          }
          if (a == std::numeric_limits<int64_t>::min() && b == -1) return op == "/" ? a : 0;
          return op == "/" ? a / b : a % b;
        }
        if (op == "<<" || op == ">>") {
          if (b < 0 || b > 63) {
            fail(node(n.rhs), fmt::format("shift count {} is out of range 0..63", b),
                 "shift counts are 0..63");
            return 0;
          }
          if (op == "<<") return static_cast<int64_t>(ua << b);
          return a >> b;  // arithmetic shift: negative values stay negative
        }
        if (op == "&") return a & b;
        if (op == "|") return a | b;
        if (op == "^") return a ^ b;
        if (op == "==") return a == b;
        if (op == "!=") return a != b;
        if (op == "<") return a < b;
        if (op == "<=") return a <= b;
        if (op == ">") return a > b;
        if (op == ">=") return a >= b;
        if (op == "&&") return (a != 0) && (b != 0);
        if (op == "||") return (a != 0) || (b != 0);
        fail(n, fmt::format("unknown operator '{}'", op));
        return 0;
      }
    }
    return 0;
  }

  double eval_float(int index) {
    const ExprNode& n = node(index);
    switch (n.kind) {
      case ExprNode::Kind::kInteger:
      case ExprNode::Kind::kFloat:
        return n.real;
      case ExprNode::Kind::kSymbol: {
        if (auto value = resolve ? resolve(n.name) : std::nullopt) return static_cast<double>(*value);
        const std::string lower = [&] {
          std::string s = n.name;
          for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
          return s;
        }();
        if (lower == "inf" || lower == "infinity") return std::numeric_limits<double>::infinity();
        if (lower == "nan") return std::numeric_limits<double>::quiet_NaN();
        return static_cast<double>(symbol(n).value_or(0));
      }
      case ExprNode::Kind::kLocation:
        return static_cast<double>(location_value(n));
      case ExprNode::Kind::kUnary: {
        const double v = eval_float(n.lhs);
        if (n.op == "-") return -v;
        if (n.op == "+") return v;
        fail(n, fmt::format("operator '{}' is not allowed in a floating-point expression", n.op),
             "floating-point expressions allow + - * / and parentheses");
        return 0;
      }
      case ExprNode::Kind::kBinary: {
        const double a = eval_float(n.lhs);
        const double b = eval_float(n.rhs);
        if (status != EvalStatus::kOk) return 0;
        if (n.op == "+") return a + b;
        if (n.op == "-") return a - b;
        if (n.op == "*") return a * b;
        if (n.op == "/") {
          if (b == 0.0) {
            fail(node(n.rhs), "division by zero", "write inf, -inf or nan for special values");
            return 0;
          }
          return a / b;
        }
        fail(n, fmt::format("operator '{}' is not allowed in a floating-point expression", n.op),
             "floating-point expressions allow + - * / and parentheses");
        return 0;
      }
    }
    return 0;
  }
};

}  // namespace

std::optional<Expression> parse_expression(const std::vector<Token>& tokens, size_t begin, size_t end,
                                           ExprError* error) {
  Parser parser(tokens, begin, end, error);
  return parser.parse();
}

IntValue evaluate_int(const Expression& expr, const SymbolResolver& resolve, std::optional<int64_t> location,
                      bool unresolved_ok) {
  Evaluator ev{expr, resolve, location, unresolved_ok, EvalStatus::kOk, {}};
  IntValue out;
  out.value = ev.eval_int(expr.root);
  out.status = ev.status;
  out.error = ev.error;
  return out;
}

FloatValue evaluate_float(const Expression& expr, const SymbolResolver& resolve,
                          std::optional<int64_t> location, bool unresolved_ok) {
  Evaluator ev{expr, resolve, location, unresolved_ok, EvalStatus::kOk, {}};
  FloatValue out;
  out.value = ev.eval_float(expr.root);
  out.status = ev.status;
  out.error = ev.error;
  const ExprNode* root = &expr.nodes[static_cast<size_t>(expr.root)];
  if (root->kind == ExprNode::Kind::kUnary && (root->op == "-" || root->op == "+")) {
    root = &expr.nodes[static_cast<size_t>(root->lhs)];
  }
  out.single_literal = root->kind == ExprNode::Kind::kFloat || root->kind == ExprNode::Kind::kInteger;
  return out;
}

std::vector<std::string> referenced_symbols(const Expression& expr) {
  std::vector<std::string> names;
  for (const ExprNode& n : expr.nodes) {
    if (n.kind == ExprNode::Kind::kSymbol) names.push_back(n.name);
  }
  return names;
}

uint32_t fp32_bits_from_double(double value) {
  if (std::isnan(value)) return 0x7FC00000u;
  const float f = static_cast<float>(value);  // round to nearest even (default rounding mode)
  uint32_t bits = 0;
  std::memcpy(&bits, &f, sizeof bits);
  return bits;
}

std::optional<uint32_t> fp32_bits_from_text(std::string_view text, bool negate) {
  const std::string s(text);
  uint32_t bits = 0;
  if (s.size() > 2 && s[0] == '0' && (s[1] == 'b' || s[1] == 'B')) {
    uint64_t v = 0;
    for (size_t i = 2; i < s.size(); ++i) v = v * 2 + static_cast<uint64_t>(s[i] - '0');
    const float f = static_cast<float>(v);  // one rounding from the exact integer
    std::memcpy(&bits, &f, sizeof bits);
  } else {
    char* end = nullptr;
    const float f = std::strtof(s.c_str(), &end);  // correctly rounded from the decimal/hex text
    if (end != s.c_str() + s.size()) return std::nullopt;
    if (std::isnan(f)) return 0x7FC00000u;
    std::memcpy(&bits, &f, sizeof bits);
  }
  return negate ? bits ^ 0x80000000u : bits;
}

}  // namespace kcraft::isa
