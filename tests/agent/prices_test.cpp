// What model calls cost (agent/providers/prices.h): each provider's usage as kcraft's parsers read it,
// priced by the counting rule with every token once. The expected values are worked out by hand.
#include <gtest/gtest.h>

#include "agent/providers/prices.h"
#include "agent/providers/wire_format.h"
#include "isa/common/hw_config.h"

namespace kcraft::agent::testing {
namespace {

using nlohmann::json;

json openai_body(const json& usage) {
  return {
      {"choices",
       json::array({{{"message", {{"role", "assistant"}, {"content", "ok"}}}, {"finish_reason", "stop"}}})},
      {"usage", usage}};
}

json anthropic_body(const json& usage) {
  return {{"content", json::array({{{"type", "text"}, {"text", "ok"}}})},
          {"stop_reason", "end_turn"},
          {"usage", usage}};
}

TEST(TokenPricing, OpenAiCompletionIncludesReasoningAndPromptIncludesCached) {
  // OpenAI: completion_tokens 3000 of which 2000 reasoning; prompt_tokens 10000 of which 6000 cached.
  const auto response =
      parse_openai_response(openai_body({{"prompt_tokens", 10000},
                                         {"completion_tokens", 3000},
                                         {"prompt_tokens_details", {{"cached_tokens", 6000}}},
                                         {"completion_tokens_details", {{"reasoning_tokens", 2000}}}}));
  const TokenPrices prices{2.0, 0.5, 8.0, 10.0};
  // 4000 uncached x $2 + 6000 cached x $0.5 + 1000 visible completion x $8 + 2000 reasoning x $10, per 1e6:
  // (8000 + 3000 + 8000 + 20000) / 1e6 = $0.039. Counting reasoning on top of completion would give
  // $0.055; prompt at full price on top of cached, $0.051.
  EXPECT_NEAR(usage_cost_usd(response.usage, prices), 0.039, 1e-12);
  // Reasoning at the completion price (the default when the table gives none): (8000 + 3000 + 24000) / 1e6.
  EXPECT_NEAR(usage_cost_usd(response.usage, TokenPrices{2.0, 0.5, 8.0, 8.0}), 0.035, 1e-12);
}

TEST(TokenPricing, AnthropicInputExcludesCacheReadsAndOutputIncludesThinking) {
  // Anthropic: input_tokens 4000 (not cached), cache_read_input_tokens 6000, output_tokens 3000 (thinking
  // included; there is no separate reasoning count).
  const auto response = parse_anthropic_response(anthropic_body({{"input_tokens", 4000},
                                                                 {"cache_read_input_tokens", 6000},
                                                                 {"cache_creation_input_tokens", 0},
                                                                 {"output_tokens", 3000}}));
  EXPECT_EQ(response.usage.prompt_tokens, 10000u);  // kcraft counts the cache reads in, as OpenAI does
  EXPECT_EQ(response.usage.cached_prompt_tokens, 6000u);
  EXPECT_EQ(response.usage.reasoning_tokens, 0u);
  const TokenPrices prices{3.0, 0.3, 15.0, 15.0};
  // 4000 x $3 + 6000 x $0.3 + 3000 x $15, per 1e6: (12000 + 1800 + 45000) / 1e6 = $0.0588. The cache reads
  // are priced once, at the cached price.
  EXPECT_NEAR(usage_cost_usd(response.usage, prices), 0.0588, 1e-12);
}

TEST(TokenPricing, AnthropicCacheWritesArePricedAsPrompt) {
  // 1000 cache-write tokens: kcraft's prompt_tokens has them, not the cached count: priced at $3, not at
  // Anthropic's 1.25x (documented in prices.h as an underestimate).
  const auto response = parse_anthropic_response(anthropic_body({{"input_tokens", 4000},
                                                                 {"cache_read_input_tokens", 6000},
                                                                 {"cache_creation_input_tokens", 1000},
                                                                 {"output_tokens", 3000}}));
  EXPECT_NEAR(usage_cost_usd(response.usage, TokenPrices{3.0, 0.3, 15.0, 15.0}), 0.0588 + 0.003, 1e-12);
}

TEST(TokenPricing, CountsThatContradictTheRuleAreCappedSoNothingIsPricedTwice) {
  // A server that counts cached and reasoning tokens apart from their totals: at most all of them.
  Usage usage;
  usage.prompt_tokens = 100;
  usage.cached_prompt_tokens = 500;
  usage.completion_tokens = 10;
  usage.reasoning_tokens = 40;
  // 100 cached x $1 + 10 reasoning x $100 = 100 + 1000, per 1e6.
  EXPECT_NEAR(usage_cost_usd(usage, TokenPrices{50, 1, 70, 100}), 1100 / 1e6, 1e-15);
  EXPECT_EQ(usage_cost_usd(Usage{}, TokenPrices{50, 1, 70, 100}), 0.0);
}

TEST(TokenPricing, PricesFromStoredJsonMustBeComplete) {
  const TokenPrices p{1, 0.5, 4, 6};
  EXPECT_EQ(TokenPrices::from_json(p.to_json()), p);
  EXPECT_FALSE(TokenPrices::from_json(json::parse(R"({"prompt": 1, "completion": 4})")).has_value());
  EXPECT_FALSE(TokenPrices::from_json(
                   json::parse(R"({"prompt": -1, "cached_prompt": 0, "completion": 4, "reasoning": 4})"))
                   .has_value());
  EXPECT_FALSE(TokenPrices::from_json(
                   json::parse(R"({"prompt": "1", "cached_prompt": 0, "completion": 4, "reasoning": 4})"))
                   .has_value());
  EXPECT_FALSE(TokenPrices::from_json(json(nullptr)).has_value());
}

TEST(PriceTable, ModelsToPrices) {
  const auto table = parse_price_table(
      "gpt-4.1: {prompt: 2.00, cached_prompt: 0.50, completion: 8.00}\n"
      "claude-sonnet-4-5:\n  prompt: 3\n  cached_prompt: 0.3\n  completion: 15\n  reasoning: 15\n",
      "p.yaml");
  ASSERT_EQ(table.size(), 2u);
  EXPECT_EQ(table.at("gpt-4.1"), (TokenPrices{2, 0.5, 8, 8}));
  EXPECT_EQ(table.at("claude-sonnet-4-5"), (TokenPrices{3, 0.3, 15, 15}));
}

TEST(PriceTable, BrokenTablesNameTheFileAndTheModel) {
  const auto error = [](const std::string& text) {
    try {
      parse_price_table(text, "p.yaml");
    } catch (const ConfigError& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  EXPECT_EQ(error("m: {prompt: 1, completion: -2}\n"),
            "p.yaml: m.completion: must be between 0 and 100000 (USD per million tokens)");
  EXPECT_EQ(error("m: {prompt: 1, completion: 2, input: 3}\n"),
            "p.yaml: m.input: unknown price (expected one of prompt, cached_prompt, completion, reasoning)");
  EXPECT_EQ(error("m: {completion: 2}\n"), "p.yaml: m.prompt: missing");
  EXPECT_EQ(error("m: 3\n").rfind("p.yaml: m: expected a mapping", 0), 0u);
  EXPECT_EQ(error("- m\n").rfind("p.yaml: expected a mapping of model name", 0), 0u);
  EXPECT_EQ(error("m: {prompt: [1\n").rfind("p.yaml:", 0), 0u);
  EXPECT_NE(error("m: {prompt: [1\n").find("YAML syntax error"), std::string::npos);
  EXPECT_EQ(error("a: {prompt: 1, completion: 2}\n"), "no error");
}

TEST(PriceTable, MissingFile) {
  try {
    load_price_table("/nonexistent/kcraft/prices.yaml");
    FAIL() << "accepted a missing file";
  } catch (const ConfigError& e) {
    EXPECT_EQ(std::string(e.what()), "/nonexistent/kcraft/prices.yaml: cannot open the price table");
  }
}

}  // namespace
}  // namespace kcraft::agent::testing
