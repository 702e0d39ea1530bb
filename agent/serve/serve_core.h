// `kcraft serve`'s front end without the sockets: MCP's Streamable HTTP transport (revision 2025-11-25) as
// a function from one HTTP request to one HTTP reply, over a table of sessions, each served by its own
// channel (in production a `kcraft mcp` child process: session_process.h).
//
// What it does, in the order it checks:
//   1. the bearer token (constant-time compare): missing or wrong is 401 with nothing else;
//   2. the Origin header, when there is one, must be a loopback origin or one the operator allowed (the
//      specification's defence against DNS rebinding): 403;
//   3. the path (/mcp): 404; GET: 405 (the server opens no SSE stream), DELETE ends the session named by
//      Mcp-Session-Id; POST carries one JSON-RPC message (Content-Type application/json, at most
//      --max-body bytes: 413);
//   4. initialize without a session creates one (at most --max-sessions: 503) and answers with its
//      Mcp-Session-Id; every other request needs that header (400 without, 404 for an unknown, ended or
//      expired id) and, when it sends MCP-Protocol-Version, the negotiated revision (400);
//   5. notifications and client responses are accepted (202) and not forwarded;
//   6. requests go to the session's channel, one at a time per session; evaluating tools (run_eval,
//      profile, submit) first take a place in the bounded job queue (--jobs running, --queue waiting: a
//      full queue is the retryable JSON-RPC error -32000 naming --queue) and count against the session's
//      --evals-per-minute; write_code's kernel is at most --max-kernel bytes.
// A channel that crashes or does not answer within --eval-timeout is killed; the request gets a JSON-RPC
// error saying so, and the session's next request starts a fresh process (the workspace stays).
#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <filesystem>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <ostream>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace kcraft::agent::serve {

using Clock = std::chrono::steady_clock;

struct ServeLimits {
  size_t max_body = 1u << 20;      // bytes of one request body
  size_t max_kernel = 256u << 10;  // bytes of one kernel (write_code's code)
  uint64_t max_cycles = 0;         // ceiling on every evaluation's cycle cap (0: the tasks' own caps)
  double eval_timeout = 300;       // seconds a session's process may take to answer one request
  unsigned evals_per_minute = 60;  // evaluating calls per session per minute (0: unlimited)
  unsigned max_sessions = 64;      // sessions at once
  double idle_timeout = 1800;      // seconds without a request before a session ends
  double read_timeout = 10;        // seconds the server waits for a slow client's bytes
  unsigned jobs = 2;               // evaluations running at once
  unsigned queue = 32;             // evaluations waiting for a place; beyond: -32000
};

// Whatever serves one session's JSON-RPC: a `kcraft mcp` child process, or (tests, fuzzing) an in-process
// McpServer.
class SessionChannel {
 public:
  virtual ~SessionChannel() = default;
  // Sends one request line (a JSON-RPC request with an id) and returns the reply line. Throws
  // ChannelFailure when the channel died or did not answer within `timeout`; it is unusable then.
  virtual std::string exchange(const std::string& request_line, std::chrono::milliseconds timeout) = 0;
  // The process serving the session (0 when it is not a process); logs and tests name it.
  virtual int pid() const { return 0; }
};

struct ChannelFailure : std::runtime_error {
  ChannelFailure(const std::string& what, bool out_of_time)
      : std::runtime_error(what), timed_out(out_of_time) {}
  bool timed_out;
};

// Makes the channel of a session, given its public name ("s7", not the secret id) and workspace directory.
using ChannelFactory = std::function<std::unique_ptr<SessionChannel>(const std::string& session_name,
                                                                     const std::filesystem::path& workspace)>;

