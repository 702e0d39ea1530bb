#include "agent/mcp/mcp_server.h"

#include <fcntl.h>
#include <unistd.h>

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <iostream>
#include <streambuf>

#ifndef KCRAFT_VERSION
#define KCRAFT_VERSION "0.0.0"
#endif

namespace kcraft::agent::mcp {

namespace {

using nlohmann::json;

// JSON-RPC 2.0 error codes.
constexpr int kParseError = -32700;
constexpr int kInvalidRequest = -32600;
constexpr int kMethodNotFound = -32601;
constexpr int kInvalidParams = -32602;
constexpr int kInternalError = -32603;

// The only revision with JSON-RPC batches: 2025-06-18 removed them again.
constexpr const char* kBatchVersion = "2025-03-26";
// Revisions that introduced the optional fields the server sends (dates compare as strings).
constexpr const char* kAnnotationsVersion = "2025-03-26";
constexpr const char* kStructuredContentVersion = "2025-06-18";

struct RpcError {
  int code;
  std::string message;
};

json error_response(const json& id, int code, const std::string& message) {
  return {{"jsonrpc", "2.0"}, {"id", id}, {"error", {{"code", code}, {"message", message}}}};
}

// Replies must be one line of valid UTF-8: dump() escapes newlines, and invalid bytes a kernel or a
// diagnostic might carry are replaced rather than throwing.
std::string to_line(const json& j) {
  return j.dump(-1, ' ', false, json::error_handler_t::replace);
}

bool valid_id(const json& id) {
  return id.is_string() || id.is_number();
}

std::string instructions(const McpOptions& options) {
  std::string text =
      "kcraft is a cycle-accurate testbed for close-to-metal kernels on AI accelerators with their own ISA. "
      "You "
      "write an assembly kernel for a task, it runs on the accelerator's Verilated RTL, and it is judged on "
      "correctness (every output element within tolerance of a float64 reference, on inputs you have not "
      "seen) "
      "and then on cycles.\n";
  if (options.preselected) {
    const TaskContext& c = *options.preselected;
    text += fmt::format("This server is fixed to task {} {} on {}/{}: call show_task to read it.\n", c.task,
                        c.config, c.platform, c.hw_config);
  } else {
    text +=
        "Start with list_tasks, then select_task {\"task\": ..., \"config\": \"C1\"} (it returns the "
        "task).\n";
  }
  text +=
      serves_guide(options.docs)
          ? "Read the platform guide (read_docs {\"document\": \"platform_guide\"}, it has a worked ReLU "
            "kernel) and look instructions up with grep_docs. "
          : "Your documentation is the ISA reference alone (read_docs {\"document\": \"isa_reference\"}); "
            "look instructions up with grep_docs. ";
  text +=
      "Then loop: write_code (the whole kernel) -> check_syntax -> run_eval; "
      "view_output shows wrong elements, profile shows where the cycles go. When it passes and is fast, "
      "submit: "
      "it is scored on hidden inputs and reports the speedup over the baseline kernel.";
  return text;
}

// A streambuf over a file descriptor (the protocol's copy of stdout).
class FdOutBuf : public std::streambuf {
 public:
  explicit FdOutBuf(int fd) : fd_(fd) {}

 protected:
  int_type overflow(int_type c) override {
    if (!traits_type::eq_int_type(c, traits_type::eof())) buffer_.push_back(traits_type::to_char_type(c));
    return traits_type::not_eof(c);
  }
  std::streamsize xsputn(const char* s, std::streamsize n) override {
    buffer_.append(s, static_cast<size_t>(n));
    return n;
  }
  int sync() override {
    size_t done = 0;
    while (done < buffer_.size()) {
      const ssize_t n = ::write(fd_, buffer_.data() + done, buffer_.size() - done);
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) {
        buffer_.clear();
        return -1;
      }
      done += static_cast<size_t>(n);
    }
    buffer_.clear();
    return 0;
  }

 private:
  int fd_;
  std::string buffer_;
};

}  // namespace

MessageTooDeep::MessageTooDeep()
    : std::runtime_error("the message nests deeper than " + std::to_string(kMaxMessageDepth) + " levels") {}

json parse_message(const std::string& text) {
  bool too_deep = false;
  // The parser itself keeps its depth in a vector (no recursion); a value the callback declines is not
  // built, so nothing deep exists afterwards to walk.
  json message = json::parse(text, [&too_deep](int depth, json::parse_event_t, json&) {
    if (depth <= kMaxMessageDepth) return true;
    too_deep = true;
    return false;
  });
  if (too_deep) throw MessageTooDeep();
  return message;
}

const std::vector<std::string>& supported_protocol_versions() {
  static const std::vector<std::string> versions = {"2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"};
  return versions;
}

