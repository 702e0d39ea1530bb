// `kcraft serve` as a process, over real sockets (cpp-httplib's client): the token on the wire, slow and
// oversized requests, each session's own `kcraft mcp` process (a crashed or stopped one leaves the others
// alone), workspaces that take no path from a client, the cycle ceiling, and the results file.
#include <arpa/inet.h>
#include <fcntl.h>
#include <gtest/gtest.h>
#include <httplib.h>
#include <netinet/in.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>
#include <algorithm>
#include <cstdlib>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include <nlohmann/json.hpp>

namespace {

namespace fs = std::filesystem;
using nlohmann::json;

const std::string kToken = "serve-test-token-0123456789";

std::string read_file(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

// Sends `request` on a fresh connection and returns what comes back within 5 s (until the server closes or
// stops sending).
std::string raw_exchange(int port, const std::string& request) {
  const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_port = htons(static_cast<uint16_t>(port));
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  if (::connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0) {
    ::close(fd);
    return "";
  }
  ::send(fd, request.data(), request.size(), MSG_NOSIGNAL);
  timeval wait{5, 0};
  ::setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &wait, sizeof wait);
  std::string out;
  char buffer[4096];
  for (ssize_t n; (n = ::recv(fd, buffer, sizeof buffer, 0)) > 0;) {
    out.append(buffer, static_cast<size_t>(n));
    if (out.find("\r\n\r\n") != std::string::npos) break;  // the status line and headers are enough
  }
  ::close(fd);
  return out;
}

// The template compiler's relu C1 kernel for `platform` (whichever the server defaults to).
std::string baseline_kernel(const std::string& platform) {
  const std::string out =
      fs::temp_directory_path() / ("kcraft_serve_relu_" + std::to_string(::getpid()) + ".s");
  const std::string cmd = std::string(KCRAFT_BIN) + " baseline " + platform + " relu --config C1 > " + out;
  EXPECT_EQ(std::system(cmd.c_str()), 0) << cmd;
  const std::string text = read_file(out);
  fs::remove(out);
  return text;
}

// One `kcraft serve` on a free loopback port, stopped (SIGTERM) at the end.
class Server {
 public:
  explicit Server(const std::vector<std::string>& extra) {
    dir_ = fs::temp_directory_path() /
           ("kcraft_serve_test_" + std::to_string(::getpid()) + "_" + std::to_string(count()++));
    fs::remove_all(dir_);
    fs::create_directories(dir_);
    std::ofstream(dir_ / "token") << kToken << "\n";
    std::vector<std::string> argv = {KCRAFT_BIN,         "serve",
                                     "--port",           "0",
                                     "--port-file",      (dir_ / "port").string(),
                                     "--token-file",     (dir_ / "token").string(),
                                     "--workspace-root", (dir_ / "ws").string(),
                                     "--results",        (dir_ / "results.jsonl").string()};
    argv.insert(argv.end(), extra.begin(), extra.end());
    pid_ = ::fork();
    if (pid_ == 0) {
      ::prctl(PR_SET_PDEATHSIG, SIGTERM);  // a test that dies leaves no server behind
      std::vector<char*> args;
      for (auto& a : argv) args.push_back(a.data());
      args.push_back(nullptr);
      const int log = ::open((dir_ / "log").c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
      ::dup2(log, STDERR_FILENO);
      ::execv(args[0], args.data());
      ::_exit(127);
    }
    for (int i = 0; i < 500 && !fs::exists(dir_ / "port"); ++i)
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    port_ = std::stoi(read_file(dir_ / "port"));
  }
  ~Server() {
    ::kill(pid_, SIGTERM);
    int status = 0;
    ::waitpid(pid_, &status, 0);
    fs::remove_all(dir_);
  }
  int port() const { return port_; }
  pid_t pid() const { return pid_; }
  const fs::path& dir() const { return dir_; }
  std::string log() const { return read_file(dir_ / "log"); }

 private:
  static int& count() {
    static int n = 0;
    return n;
  }
  fs::path dir_;
  pid_t pid_ = -1;
  int port_ = 0;
};

// An MCP client session over Streamable HTTP, by hand.
class Session {
 public:
  explicit Session(const Server& server) : client_("127.0.0.1", server.port()) {
    client_.set_read_timeout(60, 0);
    const auto r = post({{"jsonrpc", "2.0"},
                         {"id", 0},
                         {"method", "initialize"},
                         {"params",
                          {{"protocolVersion", "2025-11-25"},
                           {"capabilities", json::object()},
                           {"clientInfo", {{"name", "serve_process_test"}, {"version", "1"}}}}}});
    EXPECT_EQ(r.status, 200) << r.body;
    id_ = r.session;
    EXPECT_EQ(post({{"jsonrpc", "2.0"}, {"method", "notifications/initialized"}}).status, 202);
  }
  struct Reply {
    int status = 0;
    std::string body, session;
    json rpc() const { return json::parse(body); }
  };
  Reply post(const json& message) {
    httplib::Headers headers = {{"Authorization", "Bearer " + kToken},
                                {"Accept", "application/json, text/event-stream"}};
    if (!id_.empty()) {
      headers.emplace("Mcp-Session-Id", id_);
      headers.emplace("MCP-Protocol-Version", "2025-11-25");
    }
    auto r = client_.Post("/mcp", headers, message.dump(), "application/json");
    if (!r) return Reply{0, "no answer: " + httplib::to_string(r.error()), ""};
    return Reply{r->status, r->body, r->get_header_value("Mcp-Session-Id")};
  }
  // A tool's result (text and isError), or the JSON-RPC error.
  // Selects relu C1 and returns the baseline kernel of the server's default platform.
  std::string select_relu() {
    const json r = call("select_task", {{"task", "relu"}});
    EXPECT_FALSE(is_error(r)) << r;
    return baseline_kernel(r["result"]["structuredContent"]["platform"]);
  }
  json call(const std::string& tool, json args = json::object()) {
    const Reply r = post({{"jsonrpc", "2.0"},
                          {"id", ++next_id_},
                          {"method", "tools/call"},
                          {"params", {{"name", tool}, {"arguments", args}}}});
    EXPECT_EQ(r.status, 200) << r.body;
    const json j = json::parse(r.body);
    EXPECT_EQ(j["id"], next_id_);
    return j;
  }
  static std::string text(const json& reply) {
    return reply.contains("result") ? reply["result"]["content"][0]["text"].get<std::string>() : reply.dump();
  }
  static bool is_error(const json& reply) {
    return !reply.contains("result") || reply["result"]["isError"].get<bool>();
  }
  const std::string& id() const { return id_; }

