// The HTTP provider: one class for both wire formats (they differ only in endpoint, headers and body),
// with the retry loop and the redaction of everything that leaves it.
#include "agent/providers/provider.h"

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <ctime>
#include <mutex>
#include <random>

#include <fmt/format.h>
#include <spdlog/spdlog.h>

#include "agent/providers/http.h"
#include "agent/providers/redaction.h"
#include "agent/providers/retry.h"
#include "agent/providers/settings.h"
#include "agent/providers/wire_format.h"

namespace kcraft::agent {

namespace {

using nlohmann::json;
using Clock = std::chrono::steady_clock;

struct WireApi {
  const char* endpoint;
  json (*encode)(const ProviderSettings&, const ChatRequest&);
  ChatResponse (*decode)(const json&);
};

bool same_header(std::string_view a, std::string_view b) {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
           return std::tolower(static_cast<unsigned char>(x)) == std::tolower(static_cast<unsigned char>(y));
         });
}

class HttpProvider : public Provider {
 public:
  HttpProvider(ProviderSettings settings, std::string api_key)
      : settings_(std::move(settings)),
        api_(settings_.provider == "anthropic"
                 ? WireApi{"/messages", anthropic_request_body, parse_anthropic_response}
                 : WireApi{"/chat/completions", openai_request_body, parse_openai_response}),
        url_(settings_.base_url + api_.endpoint),
        headers_(build_headers(api_key)),
        redact_(redactor(api_key)),
        rng_(std::random_device{}()) {}

  const ProviderSettings& settings() const override { return settings_; }

  ChatResponse complete(const ChatRequest& request) override {
    const auto start = Clock::now();
    HttpRequest http{url_, headers_, dump_body(api_.encode(settings_, request)), settings_.timeout_seconds,
                     settings_.connect_timeout_seconds};
    const unsigned max_attempts = settings_.max_retries + 1;
    for (unsigned attempt = 1;; ++attempt) {
      spdlog::debug("{} POST {}: {} messages, {} bytes, attempt {}/{}", settings_.provider, redact_(url_),
                    request.messages.size(), http.body.size(), attempt, max_attempts);
      if (spdlog::should_log(spdlog::level::trace)) spdlog::trace("request body: {}", redact_(http.body));
      const auto result = http_post(http);
      const double elapsed = seconds_since(start);

      if (result.completed && result.status >= 200 && result.status < 300) {
        spdlog::debug("{} HTTP {} in {:.3f} s, {} bytes", settings_.provider, result.status, elapsed,
                      result.body.size());
        if (spdlog::should_log(spdlog::level::trace))
          spdlog::trace("response body: {}", redact_(result.body));
        auto response = decode(result);
        response.attempts = attempt;
        response.seconds = seconds_since(start);
        return response;
      }

      Failure failure = classify(result);
      const bool last = attempt >= max_attempts;
      if (!failure.transient || last) {
        std::string message = failure.message;
        if (attempt > 1) message += fmt::format(" (after {} attempts in {:.1f} s)", attempt, elapsed);
        spdlog::debug("{} giving up: {}", settings_.provider, redact_(message));
        throw ProviderError(failure.kind, static_cast<int>(result.status), redact_(message));
      }
      const double delay = retry_delay(result, attempt - 1);
      spdlog::debug("{} retrying in {:.3f} s: {}", settings_.provider, delay, redact_(failure.message));
      sleep_before_retry(delay);
    }
  }

 private:
  struct Failure {
    ProviderError::Kind kind;
    bool transient;
    std::string message;  // not yet redacted
  };

  static double seconds_since(Clock::time_point start) {
    return std::chrono::duration<double>(Clock::now() - start).count();
  }

  std::vector<std::pair<std::string, std::string>> build_headers(const std::string& api_key) const {
    std::vector<std::pair<std::string, std::string>> headers = {{"Content-Type", "application/json"}};
    if (settings_.provider == "anthropic") {
      if (!api_key.empty()) headers.emplace_back("x-api-key", api_key);
      headers.emplace_back("anthropic-version", "2023-06-01");
    } else if (!api_key.empty()) {
      headers.emplace_back("Authorization", "Bearer " + api_key);
    }
    // extra_headers replace defaults of the same name (e.g. a newer anthropic-version, Azure's api-key).
    for (const auto& [name, value] : settings_.extra_headers) {
      headers.erase(
          std::remove_if(headers.begin(), headers.end(),
                         [&name = name](const auto& header) { return same_header(header.first, name); }),
          headers.end());
      headers.emplace_back(name, value);
    }
    return headers;
  }

  SecretRedactor redactor(const std::string& api_key) const {
    std::vector<std::string> secrets = {api_key};
    for (const auto& [name, value] : settings_.extra_headers) {
      if (is_credential_header(name)) secrets.push_back(credential_of(value));
    }
    return SecretRedactor(std::move(secrets));
  }

  std::string where() const { return fmt::format("{} provider, {}", settings_.provider, url_); }