McpServer::McpServer(const McpOptions& options)
    : options_(options),
      toolbox_(options.preselected, options.score_on_submit, options.docs),
      protocol_version_(supported_protocol_versions().front()) {
  if (!options.workspace.empty()) toolbox_.set_workspace(options.workspace);
  if (options.max_cycles != 0) toolbox_.set_max_cycles(options.max_cycles);
  if (!options.submissions_log.empty())
    toolbox_.set_submissions_log(options.submissions_log, options.session_name);
}

void McpServer::log(const std::string& line) const {
  if (options_.log != nullptr) *options_.log << "kcraft mcp: " << line << std::endl;
}

std::optional<std::string> McpServer::handle_line(const std::string& line) {
  const bool blank = std::all_of(line.begin(), line.end(),
                                 [](char c) { return std::isspace(static_cast<unsigned char>(c)); });
  if (blank) return std::nullopt;
  try {
    json message;
    try {
      message = parse_message(line);
    } catch (const json::exception& e) {  // parse_error, and out_of_range for a number like 1e999
      log(std::string("malformed JSON: ") + e.what());
      return to_line(error_response(nullptr, kParseError, std::string("Parse error: ") + e.what()));
    } catch (const MessageTooDeep& e) {
      log(e.what());
      return to_line(error_response(nullptr, kInvalidRequest, std::string("Invalid Request: ") + e.what()));
    }
    auto reply = handle_message(message);
    if (!reply) return std::nullopt;
    return to_line(*reply);
  } catch (const std::exception& e) {
    // Nothing below should throw; if it does, the client still gets an answer and the server lives on.
    log(std::string("internal error: ") + e.what());
    return to_line(error_response(nullptr, kInternalError, std::string("Internal error: ") + e.what()));
  }
}

std::optional<json> McpServer::handle_message(const json& message) {
  if (!message.is_array()) return handle_single(message, false);
  if (!initialized_ || protocol_version_ != kBatchVersion) {
    return error_response(
        nullptr, kInvalidRequest,
        fmt::format("Invalid Request: JSON-RPC batches are not part of MCP {} (only of {}); send one "
                    "message per line",
                    protocol_version_, kBatchVersion));
  }
  if (message.empty()) return error_response(nullptr, kInvalidRequest, "Invalid Request: empty batch");
  json replies = json::array();
  for (const auto& m : message) {
    if (auto r = handle_single(m, true)) replies.push_back(std::move(*r));
  }
  if (replies.empty()) return std::nullopt;
  return replies;
}

std::optional<json> McpServer::handle_single(const json& message, bool in_batch) {
  if (!message.is_object()) {
    return error_response(nullptr, kInvalidRequest, "Invalid Request: a message must be a JSON object");
  }
  const bool has_id = message.contains("id");
  const json id = has_id && valid_id(message["id"]) ? message["id"] : json(nullptr);
  if (!message.contains("method")) {
    // A response from the client: the server sends no requests, so there is nothing to match it with.
    if (message.contains("result") || message.contains("error")) return std::nullopt;
    return error_response(id, kInvalidRequest, "Invalid Request: no \"method\"");
  }
  if (message.value("jsonrpc", json()) != "2.0") {
    if (!has_id) return std::nullopt;
    return error_response(id, kInvalidRequest, "Invalid Request: \"jsonrpc\" must be \"2.0\"");
  }
  if (!message["method"].is_string()) {
    if (!has_id) return std::nullopt;
    return error_response(id, kInvalidRequest, "Invalid Request: \"method\" must be a string");
  }
  const std::string method = message["method"];
  if (!has_id) {
    // Notifications are never answered, not even with an error.
    if (method == "notifications/initialized") log("client initialized");
    return std::nullopt;
  }
  if (!valid_id(message["id"])) {
    return error_response(nullptr, kInvalidRequest, "Invalid Request: \"id\" must be a string or an integer");
  }
  const json params = message.contains("params") ? message["params"] : json::object();
  if (!params.is_object())
    return error_response(id, kInvalidParams, "Invalid params: \"params\" must be an object");
  try {
    return json{{"jsonrpc", "2.0"}, {"id", id}, {"result", dispatch(method, params, in_batch)}};
  } catch (const RpcError& e) {
    log(fmt::format("{}: error {}: {}", method, e.code, e.message));
    return error_response(id, e.code, e.message);
  } catch (const std::exception& e) {
    log(fmt::format("{}: internal error: {}", method, e.what()));
    return error_response(id, kInternalError, std::string("Internal error: ") + e.what());
  }
}

json McpServer::dispatch(const std::string& method, const json& params, bool in_batch) {
  if (method == "initialize") {
    if (in_batch) throw RpcError{kInvalidRequest, "Invalid Request: initialize must not be part of a batch"};
    return initialize(params);
  }
  if (method == "ping") return json::object();
  if (method == "tools/list") return tools_list();
  if (method == "tools/call") return tools_call(params);
  throw RpcError{kMethodNotFound,
                 fmt::format("Method not found: '{}' (kcraft serves tools: initialize, ping, "
                             "tools/list, tools/call)",
                             method)};
}