 private:
  httplib::Client client_;
  std::string id_;
  int next_id_ = 0;
};

// A `kcraft mcp` process's arguments.
std::vector<std::string> arguments_of(const fs::path& proc) {
  const std::string cmdline = read_file(proc / "cmdline");
  std::vector<std::string> args;
  for (size_t pos = 0; pos < cmdline.size();) {
    const size_t end = std::min(cmdline.find('\0', pos), cmdline.size());
    args.push_back(cmdline.substr(pos, end - pos));
    pos = end + 1;
  }
  return args;
}

// The process serving a session, found by a kernel the session saved: the `kcraft mcp` whose --workspace
// holds it (clients know no other name of their session's process: the session id is a secret that no
// command line shows).
pid_t session_process(const std::string& saved_kernel) {
  for (const auto& entry : fs::directory_iterator("/proc")) {
    const std::string name = entry.path().filename();
    if (name.find_first_not_of("0123456789") != std::string::npos) continue;
    const auto args = arguments_of(entry.path());
    if (std::find(args.begin(), args.end(), "mcp") == args.end()) continue;
    auto ws = std::find(args.begin(), args.end(), "--workspace");
    if (ws != args.end() && ws + 1 != args.end() && fs::exists(fs::path(*(ws + 1)) / saved_kernel))
      return static_cast<pid_t>(std::stoi(name));
  }
  return 0;
}

// Whether any process's command line shows `text`.
bool on_a_command_line(const std::string& text) {
  for (const auto& entry : fs::directory_iterator("/proc")) {
    const std::string name = entry.path().filename();
    if (name.find_first_not_of("0123456789") != std::string::npos) continue;
    for (const auto& arg : arguments_of(entry.path()))
      if (arg.find(text) != std::string::npos) return true;
  }
  return false;
}

std::string verdict(const json& reply) {
  return reply.contains("result") && reply["result"].contains("structuredContent")
             ? reply["result"]["structuredContent"].value("verdict", "")
             : "";
}

TEST(ServeProcess, TheTokenIsCheckedOnTheWire) {
  Server server({"--quiet"});
  httplib::Client client("127.0.0.1", server.port());
  for (const std::string path : {"/mcp", "/", "/anything"}) {
    auto post = client.Post(path.c_str(), "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\"}",
                            "application/json");
    ASSERT_TRUE(post);
    EXPECT_EQ(post->status, 401) << path;
    EXPECT_TRUE(post->body.empty());
    auto get = client.Get(path.c_str(), {{"Authorization", "Bearer nope-nope-nope-nope"}});
    ASSERT_TRUE(get);
    EXPECT_EQ(get->status, 401);
  }
  // A huge body without the token: 401 too, before the body is read (the server may close the connection
  // while the client still writes; then the client sees no status at all, never another one).
  ::signal(SIGPIPE, SIG_IGN);
  auto big = client.Post("/mcp", std::string(8u << 20, 'x'), "application/json");
  if (big) {
    EXPECT_EQ(big->status, 401);
  }
  auto get = client.Get("/mcp", {{"Authorization", "Bearer " + kToken}});
  ASSERT_TRUE(get);
  EXPECT_EQ(get->status, 405);
}

TEST(ServeProcess, SlowAndOversizedRequestsAreCutOff) {
  Server server({"--quiet", "--read-timeout", "1", "--max-body", "4096"});
  // A client that sends half a request and stalls: the connection is closed after --read-timeout.
  const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_port = htons(static_cast<uint16_t>(server.port()));
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  ASSERT_EQ(::connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr), 0);
  const std::string partial =
      "POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer " + kToken + "\r\n";
  ASSERT_EQ(::send(fd, partial.data(), partial.size(), 0), static_cast<ssize_t>(partial.size()));
  timeval wait{5, 0};
  ::setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &wait, sizeof wait);
  const auto start = std::chrono::steady_clock::now();
  char buffer[256];
  const ssize_t n = ::recv(fd, buffer, sizeof buffer, 0);
  const double waited = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  ::close(fd);
  // Closed, or answered with an error (cpp-httplib says 400), never passed on.
  if (n > 0) {
    EXPECT_EQ(std::string(buffer, 10), "HTTP/1.1 4") << std::string(buffer, static_cast<size_t>(n));
  }
  EXPECT_LT(waited, 4.0) << "the slow client held its connection past --read-timeout";
  // A whole initialize whose Content-Length promises 50 bytes more: after --read-timeout it is refused
  // (400), never executed; no session starts.
  const std::string init =
      R"({"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25",)"
      R"("capabilities":{},"clientInfo":{"name":"t","version":"1"}}})";
  const std::string shortened = "POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer " + kToken +
                                "\r\nContent-Type: application/json\r\nAccept: application/json\r\n"
                                "Content-Length: " +
                                std::to_string(init.size() + 50) + "\r\n\r\n" + init;
  const std::string answer = raw_exchange(server.port(), shortened);
  EXPECT_EQ(answer.substr(0, 12), "HTTP/1.1 400") << answer;
  EXPECT_EQ(answer.find("Mcp-Session-Id"), std::string::npos) << answer;
  // "Expect: 100-continue" without the token: 401 at once, the body never invited.
  const std::string expect =
      "POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
      "Content-Length: 100000\r\nExpect: 100-continue\r\n\r\n";
  const std::string refused = raw_exchange(server.port(), expect);
  EXPECT_EQ(refused.substr(0, 12), "HTTP/1.1 401") << refused;
  // A second server on the same port does not start (no SO_REUSEPORT sharing the connections).
  const std::string second = std::string(KCRAFT_BIN) + " serve --quiet --port " +
                             std::to_string(server.port()) + " --token-file " +
                             (server.dir() / "token").string() + " --workspace-root " +
                             (server.dir() / "ws2").string() + " > /dev/null 2>&1";
  EXPECT_EQ(WEXITSTATUS(std::system(second.c_str())), 2) << "a second server bound the port";
  // A body over --max-body: 413 naming the flag; the server goes on serving.
  Session s(server);
  const auto big =
      s.post({{"jsonrpc", "2.0"},
              {"id", 1},
              {"method", "tools/call"},
              {"params", {{"name", "write_code"}, {"arguments", {{"code", std::string(5000, ';')}}}}}});
  EXPECT_EQ(big.status, 413);
  EXPECT_NE(big.body.find("--max-body"), std::string::npos);
  EXPECT_FALSE(Session::is_error(s.call("list_tasks")));
}

