#include "agent/serve/session_process.h"

#include <fcntl.h>
#include <poll.h>
#include <sys/wait.h>
#include <unistd.h>

#include <fmt/format.h>

#include "agent/common/child_process.h"

#include <cerrno>
#include <csignal>
#include <cstring>

namespace kcraft::agent::serve {

std::string describe_exit(int status) {
  if (WIFEXITED(status)) return fmt::format("exited with status {}", WEXITSTATUS(status));
  if (WIFSIGNALED(status)) {
    return fmt::format("killed by signal {} ({})", WTERMSIG(status), strsignal(WTERMSIG(status)));
  }
  return "ended";
}

SessionProcess::SessionProcess(const std::vector<std::string>& argv) {
  // Its stderr is the server's (a session's warnings reach the operator's log).
  const auto child = agent::spawn_child(argv, /*capture_stderr=*/false, "a session process");
  pid_ = child.pid;
  to_child_ = child.to_child;
  from_child_ = child.from_child;
}

SessionProcess::~SessionProcess() {
  if (to_child_ >= 0) ::close(to_child_);
  if (from_child_ >= 0) ::close(from_child_);
  if (pid_ > 0) {
    ::kill(pid_, SIGKILL);
    int status = 0;
    while (::waitpid(pid_, &status, 0) < 0 && errno == EINTR) {
    }
  }
}

void SessionProcess::fail(const std::string& why, bool timed_out) {
  std::string how = why;
  if (pid_ > 0) {
    int status = 0;
    pid_t done = 0;
    if (!timed_out) {
      // The channel closed: the process is ending (a crash), give the kernel a moment to say how.
      for (int i = 0; i < 100 && done == 0; ++i) {
        done = ::waitpid(pid_, &status, WNOHANG);
        if (done == 0) ::usleep(10000);
      }
    }
    if (done == pid_) {
      how += ": the process " + describe_exit(status);
    } else {
      ::kill(pid_, SIGKILL);
      ::waitpid(pid_, &status, 0);
      if (!timed_out) how += " (it was killed)";
    }
    pid_ = -1;
  }
  throw ChannelFailure(how, timed_out);
}

std::string SessionProcess::exchange(const std::string& request_line, std::chrono::milliseconds timeout) {
  if (pid_ <= 0) throw ChannelFailure("the session's process is gone", false);
  const std::string out = request_line + "\n";
  size_t done = 0;
  while (done < out.size()) {
    // A pipe write blocks only when the child stopped reading; requests are small (--max-body).
    const ssize_t n = ::write(to_child_, out.data() + done, out.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) fail("it stopped reading its input", false);
    done += static_cast<size_t>(n);
  }
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  for (;;) {
    const size_t newline = buffer_.find('\n');
    if (newline != std::string::npos) {
      std::string line = buffer_.substr(0, newline);
      buffer_.erase(0, newline + 1);
      return line;
    }
    const auto left =
        std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
    if (left.count() <= 0) fail("no answer in time", true);
    pollfd p{from_child_, POLLIN, 0};
    const int ready = ::poll(&p, 1, static_cast<int>(std::min<int64_t>(left.count(), 1000)));
    if (ready < 0 && errno != EINTR) fail(std::string("poll: ") + std::strerror(errno), false);
    if (ready <= 0) continue;
    char chunk[65536];
    const ssize_t n = ::read(from_child_, chunk, sizeof chunk);
    if (n > 0) {
      buffer_.append(chunk, static_cast<size_t>(n));
    } else if (n == 0) {
      fail("it ended before answering", false);
    } else if (errno != EAGAIN && errno != EINTR) {
      fail(std::string("read: ") + std::strerror(errno), false);
    }
  }
}

}  // namespace kcraft::agent::serve
