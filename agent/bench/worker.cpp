#include "agent/bench/worker.h"

#include <fmt/format.h>
#include <unistd.h>

#include <chrono>
#include <csignal>
#include <cstdio>
#include <iostream>
#include <stdexcept>
#include <thread>

#include "agent/bench/curves.h"
#include "agent/bench/llm_job.h"
#include "agent/bench/provenance.h"
#include "agent/common/agent_run.h"
#include "agent/common/environment.h"
#include "agent/common/eval_cache.h"
#include "agent/common/scoring.h"
#include "agent/tuner/tuner.h"

namespace kcraft::bench {

using nlohmann::json;

namespace {

void copy_result(const agent::AgentResult& r, RunRecord& rec) {
  rec.status = r.status;
  rec.error = r.error;
  rec.verdict = verdict_name(r.score.verdict);
  rec.seed_verdicts = json::array();
  for (const auto& s : r.score.seeds) {
    rec.seed_verdicts.push_back(
        {{"seed", s.seed}, {"verdict", verdict_name(s.verdict)}, {"headline", s.headline}});
  }
  rec.cycles = r.score.cycles;
  rec.baseline_cycles = r.score.baseline_cycles;
  rec.speedup = r.score.speedup;
  rec.compiler_baseline_cycles = r.score.compiler_baseline_cycles;
  rec.compiler_speedup = r.score.compiler_speedup;
  rec.compiler_baseline_not_simulated = r.score.compiler_baseline_not_simulated;
  rec.utilization = r.score.utilization;
  rec.iterations = r.iterations;
  rec.budget = r.budget;
  rec.first_valid_iteration = r.first_valid_iteration;
  rec.first_pass_iteration = r.first_pass_iteration;
  rec.evaluations = r.evaluations;
  rec.prompt_tokens = r.tokens.prompt_tokens;
  rec.completion_tokens = r.tokens.completion_tokens;
  rec.reasoning_tokens = r.tokens.reasoning_tokens;
  rec.cached_prompt_tokens = r.tokens.cached_prompt_tokens;
  rec.agent_seconds = r.wall_seconds;
  rec.kernel = r.final_code;
  rec.roles = json::object();
  for (const auto& [name, use] : r.roles) {
    rec.roles[name] = {{"steps", use.steps},
                       {"calls", use.calls},
                       {"prompt_tokens", use.tokens.prompt_tokens},
                       {"completion_tokens", use.tokens.completion_tokens},
                       {"reasoning_tokens", use.tokens.reasoning_tokens},
                       {"cached_prompt_tokens", use.tokens.cached_prompt_tokens}};
  }
}

// The counters of the scored run: those of the first hidden seed, the run the cycles come from.
json scored_counters(const agent::Score& score) {
  json counters = json::object();
  for (const auto& [name, value] : score.counters) counters[name] = value;
  return counters;
}

void inject_fault(const std::string& fault) {
  if (fault.empty()) return;
  if (fault == "crash") {
    // Die by the signal, as a real crash would with no handler; a sanitizer build's SEGV handler would
    // otherwise turn it into a report and exit status 1.
    std::signal(SIGSEGV, SIG_DFL);
    std::raise(SIGSEGV);
  }
  if (fault == "abort") std::abort();
  if (fault == "exit") std::_Exit(7);
  if (fault == "throw") throw std::runtime_error("injected failure");
  if (fault == "hang") {
    for (;;) std::this_thread::sleep_for(std::chrono::seconds(1));
  }
  throw std::invalid_argument("unknown fault '" + fault + "'");
}

}  // namespace

namespace {

// A search candidate (agent/search): the tools a coder would call on it, development seed only. The
// results go back whole so the search can write them to its transcript, where replay re-executes them.
RunRecord evaluate_candidate(const JobSpec& job, const agent::TaskContext& ctx) {
  RunRecord rec;
  rec.key = job.key;
  rec.level = job.level;
  rec.dev_seed = job.dev_seed;
  rec.kcraft_version = kcraft_version();
  rec.git_commit = kcraft_git_commit();
  rec.kernel = job.kernel;
  rec.language = job.language;
  rec.status = "evaluated";
  agent::ToolSession session(ctx);
  rec.evaluation = json::array();
  auto call = [&](const std::string& name, const json& arguments) {
    const agent::ToolResult r = session.call(name, arguments);
    rec.evaluation.push_back({{"name", name},
                              {"arguments", arguments.dump()},
                              {"text", r.text},
                              {"is_error", r.is_error},
                              {"data", r.data}});
    return r;
  };
  json write = {{"code", job.kernel}};
  if (!job.language.empty()) write["language"] = job.language;
  call("write_code", write);
  const agent::ToolResult eval = call("run_eval", json::object());
  rec.verdict = eval.data.value("verdict", kErrorVerdict);
  rec.cycles = eval.data.value("cycles", uint64_t{0});
  rec.evaluations = 1;
  if (rec.verdict == "pass") call("profile", json::object());
  return rec;
}

RunRecord execute_agent(const JobSpec& job) {
  agent::TaskContext ctx;
  ctx.platform = job.key.platform;
  ctx.hw_config = job.key.hw_config;
  ctx.task = job.key.task;
  ctx.config = job.key.config;
  ctx.dev_seed = job.dev_seed;
  ctx.library = job.library;
  ctx.port_from = job.port;
  if (!job.docs.empty()) ctx.docs = agent::parse_docs_level(job.docs);
  if (job.agent_kind == "candidate") return evaluate_candidate(job, ctx);
  agent::Transcript transcript(job.transcript);
  RunRecord rec;
  rec.key = job.key;
  rec.level = job.level;
  rec.dev_seed = job.dev_seed;
  rec.transcript = job.transcript;
  rec.kcraft_version = kcraft_version();
  rec.git_commit = kcraft_git_commit();
  agent::AgentResult result;
  if (job.agent_kind == "baseline") {
    result = agent::run_baseline(ctx, transcript);
    rec.agent_settings = {{"kind", "baseline"}};
  } else if (job.agent_kind == "tuner") {
    result = agent::run_tuner(ctx, agent::AgentBudget{job.budget, 0}, transcript);
    rec.agent_settings = {{"kind", "tuner"}, {"iterations", result.budget}};
  } else if (job.agent_kind == "library") {
    // A stored kernel, unchanged: scored like any submission (an assembler error is a build_error).
    const auto t0 = std::chrono::steady_clock::now();
    result.agent = job.key.agent;
    result.context = ctx;
    result.score = agent::score_kernel(ctx, job.kernel, job.language);
    result.status = "submitted";
    result.final_code = job.kernel;
    result.final_language = job.language;
    result.iterations = result.budget = result.evaluations = 1;
    result.wall_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    rec.agent_settings = {{"kind", "library"}};
  } else if (job.agent_kind == "llm") {
    result = run_llm_job(ctx, job, transcript, rec.agent_settings);
    rec.agent_settings["docs"] = agent::docs_level_name(ctx.docs);
  } else {
    throw std::invalid_argument("unknown agent kind '" + job.agent_kind + "'");
  }
  copy_result(result, rec);
  // The curves' per-iteration view of the run, while its events are at hand (the library agent has none:
  // an empty trajectory, solved at its one iteration).
  rec.trajectory = trajectory_json(trajectory_from_events(transcript.events()));
  rec.language = result.final_language;
  if (!job.library.empty()) rec.agent_settings["library_examples"] = true;
  if (job.counters && result.score.verdict == Verdict::kPass) {
    rec.counters = scored_counters(result.score);
  }
  if (result.score.verdict == Verdict::kPass) rec.phases = result.score.phases_json();
  return rec;
}

}  // namespace

RunRecord execute_job(const JobSpec& job) {
  inject_fault(job.fault);
  agent::use_evaluation_cache(job.eval_cache);
  agent::set_compiler_baseline_policy(job.compiler_baseline_from_cache
                                          ? agent::CompilerBaselinePolicy::kCacheOnly
                                          : agent::CompilerBaselinePolicy::kSimulate);
  const agent::EvalCache* cache = agent::evaluation_cache();
  const agent::EvalCacheStats before = cache ? cache->stats() : agent::EvalCacheStats{};
  RunRecord rec = execute_agent(job);
  if (cache) {
    const agent::EvalCacheStats after = cache->stats();
    rec.evaluations_cached = after.hits - before.hits;
    rec.evaluations_simulated = after.misses + after.uncached - before.misses - before.uncached;
  }
  return rec;
}

int worker_main() {
  // The protocol gets a private copy of stdout; fd 1 then points at stderr, so nothing else printed in
  // this process (SystemC's banner, a library's messages) can corrupt it.
  const int protocol_fd = ::dup(STDOUT_FILENO);
  if (protocol_fd < 0 || ::dup2(STDERR_FILENO, STDOUT_FILENO) < 0) {
    std::cerr << "kcraft bench-worker: cannot set up the protocol channel\n";
    return 2;
  }
  std::FILE* out = ::fdopen(protocol_fd, "w");
  if (out == nullptr) return 2;
  auto send = [&](const json& message) {
    const std::string line = message.dump() + "\n";
    if (std::fwrite(line.data(), 1, line.size(), out) != line.size() || std::fflush(out) != 0) std::_Exit(3);
  };
  send({{"type", "hello"},
        {"pid", ::getpid()},
        {"version", kcraft_version()},
        {"git_commit", kcraft_git_commit()}});
  std::string line;
  while (std::getline(std::cin, line)) {
    if (line.empty()) continue;
    const json message = json::parse(line, nullptr, false);
    if (message.is_discarded() || !message.is_object()) {
      std::cerr << "kcraft bench-worker: ignoring a malformed message: " << line << "\n";
      continue;
    }
    const std::string type = message.value("type", "");
    if (type == "exit") break;
    if (type != "job") continue;
    RunRecord rec;
    JobSpec job;
    try {
      job = JobSpec::from_json(message.at("job"));
      rec = execute_job(job);
    } catch (const std::exception& e) {
      rec = error_record(job.key, job.level, std::string("the job failed: ") + e.what());
      rec.transcript = job.transcript;
      rec.dev_seed = job.dev_seed;
      rec.kcraft_version = kcraft_version();
      rec.git_commit = kcraft_git_commit();
    }
    rec.worker_pid = ::getpid();
    send({{"type", "result"}, {"id", message.value("id", int64_t{-1})}, {"record", rec.to_json()}});
  }
  std::fclose(out);
  return 0;
}

}  // namespace kcraft::bench
