// The `kcraft` subcommands, all registered in one place (what they share: cli/subcommand.h).
#pragma once

#include <CLI/CLI.hpp>

#include <functional>

#include "cli/subcommand.h"

namespace kcraft::cli {

// Registers every subcommand on `app`; `run` is set to the chosen subcommand's action.
void register_commands(CLI::App& app, GlobalOptions& global, std::function<int()>& run);

}  // namespace kcraft::cli
