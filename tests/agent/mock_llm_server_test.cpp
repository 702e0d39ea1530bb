// The mock server on its own, driven by a plain HTTP client (not the providers), so that the provider
// tests rest on a server that is known to speak the formats.
#include <gtest/gtest.h>

#include <httplib.h>

#include <chrono>

#include <nlohmann/json.hpp>

#include "tests/agent/mock_llm_server.h"

namespace kcraft::agent::testing {
namespace {

using nlohmann::json;
using Role = ChatMessage::Role;

httplib::Result post(const MockLlmServer& server, const json& body, const std::string& path = {}) {
  httplib::Client client("127.0.0.1", server.port());
  client.set_read_timeout(5, 0);
  return client.Post((path.empty() ? server.endpoint_path() : path).c_str(), {{"X-Test", "1"}}, body.dump(),
                     "application/json");
}

const json kOpenAiConversation = json::parse(R"({"model": "m1", "messages": [
    {"role": "system", "content": "sys"},
    {"role": "user", "content": "go"},
    {"role": "assistant", "content": null, "tool_calls": [
      {"id": "c1", "type": "function", "function": {"name": "check_syntax", "arguments": "{}"}}]},
    {"role": "tool", "tool_call_id": "c1", "content": "error: line 2"}],
  "tools": [{"type": "function", "function": {"name": "check_syntax", "description": "", "parameters": {}}}]})");

TEST(MockLlmServer, OpenAiRequestIsRecordedAndDecoded) {
  MockLlmServer server(WireApi::kOpenAi);
  server.then(Step::text("hi", {10, 2, 1, 4}));
  auto result = post(server, kOpenAiConversation);
  ASSERT_TRUE(result);
  EXPECT_EQ(result->status, 200);
  const auto body = json::parse(result->body);
  EXPECT_EQ(body["model"], "m1");
  EXPECT_EQ(body["choices"][0]["message"]["content"], "hi");
  EXPECT_FALSE(body["choices"][0]["message"].contains("tool_calls"));
  EXPECT_EQ(body["choices"][0]["finish_reason"], "stop");
  EXPECT_EQ(body["usage"]["prompt_tokens"], 10);
  EXPECT_EQ(body["usage"]["completion_tokens"], 2);
  EXPECT_EQ(body["usage"]["completion_tokens_details"]["reasoning_tokens"], 1);
  EXPECT_EQ(body["usage"]["prompt_tokens_details"]["cached_tokens"], 4);

  ASSERT_EQ(server.request_count(), 1u);
  const auto request = server.request(0);
  EXPECT_EQ(request.path, "/v1/chat/completions");
  EXPECT_EQ(request.header("x-test"), "1");
  EXPECT_TRUE(request.decode_error.empty()) << request.decode_error;
  EXPECT_EQ(request.model, "m1");
  EXPECT_EQ(request.system, "sys");
  ASSERT_EQ(request.messages.size(), 3u);
  EXPECT_EQ(request.messages[1].role, Role::kAssistant);
  ASSERT_EQ(request.messages[1].tool_calls.size(), 1u);
  EXPECT_EQ(request.messages[1].tool_calls[0].name, "check_syntax");
  ASSERT_NE(request.last_tool_result(), nullptr);
  EXPECT_EQ(request.last_tool_result()->tool_name, "check_syntax");  // found from the call id
  EXPECT_TRUE(request.last_tool_result_contains("error"));
  EXPECT_EQ(request.tool_names, std::vector<std::string>{"check_syntax"});
  EXPECT_EQ(request.played, "reply: 2 chars of text, 0 tool call(s)");
}

TEST(MockLlmServer, OpenAiToolCallReply) {
  MockLlmServer server(WireApi::kOpenAi);
  server.then(Step::tool_call("write_code", "{not json"));
  const auto body = json::parse(post(server, kOpenAiConversation)->body);
  const auto& message = body["choices"][0]["message"];
  EXPECT_TRUE(message["content"].is_null());
  EXPECT_EQ(message["tool_calls"][0]["id"], "call_0_0");
  EXPECT_EQ(message["tool_calls"][0]["type"], "function");
  EXPECT_EQ(message["tool_calls"][0]["function"]["name"], "write_code");
  EXPECT_EQ(message["tool_calls"][0]["function"]["arguments"], "{not json");  // verbatim
  EXPECT_EQ(body["choices"][0]["finish_reason"], "tool_calls");
}

