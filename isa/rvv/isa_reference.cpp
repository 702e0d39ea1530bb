#include "isa/rvv/isa_reference.h"

#include <fmt/format.h>
#include <yaml-cpp/yaml.h>

#include <stdexcept>

namespace kcraft::rvv {

extern const char* const kIsaTableYaml;

namespace {

struct Row {
  std::string mnemonic, syntax, effect;
};
struct Group {
  std::string name, text;
  std::vector<Row> rows;
};
struct Table {
  std::string title, intro;
  std::vector<Group> groups;
};

const Table& table() {
  static const Table t = [] {
    Table out;
    try {
      const YAML::Node root = YAML::Load(kIsaTableYaml);
      out.title = root["title"].as<std::string>();
      out.intro = root["intro"].as<std::string>();
      for (const auto& g : root["groups"]) {
        Group group;
        group.name = g["name"].as<std::string>();
        if (g["text"]) group.text = g["text"].as<std::string>();
        for (const auto& r : g["rows"]) {
          if (!r.IsSequence() || r.size() != 3)
            throw std::runtime_error("a row is not [MNEMONIC, syntax, effect]");
          group.rows.push_back({r[0].as<std::string>(), r[1].as<std::string>(), r[2].as<std::string>()});
        }
        out.groups.push_back(std::move(group));
      }
    } catch (const YAML::Exception& e) {
      throw std::runtime_error(std::string("isa/rvv/rvv_isa.yaml: ") + e.what());
    }
    return out;
  }();
  return t;
}

std::string replace_all(std::string text, const std::string& from, const std::string& to) {
  for (size_t at = text.find(from); at != std::string::npos; at = text.find(from, at + to.size()))
    text.replace(at, from.size(), to);
  return text;
}

std::string trimmed(const std::string& s) {
  const auto end = s.find_last_not_of(" \n");
  return end == std::string::npos ? std::string() : s.substr(0, end + 1);
}

}  // namespace

std::string isa_markdown(int vlen) {
  const Table& t = table();
  std::string md =
      fmt::format("# {}\n\n{}\n", t.title, trimmed(replace_all(t.intro, "{VLEN}", std::to_string(vlen))));
  for (const auto& g : t.groups) {
    md += fmt::format("\n## {}\n\n", g.name);
    if (!g.text.empty()) md += trimmed(g.text) + "\n\n";
    for (const auto& r : g.rows)
      md += fmt::format("#### {}\n\n`{}`\n\n{}\n\n", r.mnemonic, r.syntax, r.effect);
  }
  return md;
}

std::vector<std::string> instruction_names() {
  std::vector<std::string> names;
  for (const auto& g : table().groups) {
    for (const auto& r : g.rows) names.push_back(r.mnemonic);
  }
  return names;
}

}  // namespace kcraft::rvv
