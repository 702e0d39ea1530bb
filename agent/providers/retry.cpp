#include "agent/providers/retry.h"

#include <curl/curl.h>

#include <algorithm>
#include <cctype>
#include <chrono>
#include <cmath>
#include <functional>
#include <mutex>
#include <string>
#include <thread>

namespace kcraft::agent {

namespace {

std::mutex sleeper_mutex;
std::function<void(double)> sleeper;  // empty: really sleep

}  // namespace

std::optional<double> parse_retry_after(std::string_view value, std::time_t now) {
  while (!value.empty() && std::isspace(static_cast<unsigned char>(value.front()))) value.remove_prefix(1);
  while (!value.empty() && std::isspace(static_cast<unsigned char>(value.back()))) value.remove_suffix(1);
  if (value.empty()) return std::nullopt;
  if (std::all_of(value.begin(), value.end(),
                  [](char c) { return std::isdigit(static_cast<unsigned char>(c)); })) {
    // Huge values saturate: the caller caps the wait anyway.
    return value.size() > 9 ? 1e9 : std::stod(std::string(value));
  }
  // libcurl already parses every date format HTTP allows (RFC 1123, RFC 850, asctime).
  const std::time_t when = curl_getdate(std::string(value).c_str(), nullptr);
  if (when == -1) return std::nullopt;
  return std::max(0.0, std::difftime(when, now));
}

std::optional<double> parse_retry_after_ms(std::string_view value) {
  while (!value.empty() && std::isspace(static_cast<unsigned char>(value.front()))) value.remove_prefix(1);
  while (!value.empty() && std::isspace(static_cast<unsigned char>(value.back()))) value.remove_suffix(1);
  if (value.empty() || value.size() > 12 || !std::all_of(value.begin(), value.end(), [](char c) {
        return std::isdigit(static_cast<unsigned char>(c));
      })) {
    return std::nullopt;
  }
  return std::stod(std::string(value));
}

double backoff_seconds(unsigned retry, unsigned initial_ms, unsigned max_ms, double unit_random) {
  const double ceiling_ms =
      std::min<double>(max_ms, std::ldexp(static_cast<double>(initial_ms), std::min(retry, 60u)));
  return unit_random * ceiling_ms / 1000.0;
}

void sleep_before_retry(double seconds) {
  std::function<void(double)> current;
  {
    std::lock_guard<std::mutex> lock(sleeper_mutex);
    current = sleeper;
  }
  if (current) {
    current(seconds);
  } else {
    std::this_thread::sleep_for(std::chrono::duration<double>(seconds));
  }
}

void set_retry_sleeper(std::function<void(double seconds)> new_sleeper) {
  std::lock_guard<std::mutex> lock(sleeper_mutex);
  sleeper = std::move(new_sleeper);
}

}  // namespace kcraft::agent
