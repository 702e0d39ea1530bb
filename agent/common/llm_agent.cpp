#include "agent/common/agent_run.h"

#include <fmt/format.h>

#include <chrono>

#include "agent/common/environment.h"

namespace kcraft::agent {

namespace {

using nlohmann::json;

json message_json(const ChatMessage& m) {
  json calls = json::array();
  for (const auto& c : m.tool_calls)
    calls.push_back({{"id", c.id}, {"name", c.name}, {"arguments", c.arguments}});
  return {{"role", "assistant"}, {"content", m.content}, {"tool_calls", calls}};
}

}  // namespace

AgentResult run_llm_agent(Provider& provider, const TaskContext& ctx, const AgentBudget& budget,
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

}  // namespace kcraft::agent
