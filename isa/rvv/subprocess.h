// Runs a tool as a child process with a wall-clock timeout, capturing stdout and stderr. No library in
// Debian fits (Boost.Process is not packaged on its own; reproc is not in Debian), so this is fork + execv
// with pipes and poll(): fork rather than posix_spawn because the child must also set RLIMIT_CORE to 0
// (QEMU re-raises a guest's fatal signal on itself, and a host core dump of it is hundreds of MB).
#pragma once

#include <chrono>
#include <cstdint>
#include <string>
#include <vector>

namespace kcraft::rvv {

struct ProcessResult {
  bool started = false;    // false: the executable could not be run (see `error`)
  bool timed_out = false;  // killed with SIGKILL at the deadline
  int exit_code = -1;      // when it exited
  int signal = 0;          // when a signal ended it (0 otherwise)
  std::string out;         // stdout
  std::string err;         // stderr
  std::string error;       // why it could not be started
  double seconds = 0.0;    // wall-clock run time
};

// argv[0] is the executable's path. `cwd` empty = the current directory. `max_file_bytes` (0: none) caps
// every file the child writes (RLIMIT_FSIZE: a write past it fails, and SIGXFSZ usually ends the child),
// e.g. a log that would grow without bound.
ProcessResult run_process(const std::vector<std::string>& argv, std::chrono::milliseconds timeout,
                          const std::string& cwd = "", uint64_t max_file_bytes = 0);

// The absolute path of `name` in PATH, or "" if it is not there.
std::string find_in_path(const std::string& name);

// "SIGILL" etc. for a signal number.
std::string signal_name(int signal);

}  // namespace kcraft::rvv
