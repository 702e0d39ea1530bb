#include "isa/tools/hwconfig.h"

#include <cctype>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>

#include <fmt/format.h>
#include <yaml-cpp/yaml.h>

namespace kcraft::isa::gen {
namespace {

std::string where(const std::string& path, const YAML::Mark& mark) {
  return mark.is_null() ? path : fmt::format("{}:{}:{}", path, mark.line + 1, mark.column + 1);
}

bool is_parameter_name(const std::string& s) {
  if (s.empty() || !(std::isalpha(static_cast<unsigned char>(s[0])) || s[0] == '_')) return false;
  for (char c : s) {
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_') return false;
  }
  return true;
}

// Decimal or 0x-hex integer, optionally negative; the whole text must be the number.
bool parse_integer(const std::string& text, long long* value) {
  if (text.empty()) return false;
  const bool hex = text.size() > 2 && (text.compare(0, 2, "0x") == 0 || text.compare(0, 2, "0X") == 0);
  errno = 0;
  char* end = nullptr;
  *value = std::strtoll(text.c_str(), &end, hex ? 16 : 10);
  return errno == 0 && end == text.c_str() + text.size() &&
         !std::isspace(static_cast<unsigned char>(text[0]));
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
  for (const auto& kv : build) {
    const std::string key = kv.first.Scalar();
    long long value = 0;
    if (!is_parameter_name(key)) {
      out.errors.push_back(fmt::format("{}: error: field 'build.{}': not a valid Verilog parameter name",
                                       where(path, kv.first.Mark()), key));
      continue;
    }
    if (!kv.second.IsScalar() || !parse_integer(kv.second.Scalar(), &value)) {
      out.errors.push_back(fmt::format("{}: error: field 'build.{}': expected an integer, got '{}'",
                                       where(path, kv.second.Mark()), key,
                                       kv.second.IsScalar() ? kv.second.Scalar() : "a collection"));
      continue;
    }
    text += fmt::format("-G{}={}\n", key, value);
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
