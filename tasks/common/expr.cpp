#include "tasks/common/expr.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <cstdlib>

namespace kcraft::tasks {

struct Expr::Node {
  enum class Kind { number, name, negate, add, sub, mul, div, call } kind = Kind::number;
  double value = 0.0;
  std::string name;  // variable or function name
  std::vector<std::shared_ptr<const Node>> args;
};

namespace {

using NodePtr = std::shared_ptr<const Expr::Node>;
using Kind = Expr::Node::Kind;

struct FunctionInfo {
  const char* name;
  std::size_t arity;
};
constexpr FunctionInfo kFunctions[] = {{"sqrt", 1}, {"ceil", 1}, {"floor", 1},
                                       {"log2", 1}, {"min", 2},  {"max", 2}};

class Parser {
 public:
  explicit Parser(const std::string& text) : text_(text) {}

  NodePtr parse_all(std::vector<std::string>& names) {
    names_ = &names;
    skip_space();
    if (pos_ == text_.size()) fail("empty expression");
    NodePtr node = parse_sum();
    skip_space();
    if (pos_ != text_.size()) fail(std::string("unexpected '") + text_[pos_] + "'");
    return node;
  }

 private:
  [[noreturn]] void fail(const std::string& what) const {
    throw ExprError(what + " at column " + std::to_string(pos_ + 1) + " in '" + text_ + "'");
  }

  void skip_space() {
    while (pos_ < text_.size() && std::isspace(static_cast<unsigned char>(text_[pos_]))) ++pos_;
  }

  static NodePtr make(Kind kind, std::vector<NodePtr> args) {
    auto node = std::make_shared<Expr::Node>();
    node->kind = kind;
    node->args = std::move(args);
    return node;
  }

  NodePtr parse_sum() {
    NodePtr left = parse_product();
    for (;;) {
      skip_space();
      if (pos_ < text_.size() && (text_[pos_] == '+' || text_[pos_] == '-')) {
        Kind kind = text_[pos_] == '+' ? Kind::add : Kind::sub;
        ++pos_;
        left = make(kind, {left, parse_product()});
      } else {
        return left;
      }
    }
  }

  NodePtr parse_product() {
    NodePtr left = parse_unary();
    for (;;) {
      skip_space();
      if (pos_ < text_.size() && (text_[pos_] == '*' || text_[pos_] == '/')) {
        Kind kind = text_[pos_] == '*' ? Kind::mul : Kind::div;
        ++pos_;
        left = make(kind, {left, parse_unary()});
      } else {
        return left;
      }
    }
  }

  NodePtr parse_unary() {
    skip_space();
    if (pos_ < text_.size() && text_[pos_] == '-') {
      ++pos_;
      return make(Kind::negate, {parse_unary()});
    }
    if (pos_ < text_.size() && text_[pos_] == '+') {
      ++pos_;
      return parse_unary();
    }
    return parse_primary();
  }

  NodePtr parse_primary() {
    skip_space();
    if (pos_ == text_.size()) fail("expression ends early");
    char c = text_[pos_];
    if (c == '(') {
      ++pos_;
      NodePtr inner = parse_sum();
      skip_space();
      if (pos_ == text_.size() || text_[pos_] != ')') fail("expected ')'");
      ++pos_;
      return inner;
    }
    if (std::isdigit(static_cast<unsigned char>(c)) || c == '.') return parse_number();
    if (std::isalpha(static_cast<unsigned char>(c)) || c == '_') return parse_name_or_call();
    fail(std::string("unexpected '") + c + "'");
  }

  NodePtr parse_number() {
    const char* begin = text_.c_str() + pos_;
    char* end = nullptr;
    double value = std::strtod(begin, &end);
    if (end == begin) fail("bad number");
    pos_ += static_cast<std::size_t>(end - begin);
    auto node = std::make_shared<Expr::Node>();
    node->kind = Kind::number;
    node->value = value;
    return node;
  }

