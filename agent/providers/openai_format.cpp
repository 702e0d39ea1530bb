// OpenAI-compatible chat completions: https://platform.openai.com/docs/api-reference/chat
#include <fmt/format.h>

#include "agent/providers/wire_format.h"

namespace kcraft::agent {

using nlohmann::json;
using wire_detail::optional_text;
using wire_detail::token_count;

json openai_request_body(const ProviderSettings& settings, const ChatRequest& request) {
  json messages = json::array();
  if (!request.system.empty()) messages.push_back({{"role", "system"}, {"content", request.system}});
  for (const auto& message : request.messages) {
    switch (message.role) {
      case ChatMessage::Role::kUser:
        messages.push_back({{"role", "user"}, {"content", message.content}});
        break;
      case ChatMessage::Role::kAssistant: {
        json out = {{"role", "assistant"}};
        // The API wants null, not "", for an assistant turn that only calls tools.
        out["content"] =
            message.content.empty() && !message.tool_calls.empty() ? json(nullptr) : json(message.content);
        if (!message.tool_calls.empty()) {
          json calls = json::array();
          for (const auto& call : message.tool_calls) {
            calls.push_back({{"id", call.id},
                             {"type", "function"},
                             {"function", {{"name", call.name}, {"arguments", call.arguments}}}});
          }
          out["tool_calls"] = std::move(calls);
        }
        messages.push_back(std::move(out));
        break;
      }
      case ChatMessage::Role::kTool:
        messages.push_back(
            {{"role", "tool"}, {"tool_call_id", message.tool_call_id}, {"content", message.content}});
        break;
    }
  }
  json body = {{"model", settings.model}, {"messages", std::move(messages)}};
  if (!request.tools.empty()) {
    json tools = json::array();
    for (const auto& tool : request.tools) {
      tools.push_back({{"type", "function"},
                       {"function",
                        {{"name", tool.name},
                         {"description", tool.description},
                         {"parameters", tool.parameters.is_null() ? json::object() : tool.parameters}}}});
    }
    body["tools"] = std::move(tools);
  }
  body["temperature"] = settings.temperature;
  body[settings.max_tokens_field.empty() ? std::string("max_tokens") : settings.max_tokens_field] =
      settings.max_tokens;
  wire_detail::merge_extra_body(settings, body);
  return body;
}

namespace {

// `content` is a string, null, or (some servers) an array of {type: text, text} parts.
std::string message_text(const json& message) {
  if (!message.contains("content") || message["content"].is_null()) return {};
  const auto& content = message["content"];
  if (content.is_string()) return content.get<std::string>();
  if (!content.is_array()) {
    throw WireFormatError("choices[0].message.content: expected a string, null or an array of parts, got " +
                          std::string(content.type_name()));
  }
  std::string text;
  for (const auto& part : content) {
    if (part.is_object() && optional_text(part, "type", "choices[0].message.content[].type") == "text") {
      text += optional_text(part, "text", "choices[0].message.content[].text");
    }
  }
  return text;
}

ToolCall parse_tool_call(const json& call, size_t index) {
  const std::string path = fmt::format("choices[0].message.tool_calls[{}]", index);
  if (!call.is_object()) throw WireFormatError(path + ": expected an object");
  if (!call.contains("function") || !call["function"].is_object()) {
    throw WireFormatError(path + ".function: missing or not an object");
  }
  const auto& function = call["function"];
  ToolCall out;
  out.id = optional_text(call, "id", path + ".id");
  // llama.cpp and older servers sometimes leave the id out; the answer still has to refer to the call.
  if (out.id.empty()) out.id = fmt::format("call_{}", index);
  out.name = optional_text(function, "name", path + ".function.name");
  if (out.name.empty()) throw WireFormatError(path + ".function.name: missing");
  if (function.contains("arguments") && function["arguments"].is_string()) {
    out.arguments = function["arguments"].get<std::string>();
  } else if (function.contains("arguments") && !function["arguments"].is_null()) {
    out.arguments = dump_body(function["arguments"]);  // some servers send the object itself
  }
  return out;
}

}  // namespace

ChatResponse parse_openai_response(const json& body) {
  if (!body.is_object()) throw WireFormatError("expected a JSON object");
  if (!body.contains("choices") || !body["choices"].is_array() || body["choices"].empty()) {
    throw WireFormatError("choices: missing or empty");
  }
  const auto& choice = body["choices"][0];
  if (!choice.is_object() || !choice.contains("message") || !choice["message"].is_object()) {
    throw WireFormatError("choices[0].message: missing or not an object");
  }
  const auto& message = choice["message"];

  ChatResponse response;
  response.message.role = ChatMessage::Role::kAssistant;
  response.message.content = message_text(message);
  if (message.contains("tool_calls") && !message["tool_calls"].is_null()) {
    if (!message["tool_calls"].is_array())
      throw WireFormatError("choices[0].message.tool_calls: expected an array");
    size_t index = 0;
    for (const auto& call : message["tool_calls"])
      response.message.tool_calls.push_back(parse_tool_call(call, index++));
  }
  response.stop_reason = optional_text(choice, "finish_reason", "choices[0].finish_reason");
  response.model = optional_text(body, "model", "model");
  if (body.contains("usage") && body["usage"].is_object()) {
    const auto& usage = body["usage"];
    response.usage.prompt_tokens = token_count(usage, "prompt_tokens", "usage.prompt_tokens");
    response.usage.completion_tokens = token_count(usage, "completion_tokens", "usage.completion_tokens");
    if (usage.contains("completion_tokens_details")) {
      response.usage.reasoning_tokens = token_count(usage["completion_tokens_details"], "reasoning_tokens",
                                                    "usage.completion_tokens_details.reasoning_tokens");
    }
    if (usage.contains("prompt_tokens_details")) {
      response.usage.cached_prompt_tokens = token_count(usage["prompt_tokens_details"], "cached_tokens",
                                                        "usage.prompt_tokens_details.cached_tokens");
    }
  }
  return response;
}

}  // namespace kcraft::agent
