// ProviderSettings: one provider endpoint, loaded from YAML, and the checks that ProviderSettings::load and
// make_provider share (settings may also be built in code).
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "agent/providers/prices.h"
#include "agent/providers/redaction.h"

namespace kcraft::agent {

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
//   prices: {prompt: 2, cached_prompt: 0.5, completion: 8, reasoning: 8}
//                                              (optional; USD per million tokens, prices.h)
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
  // What this model's tokens cost (prices.h); nothing: not given, and the runs' cost is unknown (never 0).
  std::optional<TokenPrices> prices;

  // Throws kcraft::ConfigError ("<file>: <field>: ...") on a broken file.
  static ProviderSettings load(const std::string& yaml_file);
  // The same from the file's text (`yaml_file` only names it in messages).
  static ProviderSettings parse(const std::string& yaml_text, const std::string& yaml_file);
  // JSON for transcripts: everything except the key (which is never stored anywhere).
  nlohmann::json to_json() const;
};

bool is_environment_variable_name(std::string_view name);
bool is_header_name(std::string_view name);
bool is_header_value(std::string_view value);

// Redacts the key named by settings.api_key_env (when set in the environment) and credential-looking
// extra_headers values.
SecretRedactor settings_redactor(const ProviderSettings& settings);

}  // namespace kcraft::agent