  NodePtr parse_name_or_call() {
    std::size_t start = pos_;
    while (pos_ < text_.size() &&
           (std::isalnum(static_cast<unsigned char>(text_[pos_])) || text_[pos_] == '_')) {
      ++pos_;
    }
    std::string name = text_.substr(start, pos_ - start);
    skip_space();
    if (pos_ < text_.size() && text_[pos_] == '(') {
      const FunctionInfo* info = nullptr;
      for (const auto& f : kFunctions) {
        if (name == f.name) info = &f;
      }
      if (info == nullptr) {
        pos_ = start;
        fail("unknown function '" + name + "' (known: sqrt, min, max, ceil, floor, log2)");
      }
      ++pos_;
      std::vector<NodePtr> args;
      skip_space();
      if (pos_ < text_.size() && text_[pos_] != ')') {
        for (;;) {
          args.push_back(parse_sum());
          skip_space();
          if (pos_ < text_.size() && text_[pos_] == ',') {
            ++pos_;
            continue;
          }
          break;
        }
      }
      if (pos_ == text_.size() || text_[pos_] != ')') fail("expected ')' after arguments of " + name);
      ++pos_;
      if (args.size() != info->arity) {
        fail(name + " takes " + std::to_string(info->arity) + " argument(s), got " +
             std::to_string(args.size()));
      }
      auto node = std::make_shared<Expr::Node>();
      node->kind = Kind::call;
      node->name = name;
      node->args = std::move(args);
      return node;
    }
    if (std::find(names_->begin(), names_->end(), name) == names_->end()) names_->push_back(name);
    auto node = std::make_shared<Expr::Node>();
    node->kind = Kind::name;
    node->name = name;
    return node;
  }

  const std::string& text_;
  std::size_t pos_ = 0;
  std::vector<std::string>* names_ = nullptr;
};

double evaluate(const Expr::Node& node, const Expr::Lookup& lookup) {
  switch (node.kind) {
    case Kind::number:
      return node.value;
    case Kind::name: {
      std::optional<double> value = lookup(node.name);
      if (!value) throw ExprError("unknown name '" + node.name + "'");
      return *value;
    }
    case Kind::negate:
      return -evaluate(*node.args[0], lookup);
    case Kind::add:
      return evaluate(*node.args[0], lookup) + evaluate(*node.args[1], lookup);
    case Kind::sub:
      return evaluate(*node.args[0], lookup) - evaluate(*node.args[1], lookup);
    case Kind::mul:
      return evaluate(*node.args[0], lookup) * evaluate(*node.args[1], lookup);
    case Kind::div:
      return evaluate(*node.args[0], lookup) / evaluate(*node.args[1], lookup);
    case Kind::call: {
      double a = evaluate(*node.args[0], lookup);
      if (node.name == "sqrt") return std::sqrt(a);
      if (node.name == "ceil") return std::ceil(a);
      if (node.name == "floor") return std::floor(a);
      if (node.name == "log2") return std::log2(a);
      double b = evaluate(*node.args[1], lookup);
      if (node.name == "min") return std::min(a, b);
      return std::max(a, b);
    }
  }
  return 0.0;
}

}  // namespace

std::string shortest_double(double value) {
  char buffer[40];
  for (int precision = 1; precision <= 17; ++precision) {
    std::snprintf(buffer, sizeof buffer, "%.*g", precision, value);
    if (std::strtod(buffer, nullptr) == value) break;
  }
  return buffer;
}

Expr Expr::parse(const std::string& text) {
  Expr expr;
  expr.text_ = text;
  expr.root_ = Parser(text).parse_all(expr.names_);
  return expr;
}

Expr Expr::constant(double value) {
  Expr expr;
  expr.text_ = shortest_double(value);
  auto node = std::make_shared<Node>();
  node->kind = Node::Kind::number;
  node->value = value;
  expr.root_ = node;
  return expr;
}

std::optional<std::string> Expr::as_name() const {
  if (root_ && root_->kind == Node::Kind::name) return root_->name;
  return std::nullopt;
}

double Expr::eval(const Lookup& lookup) const {
  if (!root_) throw ExprError("empty expression");
  return evaluate(*root_, lookup);
}

}  // namespace kcraft::tasks
