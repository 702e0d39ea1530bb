// `kcraft compare OLD NEW`: regression tracking between two results stores or report JSON files.
#pragma once

#include <functional>

#include "cli/subcommand.h"

namespace kcraft::cli {
void register_compare_command(CLI::App& app, GlobalOptions& global, std::function<int()>& run);
}