// A FIFO of evaluation places: `jobs` run, `queue` wait; enter() refuses beyond that instead of waiting.
class JobQueue {
 public:
  JobQueue(unsigned jobs, unsigned queue) : jobs_(jobs == 0 ? 1 : jobs), queue_(queue) {}
  // True once the caller may run (possibly after waiting its turn); false at once when the queue is full.
  bool enter();
  void leave();
  unsigned running() const;
  unsigned waiting() const;

 private:
  mutable std::mutex mutex_;
  std::condition_variable turn_;
  unsigned jobs_, queue_;
  unsigned running_ = 0, waiting_ = 0;
  uint64_t next_ticket_ = 0, serving_ = 0;
};

struct HttpRequest {
  std::string method;                          // GET, POST, DELETE, ...
  std::string path;                            // without the query string
  std::map<std::string, std::string> headers;  // names in lower case
  std::string body;
  std::string header(const std::string& lower_name) const;
};

struct HttpReply {
  int status = 200;
  std::vector<std::pair<std::string, std::string>> headers;
  std::string content_type;  // "" with an empty body
  std::string body;
};

struct ServeOptions {
  std::string token;  // the bearer token every request must carry
  ServeLimits limits;
  std::filesystem::path workspace_root;      // each session's workspace is a directory in it
  std::vector<std::string> allowed_origins;  // beyond loopback ones
  std::ostream* log = nullptr;               // one line per session event; nullptr: none
};

struct ServeStats {
  uint64_t requests = 0, sessions_created = 0, sessions_ended = 0, busy_refusals = 0, rate_refusals = 0,
           channel_failures = 0;
  unsigned sessions = 0;
  unsigned evaluations_running = 0, evaluations_waiting = 0;
};

class ServeCore {
 public:
  ServeCore(ServeOptions options, ChannelFactory factory);
  ~ServeCore();

  // The checks that come before the body is read (token, origin, path, method, size): a reply to send
  // at once, or nothing when the body should be read and handle() called. `content_length` is what the
  // client announced (nullopt: it announced none).
  std::optional<HttpReply> precheck(const HttpRequest& headers_only,
                                    std::optional<size_t> content_length) const;
  // The whole request (precheck included). Thread-safe; requests of one session are served in turn.
  HttpReply handle(const HttpRequest& request);

  // Ends the sessions idle for longer than --idle-timeout (the server calls it every second).
  void expire_idle_sessions();
  ServeStats stats() const;
  // The session's channel's process id (0: no such session or no process yet). For tests and logs.
  int session_pid(const std::string& session_id) const;

 private:
  struct Session;
  HttpReply post(const HttpRequest& request);
  HttpReply initialize(const std::string& line, const std::string& id_json);
  HttpReply forward(const std::shared_ptr<Session>& session, const std::string& line,
                    const std::string& method, const std::string& tool, const std::string& id_json,
                    size_t kernel_bytes);
  HttpReply end_session(const HttpRequest& request);
  std::shared_ptr<Session> find_session(const std::string& id) const;
  void remove_session(const std::string& id, const char* why);
  void log(const std::string& line) const;

  ServeOptions options_;
  ChannelFactory factory_;
  JobQueue queue_;
  mutable std::mutex mutex_;  // sessions_, stats_
  std::map<std::string, std::shared_ptr<Session>> sessions_;
  ServeStats stats_;
  // Sessions' public names: s1-<instance>, s2-<instance>, ...; the instance (random at start) keeps them
  // apart from an earlier server's in one results file.
  std::atomic<uint64_t> session_number_{0};
  std::string instance_;
};

// A fresh session id: 32 hex digits from the system's random source.
std::string new_session_id();

// True when `origin` (an Origin header) names this machine: http(s)://localhost, 127.0.0.1 or [::1],
// any port.
bool is_loopback_origin(const std::string& origin);

// Reads a token file: its first line without surrounding blanks. Throws std::runtime_error when the file
// cannot be read, or its token is shorter than 16 characters (a guessable token guards nothing).
std::string read_token_file(const std::filesystem::path& file);

}  // namespace kcraft::agent::serve
