// Fuzzes transcript loading for replay (agent/common/transcript.cpp, replay.cpp): `kcraft agent replay FILE`
// reads a JSONL transcript that may come from another machine, another kcraft version or a truncated run.
//
// Any text must replay or throw std::runtime_error (a malformed transcript, naming the file and line) or
// std::invalid_argument (a context naming an unknown task, configuration or hardware configuration); the
// summary must render. The JSON library's own exceptions escaping are findings: the CLI would report them
// as internal errors.
//
// The recorded tool calls really run through ToolSession. The fuzz build links no Verilated model, so
// run_eval and scoring stop after assembling (see mcp_jsonrpc.cpp); every other tool runs in full.
#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>

#include "agent/common/replay.h"
#include "agent/common/transcript.h"
#include "tests/fuzz/fuzz_support.h"

using namespace kcraft;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  fuzz::expect_errors<std::runtime_error, std::invalid_argument>("replay_events", [&] {
    const auto events = agent::parse_transcript(fuzz::text_of(data, size), "fuzz.jsonl");
    const agent::ReplayResult result = agent::replay_events(events, "fuzz.jsonl");
    (void)result.summary();
    fuzz::check(result.ok() == (result.mismatches.empty() && result.score_matches), "ok() disagrees");
  });
  return 0;
}
