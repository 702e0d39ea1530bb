#include "isa/common/hw_config.h"

#include <yaml-cpp/yaml.h>

#include <fmt/format.h>
#include <algorithm>
#include <cctype>
#include <fstream>
#include <limits>
#include <sstream>

namespace kcraft {

namespace {

std::string where(const std::filesystem::path& file, const std::string& field) {
  return fmt::format("{}: {}", file.string(), field);
}

std::string scalar_text(const YAML::Node& node) {
  return node.IsScalar() ? node.Scalar() : std::string("<") + (node.IsMap() ? "map" : "list") + ">";
}

// A mapping key as text. A key that is itself a list or a mapping ("? [a, b]: 1") is an error, not a
// yaml-cpp conversion exception.
std::string key_text(const YAML::Node& key, const std::filesystem::path& file, const std::string& section) {
  if (!key.IsScalar()) {
    const char* what = key.IsMap() ? "a mapping" : key.IsSequence() ? "a list" : "an empty key";
    throw ConfigError(fmt::format("{}:{}:{}: {}: keys must be names, got {}", file.string(),
                                  key.Mark().line + 1, key.Mark().column + 1, section, what));
  }
  return key.Scalar();
}

}  // namespace

bool is_parameter_name(std::string_view name) {
  if (name.empty() || !(std::isalpha(static_cast<unsigned char>(name[0])) || name[0] == '_')) return false;
  return std::all_of(name.begin(), name.end(),
                     [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; });
}

std::optional<int64_t> parse_config_integer(std::string_view text) {
  bool negative = false;
  if (!text.empty() && (text[0] == '-' || text[0] == '+')) {
    negative = text[0] == '-';
    text.remove_prefix(1);
  }
  const bool hex = text.size() > 2 && text[0] == '0' && (text[1] == 'x' || text[1] == 'X');
  if (hex) text.remove_prefix(2);
  if (text.empty()) return std::nullopt;
  const uint64_t base = hex ? 16 : 10;
  const uint64_t limit = negative ? uint64_t{1} << 63 : (uint64_t{1} << 63) - 1;
  uint64_t value = 0;
  for (char c : text) {
    uint64_t digit = base;
    if (c >= '0' && c <= '9') digit = static_cast<uint64_t>(c - '0');
    if (hex && c >= 'a' && c <= 'f') digit = static_cast<uint64_t>(c - 'a' + 10);
    if (hex && c >= 'A' && c <= 'F') digit = static_cast<uint64_t>(c - 'A' + 10);
    if (digit >= base || value > (limit - digit) / base) return std::nullopt;
    value = value * base + digit;
  }
  if (negative && value == uint64_t{1} << 63) return std::numeric_limits<int64_t>::min();
  return negative ? -static_cast<int64_t>(value) : static_cast<int64_t>(value);
}

int64_t HwConfig::build_param(const std::string& key) const {
  auto it = build.find(key);
  if (it == build.end()) throw ConfigError(where(source, "build." + key) + ": missing");
  return it->second;
}

double HwConfig::runtime_param(const std::string& key) const {
  auto it = runtime.find(key);
  if (it == runtime.end()) throw ConfigError(where(source, "runtime." + key) + ": missing");
  return it->second;
}

double HwConfig::runtime_param(const std::string& key, double fallback) const {
  auto it = runtime.find(key);
  return it == runtime.end() ? fallback : it->second;
}

HwConfig load_hw_config(const std::filesystem::path& file) {
  std::ifstream in(file, std::ios::binary);
  if (!in) throw ConfigError(fmt::format("{}: cannot open hardware configuration", file.string()));
  std::ostringstream text;
  text << in.rdbuf();
  return parse_hw_config(text.str(), file);
}

HwConfig parse_hw_config(const std::string& yaml_text, const std::filesystem::path& file) {
  YAML::Node root;
  try {
    root = YAML::Load(yaml_text);
  } catch (const YAML::Exception& e) {
    throw ConfigError(fmt::format("{}:{}:{}: YAML syntax error: {}", file.string(), e.mark.line + 1,
                                  e.mark.column + 1, e.msg));
  }
  if (!root.IsMap()) throw ConfigError(where(file, "<top>") + ": expected a mapping");

  HwConfig cfg;
  cfg.source = file;
  static const std::vector<std::string> known = {"platform", "name", "description", "build", "runtime"};
  std::vector<std::string> seen;
  for (const auto& kv : root) {
    auto key = key_text(kv.first, file, "<top>");
    if (std::find(seen.begin(), seen.end(), key) != seen.end())
      throw ConfigError(where(file, key) + ": given twice");
    seen.push_back(key);
    if (std::find(known.begin(), known.end(), key) == known.end()) {
      throw ConfigError(where(file, key) +
                        ": unknown field (expected platform, name, description, build, "
                        "runtime)");
    }
  }
  auto text = [&](const char* key, bool required) {
    auto node = root[key];
    if (!node) {
      if (required) throw ConfigError(where(file, key) + ": missing");
      return std::string();
    }
    if (!node.IsScalar()) throw ConfigError(where(file, key) + ": expected text");
    return node.Scalar();
  };
  cfg.platform = text("platform", true);
  cfg.name = text("name", true);
  cfg.description = text("description", false);

  auto build = root["build"];
  if (!build || !build.IsMap())
    throw ConfigError(where(file, "build") + ": expected a mapping of parameters");
  for (const auto& kv : build) {
    auto key = key_text(kv.first, file, "build");
    if (!is_parameter_name(key)) {
      throw ConfigError(where(file, "build." + key) +
                        ": not a parameter name (letters, digits and _, not starting with a digit)");
    }
    const auto value = kv.second.IsScalar() ? parse_config_integer(kv.second.Scalar()) : std::nullopt;
    if (!value) {
      throw ConfigError(where(file, "build." + key) + ": expected an integer, got '" +
                        scalar_text(kv.second) + "'");
    }
    if (!cfg.build.emplace(key, *value).second)
      throw ConfigError(where(file, "build." + key) + ": given twice");
  }
  auto runtime = root["runtime"];
  if (runtime) {
    if (!runtime.IsMap()) throw ConfigError(where(file, "runtime") + ": expected a mapping");
    for (const auto& kv : runtime) {
      auto key = key_text(kv.first, file, "runtime");
      double value = 0;
      // Settings are counts, sizes and rates that the testbench converts to integers: .nan, .inf or a
      // negative value would be undefined there.
      if (!YAML::convert<double>::decode(kv.second, value) || !(value >= 0 && value < kMaxRuntimeValue)) {
        throw ConfigError(where(file, "runtime." + key) + ": expected a number from 0 to 2^53, got '" +
                          scalar_text(kv.second) + "'");
      }
      if (!cfg.runtime.emplace(key, value).second)
        throw ConfigError(where(file, "runtime." + key) + ": given twice");
    }
  }
  return cfg;
}

std::vector<HwConfig> load_hw_configs(const std::filesystem::path& dir) {
  std::vector<std::filesystem::path> files;
  std::error_code ec;
  for (const auto& entry : std::filesystem::directory_iterator(dir, ec)) {
    if (entry.path().extension() == ".yaml") files.push_back(entry.path());
  }
  if (ec)
    throw ConfigError(fmt::format("{}: cannot list hardware configurations: {}", dir.string(), ec.message()));
  std::sort(files.begin(), files.end());
  std::vector<HwConfig> out;
  for (const auto& f : files) out.push_back(load_hw_config(f));
  return out;
}

}  // namespace kcraft
