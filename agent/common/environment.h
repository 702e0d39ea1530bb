// Process-wide data the agent tools share: the task registry, loaded once from the data root
// (tb/common/paths.h) on first use. Platforms come from the platform registry (tb/common/platform.h).
#pragma once

#include "tasks/common/task_spec.h"
#include "tb/common/platform.h"

namespace kcraft::agent {

const tasks::TaskRegistry& task_registry();

}  // namespace kcraft::agent
