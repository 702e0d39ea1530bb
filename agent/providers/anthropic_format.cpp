// Anthropic Messages API: https://docs.anthropic.com/en/api/messages
#include <fmt/format.h>

#include "agent/providers/wire_format.h"

namespace kcraft::agent {

using nlohmann::json;
using wire_detail::optional_text;
using wire_detail::token_count;

namespace {

// Anthropic only takes an object as tool input. Arguments that are not one (possible only in a
// conversation that came from another provider) travel wrapped, so nothing is lost.
json tool_input(const std::string& arguments) {
  auto parsed = json::parse(arguments, nullptr, /*allow_exceptions=*/false);
  if (parsed.is_object()) return parsed;
  return {{"_raw_arguments", arguments}};
}

}  // namespace

json anthropic_request_body(const ProviderSettings& settings, const ChatRequest& request) {
  json messages = json::array();
  // The API wants user and assistant turns to alternate: consecutive blocks of one role (several tool
  // results, tool results then user text) go into one message.
  auto append = [&messages](const char* role, json block) {
    if (!messages.empty() && messages.back()["role"] == role) {
      messages.back()["content"].push_back(std::move(block));
    } else {
      messages.push_back({{"role", role}, {"content", json::array({std::move(block)})}});
    }
  };
  for (const auto& message : request.messages) {
    switch (message.role) {
      case ChatMessage::Role::kUser:
        // Empty text blocks are rejected by the API.
        if (!message.content.empty()) append("user", {{"type", "text"}, {"text", message.content}});
        break;
      case ChatMessage::Role::kAssistant:
        if (!message.content.empty()) append("assistant", {{"type", "text"}, {"text", message.content}});
        for (const auto& call : message.tool_calls) {
          append("assistant", {{"type", "tool_use"},
                               {"id", call.id},
                               {"name", call.name},
                               {"input", tool_input(call.arguments)}});
        }
        break;
      case ChatMessage::Role::kTool:
        append("user", {{"type", "tool_result"},
                        {"tool_use_id", message.tool_call_id},
                        {"content", message.content},
                        {"is_error", message.tool_error}});
        break;
    }
  }
  json body = {{"model", settings.model}, {"max_tokens", settings.max_tokens}};
  if (!request.system.empty()) body["system"] = request.system;
  body["temperature"] = settings.temperature;
  body["messages"] = std::move(messages);
  if (!request.tools.empty()) {
    json tools = json::array();
    for (const auto& tool : request.tools) {
      tools.push_back({{"name", tool.name},
                       {"description", tool.description},
                       {"input_schema", tool.parameters.is_null() ? json::object() : tool.parameters}});
    }
    body["tools"] = std::move(tools);
  }
  wire_detail::merge_extra_body(settings, body);
  return body;
}

ChatResponse parse_anthropic_response(const json& body) {
  if (!body.is_object()) throw WireFormatError("expected a JSON object");
  if (!body.contains("content") || !body["content"].is_array())
    throw WireFormatError("content: missing or not an array");

  ChatResponse response;
  response.message.role = ChatMessage::Role::kAssistant;
  size_t index = 0;
  for (const auto& block : body["content"]) {
    const std::string path = fmt::format("content[{}]", index++);
    if (!block.is_object()) throw WireFormatError(path + ": expected an object");
    const std::string type = optional_text(block, "type", path + ".type");
    if (type == "text") {
      const auto text = optional_text(block, "text", path + ".text");
      if (!response.message.content.empty() && !text.empty()) response.message.content += "\n";
      response.message.content += text;
    } else if (type == "tool_use") {
      ToolCall call;
      call.id = optional_text(block, "id", path + ".id");
      call.name = optional_text(block, "name", path + ".name");
      if (call.id.empty()) throw WireFormatError(path + ".id: missing");
      if (call.name.empty()) throw WireFormatError(path + ".name: missing");
      call.arguments = block.contains("input") ? dump_body(block["input"]) : "{}";
      response.message.tool_calls.push_back(std::move(call));
    }
    // Other block types (thinking, redacted_thinking, server tool results) carry nothing the loop uses.
  }
  response.stop_reason = optional_text(body, "stop_reason", "stop_reason");
  response.model = optional_text(body, "model", "model");
  if (body.contains("usage") && body["usage"].is_object()) {
    const auto& usage = body["usage"];
    const uint64_t cache_read =
        token_count(usage, "cache_read_input_tokens", "usage.cache_read_input_tokens");
    const uint64_t cache_write =
        token_count(usage, "cache_creation_input_tokens", "usage.cache_creation_input_tokens");
    // Anthropic counts cached input apart from input_tokens; OpenAI counts it inside prompt_tokens. Usage
    // follows OpenAI so that prompt_tokens means "all input" for both.
    response.usage.prompt_tokens =
        token_count(usage, "input_tokens", "usage.input_tokens") + cache_read + cache_write;
    response.usage.completion_tokens = token_count(usage, "output_tokens", "usage.output_tokens");
    response.usage.cached_prompt_tokens = cache_read;
  }
  return response;
}

}  // namespace kcraft::agent
