#include "agent/serve/serve_core.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <fstream>
#include <random>

#include <nlohmann/json.hpp>

#include "agent/mcp/mcp_server.h"

namespace kcraft::agent::serve {

namespace {

using nlohmann::json;

constexpr int kParseError = -32700;
constexpr int kInvalidRequest = -32600;
constexpr int kInternalError = -32603;
// JSON-RPC's range for server errors: what a client should retry (busy, rate limit, restarted process).
constexpr int kServerError = -32000;

// The tools that run a simulation and so take a place in the job queue (and count as evaluations).
bool evaluates(const std::string& tool) {
  const auto& tools = mcp::McpToolbox::tools();
  auto it = std::find_if(tools.begin(), tools.end(), [&](const mcp::McpTool& t) { return t.name == tool; });
  return it != tools.end() && it->simulates;
}

std::string lower(std::string s) {
  for (auto& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

// Compares in time that depends on the lengths only, so the token cannot be guessed byte by byte.
bool same_secret(const std::string& given, const std::string& expected) {
  unsigned char diff = given.size() == expected.size() ? 0 : 1;
  for (size_t i = 0; i < given.size(); ++i) {
    diff |= static_cast<unsigned char>(given[i] ^ expected[i % expected.size()]);
  }
  return diff == 0;
}

HttpReply json_reply(int status, const json& body) {
  HttpReply r;
  r.status = status;
  r.content_type = "application/json";
  r.body = body.dump(-1, ' ', false, json::error_handler_t::replace);
  return r;
}

HttpReply rpc_error(int status, const json& id, int code, const std::string& message) {
  return json_reply(status,
                    {{"jsonrpc", "2.0"}, {"id", id}, {"error", {{"code", code}, {"message", message}}}});
}

HttpReply plain(int status, const std::string& text) {
  HttpReply r;
  r.status = status;
  r.content_type = "text/plain";
  r.body = text + "\n";
  return r;
}

bool supported_version(const std::string& v) {
  const auto& versions = mcp::supported_protocol_versions();
  return std::find(versions.begin(), versions.end(), v) != versions.end();
}

}  // namespace

// ---- the job queue

bool JobQueue::enter() {
  std::unique_lock<std::mutex> lock(mutex_);
  if (running_ < jobs_ && waiting_ == 0) {
    ++running_;
    return true;
  }
  if (waiting_ >= queue_) return false;
  const uint64_t ticket = next_ticket_++;
  ++waiting_;
  turn_.wait(lock, [&] { return running_ < jobs_ && serving_ == ticket; });
  --waiting_;
  ++serving_;
  ++running_;
  turn_.notify_all();  // the next ticket may fit too
  return true;
}

void JobQueue::leave() {
  std::lock_guard<std::mutex> lock(mutex_);
  --running_;
  turn_.notify_all();
}

unsigned JobQueue::running() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return running_;
}

unsigned JobQueue::waiting() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return waiting_;
}

// ---- sessions

struct ServeCore::Session {
  std::string id;    // the secret the client holds (Mcp-Session-Id): never logged, never on a command line
  std::string name;  // "s7": the public name of logs, the workspace, the process's arguments, the results
  std::filesystem::path workspace;
  std::string init_line;                      // replayed to a restarted process
  std::string protocol_version;               // negotiated at initialize
  std::mutex turn;                            // one request at a time goes to the channel
  std::unique_ptr<SessionChannel> channel;    // null after a failure: the next request starts another
  std::deque<Clock::time_point> evaluations;  // of the last minute (under `turn`)
  // Under ServeCore::mutex_:
  bool ready = false;  // initialize answered: until then its id is nobody's to use
  Clock::time_point last_active = Clock::now();
  int in_flight = 0;
};

std::string HttpRequest::header(const std::string& lower_name) const {
  auto it = headers.find(lower_name);
  return it == headers.end() ? std::string() : it->second;
}

std::string new_session_id() {
  static std::mutex mutex;
  static std::random_device device;  // the kernel's random source
  std::lock_guard<std::mutex> lock(mutex);
  std::string id;
  for (int i = 0; i < 4; ++i) id += fmt::format("{:08x}", static_cast<uint32_t>(device()));
  return id;
}

bool is_loopback_origin(const std::string& origin) {
  for (const char* scheme : {"http://", "https://"}) {
    if (origin.rfind(scheme, 0) != 0) continue;
    const std::string rest = origin.substr(std::string(scheme).size());
    for (const char* host : {"localhost", "127.0.0.1", "[::1]"}) {
      const std::string h = host;
      if (rest == h || rest.rfind(h + ":", 0) == 0) {
        const std::string port = rest.substr(h.size());
        if (port.empty() || (port.size() > 1 && std::all_of(port.begin() + 1, port.end(), ::isdigit)))
          return true;
      }
    }
  }
  return false;
}

std::string read_token_file(const std::filesystem::path& file) {
  std::ifstream in(file);
  if (!in) throw std::runtime_error(fmt::format("cannot read the token file {}", file.string()));
  std::string token;
  std::getline(in, token);
  const auto blank = [](unsigned char c) { return std::isspace(c) != 0; };
  while (!token.empty() && blank(static_cast<unsigned char>(token.back()))) token.pop_back();
  token.erase(token.begin(), std::find_if_not(token.begin(), token.end(),
                                              [&](char c) { return blank(static_cast<unsigned char>(c)); }));
  if (token.size() < 16) {
    throw std::runtime_error(
        fmt::format("the token in {} has {} characters; use at least 16 (e.g. `openssl rand -hex 32 > {}`)",
                    file.string(), token.size(), file.string()));
  }
  return token;
}

ServeCore::ServeCore(ServeOptions options, ChannelFactory factory)
    : options_(std::move(options)),
      factory_(std::move(factory)),
      queue_(options_.limits.jobs, options_.limits.queue),
      instance_(new_session_id().substr(0, 8)) {
  std::filesystem::create_directories(options_.workspace_root);
}

ServeCore::~ServeCore() = default;

void ServeCore::log(const std::string& line) const {
  static std::mutex log_mutex;
  if (options_.log == nullptr) return;
  std::lock_guard<std::mutex> lock(log_mutex);
  *options_.log << "kcraft serve: " << line << std::endl;
}

ServeStats ServeCore::stats() const {
  std::lock_guard<std::mutex> lock(mutex_);
  ServeStats s = stats_;
  s.sessions = static_cast<unsigned>(sessions_.size());
  s.evaluations_running = queue_.running();
  s.evaluations_waiting = queue_.waiting();
  return s;
}

int ServeCore::session_pid(const std::string& session_id) const {
  auto session = find_session(session_id);
  if (!session) return 0;
  std::lock_guard<std::mutex> lock(session->turn);
  return session->channel ? session->channel->pid() : 0;
}

std::shared_ptr<ServeCore::Session> ServeCore::find_session(const std::string& id) const {
  std::lock_guard<std::mutex> lock(mutex_);
  auto it = sessions_.find(id);
  return it == sessions_.end() || !it->second->ready ? nullptr : it->second;
}

void ServeCore::remove_session(const std::string& id, const char* why) {
  std::shared_ptr<Session> session;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    auto it = sessions_.find(id);
    if (it == sessions_.end()) return;
    session = it->second;
    sessions_.erase(it);
    ++stats_.sessions_ended;
  }
  log(fmt::format("session {} ended ({})", session->name, why));
  std::error_code ec;
  std::filesystem::remove_all(session->workspace, ec);
  // The channel (and its process) goes with the last request holding the session.
}

