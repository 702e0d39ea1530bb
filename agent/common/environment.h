// Process-wide data the agent tools share: the platform and the task registry, loaded once from the
// data root (tb/common/paths.h) on first use.
#pragma once

#include "tasks/common/task_spec.h"
#include "tb/systolic/systolic_platform.h"

namespace kcraft::agent {

const systolic::SystolicPlatform& systolic_platform();
const tasks::TaskRegistry& task_registry();

}  // namespace kcraft::agent