TEST(MockLlmServer, AnthropicRequestIsDecodedAndAnswered) {
  MockLlmServer server(WireApi::kAnthropic);
  MockReply reply;
  reply.text = "calling";
  reply.tool_calls = {{"write_code", R"({"code": "x"})", ""}, {"grep_docs", "not an object", "toolu_fixed"}};
  reply.usage = {7, 3, 0, 2};
  server.then(Step::reply(reply));
  const auto sent = json::parse(R"({"model": "claude", "max_tokens": 10, "system": "sys", "messages": [
      {"role": "user", "content": "go"},
      {"role": "assistant", "content": [{"type": "tool_use", "id": "t1", "name": "run_eval", "input": {"seed": 1}},
                                        {"type": "tool_use", "id": "t2", "name": "profile", "input": {}}]},
      {"role": "user", "content": [
        {"type": "tool_result", "tool_use_id": "t1", "content": "mismatch", "is_error": false},
        {"type": "tool_result", "tool_use_id": "t2", "content": [{"type": "text", "text": "boom"}], "is_error": true},
        {"type": "text", "text": "hurry"}]}]})");
  auto result = post(server, sent);
  ASSERT_TRUE(result);
  const auto body = json::parse(result->body);
  EXPECT_EQ(body["type"], "message");
  EXPECT_EQ(body["model"], "claude");
  EXPECT_EQ(body["content"][0], json({{"type", "text"}, {"text", "calling"}}));
  EXPECT_EQ(body["content"][1]["id"], "toolu_0_0");
  EXPECT_EQ(body["content"][1]["input"], json({{"code", "x"}}));
  EXPECT_EQ(body["content"][2]["id"], "toolu_fixed");
  EXPECT_EQ(body["content"][2]["input"], "not an object");
  EXPECT_EQ(body["stop_reason"], "tool_use");
  EXPECT_EQ(body["usage"]["input_tokens"], 7);
  EXPECT_EQ(body["usage"]["cache_read_input_tokens"], 2);

  const auto request = server.request(0);
  ASSERT_TRUE(request.decode_error.empty()) << request.decode_error;
  EXPECT_EQ(request.system, "sys");
  ASSERT_EQ(request.messages.size(), 5u);
  EXPECT_EQ(request.messages[1].tool_calls[0].arguments, R"({"seed":1})");
  EXPECT_EQ(request.messages[2].role, Role::kTool);
  EXPECT_EQ(request.messages[2].tool_name, "run_eval");
  EXPECT_FALSE(request.messages[2].tool_error);
  EXPECT_EQ(request.messages[3].content, "boom");
  EXPECT_TRUE(request.messages[3].tool_error);
  EXPECT_EQ(request.messages[4].role, Role::kUser);
  EXPECT_EQ(request.messages[4].content, "hurry");
  EXPECT_EQ(request.last_tool_result()->tool_call_id, "t2");
}

TEST(MockLlmServer, ErrorsFallbackAndExhaustion) {
  MockLlmServer server(WireApi::kAnthropic);
  server.then(Step::http_error(429).retry_after("3"));
  auto limited = post(server, kOpenAiConversation);
  ASSERT_TRUE(limited);
  EXPECT_EQ(limited->status, 429);
  EXPECT_EQ(limited->get_header_value("Retry-After"), "3");
  EXPECT_EQ(json::parse(limited->body)["error"]["message"], "mock error 429");
  EXPECT_EQ(server.unscripted_requests(), 0u);

  auto exhausted = post(server, kOpenAiConversation);
  EXPECT_EQ(exhausted->status, 400);
  EXPECT_NE(exhausted->body.find("script exhausted"), std::string::npos);
  EXPECT_EQ(server.unscripted_requests(), 1u);

  server.set_fallback(Step::http_error(503));
  EXPECT_EQ(post(server, kOpenAiConversation)->status, 503);
  EXPECT_EQ(post(server, kOpenAiConversation)->status, 503);
  EXPECT_EQ(server.unscripted_requests(), 1u);
  EXPECT_EQ(server.request_count(), 4u);
}

