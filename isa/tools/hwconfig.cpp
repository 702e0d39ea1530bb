#include "isa/tools/hwconfig.h"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>
#include <vector>

#include <fmt/format.h>
#include <yaml-cpp/yaml.h>

#include "isa/common/hw_config.h"

namespace kcraft::isa::gen {
namespace {

std::string where(const std::string& path, const YAML::Mark& mark) {
  return mark.is_null() ? path : fmt::format("{}:{}:{}", path, mark.line + 1, mark.column + 1);
}

}  // namespace

VerilatorArgs verilator_args_from_hwconfig(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    VerilatorArgs out;
    out.errors.push_back(fmt::format("{}: error: cannot open the file", path));
    return out;
  }
  std::stringstream text;
  text << in.rdbuf();
  return verilator_args_from_hwconfig_text(text.str(), path);
}

VerilatorArgs verilator_args_from_hwconfig_text(const std::string& yaml, const std::string& path) {
  VerilatorArgs out;
  YAML::Node root;
  try {
    root = YAML::Load(yaml);
  } catch (const YAML::Exception& e) {
    out.errors.push_back(fmt::format("{}: error: YAML syntax: {}", where(path, e.mark), e.msg));
    return out;
  }
  if (!root.IsMap()) {
    out.errors.push_back(
        fmt::format("{}: error: a hardware configuration is a mapping with a 'build:' section", path));
    return out;
  }
  const YAML::Node build = root["build"];
  if (!build.IsDefined()) {
    out.errors.push_back(
        fmt::format("{}: error: field 'build': missing (the Verilog parameters, e.g. build: {{MLEN: 16}})",
                    where(path, root.Mark())));
    return out;
  }
  if (!build.IsMap()) {
    out.errors.push_back(
        fmt::format("{}: error: field 'build': expected a mapping NAME: integer", where(path, build.Mark())));
    return out;
  }
  std::string text;
  std::vector<std::string> seen;
  for (const auto& kv : build) {
    const std::string key = kv.first.Scalar();
    if (std::find(seen.begin(), seen.end(), key) != seen.end()) {
      out.errors.push_back(
          fmt::format("{}: error: field 'build.{}': given twice", where(path, kv.first.Mark()), key));
      continue;
    }
    seen.push_back(key);
    if (!is_parameter_name(key)) {
      out.errors.push_back(fmt::format("{}: error: field 'build.{}': not a valid Verilog parameter name",
                                       where(path, kv.first.Mark()), key));
      continue;
    }
    // The grammar kcraft reads the same file with (isa/common/hw_config.h), so both see the same values.
    const auto value = kv.second.IsScalar() ? parse_config_integer(kv.second.Scalar()) : std::nullopt;
    if (!value) {
      out.errors.push_back(fmt::format("{}: error: field 'build.{}': expected an integer, got '{}'",
                                       where(path, kv.second.Mark()), key,
                                       kv.second.IsScalar() ? kv.second.Scalar() : "a collection"));
      continue;
    }
    text += fmt::format("-G{}={}\n", key, *value);
  }
  if (out.errors.empty()) out.text = std::move(text);
  return out;
}

bool write_if_changed(const std::string& path, const std::string& content, std::string* error) {
  {
    std::ifstream in(path, std::ios::binary);
    if (in) {
      std::stringstream existing;
      existing << in.rdbuf();
      if (existing.str() == content) return true;
    }
  }
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out << content;
  out.close();
  if (!out) {
    if (error != nullptr) *error = fmt::format("cannot write {}: {}", path, std::strerror(errno));
    return false;
  }
  return true;
}

}  // namespace kcraft::isa::gen
