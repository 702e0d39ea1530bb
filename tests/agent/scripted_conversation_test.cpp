// A whole tool-using conversation through a real provider and a scripted server, the way the agent-loop
// tests use the mock: bad code -> syntax error -> fix -> mismatch -> view_output -> fix -> pass. The
// "loop" here is a toy that runs canned tools; the point is the script API and that every turn's tool
// results reach the server in both wire formats.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "agent/providers/provider.h"
#include "tests/agent/mock_llm_server.h"

namespace kcraft::agent::testing {
namespace {

using nlohmann::json;

class ToyTools {
 public:
  // Returns {result text, is_error}.
  std::pair<std::string, bool> run(const ToolCall& call) {
    const auto arguments = json::parse(call.arguments);
    if (call.name == "write_code") {
      code_ = arguments.at("code").get<std::string>();
      return {"written", false};
    }
    if (call.name == "check_syntax") {
      if (code_.find("bogus") != std::string::npos) return {"error: line 1: unknown operand 'bogus'", true};
      return {"ok", false};
    }
    if (call.name == "run_eval") {
      if (code_ == "fixed") return {"pass: 256/256 elements match, 812 cycles", false};
      return {"mismatch: 3 of 256 elements differ", false};
    }
    if (call.name == "view_output") return {"row 3: got 1.5, want 2.0", false};
    return {"unknown tool " + call.name, true};
  }

 private:
  std::string code_;
};

class ScriptedConversation : public ::testing::TestWithParam<WireApi> {};

TEST_P(ScriptedConversation, FixesTheKernelStepByStep) {
  MockLlmServer server(GetParam());
  const auto unexpected = Step::http_error(418, "the script did not expect this tool result");
  server.then(Step::tool_call("write_code", R"({"code": "M_MM bogus"})", {100, 10, 0, 0}))
      .then(Step::tool_call("check_syntax", "{}", {120, 5, 0, 100}))
      .then(Step::branch_on_tool_result("error", Step::tool_call("write_code", R"({"code": "M_MM 0, 1, 2"})"),
                                        unexpected))
      .then(Step::tool_call("run_eval", "{}"))
      .then(Step::branch_on_tool_result("mismatch", Step::tool_call("view_output", R"({"rows": [3]})"),
                                        unexpected))
      .then(Step::dynamic([](const ReceivedRequest& request) {
        EXPECT_EQ(request.last_tool_result()->tool_name, "view_output");
        return Step::tool_call("write_code", R"({"code": "fixed"})");
      }))
      .then(Step::tool_call("run_eval", "{}"))
      .then(Step::branch_on_tool_result("pass", Step::text("Done: the kernel passes."), unexpected));

  auto settings = server.settings();
  auto provider = make_provider(settings);
  ToyTools tools;
  ChatRequest request;
  request.system = "You write kernels.";
  request.tools = {{"write_code", "", json::object()},
                   {"check_syntax", "", json::object()},
                   {"run_eval", "", json::object()},
                   {"view_output", "", json::object()}};
  ChatMessage task;
  task.content = "Write GEMM.";
  request.messages.push_back(task);

  Usage total;
  std::string final_text;
  for (int turn = 0; turn < 20; ++turn) {
    const auto response = provider->complete(request);
    total.prompt_tokens += response.usage.prompt_tokens;
    total.cached_prompt_tokens += response.usage.cached_prompt_tokens;
    request.messages.push_back(response.message);
    if (response.message.tool_calls.empty()) {
      final_text = response.message.content;
      break;
    }
    for (const auto& call : response.message.tool_calls) {
      const auto [text, error] = tools.run(call);
      ChatMessage result;
      result.role = ChatMessage::Role::kTool;
      result.tool_call_id = call.id;
      result.tool_name = call.name;
      result.content = text;
      result.tool_error = error;
      request.messages.push_back(result);
    }
  }

  EXPECT_EQ(final_text, "Done: the kernel passes.");
  EXPECT_EQ(server.request_count(), 8u);
  EXPECT_EQ(server.steps_left(), 0u);
  EXPECT_EQ(server.unscripted_requests(), 0u);
  // Every request carried the whole conversation so far: task + (call, result) per turn.
  for (size_t i = 0; i < server.request_count(); ++i) {
    EXPECT_EQ(server.request(i).messages.size(), 1 + 2 * i) << "request " << i;
  }
  const auto last = server.request(7);
  EXPECT_EQ(last.system, "You write kernels.");
  EXPECT_EQ(last.messages[4].content, "error: line 1: unknown operand 'bogus'");
  if (GetParam() == WireApi::kAnthropic) {
    EXPECT_TRUE(last.messages[4].tool_error);  // OpenAI has no error flag for tool results
  }
  EXPECT_EQ(last.last_tool_result()->content, "pass: 256/256 elements match, 812 cycles");
  EXPECT_EQ(total.prompt_tokens, GetParam() == WireApi::kAnthropic ? 100u + 120u + 100u : 100u + 120u);
  EXPECT_EQ(total.cached_prompt_tokens, 100u);
}

INSTANTIATE_TEST_SUITE_P(Both, ScriptedConversation, ::testing::Values(WireApi::kOpenAi, WireApi::kAnthropic),
                         [](const ::testing::TestParamInfo<WireApi>& param_info) {
                           return wire_api_name(param_info.param);
                         });

}  // namespace
}  // namespace kcraft::agent::testing
