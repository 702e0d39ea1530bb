// Arithmetic expressions in task specs ("2*M*N*K", "1/sqrt(K)", "M*N*ELEM_BYTES").
//
// Grammar: numbers (123, 1.5, 1e-5), names, + - * / with the usual precedence, unary minus, parentheses
// and the functions sqrt, min, max, ceil, floor, log2. Values are doubles.
#pragma once

#include <functional>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace kcraft::tasks {

class ExprError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

class Expr {
 public:
  // Looks a name up; std::nullopt means "unknown name".
  using Lookup = std::function<std::optional<double>(const std::string&)>;

  Expr() = default;
  // Throws ExprError ("unexpected ')' at column 6 in '2*M*N)'").
  static Expr parse(const std::string& text);
  static Expr constant(double value);

  const std::string& text() const { return text_; }
  bool empty() const { return root_ == nullptr; }
  // The names the expression refers to, in order of first appearance.
  const std::vector<std::string>& names() const { return names_; }
  // When the whole expression is a single name, that name.
  std::optional<std::string> as_name() const;
  // Throws ExprError on an unknown name.
  double eval(const Lookup& lookup) const;
  // Where the expression came from (1-based line in its spec file; 0 when unknown), for error messages.
  int line() const { return line_; }
  void set_line(int line) { line_ = line; }

  struct Node;

 private:
  std::string text_;
  std::shared_ptr<const Node> root_;
  std::vector<std::string> names_;
  int line_ = 0;
};

// The shortest decimal text that reads back as exactly `value` ("1e-05", "0.1", "256").
std::string shortest_double(double value);

}  // namespace kcraft::tasks
