// The two wire formats: request bodies built from a ChatRequest, and ChatResponses parsed from bodies.
// Pure functions (no HTTP, no redaction), so each format can be read and tested on its own.
#pragma once

#include <stdexcept>
#include <string>

#include <nlohmann/json.hpp>

#include "agent/providers/chat.h"
#include "agent/providers/settings.h"

namespace kcraft::agent {

// A body that is valid JSON but not the documented shape; the message names the offending field.
class WireFormatError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// OpenAI-compatible chat completions (POST {base_url}/chat/completions).
nlohmann::json openai_request_body(const ProviderSettings& settings, const ChatRequest& request);
ChatResponse parse_openai_response(const nlohmann::json& body);

// Anthropic Messages (POST {base_url}/messages).
nlohmann::json anthropic_request_body(const ProviderSettings& settings, const ChatRequest& request);
ChatResponse parse_anthropic_response(const nlohmann::json& body);

// The human-readable part of an error body (`error.message`, `error`, `message` or `detail`, as the
// various servers put it); empty when the body has none.
std::string error_message_from_body(const std::string& body);

// Serialises a body for the wire. Tool output may hold bytes that are not UTF-8; they become U+FFFD
// instead of making the request fail.
std::string dump_body(const nlohmann::json& body);

namespace wire_detail {
// `parent[key]` as a token count: 0 when absent or null; WireFormatError naming `path` when not a
// non-negative number.
uint64_t token_count(const nlohmann::json& parent, const char* key, const std::string& path);
// `parent[key]` as text: "" when absent or null; WireFormatError naming `path` when not a string.
std::string optional_text(const nlohmann::json& parent, const char* key, const std::string& path);
// Adds settings.extra_body's fields to a request body (they win over the defaults).
void merge_extra_body(const ProviderSettings& settings, nlohmann::json& body);
}  // namespace wire_detail

}  // namespace kcraft::agent