TEST(ServeProcess, ACrashedOrHungSessionLeavesTheOthersAlone) {
  // Under AddressSanitizer (scripts/test.sh --sanitize) a SIGSEGV is ASan's report and exit(1); the test
  // wants the signal itself to end the session's process, as it does in a normal build.
  const char* asan = std::getenv("ASAN_OPTIONS");
  const std::string saved = asan != nullptr ? asan : "";
  ::setenv("ASAN_OPTIONS", (saved.empty() ? std::string() : saved + ":").append("handle_segv=0").c_str(), 1);
  Server server({"--quiet", "--eval-timeout", "3", "--jobs", "2"});
  Session a(server), b(server);
  std::string kernel;
  for (Session* s : {&a, &b}) {
    kernel = s->select_relu();
    const std::string name = s == &a ? "relu_a.s" : "relu_b.s";
    ASSERT_FALSE(Session::is_error(s->call("write_code", {{"code", kernel}, {"name", name}})));
  }
  EXPECT_FALSE(on_a_command_line(a.id())) << "a session id is a secret: no command line shows it";
  const pid_t pa = session_process("relu_a.s"), pb = session_process("relu_b.s");
  ASSERT_GT(pa, 0);
  ASSERT_GT(pb, 0);
  EXPECT_NE(pa, pb) << "one process per session";
  EXPECT_EQ(verdict(b.call("run_eval")), "pass");

  // A's simulator crashes: A is told, B goes on as if nothing happened.
  ASSERT_EQ(::kill(pa, SIGSEGV), 0);
  const json crashed = a.call("run_eval");
  EXPECT_EQ(crashed["error"]["code"], -32000) << crashed;
  EXPECT_NE(crashed.dump().find("signal 11"), std::string::npos) << crashed;
  EXPECT_EQ(verdict(b.call("run_eval")), "pass");
  // A's next request gets a fresh process; its saved kernel is still in its workspace.
  ASSERT_FALSE(Session::is_error(a.call("select_task", {{"task", "relu"}})));
  ASSERT_FALSE(Session::is_error(a.call("load_kernel", {{"name", "relu_a.s"}})));
  EXPECT_EQ(verdict(a.call("run_eval")), "pass");

  // A's process hangs (SIGSTOP): its request ends after --eval-timeout, B's are answered meanwhile.
  const pid_t pa2 = session_process("relu_a.s");
  ASSERT_GT(pa2, 0);
  ASSERT_NE(pa2, pa);
  ASSERT_EQ(::kill(pa2, SIGSTOP), 0);
  const auto start = std::chrono::steady_clock::now();
  std::thread hung([&] {
    const json reply = a.call("run_eval");
    EXPECT_EQ(reply["error"]["code"], -32000) << reply;
    EXPECT_NE(reply.dump().find("--eval-timeout"), std::string::npos) << reply;
  });
  std::this_thread::sleep_for(std::chrono::milliseconds(300));
  EXPECT_EQ(verdict(b.call("run_eval")), "pass");
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(3)) << "B waited for A";
  hung.join();
  EXPECT_FALSE(Session::is_error(a.call("list_tasks"))) << "A recovered";
  EXPECT_EQ(::kill(pa2, 0), -1) << "the hung process was killed";
  if (asan != nullptr) {
    ::setenv("ASAN_OPTIONS", saved.c_str(), 1);
  } else {
    ::unsetenv("ASAN_OPTIONS");
  }
}

