// The API key never leaves the provider layer: not in exception messages (even when the server echoes
// it, whole or in part), not in responses, not in logs, not in settings' JSON.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "agent/providers/provider.h"
#include "agent/providers/redaction.h"
#include "tests/agent/mock_llm_server.h"
#include "tests/agent/test_support.h"

namespace kcraft::agent::testing {
namespace {

using Kind = ProviderError::Kind;

constexpr const char* kKeyVariable = "KCRAFT_TEST_REDACTION_KEY";
const std::string kKey = "sk-live-4f9QpX2mZr8TbW6yLc1NvH5";
// 12 characters from the middle of the key, as a server that half-masks keys might echo them.
const std::string kKeyMiddle = kKey.substr(10, 12);

ChatRequest hello() {
  ChatRequest request;
  ChatMessage message;
  message.content = "hello";
  request.messages.push_back(message);
  return request;
}

void expect_no_key(const std::string& text) {
  EXPECT_EQ(text.find(kKey), std::string::npos) << text;
  EXPECT_EQ(text.find(kKeyMiddle), std::string::npos) << text;
}

TEST(SecretRedactor, ReplacesWholeAndPartialRuns) {
  const SecretRedactor redact({"abcdefghijklmnop"});
  EXPECT_EQ(redact("key=abcdefghijklmnop;"), "key=[REDACTED];");
  EXPECT_EQ(redact("masked: abcdefgh****mnop"), "masked: [REDACTED]****mnop");  // 8-character run
  EXPECT_EQ(redact("short run abcdefg stays"), "short run abcdefg stays");      // 7 characters
  EXPECT_EQ(redact("middle: efghijklm."), "middle: [REDACTED].");
  EXPECT_EQ(redact("twice abcdefghijklmnopabcdefghijklmnop"), "twice [REDACTED][REDACTED]");
  EXPECT_EQ(redact(""), "");
}

TEST(SecretRedactor, ShortSecretsOnlyWholeAndSeveralSecrets) {
  const SecretRedactor redact({"abc", "", "0123456789"});
  EXPECT_EQ(redact("ab abc 01234567 x"), "ab [REDACTED] [REDACTED] x");
  EXPECT_EQ(SecretRedactor(std::vector<std::string>{})("nothing to hide"), "nothing to hide");
  EXPECT_TRUE(SecretRedactor({""}).empty());
}

TEST(SecretRedactor, CredentialHeaders) {
  EXPECT_TRUE(is_credential_header("Authorization"));
  EXPECT_TRUE(is_credential_header("x-api-key"));
  EXPECT_TRUE(is_credential_header("api-key"));
  EXPECT_TRUE(is_credential_header("X-Auth-Token"));
  EXPECT_FALSE(is_credential_header("anthropic-version"));
  EXPECT_FALSE(is_credential_header("OpenAI-Organization"));
  EXPECT_EQ(credential_of("Bearer abc123"), "abc123");
  EXPECT_EQ(credential_of("abc123"), "abc123");
}

class KeyEcho : public ::testing::TestWithParam<WireApi> {
 protected:
  KeyEcho() : key_(kKeyVariable, kKey), server_(GetParam()) {}
  std::unique_ptr<Provider> provider() {
    auto settings = server_.settings();
    settings.api_key_env = kKeyVariable;
    settings.max_retries = 2;
    return make_provider(settings);
  }
  // The key exactly as this server received it.
  static std::string received_key(const ReceivedRequest& request) {
    return request.header("Authorization").empty() ? request.header("x-api-key")
                                                   : request.header("Authorization").substr(7);
  }
  std::string failure_text() {
    try {
      provider()->complete(hello());
    } catch (const ProviderError& e) {
      return e.what();
    }
    ADD_FAILURE() << "no error";
    return {};
  }

