// `kcraft mcp`: serve the agent tools over the Model Context Protocol on stdin/stdout.
#pragma once

#include <cstdint>
#include <functional>
#include <string>

#include "cli/subcommand.h"

namespace kcraft::cli {

// What `kcraft mcp` (and `kcraft serve --stdio`, the same code path) is told.
struct McpArgs {
  std::string platform;
  std::string task;
  std::string config = "C1";
  std::string hw = "default";
  uint64_t seed = 1;
  bool quiet = false;
  std::string docs = "guide";  // the documentation level served (isa | guide)
  std::string workspace;       // where named kernels are kept ("": none)
  uint64_t max_cycles = 0;     // ceiling on every evaluation's cycle cap
  std::string submissions;     // scored submissions are appended here as JSON lines
  std::string session_name;    // how those lines name the session
};

// Adds the options of `kcraft mcp` to `cmd`; the returned callback tells whether any of --config, --hw
// and --seed was given (they need --task).
std::function<bool()> add_mcp_options(CLI::App* cmd, McpArgs& a);
// Serves the tools over stdio until EOF.
int run_mcp_cmd(const McpArgs& a, bool config_given);

void register_mcp_command(CLI::App& app, GlobalOptions& global, std::function<int()>& run);
void register_serve_command(CLI::App& app, GlobalOptions& global, std::function<int()>& run);

}  // namespace kcraft::cli
