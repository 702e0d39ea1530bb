#include "agent/bench/plan.h"

#include <fmt/format.h>
#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <filesystem>
#include <numeric>
#include <set>
#include <stdexcept>

#include "agent/common/agent_run.h"
#include "agent/common/environment.h"
#include "agent/common/workflow.h"
#include "tb/common/platform.h"

namespace kcraft::bench {

using nlohmann::json;

namespace {

std::string join(const std::vector<std::string>& items) {
  std::string s;
  for (const auto& i : items) s += (s.empty() ? "" : ", ") + i;
  return s;
}

json yaml_to_json(const YAML::Node& node) {
  switch (node.Type()) {
    case YAML::NodeType::Map: {
      json j = json::object();
      for (const auto& kv : node) j[kv.first.as<std::string>()] = yaml_to_json(kv.second);
      return j;
    }
    case YAML::NodeType::Sequence: {
      json j = json::array();
      for (const auto& item : node) j.push_back(yaml_to_json(item));
      return j;
    }
    case YAML::NodeType::Scalar: {
      const std::string text = node.Scalar();
      if (node.Tag() != "!") {  // quoted scalars stay strings
        int64_t i = 0;
        double d = 0;
        bool b = false;
        if (YAML::convert<int64_t>::decode(node, i)) return i;
        if (YAML::convert<double>::decode(node, d)) return d;
        if (YAML::convert<bool>::decode(node, b)) return b;
      }
      return text;
    }
    default:
      return nullptr;
  }
}

// Model evaluations a run of this agent costs, roughly: what the job order is sorted by.
double evaluations_estimate(const AgentSpec& agent, int level) {
  switch (agent.kind) {
    case AgentSpec::Kind::kBaseline:
      return 2;  // the hidden seeds (two, three with a range-stress set; the baseline on the first is free)
    case AgentSpec::Kind::kTuner:
      return agent::default_iterations(level) + 3;
    case AgentSpec::Kind::kLlm:
      return agent::default_iterations(level) * 4.0;  // model turns dominate
    case AgentSpec::Kind::kLibrary:
      return 2;  // like the baseline: one kernel on the hidden seeds
  }
  return 1;
}

}  // namespace

json yaml_file_to_json(const std::string& path) {
  try {
    return yaml_to_json(YAML::LoadFile(path));
  } catch (const YAML::Exception& e) {
    throw ConfigError(path + ": " + e.what());
  }
}

json yaml_text_to_json(const std::string& yaml, const std::string& source) {
  try {
    return yaml_to_json(YAML::Load(yaml));
  } catch (const YAML::Exception& e) {
    throw ConfigError(source + ": " + e.what());
  }
}

HardwareRecord hardware_record(const std::string& platform, const HwConfig& hw) {
  HardwareRecord h;
  h.platform = platform;
  h.name = hw.name;
  h.config = yaml_file_to_json(hw.source.string());
  h.id = fmt::format("{:016x}", stable_hash(h.config.dump()));
  return h;
}

HardwareRecord hardware_record(const std::string& platform, const std::string& hw) {
  const Platform* p = find_platform(platform);
  if (p == nullptr) throw std::invalid_argument("unknown platform '" + platform + "'");
  for (const auto& config : p->hw_configs()) {
    if (config.name == hw) return hardware_record(platform, config);
  }
  throw std::invalid_argument("unknown hardware configuration '" + platform + "/" + hw + "'");
}

std::optional<double> attainable_cycles(const std::string& platform, const std::string& hw,
                                        const std::string& task, const std::string& config) {
  const Platform* p = find_platform(platform);
  if (p == nullptr) return std::nullopt;
  try {
    const auto cfg = agent::task_registry().get(task).resolve(config, p->dtype());
    const double cycles = p->ideal_cycles(cfg, hw).attainable;
    if (cycles > 0) return cycles;
  } catch (const std::exception&) {
    // an unknown task, configuration or hardware configuration (a store from another version): no bound
  }
  return std::nullopt;
}

std::string AgentSpec::job_kind() const {
  switch (kind) {
    case Kind::kBaseline:
      return "baseline";
    case Kind::kTuner:
      return "tuner";
    case Kind::kLlm:
      return "llm";
    case Kind::kLibrary:
      return "library";
  }
  return "";
}

namespace {

std::vector<std::string> split_fields(const std::string& text) {
  std::vector<std::string> fields;
  size_t start = 0;
  while (true) {
    const auto colon = text.find(':', start);
    fields.push_back(text.substr(start, colon - start));
    if (colon == std::string::npos) return fields;
    start = colon + 1;
  }
}

// Fields from `first` on, joined again with ':'.
std::string join_fields(const std::vector<std::string>& fields, size_t first) {
  std::string text;
  for (size_t i = first; i < fields.size(); ++i) text += (i == first ? "" : ":") + fields[i];
  return text;
}

// An LLM agent: the settings file exists, the workflow loads.
AgentSpec llm_agent(const std::string& settings_file, const std::string& workflow) {
  AgentSpec spec;
  spec.kind = AgentSpec::Kind::kLlm;
  if (settings_file.empty()) throw std::invalid_argument("no provider settings file named");
  if (!std::filesystem::is_regular_file(settings_file))
    throw std::invalid_argument("no provider settings file " + settings_file);
  spec.settings_file = std::filesystem::absolute(settings_file).string();
  if (workflow.empty()) throw std::invalid_argument("no workflow named");
  try {
    spec.workflow = agent::Workflow::load(workflow).name;
  } catch (const std::exception& e) {
    throw std::invalid_argument(e.what());
  }
  return spec;
}

std::string settings_stem(const AgentSpec& spec) {
  return std::filesystem::path(spec.settings_file).stem().string();
}

}  // namespace

const std::vector<AgentKindSyntax>& agent_kinds() {
  static const std::vector<AgentKindSyntax> kinds = {
      {"baseline", "baseline",
       [](const std::vector<std::string>& f) {
         if (!f.empty()) throw std::invalid_argument("takes no fields");
         AgentSpec spec;
         spec.kind = AgentSpec::Kind::kBaseline;
         spec.name = "baseline";
         return spec;
       }},
      {"tuner", "tuner",
       [](const std::vector<std::string>& f) {
         if (!f.empty()) throw std::invalid_argument("takes no fields");
         AgentSpec spec;
         spec.kind = AgentSpec::Kind::kTuner;
         spec.name = "tuner";
         return spec;
       }},
      {"llm", "llm:SETTINGS.yaml",
       [](const std::vector<std::string>& f) {
         // The whole rest is the file (as before the other kinds existed, a path may hold ':').
         AgentSpec spec = llm_agent(join_fields(f, 0), "single");
         spec.name = "llm:" + settings_stem(spec);
         return spec;
       }},
      {"workflow", "workflow:NAME:SETTINGS.yaml",
       [](const std::vector<std::string>& f) {
         if (f.size() < 2) throw std::invalid_argument("expects a workflow name and a settings file");
         AgentSpec spec = llm_agent(join_fields(f, 1), f[0]);
         // `single` is what llm: runs: one name for one agent.
         spec.name = spec.workflow == "single" ? "llm:" + settings_stem(spec)
                                               : "workflow:" + spec.workflow + ":" + settings_stem(spec);
         return spec;
       }},
      {"search", "search:island:SETTINGS.yaml or search:ucb:SETTINGS.yaml",
       [](const std::vector<std::string>& f) {
         if (f.size() < 2) throw std::invalid_argument("expects island or ucb and a settings file");
         if (f[0] != "island" && f[0] != "ucb")
           throw std::invalid_argument("unknown search '" + f[0] + "' (available: island, ucb)");
         AgentSpec spec = llm_agent(join_fields(f, 1), "single");
         spec.search = f[0];
         spec.name = "search:" + f[0] + ":" + settings_stem(spec);
         return spec;
       }},
      {"port", "port:PLATFORM:SETTINGS.yaml or port:PLATFORM:NAME:SETTINGS.yaml",
       [](const std::vector<std::string>& f) {
         if (f.size() != 2 && f.size() != 3)
           throw std::invalid_argument("expects a platform, optionally a workflow name, and a settings file");
         if (find_platform(f[0]) == nullptr) {
           throw std::invalid_argument(
               fmt::format("unknown platform '{}' (available: {})", f[0], join(platform_names())));
         }
         AgentSpec spec = llm_agent(f.back(), f.size() == 3 ? f[1] : "single");
         spec.port_from = f[0];
         spec.name = "port:" + f[0] + ":" + (spec.workflow == "single" ? "" : spec.workflow + ":") +
                     settings_stem(spec);
         return spec;
       }},
      {"library", "library:FILE.db",
       [](const std::vector<std::string>& f) {
         const std::string file = join_fields(f, 0);
         if (file.empty()) throw std::invalid_argument("expects a results database");
         if (!std::filesystem::exists(file)) throw std::invalid_argument("no such file: " + file);
         AgentSpec spec;
         spec.kind = AgentSpec::Kind::kLibrary;
         spec.library_file = std::filesystem::absolute(file).string();
         spec.name = "library:" + std::filesystem::path(file).stem().string();
         return spec;
       }},
  };
  return kinds;
}

size_t docs_suffix_at(const std::string& agent) {
  return agent.rfind(kDocsSuffix);
}

AgentSpec parse_agent(const std::string& full_text) {
  // The documentation level is the last part of the name: a settings path may hold ':' but not "@docs=".
  const size_t suffix = docs_suffix_at(full_text);
  const std::string text = full_text.substr(0, suffix);
  if (suffix != std::string::npos) {
    const std::string level = full_text.substr(suffix + std::string(kDocsSuffix).size());
    AgentSpec spec = parse_agent(text);
    if (spec.kind != AgentSpec::Kind::kLlm) {
      throw std::invalid_argument(fmt::format(
          "agent '{}': {} reads no documentation; `@docs=` is for LLM agents", full_text, spec.name));
    }
    try {
      spec.docs = agent::docs_level_name(agent::parse_docs_level(level));
    } catch (const std::invalid_argument& e) {
      throw std::invalid_argument(fmt::format("agent '{}': {}", full_text, e.what()));
    }
    spec.name += kDocsSuffix + spec.docs;
    return spec;
  }
  std::vector<std::string> fields = split_fields(text);
  const std::string prefix = fields.front();
  fields.erase(fields.begin());
  std::vector<std::string> usages;
  for (const auto& kind : agent_kinds()) {
    usages.push_back(kind.usage);
    if (kind.prefix != prefix) continue;
    try {
      return kind.parse(fields);
    } catch (const std::invalid_argument& e) {
      throw std::invalid_argument(fmt::format("agent '{}' ({}): {}", text, kind.usage, e.what()));
    }
  }
  throw std::invalid_argument(fmt::format("unknown agent '{}' (available: {})", text, join(usages)));
}

std::string unported_agent_name(const std::string& agent) {
  // "port:P:m@docs=isa" compares with "llm:m@docs=isa": the level stays.
  if (agent.rfind("port:", 0) != 0) return "";
  const auto colon = agent.find(':', 5);
  if (colon == std::string::npos) return "";
  const std::string rest = agent.substr(colon + 1);  // "stem" or "workflow:stem"
  return (rest.find(':') == std::string::npos ? "llm:" : "workflow:") + rest;
}

Shard Shard::parse(const std::string& text) {
  const auto slash = text.find('/');
  Shard s;
  try {
    if (slash == std::string::npos) throw std::invalid_argument("");
    size_t used = 0;
    const std::string a = text.substr(0, slash), b = text.substr(slash + 1);
    const unsigned long i = std::stoul(a, &used);
    if (used != a.size()) throw std::invalid_argument("");
    const unsigned long n = std::stoul(b, &used);
    if (used != b.size()) throw std::invalid_argument("");
    s.index = static_cast<unsigned>(i);
    s.count = static_cast<unsigned>(n);
  } catch (const std::exception&) {
    throw std::invalid_argument("--shard expects i/N with integers 0 <= i < N, got '" + text + "'");
  }
  if (s.count == 0 || s.index >= s.count) {
    throw std::invalid_argument("--shard expects i/N with 0 <= i < N, got '" + text + "'");
  }
  return s;
}

std::string Shard::to_string() const {
  return fmt::format("{}/{}", index, count);
}

unsigned shard_of(const RunKey& key, unsigned count) {
  return static_cast<unsigned>(stable_hash(key.id()) % (count == 0 ? 1 : count));
}

bool Shard::owns(const RunKey& key) const {
  return shard_of(key, count) == index;
}

const AgentSpec& SweepPlan::agent(const std::string& name) const {
  for (const auto& a : agents) {
    if (a.name == name) return a;
  }
  throw std::invalid_argument("no agent '" + name + "' in the plan");
}

const HardwareRecord& SweepPlan::hardware_for(const std::string& platform, const std::string& hw) const {
  for (const auto& h : hardware) {
    if (h.platform == platform && h.name == hw) return h;
  }
  throw std::invalid_argument("no hardware configuration " + platform + "/" + hw + " in the plan");
}

SweepPlan build_plan(const SweepFilters& f, const tasks::TaskRegistry& registry) {
  SweepPlan plan;
  if (f.attempts == 0) throw std::invalid_argument("--attempts must be at least 1");
  if (f.agents.empty()) throw std::invalid_argument("--agents: no agent given");
  std::set<std::string> agent_names;
  for (const auto& text : f.agents) {
    AgentSpec spec = parse_agent(text);
    if (!agent_names.insert(spec.name).second) {
      throw std::invalid_argument("agent '" + spec.name +
                                  "' is named twice (settings files need distinct names)");
    }
    plan.agents.push_back(std::move(spec));
  }

  // Platforms.
  std::vector<const Platform*> selected_platforms;
  const std::vector<std::string> known_platforms = platform_names();
  for (const auto& name : f.platforms) {
    if (std::count(known_platforms.begin(), known_platforms.end(), name) == 0) {
      throw std::invalid_argument(
          fmt::format("unknown platform '{}' (available: {})", name, join(known_platforms)));
    }
  }
  for (const auto& name : known_platforms) {
    if (f.platforms.empty() || std::count(f.platforms.begin(), f.platforms.end(), name) > 0) {
      selected_platforms.push_back(&platform(name));
    }
  }

  // Hardware configurations: "name" selects it on every platform that has it, "platform/name" on one.
  std::vector<std::pair<const Platform*, const HwConfig*>> targets;
  std::set<std::string> used_hw_filters;
  std::vector<std::string> known_hw;
  for (const auto* p : selected_platforms) {
    for (const auto& hw : p->hw_configs()) {
      known_hw.push_back(p->name() + "/" + hw.name);
      bool selected = f.hw_configs.empty();
      for (const auto& name : f.hw_configs) {
        if (name == hw.name || name == p->name() + "/" + hw.name) {
          selected = true;
          used_hw_filters.insert(name);
        }
      }
      if (selected) targets.emplace_back(p, &hw);
    }
  }
  for (const auto& name : f.hw_configs) {
    if (!used_hw_filters.count(name)) {
      throw std::invalid_argument(
          fmt::format("unknown hardware configuration '{}' (available: {})", name, join(known_hw)));
    }
  }
  for (const auto& [p, hw] : targets) plan.hardware.push_back(hardware_record(p->name(), *hw));

  // Tasks and configurations.
  std::vector<const tasks::TaskSpec*> task_list;
  for (const auto& name : f.tasks) registry.get(name);  // throws naming the unknown task
  for (const auto& spec : registry.tasks()) {
    if (!f.tasks.empty() && std::count(f.tasks.begin(), f.tasks.end(), spec.name) == 0) continue;
    if (!f.levels.empty() && std::count(f.levels.begin(), f.levels.end(), spec.level) == 0) continue;
    task_list.push_back(&spec);
  }
  for (int level : f.levels) {
    if (level < 1 || level > 3)
      throw std::invalid_argument(fmt::format("--levels: no level {} (levels are 1, 2, 3)", level));
  }
  const auto& standard = tasks::standard_config_names();
  for (const auto& c : f.configs) {
    if (std::count(standard.begin(), standard.end(), c) == 0) {
      throw std::invalid_argument(
          fmt::format("unknown configuration '{}' (available: {})", c, join(standard)));
    }
  }
  std::vector<std::string> configs;
  for (const auto& c : standard) {
    if (f.configs.empty() || std::count(f.configs.begin(), f.configs.end(), c) > 0) configs.push_back(c);
  }

  plan.quick = !f.full && f.configs.empty() && f.hw_configs.empty();
  const auto& quick_configs = quick_sweep_configs();
  std::vector<std::pair<PlannedRun, double>> runs;
  for (const auto& [p, hw] : targets) {
    for (const auto* spec : task_list) {
      for (const auto& config : configs) {
        const auto cfg = spec->resolve(config, p->dtype());
        if (auto why = p->unsupported_reason(cfg, hw->name); !why.empty()) {
          plan.unsupported.push_back({p->name(), hw->name, spec->name, config, spec->level, why});
          continue;
        }
        if (plan.quick) {
          std::string why;
          if (hw->name != kQuickSweepHw) {
            why =
                fmt::format("the quick sweep runs each platform's {} hardware configuration", kQuickSweepHw);
          } else if (std::count(quick_configs.begin(), quick_configs.end(), config) == 0) {
            why = fmt::format("the quick sweep runs {}", join(quick_configs));
          } else {
            why = p->default_sweep_exclusion(cfg, hw->name);
          }
          if (!why.empty()) {
            plan.left_out.push_back({p->name(), hw->name, spec->name, config, spec->level, why});
            continue;
          }
        }
        // Ideal (roofline) cycles order the jobs longest first, so the last ones to finish are short.
        const double ideal = p->ideal_cycles(cfg, hw->name).total();
        for (const auto& agent : plan.agents) {
          if (agent.port_from == p->name()) continue;  // porting is from another platform
          for (unsigned attempt = 1; attempt <= f.attempts; ++attempt) {
            PlannedRun run{{p->name(), hw->name, spec->name, config, agent.name, attempt}, spec->level};
            if (!f.shard.owns(run.key)) continue;
            // Simulation time grows with cycles; a fixed share covers assembly, references and start-up.
            runs.emplace_back(run, (ideal + 20000.0) * evaluations_estimate(agent, spec->level));
          }
        }
      }
    }
  }
  std::sort(runs.begin(), runs.end(), [](const auto& a, const auto& b) { return a.first.key < b.first.key; });
  for (auto& [run, cost] : runs) {
    plan.runs.push_back(std::move(run));
    plan.costs.push_back(cost);
  }
  return plan;
}

std::string left_out_text(const SweepPlan& plan) {
  // Grouped in the order first seen: (platform, hw, reason) -> configurations and tasks.
  struct Group {
    std::string platform, hw, reason;
    std::vector<std::string> configs, tasks;
  };
  std::vector<Group> groups;
  for (const auto& c : plan.left_out) {
    auto g = std::find_if(groups.begin(), groups.end(), [&](const Group& x) {
      return x.platform == c.platform && x.hw == c.hw_config && x.reason == c.reason;
    });
    if (g == groups.end()) g = groups.insert(groups.end(), Group{c.platform, c.hw_config, c.reason, {}, {}});
    if (std::count(g->configs.begin(), g->configs.end(), c.config) == 0) g->configs.push_back(c.config);
    if (std::count(g->tasks.begin(), g->tasks.end(), c.task) == 0) g->tasks.push_back(c.task);
  }
  std::string text;
  for (const auto& g : groups) {
    text += fmt::format(
        "not in the quick sweep: {}/{} {} ({} tasks): {} (run them with --platforms {} --hw {} "
        "--configs {})\n",
        g.platform, g.hw, join(g.configs), g.tasks.size(), g.reason, g.platform, g.hw,
        std::accumulate(std::next(g.configs.begin()), g.configs.end(), g.configs.front(),
                        [](std::string a, const std::string& b) { return a + "," + b; }));
  }
  if (!plan.left_out.empty()) {
    std::set<std::string> targets;
    for (const auto& c : plan.left_out) targets.insert(c.platform + "/" + c.hw_config);
    text += fmt::format(
        "the full sweep adds these {} cells on {} hardware configurations (every configuration C1-C5, no "
        "cell "
        "left out): `scripts/bench.sh --full` or `build/kcraft bench --full`; on a Slurm cluster "
        "`scripts/slurm/submit.sh N --full` (docs/bench.md)\n",
        plan.left_out.size(), targets.size());
  }
  return text;
}

std::string coverage_text(const SweepPlan& plan) {
  std::vector<std::string> targets, configs, agents;
  std::set<std::string> tasks;
  for (const auto& r : plan.runs) {
    const std::string target = r.key.platform + "/" + r.key.hw_config;
    if (std::count(targets.begin(), targets.end(), target) == 0) targets.push_back(target);
    if (std::count(configs.begin(), configs.end(), r.key.config) == 0) configs.push_back(r.key.config);
    tasks.insert(r.key.task);
  }
  std::sort(configs.begin(), configs.end());
  for (const auto& a : plan.agents) agents.push_back(a.name);
  return fmt::format("{}: {}; {} tasks; {}; agent{} {}: {} runs\n", plan.quick ? "quick sweep" : "sweep",
                     targets.empty() ? "nothing" : join(targets), tasks.size(),
                     configs.empty() ? "no configuration" : join(configs), agents.size() == 1 ? "" : "s",
                     join(agents), plan.runs.size());
}

}  // namespace kcraft::bench
