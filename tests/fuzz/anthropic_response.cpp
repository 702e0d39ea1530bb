// Fuzzes the Anthropic Messages response parser (agent/providers/anthropic_format.cpp). See
// response_harness.h.
#include "tests/fuzz/response_harness.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  kcraft::fuzz::run_response_harness(data, size, kcraft::agent::parse_anthropic_response,
                                     "parse_anthropic_response");
  return 0;
}
