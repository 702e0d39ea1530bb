// ProviderSettings::load: the shipped examples, every field, and broken files rejected naming file and
// field.
#include <gtest/gtest.h>

#include <filesystem>

#include "agent/providers/provider.h"
#include "isa/common/hw_config.h"
#include "tests/agent/test_support.h"

namespace kcraft::agent::testing {
namespace {

const std::filesystem::path kExamples = std::filesystem::path(KCRAFT_SOURCE_DIR) / "agent/providers/examples";
const std::string kValidForPrices = "provider: openai\nbase_url: http://h/v1\nmodel: m\n";

TEST(ProviderSettings, OpenAiExample) {
  const auto settings = ProviderSettings::load((kExamples / "openai.yaml").string());
  EXPECT_EQ(settings.provider, "openai");
  EXPECT_EQ(settings.base_url, "https://api.openai.com/v1");
  EXPECT_EQ(settings.model, "gpt-4.1");
  EXPECT_EQ(settings.api_key_env, "OPENAI_API_KEY");
  EXPECT_DOUBLE_EQ(settings.temperature, 0.2);
  EXPECT_EQ(settings.max_tokens, 8192u);
  EXPECT_EQ(settings.max_tokens_field, "max_tokens");
  EXPECT_DOUBLE_EQ(settings.timeout_seconds, 300);
  EXPECT_EQ(settings.max_retries, 5u);
  // Its prices: reasoning tokens at the completion price unless given.
  ASSERT_TRUE(settings.prices.has_value());
  EXPECT_EQ(*settings.prices, (TokenPrices{2.00, 0.50, 8.00, 8.00}));
}

TEST(ProviderSettings, AnthropicExample) {
  const auto settings = ProviderSettings::load((kExamples / "anthropic.yaml").string());
  EXPECT_EQ(settings.provider, "anthropic");
  EXPECT_EQ(settings.base_url, "https://api.anthropic.com/v1");
  EXPECT_EQ(settings.api_key_env, "ANTHROPIC_API_KEY");
  ASSERT_EQ(settings.extra_headers.size(), 1u);
  EXPECT_EQ(settings.extra_headers[0],
            (std::pair<std::string, std::string>{"anthropic-version", "2023-06-01"}));
}

TEST(ProviderSettings, LocalServerExample) {
  const auto settings = ProviderSettings::load((kExamples / "local-vllm.yaml").string());
  EXPECT_EQ(settings.provider, "openai");
  EXPECT_EQ(settings.base_url, "http://127.0.0.1:8000/v1");
  EXPECT_TRUE(settings.api_key_env.empty());
  EXPECT_DOUBLE_EQ(settings.timeout_seconds, 600);
  EXPECT_EQ(settings.extra_body, nlohmann::json({{"top_p", 0.95}}));
  // A local server needs no key: the provider builds without any environment variable.
  EXPECT_NE(make_provider(settings), nullptr);
}

TEST(ProviderSettings, EveryFieldIsRead) {
  TempDir dir;
  const auto file = dir.write("all.yaml", R"(
provider: anthropic
base_url: http://localhost:9000/v1///
model: claude-test
api_key_env: MY_KEY_2
temperature: 0.7
max_tokens: 1234
max_tokens_field: max_completion_tokens
timeout_seconds: 12.5
connect_timeout_seconds: 1.5
max_retries: 0
backoff_initial_ms: 20
backoff_max_ms: 400
extra_headers:
  anthropic-beta: tools-1
  X-Trace: "on"
extra_body:
  top_k: 40
  stream: false
  stop: [END, "###"]
  metadata: {user_id: "007"}
  note: ~
)");
  const auto settings = ProviderSettings::load(file);
  EXPECT_EQ(settings.provider, "anthropic");
  EXPECT_EQ(settings.base_url, "http://localhost:9000/v1");  // trailing slashes dropped
  EXPECT_EQ(settings.model, "claude-test");
  EXPECT_EQ(settings.api_key_env, "MY_KEY_2");
  EXPECT_DOUBLE_EQ(settings.temperature, 0.7);
  EXPECT_EQ(settings.max_tokens, 1234u);
  EXPECT_EQ(settings.max_tokens_field, "max_completion_tokens");
  EXPECT_DOUBLE_EQ(settings.timeout_seconds, 12.5);
  EXPECT_DOUBLE_EQ(settings.connect_timeout_seconds, 1.5);
  EXPECT_EQ(settings.max_retries, 0u);
  EXPECT_EQ(settings.backoff_initial_ms, 20u);
  EXPECT_EQ(settings.backoff_max_ms, 400u);
  const std::vector<std::pair<std::string, std::string>> headers = {{"anthropic-beta", "tools-1"},
                                                                    {"X-Trace", "on"}};
  EXPECT_EQ(settings.extra_headers, headers);
  EXPECT_EQ(settings.extra_body,
            nlohmann::json::parse(R"({"top_k": 40, "stream": false, "stop": ["END", "###"],
      "metadata": {"user_id": "007"}, "note": null})"));

  const auto json = settings.to_json();
  EXPECT_EQ(json["provider"], "anthropic");
  EXPECT_EQ(json["model"], "claude-test");
  EXPECT_EQ(json["max_tokens"], 1234);
  EXPECT_EQ(json["timeout_seconds"], 12.5);
  EXPECT_EQ(json["extra_headers"]["X-Trace"], "on");
  EXPECT_EQ(json["extra_body"]["top_k"], 40);
}

TEST(ProviderSettings, PricesAreReadAndStoredWithTheSettings) {
  TempDir dir;
  const auto all = ProviderSettings::load(dir.write(
      "all.yaml",
      kValidForPrices + "prices: {prompt: 1.25, cached_prompt: 0.125, completion: 10, reasoning: 12}\n"));
  ASSERT_TRUE(all.prices.has_value());
  EXPECT_EQ(*all.prices, (TokenPrices{1.25, 0.125, 10, 12}));
  EXPECT_EQ(all.to_json()["prices"],
            nlohmann::json::parse(
                R"({"prompt": 1.25, "cached_prompt": 0.125, "completion": 10, "reasoning": 12})"));
  EXPECT_EQ(TokenPrices::from_json(all.to_json()["prices"]), all.prices);

  // Only prompt and completion: cached prompt tokens at the prompt price, reasoning at the completion price,
  // and the record keeps the prices that were applied.
  const auto two = ProviderSettings::load(
      dir.write("two.yaml", kValidForPrices + "prices:\n  prompt: 3\n  completion: 15\n"));
  ASSERT_TRUE(two.prices.has_value());
  EXPECT_EQ(*two.prices, (TokenPrices{3, 3, 15, 15}));
  EXPECT_EQ(two.to_json()["prices"]["cached_prompt"], 3.0);

  // Free (a local server) is a price: 0, not unknown.
  const auto free = ProviderSettings::load(
      dir.write("free.yaml", kValidForPrices + "prices: {prompt: 0, completion: 0}\n"));
  ASSERT_TRUE(free.prices.has_value());
  EXPECT_EQ(*free.prices, (TokenPrices{0, 0, 0, 0}));

  // Without them: none, and none in the record (a run's cost is then unknown, never 0).
  const auto none = ProviderSettings::load(dir.write("none.yaml", kValidForPrices));
  EXPECT_FALSE(none.prices.has_value());
  EXPECT_FALSE(none.to_json().contains("prices"));
}

TEST(ProviderSettings, DefaultsForOptionalFields) {
  TempDir dir;
  const auto settings =
      ProviderSettings::load(dir.write("min.yaml", "provider: openai\nbase_url: http://h/v1\nmodel: m\n"));
  const ProviderSettings defaults;
  EXPECT_EQ(settings.api_key_env, "");
  EXPECT_EQ(settings.temperature, defaults.temperature);
  EXPECT_EQ(settings.max_tokens, defaults.max_tokens);
  EXPECT_EQ(settings.timeout_seconds, defaults.timeout_seconds);
  EXPECT_EQ(settings.max_retries, defaults.max_retries);
  EXPECT_EQ(settings.backoff_max_ms, defaults.backoff_max_ms);
  EXPECT_TRUE(settings.extra_headers.empty());
  EXPECT_EQ(settings.extra_body, nlohmann::json::object());
}

struct BrokenCase {
  const char* name;
  std::string yaml;
  std::string expected;  // must appear in the message, after "<file>: "
};

void PrintTo(const BrokenCase& broken, std::ostream* out) {
  *out << broken.name;
}

class BrokenSettings : public ::testing::TestWithParam<BrokenCase> {};

const std::string kValid = "provider: openai\nbase_url: http://h/v1\nmodel: m\n";

TEST_P(BrokenSettings, RejectedNamingFileAndField) {
  TempDir dir;
  const auto file = dir.write("broken.yaml", GetParam().yaml);
  try {
    ProviderSettings::load(file);
    FAIL() << "accepted:\n" << GetParam().yaml;
  } catch (const ConfigError& e) {
    const std::string message = e.what();
    EXPECT_EQ(message.rfind(file + ":", 0), 0u) << message;
    EXPECT_NE(message.find(GetParam().expected), std::string::npos) << message;
    // Values are never echoed: a key pasted into the wrong field must not reach a log.
    EXPECT_EQ(message.find("sk-secret-value"), std::string::npos) << message;
  }
}

INSTANTIATE_TEST_SUITE_P(
    Files, BrokenSettings,
    ::testing::Values(
        BrokenCase{"UnknownField", kValid + "api_key: sk-secret-value\n", "api_key: unknown field"},
        BrokenCase{"MissingProvider", "base_url: http://h/v1\nmodel: m\n", "provider: missing"},
        BrokenCase{"MissingModel", "provider: openai\nbase_url: http://h/v1\n", "model: missing"},
        BrokenCase{"EmptyModel", "provider: openai\nbase_url: http://h/v1\nmodel: ''\n",
                   "model: must not be empty"},
        BrokenCase{"MissingBaseUrl", "provider: openai\nmodel: m\n", "base_url: missing"},
        BrokenCase{"UnknownProvider", "provider: gemini\nbase_url: http://h/v1\nmodel: m\n",
                   "provider: expected openai or anthropic"},
        BrokenCase{"NotHttp", "provider: openai\nbase_url: ftp://h/v1\nmodel: m\n",
                   "base_url: expected an http"},
        BrokenCase{"ModelList", "provider: openai\nbase_url: http://h/v1\nmodel: [a, b]\n",
                   "model: expected text"},
        BrokenCase{"TemperatureText", kValid + "temperature: warm\n", "temperature: expected a number"},
        BrokenCase{"TemperatureRange", kValid + "temperature: 2.5\n", "temperature: must be between 0 and 2"},
        BrokenCase{"MaxTokensNegative", kValid + "max_tokens: -5\n", "max_tokens: expected a whole number"},
        BrokenCase{"MaxTokensFraction", kValid + "max_tokens: 1.5\n", "max_tokens: expected a whole number"},
        BrokenCase{"MaxTokensZero", kValid + "max_tokens: 0\n", "max_tokens: must be between"},
        BrokenCase{"MaxTokensField", kValid + "max_tokens_field: max_output_tokens\n",
                   "max_tokens_field: expected"},
        BrokenCase{"TimeoutZero", kValid + "timeout_seconds: 0\n", "timeout_seconds: must be between"},
        BrokenCase{"ConnectTimeoutMap", kValid + "connect_timeout_seconds: {a: 1}\n",
                   "connect_timeout_seconds: expected a number"},
        BrokenCase{"RetriesText", kValid + "max_retries: many\n", "max_retries: expected a whole number"},
        BrokenCase{"RetriesHuge", kValid + "max_retries: 100000\n", "max_retries: must be between 0 and 100"},
        BrokenCase{"BackoffOrder", kValid + "backoff_initial_ms: 5000\nbackoff_max_ms: 100\n",
                   "backoff_max_ms: must not be smaller"},
        BrokenCase{"KeyAsVariableName", kValid + "api_key_env: sk-secret-value\n",
                   "api_key_env: expected the name"},
        BrokenCase{"HeadersList", kValid + "extra_headers: [a, b]\n", "extra_headers: expected a mapping"},
        BrokenCase{"HeaderName", kValid + "extra_headers: {\"bad name\": x}\n",
                   "extra_headers.bad name: not a valid"},
        BrokenCase{"HeaderValueMap", kValid + "extra_headers: {X-A: {b: 1}}\n",
                   "extra_headers.X-A: expected text"},
        BrokenCase{"HeaderLineBreak", kValid + "extra_headers: {X-A: \"a\\r\\nX-Injected: 1\"}\n",
                   "extra_headers.X-A: must not contain line breaks"},
        BrokenCase{"BodyScalar", kValid + "extra_body: 5\n", "extra_body: expected a mapping"},
        BrokenCase{"TopLevelList", "- provider: openai\n", "<top>: expected a mapping"},
        BrokenCase{"SyntaxError", kValid + "temperature: [0.2\n", "YAML syntax error"},
        // Found by fuzzing (tests/fuzz/regressions/provider_settings_yaml): "http://" alone loaded (the
        // trailing slashes were removed after the check) and make_provider then refused it; a field given
        // twice was read from its first occurrence.
        BrokenCase{"UrlWithoutHost", "provider: openai\nbase_url: http:///\nmodel: m\n",
                   "base_url: expected an http:// or https:// URL"},
        BrokenCase{"FieldTwice", kValid + "model: n\n", "model: given twice"},
        // prices: USD per million tokens, each a number >= 0, no key but the four.
        BrokenCase{"PriceNegative", kValid + "prices: {prompt: -1, completion: 8}\n",
                   "prices.prompt: must be between 0 and"},
        BrokenCase{
            "PriceUnknownKey", kValid + "prices: {prompt: 1, completion: 8, output: 8}\n",
            "prices.output: unknown price (expected one of prompt, cached_prompt, completion, reasoning)"},
        BrokenCase{"PriceText", kValid + "prices: {prompt: cheap, completion: 8}\n",
                   "prices.prompt: expected a number"},
        BrokenCase{"PriceList", kValid + "prices: {prompt: [1, 2], completion: 8}\n",
                   "prices.prompt: expected a number"},
        BrokenCase{"PriceInfinite", kValid + "prices: {prompt: 1e400, completion: 8}\n",
                   "prices.prompt: expected a number"},
        BrokenCase{"PriceHuge", kValid + "prices: {prompt: 1, completion: 8e6}\n",
                   "prices.completion: must be between 0 and"},
        BrokenCase{"PriceMissingCompletion", kValid + "prices: {prompt: 1, reasoning: 3}\n",
                   "prices.completion: missing"},
        BrokenCase{"PricesNotAMapping", kValid + "prices: 2.5\n", "prices: expected a mapping"},
        BrokenCase{"PriceKeyNotEchoed", kValid + "prices: {prompt: 1, completion: sk-secret-value}\n",
                   "prices.completion: expected a number"}),
    [](const ::testing::TestParamInfo<BrokenCase>& param_info) {
      return std::string(param_info.param.name);
    });

TEST(ProviderSettings, MissingFile) {
  try {
    ProviderSettings::load("/nonexistent/kcraft/provider.yaml");
    FAIL() << "accepted a missing file";
  } catch (const ConfigError& e) {
    EXPECT_NE(std::string(e.what()).find("/nonexistent/kcraft/provider.yaml: cannot open"),
              std::string::npos);
  }
}

TEST(ProviderSettings, SyntaxErrorNamesTheLine) {
  TempDir dir;
  const auto file = dir.write("syntax.yaml", kValid + "temperature: [0.2\n");
  try {
    ProviderSettings::load(file);
    FAIL();
  } catch (const ConfigError& e) {
    // file:line:column
    EXPECT_EQ(std::string(e.what()).rfind(file + ":", 0), 0u);
    EXPECT_NE(std::string(e.what()).find(file + ":5:"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace kcraft::agent::testing
