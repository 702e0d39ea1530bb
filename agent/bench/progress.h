// The sweep's progress on stderr: one line redrawn in place on a terminal (done/total, passes,
// failures, errors, rate, ETA), plain lines (one per finished run) when stderr is a file or a pipe.
#pragma once

#include <chrono>
#include <cstddef>
#include <ostream>
#include <string>

#include "agent/bench/run_record.h"

namespace kcraft::bench {

class Progress {
 public:
  enum class Mode { kAuto, kLine, kPlain, kQuiet };
  // `total_cost` and the costs passed to finished() weight the ETA (long jobs run first).
  Progress(std::ostream& out, Mode mode, size_t total, size_t already_done, double total_cost);
  void started(const RunKey& key);
  void finished(const RunRecord& record, double cost);
  // A job that is not a run (a tuned-baseline tuner run) ended: `text` says what it found.
  void side_job_finished(const std::string& text, double cost);
  void tick();    // redraws the line (terminal mode), at most a few times a second
  void finish();  // ends the line

  size_t passes() const { return passes_; }
  size_t failures() const { return failures_; }
  size_t errors() const { return errors_; }

 private:
  std::string status_text() const;
  void redraw();
  std::ostream& out_;
  Mode mode_;
  size_t total_, done_, ran_ = 0, running_ = 0;
  size_t passes_ = 0, failures_ = 0, errors_ = 0;
  double total_cost_, done_cost_ = 0;
  std::string last_;
  std::chrono::steady_clock::time_point start_, last_draw_;
};

// "1m05s", "42s", "2h03m".
std::string format_duration(double seconds);

}  // namespace kcraft::bench
