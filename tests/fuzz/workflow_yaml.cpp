// Fuzzes the workflow loader (agent/common/workflow.cpp): `kcraft agent --workflow NAME` reads
// agent/workflows/NAME.yaml, which users copy and edit to make their own workflows.
//
// Any text must load or throw ConfigError. A workflow that loads must be one the engine can run: its start
// is a role, every role has transitions, every transition leads to a role or to finish, and the step and
// repeat limits are set.
#include <cstddef>
#include <cstdint>
#include <string>

#include "agent/common/workflow.h"
#include "isa/common/hw_config.h"
#include "tests/fuzz/fuzz_support.h"

using namespace kcraft;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  agent::Workflow w;
  if (!fuzz::expect_errors<ConfigError>("Workflow::parse",
                                        [&] { w = agent::Workflow::parse(fuzz::text_of(data, size), "fuzz.yaml"); })) {
    return 0;
  }
  fuzz::check(w.roles.count(w.start) == 1, "the start is not a role of the workflow");
  for (const auto& [name, role] : w.roles) {
    fuzz::check(agent::role_from_name(name).has_value(), "a role name the engine does not know");
    fuzz::check(agent::role_name(role.kind) == name, "a role filed under another role's name");
    const auto next = w.transitions.find(name);
    fuzz::check(next != w.transitions.end() && !next->second.empty(), "a role without transitions");
    for (const auto& target : next->second) {
      fuzz::check(target == agent::kFinish || w.roles.count(target) == 1, "a transition to nowhere");
    }
  }
  for (const auto& [from, targets] : w.transitions) {
    fuzz::check(w.roles.count(from) == 1, "transitions from a role the workflow does not have");
  }
  fuzz::check(w.limits.max_steps > 0 && w.limits.max_repeats > 0, "a workflow without step or repeat limits");
  return 0;
}