void ServeCore::expire_idle_sessions() {
  const auto now = Clock::now();
  const auto idle = std::chrono::duration<double>(options_.limits.idle_timeout);
  std::vector<std::string> expired;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    for (const auto& [id, s] : sessions_) {
      if (s->in_flight == 0 && now - s->last_active > idle) expired.push_back(id);
    }
  }
  for (const auto& id : expired) remove_session(id, "idle for longer than --idle-timeout");
}

std::optional<HttpReply> ServeCore::precheck(const HttpRequest& request,
                                             std::optional<size_t> content_length) const {
  const std::string auth = request.header("authorization");
  const bool bearer = auth.size() > 7 && lower(auth.substr(0, 7)) == "bearer ";
  if (!bearer || !same_secret(auth.substr(7), options_.token)) {
    HttpReply r;
    r.status = 401;
    r.headers.push_back({"WWW-Authenticate", "Bearer realm=\"kcraft\""});
    return r;
  }
  const std::string origin = request.header("origin");
  if (!origin.empty() && !is_loopback_origin(origin) &&
      std::find(options_.allowed_origins.begin(), options_.allowed_origins.end(), origin) ==
          options_.allowed_origins.end()) {
    return plain(403, "Forbidden: Origin " + origin + " is not allowed (kcraft serve --allow-origin)");
  }
  if (request.path != "/mcp") return plain(404, "Not Found: the MCP endpoint is /mcp");
  if (request.method == "GET") {
    HttpReply r = plain(405, "Method Not Allowed: this server opens no SSE stream; POST JSON-RPC to /mcp");
    r.headers.push_back({"Allow", "POST, DELETE"});
    return r;
  }
  if (request.method == "DELETE") return std::nullopt;
  if (request.method != "POST") {
    HttpReply r = plain(405, "Method Not Allowed: " + request.method);
    r.headers.push_back({"Allow", "POST, DELETE"});
    return r;
  }
  if (content_length && *content_length > options_.limits.max_body) {
    return rpc_error(
        413, nullptr, kInvalidRequest,
        fmt::format("Request body of {} bytes is larger than this server takes ({} bytes, --max-body)",
                    *content_length, options_.limits.max_body));
  }
  return std::nullopt;
}

