// `kcraft report`: tables, CSV, JSON and a self-contained HTML page from a results store, after
// optionally merging other stores (shards) into it.
#pragma once

#include <functional>

#include "cli/subcommand.h"

namespace kcraft::cli {
void register_report_command(CLI::App& app, GlobalOptions& global, std::function<int()>& run);
}
