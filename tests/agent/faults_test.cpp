// Failures and retries, for both wire formats: 429 and 5xx retried with backoff (Retry-After honoured
// and capped), timeouts, refused and dropped connections, malformed bodies, 4xx not retried.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <ctime>
#include <string>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "agent/providers/provider.h"
#include "tests/agent/mock_llm_server.h"
#include "tests/agent/test_support.h"

namespace kcraft::agent::testing {
namespace {

using Kind = ProviderError::Kind;

ChatRequest hello() {
  ChatRequest request;
  ChatMessage message;
  message.content = "hello";
  request.messages.push_back(message);
  return request;
}

// Runs the request expecting a ProviderError and returns it.
ProviderError failure_of(Provider& provider) {
  try {
    provider.complete(hello());
  } catch (const ProviderError& e) {
    return e;
  }
  ADD_FAILURE() << "complete() did not throw";
  return ProviderError(Kind::kBadResponse, -1, "no error");
}

std::string http_date(std::time_t when) {
  char text[64];
  std::tm tm{};
  gmtime_r(&when, &tm);
  std::strftime(text, sizeof(text), "%a, %d %b %Y %H:%M:%S GMT", &tm);
  return text;
}

class ProviderFaults : public ::testing::TestWithParam<WireApi> {
 protected:
  ProviderFaults() : server_(GetParam()) {}
  ProviderSettings settings() const {
    auto settings = server_.settings();
    settings.backoff_initial_ms = 1000;
    settings.backoff_max_ms = 60000;
    return settings;
  }
  MockLlmServer server_;
  RecordingSleeper sleeper_;
};

TEST_P(ProviderFaults, RateLimitedThenSuccessBacksOffWithJitter) {
  server_.then(Step::http_error(429), 2).then(Step::text("finally"));
  const auto response = make_provider(settings())->complete(hello());
  EXPECT_EQ(response.message.content, "finally");
  EXPECT_EQ(response.attempts, 3u);
  EXPECT_EQ(server_.request_count(), 3u);
  // Full jitter: the n-th wait lies in [0, initial * 2^n].
  const auto delays = sleeper_.delays();
  ASSERT_EQ(delays.size(), 2u);
  EXPECT_GE(delays[0], 0.0);
  EXPECT_LE(delays[0], 1.0);
  EXPECT_GE(delays[1], 0.0);
  EXPECT_LE(delays[1], 2.0);
}

TEST_P(ProviderFaults, RetryAfterSecondsIsHonoured) {
  server_.then(Step::http_error(429).retry_after("2"))
      .then(Step::http_error(503).retry_after("7"))
      .then(Step::text("ok"));
  const auto response = make_provider(settings())->complete(hello());
  EXPECT_EQ(response.attempts, 3u);
  EXPECT_EQ(sleeper_.delays(), (std::vector<double>{2.0, 7.0}));
}

TEST_P(ProviderFaults, RetryAfterHttpDateIsHonoured) {
  server_.then(Step::http_error(429).retry_after(http_date(std::time(nullptr) + 30))).then(Step::text("ok"));
  EXPECT_EQ(make_provider(settings())->complete(hello()).attempts, 2u);
  const auto delays = sleeper_.delays();
  ASSERT_EQ(delays.size(), 1u);
  // The date has whole seconds and a second may tick between sending and reading it.
  EXPECT_GE(delays[0], 28.0);
  EXPECT_LE(delays[0], 30.0);
}

TEST_P(ProviderFaults, RetryAfterIsCappedAtBackoffMax) {
  server_.then(Step::http_error(429).retry_after("3600"))
      .then(Step::http_error(429).retry_after(http_date(std::time(nullptr) + 7200)))
      .then(Step::text("ok"));
  auto capped = settings();
  capped.backoff_max_ms = 5000;
  EXPECT_EQ(make_provider(capped)->complete(hello()).attempts, 3u);
  EXPECT_EQ(sleeper_.delays(), (std::vector<double>{5.0, 5.0}));
}

TEST_P(ProviderFaults, RetryAfterMillisecondsWinsOverRetryAfter) {
  server_.then(Step::http_error(429).header("retry-after-ms", "1500").retry_after("9"))
      .then(Step::text("ok"));
  EXPECT_EQ(make_provider(settings())->complete(hello()).attempts, 2u);
  EXPECT_EQ(sleeper_.delays(), (std::vector<double>{1.5}));
}

TEST_P(ProviderFaults, UnreadableRetryAfterFallsBackToBackoff) {
  server_.then(Step::http_error(429).retry_after("soon")).then(Step::text("ok"));
  EXPECT_EQ(make_provider(settings())->complete(hello()).attempts, 2u);
  const auto delays = sleeper_.delays();
  ASSERT_EQ(delays.size(), 1u);
  EXPECT_LE(delays[0], 1.0);
}

TEST_P(ProviderFaults, ServerErrorThenSuccess) {
  server_.then(Step::http_error(500)).then(Step::text("recovered"));
  const auto response = make_provider(settings())->complete(hello());
  EXPECT_EQ(response.message.content, "recovered");
  EXPECT_EQ(response.attempts, 2u);
  EXPECT_EQ(sleeper_.delays().size(), 1u);
}

TEST_P(ProviderFaults, ServerErrorForeverGivesUpAfterMaxRetries) {
  server_.set_fallback(Step::http_error(500));
  auto provider = make_provider(settings());  // max_retries 3
  const auto error = failure_of(*provider);
  EXPECT_EQ(error.kind(), Kind::kServerError);
  EXPECT_EQ(error.http_status(), 500);
  EXPECT_EQ(server_.request_count(), 4u);
  EXPECT_EQ(sleeper_.delays().size(), 3u);
  const std::string message = error.what();
  EXPECT_NE(message.find("HTTP 500"), std::string::npos) << message;
  EXPECT_NE(message.find("mock error 500"), std::string::npos) << message;  // the server's own message
  EXPECT_NE(message.find("after 4 attempts"), std::string::npos) << message;
  EXPECT_NE(message.find(server_.base_url()), std::string::npos) << message;
}

TEST_P(ProviderFaults, BackoffGrowsAndIsCapped) {
  server_.set_fallback(Step::http_error(502));
  auto fast = settings();
  fast.max_retries = 12;
  fast.backoff_initial_ms = 100;
  fast.backoff_max_ms = 1000;
  auto provider = make_provider(fast);
  EXPECT_EQ(failure_of(*provider).kind(), Kind::kServerError);
  const auto delays = sleeper_.delays();
  ASSERT_EQ(delays.size(), 12u);
  for (size_t i = 0; i < delays.size(); ++i) {
    EXPECT_GE(delays[i], 0.0);
    EXPECT_LE(delays[i], std::min(1.0, 0.1 * (1 << i))) << "retry " << i;
  }
  // Jitter: the waits are not all the same.
  EXPECT_NE(*std::min_element(delays.begin(), delays.end()), *std::max_element(delays.begin(), delays.end()));
}

TEST_P(ProviderFaults, RateLimitedForever) {
  server_.set_fallback(Step::http_error(429));
  auto limited = settings();
  limited.max_retries = 2;
  auto provider = make_provider(limited);
  const auto error = failure_of(*provider);
  EXPECT_EQ(error.kind(), Kind::kRateLimited);
  EXPECT_EQ(error.http_status(), 429);
  EXPECT_EQ(server_.request_count(), 3u);
}

TEST_P(ProviderFaults, NoRetriesWhenMaxRetriesIsZero) {
  server_.set_fallback(Step::http_error(503));
  auto once = settings();
  once.max_retries = 0;
  auto provider = make_provider(once);
  EXPECT_EQ(failure_of(*provider).kind(), Kind::kServerError);
  EXPECT_EQ(server_.request_count(), 1u);
  EXPECT_TRUE(sleeper_.delays().empty());
}

TEST_P(ProviderFaults, TimeoutIsRetriedThenReported) {
  server_.set_fallback(Step::stall(30));
  auto quick = settings();
  quick.timeout_seconds = 0.3;
  quick.max_retries = 1;
  auto provider = make_provider(quick);
  const auto start = std::chrono::steady_clock::now();
  const auto error = failure_of(*provider);
  const double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  EXPECT_EQ(error.kind(), Kind::kTimeout);
  EXPECT_EQ(server_.request_count(), 2u);
  EXPECT_EQ(sleeper_.delays().size(), 1u);
  EXPECT_NE(std::string(error.what()).find("0.3 s"), std::string::npos) << error.what();
  EXPECT_GE(elapsed, 0.55);
  EXPECT_LT(elapsed, 3.0);
}

TEST_P(ProviderFaults, TimeoutThenSuccess) {
  server_.then(Step::stall(30)).then(Step::text("on time"));
  auto quick = settings();
  quick.timeout_seconds = 0.3;
  const auto response = make_provider(quick)->complete(hello());
  EXPECT_EQ(response.message.content, "on time");
  EXPECT_EQ(response.attempts, 2u);
  EXPECT_GE(response.seconds, 0.25);
}

TEST_P(ProviderFaults, SlowButInTimeIsNotATimeout) {
  server_.then(Step::text("slow").delay(0.2));
  auto patient = settings();
  patient.timeout_seconds = 2;
  const auto response = make_provider(patient)->complete(hello());
  EXPECT_EQ(response.message.content, "slow");
  EXPECT_EQ(response.attempts, 1u);
  EXPECT_GE(response.seconds, 0.2);
}

TEST_P(ProviderFaults, ConnectionRefusedIsUnreachable) {
  ClosedPort closed;
  auto nowhere = settings();
  nowhere.base_url = fmt::format("http://127.0.0.1:{}/v1", closed.port());
  nowhere.max_retries = 2;
  auto provider = make_provider(nowhere);
  const auto error = failure_of(*provider);
  EXPECT_EQ(error.kind(), Kind::kUnreachable);
  EXPECT_EQ(error.http_status(), 0);
  EXPECT_EQ(sleeper_.delays().size(), 2u);  // retried like any connection failure
  EXPECT_NE(std::string(error.what()).find(std::to_string(closed.port())), std::string::npos) << error.what();
}

TEST_P(ProviderFaults, DroppedConnectionIsRetried) {
  server_.then(Step::close_connection()).then(Step::text("second try"));
  const auto response = make_provider(settings())->complete(hello());
  EXPECT_EQ(response.message.content, "second try");
  EXPECT_EQ(response.attempts, 2u);
}

TEST_P(ProviderFaults, DroppedConnectionForeverIsUnreachable) {
  server_.set_fallback(Step::close_connection());
  auto provider = make_provider(settings());
  const auto error = failure_of(*provider);
  EXPECT_EQ(error.kind(), Kind::kUnreachable);
  EXPECT_EQ(server_.request_count(), 4u);
  EXPECT_NE(std::string(error.what()).find("connection closed"), std::string::npos) << error.what();
}

TEST_P(ProviderFaults, MalformedJsonIsBadResponseWithExcerpt) {
  server_.then(Step::malformed_json()).then(Step::text("never asked for"));
  auto provider = make_provider(settings());
  const auto error = failure_of(*provider);
  EXPECT_EQ(error.kind(), Kind::kBadResponse);
  EXPECT_EQ(error.http_status(), 200);
  EXPECT_EQ(server_.request_count(), 1u);
  EXPECT_NE(std::string(error.what()).find(R"("content": "unfinished)"), std::string::npos) << error.what();
}

TEST_P(ProviderFaults, WrongShapeIsBadResponseNamingTheField) {
  server_.then(Step::raw(200, R"({"result": "not the format"})"));
  auto provider = make_provider(settings());
  const auto error = failure_of(*provider);
  EXPECT_EQ(error.kind(), Kind::kBadResponse);
  const std::string field = GetParam() == WireApi::kOpenAi ? "choices" : "content";
  EXPECT_NE(std::string(error.what()).find(field + ": missing"), std::string::npos) << error.what();
  EXPECT_NE(std::string(error.what()).find("not the format"), std::string::npos) << error.what();
}

// Found by fuzzing (tests/fuzz/regressions/openai_response, anthropic_response): a content part whose
// "type" was not a string escaped as the JSON library's type_error, and a token count of 1e30 was an
// undefined float-to-integer conversion. Both are bad responses naming the field.
TEST_P(ProviderFaults, FieldsOfTheWrongTypeAreBadResponsesNamingTheField) {
  const bool openai = GetParam() == WireApi::kOpenAi;
  std::vector<std::pair<std::string, std::string>> cases = {
      {openai ? R"({"choices": [{"message": {"content": "x"}}], "usage": {"prompt_tokens": 1e30}})"
              : R"({"content": [], "usage": {"input_tokens": 1e30}})",
       openai ? "usage.prompt_tokens: too large" : "usage.input_tokens: too large"}};
  if (openai) {
    cases.emplace_back(R"({"choices": [{"message": {"content": [{"type": 1, "text": "x"}]}}]})",
                       "choices[0].message.content[].type: expected a string, got number");
  }
  for (const auto& [body, field] : cases) {
    server_.then(Step::raw(200, body));
    auto provider = make_provider(settings());
    const auto error = failure_of(*provider);
    EXPECT_EQ(error.kind(), Kind::kBadResponse) << body;
    EXPECT_NE(std::string(error.what()).find(field), std::string::npos) << error.what();
  }
}

TEST_P(ProviderFaults, LongBodiesAreCutInMessages) {
  server_.then(Step::raw(200, "<html>" + std::string(100000, 'x') + "</html>", "text/html"));
  auto provider = make_provider(settings());
  const auto error = failure_of(*provider);
  EXPECT_EQ(error.kind(), Kind::kBadResponse);
  EXPECT_LT(std::string(error.what()).size(), 1000u);
  EXPECT_NE(std::string(error.what()).find("<html>xxx"), std::string::npos);
}

TEST_P(ProviderFaults, UnauthorizedIsNotRetried) {
  server_
      .then(Step::http_error(
          401, R"({"error": {"message": "invalid x-api-key", "type": "authentication_error"}})"))
      .then(Step::text("never asked for"));
  auto provider = make_provider(settings());
  const auto error = failure_of(*provider);
  EXPECT_EQ(error.kind(), Kind::kClientError);
  EXPECT_EQ(error.http_status(), 401);
  EXPECT_EQ(server_.request_count(), 1u);
  EXPECT_TRUE(sleeper_.delays().empty());
  EXPECT_NE(std::string(error.what()).find("invalid x-api-key"), std::string::npos) << error.what();
}

TEST_P(ProviderFaults, OtherClientErrorsAreNotRetried) {
  for (int status : {400, 403, 404, 413, 422}) {
    server_.then(Step::http_error(status));
  }
  auto provider = make_provider(settings());
  for (int status : {400, 403, 404, 413, 422}) {
    const auto error = failure_of(*provider);
    EXPECT_EQ(error.kind(), Kind::kClientError);
    EXPECT_EQ(error.http_status(), status);
  }
  EXPECT_EQ(server_.request_count(), 5u);
  EXPECT_TRUE(sleeper_.delays().empty());
}

TEST_P(ProviderFaults, WrongBaseUrlIsAClientErrorNamingTheUrl) {
  auto wrong = settings();
  wrong.base_url = "http://127.0.0.1:" + std::to_string(server_.port()) + "/api";
  auto provider = make_provider(wrong);
  const auto error = failure_of(*provider);
  EXPECT_EQ(error.kind(), Kind::kClientError);
  EXPECT_EQ(error.http_status(), 404);
  EXPECT_NE(std::string(error.what()).find(wrong.base_url), std::string::npos) << error.what();
}

INSTANTIATE_TEST_SUITE_P(Both, ProviderFaults, ::testing::Values(WireApi::kOpenAi, WireApi::kAnthropic),
                         [](const ::testing::TestParamInfo<WireApi>& param_info) {
                           return wire_api_name(param_info.param);
                         });

TEST(MakeProvider, RejectsUnknownProvidersAndMissingKeys) {
  ProviderSettings settings;
  settings.base_url = "http://127.0.0.1:1/v1";
  settings.model = "m";
  settings.provider = "gemini";
  EXPECT_THROW(make_provider(settings), std::invalid_argument);

  settings.provider = "openai";
  settings.timeout_seconds = 0;  // curl would read it as "no timeout"
  EXPECT_THROW(make_provider(settings), std::invalid_argument);
  settings.timeout_seconds = 10;
  settings.base_url = "127.0.0.1:8000/v1";
  EXPECT_THROW(make_provider(settings), std::invalid_argument);
  settings.base_url = "http://127.0.0.1:1/v1";
  settings.extra_headers = {{"X-Injected", "a\r\nEvil: 1"}};
  EXPECT_THROW(make_provider(settings), std::invalid_argument);
  settings.extra_headers.clear();

  settings.api_key_env = "KCRAFT_TEST_SURELY_UNSET_VARIABLE";
  unsetenv(settings.api_key_env.c_str());
  try {
    make_provider(settings);
    ADD_FAILURE() << "no error for an unset key variable";
  } catch (const ProviderError& e) {
    EXPECT_EQ(e.kind(), Kind::kClientError);
    EXPECT_NE(std::string(e.what()).find("KCRAFT_TEST_SURELY_UNSET_VARIABLE"), std::string::npos);
  }
  ScopedEnv empty("KCRAFT_TEST_SURELY_UNSET_VARIABLE", "  ");
  EXPECT_THROW(make_provider(settings), ProviderError);
}

TEST(MakeProvider, KindNames) {
  EXPECT_STREQ(provider_error_kind_name(Kind::kUnreachable), "unreachable");
  EXPECT_STREQ(provider_error_kind_name(Kind::kTimeout), "timeout");
  EXPECT_STREQ(provider_error_kind_name(Kind::kRateLimited), "rate_limited");
  EXPECT_STREQ(provider_error_kind_name(Kind::kServerError), "server_error");
  EXPECT_STREQ(provider_error_kind_name(Kind::kClientError), "client_error");
  EXPECT_STREQ(provider_error_kind_name(Kind::kBadResponse), "bad_response");
}

}  // namespace
}  // namespace kcraft::agent::testing
