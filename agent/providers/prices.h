// What model calls cost: a price table (USD per million tokens) and the cost of a Usage under it.
//
// The counting rule. kcraft's Usage is normalised by the wire formats (openai_format.cpp,
// anthropic_format.cpp) so that
//   prompt_tokens        is every input token, cached_prompt_tokens among them (OpenAI's prompt_tokens
//                        includes prompt_tokens_details.cached_tokens; for Anthropic kcraft adds
//                        cache_read_input_tokens and cache_creation_input_tokens to input_tokens);
//   completion_tokens    is every output token, reasoning_tokens among them (OpenAI's completion_tokens
//                        includes completion_tokens_details.reasoning_tokens; Anthropic's output_tokens
//                        includes thinking, which it does not count apart: reasoning_tokens stays 0).
// So each token is priced once:
//   (prompt - cached) x prompt + cached x cached_prompt + (completion - reasoning) x completion
//     + reasoning x reasoning,  / 1e6.
// Anthropic's cache writes are priced as prompt tokens (Anthropic bills them 1.25x for the 5-minute cache):
// Usage does not keep them apart, so a run that writes a cache costs somewhat more than computed.
#pragma once

#include <map>
#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include "agent/providers/chat.h"

namespace YAML {
class Node;
}

namespace kcraft::agent {

// USD per million tokens. In YAML `prompt` and `completion` are required; `cached_prompt` defaults to
// `prompt` (no cache discount) and `reasoning` to `completion` (as OpenAI and Anthropic bill them).
struct TokenPrices {
  double prompt = 0;
  double cached_prompt = 0;
  double completion = 0;
  double reasoning = 0;

  bool operator==(const TokenPrices& o) const {
    return prompt == o.prompt && cached_prompt == o.cached_prompt && completion == o.completion &&
           reasoning == o.reasoning;
  }
  // All four, defaults resolved: {"prompt", "cached_prompt", "completion", "reasoning"}.
  nlohmann::json to_json() const;
  // From to_json()'s form; nullopt when `j` is not an object of four non-negative numbers (a record
  // written by another version, or edited by hand, is then unpriced rather than mispriced).
  static std::optional<TokenPrices> from_json(const nlohmann::json& j);
};

// The largest price accepted (USD per million tokens): far above any real one, so a typo of a few orders
// of magnitude is caught.
inline constexpr double kMaxPricePerMillion = 100'000;

// USD for `usage` under `prices`, by the counting rule above. Counts that contradict it (more cached than
// prompt tokens, more reasoning than completion tokens: a server that counts them apart) are capped at
// their total, so no token is priced twice.
double usage_cost_usd(const Usage& usage, const TokenPrices& prices);

// A `prices:` block. Throws kcraft::ConfigError "<file>: <field>.<key>: ..." for a block that is not a
// mapping, an unknown or missing key, or a value that is not a number in [0, kMaxPricePerMillion].
TokenPrices parse_token_prices(const YAML::Node& node, const std::string& file, const std::string& field);

// Prices by model name, for pricing stored runs after the fact (`kcraft report --prices FILE`):
//   gpt-4.1: {prompt: 2.00, cached_prompt: 0.50, completion: 8.00}
//   claude-sonnet-4-5: {prompt: 3, cached_prompt: 0.30, completion: 15}
using PriceTable = std::map<std::string, TokenPrices>;
// Throws kcraft::ConfigError naming the file and the model.
PriceTable load_price_table(const std::string& yaml_file);
PriceTable parse_price_table(const std::string& yaml_text, const std::string& yaml_file);

}  // namespace kcraft::agent
