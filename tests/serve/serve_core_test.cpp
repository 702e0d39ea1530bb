// kcraft serve's transport without sockets (agent/serve/serve_core.h), with scripted session channels: the
// token, the Streamable HTTP rules (session ids, protocol-version header, methods), the limits and the job
// queue. Everything here runs in milliseconds; serve_process_test.cpp runs the real server.
#include <gtest/gtest.h>
#include <unistd.h>

#include <atomic>
#include <condition_variable>
#include <filesystem>
#include <future>
#include <mutex>
#include <thread>

#include <nlohmann/json.hpp>

#include "agent/serve/serve_core.h"

namespace {

using kcraft::agent::serve::ChannelFactory;
using kcraft::agent::serve::ChannelFailure;
using kcraft::agent::serve::HttpReply;
using kcraft::agent::serve::HttpRequest;
using kcraft::agent::serve::JobQueue;
using kcraft::agent::serve::ServeCore;
using kcraft::agent::serve::ServeOptions;
using kcraft::agent::serve::SessionChannel;
using nlohmann::json;

const std::string kToken = "0123456789abcdef0123";

// What the scripted channels share: a gate run_eval waits at, and how many channels were made.
struct Script {
  std::mutex mutex;
  std::condition_variable changed;
  bool gate_open = true;
  int evaluations_waiting = 0;
  std::atomic<int> channels{0};
  std::atomic<int> exchanges{0};
};

// Answers like `kcraft mcp`: initialize with the client's version, tools/call with a text result; run_eval
// waits at the script's gate; the tool "crash" fails the channel as a crashed process would.
class ScriptedChannel : public SessionChannel {
 public:
  explicit ScriptedChannel(Script& script) : script_(script) { ++script_.channels; }
  std::string exchange(const std::string& line, std::chrono::milliseconds) override {
    ++script_.exchanges;
    if (dead_) throw ChannelFailure("dead", false);
    const json request = json::parse(line);
    json result = json::object();
    if (request["method"] == "initialize") {
      result = {{"protocolVersion", request["params"]["protocolVersion"]}, {"capabilities", json::object()}};
    } else if (request["method"] == "tools/call") {
      const std::string tool = request["params"]["name"];
      if (tool == "crash") {
        dead_ = true;
        throw ChannelFailure(
            "it ended before answering: the process killed by signal 11 (Segmentation fault)", false);
      }
      if (tool == "run_eval") {
        std::unique_lock<std::mutex> lock(script_.mutex);
        ++script_.evaluations_waiting;
        script_.changed.notify_all();
        script_.changed.wait(lock, [&] { return script_.gate_open; });
        --script_.evaluations_waiting;
      }
      result = {{"content", json::array({{{"type", "text"}, {"text", tool + " done"}}})}, {"isError", false}};
    }
    return json{{"jsonrpc", "2.0"}, {"id", request["id"]}, {"result", result}}.dump();
  }

 private:
  Script& script_;
  bool dead_ = false;
};

struct Fixture {
  Script script;
  std::filesystem::path root;
  std::unique_ptr<ServeCore> core;

  explicit Fixture(kcraft::agent::serve::ServeLimits limits = {}) {
    root = std::filesystem::temp_directory_path() /
           ("kcraft_serve_core_" + std::to_string(::getpid()) + "_" + std::to_string(counter()++));
    ServeOptions options;
    options.token = kToken;
    options.limits = limits;
    options.workspace_root = root;
    core = std::make_unique<ServeCore>(options, [this](const std::string&, const std::filesystem::path&) {
      return std::make_unique<ScriptedChannel>(script);
    });
  }
  ~Fixture() {
    core.reset();
    std::filesystem::remove_all(root);
  }
  static int& counter() {
    static int n = 0;
    return n;
  }

