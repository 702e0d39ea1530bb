// Shared by the rvv platform's tests: the registered platform, the task registry, evaluation of a kernel.
#pragma once

#include <string>

#include "tasks/common/task_spec.h"
#include "tb/common/evaluation.h"
#include "tb/common/platform.h"

namespace kcraft::rvv::test {

const Platform& rvv();
const tasks::TaskRegistry& registry();

EvalReport evaluate(const std::string& source, const std::string& filename, const std::string& task = "relu",
                    const std::string& config = "C1", uint64_t cycle_cap = 0, bool timeline = false);

}  // namespace kcraft::rvv::test
