// The task exactly as an agent (or `kcraft task show`) sees it.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

#include "tasks/common/layout.h"
#include "tasks/common/task_spec.h"

namespace kcraft::tasks {

// Description, dims, params, dtype, inputs/outputs with shapes, the DRAM layout with addresses, what may be
// written, the tolerance and the work (FLOPs, complexity).
std::string render_task(const TaskSpec& spec, const std::string& config, DType dtype,
                        const DramLayout& layout);

// The same information as JSON (for --json), and a one-entry-per-task summary for `kcraft tasks`.
nlohmann::json task_to_json(const TaskSpec& spec, const std::string& config, DType dtype,
                            const DramLayout& layout);
nlohmann::json task_summary_json(const TaskSpec& spec);
// {"dist": "normal", "mean": .., "std": ..} / {"dist": "uniform", "lo": .., "hi": ..} / {"dist": "constant",
// "value": ..}
nlohmann::json init_to_json(const ResolvedTensor& tensor);

}  // namespace kcraft::tasks
