#include "agent/bench/pool.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <poll.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstring>
#include <filesystem>
#include <map>
#include <optional>
#include <set>
#include <stdexcept>

#include "agent/common/child_process.h"
#include "tb/common/paths.h"

namespace kcraft::bench {

using nlohmann::json;
using Clock = std::chrono::steady_clock;

namespace {

constexpr size_t kStderrTail = 4096;

struct Worker {
  pid_t pid = -1;
  int to_child = -1;    // the worker's stdin
  int from_child = -1;  // its protocol channel (stdout)
  int err_child = -1;   // its stderr
  std::string out_buffer;
  std::string err_tail;
  std::optional<size_t> job;
  std::string target;  // the hardware configuration (platform/name) this process runs jobs of
  Clock::time_point started;
  Clock::time_point deadline;
};

void close_fd(int& fd) {
  if (fd >= 0) ::close(fd);
  fd = -1;
}

Worker spawn(const std::vector<std::string>& argv) {
  const auto child = agent::spawn_child(argv, /*capture_stderr=*/true, "a worker");
  Worker w;
  w.pid = child.pid;
  w.to_child = child.to_child;
  w.from_child = child.from_child;
  w.err_child = child.err_child;
  return w;
}

void read_stderr(Worker& w) {
  char buf[4096];
  for (;;) {
    const ssize_t n = ::read(w.err_child, buf, sizeof buf);
    if (n > 0) {
      w.err_tail.append(buf, static_cast<size_t>(n));
      if (w.err_tail.size() > 2 * kStderrTail) w.err_tail.erase(0, w.err_tail.size() - kStderrTail);
      continue;
    }
    if (n == 0) close_fd(w.err_child);
    return;  // EAGAIN or EOF
  }
}

// The last few lines a dead worker printed, for the error message.
std::string stderr_summary(const Worker& w) {
  std::string tail = w.err_tail.size() > 600 ? w.err_tail.substr(w.err_tail.size() - 600) : w.err_tail;
  while (!tail.empty() && (tail.back() == '\n' || tail.back() == ' ')) tail.pop_back();
  if (tail.empty()) return "";
  for (auto& c : tail) {
    if (c == '\n') c = '|';
  }
  return "; its last output: " + tail;
}

// Reaps a worker whose channel closed; kills it if it lingers. Returns how it ended.
int reap(Worker& w, bool kill_first) {
  if (kill_first) ::kill(w.pid, SIGKILL);
  int status = 0;
  const auto give_up = Clock::now() + std::chrono::seconds(2);
  for (;;) {
    const pid_t r = ::waitpid(w.pid, &status, WNOHANG);
    if (r == w.pid || (r < 0 && errno != EINTR)) break;
    if (Clock::now() > give_up) {
      ::kill(w.pid, SIGKILL);
      ::waitpid(w.pid, &status, 0);
      break;
    }
    ::usleep(5000);
  }
  // Collect what it printed last.
  if (w.err_child >= 0) {
    for (int i = 0; i < 20 && w.err_child >= 0; ++i) {
      pollfd p{w.err_child, POLLIN, 0};
      if (::poll(&p, 1, 10) <= 0) break;
      read_stderr(w);
    }
  }
  close_fd(w.to_child);
  close_fd(w.from_child);
  close_fd(w.err_child);
  w.pid = -1;
  return status;
}

}  // namespace

std::vector<std::string> default_worker_argv() {
  // /proc/self/exe rather than the path it points to: the binary may be rebuilt while a sweep runs, and
  // workers must be the same program as their parent.
  if (!std::filesystem::exists("/proc/self/exe")) {
    throw std::runtime_error("cannot find this executable (/proc/self/exe) to start workers");
  }
  return {"/proc/self/exe", "bench-worker", "--root", kcraft::root().string()};
}

std::string describe_exit_status(int status) {
  if (WIFSIGNALED(status)) {
    const int sig = WTERMSIG(status);
    const char* name = ::strsignal(sig);
    return fmt::format("was killed by signal {} ({})", sig, name != nullptr ? name : "?");
  }
  if (WIFEXITED(status)) return fmt::format("exited with status {}", WEXITSTATUS(status));
  return "ended";
}

bool run_jobs(const std::vector<JobSpec>& initial_jobs, const PoolOptions& options,
              const PoolEvents& events) {
  if (initial_jobs.empty() && !events.more) return true;
  if (options.worker_argv.empty()) throw std::invalid_argument("run_jobs: no worker command");
  // A worker that died leaves a closed pipe: writing to it must be an error, not a signal.
  ::signal(SIGPIPE, SIG_IGN);
  std::vector<JobSpec> jobs = initial_jobs;  // grows with events.more
  const size_t count = events.more ? std::max(1u, options.workers)
                                   : std::min<size_t>(std::max(1u, options.workers), jobs.size());
  std::vector<Worker> workers(count);
  size_t done = 0;
  // Jobs not yet dispatched, in dispatch order, overall and per hardware configuration.
  std::set<size_t> waiting;
  std::map<std::string, std::set<size_t>> waiting_by_target;
  auto enqueue = [&](size_t i) {
    waiting.insert(i);
    waiting_by_target[jobs[i].key.target()].insert(i);
  };
  for (size_t i = 0; i < jobs.size(); ++i) enqueue(i);
  const auto timeout = std::chrono::duration_cast<Clock::duration>(
      std::chrono::duration<double>(options.job_timeout_seconds > 0 ? options.job_timeout_seconds : 1e9));

  auto finish = [&](Worker& w, RunRecord record) {
    const size_t job = *w.job;
    w.job.reset();
    record.job_seconds = std::chrono::duration<double>(Clock::now() - w.started).count();
    ++done;
    events.finished(job, std::move(record));
  };
  // A worker process only ever runs jobs of one hardware configuration: the simulator keeps state
  // (SystemC time, clock phase) across jobs, and a kernel's cycle count must not depend on which other
  // configuration ran before it in the same process. A worker with nothing left for its configuration
  // is replaced by a fresh one for the next job in line.
  auto dispatch = [&](Worker& w) {
    if (waiting.empty()) return;
    size_t job = *waiting.begin();
    if (w.pid >= 0) {
      auto& mine = waiting_by_target[w.target];
      if (mine.empty()) {
        close_fd(w.to_child);  // end of input: the worker exits
        reap(w, false);
        w.err_tail.clear();
        w.out_buffer.clear();
      } else {
        job = *mine.begin();
      }
    }
    if (w.pid < 0) {
      w = spawn(options.worker_argv);
      w.target = jobs[job].key.target();
    }
    waiting.erase(job);
    waiting_by_target[w.target].erase(job);
    const std::string line = json{{"type", "job"}, {"id", job}, {"job", jobs[job].to_json()}}.dump() + "\n";
    // A short write means the worker is gone; its closed channel reports that below.
    size_t written = 0;
    while (written < line.size()) {
      const ssize_t n = ::write(w.to_child, line.data() + written, line.size() - written);
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) break;
      written += static_cast<size_t>(n);
    }
    w.job = job;
    w.started = Clock::now();
    w.deadline = w.started + timeout;
    if (events.started) events.started(job);
  };
  auto fail_worker = [&](Worker& w, const std::string& why, bool kill_first) {
    const int status = reap(w, kill_first);
    if (w.job) {
      const JobSpec& spec = jobs[*w.job];
      std::string reason = why.empty() ? "the worker running this job " + describe_exit_status(status) : why;
      finish(w, error_record(spec.key, spec.level, reason + stderr_summary(w)));
    }
    w.err_tail.clear();
    w.out_buffer.clear();
  };
  auto stop_all = [&] {
    for (auto& w : workers) {
      if (w.pid >= 0) reap(w, true);
    }
  };

