// Running an agent on one task: the LLM agent loop (over a Provider) and the shared result record.
//
// One *iteration* is one model turn (one call to the provider), whatever tools it calls; the budget per
// task level is 15 / 20 / 25 iterations by default (KernelCraft's). A run stops when the model calls
// submit, when the budget or the token cap is used up, or when the provider fails for good; whatever
// kernel is saved at that point is scored on hidden inputs (scoring.h).
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include "agent/common/scoring.h"
#include "agent/common/tools.h"
#include "agent/common/transcript.h"
#include "agent/providers/provider.h"

namespace kcraft::agent {

struct AgentBudget {
  unsigned max_iterations = 0;  // 0: by task level (15 / 20 / 25)
  uint64_t max_tokens = 0;      // 0: no cap; prompt + completion tokens over the whole run
};

unsigned default_iterations(int level);

// Where the autotuned baseline a result is compared with came from (filled in by `kcraft agent`).
struct TunedBaselineInfo {
  std::string origin;  // this_run | cached | computed | unavailable
  std::string detail;  // for humans: which run, which store, how long it took; or why it is unavailable
  std::string store;   // the results store that holds it
  nlohmann::json record = nlohmann::json::object();  // the stored tuned baseline (without its kernel)
  nlohmann::json to_json() const {
    return {{"origin", origin}, {"detail", detail}, {"store", store}, {"record", record}};
  }
};

// What one role of a workflow used: its steps, model calls and tokens (the verifier's evaluations are the
// run's `evaluations`).
struct RoleUsage {
  unsigned steps = 0;
  unsigned calls = 0;
  Usage tokens;
};

struct AgentResult {
  std::string agent;     // "tuner", "llm:<provider>/<model>", "llm:<provider>/<model>@<workflow>"
  std::string workflow;  // the LLM agent's workflow ("" for the tuner)
  TaskContext context;
  // submitted | budget_exhausted | token_cap | provider_error | no_kernel, and for workflows step_limit |
  // repeat_limit | malformed_plan | conductor_error
  std::string status;
  std::string error;  // why it stopped early (provider error text, never a key)
  std::string final_code;
  std::string final_language;  // final_code's KernelLanguage::name ("" = the platform's default)
  unsigned iterations = 0;
  unsigned budget = 0;
  std::optional<unsigned> first_valid_iteration;  // first turn that produced a kernel that assembles
  std::optional<unsigned> first_pass_iteration;   // first turn whose run_eval passed
  unsigned evaluations = 0;
  unsigned scored_cell_examples = 0;  // library examples of the scored cell shown (only when allowed)
  Usage tokens;
  unsigned steps = 0;                      // workflow steps taken (role activations)
  std::map<std::string, RoleUsage> roles;  // per role of the workflow
  double wall_seconds = 0;
  Score score;                                      // on hidden inputs: this is the result that counts
  std::optional<TunedBaselineInfo> tuned_baseline;  // with score.tuned_baseline_cycles when known

  nlohmann::json to_json() const;
  std::string summary() const;  // one paragraph for the terminal
};

// Renders the prompt templates (agent/prompts/*.md under the data root).
std::string system_prompt(const TaskContext& context, unsigned budget);
// Any template: {{platform}}, {{budget}}, {{languages}}, {{hardware}}, {{platform_guide}},
// {{isa_reference}}, {{task}}, then `extra` (e.g. {{choices}}).
std::string render_prompt(const std::string& template_name, const TaskContext& context, unsigned budget,
                          const std::vector<std::pair<std::string, std::string>>& extra = {});
std::string user_prompt(const TaskContext& context);
// For a composite task (TaskSpec::composed_of): a line pointing at the parts' docs and, when the run has a
// kernel library, at their passing kernels there. Empty for other tasks.
std::string composition_hint(const TaskContext& context);
nlohmann::json usage_json(const Usage& usage);

// Updates first_valid_iteration / first_pass_iteration from a tool result of turn `iteration`.
void record_progress(AgentResult& result, unsigned iteration, const std::string& tool,
                     const ToolResult& tool_result);
// Scores result.final_code, fills result.score and writes the score and run_end events.
void finish_run(AgentResult& result, Transcript& transcript);

// Porting (`kcraft agent --port-from PLATFORM:KERNEL_FILE`, the sweep's `port:` agents): a kernel of the
// same task that passes on another platform, read from a file. Throws std::invalid_argument when the
// platform is unknown or the run's own, the file cannot be read, is empty, or its extension is none of
// that platform's kernel languages.
PortSource load_port_source(const std::string& platform, const std::string& file,
                            const std::string& run_platform);
// Parses "PLATFORM:KERNEL_FILE" (the --port-from value) and loads it as above.
PortSource parse_port_from(const std::string& text, const std::string& run_platform);
// What the designer and the coder (or `single`'s user prompt) are given to port from: the kernel's
// platform, language and source, and the section names of that platform's guide. Empty without porting.
std::string port_prompt(const TaskContext& context);

struct Workflow;

// Which provider each role talks to: its own, else the run's.
struct RoleProviders {
  Provider* run = nullptr;
  std::map<std::string, Provider*> roles;
  Provider& for_role(const std::string& role) const;
};

// One LLM agent run as a workflow of roles (agent/common/workflow.h). Every model call of every role is
// one iteration of the budget; the token cap counts all roles' tokens.
AgentResult run_workflow(const Workflow& workflow, const RoleProviders& providers, const TaskContext& context,
                         const AgentBudget& budget, Transcript& transcript);
// The `single` workflow: one model with the tools until it submits (KernelCraft's loop).
AgentResult run_llm_agent(Provider& provider, const TaskContext& context, const AgentBudget& budget,
                          Transcript& transcript);

}  // namespace kcraft::agent
