// LLM providers: one chat-with-tools interface over the wire formats kcraft speaks.
//
//   - OpenAI-compatible chat completions (`/v1/chat/completions` with `tools`): OpenAI, vLLM, llama.cpp
//     server, Ollama, and hosted services that copy the format;
//   - the Anthropic Messages API (`/v1/messages` with `tool_use` / `tool_result` blocks).
//
// Providers talk HTTP through libcurl, retry 429 and 5xx with exponential backoff and jitter (honouring
// Retry-After), and never let the API key appear in an error message, a log line or a transcript.
#pragma once

#include <memory>

#include "agent/providers/chat.h"
#include "agent/providers/settings.h"

namespace kcraft::agent {

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

}  // namespace kcraft::agent
