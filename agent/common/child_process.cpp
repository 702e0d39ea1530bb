#include "agent/common/child_process.h"

#include <fcntl.h>
#include <sys/prctl.h>
#include <unistd.h>

#include <cerrno>
#include <csignal>
#include <cstring>
#include <stdexcept>

namespace kcraft::agent {

namespace {

void close_pair(int p[2]) {
  for (int i = 0; i < 2; ++i) {
    if (p[i] >= 0) ::close(p[i]);
  }
}

void set_nonblocking(int fd) {
  ::fcntl(fd, F_SETFL, ::fcntl(fd, F_GETFL) | O_NONBLOCK);
}

}  // namespace

ChildPipes spawn_child(const std::vector<std::string>& argv, bool capture_stderr, const std::string& what) {
  int in_pipe[2] = {-1, -1}, out_pipe[2] = {-1, -1}, err_pipe[2] = {-1, -1};
  if (::pipe2(in_pipe, O_CLOEXEC) != 0 || ::pipe2(out_pipe, O_CLOEXEC) != 0 ||
      (capture_stderr && ::pipe2(err_pipe, O_CLOEXEC) != 0)) {
    const std::string why = std::strerror(errno);
    close_pair(in_pipe);
    close_pair(out_pipe);
    close_pair(err_pipe);
    throw std::runtime_error("cannot create pipes for " + what + ": " + why);
  }
  std::vector<char*> args;
  for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  const pid_t parent = ::getpid();
  const pid_t pid = ::fork();
  if (pid < 0) {
    const std::string why = std::strerror(errno);
    close_pair(in_pipe);
    close_pair(out_pipe);
    close_pair(err_pipe);
    throw std::runtime_error("cannot start " + what + ": " + why);
  }
  if (pid == 0) {
    ::prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (::getppid() != parent) ::_exit(1);  // the parent died before the line above
    ::setpgid(0, 0);
    ::signal(SIGPIPE, SIG_DFL);
    ::dup2(in_pipe[0], STDIN_FILENO);
    ::dup2(out_pipe[1], STDOUT_FILENO);
    if (capture_stderr) ::dup2(err_pipe[1], STDERR_FILENO);
    ::execv(args[0], args.data());
    const std::string msg = std::string("cannot execute ") + argv[0] + ": " + std::strerror(errno) + "\n";
    [[maybe_unused]] auto n = ::write(STDERR_FILENO, msg.data(), msg.size());
    ::_exit(127);
  }
  ::close(in_pipe[0]);
  ::close(out_pipe[1]);
  if (capture_stderr) ::close(err_pipe[1]);
  ChildPipes c;
  c.pid = pid;
  c.to_child = in_pipe[1];
  c.from_child = out_pipe[0];
  c.err_child = err_pipe[0];
  set_nonblocking(c.from_child);
  if (c.err_child >= 0) set_nonblocking(c.err_child);
  return c;
}

}  // namespace kcraft::agent
