// Normal exchanges: what each provider sends (checked field by field on the wire) and how it reads the
// answer.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "agent/providers/provider.h"
#include "tests/agent/mock_llm_server.h"
#include "tests/agent/test_support.h"

namespace kcraft::agent::testing {
namespace {

using nlohmann::json;
using Role = ChatMessage::Role;

constexpr const char* kKeyVariable = "KCRAFT_TEST_PROVIDER_KEY";
constexpr const char* kKey = "sk-test-Zq81mXv0Lw2Hc7Rt5Ny3";

ChatMessage user(std::string text) {
  ChatMessage message;
  message.role = Role::kUser;
  message.content = std::move(text);
  return message;
}

ChatMessage assistant(std::string text, std::vector<ToolCall> calls) {
  ChatMessage message;
  message.role = Role::kAssistant;
  message.content = std::move(text);
  message.tool_calls = std::move(calls);
  return message;
}

ChatMessage tool_result(std::string id, std::string name, std::string text, bool error = false) {
  ChatMessage message;
  message.role = Role::kTool;
  message.tool_call_id = std::move(id);
  message.tool_name = std::move(name);
  message.content = std::move(text);
  message.tool_error = error;
  return message;
}

// Parallel tool calls, an error result, user text right after tool results, and a tool-only assistant
// turn: every case where the two wire formats differ.
ChatRequest sample_request() {
  ChatRequest request;
  request.system = "You write kernels for the systolic NPU.";
  request.messages = {
      user("Write a GEMM kernel."),
      assistant("I will write it and check it.",
                {{"call_1", "write_code", R"({"code": "M_MM 0, 1, 2"})"}, {"call_2", "check_syntax", "{}"}}),
      tool_result("call_1", "write_code", "written: 1 line"),
      tool_result("call_2", "check_syntax", "line 1: unknown register", /*error=*/true),
      user("Budget: 3 iterations left."),
      assistant("", {{"call_3", "run_eval", R"({"seed": 7})"}}),
      tool_result("call_3", "run_eval", "pass: 100% match, 1234 cycles"),
  };
  request.tools = {
      {"write_code", "Replace the kernel source.",
       json::parse(
           R"({"type": "object", "properties": {"code": {"type": "string"}}, "required": ["code"]})")},
      {"run_eval", "Assemble, run and compare with the reference.",
       json::parse(R"({"type": "object", "properties": {"seed": {"type": "integer"}}})")},
  };
  return request;
}

// The server decodes with its own code; what it read must be the conversation the client was given.
void expect_same_conversation(const ChatRequest& expected, const ReceivedRequest& sent, bool has_error_flag) {
  ASSERT_TRUE(sent.decode_error.empty()) << sent.decode_error;
  EXPECT_EQ(sent.system, expected.system);
  ASSERT_EQ(sent.messages.size(), expected.messages.size());
  for (size_t i = 0; i < expected.messages.size(); ++i) {
    SCOPED_TRACE("message " + std::to_string(i));
    const auto& want = expected.messages[i];
    const auto& got = sent.messages[i];
    EXPECT_EQ(got.role, want.role);
    EXPECT_EQ(got.content, want.content);
    EXPECT_EQ(got.tool_call_id, want.tool_call_id);
    EXPECT_EQ(got.tool_name, want.tool_name);
    if (has_error_flag) {
      EXPECT_EQ(got.tool_error, want.tool_error);
    }
    ASSERT_EQ(got.tool_calls.size(), want.tool_calls.size());
    for (size_t c = 0; c < want.tool_calls.size(); ++c) {
      EXPECT_EQ(got.tool_calls[c].id, want.tool_calls[c].id);
      EXPECT_EQ(got.tool_calls[c].name, want.tool_calls[c].name);
      EXPECT_EQ(json::parse(got.tool_calls[c].arguments), json::parse(want.tool_calls[c].arguments));
    }
  }
  EXPECT_EQ(sent.tool_names, (std::vector<std::string>{"write_code", "run_eval"}));
}

// The key travels in exactly one header and nowhere else.
void expect_key_only_in(const ReceivedRequest& sent, const std::string& header, const std::string& value) {
  EXPECT_EQ(sent.header(header), value);
  EXPECT_EQ(sent.header_count(header), 1u);
  EXPECT_EQ(sent.body.find(kKey), std::string::npos);
  EXPECT_EQ(sent.path.find(kKey), std::string::npos);
  for (const auto& [name, text] : sent.headers) {
    if (name == header) continue;
    EXPECT_EQ(text.find(kKey), std::string::npos) << "key in header " << name;
  }
}

TEST(OpenAiProvider, ToolCallingExchangeOnTheWire) {
  ScopedEnv key(kKeyVariable, kKey);
  MockLlmServer server(WireApi::kOpenAi);
  MockReply reply;
  reply.text = "Running the evaluation.";
  reply.tool_calls = {{"run_eval", R"({"seed": 3})", "call_server_1"},
                      {"view_output", R"({"rows": [0, 1]})", ""}};
  reply.usage = {1200, 85, 40, 1024};
  reply.model = "gpt-mock-2025";
  server.then(Step::reply(reply));

  auto settings = server.settings();
  settings.api_key_env = kKeyVariable;
  settings.temperature = 0.5;
  settings.max_tokens = 777;
  const auto request = sample_request();
  const auto response = make_provider(settings)->complete(request);

  ASSERT_EQ(server.request_count(), 1u);
  const auto sent = server.request(0);
  EXPECT_EQ(sent.method, "POST");
  EXPECT_EQ(sent.path, "/v1/chat/completions");
  EXPECT_EQ(sent.header("Content-Type"), "application/json");
  expect_key_only_in(sent, "Authorization", std::string("Bearer ") + kKey);
  EXPECT_EQ(sent.header_count("x-api-key"), 0u);

  const auto& body = sent.json;
  EXPECT_EQ(body["model"], "mock-model");
  EXPECT_DOUBLE_EQ(body["temperature"].get<double>(), 0.5);
  EXPECT_EQ(body["max_tokens"], 777);
  EXPECT_FALSE(body.contains("max_completion_tokens"));
  const auto& messages = body["messages"];
  ASSERT_EQ(messages.size(), 8u);
  EXPECT_EQ(messages[0], json({{"role", "system"}, {"content", request.system}}));
  EXPECT_EQ(messages[1], json({{"role", "user"}, {"content", "Write a GEMM kernel."}}));
  EXPECT_EQ(messages[2], json::parse(R"({"role": "assistant", "content": "I will write it and check it.",
      "tool_calls": [
        {"id": "call_1", "type": "function", "function": {"name": "write_code", "arguments": "{\"code\": \"M_MM 0, 1, 2\"}"}},
        {"id": "call_2", "type": "function", "function": {"name": "check_syntax", "arguments": "{}"}}]})"));
  EXPECT_EQ(messages[3],
            json({{"role", "tool"}, {"tool_call_id", "call_1"}, {"content", "written: 1 line"}}));
  EXPECT_EQ(messages[4],
            json({{"role", "tool"}, {"tool_call_id", "call_2"}, {"content", "line 1: unknown register"}}));
  EXPECT_EQ(messages[5], json({{"role", "user"}, {"content", "Budget: 3 iterations left."}}));
  // A tool-only assistant turn has null content.
  EXPECT_EQ(messages[6], json::parse(R"({"role": "assistant", "content": null, "tool_calls": [
        {"id": "call_3", "type": "function", "function": {"name": "run_eval", "arguments": "{\"seed\": 7}"}}]})"));
  EXPECT_EQ(
      messages[7],
      json({{"role", "tool"}, {"tool_call_id", "call_3"}, {"content", "pass: 100% match, 1234 cycles"}}));
  ASSERT_EQ(body["tools"].size(), 2u);
  EXPECT_EQ(body["tools"][0], json({{"type", "function"},
                                    {"function",
                                     {{"name", "write_code"},
                                      {"description", "Replace the kernel source."},
                                      {"parameters", request.tools[0].parameters}}}}));
  EXPECT_EQ(body["tools"][1]["function"]["name"], "run_eval");
  expect_same_conversation(request, sent, /*has_error_flag=*/false);

