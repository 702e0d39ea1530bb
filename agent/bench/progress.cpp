#include "agent/bench/progress.h"

#include <fmt/format.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include <cmath>

namespace kcraft::bench {

namespace {

size_t terminal_width() {
  winsize ws{};
  if (::ioctl(STDERR_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 20) return ws.ws_col;
  return 100;
}

// One finished run; `aligned` pads the verdict so that plain lines line up.
std::string run_text(const RunRecord& r, bool aligned) {
  std::string s = fmt::format("{:<{}} {} {} {} {}", r.verdict, aligned ? 13 : 0, r.key.target(), r.key.task,
                              r.key.config, r.key.agent);
  if (r.key.attempt > 1) s += fmt::format(" #{}", r.key.attempt);
  if (r.correct() && r.speedup > 0) s += fmt::format(" {:.2f}x", r.speedup);
  if (r.correct() && r.compiler_speedup > 0)
    s += fmt::format(" ({:.2f}x over the compiler)", r.compiler_speedup);
  if (r.failed_job()) s += ": " + r.error.substr(0, 120);
  return s;
}

}  // namespace

std::string format_duration(double seconds) {
  if (!std::isfinite(seconds) || seconds < 0) return "?";
  const auto s = static_cast<long>(std::lround(seconds));
  if (s < 60) return fmt::format("{}s", s);
  if (s < 3600) return fmt::format("{}m{:02}s", s / 60, s % 60);
  return fmt::format("{}h{:02}m", s / 3600, (s % 3600) / 60);
}

Progress::Progress(std::ostream& out, Mode mode, size_t total, size_t already_done, double total_cost)
    : out_(out),
      mode_(mode),
      total_(total),
      done_(already_done),
      total_cost_(total_cost),
      start_(std::chrono::steady_clock::now()),
      last_draw_(start_) {
  if (mode_ == Mode::kAuto) mode_ = ::isatty(STDERR_FILENO) ? Mode::kLine : Mode::kPlain;
  if (mode_ == Mode::kPlain && already_done > 0) {
    out_ << fmt::format("kcraft bench: {} of {} runs already in the results store; running the other {}\n",
                        already_done, total, total - already_done);
  }
}

void Progress::started(const RunKey&) {
  ++running_;
  redraw();
}

std::string Progress::status_text() const {
  const double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
  std::string eta = "?";
  if (done_ >= total_) {
    eta = "0s";
  } else if (done_cost_ > 0 && elapsed > 0) {
    eta = format_duration(elapsed * (total_cost_ - done_cost_) / done_cost_);
  }
  return fmt::format("[{}/{}] {} pass, {} fail, {} error | {} running | {:.2f} runs/s | {} elapsed | ETA {}",
                     done_, total_, passes_, failures_, errors_, running_,
                     elapsed > 0 ? static_cast<double>(ran_) / elapsed : 0.0, format_duration(elapsed), eta);
}

void Progress::finished(const RunRecord& r, double cost) {
  ++done_;
  ++ran_;
  if (running_ > 0) --running_;
  done_cost_ += cost;
  if (r.failed_job()) {
    ++errors_;
  } else if (r.correct()) {
    ++passes_;
  } else {
    ++failures_;
  }
  last_ = run_text(r, mode_ == Mode::kPlain);
  if (mode_ == Mode::kPlain) {
    const std::string s = status_text();
    out_ << s.substr(0, s.find(" |")) << "  " << last_ << "\n" << std::flush;
    if (ran_ % 10 == 0) out_ << "  " << status_text() << "\n" << std::flush;
  } else {
    redraw();
  }
}

void Progress::side_job_finished(const std::string& text, double cost) {
  if (running_ > 0) --running_;
  done_cost_ += cost;
  last_ = text;
  if (mode_ == Mode::kPlain) {
    out_ << "  " << text << "\n" << std::flush;
  } else {
    redraw();
  }
}

void Progress::tick() {
  if (mode_ != Mode::kLine) return;
  if (std::chrono::steady_clock::now() - last_draw_ < std::chrono::milliseconds(250)) return;
  redraw();
}

void Progress::redraw() {
  if (mode_ != Mode::kLine) return;
  last_draw_ = std::chrono::steady_clock::now();
  std::string line = status_text();
  if (!last_.empty()) line += " | last: " + last_;
  const size_t width = terminal_width() - 1;
  if (line.size() > width) line.resize(width);
  out_ << "\r\033[K" << line << std::flush;
}

void Progress::finish() {
  if (mode_ == Mode::kLine) {
    redraw();
    out_ << "\n" << std::flush;
  } else if (mode_ == Mode::kPlain && ran_ % 10 != 0) {
    out_ << "  " << status_text() << "\n" << std::flush;
  }
}

}  // namespace kcraft::bench
