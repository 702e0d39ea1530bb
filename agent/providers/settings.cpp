// ProviderSettings: loading from YAML (every field checked, nothing unknown accepted) and the transcript
// view.
#include "agent/providers/settings.h"

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <functional>
#include <limits>
#include <optional>
#include <sstream>
#include <string_view>

#include <fmt/format.h>

#include "agent/providers/redaction.h"
#include "isa/common/hw_config.h"

namespace kcraft::agent {

namespace {

using nlohmann::json;

// Values are not echoed in messages: a key pasted into the wrong field must not end up in a log.
class SettingsReader {
 public:
  SettingsReader(std::string file, YAML::Node root) : file_(std::move(file)), root_(std::move(root)) {}

  [[noreturn]] void fail(const std::string& field, const std::string& message) const {
    throw ConfigError(fmt::format("{}: {}: {}", file_, field, message));
  }

  // Absent and null (`key:` with no value) both mean "not given".
  std::optional<YAML::Node> get(const char* key) const {
    const YAML::Node& root = root_;  // const: operator[] on a mutable node would insert the key
    auto node = root[key];
    if (!node.IsDefined() || node.IsNull()) return std::nullopt;
    return node;
  }

  bool text(const char* key, std::string& out, bool required) const {
    auto node = get(key);
    if (!node) {
      if (required) fail(key, "missing");
      return false;
    }
    if (!node->IsScalar()) fail(key, "expected text");
    out = node->Scalar();
    if (required && out.empty()) fail(key, "must not be empty");
    return true;
  }

  void number(const char* key, double& out, double min, double max) const {
    auto node = get(key);
    if (!node) return;
    if (!node->IsScalar()) fail(key, "expected a number");
    const std::string& text = node->Scalar();
    char* end = nullptr;
    errno = 0;
    const double value = std::strtod(text.c_str(), &end);
    if (text.empty() || end != text.c_str() + text.size() || errno != 0 || !std::isfinite(value)) {
      fail(key, "expected a number");
    }
    if (value < min || value > max) fail(key, fmt::format("must be between {} and {}", min, max));
    out = value;
  }

  void whole(const char* key, unsigned& out, unsigned min, unsigned max) const {
    auto node = get(key);
    if (!node) return;
    if (!node->IsScalar()) fail(key, "expected a whole number");
    const std::string& text = node->Scalar();
    if (text.empty() || !std::all_of(text.begin(), text.end(), [](char c) { return c >= '0' && c <= '9'; })) {
      fail(key, "expected a whole number");
    }
    errno = 0;
    const unsigned long long value = std::strtoull(text.c_str(), nullptr, 10);
    if (errno != 0 || value < min || value > max)
      fail(key, fmt::format("must be between {} and {}", min, max));
    out = static_cast<unsigned>(value);
  }

  const YAML::Node& root() const { return root_; }
  const std::string& file() const { return file_; }

