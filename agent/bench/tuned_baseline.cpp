#include "agent/bench/tuned_baseline.h"

#include "agent/bench/provenance.h"
#include "agent/tuner/tuner.h"

namespace kcraft::bench {

using nlohmann::json;

namespace {

agent::TaskContext context_of(const TunedBaselineKey& key) {
  agent::TaskContext ctx;
  ctx.platform = key.platform;
  ctx.hw_config = key.hw_config;
  ctx.task = key.task;
  ctx.config = key.config;
  ctx.dev_seed = agent::kTunedBaselineDevSeed;
  return ctx;
}

}  // namespace

TunedBaselineKey tuned_baseline_key(const std::string& platform, const std::string& hw_config,
                                    const std::string& task, const std::string& config,
                                    const std::string& hardware_id) {
  TunedBaselineKey key{platform, hw_config, task, config, hardware_id, kcraft_git_commit(), ""};
  key.search_space = agent::tuner_search_space_id(context_of(key));
  return key;
}

bool defines_tuned_baseline(const RunRecord& run, const TunedBaselineKey& key, unsigned default_budget) {
  return run.key.agent == "tuner" && !run.failed_job() && run.key.platform == key.platform &&
         run.key.hw_config == key.hw_config && run.key.task == key.task && run.key.config == key.config &&
         run.dev_seed == agent::kTunedBaselineDevSeed && run.budget == default_budget &&
         run.git_commit == key.git_commit && run.hardware_id == key.hardware_id;
}

TunedBaseline tuned_baseline_from_run(const RunRecord& run, const TunedBaselineKey& key,
                                      const std::string& source) {
  TunedBaseline tb;
  tb.key = key;
  tb.cycles = run.correct() ? run.cycles : 0;
  tb.baseline_cycles = run.baseline_cycles;
  tb.budget = run.budget;
  tb.iterations = run.iterations;
  tb.kernel = run.kernel;
  tb.source = source;
  tb.transcript = run.transcript;
  tb.computed_at = run.finished_at.empty() ? utc_now() : run.finished_at;
  tb.seconds = run.agent_seconds;
  return tb;
}

TunedBaseline compute_tuned_baseline(const TunedBaselineKey& key, const std::string& transcript_path) {
  agent::Transcript transcript(transcript_path);
  const auto result = agent::run_tuner(context_of(key), agent::AgentBudget{}, transcript);
  TunedBaseline tb;
  tb.key = key;
  tb.cycles = result.score.verdict == Verdict::kPass ? result.score.cycles : 0;
  tb.baseline_cycles = result.score.baseline_cycles;
  tb.budget = result.budget;
  tb.iterations = result.iterations;
  tb.kernel = result.final_code;
  tb.transcript = transcript_path;
  tb.computed_at = utc_now();
  tb.seconds = result.wall_seconds;
  return tb;
}

}  // namespace kcraft::bench
