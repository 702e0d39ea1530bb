// `kcraft agent`: one agent run on one task (the offline tuner or an LLM over a provider), and
// `kcraft agent replay`: re-execute a transcript's tool calls and check the verdicts reproduce.
#include "cli/agent_cmd.h"

#include <fmt/format.h>

#include <chrono>
#include <ctime>
#include <iostream>

#include "agent/common/agent_run.h"
#include "agent/common/replay.h"
#include "agent/tuner/tuner.h"
#include "tb/common/paths.h"

namespace kcraft::cli {

namespace {

struct AgentArgs {
  std::string platform = "systolic";
  std::string task;
  std::string config = "C1";
  std::string hw = "default";
  std::string agent;  // "tuner", or empty with --model
  std::string model;
  std::string provider_config;  // settings YAML
  std::string provider;         // openai | anthropic (overrides the settings file)
  std::string base_url;
  std::string api_key_env;
  unsigned budget = 0;
  uint64_t max_tokens = 0;
  uint64_t seed = 1;
  std::string transcript;
};

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

agent::ProviderSettings provider_settings(const AgentArgs& a) {
  agent::ProviderSettings s;
  if (!a.provider_config.empty()) s = agent::ProviderSettings::load(a.provider_config);
  if (!a.provider.empty()) s.provider = a.provider;
  if (!a.model.empty()) s.model = a.model;
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
  return s;
}

int run_agent_cmd(const GlobalOptions& g, const AgentArgs& a) {
  if (a.task.empty()) throw UsageError("--task is required");
  agent::TaskContext ctx;
  ctx.platform = a.platform;
  ctx.hw_config = a.hw;
  ctx.task = a.task;
  ctx.config = a.config;
  ctx.dev_seed = a.seed;
  agent::AgentBudget budget{a.budget, a.max_tokens};
  const bool tuner = a.agent == "tuner" || (a.agent.empty() && a.model.empty() && a.provider_config.empty());
  if (!tuner && !a.agent.empty() && a.agent != "llm") {
    throw UsageError("unknown --agent '" + a.agent + "' (available: tuner, llm with --model)");
  }
  agent::AgentResult result;
  std::string path;
  if (tuner) {
    path = a.transcript.empty() ? default_transcript_path(a, "tuner") : a.transcript;
    agent::Transcript transcript(path);
    result = agent::run_tuner(ctx, budget, transcript);
  } else {
    auto settings = provider_settings(a);
    path = a.transcript.empty() ? default_transcript_path(a, settings.provider + "_" + settings.model)
                                : a.transcript;
    auto provider = agent::make_provider(settings);
    agent::Transcript transcript(path);
    result = agent::run_llm_agent(*provider, ctx, budget, transcript);
  }
  if (g.json) {
    auto j = result.to_json();
    j["transcript"] = path;
    std::cout << j.dump(2) << "\n";
  } else {
    std::cout << result.summary() << "transcript: " << path << "\n";
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
  cmd->add_option("--platform", a.platform, "platform")->capture_default_str();
  cmd->add_option("--task", a.task, "task name");
  cmd->add_option("--config", a.config, "configuration C1..C5")->capture_default_str();
  cmd->add_option("--hw", a.hw, "hardware configuration")->capture_default_str();
  cmd->add_option("--agent", a.agent, "tuner (offline, the default without --model) or llm");
  cmd->add_option("--model", a.model, "LLM model name (implies --agent llm)");
  cmd->add_option("--provider-config", a.provider_config, "provider settings YAML (see docs/agents.md)");
  cmd->add_option("--provider", a.provider, "openai (any OpenAI-compatible server) or anthropic");
  cmd->add_option("--base-url", a.base_url, "API base URL, e.g. http://127.0.0.1:8000/v1");
  cmd->add_option("--api-key-env", a.api_key_env, "environment variable holding the API key");
  cmd->add_option("--budget", a.budget, "iterations (default by task level: 15/20/25)");
  cmd->add_option("--max-tokens", a.max_tokens, "stop when prompt+completion tokens reach this (0: no cap)");
  cmd->add_option("--seed", a.seed, "development seed (the inputs run_eval uses)")->capture_default_str();
  cmd->add_option("--transcript", a.transcript, "transcript file (default: results/transcripts/...)");
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