  EXPECT_EQ(response.message.role, Role::kAssistant);
  EXPECT_EQ(response.message.content, "Running the evaluation.");
  ASSERT_EQ(response.message.tool_calls.size(), 2u);
  EXPECT_EQ(response.message.tool_calls[0].id, "call_server_1");
  EXPECT_EQ(response.message.tool_calls[0].name, "run_eval");
  EXPECT_EQ(response.message.tool_calls[0].arguments, R"({"seed": 3})");
  EXPECT_EQ(response.message.tool_calls[1].id, "call_0_1");
  EXPECT_EQ(response.message.tool_calls[1].name, "view_output");
  EXPECT_EQ(response.message.tool_calls[1].arguments, R"({"rows": [0, 1]})");
  EXPECT_EQ(response.stop_reason, "tool_calls");
  EXPECT_EQ(response.model, "gpt-mock-2025");
  EXPECT_EQ(response.usage.prompt_tokens, 1200u);
  EXPECT_EQ(response.usage.completion_tokens, 85u);
  EXPECT_EQ(response.usage.reasoning_tokens, 40u);
  EXPECT_EQ(response.usage.cached_prompt_tokens, 1024u);
  EXPECT_EQ(response.attempts, 1u);
  EXPECT_GT(response.seconds, 0.0);
  EXPECT_LT(response.seconds, 5.0);
}

TEST(OpenAiProvider, SettingsShapeTheRequest) {
  MockLlmServer server(WireApi::kOpenAi);
  server.then(Step::text("ok"));
  auto settings = server.settings();
  settings.max_tokens = 4096;
  settings.max_tokens_field = "max_completion_tokens";
  settings.extra_body = {{"reasoning_effort", "low"}, {"temperature", 1}};
  settings.extra_headers = {{"OpenAI-Organization", "org-kcraft"},
                            {"content-type", "application/json; charset=utf-8"}};
  ChatRequest request;
  request.messages = {user("hello")};
  const auto response = make_provider(settings)->complete(request);
  EXPECT_EQ(response.message.content, "ok");
  EXPECT_TRUE(response.message.tool_calls.empty());
  EXPECT_EQ(response.stop_reason, "stop");

  const auto sent = server.request(0);
  EXPECT_EQ(sent.json["max_completion_tokens"], 4096);
  EXPECT_FALSE(sent.json.contains("max_tokens"));
  EXPECT_EQ(sent.json["reasoning_effort"], "low");
  EXPECT_EQ(sent.json["temperature"], 1);     // extra_body wins
  EXPECT_FALSE(sent.json.contains("tools"));  // no empty tools array: some servers reject it
  // No system prompt, no system message.
  ASSERT_EQ(sent.json["messages"].size(), 1u);
  EXPECT_EQ(sent.json["messages"][0]["role"], "user");
  EXPECT_EQ(sent.header("OpenAI-Organization"), "org-kcraft");
  // An extra header replaces the default of the same name instead of doubling it.
  EXPECT_EQ(sent.header_count("Content-Type"), 1u);
  EXPECT_EQ(sent.header("Content-Type"), "application/json; charset=utf-8");
  EXPECT_EQ(sent.header_count("Authorization"), 0u);  // no key configured, no header
}

// Shapes real OpenAI-compatible servers produce besides the canonical one.
TEST(OpenAiProvider, ReadsCompatibleServerVariants) {
  MockLlmServer server(WireApi::kOpenAi);
  // Content as an array of parts, arguments as an object, a call without id, no usage, finish_reason null.
  server.then(
      Step::raw(200, R"({"model": "llama", "choices": [{"index": 0, "finish_reason": null, "message": {
      "role": "assistant", "content": [{"type": "text", "text": "Hello "}, {"type": "text", "text": "there"}],
      "tool_calls": [{"type": "function", "function": {"name": "grep_docs", "arguments": {"pattern": "M_MM"}}}]}}]})"));
  // tool_calls null, content null, usage without details.
  server.then(
      Step::raw(200, R"({"choices": [{"message": {"role": "assistant", "content": null, "tool_calls": null},
      "finish_reason": "length"}], "usage": {"prompt_tokens": 10, "completion_tokens": 0}})"));
  auto provider = make_provider(server.settings());
  ChatRequest request;
  request.messages = {user("hi")};

  const auto first = provider->complete(request);
  EXPECT_EQ(first.message.content, "Hello there");
  ASSERT_EQ(first.message.tool_calls.size(), 1u);
  EXPECT_EQ(first.message.tool_calls[0].name, "grep_docs");
  EXPECT_EQ(json::parse(first.message.tool_calls[0].arguments), json({{"pattern", "M_MM"}}));
  EXPECT_FALSE(first.message.tool_calls[0].id.empty());
  EXPECT_EQ(first.stop_reason, "");
  EXPECT_EQ(first.model, "llama");
  EXPECT_EQ(first.usage.prompt_tokens, 0u);

  const auto second = provider->complete(request);
  EXPECT_EQ(second.message.content, "");
  EXPECT_TRUE(second.message.tool_calls.empty());
  EXPECT_EQ(second.stop_reason, "length");
  EXPECT_EQ(second.usage.prompt_tokens, 10u);
  EXPECT_EQ(second.usage.reasoning_tokens, 0u);
}

