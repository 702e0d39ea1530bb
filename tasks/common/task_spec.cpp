#include "tasks/common/task_spec.h"

#include <optional>

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <exception>
#include <fstream>
#include <set>
#include <sstream>

#include "tasks/golden/golden.h"

namespace kcraft::tasks {

namespace {

constexpr const char* kElemBytes = "ELEM_BYTES";
constexpr std::size_t kMaxRank = 4;
constexpr int64_t kMaxElements = int64_t{1} << 28;

std::string format_error(const std::string& file, const std::string& field, int line,
                         const std::string& message) {
  std::string text = file + ": ";
  if (!field.empty()) text += field + ": ";
  text += message;
  if (line > 0) text += " (line " + std::to_string(line) + ")";
  return text;
}

std::string join(const std::vector<std::string>& items, const std::string& separator) {
  std::string text;
  for (std::size_t i = 0; i < items.size(); ++i) {
    if (i > 0) text += separator;
    text += items[i];
  }
  return text;
}

bool is_identifier(const std::string& text) {
  if (text.empty() || !(std::isalpha(static_cast<unsigned char>(text[0])) || text[0] == '_')) return false;
  return std::all_of(text.begin(), text.end(),
                     [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; });
}

std::size_t edit_distance(const std::string& a, const std::string& b) {
  std::vector<std::size_t> row(b.size() + 1);
  for (std::size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    std::size_t diagonal = row[0];
    row[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j) {
      std::size_t above = row[j];
      bool same = std::tolower(static_cast<unsigned char>(a[i - 1])) ==
                  std::tolower(static_cast<unsigned char>(b[j - 1]));
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (same ? 0 : 1)});
      diagonal = above;
    }
  }
  return row[b.size()];
}

// Failure while resolving a config; the loader turns it into a TaskSpecError.
struct ResolveError {
  std::string field;
  std::string message;
  int line = 0;  // of the expression that failed, when known
};

std::string describe_value(double value) {
  if (std::isnan(value)) return "nan";
  if (std::isinf(value)) return value > 0 ? "inf" : "-inf";
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.6g", value);
  return buffer;
}

class Loader {
 public:
  explicit Loader(std::string file) : file_(std::move(file)) {}

  [[noreturn]] void fail_at_line(const std::string& field, int line, const std::string& message) const {
    throw TaskSpecError(file_, field, line, message);
  }

  [[noreturn]] void fail(const std::string& field, const YAML::Node& node, const std::string& message) const {
    int line = 0;
    if (node.IsDefined() && node.Mark().line >= 0) line = node.Mark().line + 1;
    throw TaskSpecError(file_, field, line, message);
  }

  // Checks that `node` is a mapping with unique keys drawn from `allowed`, containing every `required`.
  void check_map(const YAML::Node& node, const std::string& field, const std::vector<std::string>& allowed,
                 const std::vector<std::string>& required) const {
    if (!node.IsMap()) fail(field, node, "expected a mapping" + found(node));
    std::set<std::string> seen;
    for (const auto& entry : node) {
      const std::string key = entry.first.IsScalar() ? entry.first.Scalar() : std::string("?");
      const std::string key_field = prefix(field) + key;
      if (!entry.first.IsScalar()) fail(field, entry.first, "keys must be plain names");
      if (!seen.insert(key).second) fail(key_field, entry.first, "duplicate key");
      if (std::find(allowed.begin(), allowed.end(), key) == allowed.end()) {
        std::string hint = closest_match(key, allowed);
        fail(key_field, entry.first,
             "unknown key" + (hint.empty() ? "" : " (did you mean '" + hint + "'?)") +
                 "; allowed: " + join(allowed, ", "));
      }
    }
    for (const std::string& key : required) {
      if (!seen.count(key)) fail(prefix(field) + key, node, "missing required field");
    }
  }

  std::string get_string(const YAML::Node& node, const std::string& field) const {
    if (!node.IsScalar()) fail(field, node, "expected a string" + found(node));
    if (node.Scalar().empty()) fail(field, node, "must not be empty");
    return node.Scalar();
  }

  std::string get_identifier(const YAML::Node& node, const std::string& field) const {
    std::string text = get_string(node, field);
    if (!is_identifier(text)) {
      fail(field, node,
           "'" + text + "' is not a valid name (letters, digits and _, not starting with a digit)");
    }
    if (text == kElemBytes) fail(field, node, "'" + text + "' is reserved");
    return text;
  }

  int64_t get_positive_int(const YAML::Node& node, const std::string& field) const {
    return get_int(node, field, 1, "a positive integer");
  }

  int64_t get_non_negative_int(const YAML::Node& node, const std::string& field) const {
    return get_int(node, field, 0, "a non-negative integer");
  }

  int64_t get_int(const YAML::Node& node, const std::string& field, int64_t lowest,
                  const std::string& expected) const {
    const std::string text = node.IsScalar() ? node.Scalar() : std::string();
    bool ok = node.IsScalar() && !text.empty() && text.size() <= 12 &&
              std::all_of(text.begin(), text.end(),
                          [](char c) { return std::isdigit(static_cast<unsigned char>(c)); });
    int64_t value = ok ? std::stoll(text) : 0;
    if (!ok || value < lowest) {
      fail(field, node,
           "expected " + expected + ", got " + (node.IsScalar() ? "'" + text + "'" : kind(node)));
    }
    return value;
  }

