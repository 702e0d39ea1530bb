#include "agent/bench/job_spec.h"

namespace kcraft::bench {

using nlohmann::json;

namespace {

// The port with its source: the worker needs the kernel itself.
json port_json(const agent::PortSource& port) {
  if (port.empty()) return nullptr;
  json j = port.to_json();
  j["source"] = port.source;
  return j;
}

}  // namespace

json JobSpec::to_json() const {
  return {{"key", key.to_json()},
          {"level", level},
          {"agent_kind", agent_kind},
          {"settings_file", settings_file},
          {"dev_seed", dev_seed},
          {"budget", budget},
          {"transcript", transcript},
          {"counters", counters},
          {"fault", fault},
          {"library", library},
          {"kernel", kernel},
          {"language", language},
          {"workflow", workflow},
          {"search", search},
          {"docs", docs},
          {"port", port_json(port)},
          {"eval_cache", eval_cache},
          {"compiler_baseline_from_cache", compiler_baseline_from_cache}};
}

JobSpec JobSpec::from_json(const json& j) {
  JobSpec s;
  s.key = RunKey::from_json(j.at("key"));
  s.level = j.value("level", 1);
  s.agent_kind = j.at("agent_kind").get<std::string>();
  s.settings_file = j.value("settings_file", "");
  s.dev_seed = j.value("dev_seed", uint64_t{1});
  s.budget = j.value("budget", 0u);
  s.transcript = j.value("transcript", "");
  s.counters = j.value("counters", true);
  s.fault = j.value("fault", "");
  s.library = j.value("library", "");
  s.kernel = j.value("kernel", "");
  s.language = j.value("language", "");
  s.workflow = j.value("workflow", "single");
  s.search = j.value("search", "");
  s.docs = j.value("docs", "");
  s.eval_cache = j.value("eval_cache", "");
  s.compiler_baseline_from_cache = j.value("compiler_baseline_from_cache", false);
  if (j.contains("port") && j["port"].is_object()) {
    const json& p = j["port"];
    s.port.platform = p.value("platform", "");
    s.port.origin = p.value("origin", "");
    s.port.language = p.value("language", "");
    s.port.source = p.value("source", "");
    s.port.cycles = p.value("cycles", uint64_t{0});
  }
  return s;
}

}  // namespace kcraft::bench
