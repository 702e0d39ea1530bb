#include "agent/common/workflow.h"

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

#include <fmt/format.h>

#include "isa/common/hw_config.h"
#include "tb/common/paths.h"

namespace kcraft::agent {

namespace {

constexpr RoleKind kAllRoles[] = {RoleKind::kDesigner, RoleKind::kCoder, RoleKind::kVerifier,
                                  RoleKind::kConductor};

std::string read_text(const std::string& path, const char* what) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw ConfigError(fmt::format("{}: cannot open {}", path, what));
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

YAML::Node load_yaml(const std::string& text, const std::string& file) {
  try {
    return YAML::Load(text);
  } catch (const YAML::Exception& e) {
    throw ConfigError(
        fmt::format("{}:{}:{}: YAML syntax error: {}", file, e.mark.line + 1, e.mark.column + 1, e.msg));
  }
}

std::string role_list() {
  std::vector<std::string> names;
  for (RoleKind k : kAllRoles) names.emplace_back(role_name(k));
  return fmt::format("{}", fmt::join(names, ", "));
}

void only_keys(const YAML::Node& map, const std::string& file, const std::string& where,
               const std::vector<std::string>& known) {
  for (const auto& kv : map) {
    const std::string key = kv.first.IsScalar() ? kv.first.Scalar() : "<non-text key>";
    if (std::find(known.begin(), known.end(), key) == known.end()) {
      throw ConfigError(fmt::format("{}: {}{}: unknown field (expected one of {})", file, where, key,
                                    fmt::join(known, ", ")));
    }
  }
}

unsigned limit(const YAML::Node& limits, const std::string& file, const char* key, unsigned min) {
  const YAML::Node node = limits[key];
  if (!node.IsDefined() || node.IsNull()) throw ConfigError(fmt::format("{}: limits.{}: missing", file, key));
  const std::string text = node.IsScalar() ? node.Scalar() : "";
  if (text.empty() || text.size() > 9 ||
      !std::all_of(text.begin(), text.end(), [](char c) { return c >= '0' && c <= '9'; })) {
    throw ConfigError(fmt::format("{}: limits.{}: expected a whole number", file, key));
  }
  const unsigned value = static_cast<unsigned>(std::stoul(text));
  if (value < min) throw ConfigError(fmt::format("{}: limits.{}: must be at least {}", file, key, min));
  return value;
}

std::string scalar(const YAML::Node& node, const std::string& file, const std::string& field, bool required) {
  if (!node.IsDefined() || node.IsNull()) {
    if (required) throw ConfigError(fmt::format("{}: {}: missing", file, field));
    return "";
  }
  if (!node.IsScalar()) throw ConfigError(fmt::format("{}: {}: expected text", file, field));
  return node.Scalar();
}

}  // namespace

const char* role_name(RoleKind kind) {
  switch (kind) {
    case RoleKind::kDesigner:
      return "designer";
    case RoleKind::kCoder:
      return "coder";
    case RoleKind::kVerifier:
      return "verifier";
    case RoleKind::kConductor:
      return "conductor";
  }
  return "?";
}

std::optional<RoleKind> role_from_name(const std::string& name) {
  for (RoleKind k : kAllRoles) {
    if (name == role_name(k)) return k;
  }
  return std::nullopt;
}

Workflow Workflow::parse(const std::string& yaml_text, const std::string& file) {
  const YAML::Node doc = load_yaml(yaml_text, file);
  if (!doc.IsMap())
    throw ConfigError(fmt::format("{}: expected a mapping (name, roles, transitions, limits)", file));
  only_keys(doc, file, "", {"name", "description", "start", "roles", "transitions", "limits"});
  Workflow w;
  w.name = scalar(doc["name"], file, "name", true);
  w.description = scalar(doc["description"], file, "description", false);

  const YAML::Node roles = doc["roles"];
  if (!roles.IsDefined() || !roles.IsMap() || roles.size() == 0)
    throw ConfigError(fmt::format("{}: roles: expected a mapping of role names ({})", file, role_list()));
  for (const auto& kv : roles) {
    const std::string name = kv.first.Scalar();
    const auto kind = role_from_name(name);
    if (!kind)
      throw ConfigError(
          fmt::format("{}: roles.{}: unknown role (the roles are {})", file, name, role_list()));
    WorkflowRole role;
    role.kind = *kind;
    const YAML::Node body = kv.second;
    if (body.IsDefined() && !body.IsNull()) {
      if (!body.IsMap()) throw ConfigError(fmt::format("{}: roles.{}: expected a mapping", file, name));
      only_keys(body, file, "roles." + name + ".", {"prompt"});
      role.prompt = scalar(body["prompt"], file, "roles." + name + ".prompt", false);
    }
    if (*kind == RoleKind::kVerifier) {
      // The verifier is kcraft itself: there is no model to prompt.
      if (!role.prompt.empty())
        throw ConfigError(fmt::format(
            "{}: roles.verifier.prompt: the verifier is kcraft itself, it takes no prompt", file));
    } else {
      if (role.prompt.empty())
        throw ConfigError(
            fmt::format("{}: roles.{}.prompt: missing (a file under agent/prompts/)", file, name));
      const std::filesystem::path relative(role.prompt);
      const bool escapes =
          relative.is_absolute() ||
          std::any_of(relative.begin(), relative.end(), [](const auto& part) { return part == ".."; });
      if (escapes) {
        throw ConfigError(fmt::format("{}: roles.{}.prompt: '{}' must name a file under agent/prompts/", file,
                                      name, role.prompt));
      }
      const auto path = root() / "agent" / "prompts" / relative;
      // The error_code overload: a name the file system refuses (too long, ...) is no prompt file, not a
      // filesystem_error (found by the workflow_yaml fuzz harness).
      std::error_code ignored;
      if (!std::filesystem::is_regular_file(path, ignored))
        throw ConfigError(fmt::format("{}: roles.{}.prompt: no prompt file {}", file, name, path.string()));
    }
    w.roles[name] = role;
  }

  w.start = scalar(doc["start"], file, "start", true);
  if (!w.roles.count(w.start))
    throw ConfigError(fmt::format("{}: start: '{}' is not one of the workflow's roles", file, w.start));
  if (w.start == role_name(RoleKind::kVerifier) || w.start == role_name(RoleKind::kConductor))
    throw ConfigError(
        fmt::format("{}: start: a run starts with the designer or the coder, not the {}", file, w.start));

  const YAML::Node transitions = doc["transitions"];
  if (!transitions.IsDefined() || !transitions.IsMap())
    throw ConfigError(fmt::format("{}: transitions: expected a mapping of role -> next roles", file));
  for (const auto& kv : transitions) {
    const std::string from = kv.first.Scalar();
    const std::string field = "transitions." + from;
    if (!w.roles.count(from))
      throw ConfigError(fmt::format("{}: {}: '{}' is not one of the workflow's roles", file, field, from));
    std::vector<std::string> targets;
    if (kv.second.IsScalar()) {
      targets.push_back(kv.second.Scalar());
    } else if (kv.second.IsSequence()) {
      for (const auto& t : kv.second) targets.push_back(scalar(t, file, field, true));
    } else {
      throw ConfigError(fmt::format("{}: {}: expected a role or a list of roles", file, field));
    }
    if (targets.empty()) throw ConfigError(fmt::format("{}: {}: no next step", file, field));
    std::set<std::string> seen;
    for (const auto& to : targets) {
      if (to != kFinish && !w.roles.count(to)) {
        throw ConfigError(
            fmt::format("{}: {}: transition to nowhere: '{}' is neither one of the workflow's roles "
                        "nor {}",
                        file, field, to, kFinish));
      }
      if (!seen.insert(to).second)
        throw ConfigError(fmt::format("{}: {}: '{}' given twice", file, field, to));
    }
    // Only the conductor decides; every other role hands over to one fixed next step.
    if (from != role_name(RoleKind::kConductor) && targets.size() != 1) {
      throw ConfigError(
          fmt::format("{}: {}: only the conductor chooses between next steps; the {} has exactly one", file,
                      field, from));
    }
    w.transitions[from] = targets;
  }
  for (const auto& [name, role] : w.roles) {
    if (!w.transitions.count(name))
      throw ConfigError(
          fmt::format("{}: transitions.{}: missing (every role needs a next step)", file, name));
  }

  const YAML::Node limits = doc["limits"];
  if (!limits.IsDefined() || !limits.IsMap())
    throw ConfigError(
        fmt::format("{}: limits: missing (max_steps, max_repeats, coder_turns, max_reasks)", file));
  only_keys(limits, file, "limits.", {"max_steps", "max_repeats", "coder_turns", "max_reasks"});
  w.limits.max_steps = limit(limits, file, "max_steps", 1);
  w.limits.max_repeats = limit(limits, file, "max_repeats", 1);
  w.limits.coder_turns = limit(limits, file, "coder_turns", 0);
  w.limits.max_reasks = limit(limits, file, "max_reasks", 0);
  return w;
}

Workflow Workflow::load_file(const std::string& path) {
  return parse(read_text(path, "workflow"), path);
}

Workflow Workflow::load(const std::string& name) {
  const auto path = root() / "agent" / "workflows" / (name + ".yaml");
  if (name.empty() || name.find('/') != std::string::npos || !std::filesystem::is_regular_file(path)) {
    throw ConfigError(
        fmt::format("unknown workflow '{}' (available: {})", name, fmt::join(available(), ", ")));
  }
  return load_file(path.string());
}

std::vector<std::string> Workflow::available() {
  std::vector<std::string> names;
  std::error_code ec;
  for (const auto& entry : std::filesystem::directory_iterator(root() / "agent" / "workflows", ec)) {
    if (entry.path().extension() == ".yaml") names.push_back(entry.path().stem().string());
  }
  std::sort(names.begin(), names.end());
  return names;
}

RunProviderSettings RunProviderSettings::load(const std::string& yaml_file) {
  return parse(read_text(yaml_file, "provider settings"), yaml_file);
}

RunProviderSettings RunProviderSettings::parse(const std::string& yaml_text, const std::string& yaml_file) {
  YAML::Node root = load_yaml(yaml_text, yaml_file);
  RunProviderSettings out;
  // The documentation level is the run's, not the provider's: taken out before the provider fields are read.
  if (root.IsMap() && root["docs"].IsDefined()) {
    const YAML::Node docs = root["docs"];
    try {
      if (!docs.IsScalar()) throw std::invalid_argument("expected one of isa, guide, full");
      out.docs = parse_docs_level(docs.Scalar());
    } catch (const std::invalid_argument& e) {
      throw ConfigError(fmt::format("{}: docs: {}", yaml_file, e.what()));
    }
    root.remove("docs");
  }
  if (!root.IsMap() || !root["roles"].IsDefined()) {
    YAML::Emitter top;
    top << root;
    out.run = ProviderSettings::parse(out.docs ? std::string(top.c_str()) : yaml_text, yaml_file);
    return out;
  }
  const YAML::Node roles = YAML::Clone(root["roles"]);
  root.remove("roles");
  YAML::Emitter top;
  top << root;
  out.run = ProviderSettings::parse(top.c_str(), yaml_file);
  if (roles.IsNull()) return out;
  if (!roles.IsMap())
    throw ConfigError(fmt::format("{}: roles: expected a mapping of role -> settings", yaml_file));
  for (const auto& kv : roles) {
    const std::string name = kv.first.Scalar();
    const auto kind = role_from_name(name);
    if (!kind)
      throw ConfigError(
          fmt::format("{}: roles.{}: unknown role (the roles are {})", yaml_file, name, role_list()));
    if (*kind == RoleKind::kVerifier)
      throw ConfigError(
          fmt::format("{}: roles.verifier: the verifier is kcraft itself and calls no model", yaml_file));
    if (!kv.second.IsMap())
      throw ConfigError(
          fmt::format("{}: roles.{}: expected a mapping of provider settings", yaml_file, name));
    if (kv.second["docs"].IsDefined()) {
      throw ConfigError(
          fmt::format("{}: roles.{}.docs: the documentation level is the run's; set `docs:` at the top level",
                      yaml_file, name));
    }
    YAML::Node merged = YAML::Clone(root);
    RoleOverride role;
    for (const auto& field : kv.second) {
      merged[field.first.Scalar()] = field.second;
      role.given.push_back(field.first.Scalar());
    }
    YAML::Emitter text;
    text << merged;
    role.settings = ProviderSettings::parse(text.c_str(), yaml_file + ": roles." + name);
    out.roles[name] = role;
  }
  return out;
}

ProviderSettings RunProviderSettings::for_role(const std::string& role) const {
  auto it = roles.find(role);
  if (it == roles.end()) return run;
  ProviderSettings s = run;
  const ProviderSettings& r = it->second.settings;
  for (const auto& f : it->second.given) {
    if (f == "provider")
      s.provider = r.provider;
    else if (f == "base_url")
      s.base_url = r.base_url;
    else if (f == "model")
      s.model = r.model;
    else if (f == "api_key_env")
      s.api_key_env = r.api_key_env;
    else if (f == "temperature")
      s.temperature = r.temperature;
    else if (f == "max_tokens")
      s.max_tokens = r.max_tokens;
    else if (f == "max_tokens_field")
      s.max_tokens_field = r.max_tokens_field;
    else if (f == "timeout_seconds")
      s.timeout_seconds = r.timeout_seconds;
    else if (f == "connect_timeout_seconds")
      s.connect_timeout_seconds = r.connect_timeout_seconds;
    else if (f == "max_retries")
      s.max_retries = r.max_retries;
    else if (f == "backoff_initial_ms")
      s.backoff_initial_ms = r.backoff_initial_ms;
    else if (f == "backoff_max_ms")
      s.backoff_max_ms = r.backoff_max_ms;
    else if (f == "extra_headers")
      s.extra_headers = r.extra_headers;
    else if (f == "extra_body")
      s.extra_body = r.extra_body;
    else if (f == "prices")
      s.prices = r.prices;
  }
  // The run's prices are for the run's model: a role that names another model without prices of its own
  // has unknown prices (its runs' cost is then unknown, never priced as another model's).
  const auto& given = it->second.given;
  const auto gave = [&given](const char* field) {
    return std::find(given.begin(), given.end(), field) != given.end();
  };
  if (gave("model") && !gave("prices") && s.model != run.model) s.prices.reset();
  return s;
}

}  // namespace kcraft::agent
