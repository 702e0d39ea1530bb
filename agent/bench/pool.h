// A pool of worker processes (worker.h) that runs a list of jobs, as many at a time as there are
// workers. Each worker process runs jobs of one hardware configuration only (pool.cpp says why). A worker
// that crashes, exits, or runs one job longer than the timeout is killed and replaced; its job gets an error
// record saying why, and the other jobs go on.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "agent/bench/job_spec.h"
#include "agent/bench/run_record.h"

namespace kcraft::bench {

struct PoolOptions {
  unsigned workers = 1;
  double job_timeout_seconds = 3600;
  std::vector<std::string> worker_argv;  // argv of a worker process: {"/path/kcraft", "bench-worker", ...}
};

struct PoolEvents {
  std::function<void(size_t job)> started;
  std::function<void(size_t job, RunRecord record)> finished;  // record.job_seconds is filled in
  std::function<void()> tick;                                  // at least once a second
  std::function<bool()> stop_requested;                        // checked at least once a second
  // Jobs decided while the pool runs (a search proposes candidates as results come in): called at the
  // start, after every finished job and at least once a second; the jobs it returns are appended in
  // order and dispatched to idle workers at once. The run ends when every job has finished and `more`
  // returns none.
  std::function<std::vector<JobSpec>()> more;
};

// Runs jobs[0], jobs[1], ... in that order of dispatch, except that a worker takes the next job of its
// own hardware configuration while there is one. Returns false when stopped early (workers are
// killed; jobs that had not finished get no record). With events.more, `jobs` may be empty.
bool run_jobs(const std::vector<JobSpec>& jobs, const PoolOptions& options, const PoolEvents& events);

// argv that starts a worker of this very executable, with the current data root.
std::vector<std::string> default_worker_argv();

// Describes how a child ended, e.g. "was killed by signal 11 (Segmentation fault)".
std::string describe_exit_status(int status);

}  // namespace kcraft::bench
