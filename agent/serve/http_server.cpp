#include "agent/serve/http_server.h"

// More than httplib's 5 pending connections: a lab's dozens of agents connect at once.
#define CPPHTTPLIB_LISTEN_BACKLOG 128
#include <httplib.h>
#include <pthread.h>

#include <fmt/format.h>

#include <atomic>
#include <cctype>
#include <csignal>
#include <thread>

namespace kcraft::agent::serve {

namespace {

HttpRequest view_of(const httplib::Request& req) {
  HttpRequest r;
  r.method = req.method;
  r.path = req.path;
  for (const auto& [name, value] : req.headers) {
    std::string key = name;
    for (auto& c : key) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    r.headers.emplace(key, value);  // the first of repeated headers
  }
  return r;
}

void send(const HttpReply& reply, httplib::Response& res) {
  res.status = reply.status;
  for (const auto& [name, value] : reply.headers) res.set_header(name, value);
  if (!reply.content_type.empty()) res.set_content(reply.body, reply.content_type.c_str());
}

std::optional<size_t> content_length(const httplib::Request& req) {
  if (!req.has_header("Content-Length")) return std::nullopt;
  const std::string v = req.get_header_value("Content-Length");
  if (v.empty() || v.size() > 18 || !std::all_of(v.begin(), v.end(), ::isdigit)) return SIZE_MAX;
  return static_cast<size_t>(std::stoull(v));
}

}  // namespace

int run_http_server(ServeCore& core, const HttpListen& listen, const ServeLimits& limits, std::ostream* log,
                    const std::function<void(int port)>& listening) {
  // SIGINT and SIGTERM go to one thread that stops the server; every other thread (httplib's workers
  // included, which inherit the mask) leaves them blocked. A write to a session process that died must
  // fail, not kill the server.
  sigset_t stop_signals;
  sigemptyset(&stop_signals);
  sigaddset(&stop_signals, SIGINT);
  sigaddset(&stop_signals, SIGTERM);
  pthread_sigmask(SIG_BLOCK, &stop_signals, nullptr);
  std::signal(SIGPIPE, SIG_IGN);

  httplib::Server server;
  const unsigned threads = listen.threads != 0
                               ? listen.threads
                               : std::max(16u, limits.max_sessions + limits.jobs + limits.queue + 8);
  server.new_task_queue = [threads] { return new httplib::ThreadPool(threads); };
  const auto seconds = static_cast<time_t>(limits.read_timeout);
  const auto micros = static_cast<time_t>((limits.read_timeout - static_cast<double>(seconds)) * 1e6);
  server.set_read_timeout(seconds, micros);
  server.set_keep_alive_timeout(5);
  server.set_payload_max_length(limits.max_body + 1);
  // SO_REUSEADDR only: httplib's default adds SO_REUSEPORT, with which a second server (a stale one during a
  // token rotation, or anyone's) could bind the same port and take half the connections and their tokens.
  server.set_socket_options([](socket_t sock) {
    int yes = 1;
    ::setsockopt(sock, SOL_SOCKET, SO_REUSEADDR, &yes, sizeof yes);
  });
  // "Expect: 100-continue": the token and the size are checked before the client is invited to send the body.
  server.set_expect_100_continue_handler([&core](const httplib::Request& req, httplib::Response& res) {
    if (auto early = core.precheck(view_of(req), content_length(req))) {
      send(*early, res);
      return res.status;
    }
    return 100;
  });

  const auto plain_handler = [&core](const httplib::Request& req, httplib::Response& res) {
    send(core.handle(view_of(req)), res);
  };
  const auto body_handler = [&core, &limits](const httplib::Request& req, httplib::Response& res,
                                             const httplib::ContentReader& read) {
    HttpRequest request = view_of(req);
    if (auto early = core.precheck(request, content_length(req))) {
      send(*early, res);
      return;
    }
    bool too_large = false;
    const bool complete = read([&](const char* data, size_t length) {
      if (request.body.size() + length > limits.max_body) {
        too_large = true;
        return false;
      }
      request.body.append(data, length);
      return true;
    });
    if (too_large) {
      send(*core.precheck(request, limits.max_body + 1), res);
      return;
    }
    const auto declared = content_length(req);
    if (!complete || (declared && request.body.size() != *declared)) {
      // A body cut short (the client stalled past --read-timeout, or closed early) is never executed.
      res.status = 400;
      res.set_header("Connection", "close");
      res.set_content(fmt::format("Bad Request: the body ended after {} bytes{} (--read-timeout {} s between "
                                  "reads)\n",
                                  request.body.size(),
                                  declared ? fmt::format(" of the {} declared", *declared) : std::string(),
                                  limits.read_timeout),
                      "text/plain");
      return;
    }
    send(core.handle(request), res);
  };
  // Every path and method: ServeCore answers them all (401 first), so nothing bypasses the token.
  const char* const any_path = ".*";
  server.Get(any_path, plain_handler);
  server.Options(any_path, plain_handler);
  server.Delete(any_path, plain_handler);
  server.Post(any_path, body_handler);
  server.Put(any_path, body_handler);
  server.Patch(any_path, body_handler);

  int port = listen.port;
  if (port == 0) {
    port = server.bind_to_any_port(listen.host);
    if (port < 0) port = -1;
  } else if (!server.bind_to_port(listen.host, port)) {
    port = -1;
  }
  if (port < 0) {
    if (log) *log << fmt::format("kcraft serve: cannot listen on {}:{}\n", listen.host, listen.port);
    return 2;
  }
  std::atomic<bool> stopping{false};
  std::thread signal_thread([&] {
    int sig = 0;
    sigwait(&stop_signals, &sig);
    stopping = true;
    server.stop();
  });
  std::thread expiry_thread([&] {
    while (!stopping) {
      std::this_thread::sleep_for(std::chrono::milliseconds(250));
      core.expire_idle_sessions();
    }
  });
  if (log)
    *log << fmt::format("kcraft serve: listening on http://{}:{}/mcp\n", listen.host, port) << std::flush;
  if (listening) listening(port);
  server.listen_after_bind();
  stopping = true;
  if (log) *log << "kcraft serve: stopping\n" << std::flush;
  // The signal thread waits for a signal that may never come when listen ended otherwise.
  pthread_kill(signal_thread.native_handle(), SIGTERM);
  signal_thread.join();
  expiry_thread.join();
  return 0;
}

}  // namespace kcraft::agent::serve