TEST(MockLlmServer, UnknownPathDoesNotConsumeTheScript) {
  MockLlmServer server(WireApi::kOpenAi);
  server.then(Step::text("kept"));
  EXPECT_EQ(post(server, kOpenAiConversation, "/v1/messages")->status, 404);
  EXPECT_EQ(server.steps_left(), 1u);
  EXPECT_EQ(json::parse(post(server, kOpenAiConversation)->body)["choices"][0]["message"]["content"], "kept");
  EXPECT_EQ(server.steps_left(), 0u);
  EXPECT_EQ(server.request(0).path, "/v1/messages");
}

TEST(MockLlmServer, DynamicStepsSeeTheRequest) {
  MockLlmServer server(WireApi::kOpenAi);
  server.then(Step::branch_on_tool_result("error", Step::text("fixing"), Step::text("done")))
      .then(Step::branch_on_tool_result("error", Step::text("fixing"), Step::text("done")))
      .then(Step::dynamic([](const ReceivedRequest& request) {
        return Step::text("you sent " + std::to_string(request.messages.size()) + " messages");
      }));
  auto content = [](const httplib::Result& result) {
    return json::parse(result->body)["choices"][0]["message"]["content"].get<std::string>();
  };
  EXPECT_EQ(content(post(server, kOpenAiConversation)), "fixing");
  auto passed = kOpenAiConversation;
  passed["messages"][3]["content"] = "pass";
  EXPECT_EQ(content(post(server, passed)), "done");
  EXPECT_EQ(content(post(server, passed)), "you sent 3 messages");
}

TEST(MockLlmServer, NonJsonBodyIsRecordedWithADecodeError) {
  MockLlmServer server(WireApi::kOpenAi);
  server.then(Step::malformed_json());
  httplib::Client client("127.0.0.1", server.port());
  auto result = client.Post(server.endpoint_path().c_str(), "not json", "text/plain");
  ASSERT_TRUE(result);
  EXPECT_EQ(result->status, 200);
  EXPECT_TRUE(json::parse(result->body, nullptr, false).is_discarded());
  const auto request = server.request(0);
  EXPECT_EQ(request.body, "not json");
  EXPECT_TRUE(request.json.is_discarded());
  EXPECT_EQ(request.decode_error, "body is not JSON");
}

TEST(MockLlmServer, CloseConnectionSendsNothing) {
  MockLlmServer server(WireApi::kOpenAi);
  server.then(Step::close_connection()).then(Step::text("after"));
  auto dropped = post(server, kOpenAiConversation);
  EXPECT_FALSE(dropped);  // no response at all
  auto next = post(server, kOpenAiConversation);
  ASSERT_TRUE(next);
  EXPECT_EQ(next->status, 200);
}

TEST(MockLlmServer, StopReleasesStalledAnswers) {
  auto server = std::make_unique<MockLlmServer>(WireApi::kOpenAi);
  server->then(Step::stall(60));
  httplib::Client client("127.0.0.1", server->port());
  client.set_read_timeout(0, 200'000);
  EXPECT_FALSE(client.Post(server->endpoint_path().c_str(), kOpenAiConversation.dump(), "application/json"));
  const auto start = std::chrono::steady_clock::now();
  server.reset();
  EXPECT_LT(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(), 2.0);
}

TEST(MockLlmServer, RequestOutOfRangeThrows) {
  MockLlmServer server(WireApi::kOpenAi);
  EXPECT_THROW(server.request(0), std::out_of_range);
  EXPECT_EQ(server.settings().base_url, server.base_url());
  EXPECT_EQ(server.settings().provider, "openai");
  EXPECT_EQ(MockLlmServer(WireApi::kAnthropic).settings().provider, "anthropic");
}

}  // namespace
}  // namespace kcraft::agent::testing