TEST(OpenAiProvider, MalformedToolArgumentsArePassedThroughRaw) {
  MockLlmServer server(WireApi::kOpenAi);
  server.then(Step::tool_call("write_code", R"({"code": "unterminated)"));
  ChatRequest request;
  request.messages = {user("go")};
  const auto response = make_provider(server.settings())->complete(request);
  ASSERT_EQ(response.message.tool_calls.size(), 1u);
  EXPECT_EQ(response.message.tool_calls[0].arguments, R"({"code": "unterminated)");
}

TEST(AnthropicProvider, ToolCallingExchangeOnTheWire) {
  ScopedEnv key(kKeyVariable, kKey);
  MockLlmServer server(WireApi::kAnthropic);
  MockReply reply;
  reply.text = "Running the evaluation.";
  reply.tool_calls = {{"run_eval", R"({"seed": 3})", "toolu_server_1"},
                      {"view_output", R"({"rows": [0, 1]})", ""}};
  reply.usage = {300, 85, 0, 1024};
  server.then(Step::reply(reply));

  auto settings = server.settings();
  settings.api_key_env = kKeyVariable;
  settings.temperature = 0.0;
  settings.max_tokens = 2048;
  const auto request = sample_request();
  const auto response = make_provider(settings)->complete(request);

  const auto sent = server.request(0);
  EXPECT_EQ(sent.path, "/v1/messages");
  EXPECT_EQ(sent.header("anthropic-version"), "2023-06-01");
  EXPECT_EQ(sent.header("Content-Type"), "application/json");
  expect_key_only_in(sent, "x-api-key", kKey);
  EXPECT_EQ(sent.header_count("Authorization"), 0u);

  const auto& body = sent.json;
  EXPECT_EQ(body["model"], "mock-model");
  EXPECT_EQ(body["system"], request.system);
  EXPECT_EQ(body["max_tokens"], 2048);
  EXPECT_DOUBLE_EQ(body["temperature"].get<double>(), 0.0);
  const auto& messages = body["messages"];
  ASSERT_EQ(messages.size(), 5u);
  EXPECT_EQ(
      messages[0],
      json::parse(R"({"role": "user", "content": [{"type": "text", "text": "Write a GEMM kernel."}]})"));
  EXPECT_EQ(messages[1], json::parse(R"({"role": "assistant", "content": [
      {"type": "text", "text": "I will write it and check it."},
      {"type": "tool_use", "id": "call_1", "name": "write_code", "input": {"code": "M_MM 0, 1, 2"}},
      {"type": "tool_use", "id": "call_2", "name": "check_syntax", "input": {}}]})"));
  // Both tool results and the user's text after them make one user turn.
  EXPECT_EQ(messages[2], json::parse(R"({"role": "user", "content": [
      {"type": "tool_result", "tool_use_id": "call_1", "content": "written: 1 line", "is_error": false},
      {"type": "tool_result", "tool_use_id": "call_2", "content": "line 1: unknown register", "is_error": true},
      {"type": "text", "text": "Budget: 3 iterations left."}]})"));
  // No empty text block for a tool-only turn.
  EXPECT_EQ(messages[3], json::parse(R"({"role": "assistant", "content": [
      {"type": "tool_use", "id": "call_3", "name": "run_eval", "input": {"seed": 7}}]})"));
  EXPECT_EQ(messages[4], json::parse(R"({"role": "user", "content": [
      {"type": "tool_result", "tool_use_id": "call_3", "content": "pass: 100% match, 1234 cycles", "is_error": false}]})"));
  ASSERT_EQ(body["tools"].size(), 2u);
  EXPECT_EQ(body["tools"][0], json({{"name", "write_code"},
                                    {"description", "Replace the kernel source."},
                                    {"input_schema", request.tools[0].parameters}}));
  expect_same_conversation(request, sent, /*has_error_flag=*/true);

  EXPECT_EQ(response.message.role, Role::kAssistant);
  EXPECT_EQ(response.message.content, "Running the evaluation.");
  ASSERT_EQ(response.message.tool_calls.size(), 2u);
  EXPECT_EQ(response.message.tool_calls[0].id, "toolu_server_1");
  EXPECT_EQ(response.message.tool_calls[0].name, "run_eval");
  EXPECT_EQ(json::parse(response.message.tool_calls[0].arguments), json({{"seed", 3}}));
  EXPECT_EQ(response.message.tool_calls[1].id, "toolu_0_1");
  EXPECT_EQ(json::parse(response.message.tool_calls[1].arguments), json({{"rows", {0, 1}}}));
  EXPECT_EQ(response.stop_reason, "tool_use");
  EXPECT_EQ(response.model, "mock-model");
  // Anthropic counts cache reads apart from input_tokens; Usage counts them inside prompt_tokens.
  EXPECT_EQ(response.usage.prompt_tokens, 300u + 1024u);
  EXPECT_EQ(response.usage.cached_prompt_tokens, 1024u);
  EXPECT_EQ(response.usage.completion_tokens, 85u);
  EXPECT_EQ(response.usage.reasoning_tokens, 0u);
  EXPECT_EQ(response.attempts, 1u);
}