  // Asks for more jobs and hands them to idle workers; true when there were any.
  auto pull_more = [&] {
    if (!events.more) return false;
    auto extra = events.more();
    for (auto& job : extra) {
      jobs.push_back(std::move(job));
      enqueue(jobs.size() - 1);
    }
    for (auto& w : workers) {
      if (!w.job) dispatch(w);
    }
    return !extra.empty();
  };
  for (auto& w : workers) dispatch(w);
  bool pulled = pull_more();
  while (done < jobs.size() || pulled) {
    if (events.stop_requested && events.stop_requested()) {
      stop_all();
      return false;
    }
    std::vector<pollfd> fds;
    std::vector<std::pair<size_t, bool>> owners;  // worker index, is stderr
    auto now = Clock::now();
    auto wait = std::chrono::milliseconds(1000);
    for (size_t i = 0; i < workers.size(); ++i) {
      auto& w = workers[i];
      if (w.pid < 0) continue;
      if (w.from_child >= 0) {
        fds.push_back({w.from_child, POLLIN, 0});
        owners.emplace_back(i, false);
      }
      if (w.err_child >= 0) {
        fds.push_back({w.err_child, POLLIN, 0});
        owners.emplace_back(i, true);
      }
      if (w.job) {
        wait =
            std::min(wait, std::max(std::chrono::milliseconds(0),
                                    std::chrono::duration_cast<std::chrono::milliseconds>(w.deadline - now) +
                                        std::chrono::milliseconds(1)));
      }
    }
    // Right after new jobs the caller may have more to say at once (a search proposing its next one).
    if (pulled) wait = std::chrono::milliseconds(0);
    const int ready = ::poll(fds.data(), fds.size(), static_cast<int>(wait.count()));
    if (ready < 0 && errno != EINTR) throw std::runtime_error(std::string("poll: ") + std::strerror(errno));
    for (size_t f = 0; ready > 0 && f < fds.size(); ++f) {
      if (fds[f].revents == 0) continue;
      auto& w = workers[owners[f].first];
      if (w.pid < 0) continue;
      if (owners[f].second) {
        if (w.err_child == fds[f].fd) read_stderr(w);
        continue;
      }
      if (w.from_child != fds[f].fd) continue;
      char buf[65536];
      bool closed = false;
      for (;;) {
        const ssize_t n = ::read(w.from_child, buf, sizeof buf);
        if (n > 0) {
          w.out_buffer.append(buf, static_cast<size_t>(n));
          continue;
        }
        if (n == 0) closed = true;
        if (n < 0 && errno == EINTR) continue;
        break;
      }
      for (size_t nl; (nl = w.out_buffer.find('\n')) != std::string::npos;) {
        const std::string line = w.out_buffer.substr(0, nl);
        w.out_buffer.erase(0, nl + 1);
        const json message = json::parse(line, nullptr, false);
        if (message.is_discarded() || message.value("type", "") != "result" || !w.job) continue;
        if (message.value("id", int64_t{-1}) != static_cast<int64_t>(*w.job)) continue;
        RunRecord record;
        try {
          record = RunRecord::from_json(message.at("record"));
        } catch (const std::exception& e) {
          const JobSpec& spec = jobs[*w.job];
          record = error_record(spec.key, spec.level,
                                std::string("the worker sent a malformed result: ") + e.what());
        }
        finish(w, std::move(record));
        dispatch(w);
      }
      if (closed) {
        fail_worker(w, "", false);
        dispatch(w);
      }
    }
    now = Clock::now();
    for (auto& w : workers) {
      if (w.pid >= 0 && w.job && now >= w.deadline) {
        fail_worker(w,
                    fmt::format("the job exceeded the {:g} s wall-clock timeout; its worker was killed",
                                options.job_timeout_seconds),
                    true);
        dispatch(w);
      }
    }
    if (events.tick) events.tick();
    pulled = pull_more();
  }
  for (auto& w : workers) {
    if (w.pid < 0) continue;
    close_fd(w.to_child);  // end of input: the worker exits
    reap(w, false);
  }
  return true;
}

}  // namespace kcraft::bench
