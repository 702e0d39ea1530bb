#include "cli/sweep.h"

#include <fmt/format.h>

#include <sys/resource.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <iostream>
#include <iterator>
#include <set>
#include <thread>

#include "agent/bench/report.h"
#include "agent/bench/store.h"
#include "agent/bench/sweep.h"
#include "agent/bench/worker.h"
#include "tb/common/evaluation.h"
#include "tb/common/paths.h"

namespace kcraft::cli {

namespace {

struct BenchArgs {
  std::vector<std::string> platforms, hw, tasks, configs, agents{"tuner"}, faults;
  std::vector<int> levels;
  unsigned attempts = 1;
  unsigned jobs = std::max(1u, std::thread::hardware_concurrency());
  std::string db = "results/kcraft.db";
  std::string shard = "0/1";
  std::string transcripts;
  std::string progress = "auto";
  uint64_t seed = 1;
  unsigned budget = 0;
  double job_timeout = 3600;
  bool retry_errors = false;
  bool rerun = false;
  bool no_counters = false;
  bool library_examples = false;
  bool full = false;
  bool no_cache = false;
  std::string tuned_baseline = "auto";
  std::string compiler_baseline = "auto";
};

// The command as typed, for the sweeps table.
std::string command_line_text() {
  std::ifstream in("/proc/self/cmdline", std::ios::binary);
  std::string all((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>()), s;
  for (char c : all) s += c == '\0' ? ' ' : c;
  while (!s.empty() && s.back() == ' ') s.pop_back();
  return s;
}

bench::Progress::Mode progress_mode(const std::string& text) {
  if (text == "auto") return bench::Progress::Mode::kAuto;
  if (text == "line") return bench::Progress::Mode::kLine;
  if (text == "plain") return bench::Progress::Mode::kPlain;
  if (text == "none") return bench::Progress::Mode::kQuiet;
  throw UsageError("--progress expects auto, line, plain or none, got '" + text + "'");
}

bench::SweepOptions sweep_options(const BenchArgs& a) {
  bench::SweepOptions o;
  o.filters.platforms = a.platforms;
  o.filters.hw_configs = a.hw;
  o.filters.tasks = a.tasks;
  o.filters.levels = a.levels;
  o.filters.configs = a.configs;
  o.filters.agents = a.agents;
  o.filters.attempts = a.attempts;
  o.filters.full = a.full;
  try {
    o.filters.shard = bench::Shard::parse(a.shard);
    o.tuned_baselines = bench::parse_tuned_baseline_mode(a.tuned_baseline);
    o.compiler_baselines = bench::parse_compiler_baseline_mode(a.compiler_baseline);
    for (const auto& f : a.faults) o.faults.push_back(bench::FaultInjection::parse(f));
  } catch (const std::invalid_argument& e) {
    throw UsageError(e.what());
  }
  if (a.jobs == 0) throw UsageError("--jobs must be at least 1");
  o.jobs = a.jobs;
  o.db = a.db;
  o.transcripts = a.transcripts;
  o.seed = a.seed;
  o.budget = a.budget;
  o.job_timeout_seconds = a.job_timeout;
  o.retry_errors = a.retry_errors;
  o.counters = !a.no_counters;
  o.library_examples = a.library_examples;
  o.eval_cache = !a.no_cache;
  o.progress = progress_mode(a.progress);
  return o;
}

// A results database that cannot be used is the user's to fix: report it like bad input (exit 2).
template <typename F>
int store_errors_are_usage_errors(F&& body) {
  try {
    return body();
  } catch (const bench::StoreError& e) {
    throw UsageError(e.what());
  }
}

int exit_code(const bench::SweepResult& r) {
  if (r.interrupted) return 130;
  for (const auto& rec : r.records) {
    if (rec.verdict == verdict_name(Verdict::kHardwareBug)) return kExitHardwareBug;
  }
  for (const auto& rec : r.records) {
    if (rec.failed_job()) return kExitFail;
  }
  return kExitOk;
}

nlohmann::json left_out_json(const bench::SweepPlan& plan) {
  auto cells = nlohmann::json::array();
  for (const auto& c : plan.left_out) {
    cells.push_back({{"platform", c.platform},
                     {"hw_config", c.hw_config},
                     {"task", c.task},
                     {"config", c.config},
                     {"reason", c.reason}});
  }
  return cells;
}

int run_bench(const GlobalOptions& g, const BenchArgs& a, const std::string& command) {
  auto options = sweep_options(a);
  options.command_line = command;
  const auto registry = tasks::TaskRegistry::load_directory(task_spec_dir());
  if (a.rerun) {
    // Forget the plan's stored runs first, so that every one of them runs again.
    auto plan = bench::build_plan(options.filters, registry);
    bench::ResultStore store(options.db);
    std::vector<bench::RunKey> keys;
    for (const auto& r : plan.runs) keys.push_back(r.key);
    store.delete_runs(keys);
  }
  const auto result = bench::run_sweep(options, registry, std::cerr);
  bench::ResultStore store(options.db);
  const auto data = bench::report_data_for(store, result.plan.runs);
  if (g.json) {
    auto j = bench::report_json(data);
    j["sweep"] = {
        {"id", result.sweep_id},
        {"planned", result.plan.runs.size()},
        {"already_done", result.already_done},
        {"ran", result.ran},
        {"failed_jobs", result.failed_jobs},
        {"interrupted", result.interrupted},
        {"tuned_baselines",
         {{"already_stored", result.tuned_stored},
          {"from_tuner_runs", result.tuned_from_runs},
          {"computed", result.tuned_computed},
          {"failed", result.tuned_failed},
          {"missing", result.tuned_missing}}},
        {"wall_seconds", result.wall_seconds},
        {"evaluations", {{"simulated", result.evaluations_simulated}, {"cached", result.evaluations_cached}}},
        {"quick", result.plan.quick},
        {"left_out", left_out_json(result.plan)},
        {"db", options.db.string()}};
    std::cout << j.dump(2) << "\n";
  } else {
    std::cout << "\n"
              << bench::coverage_text(result.plan) << bench::success_table(data.metrics)
              << bench::speedup_table(data.metrics) << bench::cycles_table(data.metrics)
              << bench::compiler_table(data.metrics) << "\n"
              << bench::summary_table(data.metrics) << "\n"
              << bench::agents_table(data.metrics) << bench::cost_table(data.metrics)
              << bench::uncertainty_table(data.uncertainty, true) << bench::curves_table(data.curves, true)
              << bench::porting_table(data.metrics)
              << bench::phases_table(data.runs);
    std::cout << fmt::format(
        "\n{} runs planned ({} already stored), {} run now ({} failed jobs) in {}; results: {}{}\n",
        result.plan.runs.size(), result.already_done, result.ran, result.failed_jobs,
        bench::format_duration(result.wall_seconds), options.db.string(),
        result.interrupted ? "; INTERRUPTED: run the same command again to finish" : "");
    if (result.evaluations_simulated + result.evaluations_cached > 0) {
      std::cout << fmt::format("evaluations: {} simulated, {} from the evaluation cache in {}\n",
                               result.evaluations_simulated, result.evaluations_cached, options.db.string());
    }
    std::cout << bench::left_out_text(result.plan);
    std::cout << fmt::format(
        "tuned baselines (the offline tuner's best kernel per cell): {} already stored, {} from this sweep's "
        "tuner runs, {} computed by extra tuner jobs{}{}\n",
        result.tuned_stored, result.tuned_from_runs, result.tuned_computed,
        result.tuned_failed > 0 ? fmt::format(", {} failed", result.tuned_failed) : "",
        result.tuned_missing > 0
            ? fmt::format("; {} cells have none (--tuned-baseline all computes them)", result.tuned_missing)
            : "");
  }
  return exit_code(result);
}

// ---------------------------------------------------------------- bench-speed
// CPU time of reaped child processes (the workers), user + system.
double children_cpu_seconds() {
  rusage usage{};
  ::getrusage(RUSAGE_CHILDREN, &usage);
  auto seconds = [](const timeval& t) {
    return static_cast<double>(t.tv_sec) + static_cast<double>(t.tv_usec) / 1e6;
  };
  return seconds(usage.ru_utime) + seconds(usage.ru_stime);
}

struct BenchSpeedArgs {
  BenchArgs bench;
  std::vector<unsigned> jobs_list{1, 2};
  std::string keep;
};

int run_bench_speed(const GlobalOptions& g, BenchSpeedArgs a) {
  const auto registry = tasks::TaskRegistry::load_directory(task_spec_dir());
  std::filesystem::path dir = a.keep;
  const bool temporary = dir.empty();
  if (temporary) {
    dir = std::filesystem::temp_directory_path() / fmt::format("kcraft-bench-speed-{}", ::getpid());
  }
  std::filesystem::create_directories(dir);
  nlohmann::json rows = nlohmann::json::array();
  size_t planned = 0;
  bool full = false;
  std::string plan_text;
  for (unsigned jobs : a.jobs_list) {
    BenchArgs b = a.bench;
    b.jobs = jobs;
    b.db = (dir / fmt::format("jobs{}.db", jobs)).string();
    std::filesystem::remove(b.db);
    b.transcripts = "none";
    auto options = sweep_options(b);
    options.command_line = fmt::format("kcraft bench-speed (--jobs {})", jobs);
    std::cerr << fmt::format("kcraft bench-speed: --jobs {} ...\n", jobs);
    const double cpu_before = children_cpu_seconds();
    const auto r = bench::run_sweep(options, registry, std::cerr);
    const double cpu = children_cpu_seconds() - cpu_before;
    if (r.interrupted) return 130;
    planned = r.plan.runs.size();
    std::set<std::string> targets, task_names, configs;
    size_t correct = 0, failed = 0;
    for (const auto& rec : r.records) {
      correct += rec.correct() ? 1 : 0;
      failed += rec.failed_job() ? 1 : 0;
    }
    // The whole benchmark: --full with no filter that narrows it, and nothing left out.
    full = b.full && b.platforms.empty() && b.hw.empty() && b.tasks.empty() && b.levels.empty() &&
           b.configs.empty() && b.shard == "0/1" && !r.plan.quick && r.plan.left_out.empty();
    for (const auto& p : r.plan.runs) {
      targets.insert(p.key.target());
      task_names.insert(p.key.task);
      configs.insert(p.key.config);
    }
    plan_text = fmt::format(
        "{} runs: {} tasks x {} configurations x {} platform/hardware configurations x {} agent(s)", planned,
        task_names.size(), configs.size(), targets.size(), r.plan.agents.size());
    rows.push_back(
        {{"jobs", jobs},
         {"runs", r.ran},
         {"wall_seconds", r.wall_seconds},
         {"runs_per_second", r.wall_seconds > 0 ? static_cast<double>(r.ran) / r.wall_seconds : 0.0},
         {"worker_cpu_seconds", cpu},
         {"correct", correct},
         {"failed_jobs", failed}});
  }
  if (temporary) std::filesystem::remove_all(dir);
  const unsigned cores = std::thread::hardware_concurrency();
  if (g.json) {
    nlohmann::json j{
        {"plan", plan_text}, {"runs", planned}, {"cores", cores}, {"results", rows}, {"full_sweep", full}};
    if (full) {
      double best = 1e300;
      for (const auto& row : rows) best = std::min(best, row["wall_seconds"].get<double>());
      j["target_seconds"] = 1800;
      j["target_met"] = best < 1800;
    }
    std::cout << j.dump(2) << "\n";
    return kExitOk;
  }
  std::cout << fmt::format("\nbench-speed: {} ({} cores)\n", plan_text, cores);
  std::cout << fmt::format("{:>5} {:>10} {:>8} {:>9} {:>12} {:>13} {:>9}\n", "jobs", "wall (s)", "runs/s",
                           "correct", "failed jobs", "worker cpu (s)", "cpu/wall");
  for (const auto& row : rows) {
    const double wall = row["wall_seconds"].get<double>(), cpu = row["worker_cpu_seconds"].get<double>();
    std::cout << fmt::format("{:>5} {:>10.1f} {:>8.3f} {:>5}/{:<3} {:>12} {:>14.1f} {:>9.2f}\n",
                             row["jobs"].get<unsigned>(), wall, row["runs_per_second"].get<double>(),
                             row["correct"].get<size_t>(), row["runs"].get<size_t>(),
                             row["failed_jobs"].get<size_t>(), cpu, wall > 0 ? cpu / wall : 0.0);
  }
  std::cout << "(cpu/wall: how many cores the workers got on average; below the worker count, the machine "
               "was busy with other work)\n";
  if (rows.size() >= 2) {
    std::cout << fmt::format(
        "speedup from --jobs {} to --jobs {}: {:.2f}x\n", rows.front()["jobs"].get<unsigned>(),
        rows.back()["jobs"].get<unsigned>(),
        rows.front()["wall_seconds"].get<double>() / rows.back()["wall_seconds"].get<double>());
  }
  double best = 1e300;
  for (const auto& row : rows) best = std::min(best, row["wall_seconds"].get<double>());
  // The aim for the whole benchmark on one 2-core machine: every cell of the full sweep in 30 minutes.
  if (full) {
    std::cout << fmt::format("target (the full sweep under 1800 s): {} (fastest {:.1f} s)\n",
                             best < 1800 ? "met" : "NOT met", best);
  }
  return kExitOk;
}

void add_filter_options(CLI::App* cmd, BenchArgs& a) {
  cmd->add_option("--platforms", a.platforms, "platforms (default: all)")->delimiter(',');
  cmd->add_option("--hw", a.hw,
                  "hardware configurations, NAME or PLATFORM/NAME (default: all; the quick sweep: default)")
      ->delimiter(',');
  cmd->add_option("--tasks", a.tasks, "tasks (default: all)")->delimiter(',');
  cmd->add_option("--levels", a.levels, "task levels 1,2,3 (default: all)")->delimiter(',');
  cmd->add_option("--configs", a.configs, "configurations (default: C1..C5, or the quick sweep's C1-C2)")
      ->delimiter(',');
  cmd->add_flag("--full", a.full,
                "the full sweep: every hardware configuration at C1..C5, no cell left out (default without "
                "--hw and --configs: the quick sweep, each platform's default hardware at C1-C2)");
  cmd->add_option("--attempts", a.attempts, "attempts per configuration")->capture_default_str();
  cmd->add_option("--seed", a.seed, "development seed (run_eval's inputs; scoring uses hidden seeds)")
      ->capture_default_str();
  cmd->add_option("--budget", a.budget, "iterations per run (default by level: 15/20/25)");
  cmd->add_option("--job-timeout", a.job_timeout, "seconds one run may take before its worker is killed")
      ->capture_default_str();
  cmd->add_option("--progress", a.progress,
                  "auto (a line on a terminal, plain lines otherwise), line, plain, none")
      ->capture_default_str();
  cmd->add_flag(
      "--library-examples", a.library_examples,
      "LLM agents may retrieve passing kernels of other tasks/configurations from the store (find_examples): "
      "documentation level full for the LLM agents that name none (`llm:FILE.yaml@docs=LEVEL` names one)");
  cmd->add_flag(
      "--no-counters", a.no_counters,
      "do not store the performance counters of correct kernels (those of the first hidden seed's run)");
  cmd->add_option("--inject-fault", a.faults, "tests: KIND:PATTERN makes matching jobs fail")->group("");
}

}  // namespace

void register_sweep_command(CLI::App& app, GlobalOptions& g, std::function<int()>& run) {
  static BenchArgs a;
  auto* bench_cmd =
      app.add_subcommand("bench", "a benchmark sweep into the results store, then the results tables");
  add_filter_options(bench_cmd, a);
  std::string kinds;
  for (const auto& kind : bench::agent_kinds()) kinds += (kinds.empty() ? "" : ", ") + kind.usage;
  static const std::string agents_help =
      "comma-separated: " + kinds +
      "; an LLM agent may end in @docs=isa|guide|full (docs/agents.md, In the sweep)";
  bench_cmd->add_option("--agents", a.agents, agents_help)->delimiter(',')->capture_default_str();
  bench_cmd->add_option("--jobs,-j", a.jobs, "worker processes")->capture_default_str();
  bench_cmd->add_option("--db", a.db, "results database (SQLite)")->capture_default_str();
  bench_cmd->add_option("--shard", a.shard, "run shard i of N (0 <= i < N) of the sweep")
      ->capture_default_str();
  bench_cmd->add_option("--transcripts", a.transcripts,
                        "transcript directory (default: next to --db; none: keep none)");
  bench_cmd->add_flag("--retry-errors", a.retry_errors,
                      "run again the runs whose job failed (crash, timeout)");
  bench_cmd->add_flag("--rerun", a.rerun, "run every selected run again, replacing stored results");
  bench_cmd->add_flag("--no-cache", a.no_cache,
                      "simulate every evaluation, even those the store's evaluation cache has (--rerun alone "
                      "reruns the agents but takes evaluations from the cache)");
  bench_cmd
      ->add_option("--tuned-baseline", a.tuned_baseline,
                   "cells whose tuned baseline (the offline tuner's best kernel) an extra tuner job "
                   "computes when it is not stored: auto (cells with LLM runs), all, none")
      ->capture_default_str();
  bench_cmd
      ->add_option("--compiler-baseline", a.compiler_baseline,
                   "runs that simulate their compiler baseline when the evaluation cache lacks it: auto "
                   "(C1, C2; the others take it from the cache), all, cached (none)")
      ->capture_default_str();
  bench_cmd->callback([&] {
    const std::string command = command_line_text();
    run = [&, command] { return store_errors_are_usage_errors([&] { return run_bench(g, a, command); }); };
  });

  static BenchSpeedArgs s;
  s.bench.agents = {"baseline"};
  auto* speed = app.add_subcommand(
      "bench-speed", "time the baseline sweep at --jobs 1 and 2: wall time and runs per second");
  add_filter_options(speed, s.bench);
  speed->add_option("--agents", s.bench.agents, "agents")->delimiter(',')->capture_default_str();
  speed->add_option("--jobs-list", s.jobs_list, "worker counts to time")
      ->delimiter(',')
      ->capture_default_str();
  speed->add_option("--keep", s.keep, "keep the results databases in this directory");
  speed->callback(
      [&] { run = [&] { return store_errors_are_usage_errors([&] { return run_bench_speed(g, s); }); }; });

  auto* worker = app.add_subcommand("bench-worker", "a sweep's worker process (JSON lines on stdin/stdout)");
  worker->group("");  // internal: not in --help
  worker->callback([&] { run = [] { return bench::worker_main(); }; });
}

}  // namespace kcraft::cli
