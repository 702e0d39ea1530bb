#include "isa/rvv/isa_reference.h"

#include <fmt/format.h>
#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <cctype>
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
  std::vector<std::string> also;  // the other implemented forms, expanded, lower case
};
struct Table {
  std::string title, intro;
  std::vector<Group> groups;
  std::vector<OutsideClass> outside;
  std::string timing_issue;
  std::vector<std::pair<std::string, std::string>> timing_units, timing_rules;
  std::vector<TimingClass> timing;
};

std::string lower_case(std::string s) {
  for (auto& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

std::vector<std::string> expanded_list(const YAML::Node& patterns) {
  std::vector<std::string> out;
  for (const auto& p : patterns) {
    for (auto& m : expand_braces(p.as<std::string>())) out.push_back(lower_case(std::move(m)));
  }
  return out;
}

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
        if (g["also"]) group.also = expanded_list(g["also"]);
        out.groups.push_back(std::move(group));
      }
      for (const auto& o : root["outside"]) {
        OutsideClass c;
        c.what = o["what"].as<std::string>();
        for (auto& m : expanded_list(o["mnemonics"])) c.mnemonics.insert(std::move(m));
        out.outside.push_back(std::move(c));
      }
      out.timing_issue = root["timing_issue"].as<std::string>();
      for (const auto& u : root["timing_units"])
        out.timing_units.emplace_back(u["name"].as<std::string>(), u["description"].as<std::string>());
      for (const auto& r : root["timing_rules"])
        out.timing_rules.emplace_back(r["title"].as<std::string>(), r["text"].as<std::string>());
      for (const auto& c : root["timing"]) {
        TimingClass tc;
        tc.name = c["class"].as<std::string>();
        tc.unit = c["unit"].as<std::string>();
        tc.latency = c["latency"].as<std::string>();
        tc.occupancy = c["occupancy"].as<std::string>();
        tc.hazards = c["hazards"].as<std::string>();
        tc.mnemonics = expanded_list(c["mnemonics"]);
        out.timing.push_back(std::move(tc));
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

std::vector<std::string> expand_braces(const std::string& pattern) {
  const auto open = pattern.find('{');
  if (open == std::string::npos) return {pattern};
  const auto close = pattern.find('}', open);
  if (close == std::string::npos) throw std::runtime_error("isa/rvv/rvv_isa.yaml: unclosed { in " + pattern);
  const std::string head = pattern.substr(0, open), tail = pattern.substr(close + 1);
  const std::string choices = pattern.substr(open + 1, close - open - 1);
  std::vector<std::string> out;
  for (size_t begin = 0;;) {
    const auto comma = choices.find(',', begin);
    const std::string choice =
        choices.substr(begin, comma == std::string::npos ? std::string::npos : comma - begin);
    for (auto& rest : expand_braces(head + choice + tail)) out.push_back(std::move(rest));
    if (comma == std::string::npos) break;
    begin = comma + 1;
  }
  return out;
}

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
  md +=
      "\n## Outside the implemented subset\n\n"
      "Assemblers accept these and QEMU 7.2 runs all but the last, but the core does not: the RTL stops on "
      "them with "
      "ERR_ILLEGAL, and `kcraft check` (the agents' check_syntax) rejects a program that contains one, "
      "naming its line. FP arithmetic at SEW = 16 is outside too; that depends on vtype at run time, so only "
      "the run finds it.\n\n";
  for (const auto& c : t.outside) md += fmt::format("- {}\n", c.what);
  return md;
}

std::vector<std::string> instruction_names() {
  std::vector<std::string> names;
  for (const auto& g : table().groups) {
    for (const auto& r : g.rows) names.push_back(r.mnemonic);
  }
  return names;
}

const std::set<std::string>& implemented_mnemonics() {
  static const std::set<std::string> names = [] {
    std::set<std::string> out;
    for (const auto& g : table().groups) {
      for (const auto& r : g.rows) out.insert(lower_case(r.mnemonic));
      out.insert(g.also.begin(), g.also.end());
    }
    return out;
  }();
  return names;
}

const std::vector<OutsideClass>& outside_classes() {
  return table().outside;
}

std::string outside_reason(const std::string& mnemonic) {
  const std::string m = lower_case(mnemonic);
  if (implemented_mnemonics().count(m) != 0) return "";
  for (const auto& c : outside_classes()) {
    if (c.mnemonics.count(m) != 0) return c.what;
  }
  return "not in the implemented subset (`kcraft isa rvv` lists every instruction the core runs)";
}

const std::vector<TimingClass>& timing_classes() {
  return table().timing;
}

const std::string& timing_issue() {
  return table().timing_issue;
}

const std::vector<std::pair<std::string, std::string>>& timing_units() {
  return table().timing_units;
}

const std::vector<std::pair<std::string, std::string>>& timing_rules() {
  return table().timing_rules;
}

std::string row_syntax(const std::string& mnemonic) {
  const std::string m = lower_case(mnemonic);
  for (const auto& g : table().groups) {
    for (const auto& r : g.rows) {
      if (lower_case(r.mnemonic) == m) return r.syntax;
    }
  }
  return "";
}

}  // namespace kcraft::rvv