  double get_number(const YAML::Node& node, const std::string& field) const {
    if (node.IsScalar()) {
      const std::string& text = node.Scalar();
      char* end = nullptr;
      double value = std::strtod(text.c_str(), &end);
      if (!text.empty() && end == text.c_str() + text.size() && std::isfinite(value)) return value;
    }
    fail(field, node,
         "expected a finite number, got " + (node.IsScalar() ? "'" + node.Scalar() + "'" : kind(node)));
  }

  // An expression whose names must all be in `known` (with a hint naming them).
  Expr get_expr(const YAML::Node& node, const std::string& field, const std::vector<std::string>& known,
                const std::string& known_what) const {
    if (!node.IsScalar()) fail(field, node, "expected a number or an expression" + found(node));
    Expr expr;
    try {
      expr = Expr::parse(node.Scalar());
    } catch (const ExprError& error) {
      fail(field, node, error.what());
    }
    if (node.Mark().line >= 0) expr.set_line(node.Mark().line + 1);
    for (const std::string& name : expr.names()) {
      if (std::find(known.begin(), known.end(), name) == known.end()) {
        std::string hint = closest_match(name, known);
        fail(field, node,
             "'" + name + "' is not " + known_what + (hint.empty() ? "" : " (did you mean '" + hint + "'?)") +
                 "; known: " + (known.empty() ? std::string("none") : join(known, ", ")));
      }
    }
    return expr;
  }

  void check_sequence(const YAML::Node& node, const std::string& field, bool allow_empty) const {
    if (!node.IsSequence()) fail(field, node, "expected a list" + found(node));
    if (!allow_empty && node.size() == 0) fail(field, node, "must not be empty");
  }

  static std::string prefix(const std::string& field) { return field.empty() ? field : field + "."; }

  static std::string kind(const YAML::Node& node) {
    if (node.IsMap()) return "a mapping";
    if (node.IsSequence()) return "a list";
    if (node.IsNull()) return "nothing";
    return "'" + node.Scalar() + "'";
  }
  static std::string found(const YAML::Node& node) { return ", got " + kind(node); }

  const std::string& file() const { return file_; }

 private:
  std::string file_;
};

std::vector<std::string> dim_names(const TaskSpec& spec) {
  std::vector<std::string> names;
  for (const DimSpec& dim : spec.dims) names.push_back(dim.name);
  return names;
}

// Evaluates with dims, params and (when bytes is non-zero) ELEM_BYTES in scope.
struct Scope {
  const std::vector<std::pair<std::string, int64_t>>* dims = nullptr;
  const std::vector<std::pair<std::string, double>>* params = nullptr;
  std::size_t elem_bytes = 0;

  double eval(const Expr& expr, const std::string& field, const std::string& config) const {
    try {
      return expr.eval([this](const std::string& name) -> std::optional<double> {
        for (const auto& [dim, value] : *dims) {
          if (dim == name) return static_cast<double>(value);
        }
        if (params != nullptr) {
          for (const auto& [param, value] : *params) {
            if (param == name) return value;
          }
        }
        if (elem_bytes != 0 && name == kElemBytes) return static_cast<double>(elem_bytes);
        return std::nullopt;
      });
    } catch (const ExprError& error) {
      throw ResolveError{field, "in config " + config + ": " + error.what(), expr.line()};
    }
  }
};

// The stress init of input `name` for `dtype` and its field path: the dtype's entry, else the common one;
// nullopt when the block does not name the input.
std::optional<std::pair<std::string, const InitSpec*>> stress_init(const RangeStressSpec& stress,
                                                                   const std::string& name, DType dtype) {
  if (auto it = stress.per_dtype.find(dtype); it != stress.per_dtype.end()) {
    for (const auto& [input, init] : it->second) {
      if (input == name)
        return std::make_pair("range_stress." + std::string(dtype_name(dtype)) + "." + name, &init);
    }
  }
  for (const auto& [input, init] : stress.inputs) {
    if (input == name) return std::make_pair("range_stress.inputs." + name, &init);
  }
  return std::nullopt;
}