  static HttpRequest post(const json& body, const std::string& session = "",
                          const std::string& version = "") {
    HttpRequest r;
    r.method = "POST";
    r.path = "/mcp";
    r.headers = {{"authorization", "Bearer " + kToken},
                 {"content-type", "application/json"},
                 {"accept", "application/json, text/event-stream"}};
    if (!session.empty()) r.headers["mcp-session-id"] = session;
    if (!version.empty()) r.headers["mcp-protocol-version"] = version;
    r.body = body.dump();
    return r;
  }
  static json call(int id, const std::string& tool, json args = json::object()) {
    return {{"jsonrpc", "2.0"},
            {"id", id},
            {"method", "tools/call"},
            {"params", {{"name", tool}, {"arguments", args}}}};
  }
  // A new session's id (and checks the handshake's reply).
  std::string start_session(const std::string& version = "2025-11-25") {
    const HttpReply r =
        core->handle(post({{"jsonrpc", "2.0"},
                           {"id", 0},
                           {"method", "initialize"},
                           {"params", {{"protocolVersion", version}, {"capabilities", json::object()}}}}));
    EXPECT_EQ(r.status, 200) << r.body;
    for (const auto& [name, value] : r.headers) {
      if (name == "Mcp-Session-Id") return value;
    }
    ADD_FAILURE() << "no Mcp-Session-Id in the reply to initialize";
    return "";
  }
  HttpReply send(const json& body, const std::string& session) {
    return core->handle(post(body, session, "2025-11-25"));
  }
};

json body_of(const HttpReply& r) {
  return json::parse(r.body);
}

TEST(ServeCore, EveryRequestWithoutTheRightTokenIs401AndNothingElse) {
  Fixture f;
  const std::string session = f.start_session();
  for (const std::string& auth : std::vector<std::string>{
           std::string(), "Bearer wrong-token-of-some-length", "Bearer " + kToken + "x", "Basic " + kToken,
           "Bearer " + kToken.substr(0, kToken.size() - 1), "Bearer"}) {
    for (const std::string method : {"POST", "GET", "DELETE", "PUT"}) {
      HttpRequest r = Fixture::post(Fixture::call(1, "run_eval"), session, "2025-11-25");
      r.method = method;
      if (auth.empty()) {
        r.headers.erase("authorization");
      } else {
        r.headers["authorization"] = auth;
      }
      const HttpReply reply = f.core->handle(r);
      EXPECT_EQ(reply.status, 401) << method << " with '" << auth << "'";
      EXPECT_TRUE(reply.body.empty());
      ASSERT_EQ(reply.headers.size(), 1u);
      EXPECT_EQ(reply.headers[0].first, "WWW-Authenticate");
    }
  }
  // The 401s reached no session: only the initialize went to a channel.
  EXPECT_EQ(f.script.exchanges, 1);
  // The scheme's name is case-insensitive (RFC 7235).
  HttpRequest lower = Fixture::post(Fixture::call(2, "list_tasks"), session, "2025-11-25");
  lower.headers["authorization"] = "bearer " + kToken;
  EXPECT_EQ(f.core->handle(lower).status, 200);
}

TEST(ServeCore, SessionsFollowStreamableHttp) {
  Fixture f;
  const std::string a = f.start_session();
  const std::string b = f.start_session();
  EXPECT_EQ(a.size(), 32u);
  EXPECT_NE(a, b);
  EXPECT_EQ(f.script.channels, 2) << "one channel (process) per session";
  // A request of a session, a notification (202, not forwarded), a client response (202).
  EXPECT_EQ(body_of(f.send(Fixture::call(7, "list_tasks"), a))["id"], 7);
  const int before = f.script.exchanges;
  EXPECT_EQ(f.send({{"jsonrpc", "2.0"}, {"method", "notifications/initialized"}}, a).status, 202);
  EXPECT_EQ(f.send({{"jsonrpc", "2.0"}, {"id", 3}, {"result", json::object()}}, a).status, 202);
  EXPECT_EQ(f.script.exchanges, before);
  // Without a session id: 400; an unknown one: 404.
  EXPECT_EQ(f.core->handle(Fixture::post(Fixture::call(1, "list_tasks"))).status, 400);
  EXPECT_EQ(f.send(Fixture::call(1, "list_tasks"), std::string(32, 'f')).status, 404);
  // initialize inside a session: 400.
  EXPECT_EQ(
      f.send({{"jsonrpc", "2.0"}, {"id", 1}, {"method", "initialize"}, {"params", json::object()}}, a).status,
      400);
  // GET: 405 (no SSE stream); another path: 404.
  HttpRequest get = Fixture::post(json::object(), a);
  get.method = "GET";
  const HttpReply got = f.core->handle(get);
  EXPECT_EQ(got.status, 405);
  HttpRequest elsewhere = Fixture::post(Fixture::call(1, "list_tasks"), a);
  elsewhere.path = "/other";
  EXPECT_EQ(f.core->handle(elsewhere).status, 404);
  // DELETE ends the session; its id replayed afterwards is 404, for DELETE too; the other session lives.
  HttpRequest del = Fixture::post(json::object(), a);
  del.method = "DELETE";
  EXPECT_EQ(f.core->handle(del).status, 200);
  EXPECT_EQ(f.send(Fixture::call(8, "list_tasks"), a).status, 404);
  EXPECT_EQ(f.core->handle(del).status, 404);
  EXPECT_EQ(f.send(Fixture::call(9, "list_tasks"), b).status, 200);
  EXPECT_EQ(f.core->stats().sessions, 1u);
}

TEST(ServeCore, TheProtocolVersionHeaderMustBeTheSessions) {
  Fixture f;
  const std::string s = f.start_session("2025-06-18");
  EXPECT_EQ(f.core->handle(Fixture::post(Fixture::call(1, "list_tasks"), s, "2025-06-18")).status, 200);
  // Absent: the specification's backwards-compatible default, accepted.
  EXPECT_EQ(f.core->handle(Fixture::post(Fixture::call(2, "list_tasks"), s)).status, 200);
  for (const std::string wrong : {"2025-11-25", "1999-01-01", "garbage", "2025-06-18 "}) {
    const HttpReply r = f.core->handle(Fixture::post(Fixture::call(3, "list_tasks"), s, wrong));
    EXPECT_EQ(r.status, 400) << wrong;
    EXPECT_NE(body_of(r)["error"]["message"].get<std::string>().find("MCP-Protocol-Version"),
              std::string::npos);
  }
}

TEST(ServeCore, MalformedJsonRpcGetsJsonRpcErrors) {
  Fixture f;
  const std::string s = f.start_session();
  const auto raw = [&](const std::string& body) {
    HttpRequest r = Fixture::post(json::object(), s, "2025-11-25");
    r.body = body;
    return f.core->handle(r);
  };
  EXPECT_EQ(body_of(raw("{not json"))["error"]["code"], -32700);
  EXPECT_EQ(body_of(raw("[]"))["error"]["code"], -32600) << "batches are gone since 2025-06-18";
  EXPECT_EQ(body_of(raw("42"))["error"]["code"], -32600);
  EXPECT_EQ(body_of(raw(R"({"jsonrpc":"1.0","id":1,"method":"ping"})"))["error"]["code"], -32600);
  EXPECT_EQ(body_of(raw(R"({"jsonrpc":"2.0","id":{"a":1},"method":"ping"})"))["error"]["code"], -32600);
  EXPECT_EQ(body_of(raw(R"({"jsonrpc":"2.0","id":1})"))["error"]["code"], -32600);
  EXPECT_EQ(raw("{}").status, 400);
  // 10^5 levels in 200 KB (under --max-body) overflowed the server's stack once: now refused, unwalked.
  const std::string deep = R"({"jsonrpc":"2.0","id":1,"method":"ping","params":)" + std::string(100000, '[') +
                           std::string(100000, ']') + "}";
  const HttpReply refused = raw(deep);
  EXPECT_EQ(refused.status, 400);
  EXPECT_EQ(body_of(refused)["error"]["code"], -32600);
  EXPECT_NE(refused.body.find("deeper than 64"), std::string::npos) << refused.body;
  EXPECT_EQ(body_of(raw(R"({"jsonrpc":"2.0","id":9,"method":"ping","params":{"a":[[[1]]]}})"))["id"], 9)
      << "ordinary nesting still answered";
  HttpRequest text = Fixture::post(Fixture::call(1, "list_tasks"), s);
  text.headers["content-type"] = "text/plain";
  EXPECT_EQ(f.core->handle(text).status, 415);
  HttpRequest html = Fixture::post(Fixture::call(1, "list_tasks"), s);
  html.headers["accept"] = "text/html";
  EXPECT_EQ(f.core->handle(html).status, 406);
}

TEST(ServeCore, OriginsOtherThanLoopbackAreRefused) {
  Fixture f;
  HttpRequest r = Fixture::post(json::object());
  r.headers["origin"] = "http://evil.example";
  EXPECT_EQ(f.core->handle(r).status, 403);
  EXPECT_TRUE(kcraft::agent::serve::is_loopback_origin("http://localhost:6274"));
  EXPECT_TRUE(kcraft::agent::serve::is_loopback_origin("http://127.0.0.1"));
  EXPECT_FALSE(kcraft::agent::serve::is_loopback_origin("http://localhost.evil.example"));
  EXPECT_FALSE(kcraft::agent::serve::is_loopback_origin("http://127.0.0.1:80@evil"));
}

TEST(ServeCore, OversizedBodiesAndKernelsAreRefusedNamingTheirFlag) {
  kcraft::agent::serve::ServeLimits limits;
  limits.max_body = 1000;
  limits.max_kernel = 100;
  Fixture f(limits);
  const std::string s = f.start_session();
  HttpRequest big = Fixture::post(Fixture::call(1, "write_code", {{"code", std::string(2000, 'x')}}), s);
  const HttpReply r = f.core->handle(big);
  EXPECT_EQ(r.status, 413);
  EXPECT_NE(r.body.find("--max-body"), std::string::npos);
  // Before the body is read: what the client announced is enough.
  EXPECT_EQ(f.core->precheck(Fixture::post(json::object(), s), size_t{5000})->status, 413);
  EXPECT_FALSE(f.core->precheck(Fixture::post(json::object(), s), size_t{500}));
  const HttpReply kernel = f.send(Fixture::call(2, "write_code", {{"code", std::string(500, 'x')}}), s);
  EXPECT_EQ(kernel.status, 200);
  EXPECT_TRUE(body_of(kernel)["result"]["isError"].get<bool>());
  EXPECT_NE(kernel.body.find("--max-kernel"), std::string::npos);
  EXPECT_FALSE(body_of(
      f.send(Fixture::call(3, "write_code", {{"code", std::string(90, 'x')}}), s))["result"]["isError"]);
}

TEST(ServeCore, AFullQueueIsARetryableErrorNamingQueueNeverAHang) {
  kcraft::agent::serve::ServeLimits limits;
  limits.jobs = 1;
  limits.queue = 1;
  Fixture f(limits);
  std::vector<std::string> sessions;
  for (int i = 0; i < 3; ++i) sessions.push_back(f.start_session());
  {
    std::lock_guard<std::mutex> lock(f.script.mutex);
    f.script.gate_open = false;
  }
  // One evaluation runs (held at the gate), one waits in the queue ...
  auto running =
      std::async(std::launch::async, [&] { return f.send(Fixture::call(1, "run_eval"), sessions[0]); });
  {
    std::unique_lock<std::mutex> lock(f.script.mutex);
    ASSERT_TRUE(f.script.changed.wait_for(lock, std::chrono::seconds(5),
                                          [&] { return f.script.evaluations_waiting == 1; }));
  }
  auto queued =
      std::async(std::launch::async, [&] { return f.send(Fixture::call(2, "run_eval"), sessions[1]); });
  // ... so the third is refused at once with -32000 naming --queue, while a tool that simulates nothing
  // still goes through.
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(5);
  while (f.core->stats().evaluations_waiting < 1 && std::chrono::steady_clock::now() < deadline)
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
  ASSERT_EQ(f.core->stats().evaluations_waiting, 1u);
  const auto start = std::chrono::steady_clock::now();
  const json refused = body_of(f.send(Fixture::call(3, "submit"), sessions[2]));
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(1));
  EXPECT_EQ(refused["error"]["code"], -32000);
  EXPECT_NE(refused["error"]["message"].get<std::string>().find("--queue"), std::string::npos) << refused;
  for (const std::string tool : {"profile", "codesign_profile", "codesign_propose"}) {
    const json also = body_of(f.send(Fixture::call(5, tool, {{"platform", "systolic"}}), sessions[2]));
    EXPECT_EQ(also["error"]["code"], -32000) << tool << " simulates, so it queues: " << also;
  }
  EXPECT_EQ(body_of(f.send(Fixture::call(4, "list_tasks"), sessions[2]))["result"]["isError"], false);
  {
    std::lock_guard<std::mutex> lock(f.script.mutex);
    f.script.gate_open = true;
  }
  f.script.changed.notify_all();
  EXPECT_EQ(body_of(running.get())["result"]["content"][0]["text"], "run_eval done");
  EXPECT_EQ(body_of(queued.get())["result"]["content"][0]["text"], "run_eval done");
  EXPECT_EQ(f.core->stats().busy_refusals, 4u);
}