HttpReply ServeCore::handle(const HttpRequest& request) {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    ++stats_.requests;
  }
  if (auto early = precheck(request, request.body.size())) return *early;
  if (request.method == "DELETE") return end_session(request);
  try {
    return post(request);
  } catch (const std::exception& e) {
    log(std::string("internal error: ") + e.what());
    return rpc_error(500, nullptr, kInternalError, std::string("Internal error: ") + e.what());
  }
}

HttpReply ServeCore::end_session(const HttpRequest& request) {
  const std::string id = request.header("mcp-session-id");
  if (id.empty())
    return plain(400, "Bad Request: DELETE needs the Mcp-Session-Id header of the session to end");
  if (!find_session(id))
    return plain(404, "Not Found: no session " + id.substr(0, 64) + " (ended, expired or never started)");
  remove_session(id, "the client ended it");
  HttpReply r;
  r.status = 200;
  return r;
}

HttpReply ServeCore::post(const HttpRequest& request) {
  const std::string content_type = lower(request.header("content-type"));
  if (content_type.rfind("application/json", 0) != 0) {
    return plain(415, "Unsupported Media Type: POST a JSON-RPC message as application/json");
  }
  const std::string accept = lower(request.header("accept"));
  if (!accept.empty() && accept.find("application/json") == std::string::npos &&
      accept.find("*/*") == std::string::npos) {
    return plain(406, "Not Acceptable: this server answers application/json");
  }
  json message;
  try {
    message = mcp::parse_message(request.body);
  } catch (const json::exception&) {
    return rpc_error(400, nullptr, kParseError, "Parse error: the body is not JSON");
  } catch (const mcp::MessageTooDeep& e) {
    return rpc_error(400, nullptr, kInvalidRequest, std::string("Invalid Request: ") + e.what());
  }
  if (message.is_array()) {
    return rpc_error(
        400, nullptr, kInvalidRequest,
        "Invalid Request: JSON-RPC batches are not part of Streamable HTTP since MCP 2025-06-18; "
        "POST one message at a time");
  }
  if (!message.is_object())
    return rpc_error(400, nullptr, kInvalidRequest, "Invalid Request: not a JSON object");
  const bool has_method = message.contains("method") && message["method"].is_string();
  const bool has_id =
      message.contains("id") && (message["id"].is_string() || message["id"].is_number_integer());
  const json id = has_id ? message["id"] : json(nullptr);
  if (!has_method && !message.contains("result") && !message.contains("error")) {
    return rpc_error(400, id, kInvalidRequest,
                     "Invalid Request: neither a request, a notification nor a response");
  }
  if (message.value("jsonrpc", json()) != "2.0") {
    return rpc_error(400, id, kInvalidRequest, "Invalid Request: \"jsonrpc\" must be \"2.0\"");
  }
  if (has_method && message.contains("id") && !has_id) {
    return rpc_error(400, nullptr, kInvalidRequest, "Invalid Request: \"id\" must be a string or an integer");
  }
  const std::string method = has_method ? message["method"].get<std::string>() : "";
  const std::string session_id = request.header("mcp-session-id");
  const std::string line = message.dump(-1, ' ', false, json::error_handler_t::replace);
  if (method == "initialize") {
    if (!session_id.empty()) {
      return rpc_error(400, id, kInvalidRequest,
                       "Invalid Request: initialize starts a session; send it without Mcp-Session-Id");
    }
    if (!has_id) return rpc_error(400, nullptr, kInvalidRequest, "Invalid Request: initialize needs an id");
    return initialize(line, id.dump());
  }
  if (session_id.empty()) {
    return rpc_error(400, id, kInvalidRequest,
                     "Bad Request: no Mcp-Session-Id header; initialize first and send the id it returns");
  }
  auto session = find_session(session_id);
  if (!session) {
    return rpc_error(404, id, kInvalidRequest,
                     "Session not found: it ended, expired or never existed; initialize a new one");
  }
  const std::string version = request.header("mcp-protocol-version");
  if (!version.empty() && (!supported_version(version) || version != session->protocol_version)) {
    return rpc_error(400, id, kInvalidRequest,
                     fmt::format("Bad Request: MCP-Protocol-Version {} is not this session's ({})",
                                 version.substr(0, 40), session->protocol_version));
  }
  {
    std::lock_guard<std::mutex> lock(mutex_);
    session->last_active = Clock::now();
  }
  if (!has_method || !has_id) {
    HttpReply r;  // a notification or a response: accepted, nothing to answer
    r.status = 202;
    return r;
  }
  std::string tool;
  size_t kernel_bytes = 0;
  if (method == "tools/call" && message.contains("params") && message["params"].is_object()) {
    const json& params = message["params"];
    if (params.contains("name") && params["name"].is_string()) tool = params["name"];
    if (tool == "write_code" && params.contains("arguments") && params["arguments"].is_object() &&
        params["arguments"].contains("code") && params["arguments"]["code"].is_string()) {
      kernel_bytes = params["arguments"]["code"].get_ref<const std::string&>().size();
    }
  }
  return forward(session, line, method, tool, id.dump(), kernel_bytes);
}