ResolvedConfig resolve_config(const TaskSpec& spec, const ConfigSpec& config, DType dtype) {
  ResolvedConfig resolved;
  resolved.task = spec.name;
  resolved.config = config.name;
  resolved.level = spec.level;
  resolved.dtype = dtype;
  for (std::size_t i = 0; i < spec.dims.size(); ++i)
    resolved.dims.emplace_back(spec.dims[i].name, config.values[i]);

  Scope scope{&resolved.dims, &resolved.params, 0};
  auto finite = [&](const Expr& expr, const std::string& field) {
    double value = scope.eval(expr, field, config.name);
    if (!std::isfinite(value)) {
      throw ResolveError{field,
                         "in config " + config.name + ": '" + expr.text() + "' evaluates to " +
                             describe_value(value) + ", expected a finite number",
                         expr.line()};
    }
    return value;
  };
  auto shape_of = [&](const std::vector<Expr>& exprs, const std::string& field) {
    Shape shape;
    for (std::size_t i = 0; i < exprs.size(); ++i) {
      const std::string entry_field = field + "[" + std::to_string(i) + "]";
      double value = scope.eval(exprs[i], entry_field, config.name);
      if (!(value >= 1.0 && value <= static_cast<double>(kMaxElements) && value == std::floor(value))) {
        throw ResolveError{entry_field,
                           "in config " + config.name + ": '" + exprs[i].text() + "' evaluates to " +
                               describe_value(value) + ", expected a positive integer",
                           exprs[i].line()};
      }
      shape.push_back(static_cast<int64_t>(value));
    }
    double total = 1.0;
    for (int64_t extent : shape) total *= static_cast<double>(extent);
    if (total > static_cast<double>(kMaxElements)) {
      throw ResolveError{
          field, "in config " + config.name + ": " + format_shape(shape) + " has more than 2^28 elements",
          exprs.empty() ? 0 : exprs.front().line()};
    }
    return shape;
  };

  for (std::size_t i = 0; i < spec.params.size(); ++i) {
    const ParamSpec& param = spec.params[i];
    resolved.params.emplace_back(param.name, finite(param.value, "params[" + std::to_string(i) + "].value"));
  }
  // Evaluates an init's values and checks them; `field` names the init ("inputs[0].init").
  auto resolve_init = [&](const InitSpec& init, const std::string& field, InitDist& dist, double& a,
                          double& b) {
    dist = init.dist;
    const bool rope = init.dist == InitDist::rope_cos || init.dist == InitDist::rope_sin;
    const char* a_name = init.dist == InitDist::normal    ? "mean"
                         : init.dist == InitDist::uniform ? "lo"
                         : rope                           ? "base"
                                                          : "value";
    a = finite(init.a, field + "." + a_name);
    b = 0.0;
    if (rope && !(a > 0.0)) {
      throw ResolveError{field + ".base",
                         "in config " + config.name + ": base must be positive, got " + describe_value(a),
                         init.a.line()};
    }
    if (init.dist == InitDist::normal) {
      b = finite(init.b, field + ".std");
      if (b < 0) {
        throw ResolveError{
            field + ".std",
            "in config " + config.name + ": std must not be negative, got " + describe_value(b),
            init.b.line()};
      }
    } else if (init.dist == InitDist::uniform) {
      b = finite(init.b, field + ".hi");
      if (!(a < b)) {
        throw ResolveError{field,
                           "in config " + config.name + ": lo (" + describe_value(a) +
                               ") must be below hi (" + describe_value(b) + ")",
                           init.a.line()};
      }
    }
  };
  for (std::size_t i = 0; i < spec.inputs.size(); ++i) {
    const InputSpec& input = spec.inputs[i];
    const std::string field = "inputs[" + std::to_string(i) + "]";
    ResolvedTensor tensor;
    tensor.name = input.name;
    tensor.role = input.role;
    tensor.description = input.description;
    tensor.shape = shape_of(input.shape, field + ".shape");
    tensor.elements = element_count(tensor.shape);
    tensor.dist = input.init.dist;
    resolve_init(input.init, field + ".init", tensor.dist, tensor.init_a, tensor.init_b);
    const bool rope = input.init.dist == InitDist::rope_cos || input.init.dist == InitDist::rope_sin;
    if (rope) {
      // The table is indexed [s, d] and pairs d with d + D/2, so it must be 2-D with an even last extent.
      if (tensor.shape.size() != 2 || tensor.shape[1] % 2 != 0) {
        throw ResolveError{field + ".shape",
                           "in config " + config.name + ": " + std::string(dist_name(input.init.dist)) +
                               " needs a 2-D [S, D] shape with D even, got " + format_shape(tensor.shape),
                           input.shape.empty() ? 0 : input.shape.front().line()};
      }
    }
    tensor.stress_dist = tensor.dist;
    tensor.stress_a = tensor.init_a;
    tensor.stress_b = tensor.init_b;
    if (spec.range_stress) {
      if (const auto stress = stress_init(*spec.range_stress, input.name, dtype)) {
        tensor.stress_dist = stress->second->dist;
        resolve_init(*stress->second, stress->first, tensor.stress_dist, tensor.stress_a, tensor.stress_b);
      }
    }
    resolved.inputs.push_back(std::move(tensor));
  }
  for (std::size_t i = 0; i < spec.outputs.size(); ++i) {
    const OutputSpec& output = spec.outputs[i];
    ResolvedTensor tensor;
    tensor.name = output.name;
    tensor.is_output = true;
    tensor.description = output.description;
    tensor.shape = shape_of(output.shape, "outputs[" + std::to_string(i) + "].shape");
    tensor.elements = element_count(tensor.shape);
    resolved.outputs.push_back(std::move(tensor));
  }
  resolved.flops = finite(spec.flops, "flops");
  if (!(resolved.flops >= 1.0)) {
    throw ResolveError{"flops",
                       "in config " + config.name + ": '" + spec.flops.text() + "' evaluates to " +
                           describe_value(resolved.flops) + ", expected at least 1",
                       spec.flops.line()};
  }
  resolved.complexity = complexity_score(resolved.flops, spec.level);
  if (spec.macs) {
    resolved.macs = finite(*spec.macs, "macs");
    if (!(resolved.macs >= 0.0 && 2.0 * resolved.macs <= resolved.flops)) {
      throw ResolveError{"macs",
                         "in config " + config.name + ": '" + spec.macs->text() + "' evaluates to " +
                             describe_value(resolved.macs) + ", expected 0 <= macs <= flops/2",
                         spec.macs->line()};
    }
  }
  resolved.essential_flops = resolved.flops;
  resolved.essential_macs = resolved.macs;
  if (spec.essential_flops) {
    resolved.essential_flops = finite(*spec.essential_flops, "essential_flops");
    if (!(resolved.essential_flops >= 1.0 && resolved.essential_flops <= resolved.flops)) {
      throw ResolveError{"essential_flops",
                         "in config " + config.name + ": '" + spec.essential_flops->text() +
                             "' evaluates to " + describe_value(resolved.essential_flops) +
                             ", expected 1 <= essential_flops <= flops",
                         spec.essential_flops->line()};
    }
  }
  if (spec.essential_macs) {
    resolved.essential_macs = finite(*spec.essential_macs, "essential_macs");
    if (!(resolved.essential_macs >= 0.0 && resolved.essential_macs <= resolved.macs &&
          2.0 * resolved.essential_macs <= resolved.essential_flops)) {
      throw ResolveError{"essential_macs",
                         "in config " + config.name + ": '" + spec.essential_macs->text() +
                             "' evaluates to " + describe_value(resolved.essential_macs) +
                             ", expected 0 <= essential_macs <= macs and essential_macs <= essential_flops/2",
                         spec.essential_macs->line()};
    }
  }
  if (spec.scratch_bytes) {
    Scope scratch_scope{&resolved.dims, &resolved.params, dtype_bytes(dtype)};
    double bytes = scratch_scope.eval(*spec.scratch_bytes, "scratch_bytes", config.name);
    if (!(bytes >= 0.0 && bytes == std::floor(bytes) && bytes < 0x1.0p40)) {
      throw ResolveError{"scratch_bytes",
                         "in config " + config.name + " (" + std::string(dtype_name(dtype)) + "): '" +
                             spec.scratch_bytes->text() + "' evaluates to " + describe_value(bytes) +
                             ", expected a non-negative integer",
                         spec.scratch_bytes->line()};
    }
    resolved.scratch_bytes = static_cast<uint64_t>(bytes);
  }
  resolved.phases = spec.phases;
  resolved.tolerance = spec.tolerance(dtype);
  if (spec.range_stress) {
    resolved.has_range_stress = true;
    resolved.range_stress = spec.range_stress->description;
  }
  return resolved;
}

