#include "agent/bench/sweep.h"

#include <fmt/format.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <csignal>
#include <map>
#include <numeric>
#include <optional>
#include <set>

#include "agent/bench/llm_job.h"
#include "agent/bench/pool.h"
#include "agent/bench/provenance.h"
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

namespace {

// A cell's tuned baseline (tuned_baseline.h): already stored, or from a stored or pending run of the tuner
// under the tuned baseline's definition, or computed by an extra tuner job.
struct Cell {
  TunedBaselineKey key;
  int level = 1;
  unsigned default_budget = 0;
  std::optional<TunedBaseline> tuned;
  bool from_pending_run = false;  // one of this sweep's own tuner runs will provide it
  bool wanted = false;            // some run would get a speedup over it but nothing provides it
  double cost = 0;                // of its most expensive run: orders the extra job
};

std::string cell_id(const RunKey& k) {
  return k.platform + "/" + k.hw_config + "/" + k.task + "/" + k.config;
}

std::filesystem::path transcript_directory(const SweepOptions& o) {
  if (o.transcripts == "none") return {};
  const std::filesystem::path dir = o.transcripts.empty()
                                        ? (o.db.has_parent_path() ? o.db.parent_path() : ".") / "transcripts"
                                        : std::filesystem::path(o.transcripts);
  return std::filesystem::absolute(dir);
}

// One run_sweep, by job: planning (the runs the store lacks, the cells' tuned baselines, the jobs),
// running them (the worker pool, then the porting runs), recording each result the moment it arrives, and
// the progress line over all of it.
class Sweep {
 public:
  Sweep(const SweepOptions& o, SweepResult& result, std::ostream& progress_out)
      : o_(o), plan_(result.plan), result_(result), out_(progress_out), store_(o.db) {}

  void plan();
  void begin();
  void run();
  void finish();

 private:
  // Planning.
  void prepare_store();
  void select_pending();
  void plan_tuned_baselines();
  void add_tuned_baseline_jobs();
  void add_run_jobs();
  JobSpec make_job(const PlannedRun& run, const AgentSpec& agent) const;
  void build_hw_models();
  // Running.
  void record_runs_without_library_kernel();
  void run_porting(const PoolOptions& pool, PoolEvents events);
  // Recording.
  void record_run(size_t job, RunRecord record);
  void record_tuned_baseline_job(size_t job, const RunRecord& record);
  void add_job(JobSpec job, std::string cell, double cost);

