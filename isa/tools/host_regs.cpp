#include "isa/tools/host_regs.h"

#include <algorithm>
#include <cctype>
#include <regex>
#include <set>

#include <fmt/format.h>
#include <yaml-cpp/yaml.h>

namespace kcraft::isa::gen {
namespace {

class Loader {
 public:
  Loader(std::string path, std::vector<std::string>* errors) : path_(std::move(path)), errors_(errors) {}

  void error(const YAML::Node& node, const std::string& message) {
    const YAML::Mark mark = node.Mark();
    errors_->push_back(
        mark.is_null() ? fmt::format("{}: error: {}", path_, message)
                       : fmt::format("{}:{}:{}: error: {}", path_, mark.line + 1, mark.column + 1, message));
  }

  std::string text(const YAML::Node& map, const char* key, bool required, const std::string& fallback = "") {
    const YAML::Node n = map[key];
    if (!n) {
      if (required) error(map, fmt::format("`{}` is required", key));
      return fallback;
    }
    if (!n.IsScalar()) {
      error(n, fmt::format("`{}` must be a string", key));
      return fallback;
    }
    return n.Scalar();
  }

  unsigned long long number(const YAML::Node& map, const char* key, unsigned long long fallback,
                            bool required) {
    const YAML::Node n = map[key];
    if (!n) {
      if (required) error(map, fmt::format("`{}` is required", key));
      return fallback;
    }
    try {
      return n.as<unsigned long long>();
    } catch (const YAML::Exception&) {
      error(n, fmt::format("`{}` must be a non-negative integer", key));
      return fallback;
    }
  }

  bool flag(const YAML::Node& map, const char* key, bool fallback) {
    const YAML::Node n = map[key];
    if (!n) return fallback;
    try {
      return n.as<bool>();
    } catch (const YAML::Exception&) {
      error(n, fmt::format("`{}` must be true or false", key));
      return fallback;
    }
  }

  std::vector<std::string> strings(const YAML::Node& map, const char* key) {
    std::vector<std::string> out;
    const YAML::Node n = map[key];
    if (!n) return out;
    if (!n.IsSequence()) {
      error(n, fmt::format("`{}` must be a list of strings", key));
      return out;
    }
    for (const YAML::Node& s : n) out.push_back(s.Scalar());
    return out;
  }

  bool upper_snake(const YAML::Node& where, const std::string& name) {
    static const std::regex kUpper("[A-Z][A-Z0-9_]*");
    if (std::regex_match(name, kUpper)) return true;
    error(where, fmt::format("`{}` is not an UPPER_SNAKE name", name));
    return false;
  }

  std::vector<HostRegValue> values(const YAML::Node& list, const std::string& cpp_prefix, bool bits) {
    std::vector<HostRegValue> out;
    if (!list || !list.IsSequence()) {
      error(list, "`values` must be a list of {name, value, doc}");
      return out;
    }
    std::set<std::string> names;
    std::set<unsigned long long> seen;
    for (const YAML::Node& v : list) {
      HostRegValue value;
      value.name = text(v, "name", true);
      value.value = number(v, bits ? "bit" : "value", 0, true);
      value.doc = text(v, "doc", false);
      if (!value.name.empty() && upper_snake(v, value.name)) {
        value.cpp_name = text(v, "cpp_name", false, cpp_prefix + camel(value.name));
        if (!names.insert(value.name).second) error(v, fmt::format("`{}` appears twice", value.name));
        if (!seen.insert(value.value).second)
          error(v, fmt::format("{} {} is used twice", bits ? "bit" : "value", value.value));
        if (bits && value.value >= 64) error(v, "a bit position must be below 64");
      }
      out.push_back(std::move(value));
    }
    return out;
  }

  static std::string camel(const std::string& upper) {
    std::string out;
    bool start = true;
    for (char c : upper) {
      if (c == '_') {
        start = true;
        continue;
      }
      out += start ? c : static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
      start = false;
    }
    return out;
  }

