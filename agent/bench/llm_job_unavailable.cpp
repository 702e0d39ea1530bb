#include <stdexcept>

#include "agent/bench/llm_job.h"

namespace kcraft::bench {

bool llm_agents_available() {
  return false;
}

std::optional<agent::DocsLevel> check_llm_agent(const std::string& settings_file) {
  throw std::invalid_argument(settings_file + ": this kcraft was built without the LLM providers");
}

agent::AgentResult run_llm_job(const agent::TaskContext&, const JobSpec&, agent::Transcript&,
                               nlohmann::json&) {
  throw std::runtime_error(
      "this kcraft was built without the LLM providers (agent/providers): only the offline "
      "agents (baseline, tuner) can run");
}

}  // namespace kcraft::bench