  ScopedEnv key_;
  MockLlmServer server_;
  RecordingSleeper sleeper_;
};

TEST_P(KeyEcho, UnauthorizedBodyEchoingTheKey) {
  server_.then(Step::dynamic([](const ReceivedRequest& request) {
    return Step::http_error(
        401,
        nlohmann::json({{"error", {{"message", "Incorrect API key provided: " + received_key(request)}}}})
            .dump());
  }));
  const auto text = failure_text();
  ASSERT_EQ(received_key(server_.request(0)), kKey);  // the key did reach the server: the echo is real
  expect_no_key(text);
  EXPECT_NE(text.find("Incorrect API key provided: [REDACTED]"), std::string::npos) << text;
}

TEST_P(KeyEcho, PartialEchoInServerErrorsAfterRetries) {
  server_.set_fallback(Step::http_error(503, "upstream rejected key ..." + kKeyMiddle + "... try later"));
  const auto text = failure_text();
  EXPECT_EQ(server_.request_count(), 3u);
  expect_no_key(text);
  EXPECT_NE(text.find("upstream rejected key ...[REDACTED]... try later"), std::string::npos) << text;
}

TEST_P(KeyEcho, MalformedBodyEchoingTheKey) {
  server_.then(Step::raw(200, "{ broken json, your key was " + kKey));
  expect_no_key(failure_text());
}

TEST_P(KeyEcho, WrongShapeBodyEchoingTheKey) {
  server_.then(Step::raw(200, nlohmann::json({{"unexpected", kKey}}).dump()));
  expect_no_key(failure_text());
}

TEST_P(KeyEcho, SuccessfulResponseEchoingTheKey) {
  MockReply reply;
  reply.text = "Your key is " + kKey;
  reply.tool_calls = {{"write_code", nlohmann::json({{"code", "; " + kKey}}).dump(), ""}};
  reply.model = "model-" + kKey;
  server_.then(Step::reply(reply));
  const auto response = provider()->complete(hello());
  expect_no_key(response.message.content);
  expect_no_key(response.message.tool_calls.at(0).arguments);
  expect_no_key(response.model);
  EXPECT_EQ(response.message.content, "Your key is [REDACTED]");
  EXPECT_EQ(nlohmann::json::parse(response.message.tool_calls[0].arguments)["code"], "; [REDACTED]");
}

TEST_P(KeyEcho, KeyInTheUrlPath) {
  auto settings = server_.settings();
  settings.api_key_env = kKeyVariable;
  settings.base_url = server_.base_url() + "/" + kKey;  // unknown path: 404 naming the URL
  try {
    make_provider(settings)->complete(hello());
    ADD_FAILURE() << "no error";
  } catch (const ProviderError& e) {
    EXPECT_EQ(e.http_status(), 404);
    expect_no_key(e.what());
  }
  expect_no_key(settings.to_json().dump());
}

TEST_P(KeyEcho, LogsNeverShowTheKey) {
  LogCapture logs;
  server_.then(Step::http_error(500, "bad key " + kKey)).then(Step::text("echo: " + kKey));
  provider()->complete(hello());
  server_.then(Step::http_error(400, "bad key " + kKey));
  try {
    provider()->complete(hello());
  } catch (const ProviderError&) {
  }
  const auto text = logs.text();
  // Bodies are logged at trace level, so the echoes did pass through the logger.
  EXPECT_NE(text.find("echo: [REDACTED]"), std::string::npos) << text;
  EXPECT_NE(text.find("bad key [REDACTED]"), std::string::npos) << text;
  expect_no_key(text);
}

INSTANTIATE_TEST_SUITE_P(Both, KeyEcho, ::testing::Values(WireApi::kOpenAi, WireApi::kAnthropic),
                         [](const ::testing::TestParamInfo<WireApi>& param_info) {
                           return wire_api_name(param_info.param);
                         });

TEST(SettingsJson, NeverShowsKeys) {
  ScopedEnv key(kKeyVariable, kKey);
  ProviderSettings settings;
  settings.base_url = "https://example.invalid/v1";
  settings.model = "m";
  settings.api_key_env = kKeyVariable;
  settings.extra_headers = {{"Authorization", "Bearer other-secret-value-123"},
                            {"OpenAI-Organization", "org-1"}};
  settings.extra_body = {{"user", "run-" + kKey}};
  const auto json = settings.to_json();
  const auto text = json.dump();
  expect_no_key(text);
  EXPECT_EQ(text.find("other-secret-value-123"), std::string::npos) << text;
  EXPECT_EQ(json["extra_headers"]["Authorization"], "[REDACTED]");
  EXPECT_EQ(json["extra_headers"]["OpenAI-Organization"], "org-1");
  EXPECT_EQ(json["api_key_env"], kKeyVariable);
  EXPECT_EQ(json["model"], "m");
}

TEST(SettingsJson, CredentialExtraHeadersAreRedactedInErrors) {
  MockLlmServer server(WireApi::kOpenAi);
  server.then(Step::dynamic([](const ReceivedRequest& request) {
    return Step::http_error(403, "no access for " + request.header("api-key"));
  }));
  auto settings = server.settings();
  settings.extra_headers = {{"api-key", "azure-style-secret-0042"}};
  try {
    make_provider(settings)->complete(hello());
    ADD_FAILURE() << "no error";
  } catch (const ProviderError& e) {
    EXPECT_EQ(server.request(0).header("api-key"), "azure-style-secret-0042");
    EXPECT_EQ(std::string(e.what()).find("azure-style-secret"), std::string::npos) << e.what();
  }
}

TEST(MakeProvider, KeyPastedAsVariableNameIsNotEchoed) {
  ProviderSettings settings;
  settings.base_url = "https://example.invalid/v1";
  settings.model = "m";
  settings.api_key_env = kKey;  // the key itself instead of the variable's name
  try {
    make_provider(settings);
    ADD_FAILURE() << "no error";
  } catch (const ProviderError& e) {
    EXPECT_EQ(e.kind(), Kind::kClientError);
    expect_no_key(e.what());
  }
}

}  // namespace
}  // namespace kcraft::agent::testing
