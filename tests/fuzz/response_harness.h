// The body of the two LLM response harnesses (openai_response, anthropic_response): an HTTP response body
// from a provider (or from anything listening at base_url) goes the way HttpProvider takes it
// (agent/providers/provider.cpp): JSON, the wire format's parser, the redaction of the key; then the way
// the agent loop uses it: the assistant message joins the conversation and both request bodies are built
// from it (a conversation can move between providers).
//
// Documented outcomes: not JSON, or WireFormatError naming the field. Anything else escaping is a finding,
// and so is a redacted string that still holds a run of the key.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

#include <nlohmann/json.hpp>

#include "agent/providers/provider.h"
#include "agent/providers/redaction.h"
#include "agent/providers/wire_format.h"
#include "tests/fuzz/fuzz_support.h"

namespace kcraft::fuzz {

// A key a server might echo. The response seeds contain it.
inline constexpr std::string_view kEchoedKey = "sk-fuzz-0123456789abcdefghij";

// No run of the key as long as the redactor's minimum may survive redaction.
inline void check_redacted(const std::string& text, std::string_view what) {
  const std::string key(kEchoedKey);
  for (size_t start = 0; start + agent::SecretRedactor::kMinRun <= key.size(); ++start) {
    if (text.find(key.substr(start, agent::SecretRedactor::kMinRun)) != std::string::npos) {
      fail(std::string(what) + " still holds part of the key: " + text);
    }
  }
}

inline void run_response_harness(const uint8_t* data, size_t size,
                                 agent::ChatResponse (*parse)(const nlohmann::json&),
                                 const char* parser_name) {
  const std::string body = text_of(data, size);
  const agent::SecretRedactor redact({std::string(kEchoedKey)});
  try {
    // What an error status shows the user.
    check_redacted(redact(agent::body_excerpt(redact(body))), "the body excerpt");
    (void)agent::error_message_from_body(body);
  } catch (const std::exception& e) {
    fail_unexpected(e, "error_message_from_body / body_excerpt");
  }

  const auto json = nlohmann::json::parse(body, nullptr, /*allow_exceptions=*/false);
  if (json.is_discarded()) return;  // "HTTP 200 with a body that is not JSON"
  agent::ChatResponse response;
  if (!expect_errors<agent::WireFormatError>(parser_name, [&] { response = parse(json); })) return;

  try {
    auto& message = response.message;
    check(message.role == agent::ChatMessage::Role::kAssistant, "a response that is not the assistant's");
    message.content = redact(message.content);
    check_redacted(message.content, "the content");
    for (auto& call : message.tool_calls) {
      check(!call.id.empty() && !call.name.empty(), "a tool call without id or name");
      call.arguments = redact(call.arguments);
      check_redacted(call.arguments, "the tool call arguments");
    }

    // The next turn: the assistant message, one tool result per call, a user nudge.
    agent::ChatRequest request;
    request.system = "system prompt";
    request.messages.push_back({agent::ChatMessage::Role::kUser, "write a kernel", {}, "", "", false});
    request.messages.push_back(message);
    for (const auto& call : message.tool_calls) {
      request.messages.push_back({agent::ChatMessage::Role::kTool,
                                  "result of " + call.name,
                                  {},
                                  call.id,
                                  call.name,
                                  call.name.size() % 2 == 0});
    }
    request.messages.push_back({agent::ChatMessage::Role::kUser, "continue", {}, "", "", false});
    agent::ProviderSettings settings;
    settings.model = "fuzz";
    (void)agent::dump_body(agent::openai_request_body(settings, request));
    (void)agent::dump_body(agent::anthropic_request_body(settings, request));
  } catch (const std::exception& e) {
    fail_unexpected(e, std::string("a response ") + parser_name + " accepted");
  }
}

}  // namespace kcraft::fuzz