TEST(AnthropicProvider, ExtraHeadersOverrideTheVersion) {
  MockLlmServer server(WireApi::kAnthropic);
  server.then(Step::text("ok"));
  auto settings = server.settings();
  settings.extra_headers = {{"Anthropic-Version", "2025-01-01"}, {"anthropic-beta", "tools-2024"}};
  ChatRequest request;
  request.messages = {user("hello")};
  const auto response = make_provider(settings)->complete(request);
  EXPECT_EQ(response.stop_reason, "end_turn");
  const auto sent = server.request(0);
  EXPECT_EQ(sent.header_count("anthropic-version"), 1u);
  EXPECT_EQ(sent.header("anthropic-version"), "2025-01-01");
  EXPECT_EQ(sent.header("anthropic-beta"), "tools-2024");
  EXPECT_FALSE(sent.json.contains("system"));
  EXPECT_FALSE(sent.json.contains("tools"));
  EXPECT_EQ(sent.header_count("x-api-key"), 0u);
}

TEST(AnthropicProvider, ReadsBlocksItDoesNotUseAndCacheWrites) {
  MockLlmServer server(WireApi::kAnthropic);
  server.then(Step::raw(200, R"({"type": "message", "role": "assistant", "model": "claude-mock", "content": [
      {"type": "thinking", "thinking": "hmm", "signature": "abc"},
      {"type": "text", "text": "First."},
      {"type": "text", "text": "Second."},
      {"type": "tool_use", "id": "toolu_9", "name": "submit", "input": {}}],
    "stop_reason": "tool_use",
    "usage": {"input_tokens": 5, "output_tokens": 7, "cache_creation_input_tokens": 100, "cache_read_input_tokens": 20}})"));
  ChatRequest request;
  request.messages = {user("hi")};
  const auto response = make_provider(server.settings())->complete(request);
  EXPECT_EQ(response.message.content, "First.\nSecond.");
  ASSERT_EQ(response.message.tool_calls.size(), 1u);
  EXPECT_EQ(response.message.tool_calls[0].arguments, "{}");
  EXPECT_EQ(response.usage.prompt_tokens, 125u);
  EXPECT_EQ(response.usage.cached_prompt_tokens, 20u);
  EXPECT_EQ(response.usage.completion_tokens, 7u);
  EXPECT_EQ(response.model, "claude-mock");
}

