// A platform's baseline compiler: turns a task's shapes into a kernel for the platform, with a few knobs
// (tile sizes, unrolling, double buffering, ...). Its default knobs give the baseline kernel agents are
// measured against; the offline tuner explores the other values. Each platform implements it in its
// tasks/<platform>/ folder and hands it out through Platform::baseline_compiler (tb/common/platform.h).
#pragma once

#include <algorithm>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "tasks/common/layout.h"
#include "tasks/common/task_spec.h"

namespace kcraft::tasks {

struct Knob {
  std::string name;
  std::string description;
  int64_t baseline = 0;             // the value the baseline kernel uses
  std::vector<int64_t> candidates;  // values the tuner may try (baseline included)
};

using KnobValues = std::map<std::string, int64_t>;

struct GeneratedKernel {
  std::string source;    // kernel text
  KnobValues knobs;      // every knob, as used (after clamping to what the shapes allow)
  std::string summary;   // one line: the strategy in words
  std::string language;  // its KernelLanguage::name (tb/common/platform.h); "" = the platform's default
};

class BaselineCompiler {
 public:
  virtual ~BaselineCompiler() = default;

  // Tasks it has a kernel template for.
  virtual std::vector<std::string> supported_tasks() const = 0;
  bool supports(const std::string& task) const {
    const auto tasks = supported_tasks();
    return std::find(tasks.begin(), tasks.end(), task) != tasks.end();
  }

  // Empty when it can compile the configuration; otherwise why not (shapes vs. the hardware's limits).
  virtual std::string unsupported_reason(const ResolvedConfig& cfg) const = 0;

  // The knob space of the configuration's template. Throws std::invalid_argument for an unsupported task.
  virtual std::vector<Knob> knobs(const ResolvedConfig& cfg) const = 0;

  // Missing knobs take their baseline value; values outside what the shapes allow are clamped to the
  // nearest legal one. Throws std::invalid_argument for an unsupported task or configuration.
  virtual GeneratedKernel generate(const ResolvedConfig& cfg, const DramLayout& layout,
                                   const KnobValues& knobs) const = 0;
  GeneratedKernel generate(const ResolvedConfig& cfg, const DramLayout& layout) const {
    return generate(cfg, layout, KnobValues{});
  }

  // A second reference, for platforms whose users also have a standard compiler: what it makes of the
  // task's plain reference code (KernelCraft's "RVV -O2" for its RISC-V platform). Benchmarks report the
  // speedup over it beside the speedup over the template. Its name in tables ("" = the platform has none,
  // the default), and its kernel for a configuration the template supports (an empty source = none).
  // The tuner never sees it: it has no knobs.
  virtual std::string compiler_baseline_name() const { return ""; }
  virtual GeneratedKernel compiler_baseline(const ResolvedConfig& /*cfg*/,
                                            const DramLayout& /*layout*/) const {
    return {};
  }
};

}  // namespace kcraft::tasks