TEST(ServeCore, EvaluationsPerMinuteArePerSession) {
  kcraft::agent::serve::ServeLimits limits;
  limits.evals_per_minute = 2;
  Fixture f(limits);
  const std::string a = f.start_session();
  const std::string b = f.start_session();
  EXPECT_TRUE(body_of(f.send(Fixture::call(1, "run_eval"), a)).contains("result"));
  EXPECT_TRUE(body_of(f.send(Fixture::call(2, "profile"), a)).contains("result"));
  const json third = body_of(f.send(Fixture::call(3, "run_eval"), a));
  EXPECT_EQ(third["error"]["code"], -32000);
  EXPECT_NE(third["error"]["message"].get<std::string>().find("--evals-per-minute"), std::string::npos);
  EXPECT_TRUE(body_of(f.send(Fixture::call(4, "write_code", {{"code", "x"}}), a)).contains("result"));
  EXPECT_TRUE(body_of(f.send(Fixture::call(5, "run_eval"), b)).contains("result"))
      << "another session's budget";
}

TEST(ServeCore, MaxSessionsAnd503ThenIdleSessionsExpire) {
  kcraft::agent::serve::ServeLimits limits;
  limits.max_sessions = 2;
  limits.idle_timeout = 0.2;
  Fixture f(limits);
  const std::string a = f.start_session();
  f.start_session();
  const HttpReply full = f.core->handle(Fixture::post({{"jsonrpc", "2.0"},
                                                       {"id", 0},
                                                       {"method", "initialize"},
                                                       {"params", {{"protocolVersion", "2025-11-25"}}}}));
  EXPECT_EQ(full.status, 503);
  EXPECT_NE(full.body.find("--max-sessions"), std::string::npos);
  std::this_thread::sleep_for(std::chrono::milliseconds(300));
  f.core->expire_idle_sessions();
  EXPECT_EQ(f.core->stats().sessions, 0u);
  EXPECT_EQ(f.send(Fixture::call(1, "list_tasks"), a).status, 404) << "an expired session is gone";
  EXPECT_FALSE(std::filesystem::exists(f.root / a)) << "with its workspace";
  f.start_session();
}

