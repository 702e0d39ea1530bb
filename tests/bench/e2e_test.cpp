// `kcraft bench` and `kcraft report` end to end: kill-and-resume, crashed and hung workers, shards and
// their merge, the Slurm scripts, the speed benchmark, and the HTML report rendered in Chromium.
#include <fcntl.h>
#include <fmt/format.h>
#include <gtest/gtest.h>
#include <pty.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <random>
#include <regex>
#include <set>
#include <thread>

#include "agent/bench/metrics.h"
#include "agent/bench/plan.h"
#include "agent/bench/report.h"
#include "agent/bench/store.h"
#include "tb/common/paths.h"
#include "tests/bench/test_util.h"

namespace kcraft::bench {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

struct Proc {
  int code = -1;  // exit status, or 128 + signal
  std::string out, err;
};

std::string slurp(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

std::vector<std::string> split_args(const std::string& args) {
  std::vector<std::string> v;
  std::istringstream ss(args);
  for (std::string a; ss >> a;) v.push_back(a);
  return v;
}

// Starts argv with stdout/stderr in files and KCRAFT_BENCH_TEST_TAG=tag in its environment.
pid_t start(const std::vector<std::string>& argv, const fs::path& out, const fs::path& err,
            const std::string& tag) {
  const pid_t pid = ::fork();
  if (pid == 0) {
    const int o = ::open(out.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    const int e = ::open(err.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    ::dup2(o, 1);
    ::dup2(e, 2);
    const int null = ::open("/dev/null", O_RDONLY);
    ::dup2(null, 0);
    ::setenv("KCRAFT_BENCH_TEST_TAG", tag.c_str(), 1);
    std::vector<char*> args;
    for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
    args.push_back(nullptr);
    ::execv(args[0], args.data());
    ::_exit(127);
  }
  return pid;
}

int wait_for(pid_t pid) {
  int status = 0;
  ::waitpid(pid, &status, 0);
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

Proc run(const std::vector<std::string>& argv, const fs::path& dir, const std::string& tag = "none") {
  static int n = 0;
  const fs::path out = dir / ("out" + std::to_string(n) + ".txt"),
                 err = dir / ("err" + std::to_string(n++) + ".txt");
  Proc p;
  p.code = wait_for(start(argv, out, err, tag));
  p.out = slurp(out);
  p.err = slurp(err);
  return p;
}

Proc kcraft(const std::string& args, const fs::path& dir) {
  auto argv = split_args(args);
  argv.insert(argv.begin(), KCRAFT_BIN);
  return run(argv, dir);
}

// Processes (other than the test) whose environment carries the tag: workers left behind.
std::vector<pid_t> tagged_processes(const std::string& tag) {
  std::vector<pid_t> pids;
  const std::string needle = "KCRAFT_BENCH_TEST_TAG=" + tag;
  for (const auto& entry : fs::directory_iterator("/proc")) {
    const std::string name = entry.path().filename();
    if (name.find_first_not_of("0123456789") != std::string::npos) continue;
    const std::string env = slurp(entry.path() / "environ");
    for (size_t at = 0; at < env.size();) {
      const size_t end = env.find('\0', at);
      if (env.compare(at, (end == std::string::npos ? env.size() : end) - at, needle) == 0) {
        // Zombies keep no environment; a process listed here is alive.
        pids.push_back(std::stoi(name));
        break;
      }
      if (end == std::string::npos) break;
      at = end + 1;
    }
  }
  return pids;
}

bool no_tagged_processes_within(const std::string& tag, std::chrono::seconds limit) {
  const auto until = std::chrono::steady_clock::now() + limit;
  while (!tagged_processes(tag).empty()) {
    if (std::chrono::steady_clock::now() > until) return false;
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  return true;
}

// The parts of a run that must not depend on when or where it ran.
json outcome(const RunRecord& r) {
  return {{"key", r.key.id()},
          {"status", r.status},
          {"error", r.error},
          {"verdict", r.verdict},
          {"seeds", r.seed_verdicts},
          {"cycles", r.cycles},
          {"baseline_cycles", r.baseline_cycles},
          {"speedup", r.speedup},
          {"utilization", r.utilization},
          {"iterations", r.iterations},
          {"budget", r.budget},
          {"first_valid", r.first_valid_iteration ? json(*r.first_valid_iteration) : json(nullptr)},
          {"first_pass", r.first_pass_iteration ? json(*r.first_pass_iteration) : json(nullptr)},
          {"evaluations", r.evaluations},
          {"counters", r.counters},
          {"kernel", r.kernel},
          {"hardware", r.hardware_id},
          {"dev_seed", r.dev_seed}};
}

json outcomes(const fs::path& db) {
  json j = json::array();
  ResultStore store(db);
  for (const auto& r : store.runs()) j.push_back(outcome(r));
  return j;
}

std::set<RunKey> stored_keys(const fs::path& db) {
  ResultStore store(db);
  return store.finished_keys();
}

std::string tables(const fs::path& db) {
  ResultStore store(db);
  const auto d = load_report_data(store);
  return success_table(d.metrics) + speedup_table(d.metrics);
}

std::set<RunKey> planned_keys(const std::string& filter_args) {
  SweepFilters f;
  const auto args = split_args(filter_args);
  auto list = [](const std::string& s) {
    std::vector<std::string> v;
    std::stringstream ss(s);
    for (std::string x; std::getline(ss, x, ',');) v.push_back(x);
    return v;
  };
  for (size_t i = 0; i + 1 < args.size(); i += 2) {
    if (args[i] == "--tasks") f.tasks = list(args[i + 1]);
    if (args[i] == "--configs") f.configs = list(args[i + 1]);
    if (args[i] == "--hw") f.hw_configs = list(args[i + 1]);
    if (args[i] == "--platforms") f.platforms = list(args[i + 1]);
    if (args[i] == "--agents") f.agents = list(args[i + 1]);
  }
  const auto reg = tasks::TaskRegistry::load_directory(task_spec_dir());
  std::set<RunKey> keys;
  for (const auto& r : build_plan(f, reg).runs) keys.insert(r.key);
  return keys;
}

// A sweep of 72 short runs (two agents, two attempts, both hardware configurations).
const std::string kSweep =
    "--platforms systolic --tasks relu,gemm,softmax --configs C1,C2,C3 --agents baseline,tuner --budget 3 "
    "--attempts 2";

TEST(BenchE2E, KilledThreeTimesAtRandomThenResumedEqualsAnUninterruptedSweep) {
  const auto dir = testing::fresh_dir("kill");
  const auto t0 = std::chrono::steady_clock::now();
  const auto reference = kcraft("bench " + kSweep + " --jobs 2 --db " + (dir / "ref.db").string(), dir);
  const auto sweep_ms =
      std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - t0);
  ASSERT_EQ(reference.code, 0) << reference.err << reference.out;
  const auto expected = outcomes(dir / "ref.db");
  ASSERT_EQ(expected.size(), 72u);

  std::random_device rd;
  const unsigned seed = rd();
  std::mt19937 rng(seed);
  SCOPED_TRACE("kill times from seed " + std::to_string(seed));
  auto argv =
      split_args("bench " + kSweep + " --jobs 2 --progress plain --db " + (dir / "killed.db").string());
  argv.insert(argv.begin(), KCRAFT_BIN);
  size_t before = 0;
  bool killed_midway = false;
  for (int k = 0; k < 3; ++k) {
    const std::string tag = "kill" + std::to_string(seed) + "_" + std::to_string(k);
    const pid_t pid = start(argv, dir / "k_out.txt", dir / "k_err.txt", tag);
    // Random moments: between 5% and 50% of an uninterrupted sweep's time after each start.
    const auto ms = static_cast<int>(sweep_ms.count());
    std::this_thread::sleep_for(
        std::chrono::milliseconds(std::uniform_int_distribution<int>(ms / 20, ms / 2)(rng)));
    ::kill(pid, SIGKILL);
    const int code = wait_for(pid);
    EXPECT_TRUE(code == 128 + SIGKILL || code == 0) << code;  // 0: it finished before the kill
    EXPECT_TRUE(no_tagged_processes_within(tag, std::chrono::seconds(5)))
        << "workers outlived the killed sweep";
    const auto keys = stored_keys(dir / "killed.db");
    EXPECT_GE(keys.size(), before);  // nothing finished is ever lost
    if (keys.size() > before && keys.size() < expected.size()) killed_midway = true;
    before = keys.size();
  }
  EXPECT_TRUE(killed_midway) << "no kill landed in the middle of the sweep (rows: " << before << ")";
  const auto resumed = run(argv, dir);
  ASSERT_EQ(resumed.code, 0) << resumed.err;
  EXPECT_NE(resumed.out.find(std::to_string(before) + " already stored"), std::string::npos) << resumed.out;
  EXPECT_EQ(outcomes(dir / "killed.db"), expected);  // same rows, each once (the key is the primary key)
  EXPECT_EQ(tables(dir / "killed.db"), tables(dir / "ref.db"));
  // Running it once more runs nothing.
  const auto again = kcraft("bench " + kSweep + " --jobs 2 --db " + (dir / "killed.db").string(), dir);
  EXPECT_EQ(again.code, 0);
  EXPECT_NE(again.out.find("72 already stored), 0 run now"), std::string::npos) << again.out;
  EXPECT_EQ(outcomes(dir / "killed.db"), expected);
  fs::remove_all(dir);
}

TEST(BenchE2E, CrashedHungAndFailingJobsAreRecordedAndTheSweepGoesOn) {
  const auto dir = testing::fresh_dir("faults");
  const std::string db = (dir / "f.db").string();
  const std::string base =
      "bench --platforms systolic --tasks relu --hw small --agents baseline --jobs 2 --progress auto --db " +
      db;
  const auto tag = "faults" + std::to_string(::getpid());
  auto argv = split_args(base +
                         " --job-timeout 6 --inject-fault crash:relu/C2/ --inject-fault throw:relu/C3/ "
                         "--inject-fault exit:relu/C4/ --inject-fault hang:relu/C5/");
  argv.insert(argv.begin(), KCRAFT_BIN);
  const auto t0 = std::chrono::steady_clock::now();
  const auto p = run(argv, dir, tag);
  EXPECT_LT(std::chrono::steady_clock::now() - t0, std::chrono::seconds(60));
  EXPECT_EQ(p.code, 1) << p.err << p.out;  // failed jobs: exit 1
  EXPECT_TRUE(no_tagged_processes_within(tag, std::chrono::seconds(5))) << "the hung worker was not killed";
  std::map<std::string, RunRecord> by_config;
  {
    ResultStore store(db);
    for (const auto& r : store.runs()) by_config[r.key.config] = r;
  }
  ASSERT_EQ(by_config.size(), 5u);
  auto expect_error = [&](const char* config, const char* text) {
    const auto& r = by_config[config];
    EXPECT_EQ(r.status, "error") << config;
    EXPECT_EQ(r.verdict, "error") << config;
    EXPECT_NE(r.error.find(text), std::string::npos) << config << ": " << r.error;
  };
  // C1 is tiny: it passes well within the timeout even on a loaded machine.
  EXPECT_EQ(by_config["C1"].verdict, "pass");
  expect_error("C2", "killed by signal 11");
  expect_error("C3", "injected failure");
  expect_error("C4", "exited with status 7");
  expect_error("C5", "exceeded the 6 s wall-clock timeout");
  // stderr is not a terminal: plain progress lines, one per run, with the counts.
  EXPECT_NE(p.err.find("[5/5] 1 pass, 0 fail, 4 error"), std::string::npos) << p.err;
  EXPECT_EQ(p.err.find("\r"), std::string::npos);

  // Errors are results: a plain re-run keeps them; --retry-errors runs them again.
  auto again = kcraft(base, dir);
  EXPECT_EQ(again.code, 1);
  EXPECT_NE(again.out.find("5 already stored), 0 run now"), std::string::npos) << again.out;
  auto retry = kcraft(base + " --retry-errors", dir);
  EXPECT_EQ(retry.code, 0) << retry.err;
  EXPECT_NE(retry.out.find("1 already stored), 4 run now (0 failed jobs)"), std::string::npos) << retry.out;
  ResultStore store(db);
  for (const auto& r : store.runs()) EXPECT_EQ(r.verdict, "pass") << r.key.id();
  fs::remove_all(dir);
}

TEST(BenchE2E, ProgressIsOneLineOnATerminalAndCtrlCStopsCleanly) {
  const auto dir = testing::fresh_dir("tty");
  const std::string db = (dir / "t.db").string();
  // On a pseudo-terminal: the progress line is redrawn in place ("\r" + clear to end of line).
  int master = -1;
  const pid_t pid = ::forkpty(&master, nullptr, nullptr, nullptr);
  ASSERT_GE(pid, 0);
  if (pid == 0) {
    ::execl(KCRAFT_BIN, KCRAFT_BIN, "bench", "--platforms", "systolic", "--tasks", "relu,silu", "--configs",
            "C1,C2", "--hw", "small", "--agents", "baseline", "--db", db.c_str(),
            static_cast<char*>(nullptr));
    ::_exit(127);
  }
  std::string screen;
  char buf[4096];
  for (ssize_t n; (n = ::read(master, buf, sizeof buf)) > 0;) screen.append(buf, static_cast<size_t>(n));
  ::close(master);
  EXPECT_EQ(wait_for(pid), 0) << screen;
  EXPECT_NE(screen.find("\r\033[K[4/4] 4 pass, 0 fail, 0 error"), std::string::npos) << screen;
  EXPECT_NE(screen.find("ETA"), std::string::npos);
  EXPECT_NE(screen.find("total              | 4/4"), std::string::npos) << screen;

  // SIGINT (Ctrl-C) while runs are in flight: exit 130, the sweep is marked interrupted, no worker is
  // left, finished runs are kept, and the next invocation finishes the rest.
  const std::string sweep =
      "bench --platforms systolic --tasks gemm,softmax,linear --configs C3,C4 --agents baseline --jobs 2 "
      "--db " +
      db;
  auto argv = split_args(sweep);
  argv.insert(argv.begin(), KCRAFT_BIN);
  const std::string tag = "sigint" + std::to_string(::getpid());
  const pid_t bench = start(argv, dir / "i_out.txt", dir / "i_err.txt", tag);
  // Interrupt once a worker runs (the sweep itself and a worker carry the tag): a fixed delay raced the
  // planning of an instrumented build on a loaded machine, before the sweep handles SIGINT.
  int status = 0;
  const auto give_up = std::chrono::steady_clock::now() + std::chrono::seconds(120);
  while (tagged_processes(tag).size() < 2 && ::waitpid(bench, &status, WNOHANG) == 0 &&
         std::chrono::steady_clock::now() < give_up)
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  ASSERT_EQ(::waitpid(bench, &status, WNOHANG), 0) << "the sweep ended before it could be interrupted";
  ASSERT_GE(tagged_processes(tag).size(), 2u) << "no worker started within two minutes";
  ::kill(bench, SIGINT);
  EXPECT_EQ(wait_for(bench), 130) << slurp(dir / "i_err.txt");
  EXPECT_TRUE(no_tagged_processes_within(tag, std::chrono::seconds(5)));
  EXPECT_NE(slurp(dir / "i_out.txt").find("INTERRUPTED"), std::string::npos) << slurp(dir / "i_out.txt");
  {
    ResultStore store(db);
    const auto sweeps = store.sweeps();
    ASSERT_EQ(sweeps.size(), 2u);
    size_t interrupted = 0;
    for (const auto& s : sweeps) interrupted += s.status == "interrupted" ? 1 : 0;
    EXPECT_EQ(interrupted, 1u);
  }
  const auto done = kcraft(sweep, dir);
  EXPECT_EQ(done.code, 0) << done.err;
  EXPECT_EQ(stored_keys(db).size(), 4u + 12u);
  fs::remove_all(dir);
}

TEST(BenchE2E, BadInputIsAUsageErrorThatNamesTheCulprit) {
  const auto dir = testing::fresh_dir("badinput");
  const std::string db = (dir / "never.db").string();
  std::ofstream(dir / "text.db") << "not a database, just text that is long enough to be read as a header\n";
  std::ofstream(dir / "typo.yaml") << "provider: openai\nbase_url: http://127.0.0.1:9/v1\nmodl: m\n";
  std::ofstream(dir / "nokey.yaml") << "provider: openai\nbase_url: http://127.0.0.1:9/v1\nmodel: m\n"
                                       "api_key_env: KCRAFT_TEST_UNSET_KEY_VARIABLE\n";
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"bench --platforms systolic --agents gpt --db " + db, "unknown agent 'gpt'"},
      {"bench --platforms systolic --shard 3/3 --db " + db, "--shard"},
      {"bench --platforms systolic --tasks gemmm --db " + db, "gemmm"},
      {"bench --platforms systolic --hw huge --db " + db, "huge"},
      {"bench --platforms systolic --jobs 0 --db " + db, "--jobs"},
      {"bench --platforms systolic --agents llm:" + (dir / "typo.yaml").string() + " --db " + db,
       "typo.yaml: modl: unknown field"},
      {"bench --platforms systolic --agents llm:" + (dir / "nokey.yaml").string() + " --db " + db,
       "KCRAFT_TEST_UNSET_KEY_VARIABLE"},
      {"bench --platforms systolic --agents workflow:nosuch:" + (dir / "nokey.yaml").string() + " --db " + db,
       "nosuch"},
      {"bench --platforms systolic --agents workflow:default:" + (dir / "typo.yaml").string() + " --db " + db,
       "typo.yaml: modl: unknown field"},
      {"bench --platforms systolic --agents port:tpu:" + (dir / "nokey.yaml").string() + " --db " + db,
       "unknown platform 'tpu'"},
      {"bench --platforms systolic --tasks relu --configs C1 --db " + (dir / "text.db").string(), "text.db"},
      {"report --db " + (dir / "text.db").string(), "text.db"},
      {"report --db " + db + " --merge " + (dir / "missing.db").string(), "missing.db"},
  };
  for (const auto& [args, message] : cases) {
    const auto p = kcraft(args, dir);
    EXPECT_EQ(p.code, 2) << args << "\n" << p.err;
    EXPECT_NE(p.err.find(message), std::string::npos) << args << "\n" << p.err;
  }
  EXPECT_FALSE(fs::exists(db));  // nothing was created for a sweep that never started
  fs::remove_all(dir);
}

// Both platforms: shards split and merges join runs of every platform alike.
const std::string kShardSweep =
    "--platforms systolic,vliw --tasks relu,silu,gemm --configs C1,C2 --agents baseline";

TEST(BenchE2E, ShardsAreDisjointTheirUnionIsTheSweepAndReportMergesThem) {
  const auto dir = testing::fresh_dir("shards");
  const auto full = planned_keys(kShardSweep);
  ASSERT_EQ(full.size(), 24u);
  std::set<RunKey> seen;
  size_t total = 0;
  std::string merge_args;
  for (int i = 0; i < 3; ++i) {
    const auto db = dir / ("shard" + std::to_string(i) + ".db");
    const auto p =
        kcraft(fmt::format("bench {} --jobs 1 --shard {}/3 --db {}", kShardSweep, i, db.string()), dir);
    ASSERT_EQ(p.code, 0) << p.err;
    const auto keys = stored_keys(db);
    for (const auto& k : keys) EXPECT_FALSE(seen.count(k)) << k.id() << " is in two shards";
    seen.insert(keys.begin(), keys.end());
    total += keys.size();
    merge_args += " " + db.string();
  }
  EXPECT_EQ(total, full.size());
  EXPECT_EQ(seen, full);
  const auto merged = kcraft("report --db " + (dir / "merged.db").string() + " --merge" + merge_args, dir);
  ASSERT_EQ(merged.code, 0) << merged.err;
  EXPECT_EQ(stored_keys(dir / "merged.db"), full);
  EXPECT_NE(merged.out.find("| systolic/default | systolic/small | vliw/default | vliw/small"),
            std::string::npos)
      << merged.out;
  EXPECT_NE(merged.out.find("total              | 6/6              | 6/6            | 6/6          | 6/6"),
            std::string::npos)
      << merged.out;
  // Merging a shard twice duplicates nothing.
  const auto twice =
      kcraft("report --db " + (dir / "merged.db").string() + " --merge " + (dir / "shard0.db").string(), dir);
  EXPECT_EQ(twice.code, 0);
  EXPECT_NE(twice.err.find("0 runs added"), std::string::npos) << twice.err;
  EXPECT_EQ(stored_keys(dir / "merged.db").size(), full.size());
  fs::remove_all(dir);
}

TEST(BenchE2E, SlurmArrayScriptRunsEachShardAndTheMergeStepJoinsThem) {
  // Without a cluster: the array task's environment as Slurm sets it, one shard after another, then the
  // merge job, exactly as sbatch would run the scripts.
  const auto dir = testing::fresh_dir("slurm");
  const fs::path scripts = fs::path(KCRAFT_SOURCE_DIR) / "scripts" / "slurm";
  const std::string env = fmt::format("KCRAFT={} KCRAFT_RESULTS={}", KCRAFT_BIN, (dir / "results").string());
  for (int i = 1; i <= 3; ++i) {  // --array=1-3: indices need not start at 0
    const auto p =
        run({"/bin/sh", "-c",
             fmt::format("{} SLURM_ARRAY_TASK_ID={} SLURM_ARRAY_TASK_MIN=1 SLURM_ARRAY_TASK_COUNT=3 "
                         "SLURM_CPUS_PER_TASK=1 bash {} {}",
                         env, i, (scripts / "bench-array.sbatch").string(), kShardSweep)},
            dir);
    ASSERT_EQ(p.code, 0) << p.out << p.err;
  }
  const auto m = run({"/bin/sh", "-c", env + " bash " + (scripts / "merge.sbatch").string()}, dir);
  ASSERT_EQ(m.code, 0) << m.out << m.err;
  EXPECT_EQ(stored_keys(dir / "results" / "merged.db"), planned_keys(kShardSweep));
  EXPECT_TRUE(fs::is_regular_file(dir / "results" / "report.html"));
  EXPECT_TRUE(fs::is_regular_file(dir / "results" / "runs.csv"));
  // Outside an array job the script says what is missing.
  const auto outside =
      run({"/bin/sh", "-c", env + " bash " + (scripts / "bench-array.sbatch").string()}, dir);
  EXPECT_NE(outside.code, 0);
  EXPECT_NE(outside.err.find("SLURM_ARRAY_TASK_ID"), std::string::npos) << outside.err;
  fs::remove_all(dir);
}

TEST(BenchE2E, ReportWritesCsvJsonAndRefusesAMissingDatabase) {
  const auto dir = testing::fresh_dir("report");
  const std::string db = (dir / "r.db").string();
  ASSERT_EQ(kcraft("bench --platforms systolic --tasks relu --configs C1,C2 --hw default --agents "
                   "baseline,tuner --budget 2 --db " +
                       db,
                   dir)
                .code,
            0);
  const auto p = kcraft(fmt::format("report --db {} --csv {} --metrics-csv {} --json", db,
                                    (dir / "runs.csv").string(), (dir / "metrics.csv").string()),
                        dir);
  ASSERT_EQ(p.code, 0) << p.err;
  const auto j = json::parse(p.out);
  EXPECT_EQ(j["runs"].size(), 4u);
  EXPECT_EQ(j["metrics"]["totals"].size(), 2u);
  for (const auto& g : j["metrics"]["totals"]) {
    EXPECT_EQ(g["configs_solved"], 2);
    EXPECT_EQ(g["fast_p"]["0"], 1.0);
    EXPECT_EQ(g["fast_p"]["1"], 1.0);  // never slower than the baseline
  }
  for (const auto& r : j["runs"]) {
    EXPECT_FALSE(r["counters"].empty()) << r.dump();
    EXPECT_EQ(r["cycles"], r["counters"]["cycles"]);
    EXPECT_NE(r["kcraft_version"], "");
    EXPECT_NE(r["git_commit"], "");
    EXPECT_TRUE(fs::is_regular_file(r["transcript"].get<std::string>())) << r["transcript"];
  }
  const auto csv = slurp(dir / "runs.csv");
  EXPECT_EQ(std::count(csv.begin(), csv.end(), '\n'), 5);
  const auto metrics_csv = slurp(dir / "metrics.csv");
  EXPECT_NE(metrics_csv.find("baseline,systolic,default,total,"), std::string::npos) << metrics_csv;
  // --rerun forgets the selected runs and runs them again; the others stay.
  const auto rerun = kcraft(
      "bench --platforms systolic --tasks relu --configs C2 --hw default --agents baseline --rerun --db " +
          db,
      dir);
  EXPECT_EQ(rerun.code, 0) << rerun.err;
  EXPECT_NE(rerun.out.find("1 runs planned (0 already stored), 1 run now"), std::string::npos) << rerun.out;
  EXPECT_EQ(stored_keys(db).size(), 4u);
  const auto missing = kcraft("report --db " + (dir / "nothing.db").string(), dir);
  EXPECT_EQ(missing.code, 2);
  EXPECT_NE(missing.err.find("nothing.db"), std::string::npos);
  EXPECT_FALSE(fs::exists(dir / "nothing.db"));
  fs::remove_all(dir);
}

// A data root whose systolic `default` configuration has a slower DRAM (a runtime setting: same model).
fs::path root_with_slower_dram(const fs::path& dir) {
  const fs::path source = KCRAFT_SOURCE_DIR, root = dir / "root";
  fs::create_directories(root / "rtl");
  for (const auto& e : fs::directory_iterator(source)) {
    if (e.path().filename() != "rtl" && e.path().filename() != "build")
      fs::create_symlink(e.path(), root / e.path().filename());
  }
  for (const auto& e : fs::directory_iterator(source / "rtl")) {
    if (e.path().filename() != "systolic") fs::create_symlink(e.path(), root / "rtl" / e.path().filename());
  }
  fs::copy(source / "rtl" / "systolic", root / "rtl" / "systolic", fs::copy_options::recursive);
  const fs::path config = root / "rtl" / "systolic" / "configs" / "default.yaml";
  std::string yaml = slurp(config);
  const std::string from = "dram_latency_cycles: 40";
  const auto at = yaml.find(from);
  EXPECT_NE(at, std::string::npos) << "the default configuration's DRAM latency moved: update this test";
  if (at != std::string::npos) yaml.replace(at, from.size(), "dram_latency_cycles: 90");
  std::ofstream(config, std::ios::binary) << yaml;
  return root;
}

TEST(BenchE2E, CompareCatchesASlowerDramAndSaysWhichRunsGotSlower) {
  const auto dir = testing::fresh_dir("compare");
  const std::string before = (dir / "before.db").string(), after = (dir / "after.db").string();
  const std::string sweep =
      "bench --platforms systolic --tasks relu,gemm --configs C1,C2 --hw default "
      "--agents baseline --transcripts none --db ";
  ASSERT_EQ(kcraft(sweep + before, dir).code, 0);
  ASSERT_EQ(kcraft("--root " + root_with_slower_dram(dir).string() + " " + sweep + after, dir).code, 0);
  const auto same = kcraft("compare " + before + " " + before, dir);
  EXPECT_EQ(same.code, 0) << same.out << same.err;
  EXPECT_NE(same.out.find("no regression"), std::string::npos) << same.out;
  // 50 more cycles per DRAM round trip: every run is slower, by more than 2% on these small configurations.
  const auto slower = kcraft("compare " + before + " " + after + " --csv " + (dir / "c.csv").string(), dir);
  EXPECT_EQ(slower.code, 1) << slower.out << slower.err;
  EXPECT_NE(slower.out.find("4 runs got slower than 2%: systolic/default gemm C1 baseline (+"),
            std::string::npos)
      << slower.out;
  EXPECT_NE(slower.out.find("hardware changed"), std::string::npos) << slower.out;
  EXPECT_EQ(std::count_if(slower.out.begin(), slower.out.end(), [](char c) { return c == '\n'; }), 4 + 6)
      << slower.out;  // summary, totals, verdict, blank line, header, a row per run, "wrote"
  const auto csv = slurp(dir / "c.csv");
  EXPECT_EQ(std::count(csv.begin(), csv.end(), '\n'), 5) << csv;
  // A generous threshold lets the relative changes through; the JSON says which side each number is on.
  const auto lenient = kcraft("--json compare " + before + " " + after + " --threshold 1000", dir);
  EXPECT_EQ(lenient.code, 0) << lenient.out << lenient.err;
  const auto j = json::parse(lenient.out);
  EXPECT_EQ(j["regressed"], false);
  for (const auto& r : j["runs"]) EXPECT_GT(r["new"]["cycles"], r["old"]["cycles"]) << r.dump();
  // A file that is not results is a usage error naming it.
  std::ofstream(dir / "notes.txt") << "hello";
  const auto bad = kcraft("compare " + before + " " + (dir / "notes.txt").string(), dir);
  EXPECT_EQ(bad.code, 2);
  EXPECT_NE(bad.err.find("notes.txt"), std::string::npos) << bad.err;
  fs::remove_all(dir);
}

TEST(BenchE2E, SpeedBenchmarkPrintsWallTimeAndRunsPerSecondPerJobCount) {
  const auto dir = testing::fresh_dir("speed");
  const auto p = kcraft(
      "bench-speed --platforms systolic --tasks relu,silu --configs C1 --hw small --json --progress none",
      dir);
  ASSERT_EQ(p.code, 0) << p.err;
  const auto j = json::parse(p.out);
  EXPECT_EQ(j["runs"], 2);
  ASSERT_EQ(j["results"].size(), 2u);
  EXPECT_EQ(j["results"][0]["jobs"], 1);
  EXPECT_EQ(j["results"][1]["jobs"], 2);
  for (const auto& r : j["results"]) {
    EXPECT_EQ(r["runs"], 2);
    EXPECT_EQ(r["correct"], 2);
    EXPECT_GT(r["wall_seconds"].get<double>(), 0);
    EXPECT_NEAR(r["runs_per_second"].get<double>(), 2 / r["wall_seconds"].get<double>(), 1e-9);
  }
  const auto text =
      kcraft("bench-speed --platforms systolic --tasks relu --configs C1 --hw small --progress none", dir);
  ASSERT_EQ(text.code, 0);
  EXPECT_TRUE(std::regex_search(text.out, std::regex(R"(\n +1 +[0-9.]+ +[0-9.]+ +1/1)"))) << text.out;
  EXPECT_TRUE(std::regex_search(text.out, std::regex(R"(\n +2 +[0-9.]+ +[0-9.]+ +1/1)"))) << text.out;
  // A filtered sweep is not the whole benchmark: no verdict on the 30-minute aim.
  EXPECT_EQ(text.out.find("target"), std::string::npos) << text.out;
  EXPECT_EQ(j["full_sweep"], false);
  EXPECT_FALSE(j.contains("target_met"));
  fs::remove_all(dir);
}

// ---------------------------------------------------------------- speedup over the tuned baseline

const RunRecord& row(const std::vector<RunRecord>& runs, const std::string& agent,
                     const std::string& config) {
  for (const auto& r : runs) {
    if (r.key.agent == agent && r.key.config == config) return r;
  }
  throw std::runtime_error("no run of " + agent + " on " + config);
}

TEST(BenchE2E, TunedBaselineComesFromTheSweepsOwnTunerRunsAndIsCachedInTheStore) {
  const auto dir = testing::fresh_dir("tuned");
  const std::string db = (dir / "r.db").string();
  // gemm C4: the tuner beats the template's default knobs (tuner_test); gemm C1: whatever it finds.
  const std::string cells =
      "--platforms systolic --tasks gemm --configs C1,C4 --hw default --progress none --json --db ";

  // The baseline alone: `auto` spends no tuner job on offline agents, so the tuned baseline is not known.
  auto p = kcraft("bench " + cells + db + " --agents baseline", dir);
  ASSERT_EQ(p.code, 0) << p.err;
  auto j = json::parse(p.out);
  EXPECT_EQ(j["sweep"]["tuned_baselines"]["computed"], 0);
  EXPECT_EQ(j["sweep"]["tuned_baselines"]["missing"], 2);
  for (const auto& r : j["runs"]) EXPECT_TRUE(r["tuned_baseline_cycles"].is_null()) << r.dump();

  // With the tuner: its own runs are the tuned baseline (no extra tuner job), and the baseline's rows
  // stored by the first sweep get their speedup over it.
  p = kcraft("bench " + cells + db + " --agents baseline,tuner", dir);
  ASSERT_EQ(p.code, 0) << p.err;
  j = json::parse(p.out);
  EXPECT_EQ(j["sweep"]["ran"], 2);
  EXPECT_EQ(j["sweep"]["tuned_baselines"]["from_tuner_runs"], 2);
  EXPECT_EQ(j["sweep"]["tuned_baselines"]["computed"], 0);
  EXPECT_EQ(j["sweep"]["tuned_baselines"]["missing"], 0);
  std::vector<RunRecord> runs;
  {
    ResultStore store(db);
    runs = store.runs();
    ASSERT_EQ(store.tuned_baselines().size(), 2u);
    for (const auto& t : store.tuned_baselines()) {
      const auto& tuner = row(runs, "tuner", t.key.config);
      EXPECT_EQ(t.cycles, tuner.cycles);
      EXPECT_EQ(t.source.rfind("tuner run systolic/default/gemm/" + t.key.config + "/tuner/1 of sweep ", 0),
                0u)
          << t.source;
      EXPECT_EQ(t.budget, 15u);
    }
  }
  ASSERT_EQ(runs.size(), 4u);
  for (const char* config : {"C1", "C4"}) {
    const auto& tuner = row(runs, "tuner", config);
    const auto& baseline = row(runs, "baseline", config);
    ASSERT_TRUE(tuner.correct() && baseline.correct()) << config;
    ASSERT_TRUE(tuner.tuned_baseline_cycles && baseline.tuned_baseline_cycles) << config;
    EXPECT_EQ(*tuner.tuned_baseline_cycles, tuner.cycles) << config;
    EXPECT_EQ(tuner.tuned_speedup, 1.0) << config;  // by definition, exactly
    EXPECT_EQ(*baseline.tuned_baseline_cycles, tuner.cycles) << config;
    EXPECT_LE(baseline.tuned_speedup, 1.0) << config;
    EXPECT_NEAR(baseline.tuned_speedup, 1.0 / tuner.speedup, 1e-12) << config;
  }
  // Where the tuner beat the default knobs, the baseline is slower than the tuned baseline.
  EXPECT_GT(row(runs, "tuner", "C4").speedup, 1.05);
  EXPECT_LT(row(runs, "baseline", "C4").tuned_speedup, 0.95);
  const auto totals = j["metrics"]["totals"];
  ASSERT_EQ(totals.size(), 2u);
  for (const auto& g : totals) {
    EXPECT_EQ(g["tuned_runs"], 2) << g.dump();
    if (g["agent"] == "tuner") {
      EXPECT_DOUBLE_EQ(g["geomean_tuned_speedup"].get<double>(), 1.0);
      EXPECT_DOUBLE_EQ(g["fast_p_tuned"]["1"].get<double>(), 1.0);
      EXPECT_GT(g["geomean_speedup"].get<double>(), 1.0);
    } else {
      EXPECT_DOUBLE_EQ(g["geomean_speedup"].get<double>(), 1.0);
      EXPECT_LT(g["geomean_tuned_speedup"].get<double>(), 1.0);
      EXPECT_DOUBLE_EQ(g["fast_p_tuned"]["1"].get<double>(), 0.5);  // as fast as the tuner on C1 only
    }
  }

  // The reports carry both: CSV columns, JSON, and the tables.
  p = kcraft(fmt::format("report --db {} --csv {} --json", db, (dir / "runs.csv").string()), dir);
  ASSERT_EQ(p.code, 0) << p.err;
  j = json::parse(p.out);
  EXPECT_EQ(j["tuned_baselines"].size(), 2u);
  for (const auto& r : j["runs"]) {
    EXPECT_TRUE(r["tuned_baseline_cycles"].is_number()) << r.dump();
    EXPECT_TRUE(r["tuned_speedup"].is_number()) << r.dump();
  }
  const std::string csv = slurp(dir / "runs.csv");
  EXPECT_NE(csv.find(",speedup,tuned_baseline_cycles,tuned_speedup,"), std::string::npos);
  const auto& c4 = row(runs, "baseline", "C4");
  EXPECT_NE(csv.find(fmt::format(",{},{},1,{},{:.6g},", c4.cycles, c4.baseline_cycles,
                                 *c4.tuned_baseline_cycles, c4.tuned_speedup)),
            std::string::npos)
      << csv;
  const auto text = kcraft("report --db " + db, dir);
  EXPECT_NE(text.out.find(fmt::format("{:.2f}x/1.00x", row(runs, "tuner", "C4").speedup)), std::string::npos)
      << text.out;
  EXPECT_NE(text.out.find(fmt::format("1.00x/{:.2f}x", c4.tuned_speedup)), std::string::npos) << text.out;

  // A sweep without the tuner computes the tuned baseline on demand (--tuned-baseline all): the same
  // numbers, since the tuner is deterministic. Then the store has it: no tuner job the next time.
  const std::string fresh = (dir / "fresh.db").string();
  p = kcraft("bench " + cells + fresh + " --agents baseline --tuned-baseline all", dir);
  ASSERT_EQ(p.code, 0) << p.err;
  j = json::parse(p.out);
  EXPECT_EQ(j["sweep"]["tuned_baselines"]["computed"], 2);
  EXPECT_EQ(j["sweep"]["ran"], 2);  // the tuner jobs are not runs
  {
    ResultStore store(fresh);
    const auto fresh_runs = store.runs();
    ASSERT_EQ(fresh_runs.size(), 2u);
    for (const auto& r : fresh_runs) {
      EXPECT_EQ(r.tuned_baseline_cycles, row(runs, "tuner", r.key.config).cycles) << r.key.id();
      EXPECT_DOUBLE_EQ(r.tuned_speedup, row(runs, "baseline", r.key.config).tuned_speedup) << r.key.id();
    }
    for (const auto& t : store.tuned_baselines()) {
      EXPECT_EQ(t.source.rfind("tuned-baseline tuner job of sweep ", 0), 0u) << t.source;
      EXPECT_TRUE(fs::is_regular_file(t.transcript)) << t.transcript;
    }
  }
  p = kcraft("bench " + cells + fresh + " --agents baseline --tuned-baseline all --rerun", dir);
  ASSERT_EQ(p.code, 0) << p.err;
  j = json::parse(p.out);
  EXPECT_EQ(j["sweep"]["tuned_baselines"]["already_stored"], 2);
  EXPECT_EQ(j["sweep"]["tuned_baselines"]["computed"], 0);
  for (const auto& r : j["runs"]) EXPECT_TRUE(r["tuned_speedup"].is_number()) << r.dump();
  fs::remove_all(dir);
}

// ---------------------------------------------------------------- HTML in Chromium

std::string chromium_binary() {
  for (const char* name : {"/usr/bin/chromium", "/usr/bin/chromium-browser"}) {
    if (fs::exists(name)) return name;
  }
  return "";
}

size_t count(const std::string& text, const std::string& needle) {
  size_t n = 0;
  for (size_t at = text.find(needle); at != std::string::npos; at = text.find(needle, at + 1)) ++n;
  return n;
}

// The page as headless Chromium leaves it once its script has run (a profile of its own under `dir`).
auto dump_dom(const std::string& chromium, const fs::path& page, const fs::path& dir) {
  return run({chromium, "--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
              "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-dev-shm-usage",
              "--user-data-dir=" + (dir / "profile").string(), "--virtual-time-budget=10000", "--dump-dom",
              "file://" + page.string()},
             dir);
}

TEST(BenchE2E, CompilerBaselinesBeyondC2ComeFromTheEvaluationCacheUnlessAllIsAsked) {
  const auto dir = testing::fresh_dir("compiler_baseline");
  const std::string db = (dir / "r.db").string();
  const std::string cells =
      "bench --agents baseline --platforms rvv --tasks relu --configs C2,C3 --hw default --progress none "
      "--db " +
      db;
  const auto compiler_cycles = [](const json& j, const std::string& config) {
    for (const auto& r : j["runs"]) {
      if (r["config"] == config)
        return std::make_pair(r["compiler_baseline_cycles"].get<uint64_t>(),
                              r["compiler_baseline_not_simulated"].get<bool>());
    }
    ADD_FAILURE() << "no run of " << config;
    return std::make_pair(uint64_t{0}, false);
  };
  // auto: C2's compiler baseline is simulated, C3's is not (the cache is empty), and the table says so.
  auto p = kcraft(cells, dir);
  ASSERT_EQ(p.code, 0) << p.err;
  EXPECT_NE(p.out.find("not simulated"), std::string::npos) << p.out;
  EXPECT_NE(p.out.find("`--compiler-baseline all` simulates them"), std::string::npos) << p.out;
  p = kcraft("--json " + cells, dir);
  ASSERT_EQ(p.code, 0) << p.err;
  auto j = json::parse(p.out);
  const auto c2 = compiler_cycles(j, "C2");
  EXPECT_GT(c2.first, 0u);
  EXPECT_FALSE(c2.second);
  EXPECT_EQ(compiler_cycles(j, "C3"), std::make_pair(uint64_t{0}, true));

  // all, rerun: C3's is simulated (the runs themselves come from the evaluation cache) ...
  p = kcraft("--json " + cells + " --rerun --compiler-baseline all", dir);
  ASSERT_EQ(p.code, 0) << p.err;
  j = json::parse(p.out);
  const auto c3 = compiler_cycles(j, "C3");
  EXPECT_GT(c3.first, c2.first);  // C3 is 8x C2's elements
  EXPECT_FALSE(c3.second);
  EXPECT_EQ(j["sweep"]["evaluations"]["simulated"], 1);  // the C3 compiler baseline's only (first seed)

  // ... and from then on auto (and cached) take it from the cache: nothing is simulated.
  for (const std::string mode : {"auto", "cached"}) {
    p = kcraft("--json " + cells + " --rerun --compiler-baseline " + mode, dir);
    ASSERT_EQ(p.code, 0) << p.err;
    j = json::parse(p.out);
    EXPECT_EQ(compiler_cycles(j, "C3"), c3) << mode;
    EXPECT_EQ(compiler_cycles(j, "C2"), c2) << mode;
    EXPECT_EQ(j["sweep"]["evaluations"]["simulated"], 0) << mode;
  }
  p = kcraft(cells + " --compiler-baseline sometimes", dir);
  EXPECT_EQ(p.code, 2);
  EXPECT_NE(p.err.find("--compiler-baseline expects auto, all or cached, got 'sometimes'"), std::string::npos)
      << p.err;
}

TEST(BenchE2E, HtmlReportRendersInChromiumWithOneMarkPerCell) {
  const std::string chromium = chromium_binary();
  ASSERT_FALSE(chromium.empty()) << "Debian's chromium is not installed: scripts/setup.sh installs it";
  const auto dir = testing::fresh_dir("html");
  // Two agents on two targets; three tasks, of which conv is unsupported on small.
  {
    ResultStore store(dir / "r.db");
    std::vector<RunRecord> runs;
    for (const char* agent : {"baseline", "tuner"}) {
      for (const char* hw : {"default", "small"}) {
        for (const char* task : {"gemm", "relu"}) {
          for (const char* config : {"C1", "C2", "C3"}) {
            const bool fail =
                std::string(agent) == "tuner" && std::string(task) == "relu" && std::string(config) == "C3";
            auto run = testing::make_run(agent, hw, task, 1, config, 1, fail ? "mismatch" : "pass",
                                         std::string(agent) == "tuner" ? 800 : 1000, 1000);
            // The tuned baseline is known everywhere but on gemm C3.
            if (!(std::string(task) == "gemm" && std::string(config) == "C3")) run.set_tuned_baseline(800);
            store.insert_run(run);
          }
        }
        if (std::string(hw) == "default") {
          store.insert_run(testing::make_run(agent, hw, "conv", 2, "C1", 1, "pass", 500, 1000));
        }
      }
    }
    store.add_plan({}, {{"systolic", "small", "conv", "C1", 2, "too big"}}, {});
  }
  ASSERT_EQ(
      kcraft("report --db " + (dir / "r.db").string() + " --html " + (dir / "report.html").string(), dir)
          .code,
      0);
  const auto p = dump_dom(chromium, dir / "report.html", dir);
  ASSERT_EQ(p.code, 0) << p.err;
  const std::string& dom = p.out;
  ASSERT_NE(dom.find("data-rendered=\"ok\""), std::string::npos) << p.err << dom.substr(0, 2000);
  // Heatmap: one cell per (task, agent @ target): 3 tasks x 4 columns.
  EXPECT_EQ(count(dom, "class=\"heat-cell\""), 12u);
  // Speedup and utilisation: one bar per configuration of each (agent, target): 2 x (7 + 6).
  EXPECT_EQ(count(dom, "class=\"speed-bar"), 26u);
  EXPECT_EQ(count(dom, "class=\"util-bar"), 26u);
  EXPECT_EQ(count(dom, "class=\"speed-bar failed\""), 2u);  // tuner relu C3 on both targets
  EXPECT_EQ(count(dom, "class=\"ref-line\""), 4u);
  EXPECT_EQ(count(dom, "class=\"ideal-line\""), 4u);
  EXPECT_EQ(count(dom, "class=\"baseline-mark\""), 24u);  // every solved configuration has a baseline
  // Speedup over the tuned baseline: the same bars, grey where it is not known (gemm C3 in the 4 columns,
  // conv C1 in the 2 columns of systolic/default).
  EXPECT_EQ(count(dom, "class=\"tuned-bar"), 26u);
  EXPECT_EQ(count(dom, "class=\"tuned-bar failed\""), 2u);
  EXPECT_EQ(count(dom, "class=\"tuned-bar no-tuned\""), 6u);
  EXPECT_EQ(count(dom, "class=\"tuned-ref-line\""), 4u);
  EXPECT_NE(dom.find("1.000x over the tuned baseline (800 vs 800 cycles)"), std::string::npos);
  EXPECT_NE(dom.find("0.800x over the tuned baseline (1000 vs 800 cycles)"), std::string::npos);
  EXPECT_NE(dom.find("<th>geomean vs tuned</th>"), std::string::npos);
  EXPECT_EQ(count(dom, "<tr class=\"run"), 26u);
  // The unsupported cell says so.
  EXPECT_NE(dom.find("data-task=\"conv\" data-column=\"tuner@systolic/small\""), std::string::npos);
  // How sure: intervals per (agent, target), and the two agents compared on each target. On small the
  // tuner is 1.25x the baseline on every cell both solved, so every resample gives the same ratio; on default
  // conv (2x for both) moves it, but never to 1: both ratios are marked. The tuner's one failed cell of six
  // or seven is often left out of a resample, so no pass@1 difference is.
  EXPECT_NE(dom.find("id=\"uncertainty-table\""), std::string::npos);
  EXPECT_NE(dom.find("1.250x [1.250x, 1.250x]"), std::string::npos);  // the tuner's geomean on small
  EXPECT_NE(dom.find("0.800x [0.800x, 0.800x] *"), std::string::npos);
  EXPECT_EQ(count(dom, "] *"), 2u) << dom.substr(dom.find("id=\"uncertainty-table\""), 3000);
  EXPECT_EQ(count(dom, "<td class=\"name\">baseline</td><td class=\"name\">tuner</td>") +
                count(dom, "<td class=\"name\">tuner</td><td class=\"name\">baseline</td>"),
            2u);
  // Curves: a line per (agent, target) in each of the three charts. These runs have no trajectory and no
  // transcript: each correct one counts as solved at its last iteration (3 of a budget of 15), the point of
  // every iteration of the budget; from there on a speedup point each.
  for (const char* kind : {"solved-iteration", "solved-tokens", "speedup-iteration"})
    EXPECT_EQ(count(dom, fmt::format("class=\"curve {}\"", kind)), 4u) << kind;
  EXPECT_EQ(count(dom, "class=\"curve-point solved-iteration\""), 4u * 15u);
  EXPECT_EQ(count(dom, "class=\"curve-point speedup-iteration\""), 4u * 13u);
  EXPECT_NE(dom.find("tuner @ systolic/small: within 2 iterations, 0.00 of cells solved"), std::string::npos);
  EXPECT_NE(dom.find("tuner @ systolic/small: within 3 iterations, 0.83 of cells solved"), std::string::npos);
  EXPECT_NE(dom.find("baseline @ systolic/default: within 0 tokens, 1.00 of cells solved"),
            std::string::npos);
  fs::remove_all(dir);
}

// The phases of composite kernels: one stacked bar per correct run, a segment per phase that has cycles
// (and one for the cycles before the first marker), the text report's line per run.
TEST(BenchE2E, HtmlReportShowsWhereTheCyclesGoAsStackedBars) {
  const std::string chromium = chromium_binary();
  ASSERT_FALSE(chromium.empty()) << "Debian's chromium is not installed: scripts/setup.sh installs it";
  const auto dir = testing::fresh_dir("html_phases");
  {
    ResultStore store(dir / "r.db");
    auto phased = [](const char* hw, const char* config, uint64_t norm, uint64_t attention,
                     uint64_t unmarked) {
      auto r =
          testing::make_run("baseline", hw, "block", 3, config, 1, "pass", norm + attention + unmarked, 1000);
      r.phases = {{"unmarked_cycles", unmarked},
                  {"phases",
                   {{{"name", "norm"}, {"cycles", norm}, {"marks", 1}},
                    {{"name", "attention"}, {"cycles", attention}, {"marks", 1}}}}};
      return r;
    };
    store.insert_run(phased("default", "C1", 250, 750, 0));
    store.insert_run(phased("small", "C1", 100, 800, 100));
    auto failed = phased("default", "C2", 1, 1, 0);
    failed.verdict = "mismatch";
    store.insert_run(failed);  // no bar: only correct runs count
    store.insert_run(testing::make_run("baseline", "default", "gemm", 1, "C1", 1, "pass", 10, 10));
    // Another block whose phases come in another order: attention must keep its colour.
    auto other = testing::make_run("baseline", "default", "block2", 3, "C1", 1, "pass", 600, 1000);
    other.phases = {{"unmarked_cycles", 0},
                    {"phases",
                     {{{"name", "ffn"}, {"cycles", 300}, {"marks", 1}},
                      {{"name", "attention"}, {"cycles", 200}, {"marks", 1}},
                      {{"name", "norm"}, {"cycles", 100}, {"marks", 1}}}}};
    store.insert_run(other);
  }
  const auto text =
      kcraft("report --db " + (dir / "r.db").string() + " --html " + (dir / "report.html").string(), dir);
  ASSERT_EQ(text.code, 0) << text.err;
  EXPECT_NE(text.out.find("Where the cycles go"), std::string::npos) << text.out;
  EXPECT_NE(text.out.find("norm 25.0% attention 75.0%"), std::string::npos) << text.out;
  EXPECT_NE(text.out.find("norm 10.0% attention 80.0% (unmarked 10.0%)"), std::string::npos) << text.out;
  const auto p = dump_dom(chromium, dir / "report.html", dir);
  ASSERT_EQ(p.code, 0) << p.err;
  const std::string& dom = p.out;
  ASSERT_NE(dom.find("data-rendered=\"ok\""), std::string::npos) << p.err << dom.substr(0, 2000);
  EXPECT_EQ(count(dom, "class=\"phase-chart\""), 2u);
  EXPECT_EQ(count(dom, "class=\"phase-segment\""), 8u);  // 2 + 3 (the unmarked cycles of small) + 3
  // A phase has one colour in every chart and every bar, whatever order a kernel marks it in.
  for (const std::string phase : {"norm", "attention"}) {
    const std::regex segment("fill=\"(#[0-9a-f]{6})\" data-phase=\"" + phase + "\"");
    std::set<std::string> fills;
    size_t n = 0;
    for (auto it = std::sregex_iterator(dom.begin(), dom.end(), segment); it != std::sregex_iterator();
         ++it, ++n)
      fills.insert((*it)[1]);
    EXPECT_EQ(n, 3u) << phase;
    EXPECT_EQ(fills.size(), 1u) << phase;
  }
  EXPECT_NE(dom.find("block C1 on systolic/small: attention 800 cycles (80.0%)"), std::string::npos);
  EXPECT_NE(dom.find("data-phase=\"before the first marker\" data-cycles=\"100\""), std::string::npos);
  fs::remove_all(dir);
}

}  // namespace
}  // namespace kcraft::bench

namespace kcraft::bench {
namespace {

TEST(BenchE2E, ResultsDoNotDependOnWhatElseTheSweepRuns) {
  // The same runs alone and inside a larger sweep with another hardware configuration, one worker and
  // two: every outcome is the same (a worker process never mixes hardware configurations).
  const auto dir = testing::fresh_dir("independent");
  const std::string sweep =
      "--platforms systolic --tasks relu,softmax --configs C1,C2 --agents baseline --transcripts none --db ";
  ASSERT_EQ(kcraft("bench " + sweep + (dir / "alone.db").string() + " --hw small --jobs 1", dir).code, 0);
  ASSERT_EQ(kcraft("bench " + sweep + (dir / "mixed1.db").string() + " --jobs 1", dir).code, 0);
  ASSERT_EQ(kcraft("bench " + sweep + (dir / "mixed2.db").string() + " --jobs 2", dir).code, 0);
  auto small_rows = [](const fs::path& db) {
    json j = json::array();
    for (const auto& o : outcomes(db)) {
      if (o["key"].get<std::string>().rfind("systolic/small/", 0) == 0) j.push_back(o);
    }
    return j;
  };
  const auto alone = small_rows(dir / "alone.db");
  ASSERT_EQ(alone.size(), 4u);
  EXPECT_EQ(small_rows(dir / "mixed1.db"), alone);
  EXPECT_EQ(small_rows(dir / "mixed2.db"), alone);
  EXPECT_EQ(outcomes(dir / "mixed1.db"), outcomes(dir / "mixed2.db"));
  fs::remove_all(dir);
}

// ---------------------------------------------------------------- kcraft explore

// The cycles of a variant's correct run of `cell` in `kcraft --json explore`, looked up by its settings.
uint64_t explore_cycles(const json& j, const json& settings, const std::string& cell) {
  for (const auto& v : j["variants"]) {
    if (v["settings"] == settings) return v["cycles"].value(cell, uint64_t{0});
  }
  ADD_FAILURE() << "no variant " << settings.dump() << " in " << j.dump();
  return 0;
}

TEST(BenchE2E, ExploreRuntimeParametersNeedNoBuildAndSlowerDramCostsCycles) {
  const auto dir = testing::fresh_dir("explore_runtime");
  const auto p = kcraft(
      "--json explore vliw --set dram_latency_cycles=40,400 --set dram_bytes_per_cycle=32,4 "
      "--tasks gemm --configs C1 --no-synth --jobs 2 --progress none --results " +
          (dir / "e.db").string() + " --html " + (dir / "e.html").string() + " --csv " +
          (dir / "e.csv").string(),
      dir);
  ASSERT_EQ(p.code, 0) << p.err << p.out;
  const auto j = json::parse(p.out);
  ASSERT_EQ(j["variants"].size(), 4u);
  EXPECT_EQ(j["cells"], json::array({"gemm/C1"}));
  for (const auto& v : j["variants"]) {
    EXPECT_FALSE(v["needs_build"].get<bool>()) << v.dump();  // runs on the built-in default model
    EXPECT_TRUE(v["built"].is_null());
    EXPECT_EQ(v["correct_cells"], 1) << v.dump();
    EXPECT_TRUE(v["invalid"].empty()) << v.dump();
    EXPECT_TRUE(v["yosys_cells"].is_null());
    EXPECT_FALSE(v["pareto"].get<bool>());  // no sizes, no front
  }
  const auto cycles = [&](const char* latency, const char* bandwidth) {
    return explore_cycles(j, {{"dram_latency_cycles", latency}, {"dram_bytes_per_cycle", bandwidth}},
                          "gemm/C1");
  };
  EXPECT_GT(cycles("400", "32"), cycles("40", "32"));  // longer latency
  EXPECT_GT(cycles("40", "4"), cycles("40", "32"));    // less bandwidth
  EXPECT_GT(cycles("400", "4"), cycles("400", "32"));
  // The page and the CSV say the same; the CSV has one row per variant and cell.
  const auto csv = slurp(dir / "e.csv");
  EXPECT_EQ(std::count(csv.begin(), csv.end(), '\n'), 5) << csv;
  EXPECT_NE(csv.find(std::to_string(cycles("400", "4"))), std::string::npos) << csv;
  const auto html = slurp(dir / "e.html");
  EXPECT_NE(html.find("id=\"no-chart\""), std::string::npos);
  EXPECT_NE(html.find(std::to_string(cycles("400", "4"))), std::string::npos);
  // The kernels of that exploration as a library on other variants: gemm's runs, and relu, which the
  // library has no kernel of, is reported as such.
  const auto lib = kcraft(
      "--json explore vliw --set dram_latency_cycles=100 --tasks gemm,relu --configs C1 "
      "--agents library:" +
          (dir / "e.db").string() + " --no-synth --progress none --results " + (dir / "lib.db").string(),
      dir);
  ASSERT_EQ(lib.code, 0) << lib.err << lib.out;
  const auto l = json::parse(lib.out)["variants"][0];
  EXPECT_EQ(l["correct_cells"], 1) << l.dump();
  EXPECT_GT(l["cycles"]["gemm/C1"].get<uint64_t>(), cycles("40", "32"));
  ASSERT_EQ(l["invalid"].size(), 1u) << l.dump();
  EXPECT_EQ(l["invalid"][0]["task"], "relu");
  EXPECT_NE(l["invalid"][0]["reason"].get<std::string>().find("no library kernel"), std::string::npos);
  fs::remove_all(dir);
}

// The build-parameter test shares one variant cache across runs and test invocations: the first run of a
// fresh build tree builds systolic's MLEN = VLEN = 8 plugin once (its time is printed), every later run
// finds it.
TEST(BenchE2E, ExploreBuildsAVariantOnceAndALargerArrayRunsGemmInFewerCycles) {
  const auto dir = testing::fresh_dir("explore_build");
  ::setenv("KCRAFT_VARIANT_CACHE", KCRAFT_TEST_VARIANT_CACHE, 1);
  const std::string args =
      "--json explore systolic --set MLEN,VLEN=8,16 --tasks gemm,relu --configs C1 "
      "--no-synth --jobs 2 --progress none --results " +
      (dir / "e.db").string();
  const auto start = std::chrono::steady_clock::now();
  const auto first = kcraft(args, dir);
  const double first_seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  ASSERT_EQ(first.code, 0) << first.err << first.out;
  const auto j = json::parse(first.out);
  ASSERT_EQ(j["variants"].size(), 2u);
  const auto& small = j["variants"][0];
  const auto& big = j["variants"][1];
  EXPECT_EQ(small["settings"], json({{"MLEN", "8"}, {"VLEN", "8"}}));
  EXPECT_TRUE(small["needs_build"].get<bool>());
  ASSERT_TRUE(small["built"].is_object()) << small.dump();
  EXPECT_FALSE(big["needs_build"].get<bool>());  // the default build's parameters
  std::cout << "explore with one systolic variant: " << first_seconds << " s, the variant "
            << (small["built"]["rebuilt"].get<bool>() ? "built in " : "found in the cache, checked in ")
            << small["built"]["seconds"] << " s\n";
  for (const auto& v : j["variants"]) EXPECT_EQ(v["correct_cells"], 2) << v.dump();
  EXPECT_GT(explore_cycles(j, small["settings"], "gemm/C1"), explore_cycles(j, big["settings"], "gemm/C1"));
  // Again, into a fresh store: the runs run again, the variant is not rebuilt.
  fs::remove(dir / "e.db");
  const auto second = kcraft(args, dir);
  ASSERT_EQ(second.code, 0) << second.err;
  const auto k = json::parse(second.out);
  EXPECT_FALSE(k["variants"][0]["built"]["rebuilt"].get<bool>()) << k["variants"][0].dump();
  EXPECT_EQ(k["variants"][0]["cycles"], small["cycles"]);
  fs::remove_all(dir);
}

TEST(BenchE2E, ExploreBadParametersAreErrorsNamingTheParameter) {
  const auto dir = testing::fresh_dir("explore_errors");
  ::setenv("KCRAFT_VARIANT_CACHE", KCRAFT_TEST_VARIANT_CACHE, 1);
  const std::string tail =
      " --tasks relu --configs C1 --no-synth --progress none --results " + (dir / "e.db").string();
  auto p = kcraft("explore systolic --set MLENN=8" + tail, dir);
  EXPECT_EQ(p.code, 2);
  EXPECT_NE(p.err.find("--set MLENN: not a parameter of systolic/default (build: "), std::string::npos)
      << p.err;
  p = kcraft("explore systolic --set MLEN=eight" + tail, dir);
  EXPECT_EQ(p.code, 2);
  EXPECT_NE(p.err.find("build.MLEN: expected an integer, got 'eight'"), std::string::npos) << p.err;
  p = kcraft("explore systolic --base huge --set MLEN=8" + tail, dir);
  EXPECT_EQ(p.code, 2);
  EXPECT_NE(p.err.find("--base huge: no configuration"), std::string::npos) << p.err;
  // A combination the RTL rejects: Verilator's first error, with the parameters.
  p = kcraft("explore systolic --set BLEN=0" + tail, dir);
  EXPECT_EQ(p.code, 1) << p.out;
  EXPECT_NE(p.err.find("(BLEN=0) failed to build: %Error"), std::string::npos) << p.err;
  fs::remove_all(dir);
}

}  // namespace
}  // namespace kcraft::bench
