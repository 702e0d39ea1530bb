// Worker processes. A sweep runs its jobs in `kcraft bench-worker` processes: SystemC allows one
// simulation per process, so parallelism is processes, and each worker keeps its simulator elaborated
// across all the jobs it runs.
//
// Protocol (JSON lines): the parent writes {"type":"job","id":N,"job":{...JobSpec}} to the worker's
// stdin; the worker answers {"type":"result","id":N,"record":{...RunRecord}} on its stdout, after a
// first {"type":"hello","pid":P,"version":V}. End of input (or {"type":"exit"}) ends the worker.
// Everything else a worker prints goes to its stderr, which the parent keeps the tail of for error
// messages.
#pragma once

#include "agent/bench/job_spec.h"
#include "agent/bench/run_record.h"

namespace kcraft::bench {

// Runs one job in this process and returns its record. Throws for problems with the job itself
// (unknown task, unreadable settings); the worker turns those into error records.
RunRecord execute_job(const JobSpec& job);

// The worker's main loop on stdin/stdout (see the protocol above). Returns the exit code.
int worker_main();

}  // namespace kcraft::bench
