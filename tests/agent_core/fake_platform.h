// A test-only platform: proves that the code above tb/ (agent tools, scoring, tuner, MCP tools, sweep
// planning) reaches a platform only through the interface and the registry (tb/common/platform.h).
//
// Its "ISA": one instruction per non-empty line that is not a comment (";"). FAKE_OP is the only
// mnemonic; a line containing BAD is an error, one containing HAZARD a warning. A kernel passes when it
// assembles; it takes 100 cycles per instruction. Its baseline compiler emits `unroll` FAKE_OPs per row.
#pragma once

#include <memory>

#include "tb/common/platform.h"

namespace kcraft::testing {

inline constexpr const char* kFakePlatform = "fake";

std::unique_ptr<Platform> make_fake_platform();

}  // namespace kcraft::testing
