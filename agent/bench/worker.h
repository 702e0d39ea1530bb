// Worker processes. A sweep runs its jobs in `kcraft bench-worker` processes: SystemC allows one
// simulation per process, so parallelism is processes, and each worker keeps its simulator elaborated
// across all the jobs it runs.
//
// Protocol (JSON lines): the parent writes {"type":"job","id":N,"job":{...JobSpec}} to the worker's
// stdin; the worker answers {"type":"result","id":N,"record":{...RunRecord}} on its stdout, after a
// first {"type":"hello","pid":P,"version":V}. End of input (or {"type":"exit"}) ends the worker.
// Everything else a worker prints goes to its stderr, which the parent keeps the tail of for error
// messages.
#pragma once

#include <cstdint>
#include <string>

#include <nlohmann/json.hpp>

#include "agent/bench/run_record.h"
#include "agent/common/tools.h"

namespace kcraft::bench {

struct JobSpec {
  RunKey key;
  int level = 1;
  std::string agent_kind;           // baseline | tuner | llm | candidate (a search's kernel, agent/search)
  std::string settings_file;        // llm: provider settings YAML
  std::string workflow = "single";  // llm: agent/workflows/<workflow>.yaml
  std::string search;               // llm: island | ucb runs a search (agent/search) instead
  // llm: the kernel of another platform to port (the parent takes it from the results store); its
  // platform set means a porting run.
  agent::PortSource port;
  uint64_t dev_seed = 1;
  unsigned budget = 0;     // iterations; 0: by level (baseline always runs one)
  std::string transcript;  // JSONL path; empty: keep in memory
  bool counters = true;    // store a correct kernel's counters (those of its first hidden seed's run)
  std::string library;     // kernel library find_examples searches (the sweep's store); empty: none
  std::string docs;        // llm: the documentation level (isa | guide | full); "": full
  std::string fault;       // tests only: crash | abort | hang | throw | exit (simulates a broken job)
  // candidate: the kernel to evaluate on the development seed (run_eval, and profile when it passes)
  std::string kernel;
  std::string language;  // its KernelLanguage::name; "" = the platform's default
  // The results store whose evaluation cache the job's evaluations go through (agent/common/eval_cache.h);
  // empty: none, every evaluation simulates.
  std::string eval_cache;
  // The run's compiler baseline comes from the evaluation cache only, never simulated (SweepOptions::
  // compiler_baselines; agent::CompilerBaselinePolicy::kCacheOnly).
  bool compiler_baseline_from_cache = false;

  nlohmann::json to_json() const;
  static JobSpec from_json(const nlohmann::json& j);
};

// Runs one job in this process and returns its record. Throws for problems with the job itself
// (unknown task, unreadable settings); the worker turns those into error records.
RunRecord execute_job(const JobSpec& job);

// The worker's main loop on stdin/stdout (see the protocol above). Returns the exit code.
int worker_main();

// Whether this kcraft was built with the LLM providers (agent/providers).
bool llm_agents_available();

// The version of kcraft and the git commit it was built from ("unknown" outside a git checkout).
const char* kcraft_version();
const char* kcraft_git_commit();

}  // namespace kcraft::bench
