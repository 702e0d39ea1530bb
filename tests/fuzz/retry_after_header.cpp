// Fuzzes the Retry-After and retry-after-ms header parsers (agent/providers/retry.cpp): a rate-limited
// provider tells the client how long to wait, and the value decides how long kcraft sleeps.
//
// Any value must give a wait or nothing: never a crash, an exception, a negative or non-finite wait.
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <ctime>
#include <string>

#include "agent/providers/retry.h"
#include "tests/fuzz/fuzz_support.h"

using namespace kcraft;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string value = fuzz::text_of(data, size);
  const std::time_t now = 1'700'000'000;  // fixed, so a finding reproduces
  try {
    if (auto seconds = agent::parse_retry_after(value, now)) {
      fuzz::check(std::isfinite(*seconds) && *seconds >= 0,
                  "Retry-After gives a wait of " + std::to_string(*seconds));
    }
    if (auto ms = agent::parse_retry_after_ms(value)) {
      fuzz::check(std::isfinite(*ms) && *ms >= 0, "retry-after-ms gives a wait of " + std::to_string(*ms));
    }
  } catch (const std::exception& e) {
    fuzz::fail_unexpected(e, "parse_retry_after");
  }
  return 0;
}
