// `kcraft agent`: one agent run on one task (the offline tuner or an LLM over a provider), and
// `kcraft agent replay`: re-execute a transcript's tool calls and check the verdicts reproduce.
#include "cli/agent_cmd.h"

#include <fmt/format.h>

#include <chrono>
#include <ctime>
#include <filesystem>
#include <iostream>

#include "agent/bench/plan.h"
#include "agent/bench/pool.h"
#include "agent/bench/provenance.h"
#include "agent/bench/store.h"
#include "agent/bench/sweep.h"
#include "agent/bench/tuned_baseline.h"
#include "agent/bench/worker.h"
#include "agent/common/agent_run.h"
#include "agent/common/environment.h"
#include "agent/common/eval_cache.h"
#include "agent/common/replay.h"
#include "agent/common/workflow.h"
#include "agent/library/library.h"
#include "agent/search/search.h"
#include "agent/tuner/tuner.h"
#include "tb/common/paths.h"
#include "tb/common/platform.h"

namespace kcraft::cli {

namespace {

struct AgentArgs {
  std::string platform = default_platform_name();
  std::string task;
  std::string config = "C1";
  std::string hw = "default";
  std::string agent;  // "tuner", or empty with --model
  std::string model;
  std::string provider_config;  // settings YAML
  std::string provider;         // openai | anthropic (overrides the settings file)
  std::string base_url;
  std::string api_key_env;
  std::string workflow = "single";
  std::string port_from;  // PLATFORM:KERNEL_FILE: a passing kernel of the task on another platform
  unsigned budget = 0;
  uint64_t max_tokens = 0;
  uint64_t seed = 1;
  std::string transcript;
  std::string db = "results/kcraft.db";  // where the tuned baseline and evaluations are cached
  bool no_cache = false;                 // no evaluation cache: every evaluation simulates
  bool no_tuned_baseline = false;
  std::string library;  // the kernel library (default: --db)
  bool no_library = false;
  bool library_include_scored = false;
  std::string search;  // island | ucb: a search over candidates instead of a workflow
  agent::search::SearchOptions search_options;
  std::string docs;  // the documentation level (isa | guide | full); "": the settings file's, else full
};

// The run's documentation level: --docs, else the settings file's `docs:`, else full (what runs got before
// levels existed). `full` with --no-library would promise examples there is no library for.
agent::DocsLevel docs_level(const AgentArgs& a, const std::optional<agent::DocsLevel>& from_settings) {
  agent::DocsLevel level = agent::DocsLevel::kFull;
  if (!a.docs.empty()) {
    try {
      level = agent::parse_docs_level(a.docs);
    } catch (const std::invalid_argument& e) {
      throw UsageError(std::string("--docs: ") + e.what());
    }
    if (agent::serves_examples(level) && a.no_library)
      throw UsageError("--docs full serves example kernels from the kernel library; drop --no-library");
  } else if (from_settings) {
    level = *from_settings;
  }
  return level;
}

std::string default_transcript_path(const AgentArgs& a, const std::string& agent) {
  const auto now = std::chrono::system_clock::to_time_t(std::chrono::system_clock::now());
  std::tm tm{};
  gmtime_r(&now, &tm);
  char stamp[32];
  std::strftime(stamp, sizeof stamp, "%Y%m%dT%H%M%SZ", &tm);
  std::string safe = agent;
  for (auto& c : safe) {
    if (c == '/' || c == ':') c = '_';
  }
  return fmt::format("results/transcripts/{}_{}_{}_{}_{}.jsonl", a.task, a.config, a.hw, safe, stamp);
}

// The run's settings (the file's top level with the command line over it) and each role's own.
agent::RunProviderSettings provider_settings(const AgentArgs& a) {
  agent::RunProviderSettings all;
  if (!a.provider_config.empty()) all = agent::RunProviderSettings::load(a.provider_config);
  agent::ProviderSettings& s = all.run;
  if (!a.provider.empty()) s.provider = a.provider;
  if (!a.model.empty() && a.model != s.model) {
    s.model = a.model;
    s.prices.reset();  // the file's prices are for its model: this one's are unknown
  }
  if (!a.base_url.empty()) s.base_url = a.base_url;
  if (!a.api_key_env.empty()) s.api_key_env = a.api_key_env;
  if (s.base_url.empty()) {
    if (s.provider == "openai") s.base_url = "https://api.openai.com/v1";
    if (s.provider == "anthropic") s.base_url = "https://api.anthropic.com/v1";
  }
  if (s.api_key_env.empty() && a.provider_config.empty()) {
    if (s.provider == "openai") s.api_key_env = "OPENAI_API_KEY";
    if (s.provider == "anthropic") s.api_key_env = "ANTHROPIC_API_KEY";
  }
  if (s.model.empty()) throw UsageError("an LLM agent needs --model (or a --provider-config with a model)");
  return all;
}

// Compares the result with the autotuned baseline (agent/bench/tuned_baseline.h): taken from the results
// store when cached, else this very run when it is one of the tuner under the tuned baseline's
// definition, else computed now by a tuner run (a few seconds) and cached for the next runs. A run that
// failed gets the comparison only when it costs nothing (there is no speedup to compare).
void attach_tuned_baseline(const AgentArgs& a, bool tuner, agent::AgentResult& result) {
  const auto& ctx = result.context;
  agent::TunedBaselineInfo info;
  info.store = a.db;
  try {
    const auto hardware = bench::hardware_record(ctx.platform, ctx.hw_config);
    const auto key =
        bench::tuned_baseline_key(ctx.platform, ctx.hw_config, ctx.task, ctx.config, hardware.id);
    if (key.search_space.empty()) {
      info.origin = "unavailable";
      info.detail = "the template compiler has no kernel for this task and configuration: nothing to tune";
      result.tuned_baseline = info;
      return;
    }
    const bool passed = result.score.verdict == Verdict::kPass;
    const unsigned default_budget = agent::default_iterations(agent::task_registry().get(ctx.task).level);
    const bool this_run_defines_it =
        tuner && result.budget == default_budget && ctx.dev_seed == agent::kTunedBaselineDevSeed;
    bench::ResultStore store(a.db);
    std::optional<bench::TunedBaseline> tuned = store.tuned_baseline(key);
    if (tuned) {
      info.origin = "cached";
      info.detail =
          fmt::format("the offline tuner's best kernel ({} of {} iterations), cached in {} at {} from {}",
                      tuned->iterations, tuned->budget, a.db, tuned->computed_at, tuned->source);
    } else if (this_run_defines_it) {
      bench::TunedBaseline t;
      t.key = key;
      t.cycles = passed ? result.score.cycles : 0;
      t.baseline_cycles = result.score.baseline_cycles;
      t.budget = result.budget;
      t.iterations = result.iterations;
      t.kernel = result.final_code;
      t.source = "kcraft agent --agent tuner";
      t.computed_at = bench::utc_now();
      t.seconds = result.wall_seconds;
      store.put_tuned_baseline(t);
      tuned = t;
      info.origin = "this_run";
      info.detail = fmt::format(
          "this run is the tuned baseline (the tuner at its default budget on development seed {}); stored "
          "in {}",
          agent::kTunedBaselineDevSeed, a.db);
    } else if (passed) {
      // Next to the run's own transcript when one was named, else where transcripts go by default.
      std::string path = default_transcript_path(a, "tuned-baseline");
      if (!a.transcript.empty()) {
        std::filesystem::path own(a.transcript);
        path = (own.parent_path() / (own.stem().string() + "_tuned-baseline.jsonl")).string();
      }
      std::cerr << fmt::format(
          "computing the tuned baseline of {} {} on {}/{} (the offline tuner, {} iterations) ...\n", ctx.task,
          ctx.config, ctx.platform, ctx.hw_config, default_budget);
      tuned = bench::compute_tuned_baseline(key, path);
      tuned->source = "kcraft agent (tuner transcript " + path + ")";
      store.put_tuned_baseline(*tuned);
      info.origin = "computed";
      info.detail = fmt::format(
          "the offline tuner's best kernel ({} of {} iterations), computed now in {:.1f} s and cached in {}; "
          "transcript {}",
          tuned->iterations, tuned->budget, tuned->seconds, a.db, path);
    } else {
      return;  // nothing to compare and nothing cached: not worth a tuner run
    }
    result.score.set_tuned_baseline(tuned->cycles);
    if (tuned->cycles == 0) info.detail += "; the tuner found no kernel correct on the hidden inputs";
    info.record = tuned->to_json();
    info.record.erase("kernel");
  } catch (const bench::StoreError& e) {
    info.origin = "unavailable";
    info.detail = e.what();
  }
  result.tuned_baseline = info;
}

// Opens (creating or upgrading) the kernel library the run searches and records into.
std::string open_library(const AgentArgs& a) {
  if (a.no_library) {
    if (a.library_include_scored)
      throw UsageError("--library-include-scored needs a library (drop --no-library)");
    return "";
  }
  const std::string file = a.library.empty() ? a.db : a.library;
  try {
    if (file == a.db) {
      bench::ResultStore store(file);  // upgrades an older results store (its passing runs fill the library)
    } else {
      library::KernelLibrary created(file);
    }
  } catch (const std::exception& e) {
    throw UsageError(std::string("--library: ") + e.what());
  }
  return file;
}

// A passing kernel goes into the library under the agent that wrote it.
void record_in_library(const agent::AgentResult& result) {
  if (result.context.library.empty() || result.score.verdict != Verdict::kPass || result.final_code.empty())
    return;
  library::KernelEntry e;
  e.platform = result.context.platform;
  e.hw_config = result.context.hw_config;
  e.task = result.context.task;
  e.config = result.context.config;
  e.cycles = result.score.cycles;
  e.agent = result.agent;
  e.language = result.final_language;
  e.source = result.final_code;
  e.git_commit = bench::kcraft_git_commit();
  try {
    library::KernelLibrary(result.context.library).insert(e);
  } catch (const library::LibraryError& err) {
    std::cerr << "warning: the kernel was not recorded in the library: " << err.what() << "\n";
  }
}

int run_agent_cmd(const GlobalOptions& g, const AgentArgs& a) {
  if (a.task.empty()) throw UsageError("--task is required");
  agent::TaskContext ctx;
  ctx.platform = a.platform;
  ctx.hw_config = a.hw;
  ctx.task = a.task;
  ctx.config = a.config;
  ctx.dev_seed = a.seed;
  ctx.library = open_library(a);
  ctx.library_allows_scored_cell = a.library_include_scored;
  if (!a.port_from.empty()) {
    try {
      ctx.port_from = agent::parse_port_from(a.port_from, a.platform);
    } catch (const std::invalid_argument& e) {
      throw UsageError(e.what());
    }
  }
  if (!a.no_cache) {
    try {
      agent::use_evaluation_cache(a.db);
    } catch (const std::exception& e) {
      std::cerr << "kcraft: " << e.what() << "; evaluating without the evaluation cache\n";
    }
  }
  agent::AgentBudget budget{a.budget, a.max_tokens};
  const bool tuner = a.agent == "tuner" || (a.agent.empty() && a.model.empty() && a.provider_config.empty());
  if (!tuner && !a.agent.empty() && a.agent != "llm") {
    throw UsageError("unknown --agent '" + a.agent + "' (available: tuner, llm with --model)");
  }
  if (tuner && a.workflow != "single")
    throw UsageError("--workflow needs an LLM agent (--model or --provider-config)");
  if (!a.search.empty() && (tuner || a.workflow != "single"))
    throw UsageError("--search needs an LLM agent (--model or --provider-config) and no --workflow");
  if (!a.search.empty() && !a.port_from.empty())
    throw UsageError(
        "--search starts from the template's and the library's kernels; it takes no --port-from");
  if (tuner && !a.port_from.empty())
    throw UsageError(
        "--port-from needs an LLM agent (--model or --provider-config): the tuner reads no kernel");
  if (tuner && !a.docs.empty())
    throw UsageError(
        "--docs needs an LLM agent (--model or --provider-config): the tuner reads no documentation");
  agent::AgentResult result;
  nlohmann::json search_summary;
  std::string path;
  if (!a.search.empty()) {
    agent::search::SearchOptions o = a.search_options;
    try {
      o.strategy = agent::search::strategy_from_name(a.search);
    } catch (const std::invalid_argument& e) {
      throw UsageError(std::string("--search: ") + e.what());
    }
    o.max_model_calls = a.budget;
    o.worker_argv = bench::default_worker_argv();
    try {
      o.validate();
    } catch (const std::invalid_argument& e) {
      throw UsageError(e.what());
    }
    const auto settings = provider_settings(a);
    ctx.docs = docs_level(a, settings.docs);
    path = a.transcript.empty() ? default_transcript_path(a, settings.run.provider + "_" +
                                                                 settings.run.model + "_search-" + a.search)
                                : a.transcript;
    auto provider = agent::make_provider(settings.run);
    agent::Transcript transcript(path);
    auto out = agent::search::run_search(o, *provider, ctx, transcript);
    result = out.agent;
    search_summary = out.summary;
  } else if (tuner) {
    path = a.transcript.empty() ? default_transcript_path(a, "tuner") : a.transcript;
    agent::Transcript transcript(path);
    result = agent::run_tuner(ctx, budget, transcript);
  } else {
    const auto workflow = agent::Workflow::load(a.workflow);
    const auto settings = provider_settings(a);
    ctx.docs = docs_level(a, settings.docs);
    std::string name = settings.run.provider + "_" + settings.run.model;
    if (workflow.name != "single") name += "_" + workflow.name;
    if (ctx.docs != agent::DocsLevel::kFull) name += std::string("_docs-") + agent::docs_level_name(ctx.docs);
    if (!ctx.port_from.empty()) name += "_port-from-" + ctx.port_from.platform;
    path = a.transcript.empty() ? default_transcript_path(a, name) : a.transcript;
    // Roles with settings of their own get their own provider; the others share the run's.
    std::vector<std::unique_ptr<agent::Provider>> owned;
    owned.push_back(agent::make_provider(settings.run));
    agent::RoleProviders providers{owned.front().get(), {}};
    for (const auto& [role, unused] : settings.roles) {
      owned.push_back(agent::make_provider(settings.for_role(role)));
      providers.roles[role] = owned.back().get();
    }
    agent::Transcript transcript(path);
    result = agent::run_workflow(workflow, providers, ctx, budget, transcript);
  }
  if (!a.no_tuned_baseline) attach_tuned_baseline(a, tuner, result);
  record_in_library(result);
  if (g.json) {
    auto j = result.to_json();
    j["transcript"] = path;
    if (!search_summary.is_null()) j["search"] = search_summary;
    std::cout << j.dump(2) << "\n";
  } else {
    std::cout << result.summary();
    if (!search_summary.is_null()) {
      const auto& s = search_summary;
      std::cout << fmt::format(
          "  search {}: {} model calls, {} evaluations, {} candidates ({} correct), best "
          "candidate {}\n",
          a.search, s.value("model_calls", 0u), s.value("evaluations", 0u), s.value("candidates", 0u),
          s.value("correct_candidates", 0u), s.contains("best") ? s["best"].value("id", 0u) : 0u);
    }
    std::cout << "transcript: " << path << "\n";
  }
  return result.score.verdict == Verdict::kPass ? kExitOk : kExitFail;
}

int run_replay_cmd(const GlobalOptions& g, const std::string& path) {
  auto r = agent::replay_transcript(path);
  if (g.json) {
    nlohmann::json mism = nlohmann::json::array();
    for (const auto& m : r.mismatches) {
      mism.push_back({{"seq", m.seq}, {"tool", m.tool}, {"recorded", m.recorded}, {"replayed", m.replayed}});
    }
    std::cout << nlohmann::json{{"ok", r.ok()},
                                {"tool_calls", r.tool_calls},
                                {"not_replayable", r.not_replayable},
                                {"mismatches", mism},
                                {"score_matches", r.score_matches}}
                     .dump(2)
              << "\n";
  } else {
    std::cout << r.summary();
  }
  return r.ok() ? kExitOk : kExitFail;
}

}  // namespace

void register_agent_commands(CLI::App& app, GlobalOptions& g, std::function<int()>& run) {
  static AgentArgs a;
  auto* cmd =
      app.add_subcommand("agent", "one agent run on one task: transcript, verdict on hidden inputs, speedup");
  add_platform_option(cmd, a.platform);
  cmd->add_option("--task", a.task, "task name");
  cmd->add_option("--config", a.config, "configuration C1..C5")->capture_default_str();
  cmd->add_option("--hw", a.hw, "hardware configuration")->capture_default_str();
  cmd->add_option("--agent", a.agent, "tuner (offline, the default without --model) or llm");
  cmd->add_option("--model", a.model, "LLM model name (implies --agent llm)");
  cmd->add_option("--provider-config", a.provider_config, "provider settings YAML (see docs/agents.md)");
  cmd->add_option("--provider", a.provider, "openai (any OpenAI-compatible server) or anthropic");
  cmd->add_option("--base-url", a.base_url, "API base URL, e.g. http://127.0.0.1:8000/v1");
  cmd->add_option("--api-key-env", a.api_key_env, "environment variable holding the API key");
  cmd->add_option("--workflow", a.workflow,
                  "LLM workflow: agent/workflows/NAME.yaml (single, default, coder_only; see docs/agents.md)")
      ->capture_default_str();
  cmd->add_option("--port-from", a.port_from,
                  "PLATFORM:KERNEL_FILE: a passing kernel of the same task on another platform, given to the "
                  "agents as the starting point to port (see docs/agents.md, Porting)");
  cmd->add_option("--budget", a.budget,
                  "iterations: model calls of all roles (default by task level: 15/20/25)");
  cmd->add_option("--max-tokens", a.max_tokens, "stop when prompt+completion tokens reach this (0: no cap)");
  cmd->add_option("--seed", a.seed, "development seed (the inputs run_eval uses)")->capture_default_str();
  cmd->add_option("--transcript", a.transcript, "transcript file (default: results/transcripts/...)");
  cmd->add_option("--db", a.db, "results store that caches the tuned baseline and evaluations")
      ->capture_default_str();
  cmd->add_flag("--no-cache", a.no_cache,
                "simulate every evaluation, even those the store's evaluation cache has (and store none)");
  cmd->add_flag("--no-tuned-baseline", a.no_tuned_baseline,
                "do not compare with the tuned baseline (the offline tuner's best kernel; computed once per "
                "task, configuration, hardware and commit, then cached in --db)");
  cmd->add_option(
      "--library", a.library,
      "kernel library find_examples searches and passing kernels are recorded in (default: --db)");
  cmd->add_flag("--no-library", a.no_library,
                "no kernel library: find_examples returns nothing, nothing is recorded");
  cmd->add_option(
      "--docs", a.docs,
      "documentation level: isa (the ISA reference only), guide (plus the platform guide) or full "
      "(plus example kernels of other tasks from the kernel library); default: the settings "
      "file's `docs:`, else full (docs/agents.md, Documentation levels)");
  cmd->add_flag("--library-include-scored", a.library_include_scored,
                "let find_examples return kernels of this very task and configuration (any hardware); the "
                "result says so. Not a benchmark run.");
  auto& so = a.search_options;
  cmd->add_option("--search", a.search,
                  "search over candidate kernels instead of a workflow: island (evolutionary) or ucb (tree); "
                  "--budget counts its model calls (docs/agents.md, Search)");
  cmd->add_option("--islands", so.islands, "island search: islands")->capture_default_str();
  cmd->add_option("--population", so.population, "island search: candidates kept per island")
      ->capture_default_str();
  cmd->add_option("--generations", so.generations, "island search: generations")->capture_default_str();
  cmd->add_option("--migration-interval", so.migration_interval,
                  "island search: generations between migrations of each island's best")
      ->capture_default_str();
  cmd->add_option("--crossover-rate", so.crossover_rate,
                  "island search: share of children bred from two parents")
      ->capture_default_str();
  cmd->add_option("--exploration", so.exploration, "ucb search: UCB1's exploration constant c")
      ->capture_default_str();
  cmd->add_option("--max-children", so.max_children, "ucb search: children of a node before descending")
      ->capture_default_str();
  cmd->add_option("--search-jobs", so.jobs, "search: worker processes evaluating candidates")
      ->capture_default_str();
  cmd->add_option("--search-evals", so.max_evaluations,
                  "search: candidate evaluations at most (0: the model-call budget + 1)")
      ->capture_default_str();
  cmd->add_option("--library-seeds", so.library_seeds,
                  "search: passing kernels of the kernel library (other tasks or configurations) seeded next "
                  "to the template's kernel")
      ->capture_default_str();
  cmd->add_option("--search-seed", so.seed, "search: seed of its random choices (reproducible runs)")
      ->capture_default_str();
  cmd->add_option("--candidate-timeout", so.candidate_timeout_seconds,
                  "search: seconds a candidate's evaluation may take before it counts as a hang")
      ->capture_default_str();
  cmd->callback([&] {
    if (run) return;  // `agent replay` already chose
    run = [&] { return run_agent_cmd(g, a); };
  });
  static std::string replay_path;
  auto* replay = cmd->add_subcommand("replay", "re-execute a transcript's tool calls and check the verdicts");
  replay->add_option("transcript", replay_path, "transcript (.jsonl)")->required();
  replay->callback([&] { run = [&] { return run_replay_cmd(g, replay_path); }; });
}

}  // namespace kcraft::cli