TEST(ServeCore, AFailedChannelIsReportedAndTheNextRequestStartsAnother) {
  Fixture f;
  const std::string s = f.start_session();
  const json crashed = body_of(f.send(Fixture::call(1, "crash"), s));
  EXPECT_EQ(crashed["error"]["code"], -32000);
  EXPECT_NE(crashed["error"]["message"].get<std::string>().find("signal 11"), std::string::npos) << crashed;
  EXPECT_EQ(f.script.channels, 1);
  EXPECT_EQ(body_of(f.send(Fixture::call(2, "list_tasks"), s))["result"]["content"][0]["text"],
            "list_tasks done");
  EXPECT_EQ(f.script.channels, 2) << "a fresh channel, initialized again";
}

TEST(JobQueue, ServesInOrderAndRefusesBeyondItsLength) {
  JobQueue q(1, 2);
  ASSERT_TRUE(q.enter());
  std::vector<int> order;
  std::mutex m;
  std::thread t1([&] {
    ASSERT_TRUE(q.enter());
    std::lock_guard<std::mutex> l(m);
    order.push_back(1);
    q.leave();
  });
  while (q.waiting() < 1) std::this_thread::yield();
  std::thread t2([&] {
    ASSERT_TRUE(q.enter());
    std::lock_guard<std::mutex> l(m);
    order.push_back(2);
    q.leave();
  });
  while (q.waiting() < 2) std::this_thread::yield();
  EXPECT_FALSE(q.enter()) << "1 running + 2 waiting is full";
  q.leave();
  t1.join();
  t2.join();
  EXPECT_EQ(order, (std::vector<int>{1, 2}));
  EXPECT_EQ(q.running(), 0u);
}

}  // namespace
