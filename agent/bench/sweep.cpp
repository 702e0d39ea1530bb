#include "agent/bench/sweep.h"

#include <fmt/format.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <csignal>
#include <ctime>
#include <map>
#include <numeric>
#include <optional>
#include <set>

#include "agent/bench/llm_job.h"
#include "agent/bench/pool.h"
#include "agent/bench/store.h"
#include "agent/bench/tuned_baseline.h"
#include "agent/bench/worker.h"
#include "agent/tuner/tuner.h"
#include "tb/common/hw_variants.h"
#include "tb/common/paths.h"

namespace kcraft::bench {

namespace {

volatile std::sig_atomic_t g_stop = 0;

extern "C" void on_stop_signal(int) {
  g_stop = 1;
}

// SIGINT/SIGTERM stop the sweep cleanly while it runs (finished runs are already stored).
class StopSignals {
 public:
  StopSignals() {
    g_stop = 0;
    struct sigaction sa {};
    sa.sa_handler = on_stop_signal;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, &old_int_);
    sigaction(SIGTERM, &sa, &old_term_);
  }
  ~StopSignals() {
    sigaction(SIGINT, &old_int_, nullptr);
    sigaction(SIGTERM, &old_term_, nullptr);
  }

 private:
  struct sigaction old_int_ {};
  struct sigaction old_term_ {};
};

std::string safe_name(std::string s) {
  for (auto& c : s) {
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '-' && c != '_' && c != '.') c = '_';
  }
  return s;
}

std::vector<RunKey> plan_keys(const SweepPlan& plan) {
  std::vector<RunKey> keys;
  for (const auto& r : plan.runs) keys.push_back(r.key);
  return keys;
}

}  // namespace

std::optional<agent::PortSource> best_kernel_to_port(const std::vector<library::KernelEntry>& kernels,
                                                     const std::string& from_platform, const RunKey& run) {
  const library::KernelEntry* best = nullptr;
  for (const auto& k : kernels) {
    if (k.platform != from_platform || k.task != run.task || k.config != run.config || k.source.empty())
      continue;
    // The run's hardware configuration name first (the closest sizes), then the fewest cycles.
    const auto rank = [&](const library::KernelEntry& e) {
      return std::make_pair(e.hw_config != run.hw_config, e.cycles);
    };
    if (best == nullptr || rank(k) < rank(*best)) best = &k;
  }
  if (best == nullptr) return std::nullopt;
  agent::PortSource port;
  port.platform = best->platform;
  port.origin =
      fmt::format("the results store's best passing kernel of {} {} on {}/{} ({} cycles, by {})", best->task,
                  best->config, best->platform, best->hw_config, best->cycles, best->agent);
  port.language = best->language;
  port.source = best->source;
  port.cycles = best->cycles;
  return port;
}

TunedBaselineMode parse_tuned_baseline_mode(const std::string& text) {
  if (text == "auto") return TunedBaselineMode::kAuto;
  if (text == "all") return TunedBaselineMode::kAll;
  if (text == "none") return TunedBaselineMode::kNone;
  throw std::invalid_argument("--tuned-baseline expects auto, all or none, got '" + text + "'");
}

CompilerBaselineMode parse_compiler_baseline_mode(const std::string& text) {
  if (text == "auto") return CompilerBaselineMode::kAuto;
  if (text == "all") return CompilerBaselineMode::kAll;
  if (text == "cached") return CompilerBaselineMode::kCached;
  throw std::invalid_argument("--compiler-baseline expects auto, all or cached, got '" + text + "'");
}

bool simulates_compiler_baseline(CompilerBaselineMode mode, const std::string& config) {
  if (mode == CompilerBaselineMode::kAll) return true;
  if (mode == CompilerBaselineMode::kCached) return false;
  const auto& quick = quick_sweep_configs();
  return std::find(quick.begin(), quick.end(), config) != quick.end();
}

FaultInjection FaultInjection::parse(const std::string& text) {
  const auto colon = text.find(':');
  static const std::set<std::string> kinds = {"crash", "abort", "hang", "throw", "exit"};
  if (colon == std::string::npos || !kinds.count(text.substr(0, colon))) {
    throw std::invalid_argument(
        "--inject-fault expects KIND:PATTERN with KIND one of crash, abort, hang, throw, exit; got '" + text +
        "'");
  }
  return {text.substr(0, colon), text.substr(colon + 1)};
}

std::string host_name() {
  char buf[256] = {};
  if (::gethostname(buf, sizeof buf - 1) != 0) return "unknown";
  return buf;
}

