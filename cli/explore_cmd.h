// `kcraft explore PLATFORM --set NAME=v1,v2 ...`: design-space exploration over hardware variants
// (agent/bench/explore.h, docs/explore.md).
#pragma once

#include <functional>

#include "cli/subcommand.h"

namespace kcraft::cli {
void register_explore_command(CLI::App& app, GlobalOptions& global, std::function<int()>& run);
}
