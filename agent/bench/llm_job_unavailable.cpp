#include <stdexcept>

#include "agent/bench/llm_job.h"

namespace kcraft::bench {

bool llm_agents_available() {
  return false;
}

agent::AgentResult run_llm_job(const agent::TaskContext&, const JobSpec&, agent::Transcript&,
                               nlohmann::json&) {
  throw std::runtime_error(
      "this kcraft was built without the LLM providers (agent/providers): only the offline "
      "agents (baseline, tuner) can run");
}

}  // namespace kcraft::bench