HttpReply ServeCore::initialize(const std::string& line, const std::string& id_json) {
  const json id = json::parse(id_json);
  const std::string session_id = new_session_id();
  auto session = std::make_shared<Session>();
  session->id = session_id;
  session->name = fmt::format("s{}-{}", session_number_.fetch_add(1) + 1, instance_);
  session->workspace = options_.workspace_root / session->name;
  session->init_line = line;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (sessions_.size() >= options_.limits.max_sessions) {
      HttpReply r =
          rpc_error(503, id, kServerError,
                    fmt::format("Server busy: it serves {} sessions, its most (--max-sessions {}); retry "
                                "later",
                                sessions_.size(), options_.limits.max_sessions));
      r.headers.push_back({"Retry-After", "5"});
      return r;
    }
    session->in_flight = 1;
    sessions_[session_id] = session;  // holds its place; removed again if the process fails to start
  }
  std::string reply_line;
  try {
    std::lock_guard<std::mutex> turn(session->turn);
    session->channel = factory_(session->name, session->workspace);
    reply_line = session->channel->exchange(
        line, std::chrono::milliseconds(static_cast<int64_t>(options_.limits.eval_timeout * 1000)));
  } catch (const std::exception& e) {
    remove_session(session_id, "its process did not start");
    return rpc_error(500, id, kInternalError,
                     std::string("Internal error: cannot start the session: ") + e.what());
  }
  const json reply = json::parse(reply_line, nullptr, false);
  if (reply.is_discarded() || !reply.contains("result") || !reply["result"].contains("protocolVersion")) {
    remove_session(session_id, "initialize failed");
    return json_reply(200, reply.is_discarded() ? json{{"jsonrpc", "2.0"}, {"id", id}} : reply);
  }
  {
    std::lock_guard<std::mutex> lock(mutex_);
    session->protocol_version = reply["result"]["protocolVersion"].get<std::string>();
    session->ready = true;
    session->in_flight = 0;
    session->last_active = Clock::now();
    ++stats_.sessions_created;
  }
  log(fmt::format("session {} started (protocol {}, process {})", session->name, session->protocol_version,
                  session->channel->pid()));
  HttpReply r;
  r.status = 200;
  r.content_type = "application/json";
  r.body = reply_line;
  r.headers.push_back({"Mcp-Session-Id", session_id});
  return r;
}

