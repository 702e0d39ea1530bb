// Retry timing: Retry-After parsing, exponential backoff with full jitter, and the replaceable sleeper.
#pragma once

#include <ctime>
#include <functional>
#include <optional>
#include <string_view>

namespace kcraft::agent {

// Seconds to wait as a Retry-After header says: delta-seconds ("120") or an HTTP-date ("Wed, 21 Oct 2015
// 07:28:00 GMT", counted from `now`; a date in the past means 0). nullopt when the value is neither.
std::optional<double> parse_retry_after(std::string_view value, std::time_t now);
// OpenAI's retry-after-ms header: whole milliseconds.
std::optional<double> parse_retry_after_ms(std::string_view value);

// Full-jitter exponential backoff: `unit_random` (in [0, 1)) times min(max_ms, initial_ms * 2^retry), in
// seconds. `retry` counts from 0 for the wait after the first failed attempt.
double backoff_seconds(unsigned retry, unsigned initial_ms, unsigned max_ms, double unit_random);

// Sleeps through the function installed by set_retry_sleeper, std::this_thread::sleep_for by default.
void sleep_before_retry(double seconds);

// For tests: how a provider sleeps between retries (default: really sleeps; an empty function restores
// that). Process-wide.
void set_retry_sleeper(std::function<void(double seconds)> sleeper);

}  // namespace kcraft::agent