void parse_dims(const Loader& loader, const YAML::Node& node, TaskSpec& spec) {
  loader.check_sequence(node, "dims", false);
  for (std::size_t i = 0; i < node.size(); ++i) {
    const std::string field = "dims[" + std::to_string(i) + "]";
    const YAML::Node entry = node[i];
    DimSpec dim;
    if (entry.IsMap()) {
      loader.check_map(entry, field, {"name", "multiple_of", "min", "description"}, {"name"});
      dim.name = loader.get_identifier(entry["name"], field + ".name");
      if (entry["multiple_of"])
        dim.multiple_of = loader.get_positive_int(entry["multiple_of"], field + ".multiple_of");
      if (entry["min"]) dim.min = loader.get_non_negative_int(entry["min"], field + ".min");
      if (entry["description"])
        dim.description = loader.get_string(entry["description"], field + ".description");
    } else {
      dim.name = loader.get_identifier(entry, field);
    }
    for (const DimSpec& other : spec.dims) {
      if (other.name == dim.name) loader.fail(field, entry, "duplicate dimension '" + dim.name + "'");
    }
    spec.dims.push_back(dim);
  }
}

void parse_configs(const Loader& loader, const YAML::Node& node, TaskSpec& spec) {
  const std::vector<std::string>& names = standard_config_names();
  loader.check_map(node, "configs", names, names);
  const std::vector<std::string> dims = dim_names(spec);
  for (const std::string& name : names) {
    const std::string field = "configs." + name;
    const YAML::Node entry = node[name];
    loader.check_map(entry, field, dims, dims);
    ConfigSpec config;
    config.name = name;
    for (const DimSpec& dim : spec.dims) {
      const YAML::Node value_node = entry[dim.name];
      const int64_t value = loader.get_int(value_node, field + "." + dim.name, 0,
                                           dim.min >= 1 ? "a positive integer" : "a non-negative integer");
      if (value < dim.min) {
        loader.fail(field + "." + dim.name, value_node,
                    dim.min == 1
                        ? "expected a positive integer, got '0' (a dimension may be 0 only when dims "
                          "sets min: 0)"
                        : std::to_string(value) + " is below the minimum of " + std::to_string(dim.min));
      }
      if (value % dim.multiple_of != 0) {
        loader.fail(
            field + "." + dim.name, value_node,
            std::to_string(value) + " is not a multiple of " + std::to_string(dim.multiple_of) +
                (dim.multiple_of == 16 ? " (dimensions are multiples of 16 unless dims sets multiple_of)"
                                       : ""));
      }
      config.values.push_back(value);
    }
    spec.configs.push_back(std::move(config));
  }
}

std::vector<Expr> parse_shape(const Loader& loader, const YAML::Node& node, const std::string& field,
                              const std::vector<std::string>& dims) {
  loader.check_sequence(node, field, false);
  if (node.size() > kMaxRank) {
    loader.fail(
        field, node,
        "rank " + std::to_string(node.size()) + " is above the maximum of " + std::to_string(kMaxRank));
  }
  std::vector<Expr> shape;
  for (std::size_t i = 0; i < node.size(); ++i) {
    shape.push_back(loader.get_expr(node[i], field + "[" + std::to_string(i) + "]", dims, "a dimension"));
  }
  return shape;
}

