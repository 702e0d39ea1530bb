// Fuzzes `kcraft serve`'s HTTP layer (agent/serve/serve_core.cpp): the requests' headers, methods, paths and
// bodies as ServeCore sees them after the socket, and the session table they drive (initialize, session
// ids, the protocol-version header, DELETE, limits). Each session is served in-process by a real
// McpServer with its own workspace, as `kcraft mcp` serves it in its child process.
//
// The input is a sequence of requests separated by lines "===": a first line "METHOD PATH", header lines
// "Name: value", a blank line, the body. In header values "$TOKEN" becomes the server's token and "$S0",
// "$S1", ... the ids of the sessions initialize created so far (so that inputs reach the sessions).
//
// Promised: handle() never throws; a request without exactly the token is 401 with an empty body; the
// statuses are the transport's (never 500: nothing a client sends is an internal error); a JSON reply is a
// JSON-RPC message with the request's id and never -32603; a session that DELETE ended answers 404
// afterwards; there are never more sessions than --max-sessions.
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <set>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "agent/mcp/mcp_server.h"
#include "agent/serve/serve_core.h"
#include "tests/fuzz/fuzz_support.h"

using namespace kcraft;
using nlohmann::json;

namespace {

const std::string kToken = "fuzz-token-0123456789abcdef";
constexpr unsigned kMaxSessions = 3;

class InProcessChannel : public agent::serve::SessionChannel {
 public:
  explicit InProcessChannel(const std::filesystem::path& workspace) : server_(options(workspace)) {}
  std::string exchange(const std::string& line, std::chrono::milliseconds) override {
    auto reply = server_.handle_line(line);
    fuzz::check(reply.has_value(), "the session did not answer a request: " + line);
    return *reply;
  }

 private:
  static agent::mcp::McpOptions options(const std::filesystem::path& workspace) {
    agent::mcp::McpOptions o;
    o.workspace = workspace.string();
    return o;
  }
  agent::mcp::McpServer server_;
};

std::string replace_all(std::string s, const std::string& from, const std::string& to) {
  for (size_t at = s.find(from); at != std::string::npos; at = s.find(from, at + to.size()))
    s.replace(at, from.size(), to);
  return s;
}

std::vector<std::string> split_requests(const std::string& input) {
  std::vector<std::string> parts;
  size_t start = 0;
  for (;;) {
    const size_t at = input.find("\n===\n", start);
    parts.push_back(input.substr(start, at == std::string::npos ? std::string::npos : at - start));
    if (at == std::string::npos) return parts;
    start = at + 5;
  }
}

agent::serve::HttpRequest parse_request(const std::string& text, const std::vector<std::string>& sessions) {
  agent::serve::HttpRequest r;
  size_t line_end = text.find('\n');
  const std::string first = text.substr(0, line_end);
  const size_t space = first.find(' ');
  r.method = first.substr(0, space);
  r.path = space == std::string::npos ? "/mcp" : first.substr(space + 1);
  size_t pos = line_end == std::string::npos ? text.size() : line_end + 1;
  while (pos < text.size()) {
    line_end = text.find('\n', pos);
    const std::string line =
        text.substr(pos, line_end == std::string::npos ? std::string::npos : line_end - pos);
    pos = line_end == std::string::npos ? text.size() : line_end + 1;
    if (line.empty()) break;
    const size_t colon = line.find(':');
    if (colon == std::string::npos) continue;
    std::string name = line.substr(0, colon);
    for (auto& c : name) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    std::string value = line.substr(colon + 1);
    if (!value.empty() && value[0] == ' ') value.erase(0, 1);
    value = replace_all(value, "$TOKEN", kToken);
    for (size_t i = sessions.size(); i-- > 0;)
      value = replace_all(value, "$S" + std::to_string(i), sessions[i]);
    r.headers[name] = value;
  }
  r.body = pos < text.size() ? text.substr(pos) : "";
  return r;
}

bool authorized(const agent::serve::HttpRequest& r) {
  const std::string auth = r.header("authorization");
  if (auth.size() != 7 + kToken.size()) return false;
  std::string scheme = auth.substr(0, 7);
  for (auto& c : scheme) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return scheme == "bearer " && auth.substr(7) == kToken;
}

void check_reply(const agent::serve::HttpRequest& request, const agent::serve::HttpReply& reply) {
  static const std::set<int> statuses = {200, 202, 400, 401, 403, 404, 405, 406, 413, 415, 503};
  fuzz::check(statuses.count(reply.status) == 1,
              "an unexpected status " + std::to_string(reply.status) + ": " + reply.body);
  if (!authorized(request)) {
    fuzz::check(reply.status == 401 && reply.body.empty(),
                "a request without the token got " + std::to_string(reply.status));
    return;
  }
  fuzz::check(reply.status != 401, "a request with the token was refused");
  if (reply.content_type != "application/json") return;
  const json body = json::parse(reply.body, nullptr, false);
  fuzz::check(body.is_object() && body.value("jsonrpc", "") == "2.0",
              "a JSON reply that is not JSON-RPC: " + reply.body);
  if (body.contains("error")) {
    fuzz::check(body["error"].value("code", 0) != -32603, "an internal error: " + reply.body);
  }
  const json sent = json::parse(request.body, nullptr, false);
  if (sent.is_object() && sent.contains("id") && (sent["id"].is_string() || sent["id"].is_number_integer()) &&
      sent.contains("method") && body.contains("result")) {
    fuzz::check(body["id"] == sent["id"], "a reply with another id: " + reply.body);
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static const std::filesystem::path root =
      std::filesystem::temp_directory_path() / ("kcraft_fuzz_serve_" + std::to_string(::getpid()));
  agent::serve::ServeOptions options;
  options.token = kToken;
  options.workspace_root = root;
  options.limits.max_sessions = kMaxSessions;
  options.limits.max_body = 4096;
  options.limits.max_kernel = 1024;
  options.limits.evals_per_minute = 4;
  options.limits.jobs = 1;
  options.limits.queue = 1;
  {
    agent::serve::ServeCore core(options, [](const std::string&, const std::filesystem::path& workspace) {
      return std::make_unique<InProcessChannel>(workspace);
    });
    std::vector<std::string> sessions;
    std::set<std::string> ended;
    for (const std::string& text : split_requests(fuzz::text_of(data, size))) {
      const agent::serve::HttpRequest request = parse_request(text, sessions);
      agent::serve::HttpReply reply;
      try {
        reply = core.handle(request);
      } catch (const std::exception& e) {
        fuzz::fail_unexpected(e, "ServeCore::handle");
      }
      check_reply(request, reply);
      const std::string session = request.header("mcp-session-id");
      if (ended.count(session) == 1 && authorized(request) && request.path == "/mcp" &&
          (request.method == "DELETE" ||
           (request.method == "POST" && reply.status != 413 && reply.status != 415 && reply.status != 406 &&
            reply.status != 400))) {
        fuzz::check(reply.status == 404 || reply.status == 202 || reply.status == 403,
                    "an ended session answered " + std::to_string(reply.status));
      }
      if (request.method == "DELETE" && reply.status == 200) ended.insert(session);
      for (const auto& [name, value] : reply.headers) {
        if (name == "Mcp-Session-Id") sessions.push_back(value);
      }
      fuzz::check(core.stats().sessions <= kMaxSessions, "more sessions than --max-sessions");
    }
  }
  std::error_code ec;
  std::filesystem::remove_all(root, ec);
  return 0;
}
