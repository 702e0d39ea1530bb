// Fuzzes the OpenAI-compatible chat completions response parser (agent/providers/openai_format.cpp): the
// body comes from OpenAI, vLLM, llama.cpp, Ollama or whatever answers at base_url. See response_harness.h.
#include "tests/fuzz/response_harness.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  kcraft::fuzz::run_response_harness(data, size, kcraft::agent::parse_openai_response,
                                     "parse_openai_response");
  return 0;
}