json McpServer::initialize(const json& params) {
  if (!params.contains("protocolVersion") || !params["protocolVersion"].is_string()) {
    throw RpcError{kInvalidParams, "Invalid params: initialize needs \"protocolVersion\" (a string)"};
  }
  const std::string requested = params["protocolVersion"];
  const auto& versions = supported_protocol_versions();
  // The client's version when it is one of ours, else our newest (the client decides whether it copes).
  protocol_version_ =
      std::find(versions.begin(), versions.end(), requested) != versions.end() ? requested : versions.front();
  initialized_ = true;
  if (params.contains("clientInfo") && params["clientInfo"].is_object()) {
    const json& info = params["clientInfo"];
    client_name_ = info.contains("name") && info["name"].is_string() ? info["name"].get<std::string>() : "?";
    const std::string version =
        info.contains("version") && info["version"].is_string() ? info["version"].get<std::string>() : "";
    log(fmt::format("client {} {} asked for protocol {}, using {}", client_name_, version, requested,
                    protocol_version_));
  }
  json server_info = {{"name", "kcraft"}, {"version", KCRAFT_VERSION}};
  if (protocol_version_ >= kStructuredContentVersion)
    server_info["title"] = "kcraft accelerator kernel testbed";
  return {{"protocolVersion", protocol_version_},
          {"capabilities", {{"tools", json::object()}}},
          {"serverInfo", server_info},
          {"instructions", instructions(options_)}};
}

json McpServer::tools_list() const {
  json tools = json::array();
  for (const auto& t : McpToolbox::tools()) {
    json j = {{"name", t.name}, {"description", t.description}, {"inputSchema", t.input_schema}};
    if (protocol_version_ >= kStructuredContentVersion) j["title"] = t.title;
    if (protocol_version_ >= kAnnotationsVersion) {
      j["annotations"] = {{"title", t.title},
                          {"readOnlyHint", t.read_only},
                          {"destructiveHint", t.destructive},
                          {"idempotentHint", t.idempotent},
                          {"openWorldHint", false}};
    }
    tools.push_back(std::move(j));
  }
  return {{"tools", tools}};
}

json McpServer::tools_call(const json& params) {
  if (!params.contains("name") || !params["name"].is_string()) {
    throw RpcError{kInvalidParams, "Invalid params: tools/call needs \"name\" (a string)"};
  }
  const std::string name = params["name"];
  if (McpToolbox::find(name) == nullptr) {
    std::string known;
    for (const auto& t : McpToolbox::tools()) known += (known.empty() ? "" : ", ") + t.name;
    throw RpcError{kInvalidParams, fmt::format("Unknown tool: '{}' (the tools are: {})", name, known)};
  }
  json args = params.contains("arguments") ? params["arguments"] : json::object();
  if (args.is_null()) args = json::object();
  if (!args.is_object()) {
    throw RpcError{
        kInvalidParams,
        fmt::format("Invalid params: tools/call \"arguments\" must be an object, got {}", args.type_name())};
  }
  const auto start = std::chrono::steady_clock::now();
  ToolResult result;
  try {
    result = toolbox_.call(name, args);
  } catch (const std::exception& e) {
    // Tools report what the agent did wrong as results; an exception is kcraft's fault, but the agent
    // still deserves an answer it can read.
    result =
        ToolResult{std::string("internal error in ") + name + ": " + e.what(), true, json{{"error", true}}};
  }
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  log(fmt::format("tools/call {} {:.2f} s{}", name, seconds, result.is_error ? " (isError)" : ""));
  json out = {{"content", json::array({{{"type", "text"}, {"text", result.text}}})},
              {"isError", result.is_error}};
  if (protocol_version_ >= kStructuredContentVersion && result.data.is_object())
    out["structuredContent"] = result.data;
  return out;
}

int serve_mcp(std::istream& in, std::ostream& out, const McpOptions& options) {
  McpServer server(options);
  for (std::string line; std::getline(in, line);) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    auto reply = server.handle_line(line);
    if (!reply) continue;
    out << *reply << '\n';
    out.flush();
    if (!out) {
      if (options.log != nullptr) *options.log << "kcraft mcp: the client stopped reading; exiting\n";
      return 0;
    }
  }
  return 0;
}

int serve_mcp_stdio(const McpOptions& options) {
  std::cout.flush();
  std::fflush(stdout);
  const int protocol_fd = ::fcntl(STDOUT_FILENO, F_DUPFD_CLOEXEC, 0);
  if (protocol_fd < 0 || ::dup2(STDERR_FILENO, STDOUT_FILENO) < 0) {
    throw std::runtime_error(std::string("cannot set up the stdio transport: ") + std::strerror(errno));
  }
  // A client that exits closes the pipe: writing then must fail, not kill the process.
  std::signal(SIGPIPE, SIG_IGN);
  FdOutBuf buffer(protocol_fd);
  std::ostream out(&buffer);
  const int code = serve_mcp(std::cin, out, options);
  out.flush();
  ::close(protocol_fd);
  return code;
}

}  // namespace kcraft::agent::mcp
