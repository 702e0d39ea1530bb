// The offline tuner agent (`--agent tuner`): no network, no model. It drives the same tools an LLM
// would (write_code, run_eval, submit) to explore the template compiler's knobs for the task — tile
// sizes, unrolling, double buffering, accumulators — by coordinate descent from the baseline, and
// submits the fastest kernel that passed. It starts from the baseline and only moves to faster passing
// kernels, so it never returns one slower than the baseline. One iteration is one candidate kernel.
#pragma once

#include "agent/common/agent_run.h"

namespace kcraft::agent {

AgentResult run_tuner(const TaskContext& context, const AgentBudget& budget, Transcript& transcript);

// The baseline agent (`kcraft bench --agents baseline`): submits the template compiler's kernel as it is,
// without a development run (a fixed kernel learns nothing from one; scoring runs it on the hidden seeds).
// Status no_kernel when the template compiler has none for the context.
AgentResult run_baseline(const TaskContext& context, Transcript& transcript);

// The tuned baseline is one fixed tuner run per (hardware configuration, task, configuration): the
// default budget (by level) on this development seed, so that it does not depend on a sweep's settings.
inline constexpr uint64_t kTunedBaselineDevSeed = 1;

// Identifies what a tuned-baseline run explores: 16 hex digits hashing the tuner's version, its budget
// and development seed, the template's knobs with their candidates and baseline values, and the baseline
// kernel. Empty when the template compiler has no kernel for the context (then there is no tuned
// baseline). Cheap: generates one kernel, simulates nothing.
std::string tuner_search_space_id(const TaskContext& context);

}  // namespace kcraft::agent