  const SweepOptions& o_;
  const SweepPlan& plan_;
  SweepResult& result_;
  std::ostream& out_;
  ResultStore store_;
  std::set<RunKey> finished_;
  std::vector<size_t> pending_;  // plan_.runs indices, longest first
  double total_cost_ = 0;
  std::filesystem::path transcript_dir_;
  SweepInfo info_;
  std::map<std::string, Cell> cells_;  // by TunedBaselineKey::cell()
  std::vector<JobSpec> jobs_;
  std::vector<std::string> job_cells_;  // the cell of a tuned-baseline job, "" for a run
  std::vector<double> job_costs_;
  std::vector<size_t> porting_;  // plan_.runs indices
  // Library agents run the stored kernel of their cell; a cell without one is recorded as such.
  std::vector<std::pair<size_t, std::string>> no_library_kernel_;  // plan_.runs index, why
  size_t first_job_ = 0;  // the index in jobs_ of the phase's first job (porting runs are a second phase)
  std::optional<Progress> progress_;
};

void Sweep::plan() {
  prepare_store();
  select_pending();
  transcript_dir_ = transcript_directory(o_);
  info_.id = fmt::format("{}-{}-{}", host_name(), ::getpid(), utc_now());
  plan_tuned_baselines();
  // Tuned-baseline jobs first: the runs of their cells get their speedup over it as soon as it is known.
  add_tuned_baseline_jobs();
  add_run_jobs();
}

// Records the plan; runs whose job failed (with --retry-errors) and runs that had nothing to start from are
// deleted to be run again.
void Sweep::prepare_store() {
  if (store_.migrated_from() != 0) {
    out_ << fmt::format("kcraft bench: upgraded {} from results schema version {} to {}\n", o_.db.string(),
                        store_.migrated_from(), kSchemaVersion);
  }
  store_.add_plan(plan_.runs, plan_.unsupported, plan_.hardware);
  if (o_.retry_errors) store_.delete_failed_jobs(plan_keys(plan_));
  // A porting run that found nothing to port is tried again: the source platform may have a kernel now.
  store_.delete_runs_with_status(plan_keys(plan_), kNoKernelToPort);
  store_.delete_runs_with_status(plan_keys(plan_), kNoLibraryKernel);  // the library may have one now
  finished_ = store_.finished_keys();
}

void Sweep::select_pending() {
  for (size_t i = 0; i < plan_.runs.size(); ++i) {
    if (finished_.count(plan_.runs[i].key)) {
      ++result_.already_done;
    } else {
      pending_.push_back(i);
      total_cost_ += plan_.costs[i];
    }
  }
  // Longest first: the sweep's tail is then made of short jobs.
  std::stable_sort(pending_.begin(), pending_.end(),
                   [&](size_t a, size_t b) { return plan_.costs[a] > plan_.costs[b]; });
}

// The tuned baseline of every cell: stored, or from a stored run of the tuner under its definition, or
// from one of this sweep's pending tuner runs; else whether an extra tuner job should compute it.
void Sweep::plan_tuned_baselines() {
  for (size_t i = 0; i < plan_.runs.size(); ++i) {
    const auto& run = plan_.runs[i];
    auto [it, added] = cells_.try_emplace(cell_id(run.key));
    Cell& cell = it->second;
    if (added) {
      cell.key = tuned_baseline_key(run.key.platform, run.key.hw_config, run.key.task, run.key.config,
                                    plan_.hardware_for(run.key.platform, run.key.hw_config).id);
      cell.level = run.level;
      cell.default_budget = agent::default_iterations(run.level);
      if (!cell.key.search_space.empty()) cell.tuned = store_.tuned_baseline(cell.key);
      if (cell.tuned) ++result_.tuned_stored;
    }
    cell.cost = std::max(cell.cost, plan_.costs[i]);
  }
  std::map<RunKey, const RunRecord*> stored_runs;
  const auto stored = store_.runs();
  for (const auto& r : stored) stored_runs[r.key] = &r;
  for (const auto& run : plan_.runs) {
    Cell& cell = cells_.at(cell_id(run.key));
    if (cell.key.search_space.empty() || cell.tuned) continue;
    const auto at = stored_runs.find(run.key);
    if (at != stored_runs.end()) {
      if (defines_tuned_baseline(*at->second, cell.key, cell.default_budget)) {
        cell.tuned = tuned_baseline_from_run(
            *at->second, cell.key,
            fmt::format("tuner run {} of sweep {}", run.key.id(), at->second->sweep_id));
        ++result_.tuned_from_runs;
      }
      continue;
    }
    const auto& agent = plan_.agent(run.key.agent);
    if (agent.kind == AgentSpec::Kind::kTuner && o_.seed == agent::kTunedBaselineDevSeed &&
        (o_.budget == 0 || o_.budget == cell.default_budget)) {
      cell.from_pending_run = true;
    }
  }
  // Which cells need one computed: a run of the selected agents that is pending, or stored by this kcraft
  // on this hardware without a tuned baseline.
  for (const auto& run : plan_.runs) {
    Cell& cell = cells_.at(cell_id(run.key));
    if (cell.key.search_space.empty() || cell.tuned || cell.from_pending_run) continue;
    const bool selected =
        o_.tuned_baselines == TunedBaselineMode::kAll ||
        (o_.tuned_baselines == TunedBaselineMode::kAuto && !plan_.agent(run.key.agent).offline());
    if (!selected) continue;
    const auto at = stored_runs.find(run.key);
    if (at == stored_runs.end() ||
        (!at->second->tuned_baseline_cycles && at->second->git_commit == cell.key.git_commit &&
         at->second->hardware_id == cell.key.hardware_id)) {
      cell.wanted = true;
    }
  }
  // Stored tuned baselines also fill the rows an interrupted sweep stored before its tuned baseline.
  for (auto& [id, cell] : cells_) {
    if (cell.tuned) store_.put_tuned_baseline(*cell.tuned);
  }
}

void Sweep::add_job(JobSpec job, std::string cell, double cost) {
  jobs_.push_back(std::move(job));
  job_cells_.push_back(std::move(cell));
  job_costs_.push_back(cost);
}

void Sweep::add_tuned_baseline_jobs() {
  for (auto& [id, cell] : cells_) {
    if (!cell.wanted) continue;
    JobSpec job;
    job.key = {cell.key.platform, cell.key.hw_config, cell.key.task, cell.key.config, "tuned-baseline", 1};
    job.level = cell.level;
    job.agent_kind = "tuner";
    job.dev_seed = agent::kTunedBaselineDevSeed;
    job.budget = 0;  // the default by level
    job.counters = false;
    if (o_.eval_cache) job.eval_cache = std::filesystem::absolute(o_.db).string();
    job.compiler_baseline_from_cache = !simulates_compiler_baseline(o_.compiler_baselines, cell.key.config);
    if (!transcript_dir_.empty()) {
      job.transcript = (transcript_dir_ / cell.key.platform / cell.key.hw_config / cell.key.task /
                        cell.key.config / "tuned-baseline.jsonl")
                           .string();
    }
    add_job(std::move(job), id, cell.cost);
    total_cost_ += cell.cost;
  }
}

JobSpec Sweep::make_job(const PlannedRun& run, const AgentSpec& agent) const {
  JobSpec job;
  job.key = run.key;
  job.level = run.level;
  job.agent_kind = agent.job_kind();
  job.settings_file = agent.settings_file;
  job.workflow = agent.workflow;
  job.search = agent.search;
  job.dev_seed = o_.seed;
  job.budget = o_.budget;
  job.counters = o_.counters;
  if (o_.eval_cache) job.eval_cache = std::filesystem::absolute(o_.db).string();
  job.compiler_baseline_from_cache = !simulates_compiler_baseline(o_.compiler_baselines, run.key.config);
  // Only a `full` agent gets the store's kernel library: the level decides what an agent may read.
  if (job.agent_kind == "llm") {
    job.docs = agent.docs;
    if (agent.docs == agent::docs_level_name(agent::DocsLevel::kFull)) job.library = o_.db.string();
  }
  if (!transcript_dir_.empty()) {
    job.transcript = (transcript_dir_ / run.key.platform / run.key.hw_config / run.key.task / run.key.config /
                      fmt::format("{}-{}.jsonl", safe_name(run.key.agent), run.key.attempt))
                         .string();
  }
  for (const auto& f : o_.faults) {
    if (run.key.id().find(f.pattern) != std::string::npos) job.fault = f.kind;
  }
  return job;
}

// The pending runs' jobs; porting runs are set aside for last (once every other run has stored its kernels:
// they port the best of them), library runs without a kernel to run are recorded as such by run().
void Sweep::add_run_jobs() {
  std::map<std::string, std::vector<library::KernelEntry>> library_kernels;  // by library file
  for (size_t i : pending_) {
    const auto& run = plan_.runs[i];
    const auto& agent = plan_.agent(run.key.agent);
    if (!agent.port_from.empty()) {
      porting_.push_back(i);
      continue;
    }
    JobSpec job = make_job(run, agent);
    if (agent.kind == AgentSpec::Kind::kLibrary) {
      if (!library_kernels.count(agent.library_file))
        library_kernels[agent.library_file] = ResultStore(agent.library_file).kernels();
      const auto kernel = best_kernel_to_port(library_kernels[agent.library_file], run.key.platform, run.key);
      if (!kernel) {
        no_library_kernel_.emplace_back(
            i, fmt::format("no library kernel: {} has no passing kernel of {} {} on {}", agent.library_file,
                           run.key.task, run.key.config, run.key.platform));
        continue;
      }
      job.kernel = kernel->source;
      job.language = kernel->language;
    }
    add_job(std::move(job), "", plan_.costs[i]);
  }
}

// The sweep's row in the store, and the models its jobs need.
void Sweep::begin() {
  info_.started_at = utc_now();
  info_.status = "running";
  info_.command = o_.command_line;
  info_.kcraft_version = kcraft_version();
  info_.git_commit = kcraft_git_commit();
  info_.host = host_name();
  info_.shard = o_.filters.shard.to_string();
  info_.jobs = o_.jobs;
  info_.planned = plan_.runs.size();
  store_.begin_sweep(info_);
  result_.sweep_id = info_.id;
  build_hw_models();
}

// Hardware configurations not compiled into this binary are built (or checked) here, once, with a progress
// line, before any worker starts: each worker then finds its model ready (tb/common/hw_variants.h).
void Sweep::build_hw_models() {
  std::set<std::pair<std::string, std::string>> targets;
  for (const auto& job : jobs_) targets.emplace(job.key.platform, job.key.hw_config);
  for (const auto& run : plan_.runs) {
    if (!plan_.agent(run.key.agent).port_from.empty() && !finished_.count(run.key))
      targets.emplace(run.key.platform, run.key.hw_config);
  }
  for (const auto& [platform, hw] : targets) {
    try {
      tb::ensure_hw_model(platform, hw, out_);
    } catch (const std::invalid_argument&) {
      // this kcraft cannot build models (no build information): its workers say what they lack
    }
  }
}

void Sweep::run() {
  progress_.emplace(out_, o_.progress, plan_.runs.size(), result_.already_done, total_cost_);
  PoolOptions pool;
  pool.workers = std::max(1u, o_.jobs);
  pool.job_timeout_seconds = o_.job_timeout_seconds;
  pool.worker_argv = o_.worker_argv.empty() ? default_worker_argv() : o_.worker_argv;
  record_runs_without_library_kernel();
  PoolEvents events;
  events.started = [this](size_t job) { progress_->started(jobs_[first_job_ + job].key); };
  events.finished = [this](size_t job, RunRecord record) { record_run(first_job_ + job, std::move(record)); };
  events.tick = [this] { progress_->tick(); };
  events.stop_requested = [] { return g_stop != 0; };
  StopSignals signals;
  result_.interrupted = !run_jobs(jobs_, pool, events);
  if (!result_.interrupted && !porting_.empty()) run_porting(pool, events);
}

void Sweep::record_runs_without_library_kernel() {
  for (const auto& [i, why] : no_library_kernel_) {
    const auto& run = plan_.runs[i];
    add_job(make_job(run, plan_.agent(run.key.agent)), "", 0);
    RunRecord none = error_record(run.key, run.level, why);
    none.status = kNoLibraryKernel;
    none.agent_settings = {{"kind", "library"}};
    progress_->started(run.key);
    record_run(jobs_.size() - 1, std::move(none));
  }
  // Those jobs were recorded already; the pool runs the ones before them.
  jobs_.resize(jobs_.size() - no_library_kernel_.size());
  job_cells_.resize(jobs_.size());
  job_costs_.resize(jobs_.size());
}

// Each porting run gets the best passing kernel its source platform has in the store now (this sweep's runs
// included); without one it is stored as "no kernel to port", never run unported.
void Sweep::run_porting(const PoolOptions& pool, PoolEvents events) {
  const auto kernels = store_.kernels();
  first_job_ = jobs_.size();
  for (size_t i : porting_) {
    const auto& run = plan_.runs[i];
    const auto& agent = plan_.agent(run.key.agent);
    JobSpec job = make_job(run, agent);
    if (auto port = best_kernel_to_port(kernels, agent.port_from, run.key)) job.port = std::move(*port);
    add_job(std::move(job), "", plan_.costs[i]);
  }
  std::vector<JobSpec> to_run;
  std::vector<size_t> to_run_index;
  for (size_t j = first_job_; j < jobs_.size(); ++j) {
    if (!jobs_[j].port.empty()) {
      to_run.push_back(jobs_[j]);
      to_run_index.push_back(j);
      continue;
    }
    const std::string& from = plan_.agent(jobs_[j].key.agent).port_from;
    RunRecord none = error_record(jobs_[j].key, jobs_[j].level,
                                  fmt::format("no kernel to port: the results store has no passing kernel "
                                              "of {} {} on {} (run an agent there first)",
                                              jobs_[j].key.task, jobs_[j].key.config, from));
    none.status = kNoKernelToPort;
    none.agent_settings = {
        {"kind", "llm"}, {"workflow", jobs_[j].workflow}, {"port_from", {{"platform", from}}}};
    progress_->started(jobs_[j].key);
    record_run(j, std::move(none));
  }
  events.started = [&](size_t job) { progress_->started(to_run[job].key); };
  events.finished = [&](size_t job, RunRecord record) { record_run(to_run_index[job], std::move(record)); };
  result_.interrupted = !run_jobs(to_run, pool, events);
}

// A finished job: a run goes into the store (with its cell's tuned baseline, which it may define); a
// tuned-baseline job's result becomes its cell's tuned baseline.
void Sweep::record_run(size_t job, RunRecord record) {
  const auto& spec = jobs_[job];
  record.key = spec.key;  // the parent's key is the one that counts
  record.level = spec.level;
  record.hardware_id = plan_.hardware_for(spec.key.platform, spec.key.hw_config).id;
  record.sweep_id = info_.id;
  record.host = info_.host;
  record.finished_at = utc_now();
  if (record.transcript.empty()) record.transcript = spec.transcript;
  record.dev_seed = spec.dev_seed;
  result_.evaluations_simulated += record.evaluations_simulated;
  result_.evaluations_cached += record.evaluations_cached;
  if (record.kcraft_version.empty()) record.kcraft_version = kcraft_version();
  if (record.git_commit.empty()) record.git_commit = kcraft_git_commit();
  if (!job_cells_[job].empty()) {  // a tuned-baseline job: not a run
    record_tuned_baseline_job(job, record);
    return;
  }
  Cell& cell = cells_.at(cell_id(spec.key));
  const bool defines = !cell.key.search_space.empty() && !cell.tuned &&
                       defines_tuned_baseline(record, cell.key, cell.default_budget);
  if (defines) {
    cell.tuned = tuned_baseline_from_run(record, cell.key,
                                         fmt::format("tuner run {} of sweep {}", spec.key.id(), info_.id));
    ++result_.tuned_from_runs;
  }
  if (cell.tuned) record.set_tuned_baseline(cell.tuned->cycles);
  store_.insert_run(record);
  if (defines) store_.put_tuned_baseline(*cell.tuned);  // and the cell's runs stored before this one
  ++result_.ran;
  if (record.failed_job()) ++result_.failed_jobs;
  progress_->finished(record, job_costs_[job]);
}

void Sweep::record_tuned_baseline_job(size_t job, const RunRecord& record) {
  Cell& cell = cells_.at(job_cells_[job]);
  std::string text;
  if (record.failed_job() || record.git_commit != cell.key.git_commit) {
    ++result_.tuned_failed;
    text = fmt::format("tuned baseline {}: the tuner job failed: {}", job_cells_[job], record.error);
  } else {
    cell.tuned = tuned_baseline_from_run(record, cell.key,
                                         fmt::format("tuned-baseline tuner job of sweep {}", info_.id));
    store_.put_tuned_baseline(*cell.tuned);
    ++result_.tuned_computed;
    text = fmt::format("tuned baseline {}: {} cycles ({} iterations)", job_cells_[job], cell.tuned->cycles,
                       cell.tuned->iterations);
  }
  progress_->side_job_finished(text, job_costs_[job]);
}

// The sweep's row completed or interrupted; the cells left without a tuned baseline; the plan's runs as
// stored now.
void Sweep::finish() {
  progress_->finish();
  store_.end_sweep(info_.id, result_.interrupted ? "interrupted" : "completed", result_.ran);
  for (const auto& [id, cell] : cells_) {
    if (!cell.tuned) ++result_.tuned_missing;
  }
  std::set<RunKey> keys;
  for (const auto& r : plan_.runs) keys.insert(r.key);
  for (auto& r : store_.runs()) {
    if (keys.count(r.key)) result_.records.push_back(std::move(r));
  }
}

}  // namespace

SweepResult run_sweep(const SweepOptions& o, const tasks::TaskRegistry& registry,
                      std::ostream& progress_out) {
  const auto t0 = std::chrono::steady_clock::now();
  SweepResult result;
  result.plan = build_plan(o.filters, registry);
  // A broken settings file or a missing API key fails the sweep now, not every one of its runs. Each LLM
  // agent's documentation level is settled here: its `@docs=`, else its file's `docs:`, else what sweeps
  // served before levels existed (the library's examples only with --library-examples).
  for (auto& a : result.plan.agents) {
    if (a.offline()) continue;
    const auto from_file = check_llm_agent(a.settings_file);
    if (a.docs.empty()) {
      const agent::DocsLevel by_default =
          o.library_examples ? agent::DocsLevel::kFull : agent::DocsLevel::kGuide;
      a.docs = agent::docs_level_name(from_file ? *from_file : by_default);
    }
  }
  Sweep sweep(o, result, progress_out);
  sweep.plan();
  sweep.begin();
  sweep.run();
  sweep.finish();
  result.wall_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return result;
}

}  // namespace kcraft::bench
