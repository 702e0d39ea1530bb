// Hardware-team commands: `kcraft validate` (random differential campaign RTL vs functional model),
// `kcraft coverage` (what the directed programs, random campaign and baselines exercise) and
// `kcraft speed` (simulated cycles per second through SystemC and for the bare Verilated model).
#pragma once

#include <functional>

#include "cli/subcommand.h"

namespace kcraft::cli {
void register_validate_commands(CLI::App& app, GlobalOptions& global, std::function<int()>& run);
}
