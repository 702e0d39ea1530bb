// Fuzzes the task YAML loader (tasks/common/task_spec.cpp and the expressions in it): tasks are data, and
// anyone adding a task writes one of these files.
//
// Any text must load or throw TaskSpecError (naming the file and field). The loader promises that a spec
// that loads can be used for every (config, dtype): each must resolve without throwing, lay out in DRAM,
// render as the agent sees it and as JSON. For small configurations the whole data path runs too: seeded
// inputs (the ordinary and the range-stress set), the golden reference (which must reject shapes it cannot
// handle with GoldenError, never read out of bounds), the DRAM image and reading the outputs back.
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <string>

#include "tasks/common/inputs.h"
#include "tasks/common/layout.h"
#include "tasks/common/render.h"
#include "tasks/common/task_spec.h"
#include "tasks/golden/golden.h"
#include "tests/fuzz/fuzz_support.h"

using namespace kcraft;

namespace {

// Element and flop counts up to which the inputs and the reference are computed (a few ms at most).
constexpr int64_t kMaxElements = 1 << 14;
constexpr double kMaxFlops = 1e6;

void exercise(const tasks::TaskSpec& spec, const std::string& config, tasks::DType dtype) {
  const tasks::ResolvedConfig resolved = spec.resolve(config, dtype);
  const tasks::DramLayout layout = tasks::compute_layout(resolved);
  (void)tasks::render_task(spec, config, dtype, layout);
  (void)tasks::task_to_json(spec, config, dtype, layout).dump();
  (void)tasks::format_layout(layout);

  int64_t elements = 0;
  for (const auto& t : resolved.inputs) elements += t.elements;
  for (const auto& t : resolved.outputs) elements += t.elements;
  if (elements > kMaxElements || !(resolved.flops <= kMaxFlops)) return;
  const auto inputs = tasks::make_inputs(resolved, 1);
  for (const auto& set : {inputs, tasks::make_inputs(resolved, tasks::range_stress_seed(1))}) {
    try {
      (void)tasks::compute_reference(resolved, spec.golden, set);
    } catch (const tasks::GoldenError&) {
      // The reference refused these shapes with a message: what it should do.
    }
  }
  const auto image = tasks::make_dram_image(layout, inputs);
  (void)tasks::read_outputs(layout, image);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  tasks::TaskSpec spec;
  const bool loaded = fuzz::expect_errors<tasks::TaskSpecError>(
      "parse_task", [&] { spec = tasks::parse_task(fuzz::text_of(data, size), "fuzz.yaml"); });
  if (!loaded) return 0;

  (void)tasks::task_summary_json(spec).dump();
  for (const std::string& config : spec.config_names()) {
    for (tasks::DType dtype : {tasks::DType::bf16, tasks::DType::fp32}) {
      try {
        exercise(spec, config, dtype);
      } catch (const std::exception& e) {
        fuzz::fail_unexpected(e, "a spec that loaded, config " + config);
      }
    }
  }
  return 0;
}
