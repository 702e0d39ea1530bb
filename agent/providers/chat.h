// What a provider is given and what it answers: the conversation with its tool calls, the request and
// the response, and the error when a request fails for good. Plain data, shared by the provider
// interface (provider.h), the wire formats (wire_format.h) and HTTP (http.h).
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace kcraft::agent {

// One tool call requested by the model. `arguments` is the raw JSON text the model produced: it may be
// malformed, and the agent loop (not the provider) decides what to tell the model about it.
struct ToolCall {
  std::string id;
  std::string name;
  std::string arguments;
};

struct ChatMessage {
  enum class Role { kUser, kAssistant, kTool };
  Role role = Role::kUser;
  std::string content;               // text (user, assistant) or tool result text (tool)
  std::vector<ToolCall> tool_calls;  // assistant only
  std::string tool_call_id;          // tool only: which call this answers
  std::string tool_name;             // tool only
  bool tool_error = false;           // tool only: the call failed (Anthropic `is_error`)
};

struct ToolSchema {
  std::string name;
  std::string description;
  nlohmann::json parameters;  // JSON Schema of the arguments object
};

struct ChatRequest {
  std::string system;                 // system prompt
  std::vector<ChatMessage> messages;  // the conversation so far, oldest first
  std::vector<ToolSchema> tools;
};

struct Usage {
  uint64_t prompt_tokens = 0;
  uint64_t completion_tokens = 0;
  uint64_t reasoning_tokens = 0;  // when the provider reports them (0 otherwise)
  uint64_t cached_prompt_tokens = 0;
};

struct ChatResponse {
  ChatMessage message;  // role kAssistant: text and/or tool calls
  Usage usage;
  std::string stop_reason;  // provider's own word: "stop", "tool_calls", "end_turn", "max_tokens", ...
  std::string model;        // as the provider reports it
  unsigned attempts = 1;    // HTTP attempts this response took (retries + 1)
  double seconds = 0;       // wall time including retries
};

// A request that failed for good (after retries when the failure was transient). The message never
// contains the API key.
class ProviderError : public std::runtime_error {
 public:
  enum class Kind {
    kUnreachable,  // connection refused / DNS / TLS: the endpoint is not there
    kTimeout,      // no complete answer within the timeout
    kRateLimited,  // 429 after all retries
    kServerError,  // 5xx after all retries
    kClientError,  // 4xx other than 429 (bad key, bad request, unknown model): not retried
    kBadResponse,  // the body is not the documented format
  };
  ProviderError(Kind kind, int http_status, const std::string& message)
      : std::runtime_error(message), kind_(kind), http_status_(http_status) {}
  Kind kind() const { return kind_; }
  int http_status() const { return http_status_; }

 private:
  Kind kind_;
  int http_status_;
};
const char* provider_error_kind_name(ProviderError::Kind kind);

}  // namespace kcraft::agent
