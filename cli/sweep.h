// `kcraft bench`: a benchmark sweep into the results store, then the results tables;
// `kcraft bench-speed`: times the baseline sweep at several worker counts;
// `kcraft bench-worker` (hidden): the worker process a sweep starts.
#pragma once

#include <functional>

#include "cli/subcommand.h"

namespace kcraft::cli {
void register_sweep_command(CLI::App& app, GlobalOptions& global, std::function<int()>& run);
}