InitSpec parse_init(const Loader& loader, const YAML::Node& node, const std::string& field,
                    const std::vector<std::string>& scope) {
  if (!node.IsMap()) loader.fail(field, node, "expected a mapping with 'dist'" + Loader::found(node));
  const YAML::Node dist_node = node["dist"];
  if (!dist_node) {
    loader.fail(field + ".dist", node,
                "missing required field (normal, uniform, constant, rope_cos or rope_sin)");
  }
  const std::string dist = loader.get_string(dist_node, field + ".dist");
  InitSpec init;
  const std::string what = "a dimension or parameter";
  if (dist == "normal") {
    loader.check_map(node, field, {"dist", "mean", "std"}, {"dist", "mean", "std"});
    init.dist = InitDist::normal;
    init.a = loader.get_expr(node["mean"], field + ".mean", scope, what);
    init.b = loader.get_expr(node["std"], field + ".std", scope, what);
  } else if (dist == "uniform") {
    loader.check_map(node, field, {"dist", "lo", "hi"}, {"dist", "lo", "hi"});
    init.dist = InitDist::uniform;
    init.a = loader.get_expr(node["lo"], field + ".lo", scope, what);
    init.b = loader.get_expr(node["hi"], field + ".hi", scope, what);
  } else if (dist == "constant") {
    loader.check_map(node, field, {"dist", "value"}, {"dist", "value"});
    init.dist = InitDist::constant;
    init.a = loader.get_expr(node["value"], field + ".value", scope, what);
  } else if (dist == "rope_cos" || dist == "rope_sin") {
    loader.check_map(node, field, {"dist", "base"}, {"dist", "base"});
    init.dist = dist == "rope_cos" ? InitDist::rope_cos : InitDist::rope_sin;
    init.a = loader.get_expr(node["base"], field + ".base", scope, what);
  } else {
    loader.fail(
        field + ".dist", dist_node,
        "unknown distribution '" + dist + "' (expected normal, uniform, constant, rope_cos or rope_sin)");
  }
  return init;
}

void check_unique_tensor(const Loader& loader, const TaskSpec& spec, const std::string& name,
                         const std::string& field, const YAML::Node& node) {
  for (const InputSpec& input : spec.inputs) {
    if (input.name == name) loader.fail(field, node, "duplicate tensor name '" + name + "'");
  }
  for (const OutputSpec& output : spec.outputs) {
    if (output.name == name) loader.fail(field, node, "duplicate tensor name '" + name + "'");
  }
  for (const DimSpec& dim : spec.dims) {
    if (dim.name == name) loader.fail(field, node, "tensor name '" + name + "' is also a dimension name");
  }
  if (name == "scratch") loader.fail(field, node, "'scratch' is reserved for the scratch region");
  if (name.rfind("phase_", 0) == 0)
    loader.fail(field, node, "names starting 'phase_' are reserved for phase markers");
}

void parse_phases(const Loader& loader, const YAML::Node& node, TaskSpec& spec) {
  loader.check_sequence(node, "phases", false);
  for (std::size_t i = 0; i < node.size(); ++i) {
    const std::string field = "phases[" + std::to_string(i) + "]";
    const YAML::Node entry = node[i];
    PhaseSpec phase;
    if (entry.IsMap()) {
      loader.check_map(entry, field, {"name", "description"}, {"name"});
      phase.name = loader.get_identifier(entry["name"], field + ".name");
      if (entry["description"])
        phase.description = loader.get_string(entry["description"], field + ".description");
    } else {
      phase.name = loader.get_identifier(entry, field);
    }
    for (const PhaseSpec& other : spec.phases) {
      if (other.name == phase.name) loader.fail(field, entry, "duplicate phase '" + phase.name + "'");
    }
    spec.phases.push_back(std::move(phase));
  }
}

// range_stress: {description: TEXT, inputs: {NAME: INIT, ...}, bf16: {NAME: INIT}, fp32: {NAME: INIT}}
// (tasks/README.md, Range-stress inputs). Every NAME must be an input of the spec; the rotary tables are
// fixed, not drawn.
void parse_range_stress(const Loader& loader, const YAML::Node& node, TaskSpec& spec,
                        const std::vector<std::string>& scope) {
  loader.check_map(node, "range_stress", {"description", "inputs", "bf16", "fp32"},
                   {"description", "inputs"});
  RangeStressSpec stress;
  stress.description = loader.get_string(node["description"], "range_stress.description");
  std::vector<std::string> input_names;
  for (const InputSpec& input : spec.inputs) input_names.push_back(input.name);
  auto parse_set = [&](const YAML::Node& set, const std::string& field, bool allow_empty) {
    if (!set.IsMap())
      loader.fail(field, set, "expected a mapping of input name to init" + Loader::found(set));
    if (!allow_empty && set.size() == 0)
      loader.fail(field, set, "must name at least one input (a task without stress has no range_stress)");
    std::vector<std::pair<std::string, InitSpec>> entries;
    for (const auto& entry : set) {
      if (!entry.first.IsScalar()) loader.fail(field, entry.first, "keys must be input names");
      const std::string name = entry.first.Scalar();
      const std::string entry_field = field + "." + name;
      if (std::find(input_names.begin(), input_names.end(), name) == input_names.end()) {
        const std::string hint = closest_match(name, input_names);
        loader.fail(entry_field, entry.first,
                    "'" + name + "' is not an input of the task" +
                        (hint.empty() ? "" : " (did you mean '" + hint + "'?)") +
                        "; inputs: " + join(input_names, ", "));
      }
      for (const auto& [seen, unused] : entries) {
        if (seen == name) loader.fail(entry_field, entry.first, "duplicate input");
      }
      const InitSpec init = parse_init(loader, entry.second, entry_field, scope);
      if (init.dist == InitDist::rope_cos || init.dist == InitDist::rope_sin) {
        loader.fail(entry_field + ".dist", entry.second["dist"],
                    "the rotary tables are fixed, not drawn: range stress uses normal, uniform or constant");
      }
      for (const InputSpec& input : spec.inputs) {
        if (input.name == name &&
            (input.init.dist == InitDist::rope_cos || input.init.dist == InitDist::rope_sin)) {
          loader.fail(entry_field, entry.first,
                      "'" + name + "' is a fixed rotary table; it has no range to stress");
        }
      }
      entries.emplace_back(name, init);
    }
    return entries;
  };
  stress.inputs = parse_set(node["inputs"], "range_stress.inputs", false);
  for (const DType dtype : {DType::bf16, DType::fp32}) {
    const std::string key(dtype_name(dtype));
    if (node[key]) stress.per_dtype[dtype] = parse_set(node[key], "range_stress." + key, true);
  }
  spec.range_stress = std::move(stress);
}

