// A benchmark sweep: plan the runs, skip those the results store already has, run the rest in worker
// processes, and store each result the moment it arrives. Killing the sweep at any point loses at most
// the runs in flight; running it again finishes the rest.
#pragma once

#include <filesystem>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "agent/bench/plan.h"
#include "agent/bench/progress.h"
#include "agent/bench/run_record.h"
#include "agent/common/tools.h"
#include "agent/library/kernel_table.h"

namespace kcraft::bench {

// Tests only: make the jobs whose key id contains `pattern` fail the way `kind` says (worker.h).
struct FaultInjection {
  std::string kind;
  std::string pattern;
  static FaultInjection parse(const std::string& text);  // "KIND:PATTERN"
};

// Which cells of a sweep get a tuned baseline computed by an extra tuner job when neither the store nor
// one of the sweep's own tuner runs provides it (tuned_baseline.h):
//   auto  cells with an LLM agent's run (the offline agents are the references themselves)
//   all   every cell
//   none  no extra jobs: only stored tuned baselines and the sweep's tuner runs are used
enum class TunedBaselineMode { kAuto, kAll, kNone };
TunedBaselineMode parse_tuned_baseline_mode(const std::string& text);  // throws std::invalid_argument

// Which runs simulate their compiler baseline (agent/common/scoring.h) when the evaluation cache does not
// have it; the others take it from the cache or go without ("not simulated" in the tables):
//   auto    runs of the quick sweep's configurations (C1, C2); beyond them a compiler baseline can take
//           minutes per cell (a scalar reference at hundreds of millions of cycles), so it is simulated
//           once per model build by a sweep with `all` and comes from the evaluation cache after that
//   all     every run
//   cached  none: only what the evaluation cache has
enum class CompilerBaselineMode { kAuto, kAll, kCached };
CompilerBaselineMode parse_compiler_baseline_mode(const std::string& text);  // throws std::invalid_argument
bool simulates_compiler_baseline(CompilerBaselineMode mode, const std::string& config);

struct SweepOptions {
  SweepFilters filters;
  unsigned jobs = 1;
  std::filesystem::path db = "results/kcraft.db";
  std::string transcripts;  // directory; empty: <db directory>/transcripts; "none": keep none
  uint64_t seed = 1;        // development seed (what run_eval uses); scoring uses hidden seeds
  unsigned budget = 0;      // iterations per run; 0: by level (15/20/25); the baseline always runs one
  double job_timeout_seconds = 3600;
  bool retry_errors = false;  // run again the runs stored with status "error"
  bool counters = true;       // performance counters of correct kernels (one more simulation each)
  // Evaluations go through the store's evaluation cache (agent/common/eval_cache.h): a kernel evaluated
  // before on the same task, configuration, seed, hardware and model build is not simulated again.
  bool eval_cache = true;
  // LLM agents may retrieve passing kernels of other cells from the store's kernel library (find_examples;
  // never the scored cell). Off by default: what is retrievable then depends on what finished first. It is
  // the documentation level of the LLM agents that name none (`full` with it, `guide` without; plan.h).
  bool library_examples = false;
  TunedBaselineMode tuned_baselines = TunedBaselineMode::kAuto;
  CompilerBaselineMode compiler_baselines = CompilerBaselineMode::kAuto;
  std::vector<FaultInjection> faults;
  std::string command_line;
  std::vector<std::string> worker_argv;  // empty: this executable's `bench-worker`
  Progress::Mode progress = Progress::Mode::kAuto;
};

struct SweepResult {
  SweepPlan plan;
  std::string sweep_id;
  size_t already_done = 0;  // runs of the plan the store had before
  size_t ran = 0;           // runs finished by this invocation
  size_t failed_jobs = 0;   // of those, how many ended in an error (crash, timeout, exception)
  // Tuned baselines of the plan's cells: already stored, stored from one of this sweep's tuner runs,
  // computed by extra tuner jobs, extra jobs that failed, and cells left without one.
  size_t tuned_stored = 0, tuned_from_runs = 0, tuned_computed = 0, tuned_failed = 0, tuned_missing = 0;
  bool interrupted = false;
  double wall_seconds = 0;
  // The evaluations of this invocation's jobs: simulated, and taken from the evaluation cache.
  uint64_t evaluations_simulated = 0, evaluations_cached = 0;
  std::vector<RunRecord> records;  // the plan's runs in the store at the end
};

SweepResult run_sweep(const SweepOptions& options, const tasks::TaskRegistry& registry,
                      std::ostream& progress_out);

// The status of a porting run whose source platform has no passing kernel of the task and configuration
// in the results store: it is stored without running (never unported) and tried again by the next sweep.
inline constexpr const char* kNoKernelToPort = "no_kernel_to_port";
// The status of a library agent's run whose library has no passing kernel of the cell: stored without
// running, and tried again by the next sweep.
inline constexpr const char* kNoLibraryKernel = "no_library_kernel";

// The kernel a porting run of `run` starts from: among the library's kernels of the same task and
// configuration on `from_platform`, one of the run's hardware configuration name if any, the fewest
// cycles first. nullopt: none.
std::optional<agent::PortSource> best_kernel_to_port(const std::vector<library::KernelEntry>& kernels,
                                                     const std::string& from_platform, const RunKey& run);

}  // namespace kcraft::bench
