// `kcraft serve`: the MCP tools over MCP's Streamable HTTP transport for many agents on one machine
// (docs/serve.md), each session served by its own `kcraft mcp` process; `kcraft serve --stdio` is
// `kcraft mcp`.
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>

#include "agent/common/tools.h"
#include "agent/serve/http_server.h"
#include "agent/serve/session_process.h"
#include "cli/mcp_cmd.h"
#include "tb/common/paths.h"

namespace kcraft::cli {

namespace {

struct ServeArgs {
  McpArgs mcp;
  bool stdio = false;
  std::string host = "127.0.0.1";
  int port = 8808;
  std::string port_file;
  std::string token_file;
  std::string workspace_root;
  std::string results = "results/serve-submissions.jsonl";
  std::vector<std::string> allowed_origins;
  agent::serve::ServeLimits limits;
  unsigned threads = 0;
};

// argv of one session's process: this very executable's `kcraft mcp`, with the server's data root.
std::vector<std::string> session_argv(const ServeArgs& a, const std::string& session_name,
                                      const std::filesystem::path& workspace, const std::string& results) {
  std::vector<std::string> argv = {"/proc/self/exe", "mcp",      "--root",         kcraft::root().string(),
                                   "--docs",         a.mcp.docs, "--workspace",    workspace.string(),
                                   "--submissions",  results,    "--session-name", session_name};
  if (a.limits.max_cycles != 0) {
    argv.push_back("--max-cycles");
    argv.push_back(std::to_string(a.limits.max_cycles));
  }
  if (a.mcp.quiet) argv.push_back("--quiet");
  return argv;
}

int run_serve(const ServeArgs& a) {
  namespace fs = std::filesystem;
  if (a.token_file.empty()) throw UsageError("kcraft serve needs --token-file (or --stdio for kcraft mcp)");
  agent::serve::ServeOptions options;
  try {
    options.token = agent::serve::read_token_file(a.token_file);
  } catch (const std::exception& e) {
    throw UsageError(std::string("--token-file: ") + e.what());
  }
  // Warnings, not errors: a lab may know better (a private network, a token file in a private directory).
  std::error_code status_error;
  const auto perms = fs::status(a.token_file, status_error).permissions();
  if (!status_error && (perms & (fs::perms::group_read | fs::perms::others_read)) != fs::perms::none)
    std::cerr << "kcraft serve: warning: " << a.token_file
              << " is readable by others than its owner (chmod 600 it)\n";
  if (a.host != "127.0.0.1" && a.host != "localhost" && a.host != "::1")
    std::cerr << "kcraft serve: warning: plain HTTP on " << a.host
              << ": the token crosses the network in the clear; put TLS in front (docs/serve.md)\n";
  if (a.limits.jobs == 0) throw UsageError("--jobs must be at least 1");
  if (a.limits.max_sessions == 0) throw UsageError("--max-sessions must be at least 1");
  if (a.limits.eval_timeout <= 0 || a.limits.idle_timeout <= 0 || a.limits.read_timeout <= 0)
    throw UsageError("--eval-timeout, --idle-timeout and --read-timeout must be positive");
  try {
    agent::parse_docs_level(a.mcp.docs);
  } catch (const std::invalid_argument& e) {
    throw UsageError(std::string("--docs: ") + e.what());
  }
  options.limits = a.limits;
  options.allowed_origins = a.allowed_origins;
  options.log = a.mcp.quiet ? nullptr : &std::cerr;
  if (a.workspace_root.empty()) {
    std::string pattern = (fs::temp_directory_path() / "kcraft-serve-XXXXXX").string();
    if (::mkdtemp(pattern.data()) == nullptr) throw std::runtime_error("cannot create a workspace directory");
    options.workspace_root = pattern;
  } else {
    options.workspace_root = a.workspace_root;
  }
  const fs::path results = fs::absolute(a.results);
  if (results.has_parent_path()) fs::create_directories(results.parent_path());
  agent::serve::ServeCore core(options, [&a, results](const std::string& id, const fs::path& workspace) {
    return std::make_unique<agent::serve::SessionProcess>(session_argv(a, id, workspace, results.string()));
  });
  agent::serve::HttpListen listen;
  listen.host = a.host;
  listen.port = a.port;
  listen.threads = a.threads;
  if (options.log) {
    *options.log << "kcraft serve: workspaces in " << options.workspace_root.string() << ", submissions in "
                 << results.string() << "\n";
  }
  const int code = agent::serve::run_http_server(core, listen, a.limits, options.log, [&a](int port) {
    if (a.port_file.empty()) return;
    const std::string tmp = a.port_file + ".tmp";
    std::ofstream(tmp) << port << "\n";
    std::filesystem::rename(tmp, a.port_file);
  });
  if (a.workspace_root.empty()) {
    std::error_code ec;
    fs::remove_all(options.workspace_root, ec);
  }
  return code;
}

}  // namespace

void register_serve_command(CLI::App& app, GlobalOptions& /*global*/, std::function<int()>& run) {
  static ServeArgs a;
  auto* cmd = app.add_subcommand(
      "serve", "serve the agent tools over MCP's Streamable HTTP transport for many agents (docs/serve.md)");
  cmd->footer(
      "POST JSON-RPC to http://HOST:PORT/mcp with `Authorization: Bearer <token>`; each session (initialize) "
      "gets "
      "its own kcraft mcp process and workspace. --stdio serves stdin/stdout instead (= kcraft mcp).\n"
      "Clients: docs/serve.md (Claude Code, the MCP Inspector, the TypeScript SDK).");
  auto config_given = add_mcp_options(cmd, a.mcp);
  cmd->add_flag("--stdio", a.stdio, "serve one client on stdin/stdout: exactly kcraft mcp");
  cmd->add_option("--host", a.host, "address to listen on (loopback by default; put TLS in front for others)")
      ->capture_default_str();
  cmd->add_option("--port", a.port, "TCP port (0: any free one, see --port-file)")->capture_default_str();
  cmd->add_option("--port-file", a.port_file, "write the port here once listening");
  cmd->add_option("--token-file", a.token_file,
                  "file whose first line is the bearer token (at least 16 chars)");
  cmd->add_option("--workspace-root", a.workspace_root,
                  "where the sessions' workspaces go (default: a new temp dir)");
  cmd->add_option("--results", a.results, "scored submissions are appended here (JSON lines)")
      ->capture_default_str();
  cmd->add_option("--allow-origin", a.allowed_origins,
                  "an Origin allowed besides loopback ones (repeatable)");
  auto& l = a.limits;
  cmd->add_option("--jobs", l.jobs, "evaluations (run_eval, profile, submit) running at once")
      ->capture_default_str();
  cmd->add_option("--queue", l.queue, "evaluations waiting for a place; more are refused (JSON-RPC -32000)")
      ->capture_default_str();
  cmd->add_option("--max-body", l.max_body, "bytes of a request body (413 beyond)")->capture_default_str();
  cmd->add_option("--max-kernel", l.max_kernel, "bytes of a kernel (write_code)")->capture_default_str();
  cmd->add_option("--eval-timeout", l.eval_timeout, "seconds a session's process may take for one request")
      ->capture_default_str();
  cmd->add_option("--evals-per-minute", l.evals_per_minute,
                  "evaluations per session per minute (0: unlimited)")
      ->capture_default_str();
  cmd->add_option("--max-sessions", l.max_sessions, "sessions at once (503 beyond)")->capture_default_str();
  cmd->add_option("--idle-timeout", l.idle_timeout, "seconds without a request before a session ends")
      ->capture_default_str();
  cmd->add_option("--read-timeout", l.read_timeout, "seconds to wait for a slow client's next bytes")
      ->capture_default_str();
  cmd->add_option("--threads", a.threads, "HTTP threads (0: enough for the limits)");
  cmd->callback([&run, config_given] {
    const bool given = config_given();
    a.limits.max_cycles = a.mcp.max_cycles;
    run = [given] { return a.stdio ? run_mcp_cmd(a.mcp, given) : run_serve(a); };
  });
}

}  // namespace kcraft::cli
