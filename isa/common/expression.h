// Tokens and integer/floating expressions of the assembly language (shared by the assembler and by
// kcraft_isagen, which checks latency expressions and pseudo-instruction templates with it).
//
// Integer expressions use C operators and precedence on 64-bit two's complement values:
//   unary - + ~ !  |  * / %  |  + -  |  << >>  |  < <= > >=  |  == !=  |  &  |  ^  |  |  |  &&  |  ||
// Floating expressions (fp32 operands) allow numbers, symbols, inf, nan, unary -/+, and + - * /.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace kcraft::isa {

enum class TokenKind : uint8_t {
  kIdentifier,
  kInteger,
  kFloat,
  kDirective,  // ".equ": a dot immediately followed by a name
  kLocation,   // ".": the address of the current statement
  kOperator,
  kComma,
  kColon,
  kLParen,
  kRParen,
  kLBrace,
  kRBrace,
  kSemicolon,
  kInvalid,  // a character or number the lexer rejects; `error` says why
};

struct Token {
  TokenKind kind = TokenKind::kInvalid;
  std::string_view text;
  int column = 0;        // 1-based column in the line
  uint64_t integer = 0;  // kInteger
  double real = 0.0;     // kFloat
  std::string error;     // kInvalid
};

// Splits one line (comments already removed) into tokens. Never fails: bad input becomes kInvalid tokens.
std::vector<Token> tokenize(std::string_view line);

struct ExprNode {
  enum class Kind : uint8_t { kInteger, kFloat, kSymbol, kLocation, kUnary, kBinary };
  Kind kind = Kind::kInteger;
  std::string op;    // kUnary, kBinary
  std::string name;  // kSymbol
  uint64_t integer = 0;
  double real = 0.0;
  std::string literal;  // the source text of a number
  int column = 0;
  int length = 0;
  int lhs = -1;
  int rhs = -1;
};

struct Expression {
  std::vector<ExprNode> nodes;
  int root = -1;
  int column = 0;  // span in the source line
  int length = 0;
};

// Why parsing or evaluation failed, with the span of the offending text.
struct ExprError {
  int column = 0;
  int length = 0;
  std::string message;
  std::string hint;
  std::string symbol;  // set for an unknown symbol (so callers can suggest similar names)
};

// Parses tokens [begin, end) as one expression; all of them must be consumed.
std::optional<Expression> parse_expression(const std::vector<Token>& tokens, size_t begin, size_t end,
                                           ExprError* error);

// Resolves a symbol; nullopt if it is not (yet) defined.
using SymbolResolver = std::function<std::optional<int64_t>(std::string_view)>;

enum class EvalStatus : uint8_t { kOk, kUnresolved, kError };

struct IntValue {
  EvalStatus status = EvalStatus::kError;
  int64_t value = 0;
  ExprError error;
};
struct FloatValue {
  EvalStatus status = EvalStatus::kError;
  double value = 0.0;
  bool single_literal = false;  // the expression is one (optionally negated) literal: round its text once
  ExprError error;
};

// `location` is the value of "."; with `unresolved_ok` an unknown symbol gives kUnresolved instead of an
// error (pass 1 of the assembler, forward references).
IntValue evaluate_int(const Expression& expr, const SymbolResolver& resolve, std::optional<int64_t> location,
                      bool unresolved_ok);
FloatValue evaluate_float(const Expression& expr, const SymbolResolver& resolve,
                          std::optional<int64_t> location, bool unresolved_ok);

// Names of all symbols an expression refers to (for validation of templates and latency formulas).
std::vector<std::string> referenced_symbols(const Expression& expr);

// Rounds a double to the nearest FP32 (ties to even) and returns its bits; NaN becomes 0x7FC00000.
uint32_t fp32_bits_from_double(double value);
// Rounds decimal/hex-float text directly to FP32 (one rounding); nullopt if it is not a number.
std::optional<uint32_t> fp32_bits_from_text(std::string_view text, bool negate);

}  // namespace kcraft::isa
