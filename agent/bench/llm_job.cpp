#include "agent/bench/llm_job.h"

#include <memory>
#include <stdexcept>
#include <vector>

#include "agent/bench/pool.h"
#include "agent/common/workflow.h"
#include "agent/search/search.h"

namespace kcraft::bench {

bool llm_agents_available() {
  return true;
}

std::optional<agent::DocsLevel> check_llm_agent(const std::string& settings_file) {
  const auto settings = agent::RunProviderSettings::load(settings_file);
  try {
    agent::make_provider(settings.run);
    for (const auto& [role, unused] : settings.roles) agent::make_provider(settings.for_role(role));
  } catch (const agent::ProviderError& e) {
    throw std::invalid_argument(settings_file + ": " + e.what());
  }
  return settings.docs;
}

agent::AgentResult run_llm_job(const agent::TaskContext& context, const JobSpec& job,
                               agent::Transcript& transcript, nlohmann::json& settings_json) {
  const auto settings = agent::RunProviderSettings::load(job.settings_file);
  if (!job.search.empty()) {
    // A search in a sweep: its candidates go to one worker process of its own (the sweep runs many jobs
    // at once already), with the default operator settings; the job's budget is its model calls.
    agent::search::SearchOptions o;
    o.strategy = agent::search::strategy_from_name(job.search);
    o.max_model_calls = job.budget;
    o.worker_argv = default_worker_argv();
    auto provider = agent::make_provider(settings.run);
    auto out = agent::search::run_search(o, *provider, context, transcript);
    settings_json = settings.run.to_json();
    settings_json["kind"] = "llm";
    settings_json["search"] = out.summary;
    settings_json["search"].erase("strategy_state");  // the tree or islands stay in the transcript
    return out.agent;
  }
  const auto workflow = agent::Workflow::load(job.workflow);
  settings_json = settings.run.to_json();
  settings_json["kind"] = "llm";
  settings_json["workflow"] = workflow.name;
  // Roles with settings of their own get their own provider (as in `kcraft agent`); the others share the
  // run's.
  std::vector<std::unique_ptr<agent::Provider>> owned;
  owned.push_back(agent::make_provider(settings.run));
  agent::RoleProviders providers{owned.front().get(), {}};
  nlohmann::json role_settings = nlohmann::json::object();
  for (const auto& [role, unused] : settings.roles) {
    if (!workflow.roles.count(role)) continue;  // a role this workflow does not have
    owned.push_back(agent::make_provider(settings.for_role(role)));
    providers.roles[role] = owned.back().get();
    role_settings[role] = settings.for_role(role).to_json();
  }
  if (!role_settings.empty()) settings_json["roles"] = role_settings;
  if (!context.port_from.empty()) settings_json["port_from"] = context.port_from.to_json();
  return agent::run_workflow(workflow, providers, context, agent::AgentBudget{job.budget, 0}, transcript);
}

}  // namespace kcraft::bench