TEST(ServeProcess, WorkspacesTakeNoPathFromClients) {
  Server server({"--quiet"});
  Session a(server), b(server);
  ASSERT_FALSE(Session::is_error(a.call("select_task", {{"task", "relu"}})));
  ASSERT_FALSE(Session::is_error(b.call("select_task", {{"task", "relu"}})));
  const fs::path outside = server.dir() / "outside.txt";
  std::ofstream(outside) << "untouched\n";
  for (const std::string& name :
       {std::string("../escape.s"), std::string("/tmp/abs.s"), std::string("a/b.s"), std::string(".."),
        std::string(".hidden"), std::string("nul\0byte.s", 10), std::string(100, 'k'), std::string("")}) {
    const json reply = a.call("write_code", {{"code", "; x\n"}, {"name", name}});
    EXPECT_TRUE(Session::is_error(reply)) << "name '" << name << "': " << reply;
    const json load = a.call("load_kernel", {{"name", name}});
    EXPECT_TRUE(Session::is_error(load)) << name;
  }
  EXPECT_FALSE(fs::exists(server.dir() / "ws" / "escape.s"));
  EXPECT_FALSE(fs::exists("/tmp/abs.s"));
  // A symbolic link planted in the workspace is neither followed for reading nor for writing.
  ASSERT_FALSE(Session::is_error(a.call("write_code", {{"code", "; mine\n"}, {"name", "mine.s"}})));
  fs::path workspace;
  for (const auto& dir : fs::directory_iterator(server.dir() / "ws"))
    if (fs::exists(dir.path() / "mine.s")) workspace = dir.path();
  ASSERT_TRUE(fs::is_directory(workspace));
  EXPECT_EQ(workspace.filename().string().find(a.id()), std::string::npos) << "named by the secret id";
  fs::create_symlink(outside, workspace / "link.s");
  EXPECT_NE(Session::text(a.call("load_kernel", {{"name", "link.s"}})).find("symbolic link"),
            std::string::npos);
  EXPECT_TRUE(Session::is_error(a.call("write_code", {{"code", "; overwritten\n"}, {"name", "link.s"}})));
  EXPECT_EQ(read_file(outside), "untouched\n");
  // Sessions do not see each other's kernels.
  EXPECT_EQ(a.call("list_kernels")["result"]["structuredContent"]["kernels"].size(), 1u);
  EXPECT_TRUE(b.call("list_kernels")["result"]["structuredContent"]["kernels"].empty());
  EXPECT_TRUE(Session::is_error(b.call("load_kernel", {{"name", "mine.s"}})));
  // Nor does any other tool take a server path from a client.
  const json db = a.call("codesign_profile", {{"platform", "systolic"}, {"db", "/etc/passwd"}});
  EXPECT_TRUE(Session::is_error(db));
  EXPECT_NE(Session::text(db).find("cannot name a file"), std::string::npos) << db;
}

