// The vliw tile's hardware-team command: the random differential campaign of the RTL against the
// functional model (what `kcraft validate vliw` runs once the platform is registered).
#pragma once

#include "tb/common/platform.h"

namespace kcraft::vliw {

// Runs options.programs random programs (seeds options.seed ..) of about options.length bundles on the
// Verilated configuration options.hw_config and on the model; stops at the first divergence, which it
// reports minimised with a reproduction command.
CommandReport validate_random_programs(const ValidationOptions& options);

}  // namespace kcraft::vliw
