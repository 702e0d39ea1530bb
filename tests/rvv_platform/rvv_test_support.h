// Shared by the rvv platform's tests: the registered platform, the task registry, evaluation of a kernel,
// and whether the linked RTL's vector unit runs crt0's vector instructions.
#pragma once

#include <string>

#include "tasks/common/task_spec.h"
#include "tb/common/evaluation.h"
#include "tb/common/platform.h"

namespace kcraft::rvv::test {

const Platform& rvv();
const tasks::TaskRegistry& registry();

// Whether the linked vector unit is still the placeholder that rejects every vector instruction (then
// crt0's vmv.v.i stops every program on the RTL).
bool vector_unit_is_placeholder();

// While the unit is the placeholder, evaluations of scalar kernels run with crt0's vmv.v.i replaced by
// nops on the RTL (QEMU runs the program as built): set for the life of the object.
class ScalarProgramsOnPlaceholder {
 public:
  ScalarProgramsOnPlaceholder();
  ~ScalarProgramsOnPlaceholder();
  ScalarProgramsOnPlaceholder(const ScalarProgramsOnPlaceholder&) = delete;
  ScalarProgramsOnPlaceholder& operator=(const ScalarProgramsOnPlaceholder&) = delete;
};

EvalReport evaluate(const std::string& source, const std::string& filename, const std::string& task = "relu",
                    const std::string& config = "C1", uint64_t cycle_cap = 0, bool timeline = false);

}  // namespace kcraft::rvv::test