HttpReply ServeCore::forward(const std::shared_ptr<Session>& session, const std::string& line,
                             const std::string& method, const std::string& tool, const std::string& id_json,
                             size_t kernel_bytes) {
  const json id = json::parse(id_json);
  const ServeLimits& limits = options_.limits;
  if (tool == "write_code" && kernel_bytes > limits.max_kernel) {
    const std::string text = fmt::format(
        "write_code: the kernel is {} bytes; this server takes kernels of at most {} bytes (--max-kernel)",
        kernel_bytes, limits.max_kernel);
    return json_reply(
        200,
        {{"jsonrpc", "2.0"},
         {"id", id},
         {"result", {{"content", json::array({{{"type", "text"}, {"text", text}}})}, {"isError", true}}}});
  }
  {
    std::lock_guard<std::mutex> lock(mutex_);
    ++session->in_flight;
  }
  struct InFlight {
    ServeCore& core;
    const std::shared_ptr<Session>& session;
    ~InFlight() {
      std::lock_guard<std::mutex> lock(core.mutex_);
      --session->in_flight;
      session->last_active = Clock::now();
    }
  } in_flight{*this, session};

  std::lock_guard<std::mutex> turn(session->turn);
  const bool evaluation = evaluates(tool);
  if (evaluation && limits.evals_per_minute > 0) {
    const auto now = Clock::now();
    while (!session->evaluations.empty() && now - session->evaluations.front() > std::chrono::minutes(1))
      session->evaluations.pop_front();
    if (session->evaluations.size() >= limits.evals_per_minute) {
      const double wait = 60 - std::chrono::duration<double>(now - session->evaluations.front()).count();
      {
        std::lock_guard<std::mutex> lock(mutex_);
        ++stats_.rate_refusals;
      }
      return rpc_error(
          200, id, kServerError,
          fmt::format("Rate limit: this session ran {} evaluations in the last minute "
                      "(--evals-per-minute {}); retry in {:.0f} s",
                      session->evaluations.size(), limits.evals_per_minute, std::max(1.0, wait)));
    }
  }
  if (evaluation && !queue_.enter()) {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      ++stats_.busy_refusals;
    }
    return rpc_error(200, id, kServerError,
                     fmt::format("Server busy: {} evaluations running and {} waiting, the queue's length "
                                 "(--queue {}); retry in a few seconds",
                                 queue_.running(), queue_.waiting(), limits.queue));
  }
  struct QueuePlace {
    JobQueue* queue;
    ~QueuePlace() {
      if (queue != nullptr) queue->leave();
    }
  } place{evaluation ? &queue_ : nullptr};
  if (evaluation) session->evaluations.push_back(Clock::now());

  const auto timeout = std::chrono::milliseconds(static_cast<int64_t>(limits.eval_timeout * 1000));
  try {
    if (!session->channel) {
      session->channel = factory_(session->name, session->workspace);
      session->channel->exchange(session->init_line, timeout);  // the new process negotiates the same way
      log(fmt::format("session {}: restarted its process ({})", session->name, session->channel->pid()));
    }
    return json_reply(200, json::parse(session->channel->exchange(line, timeout)));
  } catch (const ChannelFailure& e) {
    session->channel.reset();
    {
      std::lock_guard<std::mutex> lock(mutex_);
      ++stats_.channel_failures;
    }
    const std::string what = tool.empty() ? method : method + " " + tool;
    log(fmt::format("session {}: {} failed: {}", session->name, what, e.what()));
    const std::string why =
        e.timed_out ? fmt::format("it did not answer within {:g} s (--eval-timeout) and was stopped",
                                  limits.eval_timeout)
                    : std::string(e.what());
    return rpc_error(
        200, id, kServerError,
        fmt::format("The session's simulator process failed during {}: {}. The next request starts a "
                    "fresh one: select_task again (the kernels saved with write_code's `name` are kept)",
                    what, why));
  } catch (const json::exception& e) {
    session->channel.reset();
    return rpc_error(200, id, kInternalError,
                     std::string("Internal error: the session answered no JSON: ") + e.what());
  }
}

}  // namespace kcraft::agent::serve