TEST(ServeProcess, TheCycleCeilingAndTheResultsFile) {
  std::string kernel;
  {
    Server ceiling({"--quiet", "--max-cycles", "20"});
    Session s(ceiling);
    kernel = s.select_relu();
    ASSERT_FALSE(Session::is_error(s.call("write_code", {{"code", kernel}})));
    EXPECT_EQ(verdict(s.call("run_eval")), "timeout") << "the baseline needs more than 20 cycles";
  }
  Server server({"--quiet"});
  Session s(server);
  s.select_relu();
  ASSERT_FALSE(Session::is_error(s.call("write_code", {{"code", kernel}})));
  EXPECT_EQ(verdict(s.call("run_eval")), "pass");
  const json submitted = s.call("submit");
  ASSERT_FALSE(Session::is_error(submitted)) << submitted;
  // The submission is on disk when the client hears of it.
  const json line = json::parse(read_file(server.dir() / "results.jsonl"));
  // Named by the session's public name, which the submission's reply gives, never by the secret id.
  EXPECT_EQ(line["session"], submitted["result"]["structuredContent"]["session"]) << submitted;
  EXPECT_NE(line["session"].get<std::string>().find("s1-"), std::string::npos) << line;
  EXPECT_EQ(line["session"].get<std::string>().find(s.id()), std::string::npos);
  EXPECT_EQ(line["task"], "relu");
  EXPECT_EQ(line["score"]["verdict"], "pass");
  EXPECT_EQ(line["source"], kernel);
}

