#include "agent/bench/llm_job.h"

#include <stdexcept>

namespace kcraft::bench {

bool llm_agents_available() {
  return true;
}

void check_llm_agent(const std::string& settings_file) {
  const auto settings = agent::ProviderSettings::load(settings_file);
  try {
    agent::make_provider(settings);
  } catch (const agent::ProviderError& e) {
    throw std::invalid_argument(settings_file + ": " + e.what());
  }
}

agent::AgentResult run_llm_job(const agent::TaskContext& context, const JobSpec& job,
                               agent::Transcript& transcript, nlohmann::json& settings_json) {
  const auto settings = agent::ProviderSettings::load(job.settings_file);
  settings_json = settings.to_json();
  settings_json["kind"] = "llm";
  auto provider = agent::make_provider(settings);
  return agent::run_llm_agent(*provider, context, agent::AgentBudget{job.budget, 0}, transcript);
}

}  // namespace kcraft::bench
