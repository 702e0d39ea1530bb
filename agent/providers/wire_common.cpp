#include <nlohmann/json.hpp>

#include "agent/providers/wire_format.h"

namespace kcraft::agent {

std::string error_message_from_body(const std::string& body) {
  const auto json = nlohmann::json::parse(body, nullptr, /*allow_exceptions=*/false);
  if (!json.is_object()) return {};
  auto text_of = [](const nlohmann::json& node) -> std::string {
    if (node.is_string()) return node.get<std::string>();
    if (node.is_object() && node.contains("message") && node["message"].is_string()) {
      return node["message"].get<std::string>();
    }
    return {};
  };
  for (const char* key : {"error", "message", "detail"}) {
    if (!json.contains(key)) continue;
    auto text = text_of(json[key]);
    if (!text.empty()) return text;
  }
  return {};
}

std::string dump_body(const nlohmann::json& body) {
  return body.dump(-1, ' ', /*ensure_ascii=*/false, nlohmann::json::error_handler_t::replace);
}

namespace wire_detail {

uint64_t token_count(const nlohmann::json& parent, const char* key, const std::string& path) {
  if (!parent.is_object() || !parent.contains(key) || parent[key].is_null()) return 0;
  const auto& value = parent[key];
  if (value.is_number_unsigned()) return value.get<uint64_t>();
  if (value.is_number_integer() && value.get<int64_t>() >= 0)
    return static_cast<uint64_t>(value.get<int64_t>());
  // 2^64 and above do not convert (undefined behaviour); no real count comes near.
  if (value.is_number_float() && value.get<double>() >= 0 && value.get<double>() < 18446744073709551616.0) {
    return static_cast<uint64_t>(value.get<double>());
  }
  if (value.is_number_float() && value.get<double>() >= 0)
    throw WireFormatError(path + ": too large (" + value.dump() + ")");
  throw WireFormatError(path + ": expected a non-negative number, got " + std::string(value.type_name()));
}

std::string optional_text(const nlohmann::json& parent, const char* key, const std::string& path) {
  if (!parent.is_object() || !parent.contains(key) || parent[key].is_null()) return {};
  if (!parent[key].is_string()) {
    throw WireFormatError(path + ": expected a string, got " + std::string(parent[key].type_name()));
  }
  return parent[key].get<std::string>();
}

void merge_extra_body(const ProviderSettings& settings, nlohmann::json& body) {
  if (!settings.extra_body.is_object()) return;
  for (const auto& [key, value] : settings.extra_body.items()) body[key] = value;
}

}  // namespace wire_detail

}  // namespace kcraft::agent
