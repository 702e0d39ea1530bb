// Seeded task inputs.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "tasks/common/task_spec.h"
#include "tasks/common/tensor.h"

namespace kcraft::tasks {

// One tensor per spec input, in declaration order. Every value is exactly representable in `dtype`; the
// random draws depend only on (seed, task, config, tensor name), so bf16 and fp32 inputs of one seed are
// the same numbers rounded differently, and adding a tensor to a spec does not change the others. A seed
// with kRangeStressSeedBit set draws the task's range-stress set (ResolvedTensor::stress_*).
std::vector<Tensor> make_inputs(const TaskSpec& spec, const std::string& config, uint64_t seed, DType dtype);
std::vector<Tensor> make_inputs(const ResolvedConfig& config, uint64_t seed);

}  // namespace kcraft::tasks
