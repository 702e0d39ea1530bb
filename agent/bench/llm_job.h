// The LLM agent in a bench worker. llm_job.cpp runs it through agent/providers; builds without the
// providers library compile llm_job_unavailable.cpp instead, which refuses LLM agents clearly.
#pragma once

#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include "agent/bench/job_spec.h"
#include "agent/common/agent_run.h"

namespace kcraft::bench {

// Whether this kcraft was built with the LLM providers (agent/providers).
bool llm_agents_available();

// Before a sweep: the settings file loads and a provider can be made from it (the key's variable is
// set). Returns the file's documentation level (`docs:`), if it names one. Throws kcraft::ConfigError or
// std::invalid_argument saying what is wrong.
std::optional<agent::DocsLevel> check_llm_agent(const std::string& settings_file);

// Runs the LLM agent the job's settings file describes; `settings` receives the settings (never the key).
agent::AgentResult run_llm_job(const agent::TaskContext& context, const JobSpec& job,
                               agent::Transcript& transcript, nlohmann::json& settings);

}  // namespace kcraft::bench
