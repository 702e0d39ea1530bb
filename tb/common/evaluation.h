// Evaluating a kernel: the request, the verdict and everything a kernel writer needs to act on it.
//
// Platform-independent; each platform's evaluate() (tb/common/platform.h) fills it in.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "tasks/common/compare.h"
#include "tb/common/dram_model.h"
#include "tb/common/timeline.h"

namespace kcraft {

enum class Verdict {
  kPass,          // every output element within tolerance
  kMismatch,      // ran to completion, outputs wrong
  kBuildError,    // assembly/compilation failed
  kRuntimeError,  // illegal instruction, out-of-range access, forbidden DRAM write
  kTimeout,       // cycle cap reached
  kHardwareBug,   // the RTL and the functional model disagree: not the kernel's fault
  kInputError,    // the request itself is wrong (unknown task/config, unsupported shape, ...)
};
const char* verdict_name(Verdict v);
// The inverse of verdict_name; throws std::invalid_argument("unknown verdict 'x'").
Verdict verdict_from_name(const std::string& name);
// Exit code of `kcraft eval`: 0 pass, 1 the kernel failed, 2 usage or input error, 3 hardware bug.
int verdict_exit_code(Verdict v);

struct EvalRequest {
  std::string platform;  // the registered platform the caller asks to evaluate it (tb/common/platform.h)
  std::string hw_config = "default";
  std::string task;
  std::string config = "C1";
  uint64_t seed = 1;
  std::string source;  // kernel text
  std::string filename = "kernel.s";
  uint64_t cycle_cap = 0;  // 0: the platform's default
  // A ceiling on the cap, whichever it is (0: none): a shared server (kcraft serve --max-cycles) bounds
  // every run without knowing each task's default cap. It enters the evaluation cache key only when set,
  // so the keys of runs without it stay what they were.
  uint64_t max_cycles = 0;
  std::string waveform_path;
  bool instruction_trace = false;
  bool timeline = false;    // record the per-cycle timeline of the run (EvalReport::timeline)
  bool check_model = true;  // also run the functional model and compare everything
};

// The cycle cap a run gets: the request's cap (or the platform's default when it names none), lowered to
// the request's ceiling when it has one.
inline uint64_t effective_cycle_cap(const EvalRequest& request, uint64_t platform_default) {
  const uint64_t cap = request.cycle_cap != 0 ? request.cycle_cap : platform_default;
  return request.max_cycles != 0 && request.max_cycles < cap ? request.max_cycles : cap;
}

struct CounterValue {
  std::string name;
  uint64_t value = 0;
};

// Lower bounds on cycles from the work the task must do, and what bounds them.
struct IdealCycles {
  // The roofline: every unit at its peak, all of them overlapped, no latency.
  double dram = 0;    // minimum bytes (inputs once, outputs once) / DRAM bandwidth
  double matrix = 0;  // matrix MACs / MACs per cycle
  double vector = 0;  // remaining flops / (2 flops x lanes): the vector unit's fused peak
  double total() const;
  const char* bound() const;  // "dram", "matrix" or "vector"

  // The attainable bound: the roofline plus the floors the ISA imposes on every correct kernel (for the
  // matrix unit a weight load and an array drain per weight tile besides streaming, for the vector unit
  // the instructions each row needs, DRAM latency before the first and after the last computation).
  // Still a lower bound; 0 when the platform computes none.
  double attainable = 0;
  std::string attainable_bound;  // the resource whose floor it is
  std::string attainable_why;    // how it is made up, one line
};

// "ideal 16384 cycles = 71.6% of the 22884 taken": the one wording and rounding every report uses.
std::string share_of_cycles(const char* what, double bound_cycles, uint64_t cycles);

// Cycles of one phase of a composite kernel (TaskSpec::phases), from the markers the kernel wrote.
struct PhaseCycles {
  std::string name;
  uint64_t cycles = 0;
  unsigned marks = 0;  // times the kernel entered the phase
};

// Splits `total_cycles` by phase: each mark switches to its phase at its cycle; what comes before the
// first mark is returned in `unmarked`. `phases` holds the names (cycles and marks are overwritten).
void split_cycles_by_phase(std::vector<PhaseCycles>& phases, const std::vector<tb::PhaseMark>& marks,
                           uint64_t total_cycles, uint64_t& unmarked);

struct EvalReport {
  Verdict verdict = Verdict::kInputError;
  std::string headline;  // one line, e.g. "pass: 1234 cycles, 87% of ideal"
  std::string platform, hw_config, task, config;
  uint64_t seed = 0;

  // build
  std::string diagnostics;  // compiler-style text, empty when clean
  size_t errors = 0, warnings = 0;
  size_t instruction_count = 0;

  // run
  uint64_t cycles = 0;
  std::vector<CounterValue> counters;
  IdealCycles ideal;
  double utilization = 0;             // ideal.total() / cycles (the roofline's share)
  double attainable_utilization = 0;  // ideal.attainable / cycles
  std::string runtime_error;          // what went wrong, with PC and instruction
  std::optional<uint32_t> error_pc;
  std::string hang;         // timeout report
  std::string model_check;  // "agree" / what differs / "skipped: ..."

  // outputs
  std::optional<tasks::TaskCompareResult> compare;

  // phases, for tasks that declare them: filled from the kernel's markers (all 0 when it wrote none)
  std::vector<PhaseCycles> phases;
  uint64_t unmarked_cycles = 0;                  // before the first marker
  std::vector<std::string> trace;                // instruction trace lines when requested
  std::shared_ptr<const tb::Timeline> timeline;  // when requested and the kernel ran

  double wall_seconds = 0;

  // Set by the platform: false when the result depends on more than the request (an external tool's
  // wall-clock timeout, a tool that could not start), so the evaluation cache must not keep it.
  bool cacheable = true;
  // What the evaluation cache did (agent/common/eval_cache.h): "hit" (this result is a stored one, nothing
  // was simulated), "miss" (simulated and stored), or "" (no cache was used).
  std::string cache;

  nlohmann::json to_json() const;
  std::string to_text() const;
  std::string format_phases() const;  // the phase table of to_text()
};

}  // namespace kcraft
