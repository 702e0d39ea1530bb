// The offline tuner agent (`--agent tuner`): no network, no model. It drives the same tools an LLM
// would (write_code, run_eval, submit) to explore the template compiler's knobs for the task — tile
// sizes, unrolling, double buffering, accumulators — by coordinate descent from the baseline, and
// submits the fastest kernel that passed. It starts from the baseline and only moves to faster passing
// kernels, so it never returns one slower than the baseline. One iteration is one candidate kernel.
#pragma once

#include "agent/common/agent_run.h"

namespace kcraft::agent {

AgentResult run_tuner(const TaskContext& context, const AgentBudget& budget, Transcript& transcript);

}  // namespace kcraft::agent