void check_golden_signature(const Loader& loader, const YAML::Node& node, const TaskSpec& spec) {
  const GoldenEntry* entry = find_golden(spec.golden);
  if (entry == nullptr) {
    std::vector<std::string> known;
    for (const GoldenEntry& candidate : golden_registry()) known.push_back(candidate.name);
    std::string hint = closest_match(spec.golden, known);
    loader.fail("golden", node,
                "unknown golden reference '" + spec.golden + "'" +
                    (hint.empty() ? "" : " (did you mean '" + hint + "'?)") +
                    "; known: " + join(known, ", "));
  }
  auto compare = [&](const char* what, std::vector<std::string> declared, std::vector<std::string> expected) {
    std::vector<std::string> declared_sorted = declared;
    std::vector<std::string> expected_sorted = expected;
    std::sort(declared_sorted.begin(), declared_sorted.end());
    std::sort(expected_sorted.begin(), expected_sorted.end());
    if (declared_sorted != expected_sorted) {
      loader.fail("golden", node,
                  "reference '" + spec.golden + "' expects " + what + " (" + join(expected, ", ") +
                      ") but the spec declares (" + join(declared, ", ") + ")");
    }
  };
  std::vector<std::string> inputs, outputs, params;
  for (const InputSpec& input : spec.inputs) inputs.push_back(input.name);
  for (const OutputSpec& output : spec.outputs) outputs.push_back(output.name);
  for (const ParamSpec& param : spec.params) params.push_back(param.name);
  compare("inputs", inputs, entry->inputs);
  compare("outputs", outputs, entry->outputs);
  compare("params", params, entry->params);
  // Dims a reference reads by name (flags, strides) must exist; the spec may have others.
  const std::vector<std::string> dims = dim_names(spec);
  for (const std::string& dim : entry->dims) {
    if (std::find(dims.begin(), dims.end(), dim) == dims.end()) {
      loader.fail("golden", node,
                  "reference '" + spec.golden + "' reads dimension " + dim +
                      ", which the spec does not declare" + " (it reads: " + join(entry->dims, ", ") + ")");
    }
  }
}

