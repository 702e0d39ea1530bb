// One job of a benchmark sweep as the parent sends it to a worker process (worker.h): which run, which
// agent and with what. Apart from the worker so that the pool, the search and the LLM job, which the
// worker runs, can name jobs without depending on it.
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

}  // namespace kcraft::bench