// An assistant turn whose arguments are not a JSON object (possible only in a conversation that came
// from another provider) still yields a valid request.
TEST(AnthropicProvider, NonObjectArgumentsTravelWrapped) {
  MockLlmServer server(WireApi::kAnthropic);
  server.then(Step::text("ok"));
  ChatRequest request;
  request.messages = {user("go"), assistant("", {{"c1", "write_code", "{broken"}}),
                      tool_result("c1", "write_code", "arguments are not JSON", true)};
  make_provider(server.settings())->complete(request);
  const auto sent = server.request(0);
  EXPECT_EQ(sent.json["messages"][1]["content"][0]["input"], json({{"_raw_arguments", "{broken"}}));
}

// Bytes that are not UTF-8 in a tool result (a kernel file, a dump) do not make the request fail.
TEST(Providers, InvalidUtf8InToolOutputIsReplaced) {
  for (auto api : {WireApi::kOpenAi, WireApi::kAnthropic}) {
    SCOPED_TRACE(wire_api_name(api));
    MockLlmServer server(api);
    server.then(Step::text("ok"));
    ChatRequest request;
    request.messages = {user("go"), assistant("", {{"c1", "view_output", "{}"}}),
                        tool_result("c1", "view_output", std::string("row 0: \xff\xfe caf\xc3\xa9"))};
    EXPECT_EQ(make_provider(server.settings())->complete(request).message.content, "ok");
    const auto sent = server.request(0);
    ASSERT_TRUE(sent.decode_error.empty()) << sent.decode_error;
    EXPECT_EQ(sent.last_tool_result()->content, "row 0: \xef\xbf\xbd\xef\xbf\xbd caf\xc3\xa9");
  }
}

}  // namespace
}  // namespace kcraft::agent::testing
