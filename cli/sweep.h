// `kcraft bench`: run kernels over tasks x configurations and print the results table.
#pragma once

#include "cli/commands.h"

namespace kcraft::cli {
void register_sweep_command(CLI::App& app, GlobalOptions& global, std::function<int()>& run);
}