// What `kcraft serve` refuses to start with: exit 2 and a message naming the flag.
TEST(ServeProcess, UsageErrorsNameTheFlag) {
  const fs::path dir = fs::temp_directory_path() / ("kcraft_serve_usage_" + std::to_string(::getpid()));
  fs::create_directories(dir);
  std::ofstream(dir / "short") << "tooshort\n";
  std::ofstream(dir / "good") << kToken << "\n";
  const auto run = [&](const std::string& args) {
    const std::string cmd = std::string(KCRAFT_BIN) + " serve " + args + " 2>" + (dir / "err").string();
    const int status = std::system(cmd.c_str());
    return std::make_pair(WEXITSTATUS(status), read_file(dir / "err"));
  };
  for (const auto& [args, flag] : std::vector<std::pair<std::string, std::string>>{
           {"", "--token-file"},
           {"--token-file " + (dir / "short").string(), "at least 16"},
           {"--token-file " + (dir / "missing").string(), "--token-file"},
           {"--token-file " + (dir / "good").string() + " --jobs 0", "--jobs"},
           {"--token-file " + (dir / "good").string() + " --max-sessions 0", "--max-sessions"},
           {"--token-file " + (dir / "good").string() + " --eval-timeout 0", "--eval-timeout"}}) {
    const auto [code, err] = run(args);
    EXPECT_EQ(code, 2) << args;
    EXPECT_NE(err.find(flag), std::string::npos) << args << ": " << err;
  }
  fs::remove_all(dir);
}

TEST(ServeProcess, StdioIsKcraftMcp) {
  const std::string cmd = "printf '%s\\n' '{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/list\"}' | " +
                          std::string(KCRAFT_BIN) + " serve --stdio --quiet";
  FILE* pipe = ::popen(cmd.c_str(), "r");
  ASSERT_NE(pipe, nullptr);
  std::string out;
  char buf[4096];
  while (size_t n = std::fread(buf, 1, sizeof buf, pipe)) out.append(buf, n);
  EXPECT_EQ(::pclose(pipe), 0);
  const json reply = json::parse(out);
  EXPECT_EQ(reply["id"], 1);
  EXPECT_EQ(reply["result"]["tools"].size(), 16u);
}

}  // namespace
