// `kcraft codesign profile|propose PLATFORM`: a workload's profile per instruction, unit and stall cause,
// and the ISA and hardware changes it argues for (agent/bench/codesign.h, docs/codesign.md).
#pragma once

#include <functional>

#include "cli/subcommand.h"

namespace kcraft::cli {
void register_codesign_command(CLI::App& app, GlobalOptions& global, std::function<int()>& run);
}
