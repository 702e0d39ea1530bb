// One `kcraft serve` session's process: a `kcraft mcp` child that serves the session's JSON-RPC over its
// stdin/stdout, so that a simulator that crashes or hangs takes down its own session and nothing else.
// The child dies with the server (PR_SET_PDEATHSIG) and is killed when the channel goes.
#pragma once

#include <sys/types.h>

#include <string>
#include <vector>

#include "agent/serve/serve_core.h"

namespace kcraft::agent::serve {

class SessionProcess : public SessionChannel {
 public:
  // Starts argv (argv[0] a path). Throws std::runtime_error when it cannot.
  explicit SessionProcess(const std::vector<std::string>& argv);
  ~SessionProcess() override;
  SessionProcess(const SessionProcess&) = delete;
  SessionProcess& operator=(const SessionProcess&) = delete;

  std::string exchange(const std::string& request_line, std::chrono::milliseconds timeout) override;
  int pid() const override { return static_cast<int>(pid_); }

 private:
  [[noreturn]] void fail(const std::string& why, bool timed_out);

  pid_t pid_ = -1;
  int to_child_ = -1, from_child_ = -1;
  std::string buffer_;  // bytes read past the last reply
};

// How a child ended, e.g. "killed by signal 11 (Segmentation fault)".
std::string describe_exit(int status);

}  // namespace kcraft::agent::serve
