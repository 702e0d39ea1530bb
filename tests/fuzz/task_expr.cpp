// Fuzzes the arithmetic expressions of task specs (tasks/common/expr.cpp): shapes, parameters, FLOP counts
// and scratch sizes ("2*M*N*K", "1/sqrt(K)") are all written in it. task_spec_yaml reaches it too; this
// harness gets there without the YAML around it, so it runs many more expressions per second.
//
// Any text must parse or throw ExprError; evaluation must give a value or throw ExprError (unknown name).
// shortest_double promises text that reads back as exactly the value, and the expression parser must read
// it back the same way (Expr::constant writes it).
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <functional>
#include <string>

#include "tasks/common/expr.h"
#include "tests/fuzz/fuzz_support.h"

using namespace kcraft;

namespace {

// Every name has a value except those starting with 'u' (unknown names must be reported, not crash).
std::optional<double> lookup(const std::string& name) {
  if (name.empty() || name[0] == 'u') return std::nullopt;
  return static_cast<double>(std::hash<std::string>{}(name) % 4096) / 8.0;
}

void check_shortest(double value) {
  if (!std::isfinite(value)) return;
  const std::string text = tasks::shortest_double(value);
  fuzz::check(std::strtod(text.c_str(), nullptr) == value, "shortest_double does not read back: " + text);
  double reparsed = 0;
  const bool parsed = fuzz::expect_errors<tasks::ExprError>(
      "Expr::parse(shortest_double)", [&] { reparsed = tasks::Expr::parse(text).eval(lookup); });
  fuzz::check(parsed && (reparsed == value || (value == 0 && reparsed == 0)),
              "the expression parser reads shortest_double's '" + text + "' differently");
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  tasks::Expr expr;
  const bool parsed = fuzz::expect_errors<tasks::ExprError>(
      "Expr::parse", [&] { expr = tasks::Expr::parse(fuzz::text_of(data, size)); });
  if (!parsed) return 0;
  fuzz::check(!expr.empty(), "a parsed expression without a tree");
  for (const auto& name : expr.names()) fuzz::check(!name.empty(), "an empty name");
  if (auto name = expr.as_name()) fuzz::check(expr.names().size() == 1, "a lone name among others");

  double value = 0;
  if (fuzz::expect_errors<tasks::ExprError>("Expr::eval", [&] { value = expr.eval(lookup); })) {
    check_shortest(value);
  }
  return 0;
}
