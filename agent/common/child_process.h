// A child process on pipes: the sweep's workers (agent/bench/pool) and kcraft serve's sessions
// (agent/serve/session_process) both run `kcraft` children this way.
#pragma once

#include <sys/types.h>

#include <string>
#include <vector>

namespace kcraft::agent {

struct ChildPipes {
  pid_t pid = -1;
  int to_child = -1;    // its stdin
  int from_child = -1;  // its stdout, non-blocking
  int err_child = -1;   // its stderr, non-blocking; -1 when not captured (it inherits ours)
};

// Starts argv[0] with `argv`. The child dies with this process (a killed server or sweep leaves none
// behind) and has a process group of its own (a terminal's Ctrl-C reaches the parent only, which ends its
// children itself). Throws std::runtime_error naming `what` ("a worker") when it cannot start.
ChildPipes spawn_child(const std::vector<std::string>& argv, bool capture_stderr, const std::string& what);

}  // namespace kcraft::agent