 private:
  std::string path_;
  std::vector<std::string>* errors_;
};

// The bit width of a "logic [N:0]" type, 0 for other types.
unsigned sv_width(const std::string& type) {
  static const std::regex kLogic(R"(logic\s*\[\s*(\d+)\s*:\s*0\s*\])");
  std::smatch m;
  if (std::regex_match(type, m, kLogic)) return static_cast<unsigned>(std::stoul(m[1].str())) + 1;
  return 0;
}

std::string sv_literal(const std::string& type, unsigned long long value, bool hex) {
  const unsigned width = sv_width(type);
  if (width == 0) return hex ? fmt::format("'h{:x}", value) : fmt::format("{}", value);
  return hex ? fmt::format("{}'h{:x}", width, value) : fmt::format("{}'d{}", width, value);
}

// Lines of code, each with an optional trailing comment, the comments aligned.
std::string aligned(const std::vector<std::pair<std::string, std::string>>& lines) {
  size_t width = 0;
  for (const auto& [code, doc] : lines)
    if (!doc.empty()) width = std::max(width, code.size());
  std::string out;
  for (const auto& [code, doc] : lines)
    out += doc.empty() ? code + "\n" : fmt::format("{:<{}}  // {}\n", code, width, doc);
  return out;
}

// A block comment of `doc` (several lines allowed), each line prefixed by `indent` + "// ".
std::string block_comment(const std::string& doc, const std::string& indent) {
  std::string out;
  size_t begin = 0;
  while (begin < doc.size()) {
    size_t end = doc.find('\n', begin);
    if (end == std::string::npos) end = doc.size();
    const std::string line = doc.substr(begin, end - begin);
    out += line.empty() ? indent + "//\n" : indent + "// " + line + "\n";
    begin = end + 1;
  }
  return out;
}

std::string trim_trailing_newlines(std::string s) {
  while (!s.empty() && (s.back() == '\n' || s.back() == ' ')) s.pop_back();
  return s;
}

}  // namespace

LoadedHostRegs load_host_regs(const std::string& path, const std::string& source_name,
                              const std::string& sv_package) {
  LoadedHostRegs out;
  Loader l(path, &out.errors);
  YAML::Node root;
  try {
    root = YAML::LoadFile(path);
  } catch (const YAML::Exception& e) {
    out.errors.push_back(fmt::format("{}:{}:{}: error: {}", path, e.mark.line + 1, e.mark.column + 1, e.msg));
    return out;
  }
  HostRegs& r = out.regs;
  r.source_name = source_name;
  r.doc = trim_trailing_newlines(l.text(root, "doc", false));
  r.sv_package = sv_package;
  r.cpp_namespace = l.text(root, "cpp_namespace", true);
  r.cpp_includes = l.strings(root, "cpp_includes");
  r.cpp_using = l.strings(root, "cpp_using");

  if (const YAML::Node ctl = root["control"]) {
    r.space_bits = static_cast<unsigned>(l.number(ctl, "space_bits", 4, false));
    if (r.space_bits == 0 || r.space_bits > 8) l.error(ctl, "`space_bits` must be 1 to 8");
    r.register_space = l.text(ctl, "register_space", false);
    std::set<unsigned> used;
    for (const YAML::Node& s : ctl["spaces"]) {
      HostRegSpace space;
      space.name = l.text(s, "name", true);
      space.value = static_cast<unsigned>(l.number(s, "value", 0, true));
      space.doc = l.text(s, "doc", false);
      space.indexed = space.name != r.register_space;
      l.upper_snake(s, space.name);
      if (space.value >= (1u << r.space_bits)) l.error(s, "the space number does not fit `space_bits`");
      if (!used.insert(space.value).second) l.error(s, fmt::format("space {} is used twice", space.value));
      r.spaces.push_back(std::move(space));
    }
    if (const YAML::Node regs = ctl["registers"]) {
      r.registers = l.values(regs, "kCtl", false);
      bool found = false;
      for (const HostRegSpace& s : r.spaces) found = found || s.name == r.register_space;
      if (!found) l.error(ctl, "`register_space` must name one of `spaces`");
    }
  }

  for (const YAML::Node& g : root["groups"]) {
    HostRegGroup group;
    group.name = l.text(g, "name", true);
    group.doc = trim_trailing_newlines(l.text(g, "doc", false));
    group.bits = l.flag(g, "bits", false);
    group.sv_prefix = l.text(g, "sv_prefix", false);
    group.sv_type = l.text(g, "sv_type", false, "int unsigned");
    group.cpp_prefix = l.text(g, "cpp_prefix", false, "k");
    group.cpp_type = l.text(g, "cpp_type", false, group.bits ? "uint32_t" : "unsigned");
    group.cpp_namespace = l.text(g, "cpp_namespace", false);
    group.enum_class = l.flag(g, "enum_class", false);
    group.hex = l.flag(g, "hex", false);
    group.sv = l.flag(g, "sv", true);
    group.cpp = l.flag(g, "cpp", true);
    group.count_sv = l.text(g, "count_sv", false);
    group.count_cpp = l.text(g, "count_cpp", false);
    if (group.bits && sv_width(group.sv_type) != 0) l.error(g, "bit positions are `int unsigned` in SV");
    group.values = l.values(g["values"], group.cpp_prefix, group.bits);
    r.groups.push_back(std::move(group));
  }
  return out;
}

std::string emit_host_regs_sv(const HostRegs& r) {
  std::string out =
      fmt::format("// Generated from {} by kcraft_isagen host-regs. Do not edit.\n//\n", r.source_name);
  out += block_comment(r.doc, "");
  out += fmt::format("package {};\n", r.sv_package);
  if (!r.spaces.empty()) {
    const unsigned index_bits = 32 - r.space_bits;
    out += fmt::format(
        "\n  // Control writes: ctl_addr_i[31:{}] is the space, ctl_addr_i[{}:0] the index within it.\n",
        index_bits, index_bits - 1);
    // The register space's file (the common one) defines the split; the others only add spaces.
    if (!r.register_space.empty())
      out += fmt::format("  localparam int unsigned CTL_SPACE_BITS = {};\n", r.space_bits);
    std::vector<std::pair<std::string, std::string>> lines;
    for (const HostRegSpace& s : r.spaces) {
      lines.emplace_back(fmt::format("  localparam logic [{}:0] CTL_SPACE_{} = {}'d{};", r.space_bits - 1,
                                     s.name, r.space_bits, s.value),
                         s.doc);
    }
    for (const HostRegValue& v : r.registers) {
      lines.emplace_back(fmt::format("  localparam logic [{}:0] CTL_{} = {}'d{};", index_bits - 1, v.name,
                                     index_bits, v.value),
                         v.doc);
    }
    out += aligned(lines);
  }
  for (const HostRegGroup& g : r.groups) {
    if (!g.sv) continue;
    out += "\n" + block_comment(g.doc.empty() ? g.name : g.doc, "  ");
    std::vector<std::pair<std::string, std::string>> lines;
    for (const HostRegValue& v : g.values) {
      lines.emplace_back(fmt::format("  localparam {} {}{} = {};", g.sv_type, g.sv_prefix, v.name,
                                     sv_literal(g.sv_type, v.value, g.hex)),
                         v.doc);
    }
    out += aligned(lines);
    if (!g.count_sv.empty())
      out += fmt::format("  localparam int unsigned {} = {};\n", g.count_sv, g.values.size());
  }
  out += "endpackage\n";
  return out;
}

std::string emit_host_regs_cpp(const HostRegs& r) {
  std::string out =
      fmt::format("// Generated from {} by kcraft_isagen host-regs. Do not edit.\n//\n", r.source_name);
  out += block_comment(r.doc, "");
  out += "#pragma once\n\n#include <cstdint>\n";
  if (!r.cpp_includes.empty()) out += "\n";
  for (const std::string& inc : r.cpp_includes) out += fmt::format("#include \"{}\"\n", inc);

  std::string open;  // the namespace currently open
  const auto enter = [&](const std::string& ns) {
    if (ns == open) return;
    if (!open.empty()) out += fmt::format("\n}}  // namespace {}\n", open);
    out += fmt::format("\nnamespace {} {{\n", ns);
    open = ns;
  };

  enter(r.cpp_namespace);
  for (const std::string& ns : r.cpp_using) out += fmt::format("\nusing namespace {};\n", ns);
  const unsigned index_bits = 32 - r.space_bits;
  std::vector<std::pair<std::string, std::string>> ctl;
  for (const HostRegSpace& s : r.spaces) {
    if (!s.indexed) continue;
    ctl.emplace_back(fmt::format("inline constexpr uint32_t kCtl{} = 0x{:08x}u;", Loader::camel(s.name),
                                 s.value << index_bits),
                     "+ index" + (s.doc.empty() ? "" : ": " + s.doc));
  }
  unsigned reg_space = 0;
  for (const HostRegSpace& s : r.spaces)
    if (s.name == r.register_space) reg_space = s.value;
  for (const HostRegValue& v : r.registers) {
    ctl.emplace_back(fmt::format("inline constexpr uint32_t {} = 0x{:08x}u;", v.cpp_name,
                                 (reg_space << index_bits) | static_cast<uint32_t>(v.value)),
                     v.doc);
  }
  if (!ctl.empty()) out += "\n// Control-port addresses.\n" + aligned(ctl);

  for (const HostRegGroup& g : r.groups) {
    if (!g.cpp) continue;
    enter(g.cpp_namespace.empty() ? r.cpp_namespace : g.cpp_namespace);
    out += "\n" + block_comment(g.doc.empty() ? g.name : g.doc, "");
    out += fmt::format("enum {}{} : {} {{\n", g.enum_class ? "class " : "", g.name, g.cpp_type);
    std::vector<std::pair<std::string, std::string>> lines;
    for (const HostRegValue& v : g.values) {
      const std::string value = g.bits  ? fmt::format("1u << {}", v.value)
                                : g.hex ? fmt::format("0x{:03X}", v.value)
                                        : fmt::format("{}", v.value);
      lines.emplace_back(fmt::format("  {} = {},", v.cpp_name, value), v.doc);
    }
    if (!g.count_cpp.empty()) lines.emplace_back(fmt::format("  {} = {},", g.count_cpp, g.values.size()), "");
    out += aligned(lines);
    out += "};\n";
  }
  out += fmt::format("\n}}  // namespace {}\n", open);
  return out;
}

}  // namespace kcraft::isa::gen
