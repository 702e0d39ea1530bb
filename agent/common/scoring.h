// Scoring a submitted kernel: the verdict that counts is the one on inputs the agent never saw.
//
// run_eval uses the development seed; the score re-runs the kernel on hidden seeds derived from the
// task and configuration (never equal to the development seed); tasks with a range-stress input set
// (TaskSpec::range_stress) get a third hidden seed that draws it. A kernel that hard-codes outputs or
// reads nothing from its inputs passes the development seed at best and fails here. Speed is measured
// on the first hidden seed against the template compiler's baseline kernel on the same inputs, and against
// the platform's compiler baseline where it has one.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "agent/common/tools.h"
#include "tasks/common/baseline_compiler.h"

namespace kcraft::agent {

struct SeedVerdict {
  uint64_t seed = 0;
  Verdict verdict = Verdict::kInputError;
  std::string headline;
};

struct Score {
  Verdict verdict = Verdict::kInputError;  // pass only if every hidden seed passes
  std::vector<SeedVerdict> seeds;
  uint64_t cycles = 0;           // on the first hidden seed
  uint64_t baseline_cycles = 0;  // the baseline kernel on the same seed (0: no baseline)
  double speedup = 0;            // baseline_cycles / cycles for a passing kernel, else 0
  // The platform's compiler baseline (BaselineCompiler::compiler_baseline) on the same seed, for a passing
  // kernel; 0: the platform has none, or it failed.
  uint64_t compiler_baseline_cycles = 0;
  double compiler_speedup = 0;  // compiler_baseline_cycles / cycles, else 0
  // The platform has a compiler baseline for the cell but it was not simulated: the policy was
  // CompilerBaselinePolicy::kCacheOnly and the evaluation cache did not have it.
  bool compiler_baseline_not_simulated = false;
  double utilization = 0;
  // The performance counters of the first hidden seed's run (name, value), in the platform's order.
  std::vector<std::pair<std::string, uint64_t>> counters;
  // Its cycles per phase, for tasks that declare phases (EvalReport::phases); empty otherwise.
  std::vector<PhaseCycles> phases;
  uint64_t unmarked_cycles = 0;
  nlohmann::json phases_json() const;  // {} without phases, else {"unmarked_cycles", "phases": [...]}
  // The autotuned baseline (the offline tuner's best kernel, same seed), when the caller looked it up:
  // scoring itself never runs the tuner. 0: the tuner found no correct kernel.
  std::optional<uint64_t> tuned_baseline_cycles;
  double tuned_speedup = 0;  // tuned_baseline_cycles / cycles for a passing kernel, else 0

  void set_tuned_baseline(uint64_t cycles);
  // tuned_* fields only when the tuned baseline was looked up, compiler_* only when there is one.
  nlohmann::json to_json() const;
};

std::vector<uint64_t> hidden_seeds(const TaskContext& context);
// `language`: the kernel's (KernelLanguage::name); "" = the platform's default.
Score score_kernel(const TaskContext& context, const std::string& code, const std::string& language = "");
// The template compiler's kernel for the context (source; language as KernelLanguage::name), or an empty
// source when the platform has none for the task and configuration.
tasks::GeneratedKernel baseline_kernel(const TaskContext& context);
// Cycles of the template compiler's baseline on `seed` (cached per process; 0 if there is none or it fails).
uint64_t baseline_cycles(const TaskContext& context, uint64_t seed);
// The platform's compiler baseline: its name in tables ("" = none) and its cycles on `seed` (cached per
// process, and in the evaluation cache like any evaluation; 0 if there is none or it fails).
std::string compiler_baseline_name(const std::string& platform, const std::string& hw_config);
uint64_t compiler_baseline_cycles(const TaskContext& context, uint64_t seed);

// Whether scoring simulates the compiler baseline when the evaluation cache does not have it. A sweep
// sets kCacheOnly for the cells whose compiler baseline is too slow to simulate in every sweep (`kcraft
// bench --compiler-baseline`, docs/bench.md): their cycles come from the store's evaluation cache, filled
// once per model build by a sweep with `--compiler-baseline all`. Process-wide; kSimulate by default.
enum class CompilerBaselinePolicy { kSimulate, kCacheOnly };
void set_compiler_baseline_policy(CompilerBaselinePolicy policy);
CompilerBaselinePolicy compiler_baseline_policy();
// The compiler baseline's cycles on `seed` under the policy: nullopt when the policy is kCacheOnly and
// neither this process nor the evaluation cache has them; 0 when the platform has none or it fails.
std::optional<uint64_t> find_compiler_baseline_cycles(const TaskContext& context, uint64_t seed);

}  // namespace kcraft::agent
