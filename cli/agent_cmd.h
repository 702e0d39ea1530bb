// `kcraft agent` and `kcraft agent replay`.
#pragma once

#include <functional>

#include "cli/subcommand.h"

namespace kcraft::cli {
void register_agent_commands(CLI::App& app, GlobalOptions& global, std::function<int()>& run);
}
