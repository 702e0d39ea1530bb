// vliw through the registry, beside systolic: both testbenches share the process's one SystemC design
// (tb/common/sc_run.h), so jobs of the two platforms can alternate in one process (as in a sweep worker).
#include <gtest/gtest.h>

#include <algorithm>
#include <string>

#include "tasks/common/task_spec.h"
#include "tb/common/paths.h"
#include "tb/common/platform.h"

namespace kcraft {
namespace {

EvalReport run_baseline(const std::string& platform_name, const std::string& task,
                        const std::string& config) {
  static const auto tasks = tasks::TaskRegistry::load_directory(task_spec_dir());
  const Platform& p = platform(platform_name);
  const auto cfg = tasks.get(task).resolve(config, p.dtype());
  EvalRequest req;
  req.platform = platform_name;
  req.task = task;
  req.config = config;
  req.source = p.baseline_compiler("default")->generate(cfg, p.layout(cfg)).source;
  return p.evaluate(req, tasks);
}

TEST(VliwRegistry, IsRegisteredAndNotTheDefault) {
  const auto names = platform_names();
  EXPECT_NE(std::find(names.begin(), names.end(), "vliw"), names.end());
  EXPECT_EQ(default_platform_name(), "systolic");
}

TEST(VliwRegistry, JobsOfBothPlatformsAlternateInOneProcess) {
  for (const char* name : {"systolic", "vliw", "systolic", "vliw"}) {
    const EvalReport r = run_baseline(name, "relu", "C2");
    EXPECT_EQ(r.verdict, Verdict::kPass) << name << ": " << r.headline;
    EXPECT_EQ(r.model_check, "agree") << name;
  }
}

}  // namespace
}  // namespace kcraft