TaskSpec parse_root(const Loader& loader, const YAML::Node& root, const std::filesystem::path& file) {
  loader.check_map(
      root, "",
      {"name", "level", "title", "description", "dims", "configs", "inputs", "outputs", "params", "flops",
       "macs", "essential_flops", "essential_macs", "scratch_bytes", "phases", "composed_of", "tolerance",
       "range_stress", "golden"},
      {"name", "level", "title", "description", "dims", "configs", "inputs", "outputs", "flops", "golden"});
  TaskSpec spec;
  spec.file = file;
  spec.name = loader.get_identifier(root["name"], "name");
  if (file.extension() == ".yaml" && file.stem().string() != spec.name) {
    loader.fail("name", root["name"],
                "'" + spec.name + "' must match the file name '" + file.stem().string() + "'");
  }
  spec.level = static_cast<int>(loader.get_positive_int(root["level"], "level"));
  if (spec.level > 3)
    loader.fail("level", root["level"], "expected 1, 2 or 3, got " + std::to_string(spec.level));
  spec.title = loader.get_string(root["title"], "title");
  spec.description = loader.get_string(root["description"], "description");

  parse_dims(loader, root["dims"], spec);
  const std::vector<std::string> dims = dim_names(spec);
  parse_configs(loader, root["configs"], spec);

  // Params first: init values and flops may refer to them.
  std::vector<std::string> scope = dims;
  if (root["params"]) {
    const YAML::Node params = root["params"];
    loader.check_sequence(params, "params", true);
    for (std::size_t i = 0; i < params.size(); ++i) {
      const std::string field = "params[" + std::to_string(i) + "]";
      loader.check_map(params[i], field, {"name", "value", "description"}, {"name", "value"});
      ParamSpec param;
      param.name = loader.get_identifier(params[i]["name"], field + ".name");
      if (std::find(scope.begin(), scope.end(), param.name) != scope.end()) {
        loader.fail(field + ".name", params[i]["name"],
                    "'" + param.name + "' is already a dimension or parameter");
      }
      param.value =
          loader.get_expr(params[i]["value"], field + ".value", scope, "a dimension or earlier parameter");
      if (params[i]["description"])
        param.description = loader.get_string(params[i]["description"], field + ".description");
      scope.push_back(param.name);
      spec.params.push_back(std::move(param));
    }
  }

  const YAML::Node inputs = root["inputs"];
  loader.check_sequence(inputs, "inputs", false);
  for (std::size_t i = 0; i < inputs.size(); ++i) {
    const std::string field = "inputs[" + std::to_string(i) + "]";
    loader.check_map(inputs[i], field, {"name", "shape", "role", "init", "description"},
                     {"name", "shape", "role", "init"});
    InputSpec input;
    input.name = loader.get_identifier(inputs[i]["name"], field + ".name");
    check_unique_tensor(loader, spec, input.name, field + ".name", inputs[i]["name"]);
    input.shape = parse_shape(loader, inputs[i]["shape"], field + ".shape", dims);
    const std::string role = loader.get_string(inputs[i]["role"], field + ".role");
    if (role == "activation") {
      input.role = TensorRole::activation;
    } else if (role == "weight") {
      input.role = TensorRole::weight;
    } else {
      loader.fail(field + ".role", inputs[i]["role"], "expected activation or weight, got '" + role + "'");
    }
    input.init = parse_init(loader, inputs[i]["init"], field + ".init", scope);
    if (inputs[i]["description"])
      input.description = loader.get_string(inputs[i]["description"], field + ".description");
    spec.inputs.push_back(std::move(input));
  }

  const YAML::Node outputs = root["outputs"];
  loader.check_sequence(outputs, "outputs", false);
  for (std::size_t i = 0; i < outputs.size(); ++i) {
    const std::string field = "outputs[" + std::to_string(i) + "]";
    loader.check_map(outputs[i], field, {"name", "shape", "description"}, {"name", "shape"});
    OutputSpec output;
    output.name = loader.get_identifier(outputs[i]["name"], field + ".name");
    check_unique_tensor(loader, spec, output.name, field + ".name", outputs[i]["name"]);
    output.shape = parse_shape(loader, outputs[i]["shape"], field + ".shape", dims);
    if (outputs[i]["description"])
      output.description = loader.get_string(outputs[i]["description"], field + ".description");
    spec.outputs.push_back(std::move(output));
  }

  spec.flops = loader.get_expr(root["flops"], "flops", scope, "a dimension or parameter");
  if (root["macs"]) spec.macs = loader.get_expr(root["macs"], "macs", scope, "a dimension or parameter");
  if (root["essential_flops"])
    spec.essential_flops =
        loader.get_expr(root["essential_flops"], "essential_flops", scope, "a dimension or parameter");
  if (root["essential_macs"])
    spec.essential_macs =
        loader.get_expr(root["essential_macs"], "essential_macs", scope, "a dimension or parameter");
  if (root["scratch_bytes"]) {
    std::vector<std::string> scratch_scope = scope;
    scratch_scope.push_back(kElemBytes);
    spec.scratch_bytes = loader.get_expr(root["scratch_bytes"], "scratch_bytes", scratch_scope,
                                         "a dimension, parameter or ELEM_BYTES");
  }

  if (root["phases"]) parse_phases(loader, root["phases"], spec);
  if (root["composed_of"]) {
    const YAML::Node parts = root["composed_of"];
    loader.check_sequence(parts, "composed_of", false);
    for (std::size_t i = 0; i < parts.size(); ++i) {
      const std::string field = "composed_of[" + std::to_string(i) + "]";
      const std::string part = loader.get_identifier(parts[i], field);
      if (part == spec.name) loader.fail(field, parts[i], "a task cannot be composed of itself");
      spec.composed_of.push_back(part);
    }
  }

  if (root["tolerance"]) {
    const YAML::Node tolerance = root["tolerance"];
    loader.check_map(tolerance, "tolerance", {"bf16", "fp32"}, {});
    for (const DType dtype : {DType::bf16, DType::fp32}) {
      const std::string key(dtype_name(dtype));
      const YAML::Node entry = tolerance[key];
      if (!entry) continue;
      const std::string field = "tolerance." + key;
      loader.check_map(entry, field, {"atol", "rtol", "rel_l2"}, {});
      ToleranceOverride override_values;
      auto read = [&](const char* name, std::optional<double>& slot) {
        if (!entry[name]) return;
        double value = loader.get_number(entry[name], field + "." + name);
        if (value < 0) loader.fail(field + "." + name, entry[name], "must not be negative");
        slot = value;
      };
      read("atol", override_values.atol);
      read("rtol", override_values.rtol);
      read("rel_l2", override_values.rel_l2);
      spec.tolerance_overrides[dtype] = override_values;
    }
  }

  if (root["range_stress"]) parse_range_stress(loader, root["range_stress"], spec, scope);

  spec.golden = loader.get_string(root["golden"], "golden");
  check_golden_signature(loader, root["golden"], spec);

  // Resolve every config for both dtypes now, so a spec that loads works everywhere.
  for (std::size_t i = 0; i < spec.configs.size(); ++i) {
    for (const DType dtype : {DType::bf16, DType::fp32}) {
      try {
        resolve_config(spec, spec.configs[i], dtype);
      } catch (const ResolveError& error) {
        // The failing expression's line, else the config's.
        if (error.line > 0) loader.fail_at_line(error.field, error.line, error.message);
        loader.fail(error.field, root["configs"][spec.configs[i].name], error.message);
      }
    }
  }
  return spec;
}

}  // namespace

TaskSpecError::TaskSpecError(std::string file, std::string field, int line, const std::string& message)
    : std::runtime_error(format_error(file, field, line, message)),
      file_(std::move(file)),
      field_(std::move(field)),
      line_(line) {}

double complexity_score(double flops, int level) {
  return std::round((std::log10(flops) + 2.0 * (level - 1)) * 100.0) / 100.0;
}

const std::vector<std::string>& standard_config_names() {
  static const std::vector<std::string> names = {"C1", "C2", "C3", "C4", "C5"};
  return names;
}

std::vector<std::string> TaskSpec::config_names() const {
  std::vector<std::string> names;
  for (const ConfigSpec& config : configs) names.push_back(config.name);
  return names;
}

bool TaskSpec::has_config(const std::string& config) const {
  return std::any_of(configs.begin(), configs.end(), [&](const ConfigSpec& c) { return c.name == config; });
}