 private:
  std::string file_;
  YAML::Node root_;
};

// YAML has no types of its own: a plain scalar is a bool, a number or text by how it reads, a quoted
// one is always text.
json yaml_to_json(const YAML::Node& node) {
  switch (node.Type()) {
    case YAML::NodeType::Null:
    case YAML::NodeType::Undefined:
      return nullptr;
    case YAML::NodeType::Sequence: {
      json out = json::array();
      for (const auto& item : node) out.push_back(yaml_to_json(item));
      return out;
    }
    case YAML::NodeType::Map: {
      json out = json::object();
      for (const auto& kv : node) out[kv.first.Scalar()] = yaml_to_json(kv.second);
      return out;
    }
    case YAML::NodeType::Scalar:
      break;
  }
  const std::string& text = node.Scalar();
  if (node.Tag() == "!") return text;
  if (text == "true" || text == "True" || text == "TRUE") return true;
  if (text == "false" || text == "False" || text == "FALSE") return false;
  if (text == "~" || text == "null") return nullptr;
  if (!text.empty()) {
    char* end = nullptr;
    errno = 0;
    const long long integer = std::strtoll(text.c_str(), &end, 10);
    if (end == text.c_str() + text.size() && errno == 0) return integer;
    errno = 0;
    const double real = std::strtod(text.c_str(), &end);
    if (end == text.c_str() + text.size() && errno == 0 && std::isfinite(real)) return real;
  }
  return text;
}

void redact_strings(json& node, const SecretRedactor& redact) {
  if (node.is_string()) {
    node = redact(node.get<std::string>());
  } else if (node.is_structured()) {
    for (auto& child : node) redact_strings(child, redact);
  }
}

}  // namespace

bool is_environment_variable_name(std::string_view name) {
  if (name.empty() || std::isdigit(static_cast<unsigned char>(name.front()))) return false;
  return std::all_of(name.begin(), name.end(),
                     [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; });
}

bool is_header_name(std::string_view name) {
  // RFC 9110 token characters.
  static constexpr std::string_view kSpecials = "!#$%&'*+-.^_`|~";
  return !name.empty() && std::all_of(name.begin(), name.end(), [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || kSpecials.find(c) != std::string_view::npos;
  });
}

bool is_header_value(std::string_view value) {
  return std::none_of(value.begin(), value.end(), [](char c) { return c == '\r' || c == '\n' || c == '\0'; });
}

ProviderSettings ProviderSettings::load(const std::string& yaml_file) {
  std::ifstream in(yaml_file, std::ios::binary);
  if (!in) throw ConfigError(fmt::format("{}: cannot open provider settings", yaml_file));
  std::ostringstream text;
  text << in.rdbuf();
  return parse(text.str(), yaml_file);
}

ProviderSettings ProviderSettings::parse(const std::string& yaml_text, const std::string& yaml_file) {
  YAML::Node root;
  try {
    root = YAML::Load(yaml_text);
  } catch (const YAML::Exception& e) {
    throw ConfigError(
        fmt::format("{}:{}:{}: YAML syntax error: {}", yaml_file, e.mark.line + 1, e.mark.column + 1, e.msg));
  }
  SettingsReader in(yaml_file, root);
  if (!root.IsMap()) in.fail("<top>", "expected a mapping of settings");

  static const std::vector<std::string> known = {
      "provider",         "base_url",           "model",
      "api_key_env",      "temperature",        "max_tokens",
      "max_tokens_field", "timeout_seconds",    "connect_timeout_seconds",
      "max_retries",      "backoff_initial_ms", "backoff_max_ms",
      "extra_headers",    "extra_body",         "prices"};
  std::vector<std::string> seen;
  for (const auto& kv : root) {
    const auto key = kv.first.IsScalar() ? kv.first.Scalar() : std::string("<non-text key>");
    if (std::find(known.begin(), known.end(), key) == known.end()) {
      in.fail(key, fmt::format("unknown field (expected one of {})", fmt::join(known, ", ")));
    }
    if (std::find(seen.begin(), seen.end(), key) != seen.end()) in.fail(key, "given twice");
    seen.push_back(key);
  }

  ProviderSettings settings;
  in.text("provider", settings.provider, true);
  if (settings.provider != "openai" && settings.provider != "anthropic")
    in.fail("provider", "expected openai or anthropic");

  in.text("base_url", settings.base_url, true);
  while (!settings.base_url.empty() && settings.base_url.back() == '/') settings.base_url.pop_back();
  // Checked after the trailing slashes are gone: "http://" alone names no server.
  const auto after_scheme = [&](const char* scheme) {
    return settings.base_url.rfind(scheme, 0) == 0 &&
           settings.base_url.size() > std::string_view(scheme).size();
  };
  if (!after_scheme("http://") && !after_scheme("https://"))
    in.fail("base_url", "expected an http:// or https:// URL");

  in.text("model", settings.model, true);

  in.text("api_key_env", settings.api_key_env, false);
  if (!settings.api_key_env.empty() && !is_environment_variable_name(settings.api_key_env)) {
    in.fail(
        "api_key_env",
        "expected the name of an environment variable (letters, digits, _) that holds the key, not the key");
  }

  in.number("temperature", settings.temperature, 0, 2);
  in.whole("max_tokens", settings.max_tokens, 1, 10'000'000);
  if (in.text("max_tokens_field", settings.max_tokens_field, false) &&
      settings.max_tokens_field != "max_tokens" && settings.max_tokens_field != "max_completion_tokens") {
    in.fail("max_tokens_field", "expected max_tokens or max_completion_tokens");
  }
  in.number("timeout_seconds", settings.timeout_seconds, 0.001, 24 * 3600);
  in.number("connect_timeout_seconds", settings.connect_timeout_seconds, 0.001, 3600);
  in.whole("max_retries", settings.max_retries, 0, 100);
  in.whole("backoff_initial_ms", settings.backoff_initial_ms, 0, 3'600'000);
  in.whole("backoff_max_ms", settings.backoff_max_ms, 0, 3'600'000);
  if (settings.backoff_max_ms < settings.backoff_initial_ms) {
    in.fail("backoff_max_ms", "must not be smaller than backoff_initial_ms");
  }

  if (auto headers = in.get("extra_headers")) {
    if (!headers->IsMap()) in.fail("extra_headers", "expected a mapping of header names to values");
    for (const auto& kv : *headers) {
      const auto name = kv.first.Scalar();
      const auto field = "extra_headers." + name;
      if (!is_header_name(name)) in.fail(field, "not a valid HTTP header name");
      if (!kv.second.IsScalar()) in.fail(field, "expected text");
      if (!is_header_value(kv.second.Scalar())) in.fail(field, "must not contain line breaks");
      settings.extra_headers.emplace_back(name, kv.second.Scalar());
    }
  }
  if (auto body = in.get("extra_body")) {
    if (!body->IsMap()) in.fail("extra_body", "expected a mapping of request fields");
    settings.extra_body = yaml_to_json(*body);
  }
  if (auto prices = in.get("prices")) settings.prices = parse_token_prices(*prices, yaml_file, "prices");
  return settings;
}

json ProviderSettings::to_json() const {
  json headers = json::object();
  for (const auto& [name, value] : extra_headers) {
    headers[name] = is_credential_header(name) ? std::string(SecretRedactor::kMarker) : value;
  }
  json out = {{"provider", provider},
              {"base_url", base_url},
              {"model", model},
              {"api_key_env", api_key_env},
              {"temperature", temperature},
              {"max_tokens", max_tokens},
              {"max_tokens_field", max_tokens_field},
              {"timeout_seconds", timeout_seconds},
              {"connect_timeout_seconds", connect_timeout_seconds},
              {"max_retries", max_retries},
              {"backoff_initial_ms", backoff_initial_ms},
              {"backoff_max_ms", backoff_max_ms},
              {"extra_headers", std::move(headers)},
              {"extra_body", extra_body}};
  // Only when given: a record without them is unpriced, never priced at 0.
  if (prices) out["prices"] = prices->to_json();
  // The key itself is not stored here, but a URL or a body field might carry it.
  redact_strings(out, settings_redactor(*this));
  return out;
}

SecretRedactor settings_redactor(const ProviderSettings& settings) {
  std::vector<std::string> secrets;
  if (is_environment_variable_name(settings.api_key_env)) {
    if (const char* key = std::getenv(settings.api_key_env.c_str())) secrets.emplace_back(key);
  }
  for (const auto& [name, value] : settings.extra_headers) {
    if (is_credential_header(name)) secrets.push_back(credential_of(value));
  }
  return SecretRedactor(std::move(secrets));
}

}  // namespace kcraft::agent
