// A scripted LLM endpoint for tests: an in-process HTTP server on 127.0.0.1 that speaks the OpenAI
// chat-completions or the Anthropic messages wire format, plays a script of steps (answers and faults),
// and records every request it received.
//
//   MockLlmServer server(WireApi::kOpenAi);
//   server.then(Step::tool_call("write_code", R"({"code": "M_MM 0, 1, 2"})"))
//       .then(Step::http_error(429).retry_after("1"))  // a fault the client must retry through
//       .then(Step::branch_on_tool_result("error",
//                                         Step::tool_call("write_code", R"({"code": "fixed"})"),
//                                         Step::text("done")));
//   auto provider = make_provider(server.settings());
//   ... run the loop ...
//   EXPECT_EQ(server.request(1).last_tool_result()->content, "...");
//
// The server decodes each request body back into ChatMessages with its own code (not the provider's
// encoders), so tests can check what a client sent in either wire format the same way.
#pragma once

#include <condition_variable>
#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <thread>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "agent/providers/provider.h"

namespace httplib {
class Server;
struct Request;
struct Response;
}  // namespace httplib

namespace kcraft::agent::testing {

enum class WireApi { kOpenAi, kAnthropic };
const char* wire_api_name(WireApi api);

struct MockToolCall {
  std::string name;
  // Raw text. OpenAI: sent as `arguments` verbatim (it may be malformed JSON on purpose). Anthropic:
  // parsed into the `input` object; text that is not a JSON object is sent as a JSON string instead.
  std::string arguments;
  std::string id;  // empty: a fresh id ("call_<request>_<n>" / "toolu_<request>_<n>")
};

struct MockUsage {
  uint64_t prompt_tokens = 0;      // OpenAI prompt_tokens / Anthropic input_tokens
  uint64_t completion_tokens = 0;  // OpenAI completion_tokens / Anthropic output_tokens
  uint64_t reasoning_tokens = 0;   // OpenAI completion_tokens_details.reasoning_tokens (Anthropic: none)
  uint64_t cached_tokens = 0;      // OpenAI prompt_tokens_details.cached_tokens / cache_read_input_tokens
};

// What the "model" says in one turn.
struct MockReply {
  std::string text;  // OpenAI: content null when empty; Anthropic: no text block when empty
  std::vector<MockToolCall> tool_calls;
  MockUsage usage;
  std::string stop_reason;  // empty: tool_calls/stop (OpenAI), tool_use/end_turn (Anthropic)
  std::string model;        // empty: the model the request named
};

// One request as the server received it, with the conversation decoded from the body.
struct ReceivedRequest {
  size_t index = 0;  // order of arrival, from 0
  std::string method;
  std::string path;
  std::vector<std::pair<std::string, std::string>> headers;  // as received
  std::string body;
  nlohmann::json json;  // the parsed body; discarded (json.is_discarded()) when it is not JSON
  std::string played;   // what the server answered ("reply: 1 tool call", "http 429", ...)

  // Decoded from the body in the server's wire format. `decode_error` says what did not fit the format.
  std::string model;
  std::string system;
  std::vector<ChatMessage> messages;  // tool results carry tool_name, found from the matching call
  std::vector<std::string> tool_names;
  std::string decode_error;

  // Case-insensitive; "" when absent.
  std::string header(std::string_view name) const;
  size_t header_count(std::string_view name) const;
  const ChatMessage* last_message() const;
  // The most recent tool result in the conversation (nullptr when there is none).
  const ChatMessage* last_tool_result() const;
  bool last_tool_result_contains(std::string_view text) const;
};

// One entry of the script: an answer, a fault, or a function of the request that picks one.
class Step {
 public:
  static Step reply(MockReply reply);
  static Step text(std::string text, MockUsage usage = {});
  static Step tool_call(std::string name, std::string arguments, MockUsage usage = {});
  // An HTTP error. Without a body, the format's own error JSON ({"error": {"message": ...}}).
  static Step http_error(int status, std::string body = {});
  // Any status and body, sent as given.
  static Step raw(int status, std::string body, std::string content_type = "application/json");
  // HTTP 200 with a body that is not JSON.
  static Step malformed_json();
  // Closes the connection without answering.
  static Step close_connection();
  // Answers (with a short text reply) only after `seconds`, or when the server stops: longer than the
  // client's timeout, this is a timeout.
  static Step stall(double seconds);
  // Decides when the request arrives. Runs on a server thread; gtest EXPECT_* may be used in it.
  static Step dynamic(std::function<Step(const ReceivedRequest&)> build);
  // `if_found` when the latest tool result contains `text`, else `otherwise`.
  static Step branch_on_tool_result(std::string text, Step if_found, Step otherwise);

  // Modifiers (chain on the factories).
  Step& delay(double seconds);  // wait before answering
  Step& header(std::string name, std::string value);
  Step& retry_after(std::string value);  // header("Retry-After", value)

  std::string describe() const;

 private:
  friend class MockLlmServer;
  enum class Kind { kReply, kRaw, kHttpError, kClose, kDynamic };
  Kind kind_ = Kind::kReply;
  MockReply reply_;
  int status_ = 200;
  std::string body_;
  std::string content_type_ = "application/json";
  std::vector<std::pair<std::string, std::string>> headers_;
  double delay_seconds_ = 0;
  std::function<Step(const ReceivedRequest&)> build_;
};

class MockLlmServer {
 public:
  // Starts listening on 127.0.0.1 at a free port. Serves POST {base_url()}/chat/completions (OpenAI) or
  // /messages (Anthropic); other paths get 404 (and are recorded).
  explicit MockLlmServer(WireApi api);
  ~MockLlmServer();
  MockLlmServer(const MockLlmServer&) = delete;
  MockLlmServer& operator=(const MockLlmServer&) = delete;

  WireApi api() const { return api_; }
  int port() const { return port_; }
  std::string base_url() const;  // http://127.0.0.1:<port>/v1
  std::string endpoint_path() const;
  // Settings pointing here: provider and base_url set, model "mock-model", no key, 5 s timeout, 3 retries
  // with 1..8 ms backoff. Tests adjust what they need.
  ProviderSettings settings() const;

  // Appends to the script; steps are played in order, one per request.
  MockLlmServer& then(Step step);
  MockLlmServer& then(const Step& step, size_t times);
  MockLlmServer& script(std::vector<Step> steps);
  // Played (again and again) once the script is used up. Without one, such requests get HTTP 400 with
  // "mock LLM server: script exhausted" and are counted by unscripted_requests().
  void set_fallback(Step step);

  std::vector<ReceivedRequest> requests() const;
  ReceivedRequest request(size_t index) const;  // throws std::out_of_range
  size_t request_count() const;
  size_t steps_left() const;
  size_t unscripted_requests() const;

  // Stops serving (stalled answers are released). The destructor calls it.
  void stop();

 private:
  void handle(const httplib::Request& request, httplib::Response& response);
  void decode(ReceivedRequest& request) const;
  std::string reply_body(const MockReply& reply, const ReceivedRequest& request) const;
  std::string error_body(int status, const std::string& message) const;
  Step resolve(Step step, const ReceivedRequest& request) const;

  WireApi api_;
  int port_ = -1;
  std::unique_ptr<httplib::Server> server_;
  std::thread thread_;

  mutable std::mutex mutex_;
  std::condition_variable stop_signal_;
  bool stopping_ = false;
  std::deque<Step> script_;
  std::optional<Step> fallback_;
  std::vector<ReceivedRequest> requests_;
  size_t unscripted_ = 0;
};

}  // namespace kcraft::agent::testing
