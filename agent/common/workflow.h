// Workflows as data: which roles take part in an LLM agent run, who may hand over to whom, and the
// limits that bound it (agent/workflows/<name>.yaml; docs/agents.md, "Workflows").
//
// The roles are fixed: the designer writes a platform-neutral plan, the coder writes the kernel with the
// tools, the verifier is kcraft itself (run_eval and profile, no model), and the conductor reads the
// verifier's verdict and the history and decides the next step. `single` is today's loop: the coder
// alone, ending at submit.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "agent/common/tools.h"
#include "agent/providers/provider.h"

namespace kcraft::agent {

inline constexpr const char* kFinish = "finish";  // the pseudo-role a transition ends the run with

enum class RoleKind { kDesigner, kCoder, kVerifier, kConductor };
const char* role_name(RoleKind kind);
std::optional<RoleKind> role_from_name(const std::string& name);

struct WorkflowRole {
  RoleKind kind = RoleKind::kCoder;
  std::string prompt;  // file under agent/prompts/ (the system prompt); empty for the verifier
};

struct WorkflowLimits {
  unsigned max_steps = 0;    // role activations in the whole run (designer, coder, verifier, conductor)
  unsigned max_repeats = 0;  // the conductor's same decision on an unchanged verdict, in a row
  unsigned coder_turns = 0;  // model turns per coder step; 0: until submit or the run's budget
  unsigned max_reasks = 0;   // a malformed plan or conductor reply is asked again this many times
};

struct Workflow {
  std::string name;
  std::string description;
  std::string start;                                            // the first role
  std::map<std::string, WorkflowRole> roles;                    // by role name
  std::map<std::string, std::vector<std::string>> transitions;  // role -> next roles or "finish"
  WorkflowLimits limits;

  bool has(RoleKind kind) const { return roles.count(role_name(kind)) != 0; }
  // Throws kcraft::ConfigError ("<file>: <field>: ...") for anything the engine could not run: an
  // unknown role, a transition to nowhere, a role without transitions, a missing limit, a missing prompt.
  static Workflow parse(const std::string& yaml_text, const std::string& file);
  static Workflow load_file(const std::string& path);
  // agent/workflows/<name>.yaml under the data root; the error lists the workflows that exist.
  static Workflow load(const std::string& name);
  static std::vector<std::string> available();
};

// Provider settings for a run: the run's own and, per role, overrides. In the provider config YAML a
// `roles:` mapping gives a role any of the provider fields; the rest is inherited from the top level:
//   provider: openai
//   base_url: http://127.0.0.1:8000/v1
//   model: qwen2.5-coder-7b           # the run's model (the coder's here)
//   roles:
//     designer: {model: qwen2.5-72b-instruct, temperature: 0.4}
//     conductor: {base_url: http://127.0.0.1:8001/v1, model: llama-3.1-70b}
//   docs: isa                         # the run's documentation level (DocsLevel; not a role's)
struct RunProviderSettings {
  struct RoleOverride {
    ProviderSettings settings;       // the file's top level with the role's fields over it
    std::vector<std::string> given;  // the fields the role set itself
  };
  ProviderSettings run;  // the caller may change it (command-line options) before resolving roles
  std::map<std::string, RoleOverride> roles;  // only roles with settings of their own
  // The file's `docs:` (isa | guide | full); nothing: the command's default (--docs, the sweep's agent).
  std::optional<DocsLevel> docs;

  // The settings a role runs with: `run` with the fields the role gave over it. A role's `prices:` replaces
  // the run's whole; a role that gives another model and no prices has none (they were the run's model's).
  ProviderSettings for_role(const std::string& role) const;

  // Throws kcraft::ConfigError for a broken file or an unknown role under `roles`.
  static RunProviderSettings load(const std::string& yaml_file);
  static RunProviderSettings parse(const std::string& yaml_text, const std::string& yaml_file);
};

}  // namespace kcraft::agent
