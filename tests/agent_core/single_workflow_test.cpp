// The `single` workflow is today's loop: on a scripted server it must give the same transcript and
// verdict as the loop before workflows existed. The reference is that loop itself, copied verbatim below
// from agent/common/llm_agent.cpp at commit 3ed48d9 (the last one before the workflow engine), so the
// comparison holds at every later commit whatever the documents or the simulator say. Both run the
// same script against their own scripted server; events are compared one by one after dropping what
// differs between any two runs (timings, the server's port) and the fields workflows added (the role
// tag, the workflow description and the per-role counts).
#include <gtest/gtest.h>

#include <fmt/format.h>

#include <chrono>
#include <filesystem>
#include <regex>

#include "agent/common/agent_run.h"
#include "agent/common/environment.h"
#include "tests/agent/mock_llm_server.h"

namespace kcraft::agent {
namespace {

using nlohmann::json;
using testing::MockLlmServer;
using testing::Step;
using testing::WireApi;

// ---- verbatim from commit 3ed48d9 (only the function's name changed) ----
json message_json(const ChatMessage& m) {
  json calls = json::array();
  for (const auto& c : m.tool_calls)
    calls.push_back({{"id", c.id}, {"name", c.name}, {"arguments", c.arguments}});
  return {{"role", "assistant"}, {"content", m.content}, {"tool_calls", calls}};
}

AgentResult legacy_run_llm_agent(Provider& provider, const TaskContext& ctx, const AgentBudget& budget,
                                 Transcript& transcript) {
  const auto t0 = std::chrono::steady_clock::now();
  AgentResult result;
  result.agent = "llm:" + provider.settings().provider + "/" + provider.settings().model;
  result.context = ctx;
  result.budget = budget.max_iterations != 0 ? budget.max_iterations
                                             : default_iterations(task_registry().get(ctx.task).level);
  ToolSession session(ctx);

  ChatRequest request;
  request.system = system_prompt(ctx, result.budget);
  request.tools = ToolSession::schemas_for(ctx.platform);
  ChatMessage first;
  first.role = ChatMessage::Role::kUser;
  first.content = user_prompt(ctx);
  request.messages.push_back(first);
  transcript.write({{"type", "run_start"},
                    {"agent", result.agent},
                    {"context",
                     {{"platform", ctx.platform},
                      {"hw_config", ctx.hw_config},
                      {"task", ctx.task},
                      {"config", ctx.config},
                      {"dev_seed", ctx.dev_seed}}},
                    {"settings", provider.settings().to_json()},
                    {"budget", {{"iterations", result.budget}, {"tokens", budget.max_tokens}}},
                    {"system", request.system},
                    {"user", first.content}});

  result.status = "budget_exhausted";
  for (unsigned it = 1; it <= result.budget; ++it) {
    if (budget.max_tokens != 0 &&
        result.tokens.prompt_tokens + result.tokens.completion_tokens >= budget.max_tokens) {
      result.status = "token_cap";
      result.error =
          fmt::format("used {} tokens, the cap is {}",
                      result.tokens.prompt_tokens + result.tokens.completion_tokens, budget.max_tokens);
      break;
    }
    transcript.write({{"type", "llm_request"}, {"iteration", it}, {"messages", request.messages.size()}});
    ChatResponse response;
    try {
      response = provider.complete(request);
    } catch (const ProviderError& e) {
      transcript.write({{"type", "provider_error"},
                        {"iteration", it},
                        {"kind", provider_error_kind_name(e.kind())},
                        {"http_status", e.http_status()},
                        {"message", e.what()}});
      result.status = "provider_error";
      result.error = fmt::format("{} ({})", e.what(), provider_error_kind_name(e.kind()));
      break;
    }
    result.iterations = it;
    result.tokens.prompt_tokens += response.usage.prompt_tokens;
    result.tokens.completion_tokens += response.usage.completion_tokens;
    result.tokens.reasoning_tokens += response.usage.reasoning_tokens;
    result.tokens.cached_prompt_tokens += response.usage.cached_prompt_tokens;
    transcript.write({{"type", "llm_response"},
                      {"iteration", it},
                      {"message", message_json(response.message)},
                      {"usage", usage_json(response.usage)},
                      {"stop_reason", response.stop_reason},
                      {"attempts", response.attempts},
                      {"seconds", response.seconds}});
    request.messages.push_back(response.message);

    if (response.message.tool_calls.empty()) {
      // A turn without tool calls changes nothing; remind the model how to make progress.
      ChatMessage nudge;
      nudge.role = ChatMessage::Role::kUser;
      nudge.content =
          session.code().empty()
              ? "Use the tools: write_code saves your kernel, run_eval tests it, submit ends the task."
              : "Use the tools to continue (run_eval, view_output, profile), or call submit to finish.";
      request.messages.push_back(nudge);
      transcript.write({{"type", "nudge"}, {"iteration", it}, {"content", nudge.content}});
      continue;
    }
    for (const auto& call : response.message.tool_calls) {
      transcript.write({{"type", "tool_call"},
                        {"iteration", it},
                        {"id", call.id},
                        {"name", call.name},
                        {"arguments", call.arguments}});
      ToolResult r = session.call_text(call.name, call.arguments);
      record_progress(result, it, call.name, r);
      transcript.write({{"type", "tool_result"},
                        {"iteration", it},
                        {"id", call.id},
                        {"name", call.name},
                        {"text", r.text},
                        {"is_error", r.is_error},
                        {"data", r.data}});
      ChatMessage reply;
      reply.role = ChatMessage::Role::kTool;
      reply.tool_call_id = call.id;
      reply.tool_name = call.name;
      reply.content = r.text;
      reply.tool_error = r.is_error;
      request.messages.push_back(reply);
    }
    if (session.submitted()) {
      result.status = "submitted";
      break;
    }
  }
  result.final_code = session.code();
  result.final_language = session.language();
  result.evaluations = session.evaluations();
  result.wall_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  finish_run(result, transcript);
  return result;
}

// ---- end of the legacy loop ----
std::string relu_kernel(bool correct) {
  const Platform& p = platform(default_platform_name());
  auto cfg = task_registry().get("relu").resolve("C1", p.dtype());
  std::string code = p.baseline_compiler("default")->generate(cfg, p.layout(cfg)).source;
  if (!correct) {
    for (auto at = code.find("V_MAX_VF"); at != std::string::npos; at = code.find("V_MAX_VF"))
      code.replace(at, 8, "V_MIN_VF");
  }
  return code;
}

std::string code_args(const std::string& code) {
  return json{{"code", code}}.dump();
}

// A repair conversation with every kind of turn: a syntax error, a mismatch, view_output, a text-only
// turn (nudged), a pass and submit.
void script_repair(MockLlmServer& server) {
  const testing::MockUsage usage{1000, 200, 50, 100};
  server.then(Step::tool_call("write_code", code_args("V_ADD_VX r1, r2, r3\nC_HALT\n"), usage))
      .then(Step::tool_call("check_syntax", "{}", usage))
      .then(Step::tool_call("write_code", code_args(relu_kernel(false)), usage))
      .then(Step::tool_call("run_eval", "{}", usage))
      .then(Step::tool_call("view_output", R"({"max_rows": 4})", usage))
      .then(Step::text("Thinking about the sign of the comparison.", usage))
      .then(Step::tool_call("write_code", code_args(relu_kernel(true)), usage))
      .then(Step::tool_call("run_eval", "{}", usage))
      .then(Step::tool_call("submit", "{}", usage));
}

json normalized(json event) {
  event.erase("t");
  event.erase("role");
  event.erase("seconds");
  // Fields added since the legacy loop: the workflow's, and the documentation level (its default, full, is
  // what the legacy loop served: the prompts compared here are the same).
  if (event["type"] == "run_start") {
    event.erase("workflow");
    event["context"].erase("docs");
  }
  if (event["type"] == "run_end") {
    for (const char* added : {"wall_seconds", "workflow", "roles", "steps", "docs"})
      event["result"].erase(added);
  }
  // Each run has its own server: its port shows in the settings and in provider error messages.
  static const std::regex port(R"(127\.0\.0\.1:[0-9]+)");
  // ... and the retries' wall time, which a loaded machine stretches.
  static const std::regex retry_time(R"(attempts in [0-9.]+ s)");
  return json::parse(
      std::regex_replace(std::regex_replace(event.dump(), port, "127.0.0.1:PORT"), retry_time, "attempts in T s"));
}

using Loop = AgentResult (*)(Provider&, const TaskContext&, const AgentBudget&, Transcript&);

std::vector<json> run(Loop loop, WireApi api, void (*script)(MockLlmServer&), const AgentBudget& budget) {
  MockLlmServer server(api);
  script(server);
  auto provider = make_provider(server.settings());
  TaskContext ctx;
  ctx.task = "relu";
  Transcript transcript;
  loop(*provider, ctx, budget, transcript);
  std::vector<json> out;
  for (const auto& e : transcript.events()) out.push_back(normalized(e));
  return out;
}

void expect_same(const std::vector<json>& legacy, const std::vector<json>& single) {
  ASSERT_EQ(single.size(), legacy.size());
  for (size_t i = 0; i < single.size(); ++i) EXPECT_EQ(single[i], legacy[i]) << "event " << i;
}

class SingleWorkflow : public ::testing::TestWithParam<WireApi> {};

TEST_P(SingleWorkflow, ReproducesTheLegacyLoopsTranscriptAndVerdict) {
  const auto legacy = run(legacy_run_llm_agent, GetParam(), script_repair, AgentBudget{});
  const auto single = run(run_llm_agent, GetParam(), script_repair, AgentBudget{});
  expect_same(legacy, single);
  EXPECT_EQ(single.size(), 38u);
  EXPECT_EQ(single.back()["result"]["status"], "submitted");
  EXPECT_EQ(single.back()["result"]["score"]["verdict"], "pass");
}

void script_outage(MockLlmServer& server) {
  server.then(Step::tool_call("write_code", code_args(relu_kernel(true))));
  server.set_fallback(Step::http_error(500));
}

void script_chatter(MockLlmServer& server) {
  server.set_fallback(Step::tool_call("grep_docs", R"({"query": "M_MM"})", {60000, 5000, 0, 0}));
}

TEST_P(SingleWorkflow, ReproducesTheLegacyLoopsEndsByOutageBudgetAndTokenCap) {
  expect_same(run(legacy_run_llm_agent, GetParam(), script_outage, AgentBudget{}),
              run(run_llm_agent, GetParam(), script_outage, AgentBudget{}));
  expect_same(run(legacy_run_llm_agent, GetParam(), script_chatter, AgentBudget{3, 0}),
              run(run_llm_agent, GetParam(), script_chatter, AgentBudget{3, 0}));
  expect_same(run(legacy_run_llm_agent, GetParam(), script_chatter, AgentBudget{0, 100000}),
              run(run_llm_agent, GetParam(), script_chatter, AgentBudget{0, 100000}));
}

INSTANTIATE_TEST_SUITE_P(Wire, SingleWorkflow, ::testing::Values(WireApi::kOpenAi, WireApi::kAnthropic),
                         [](const auto& param_info) {
                           return std::string(testing::wire_api_name(param_info.param));
                         });

}  // namespace
}  // namespace kcraft::agent