Tolerance TaskSpec::tolerance(DType dtype) const {
  Tolerance tolerance = default_tolerance(dtype);
  auto it = tolerance_overrides.find(dtype);
  if (it != tolerance_overrides.end()) {
    if (it->second.atol) tolerance.atol = *it->second.atol;
    if (it->second.rtol) tolerance.rtol = *it->second.rtol;
    if (it->second.rel_l2) tolerance.rel_l2 = *it->second.rel_l2;
  }
  return tolerance;
}

ResolvedConfig TaskSpec::resolve(const std::string& config, DType dtype) const {
  for (const ConfigSpec& candidate : configs) {
    if (candidate.name != config) continue;
    try {
      return resolve_config(*this, candidate, dtype);
    } catch (const ResolveError& error) {
      throw TaskSpecError(file.string(), error.field, error.line, error.message);
    }
  }
  throw std::invalid_argument("task " + name + ": unknown config '" + config +
                              "' (known: " + join(config_names(), ", ") + ")");
}

TaskSpec parse_task(const std::string& yaml_text, const std::filesystem::path& file) {
  Loader loader(file.string());
  YAML::Node root;
  try {
    root = YAML::Load(yaml_text);
  } catch (const YAML::Exception& error) {
    throw TaskSpecError(file.string(), "", error.mark.line >= 0 ? error.mark.line + 1 : 0,
                        "YAML syntax error: " + error.msg);
  }
  return parse_root(loader, root, file);
}

TaskSpec load_task(const std::filesystem::path& file) {
  std::ifstream stream(file, std::ios::binary);
  if (!stream) throw TaskSpecError(file.string(), "", 0, "cannot open file");
  std::ostringstream text;
  text << stream.rdbuf();
  return parse_task(text.str(), file);
}

TaskRegistry TaskRegistry::load_directory(const std::filesystem::path& dir) {
  std::error_code error;
  if (!std::filesystem::is_directory(dir, error)) {
    throw TaskSpecError(dir.string(), "", 0, "not a directory of task specs");
  }
  std::vector<std::filesystem::path> files;
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    if (entry.is_regular_file() && entry.path().extension() == ".yaml") files.push_back(entry.path());
  }
  std::sort(files.begin(), files.end());
  TaskRegistry registry;
  std::vector<std::string> problems;
  std::exception_ptr first_problem;
  for (const auto& file : files) {
    try {
      registry.add(load_task(file));
    } catch (const std::exception& problem) {
      problems.push_back(problem.what());
      if (!first_problem) first_problem = std::current_exception();
    }
  }
  // A composite names only tasks of a lower level that exist.
  std::optional<TaskSpecError> composite_problem;
  for (const TaskSpec& spec : registry.tasks()) {
    for (const std::string& part : spec.composed_of) {
      const TaskSpec* found = registry.find(part);
      std::string message;
      if (found == nullptr) {
        const std::string hint = closest_match(part, registry.names());
        message = "unknown task '" + part + "'" + (hint.empty() ? "" : " (did you mean " + hint + "?)");
      } else if (found->level >= spec.level) {
        message = part + " is level " + std::to_string(found->level) + ", not below this task's level " +
                  std::to_string(spec.level);
      }
      if (message.empty()) continue;
      composite_problem.emplace(spec.file.string(), "composed_of", 0, message);
      problems.push_back(composite_problem->what());
    }
  }
  if (problems.size() == 1 && !first_problem) throw *composite_problem;
  // One broken file: its own error, with its file and field. Several: one message listing them all.
  if (problems.size() == 1) std::rethrow_exception(first_problem);
  if (!problems.empty()) {
    throw TaskSpecError(dir.string(), "", 0,
                        std::to_string(problems.size()) + " broken task specs:\n  " + join(problems, "\n  "));
  }
  return registry;
}

void TaskRegistry::add(TaskSpec spec) {
  if (find(spec.name) != nullptr) {
    throw std::invalid_argument(spec.file.string() + ": duplicate task name '" + spec.name + "'");
  }
  tasks_.push_back(std::move(spec));
  std::stable_sort(tasks_.begin(), tasks_.end(), [](const TaskSpec& a, const TaskSpec& b) {
    return a.level != b.level ? a.level < b.level : a.name < b.name;
  });
}

const TaskSpec* TaskRegistry::find(const std::string& name) const {
  for (const TaskSpec& spec : tasks_) {
    if (spec.name == name) return &spec;
  }
  return nullptr;
}

const TaskSpec& TaskRegistry::get(const std::string& name) const {
  if (const TaskSpec* spec = find(name)) return *spec;
  std::string hint = closest_match(name, names());
  throw std::invalid_argument("unknown task '" + name + "'" +
                              (hint.empty() ? "" : " (did you mean " + hint + "?)"));
}

std::vector<std::string> TaskRegistry::names() const {
  std::vector<std::string> result;
  for (const TaskSpec& spec : tasks_) result.push_back(spec.name);
  return result;
}

std::string closest_match(const std::string& word, const std::vector<std::string>& candidates) {
  // Up to a third of the word may differ, and never all of it (a one-letter name suggests nothing).
  std::string best;
  std::size_t best_distance = std::max<std::size_t>(1, word.size() / 3) + 1;
  for (const std::string& candidate : candidates) {
    std::size_t distance = edit_distance(word, candidate);
    if (distance < best_distance && distance < word.size()) {
      best_distance = distance;
      best = candidate;
    }
  }
  return best;
}

}  // namespace kcraft::tasks
