#include "agent/bench/llm_job.h"

namespace kcraft::bench {

bool llm_agents_available() {
  return true;
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