std::string utc_now() {
  const std::time_t now = std::time(nullptr);
  std::tm tm{};
  gmtime_r(&now, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return buf;
}

std::vector<std::string> default_worker_argv() {
  // /proc/self/exe rather than the path it points to: the binary may be rebuilt while a sweep runs, and
  // workers must be the same program as their parent.
  if (!std::filesystem::exists("/proc/self/exe")) {
    throw std::runtime_error("cannot find this executable (/proc/self/exe) to start workers");
  }
  return {"/proc/self/exe", "bench-worker", "--root", kcraft::root().string()};
}

SweepResult run_sweep(const SweepOptions& o, const tasks::TaskRegistry& registry,
                      std::ostream& progress_out) {
  const auto t0 = std::chrono::steady_clock::now();
  SweepResult result;
  result.plan = build_plan(o.filters, registry);
  // A broken settings file or a missing API key fails the sweep now, not every one of its runs.
  for (const auto& a : result.plan.agents) {
    if (!a.offline()) check_llm_agent(a.settings_file);
  }
  const auto& plan = result.plan;

  ResultStore store(o.db);
  if (store.migrated_from() != 0) {
    progress_out << fmt::format("kcraft bench: upgraded {} from results schema version {} to {}\n",
                                o.db.string(), store.migrated_from(), kSchemaVersion);
  }
  store.add_plan(plan.runs, plan.unsupported, plan.hardware);
  if (o.retry_errors) {
    std::vector<RunKey> keys;
    for (const auto& r : plan.runs) keys.push_back(r.key);
    store.delete_failed_jobs(keys);
  }
  // A porting run that found nothing to port is tried again: the source platform may have a kernel now.
  store.delete_runs_with_status(plan_keys(plan), kNoKernelToPort);
  store.delete_runs_with_status(plan_keys(plan), kNoLibraryKernel);  // the library may have one now
  const auto finished = store.finished_keys();
  std::vector<size_t> pending;
  double total_cost = 0;
  for (size_t i = 0; i < plan.runs.size(); ++i) {
    if (finished.count(plan.runs[i].key)) {
      ++result.already_done;
    } else {
      pending.push_back(i);
      total_cost += plan.costs[i];
    }
  }
  // Longest first: the sweep's tail is then made of short jobs.
  std::stable_sort(pending.begin(), pending.end(),
                   [&](size_t a, size_t b) { return plan.costs[a] > plan.costs[b]; });

  std::filesystem::path transcript_dir;
  if (o.transcripts != "none") {
    transcript_dir = o.transcripts.empty()
                         ? (o.db.has_parent_path() ? o.db.parent_path() : ".") / "transcripts"
                         : std::filesystem::path(o.transcripts);
    transcript_dir = std::filesystem::absolute(transcript_dir);
  }
  SweepInfo info;
  info.id = fmt::format("{}-{}-{}", host_name(), ::getpid(), utc_now());

  // The tuned baseline of every cell (tuned_baseline.h): already stored, or from a stored or pending run
  // of the tuner under the tuned baseline's definition, or computed by an extra tuner job.
  struct Cell {
    TunedBaselineKey key;
    int level = 1;
    unsigned default_budget = 0;
    std::optional<TunedBaseline> tuned;
    bool from_pending_run = false;  // one of this sweep's own tuner runs will provide it
    bool wanted = false;            // some run would get a speedup over it but nothing provides it
    double cost = 0;                // of its most expensive run: orders the extra job
  };
  std::map<std::string, Cell> cells;  // by TunedBaselineKey::cell()
  const auto cell_id = [](const RunKey& k) {
    return k.platform + "/" + k.hw_config + "/" + k.task + "/" + k.config;
  };
  for (size_t i = 0; i < plan.runs.size(); ++i) {
    const auto& run = plan.runs[i];
    auto [it, added] = cells.try_emplace(cell_id(run.key));
    Cell& cell = it->second;
    if (added) {
      cell.key = tuned_baseline_key(run.key.platform, run.key.hw_config, run.key.task, run.key.config,
                                    plan.hardware_for(run.key.platform, run.key.hw_config).id);
      cell.level = run.level;
      cell.default_budget = agent::default_iterations(run.level);
      if (!cell.key.search_space.empty()) cell.tuned = store.tuned_baseline(cell.key);
      if (cell.tuned) ++result.tuned_stored;
    }
    cell.cost = std::max(cell.cost, plan.costs[i]);
  }
  std::map<RunKey, const RunRecord*> stored_runs;
  const auto stored = store.runs();
  for (const auto& r : stored) stored_runs[r.key] = &r;
  for (const auto& run : plan.runs) {
    Cell& cell = cells.at(cell_id(run.key));
    if (cell.key.search_space.empty() || cell.tuned) continue;
    const auto at = stored_runs.find(run.key);
    if (at != stored_runs.end()) {
      if (defines_tuned_baseline(*at->second, cell.key, cell.default_budget)) {
        cell.tuned = tuned_baseline_from_run(
            *at->second, cell.key,
            fmt::format("tuner run {} of sweep {}", run.key.id(), at->second->sweep_id));
        ++result.tuned_from_runs;
      }
      continue;
    }
    const auto& agent = plan.agent(run.key.agent);
    if (agent.kind == AgentSpec::Kind::kTuner && o.seed == agent::kTunedBaselineDevSeed &&
        (o.budget == 0 || o.budget == cell.default_budget)) {
      cell.from_pending_run = true;
    }
  }
  // Which cells need one computed: a run of the selected agents that is pending, or stored by this kcraft
  // on this hardware without a tuned baseline.
  for (const auto& run : plan.runs) {
    Cell& cell = cells.at(cell_id(run.key));
    if (cell.key.search_space.empty() || cell.tuned || cell.from_pending_run) continue;
    const bool selected =
        o.tuned_baselines == TunedBaselineMode::kAll ||
        (o.tuned_baselines == TunedBaselineMode::kAuto && !plan.agent(run.key.agent).offline());
    if (!selected) continue;
    const auto at = stored_runs.find(run.key);
    if (at == stored_runs.end() ||
        (!at->second->tuned_baseline_cycles && at->second->git_commit == cell.key.git_commit &&
         at->second->hardware_id == cell.key.hardware_id)) {
      cell.wanted = true;
    }
  }
  // Stored tuned baselines also fill the rows an interrupted sweep stored before its tuned baseline.
  for (auto& [id, cell] : cells) {
    if (cell.tuned) store.put_tuned_baseline(*cell.tuned);
  }

  std::vector<JobSpec> jobs;
  std::vector<std::string> job_cells;  // the cell of a tuned-baseline job, "" for a run
  std::vector<double> job_costs;
  // Tuned-baseline jobs first: the runs of their cells get their speedup over it as soon as it is known.
  for (auto& [id, cell] : cells) {
    if (!cell.wanted) continue;
    JobSpec job;
    job.key = {cell.key.platform, cell.key.hw_config, cell.key.task, cell.key.config, "tuned-baseline", 1};
    job.level = cell.level;
    job.agent_kind = "tuner";
    job.dev_seed = agent::kTunedBaselineDevSeed;
    job.budget = 0;  // the default by level
    job.counters = false;
    if (o.eval_cache) job.eval_cache = std::filesystem::absolute(o.db).string();
    job.compiler_baseline_from_cache = !simulates_compiler_baseline(o.compiler_baselines, cell.key.config);
    if (!transcript_dir.empty()) {
      job.transcript = (transcript_dir / cell.key.platform / cell.key.hw_config / cell.key.task /
                        cell.key.config / "tuned-baseline.jsonl")
                           .string();
    }
    jobs.push_back(std::move(job));
    job_cells.push_back(id);
    job_costs.push_back(cell.cost);
    total_cost += cell.cost;
  }
  // Porting runs go last, once every other run has stored its kernels: they port the best of them.
  const auto make_job = [&](const PlannedRun& run, const AgentSpec& agent) {
    JobSpec job;
    job.key = run.key;
    job.level = run.level;
    job.agent_kind = agent.job_kind();
    job.settings_file = agent.settings_file;
    job.workflow = agent.workflow;
    job.search = agent.search;
    job.dev_seed = o.seed;
    job.budget = o.budget;
    job.counters = o.counters;
    if (o.eval_cache) job.eval_cache = std::filesystem::absolute(o.db).string();
    job.compiler_baseline_from_cache = !simulates_compiler_baseline(o.compiler_baselines, run.key.config);
    if (o.library_examples && job.agent_kind == "llm") job.library = o.db.string();
    if (!transcript_dir.empty()) {
      job.transcript =
          (transcript_dir / run.key.platform / run.key.hw_config / run.key.task / run.key.config /
           fmt::format("{}-{}.jsonl", safe_name(run.key.agent), run.key.attempt))
              .string();
    }
    for (const auto& f : o.faults) {
      if (run.key.id().find(f.pattern) != std::string::npos) job.fault = f.kind;
    }
    return job;
  };
  std::vector<size_t> porting;  // plan.runs indices
  // Library agents run the stored kernel of their cell; a cell without one is recorded as such below.
  std::map<std::string, std::vector<library::KernelEntry>> library_kernels;  // by library file
  std::vector<std::pair<size_t, std::string>> no_library_kernel;             // plan.runs index, why
  for (size_t i : pending) {
    const auto& run = plan.runs[i];
    const auto& agent = plan.agent(run.key.agent);
    if (!agent.port_from.empty()) {
      porting.push_back(i);
      continue;
    }
    JobSpec job = make_job(run, agent);
    if (agent.kind == AgentSpec::Kind::kLibrary) {
      if (!library_kernels.count(agent.library_file))
        library_kernels[agent.library_file] = ResultStore(agent.library_file).kernels();
      const auto kernel = best_kernel_to_port(library_kernels[agent.library_file], run.key.platform, run.key);
      if (!kernel) {
        no_library_kernel.emplace_back(
            i, fmt::format("no library kernel: {} has no passing kernel of {} {} on {}", agent.library_file,
                           run.key.task, run.key.config, run.key.platform));
        continue;
      }
      job.kernel = kernel->source;
      job.language = kernel->language;
    }
    jobs.push_back(std::move(job));
    job_cells.emplace_back();
    job_costs.push_back(plan.costs[i]);
  }

  info.started_at = utc_now();
  info.status = "running";
  info.command = o.command_line;
  info.kcraft_version = kcraft_version();
  info.git_commit = kcraft_git_commit();
  info.host = host_name();
  info.shard = o.filters.shard.to_string();
  info.jobs = o.jobs;
  info.planned = plan.runs.size();
  store.begin_sweep(info);
  result.sweep_id = info.id;

  // Hardware configurations not compiled into this binary are built (or checked) here, once, with a progress
  // line, before any worker starts: each worker then finds its model ready (tb/common/hw_variants.h).
  {
    std::set<std::pair<std::string, std::string>> targets;
    for (const auto& job : jobs) targets.emplace(job.key.platform, job.key.hw_config);
    for (const auto& run : plan.runs) {
      if (!plan.agent(run.key.agent).port_from.empty() && !finished.count(run.key))
        targets.emplace(run.key.platform, run.key.hw_config);
    }
    for (const auto& [platform, hw] : targets) {
      try {
        tb::ensure_hw_model(platform, hw, progress_out);
      } catch (const std::invalid_argument&) {
        // this kcraft cannot build models (no build information): its workers say what they lack
      }
    }
  }

  Progress progress(progress_out, o.progress, plan.runs.size(), result.already_done, total_cost);
  PoolOptions pool;
  pool.workers = std::max(1u, o.jobs);
  pool.job_timeout_seconds = o.job_timeout_seconds;
  pool.worker_argv = o.worker_argv.empty() ? default_worker_argv() : o.worker_argv;
  PoolEvents events;
  size_t first_job = 0;  // the index in `jobs` of the phase's first job (porting runs are a second phase)
  events.started = [&](size_t job) { progress.started(jobs[first_job + job].key); };
  const auto record_run = [&](size_t job, RunRecord record) {
    const auto& spec = jobs[job];
    record.key = spec.key;  // the parent's key is the one that counts
    record.level = spec.level;
    record.hardware_id = plan.hardware_for(spec.key.platform, spec.key.hw_config).id;
    record.sweep_id = info.id;
    record.host = info.host;
    record.finished_at = utc_now();
    if (record.transcript.empty()) record.transcript = spec.transcript;
    record.dev_seed = spec.dev_seed;
    result.evaluations_simulated += record.evaluations_simulated;
    result.evaluations_cached += record.evaluations_cached;
    if (record.kcraft_version.empty()) record.kcraft_version = kcraft_version();
    if (record.git_commit.empty()) record.git_commit = kcraft_git_commit();
    if (!job_cells[job].empty()) {  // a tuned-baseline job: not a run
      Cell& cell = cells.at(job_cells[job]);
      std::string text;
      if (record.failed_job() || record.git_commit != cell.key.git_commit) {
        ++result.tuned_failed;
        text = fmt::format("tuned baseline {}: the tuner job failed: {}", job_cells[job], record.error);
      } else {
        cell.tuned = tuned_baseline_from_run(record, cell.key,
                                             fmt::format("tuned-baseline tuner job of sweep {}", info.id));
        store.put_tuned_baseline(*cell.tuned);
        ++result.tuned_computed;
        text = fmt::format("tuned baseline {}: {} cycles ({} iterations)", job_cells[job], cell.tuned->cycles,
                           cell.tuned->iterations);
      }
      progress.side_job_finished(text, job_costs[job]);
      return;
    }
    Cell& cell = cells.at(cell_id(spec.key));
    const bool defines = !cell.key.search_space.empty() && !cell.tuned &&
                         defines_tuned_baseline(record, cell.key, cell.default_budget);
    if (defines) {
      cell.tuned = tuned_baseline_from_run(record, cell.key,
                                           fmt::format("tuner run {} of sweep {}", spec.key.id(), info.id));
      ++result.tuned_from_runs;
    }
    if (cell.tuned) record.set_tuned_baseline(cell.tuned->cycles);
    store.insert_run(record);
    if (defines) store.put_tuned_baseline(*cell.tuned);  // and the cell's runs stored before this one
    ++result.ran;
    if (record.failed_job()) ++result.failed_jobs;
    progress.finished(record, job_costs[job]);
  };
  for (const auto& [i, why] : no_library_kernel) {
    const auto& run = plan.runs[i];
    jobs.push_back(make_job(run, plan.agent(run.key.agent)));
    job_cells.emplace_back();
    job_costs.push_back(0);
    RunRecord none = error_record(run.key, run.level, why);
    none.status = kNoLibraryKernel;
    none.agent_settings = {{"kind", "library"}};
    progress.started(run.key);
    record_run(jobs.size() - 1, std::move(none));
  }
  // Those jobs were recorded already; the pool runs the ones before them.
  jobs.resize(jobs.size() - no_library_kernel.size());
  job_cells.resize(jobs.size());
  job_costs.resize(jobs.size());
  events.finished = [&](size_t job, RunRecord record) { record_run(first_job + job, std::move(record)); };
  events.tick = [&] { progress.tick(); };
  events.stop_requested = [] { return g_stop != 0; };
  {
    StopSignals signals;
    result.interrupted = !run_jobs(jobs, pool, events);
    if (!result.interrupted && !porting.empty()) {
      // Each porting run gets the best passing kernel its source platform has in the store now (this
      // sweep's runs included); without one it is stored as "no kernel to port", never run unported.
      const auto kernels = store.kernels();
      first_job = jobs.size();
      for (size_t i : porting) {
        const auto& run = plan.runs[i];
        const auto& agent = plan.agent(run.key.agent);
        JobSpec job = make_job(run, agent);
        if (auto port = best_kernel_to_port(kernels, agent.port_from, run.key)) job.port = std::move(*port);
        jobs.push_back(std::move(job));
        job_cells.emplace_back();
        job_costs.push_back(plan.costs[i]);
      }
      std::vector<JobSpec> to_run;
      std::vector<size_t> to_run_index;
      for (size_t j = first_job; j < jobs.size(); ++j) {
        if (!jobs[j].port.empty()) {
          to_run.push_back(jobs[j]);
          to_run_index.push_back(j);
          continue;
        }
        RunRecord none = error_record(
            jobs[j].key, jobs[j].level,
            fmt::format("no kernel to port: the results store has no passing kernel "
                        "of {} {} on {} (run an agent there first)",
                        jobs[j].key.task, jobs[j].key.config, plan.agent(jobs[j].key.agent).port_from));
        none.status = kNoKernelToPort;
        none.agent_settings = {{"kind", "llm"},
                               {"workflow", jobs[j].workflow},
                               {"port_from", {{"platform", plan.agent(jobs[j].key.agent).port_from}}}};
        progress.started(jobs[j].key);
        record_run(j, std::move(none));
      }
      events.started = [&](size_t job) { progress.started(to_run[job].key); };
      events.finished = [&](size_t job, RunRecord record) {
        record_run(to_run_index[job], std::move(record));
      };
      result.interrupted = !run_jobs(to_run, pool, events);
    }
  }
  progress.finish();
  store.end_sweep(info.id, result.interrupted ? "interrupted" : "completed", result.ran);
  for (const auto& [id, cell] : cells) {
    if (!cell.tuned) ++result.tuned_missing;
  }

  std::set<RunKey> keys;
  for (const auto& r : plan.runs) keys.insert(r.key);
  for (auto& r : store.runs()) {
    if (keys.count(r.key)) result.records.push_back(std::move(r));
  }
  result.wall_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return result;
}

}  // namespace kcraft::bench
