// The lexer and the expression evaluator shared by the assembler and the generator.
#include <cmath>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "isa/common/expression.h"

namespace kcraft::isa {
namespace {

using ::testing::HasSubstr;

IntValue eval(const std::string& text, const SymbolResolver& resolve = {}, bool unresolved_ok = false) {
  const std::vector<Token> tokens = tokenize(text);
  ExprError err;
  const auto expr = parse_expression(tokens, 0, tokens.size(), &err);
  if (!expr) {
    IntValue v;
    v.error = err;
    return v;
  }
  return evaluate_int(*expr, resolve, 100, unresolved_ok);
}

FloatValue eval_float(const std::string& text) {
  const std::vector<Token> tokens = tokenize(text);
  const auto expr = parse_expression(tokens, 0, tokens.size(), nullptr);
  EXPECT_TRUE(expr) << text;
  return expr ? evaluate_float(*expr, {}, 0, false) : FloatValue{};
}

TEST(Lexer, TokenKindsAndColumns) {
  const auto t = tokenize("lbl: .equ X, 0x1F + 0b101 - 1.5e3 .+2 (a) {");
  ASSERT_EQ(t.size(), 17u);
  EXPECT_EQ(t[0].kind, TokenKind::kIdentifier);
  EXPECT_EQ(t[1].kind, TokenKind::kColon);
  EXPECT_EQ(t[2].kind, TokenKind::kDirective);
  EXPECT_EQ(t[2].text, ".equ");
  EXPECT_EQ(t[2].column, 6);
  EXPECT_EQ(t[5].kind, TokenKind::kInteger);
  EXPECT_EQ(t[5].integer, 31u);
  EXPECT_EQ(t[7].integer, 5u);
  EXPECT_EQ(t[9].kind, TokenKind::kFloat);
  EXPECT_DOUBLE_EQ(t[9].real, 1500.0);
  EXPECT_EQ(t[10].kind, TokenKind::kLocation);
  EXPECT_EQ(t[16].kind, TokenKind::kLBrace);
}

TEST(Lexer, BadInputBecomesInvalidTokens) {
  const auto t = tokenize("5 $ 0x 99999999999999999999 0b12 é");
  ASSERT_EQ(t.size(), 6u);
  EXPECT_EQ(t[1].kind, TokenKind::kInvalid);
  EXPECT_EQ(t[1].error, "unexpected character '$'");
  EXPECT_EQ(t[2].error, "malformed number '0x'");
  EXPECT_THAT(t[3].error, HasSubstr("does not fit 64 bits"));
  EXPECT_EQ(t[4].error, "malformed number '0b12'");
  EXPECT_EQ(t[5].error, "unexpected character 'é'");
}

TEST(Evaluate, IntegerArithmetic) {
  EXPECT_EQ(eval("2 + 3 * 4").value, 14);
  EXPECT_EQ(eval("(2 + 3) * 4").value, 20);
  EXPECT_EQ(eval("1 << 3 + 1").value, 16);  // + binds tighter than <<
  EXPECT_EQ(eval("7 & 3 | 8").value, 11);
  EXPECT_EQ(eval("1 | 2 ^ 3").value, 1);  // ^ binds tighter than |
  EXPECT_EQ(eval("-2 * -3").value, 6);
  EXPECT_EQ(eval("!5 + !0").value, 1);
  EXPECT_EQ(eval("3 < 4 && 4 <= 4 || 0").value, 1);
  EXPECT_EQ(eval(". + 1").value, 101);
  EXPECT_EQ(eval("0x7FFFFFFFFFFFFFFF + 1").value, INT64_MIN);  // wraps, no UB
}

TEST(Evaluate, ErrorsCarryTheirSpan) {
  const IntValue div = eval("10 / (3 - 3)");
  EXPECT_EQ(div.status, EvalStatus::kError);
  EXPECT_EQ(div.error.message, "division by zero");
  EXPECT_EQ(div.error.column, 6);
  EXPECT_EQ(div.error.length, 7);
  EXPECT_EQ(eval("1 << 64").error.message, "shift count 64 is out of range 0..63");
  EXPECT_EQ(eval("1 +").error.message, "expression ends where a value is expected");
  EXPECT_EQ(eval("(1").error.message, "missing ')'");
  EXPECT_EQ(eval("1)").error.message, "unmatched ')'");
  EXPECT_EQ(eval("1 2").error.message, "unexpected '2' in expression");
}

TEST(Evaluate, SymbolsResolvedOrReportedOrDeferred) {
  const SymbolResolver resolve = [](std::string_view name) -> std::optional<int64_t> {
    if (name == "N") return 8;
    return std::nullopt;
  };
  EXPECT_EQ(eval("N * N", resolve).value, 64);
  const IntValue unknown = eval("N + M", resolve);
  EXPECT_EQ(unknown.status, EvalStatus::kError);
  EXPECT_EQ(unknown.error.symbol, "M");
  EXPECT_EQ(unknown.error.column, 5);
  EXPECT_EQ(eval("N + M", resolve, true).status, EvalStatus::kUnresolved);
}

TEST(Evaluate, FloatingExpressions) {
  EXPECT_DOUBLE_EQ(eval_float("1/64").value, 0.015625);
  EXPECT_DOUBLE_EQ(eval_float("-(1.5e1 + 0x1p-1)").value, -15.5);
  EXPECT_TRUE(std::isinf(eval_float("-inf").value));
  EXPECT_TRUE(std::isnan(eval_float("NaN").value));
  EXPECT_TRUE(eval_float("-2.5").single_literal);
  EXPECT_FALSE(eval_float("1.0/3").single_literal);
  const FloatValue shift = eval_float("1 << 2");
  EXPECT_EQ(shift.status, EvalStatus::kError);
  EXPECT_THAT(shift.error.message, HasSubstr("not allowed in a floating-point expression"));
}

TEST(Fp32, RoundedOnceToNearestEven) {
  EXPECT_EQ(fp32_bits_from_text("0.1", false), 0x3DCCCCCDu);
  EXPECT_EQ(fp32_bits_from_text("1", true), 0xBF800000u);
  EXPECT_EQ(fp32_bits_from_text("16777217", false), 0x4B800000u);  // tie rounds to even
  EXPECT_EQ(fp32_bits_from_text("16777219", false), 0x4B800002u);  // tie rounds to even (up)
  EXPECT_EQ(fp32_bits_from_text("0b101", false), 0x40A00000u);
  EXPECT_EQ(fp32_bits_from_double(std::nan("")), 0x7FC00000u);
  EXPECT_EQ(fp32_bits_from_double(1e39), 0x7F800000u);
  // A decimal just above a rounding tie: one rounding from the text is right, double-then-float is not.
  // 1 + 2^-24 + 2^-60 is above the midpoint between 1 and the next float, so it rounds up.
  EXPECT_EQ(fp32_bits_from_text(
                "1.0000000596046447753906250000000000008673617379884035472059622406959533691406", false),
            0x3F800001u);
}

}  // namespace
}  // namespace kcraft::isa