  ChatResponse decode(const HttpResult& result) const {
    const auto body = json::parse(result.body, nullptr, /*allow_exceptions=*/false);
    if (body.is_discarded()) {
      throw ProviderError(ProviderError::Kind::kBadResponse, static_cast<int>(result.status),
                          fmt::format("{}: HTTP {} with a body that is not JSON: {}", redact_(where()),
                                      result.status, body_excerpt(redact_(result.body))));
    }
    ChatResponse response;
    try {
      response = api_.decode(body);
    } catch (const WireFormatError& e) {
      throw ProviderError(ProviderError::Kind::kBadResponse, static_cast<int>(result.status),
                          redact_(fmt::format("{}: unexpected response ({}): ", where(), e.what())) +
                              body_excerpt(redact_(result.body)));
    }
    // Whatever the server sent back (an echo of the key included) stays out of what we return.
    auto& message = response.message;
    message.content = redact_(message.content);
    for (auto& call : message.tool_calls) {
      call.id = redact_(call.id);
      call.name = redact_(call.name);
      call.arguments = redact_(call.arguments);
    }
    response.stop_reason = redact_(response.stop_reason);
    response.model = redact_(response.model);
    return response;
  }

  Failure classify(const HttpResult& result) const {
    using Kind = ProviderError::Kind;
    if (!result.completed) return {result.failure_kind, result.transient, where() + ": " + result.failure};
    std::string detail = error_message_from_body(result.body);
    if (detail.empty()) detail = body_excerpt(redact_(result.body));
    const auto message = fmt::format("{}: HTTP {}: {}", where(), result.status, detail);
    if (result.status == 429) return {Kind::kRateLimited, true, message};
    if (result.status >= 500) return {Kind::kServerError, true, message};
    return {Kind::kClientError, false, message};
  }

  // Retry-After (or OpenAI's retry-after-ms) when the server sent one, full-jitter backoff otherwise;
  // both capped at backoff_max_ms.
  double retry_delay(const HttpResult& result, unsigned retry) {
    const double cap = settings_.backoff_max_ms / 1000.0;
    std::optional<double> told;
    if (auto it = result.headers.find("retry-after-ms"); it != result.headers.end()) {
      if (auto ms = parse_retry_after_ms(it->second)) told = *ms / 1000.0;
    }
    if (auto it = result.headers.find("retry-after"); !told && it != result.headers.end()) {
      told = parse_retry_after(it->second, std::time(nullptr));
    }
    if (told) return std::min(*told, cap);
    std::lock_guard<std::mutex> lock(rng_mutex_);
    return backoff_seconds(retry, settings_.backoff_initial_ms, settings_.backoff_max_ms,
                           std::uniform_real_distribution<double>(0.0, 1.0)(rng_));
  }

  ProviderSettings settings_;
  WireApi api_;
  std::string url_;
  std::vector<std::pair<std::string, std::string>> headers_;
  SecretRedactor redact_;
  std::mutex rng_mutex_;
  std::mt19937_64 rng_;
};

std::string trimmed(std::string text) {
  const auto first = text.find_first_not_of(" \t\r\n");
  if (first == std::string::npos) return {};
  const auto last = text.find_last_not_of(" \t\r\n");
  return text.substr(first, last - first + 1);
}

}  // namespace

std::unique_ptr<Provider> make_provider(const ProviderSettings& settings) {
  if (settings.provider != "openai" && settings.provider != "anthropic") {
    throw std::invalid_argument(
        fmt::format("unknown provider '{}' (expected openai or anthropic)", settings.provider));
  }
  // Settings built in code skip load()'s checks; these would otherwise fail late or oddly (curl reads a
  // zero timeout as "none").
  if (settings.base_url.rfind("http://", 0) != 0 && settings.base_url.rfind("https://", 0) != 0) {
    throw std::invalid_argument("base_url: expected an http:// or https:// URL");
  }
  if (!(settings.timeout_seconds >= 0.001) || !(settings.connect_timeout_seconds >= 0.001)) {
    throw std::invalid_argument("timeout_seconds and connect_timeout_seconds must be at least 0.001");
  }
  for (const auto& [name, value] : settings.extra_headers) {
    if (!is_header_name(name) || !is_header_value(value)) {
      throw std::invalid_argument(fmt::format("extra_headers: '{}' is not a valid header", name));
    }
  }
  std::string api_key;
  if (!settings.api_key_env.empty()) {
    using Kind = ProviderError::Kind;
    // Not echoed: people paste the key itself here.
    if (!is_environment_variable_name(settings.api_key_env)) {
      throw ProviderError(
          Kind::kClientError, 0,
          "api_key_env must name an environment variable that holds the key, not the key itself");
    }
    const char* value = std::getenv(settings.api_key_env.c_str());
    if (value == nullptr) {
      throw ProviderError(
          Kind::kClientError, 0,
          fmt::format("environment variable {} (api_key_env) is not set", settings.api_key_env));
    }
    api_key = trimmed(value);
    if (api_key.empty()) {
      throw ProviderError(
          Kind::kClientError, 0,
          fmt::format("environment variable {} (api_key_env) is empty", settings.api_key_env));
    }
    if (!is_header_value(api_key)) {
      throw ProviderError(
          Kind::kClientError, 0,
          fmt::format("environment variable {} (api_key_env) holds a line break", settings.api_key_env));
    }
  }
  return std::make_unique<HttpProvider>(settings, std::move(api_key));
}

}  // namespace kcraft::agent
