// LLM providers: one chat-with-tools interface over the wire formats kcraft speaks.
//
//   - OpenAI-compatible chat completions (`/v1/chat/completions` with `tools`): OpenAI, vLLM, llama.cpp
//     server, Ollama, and hosted services that copy the format;
//   - the Anthropic Messages API (`/v1/messages` with `tool_use` / `tool_result` blocks).
//
// Providers talk HTTP through libcurl, retry 429 and 5xx with exponential backoff and jitter (honouring
// Retry-After), and never let the API key appear in an error message, a log line or a transcript.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
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
  ChatMessage message;      // role kAssistant: text and/or tool calls
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

// Settings of one provider endpoint, from YAML (see agent/providers/README or docs/agents.md):
//   provider: openai | anthropic
//   base_url: https://api.openai.com/v1        (the part before /chat/completions or /messages)
//   model: gpt-4.1
//   api_key_env: OPENAI_API_KEY                (the key is read from this environment variable; may be
//                                              empty for local servers that need no key)
//   temperature: 0.2
//   max_tokens: 8192
//   timeout_seconds: 120                       (whole request)
//   connect_timeout_seconds: 10
//   max_retries: 5                             (for 429 / 5xx / timeouts)
//   backoff_initial_ms: 1000, backoff_max_ms: 60000
//   extra_headers: {anthropic-version: 2023-06-01}   (optional)
//   max_tokens_field: max_completion_tokens    (optional, OpenAI only; default max_tokens)
//   extra_body: {top_p: 0.9}                   (optional; merged into the request body)
struct ProviderSettings {
  std::string provider = "openai";
  std::string base_url;
  std::string model;
  std::string api_key_env;
  double temperature = 0.2;
  unsigned max_tokens = 8192;
  double timeout_seconds = 120;
  double connect_timeout_seconds = 10;
  unsigned max_retries = 5;
  unsigned backoff_initial_ms = 1000;
  unsigned backoff_max_ms = 60000;
  std::vector<std::pair<std::string, std::string>> extra_headers;
  // OpenAI only: the name of the output-token limit field. Newer OpenAI models (o-series, gpt-5) reject
  // `max_tokens` and want `max_completion_tokens`; most compatible servers only know `max_tokens`.
  std::string max_tokens_field = "max_tokens";
  // Extra top-level fields merged into every request body (e.g. `reasoning_effort: low`, vLLM's
  // `chat_template_kwargs`, `top_p`); a JSON object, empty by default. Fields set here win.
  nlohmann::json extra_body = nlohmann::json::object();

  // Throws kcraft::ConfigError ("<file>: <field>: ...") on a broken file.
  static ProviderSettings load(const std::string& yaml_file);
  // The same from the file's text (`yaml_file` only names it in messages).
  static ProviderSettings parse(const std::string& yaml_text, const std::string& yaml_file);
  // JSON for transcripts: everything except the key (which is never stored anywhere).
  nlohmann::json to_json() const;
};

class Provider {
 public:
  virtual ~Provider() = default;
  // Throws ProviderError.
  virtual ChatResponse complete(const ChatRequest& request) = 0;
  virtual const ProviderSettings& settings() const = 0;
};

// Reads the key from settings.api_key_env (if set) and builds the provider. Throws ProviderError
// (kClientError) when the variable is named but unset, and std::invalid_argument for an unknown provider.
std::unique_ptr<Provider> make_provider(const ProviderSettings& settings);

// For tests: how a provider sleeps between retries (default: really sleeps; an empty function restores
// that). Process-wide.
void set_retry_sleeper(std::function<void(double seconds)> sleeper);

}  // namespace kcraft::agent
