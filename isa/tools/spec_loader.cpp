#include "isa/tools/spec_loader.h"

#include <algorithm>
#include <fstream>
#include <sstream>

#include <fmt/format.h>

#include "isa/tools/spec_loader_internal.h"

namespace kcraft::isa::gen::loader_detail {

// The loader's shared services (spec_loader_internal.h): YAML helpers, the order of the sections, error
// reporting and typed field access.

bool is_identifier(std::string_view s) {
  if (s.empty() || !(std::isalpha(static_cast<unsigned char>(s[0])) || s[0] == '_')) return false;
  return std::all_of(s.begin(), s.end(),
                     [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; });
}

bool is_lower_snake(std::string_view s) {
  if (s.empty() || !std::islower(static_cast<unsigned char>(s[0]))) return false;
  return std::all_of(s.begin(), s.end(), [](char c) {
    return std::islower(static_cast<unsigned char>(c)) || std::isdigit(static_cast<unsigned char>(c)) ||
           c == '_';
  });
}

bool is_mnemonic(std::string_view s) {
  if (s.empty() || !std::isupper(static_cast<unsigned char>(s[0]))) return false;
  return std::all_of(s.begin(), s.end(), [](char c) {
    return std::isupper(static_cast<unsigned char>(c)) || std::isdigit(static_cast<unsigned char>(c)) ||
           c == '_';
  });
}

std::optional<int64_t> parse_integer(std::string_view text) {
  bool negative = false;
  if (!text.empty() && (text[0] == '-' || text[0] == '+')) {
    negative = text[0] == '-';
    text.remove_prefix(1);
  }
  unsigned base = 10;
  if (text.size() > 2 && text[0] == '0' && (text[1] == 'x' || text[1] == 'X')) base = 16;
  if (text.size() > 2 && text[0] == '0' && (text[1] == 'b' || text[1] == 'B')) base = 2;
  if (base != 10) text.remove_prefix(2);
  if (text.empty() || text.size() > 18) return std::nullopt;
  int64_t value = 0;
  for (char c : text) {
    int digit = -1;
    if (c >= '0' && c <= '9') digit = c - '0';
    if (c >= 'a' && c <= 'f') digit = c - 'a' + 10;
    if (c >= 'A' && c <= 'F') digit = c - 'A' + 10;
    if (digit < 0 || digit >= static_cast<int>(base)) return std::nullopt;
    value = value * base + digit;
  }
  return negative ? -value : value;
}

YAML::Node child(const YAML::Node& map, const std::string& key) {
  if (!map.IsMap()) return YAML::Node(YAML::NodeType::Undefined);
  const YAML::Node node = map[key];
  return node.IsDefined() ? node : YAML::Node(YAML::NodeType::Undefined);
}

std::string hex(int64_t v) {
  return fmt::format("0x{:02X}", v);
}

Loader::Loader(std::string filename) : file_(std::move(filename)) {}

SpecLoadResult Loader::load(const YAML::Node& root) {
  if (!root.IsMap()) {
    error(root, root, "top level", "", "the file must be a YAML mapping (isa:, fields:, instructions:, ...)");
    return finish();
  }
  check_keys(root,
             {"isa",       "version", "word_bits", "summary",      "timing",   "timing_model", "registers",
              "fields",    "formats", "units",     "parameters",   "memories", "instructions", "pseudo",
              "assembler", "errors",  "counters",  "stall_causes", "examples", "bundle"},
             "top level");
  load_header(root);
  load_registers(root);
  load_fields(root);
  load_formats(root);
  load_bundle(root);
  load_units(root);
  load_parameters(root);
  load_memories(root);
  load_instructions(root);
  load_pseudos(root);
  load_assembler(root);
  load_counters(root);  // before stall_causes, which refer to counters
  load_machine_codes(root, "errors", "error", &spec_.errors);
  load_machine_codes(root, "stall_causes", "stall cause", &spec_.stall_causes);
  load_example_programs(root);
  if (errors_.empty()) {
    spec_.finalize();
    check_examples();
  }
  return finish();
}

void Loader::error_at_mark(const YAML::Mark& mark, std::string_view context, std::string_view field,
                           const std::string& message) {
  std::string where = file_;
  if (!mark.is_null()) where += fmt::format(":{}:{}", mark.line + 1, mark.column + 1);
  std::string what(context);
  if (!field.empty()) what += fmt::format(": field '{}'", field);
  errors_.push_back(fmt::format("{}: error: {}: {}", where, what, message));
}

SpecLoadResult Loader::finish() {
  SpecLoadResult result;
  result.errors = std::move(errors_);
  if (result.errors.empty()) result.spec = std::move(spec_);
  return result;
}

void Loader::error(const YAML::Node& node, const YAML::Node& parent, std::string_view context,
                   std::string_view field, const std::string& message) {
  YAML::Mark mark = YAML::Mark::null_mark();
  if (node.IsDefined()) {
    mark = node.Mark();
  } else if (parent.IsDefined()) {
    mark = parent.Mark();
  }
  error_at_mark(mark, context, field, message);
}

void Loader::check_keys(const YAML::Node& map, const std::vector<std::string>& allowed,
                        std::string_view context) {
  if (!map.IsMap()) return;
  for (const auto& kv : map) {
    const std::string key = kv.first.Scalar();
    if (std::find(allowed.begin(), allowed.end(), key) != allowed.end()) continue;
    std::string hint = did_you_mean(closest_matches(key, allowed));
    error(kv.first, map, context, key,
          fmt::format(
              "unknown key '{}'{}", key,
              hint.empty() ? fmt::format(" (expected one of: {})", fmt::join(allowed, ", ")) : "; " + hint));
  }
}

std::optional<std::string> Loader::get_string(const YAML::Node& map, const std::string& key,
                                              std::string_view context, bool required) {
  const YAML::Node node = child(map, key);
  if (!node.IsDefined() || node.IsNull()) {
    if (required) error(node, map, context, key, "missing");
    return std::nullopt;
  }
  if (!node.IsScalar()) {
    error(node, map, context, key, "expected text");
    return std::nullopt;
  }
  return node.Scalar();
}

std::optional<int64_t> Loader::get_int(const YAML::Node& map, const std::string& key,
                                       std::string_view context, bool required) {
  const YAML::Node node = child(map, key);
  if (!node.IsDefined() || node.IsNull()) {
    if (required) error(node, map, context, key, "missing");
    return std::nullopt;
  }
  std::optional<int64_t> value = node.IsScalar() ? parse_integer(node.Scalar()) : std::nullopt;
  if (!value) {
    error(node, map, context, key,
          fmt::format("expected an integer, got '{}'", node.IsScalar() ? node.Scalar() : "a collection"));
  }
  return value;
}

}  // namespace kcraft::isa::gen::loader_detail

namespace kcraft::isa::gen {

SpecLoadResult load_isa_spec_text(std::string_view yaml, const std::string& filename) {
  loader_detail::Loader loader(filename);
  YAML::Node root;
  try {
    root = YAML::Load(std::string(yaml));
  } catch (const YAML::Exception& e) {
    loader.error_at_mark(e.mark, "YAML syntax", "", e.msg);
    return loader.finish();
  }
  return loader.load(root);
}

SpecLoadResult load_isa_spec(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    SpecLoadResult result;
    result.errors.push_back(fmt::format("{}: error: cannot open the file", path));
    return result;
  }
  std::stringstream buffer;
  buffer << in.rdbuf();
  return load_isa_spec_text(buffer.str(), path);
}

}  // namespace kcraft::isa::gen
