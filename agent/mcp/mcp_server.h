// kcraft's agent tools over the Model Context Protocol, stdio transport: newline-delimited JSON-RPC 2.0
// messages (one per line, no embedded newlines) on the input, replies on the output, logs elsewhere.
//
// Implemented: initialize (version negotiation), ping, tools/list, tools/call, notifications (accepted,
// never answered), JSON-RPC batches when the negotiated version has them (2025-03-26 only), and the
// JSON-RPC errors: -32700 malformed JSON, -32600 invalid request, -32601 unknown method, -32602 invalid
// params (including an unknown tool name, as the specification asks). A tool that fails, or is called
// with wrong arguments, answers with a result whose isError is true so the agent can correct itself.
#pragma once

#include <iosfwd>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "agent/common/tools.h"
#include "agent/mcp/mcp_tools.h"

namespace kcraft::agent::mcp {

// MCP protocol revisions the server speaks, newest first.
const std::vector<std::string>& supported_protocol_versions();

// MCP's messages nest a few levels. A client's message nested deeper than this is refused before anything
// walks it: nlohmann::json's dump, copies and comparisons recurse, and 10^5 levels in a 200 KB body
// overflowed kcraft serve's stack.
constexpr int kMaxMessageDepth = 64;
struct MessageTooDeep : std::runtime_error {
  MessageTooDeep();
};
// Parses one JSON-RPC message without building anything below kMaxMessageDepth. Throws
// nlohmann::json::exception for malformed JSON and MessageTooDeep for deeper nesting.
nlohmann::json parse_message(const std::string& text);

struct McpOptions {
  // A task chosen on the command line (kcraft mcp --task T --config C): selected from the start and fixed.
  std::optional<TaskContext> preselected;
  // Score submissions on the hidden seeds (the external agent runs its own loop, so nobody else will).
  bool score_on_submit = true;
  // The documentation served (isa | guide; MCP serves no kernel library, so not full): read_docs, grep_docs
  // and the instructions. `guide` is what the server served before levels existed.
  DocsLevel docs = DocsLevel::kGuide;
  // One line per request (method, tool, time); nullptr for none. Never the protocol stream.
  std::ostream* log = nullptr;
  // The session's workspace of named kernels (write_code's `name`, list_kernels, load_kernel); "": none.
  std::string workspace;
  // A ceiling on every evaluation's cycle cap (0: none).
  uint64_t max_cycles = 0;
  // Scored submissions are appended here as JSON lines, tagged with `session_name` ("": not recorded).
  std::string submissions_log;
  std::string session_name;
};

class McpServer {
 public:
  // Throws what ToolSession throws when options.preselected is not a valid task.
  explicit McpServer(const McpOptions& options);

  // One line of the transport. Returns the reply line (without newline), or nothing when there is none to
  // send (notifications, client responses, blank lines). Never throws.
  std::optional<std::string> handle_line(const std::string& line);
  // One parsed message (object or batch array). Returns the reply, or nothing.
  std::optional<nlohmann::json> handle_message(const nlohmann::json& message);

  // The negotiated protocol version (the newest supported one until initialize).
  const std::string& protocol_version() const { return protocol_version_; }
  bool initialized() const { return initialized_; }
  const McpToolbox& toolbox() const { return toolbox_; }

 private:
  std::optional<nlohmann::json> handle_single(const nlohmann::json& message, bool in_batch);
  nlohmann::json dispatch(const std::string& method, const nlohmann::json& params, bool in_batch);
  nlohmann::json initialize(const nlohmann::json& params);
  nlohmann::json tools_list() const;
  nlohmann::json tools_call(const nlohmann::json& params);
  void log(const std::string& line) const;

  McpOptions options_;
  McpToolbox toolbox_;
  std::string protocol_version_;
  bool initialized_ = false;
  std::string client_name_;
};

// Serves until EOF on `in`; returns 0 then (or when `out` can no longer be written: the client is gone).
int serve_mcp(std::istream& in, std::ostream& out, const McpOptions& options);

// serve_mcp on the process's stdin/stdout. Whatever else the process prints to stdout (SystemC reports,
// Verilator messages, stray std::cout) is sent to stderr instead so it cannot corrupt the protocol.
int serve_mcp_stdio(const McpOptions& options);

}  // namespace kcraft::agent::mcp
