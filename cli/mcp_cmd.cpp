// `kcraft mcp`: the agent tools for external agents (Claude Code, Cursor, Codex, ...) over MCP, stdio
// transport. stdout carries only the protocol; logs go to stderr.
#include "cli/mcp_cmd.h"

#include <iostream>

#include "agent/mcp/mcp_server.h"
#include "tb/common/platform.h"

namespace kcraft::cli {

int run_mcp_cmd(const McpArgs& a, bool config_given) {
  agent::mcp::McpOptions options;
  try {
    options.docs = agent::parse_docs_level(a.docs);
  } catch (const std::invalid_argument& e) {
    throw UsageError(std::string("--docs: ") + e.what());
  }
  if (agent::serves_examples(options.docs))
    throw UsageError("--docs full: kcraft mcp serves no kernel library (find_examples); use isa or guide");
  if (!a.task.empty()) {
    agent::TaskContext ctx;
    ctx.platform = a.platform;
    ctx.task = a.task;
    ctx.config = a.config;
    ctx.hw_config = a.hw;
    ctx.dev_seed = a.seed;
    agent::ToolSession check(ctx);  // an unknown or unsupported task is a usage error, before serving
    options.preselected = ctx;
  } else if (config_given) {
    throw UsageError("--config, --hw and --seed choose the configuration of --task; give --task too");
  }
  options.log = a.quiet ? nullptr : &std::cerr;
  options.workspace = a.workspace;
  options.max_cycles = a.max_cycles;
  options.submissions_log = a.submissions;
  options.session_name = a.session_name;
  return agent::mcp::serve_mcp_stdio(options);
}

std::function<bool()> add_mcp_options(CLI::App* cmd, McpArgs& a) {
  a.platform = default_platform_name();
  add_platform_option(cmd, a.platform);
  cmd->add_option("--task", a.task, "fix the task (select_task can then only restart it)");
  auto* config =
      cmd->add_option("--config", a.config, "configuration C1..C5 of --task")->capture_default_str();
  auto* hw = cmd->add_option("--hw", a.hw, "hardware configuration of --task")->capture_default_str();
  auto* seed = cmd->add_option("--seed", a.seed, "run_eval's input seed for --task")->capture_default_str();
  cmd->add_option("--docs", a.docs,
                  "documentation level: isa (the ISA reference only) or guide (plus the platform guide)")
      ->capture_default_str();
  cmd->add_flag("--quiet", a.quiet, "no log lines on stderr");
  cmd->add_option("--workspace", a.workspace,
                  "a directory for the kernels write_code saves by `name` (list_kernels, load_kernel)");
  cmd->add_option("--max-cycles", a.max_cycles, "a ceiling on every evaluation's cycle cap (0: none)")
      ->capture_default_str();
  cmd->add_option("--submissions", a.submissions, "append every scored submission to this file (JSON lines)");
  cmd->add_option("--session-name", a.session_name, "how --submissions names this session");
  return [config, hw, seed] { return config->count() + hw->count() + seed->count() > 0; };
}

void register_mcp_command(CLI::App& app, GlobalOptions& /*global*/, std::function<int()>& run) {
  static McpArgs a;
  auto* cmd = app.add_subcommand(
      "mcp", "serve the agent tools over the Model Context Protocol (stdio) for external agents");
  cmd->footer(
      "Newline-delimited JSON-RPC on stdin/stdout until EOF; logs on stderr. Without --task the agent picks "
      "a task "
      "with list_tasks and select_task; with --task the task is fixed. kcraft serve --stdio is the same; "
      "kcraft serve serves many agents over HTTP (docs/serve.md).\n"
      "Claude Code: claude mcp add kcraft -- /path/to/build/kcraft mcp");
  auto config_given = add_mcp_options(cmd, a);
  cmd->callback([&run, config_given] {
    const bool given = config_given();
    run = [given] { return run_mcp_cmd(a, given); };
  });
}

}  // namespace kcraft::cli
