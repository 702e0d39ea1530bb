// `kcraft mcp`: serve the agent tools over the Model Context Protocol on stdin/stdout.
#pragma once

#include <functional>

#include "cli/subcommand.h"

namespace kcraft::cli {
void register_mcp_command(CLI::App& app, GlobalOptions& global, std::function<int()>& run);
}
