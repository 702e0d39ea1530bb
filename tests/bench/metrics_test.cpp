// Metrics on hand-made result rows: every number below is worked out by hand in the comments.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <iterator>

#include "agent/bench/metrics.h"
#include "agent/bench/report.h"
#include "tests/bench/test_util.h"

namespace kcraft::bench {
namespace {

using testing::make_run;

TEST(Metrics, FastPCountsEveryAttemptAndComparesCycleCounts) {
  // Four runs: 1000 -> 1000 cycles (1x), 1000 -> 500 (2x), 1000 -> 700 (1.43x), and a mismatch.
  std::vector<RunRecord> runs = {
      make_run("a", "default", "gemm", 1, "C1", 1, "pass", 1000, 1000),
      make_run("a", "default", "gemm", 1, "C1", 2, "pass", 500, 1000),
      make_run("a", "default", "gemm", 1, "C2", 1, "pass", 700, 1000),
      make_run("a", "default", "gemm", 1, "C2", 2, "mismatch", 0, 1000),
  };
  std::vector<const RunRecord*> ptrs;
  for (const auto& r : runs) ptrs.push_back(&r);
  EXPECT_DOUBLE_EQ(fast_p(ptrs, 0), 0.75);    // three correct of four
  EXPECT_DOUBLE_EQ(fast_p(ptrs, 1), 0.75);    // exactly as fast counts as at least 1x
  EXPECT_DOUBLE_EQ(fast_p(ptrs, 1.5), 0.25);  // only the 2x run (1.43x is below 1.5)
  EXPECT_DOUBLE_EQ(fast_p(ptrs, 2), 0.25);    // 2x is at least 2x
  EXPECT_DOUBLE_EQ(fast_p({}, 1), 0);
  // Geometric mean over correct runs: (1 * 2 * 1000/700)^(1/3).
  ASSERT_TRUE(geomean_speedup(ptrs).has_value());
  EXPECT_NEAR(*geomean_speedup(ptrs), std::cbrt(2.0 * 1000.0 / 700.0), 1e-12);
}

TEST(Metrics, CorrectRunsWithoutABaselineAreCorrectButNotFast) {
  std::vector<RunRecord> runs = {make_run("a", "default", "newtask", 1, "C1", 1, "pass", 800, 0),
                                 make_run("a", "default", "newtask", 1, "C2", 1, "pass", 400, 800)};
  std::vector<const RunRecord*> ptrs = {&runs[0], &runs[1]};
  EXPECT_DOUBLE_EQ(fast_p(ptrs, 0), 1.0);
  EXPECT_DOUBLE_EQ(fast_p(ptrs, 1), 0.5);
  EXPECT_DOUBLE_EQ(fast_p(ptrs, 2), 0.5);
  EXPECT_DOUBLE_EQ(*geomean_speedup(ptrs), 2.0);  // the run without a baseline has no speedup to average
}

TEST(Metrics, FailedJobsAreRunsThatAreNotFast) {
  std::vector<RunRecord> runs = {
      make_run("a", "default", "relu", 1, "C1", 1, "pass", 100, 200),
      error_record({"systolic", "default", "relu", "C2", "a", 1}, 1, "worker crashed")};
  const auto m = compute_metrics(runs, {}, {});
  const auto* g = m.task_group("a", "systolic/default", "relu");
  ASSERT_NE(g, nullptr);
  EXPECT_EQ(g->runs, 2u);
  EXPECT_EQ(g->failed_jobs, 1u);
  EXPECT_DOUBLE_EQ(g->fast_p[0], 0.5);
  EXPECT_DOUBLE_EQ(g->fast_p[3], 0.5);  // the 2x run
  EXPECT_EQ(g->configs_solved, 1u);
}

TEST(Metrics, SolvedConfigurationsWithLevelSubtotalsAndTotals) {
  std::vector<RunRecord> runs;
  // tuner on systolic/default: gemm (L1) solves C1, C2 (second attempt), C3; C4 fails twice; C5 is
  // unsupported. relu (L1) solves all five on the first attempt. ffn (L2) solves C1 only.
  runs.push_back(make_run("tuner", "default", "gemm", 1, "C1", 1, "pass", 900, 1000));
  runs.push_back(make_run("tuner", "default", "gemm", 1, "C1", 2, "pass", 800, 1000));
  runs.push_back(make_run("tuner", "default", "gemm", 1, "C2", 1, "mismatch", 0, 0));
  runs.push_back(make_run("tuner", "default", "gemm", 1, "C2", 2, "pass", 1200, 1000));
  runs.push_back(make_run("tuner", "default", "gemm", 1, "C3", 1, "pass", 1000, 1000));
  runs.push_back(make_run("tuner", "default", "gemm", 1, "C3", 2, "timeout", 0, 0));
  runs.push_back(make_run("tuner", "default", "gemm", 1, "C4", 1, "mismatch", 0, 0));
  runs.push_back(make_run("tuner", "default", "gemm", 1, "C4", 2, "build_error", 0, 0));
  for (const char* c : {"C1", "C2", "C3", "C4", "C5"}) {
    runs.push_back(make_run("tuner", "default", "relu", 1, c, 1, "pass", 500, 500));
    runs.push_back(make_run("tuner", "default", "relu", 1, c, 2, "pass", 250, 500));
  }
  for (const char* c : {"C1", "C2", "C3", "C4", "C5"}) {
    runs.push_back(make_run("tuner", "default", "ffn", 2, c, 1, std::string(c) == "C1" ? "pass" : "mismatch",
                            4000, 5000));
  }
  std::vector<UnsupportedCell> unsupported = {{"systolic", "default", "gemm", "C5", 1, "too big"},
                                              {"systolic", "default", "conv2d", "C1", 1, "no convolution"}};
  // ffn's second attempts are planned but not run yet.
  std::vector<PlannedRun> plan;
  for (const char* c : {"C1", "C2", "C3", "C4", "C5"})
    plan.push_back({{"systolic", "default", "ffn", c, "tuner", 2}, 2});
  const auto m = compute_metrics(runs, plan, unsupported);

  const auto* gemm = m.task_group("tuner", "systolic/default", "gemm");
  ASSERT_NE(gemm, nullptr);
  EXPECT_EQ(gemm->configs, 4u);  // C5 is unsupported: out of 4
  EXPECT_EQ(gemm->configs_solved, 3u);
  EXPECT_EQ(gemm->runs, 8u);
  EXPECT_EQ(gemm->correct, 4u);
  // Speedups of correct gemm runs: 1000/900, 1000/800, 1000/1200, 1.
  EXPECT_DOUBLE_EQ(gemm->fast_p[0], 4.0 / 8);
  EXPECT_DOUBLE_EQ(gemm->fast_p[1], 3.0 / 8);
  EXPECT_DOUBLE_EQ(gemm->fast_p[2], 0.0);
  EXPECT_NEAR(*gemm->geomean_speedup, std::pow(1000.0 / 900 * 1000.0 / 800 * 1000.0 / 1200, 0.25), 1e-12);
  // Best speedup per configuration: the faster of C1's two correct attempts.
  const auto* c1 = m.cell("tuner", "systolic/default", "gemm", "C1");
  ASSERT_NE(c1, nullptr);
  EXPECT_DOUBLE_EQ(*c1->best_speedup, 1.25);
  EXPECT_EQ(c1->best_cycles, 800u);
  EXPECT_FALSE(m.cell("tuner", "systolic/default", "gemm", "C4")->solved());

  const auto* ffn = m.task_group("tuner", "systolic/default", "ffn");
  EXPECT_EQ(ffn->configs_solved, 1u);
  EXPECT_EQ(ffn->configs_pending, 5u);
  EXPECT_EQ(ffn->pending_runs, 5u);
  EXPECT_EQ(ffn->runs, 5u);

  const auto* l1 = m.level_group("tuner", "systolic/default", 1);
  const auto* l2 = m.level_group("tuner", "systolic/default", 2);
  const auto* total = m.total("tuner", "systolic/default");
  ASSERT_TRUE(l1 && l2 && total);
  EXPECT_EQ(l1->configs_solved, 3u + 5u);
  EXPECT_EQ(l1->configs, 4u + 5u);
  EXPECT_EQ(l2->configs_solved, 1u);
  EXPECT_EQ(l2->configs, 5u);
  EXPECT_EQ(total->configs_solved, 9u);
  EXPECT_EQ(total->configs, 14u);
  EXPECT_EQ(total->runs, 8u + 10u + 5u);

  // The table: conv2d is unsupported everywhere ("--"), subtotals and the total appear.
  const std::string table = success_table(m);
  EXPECT_NE(table.find("gemm             1 | 3/4"), std::string::npos) << table;
  EXPECT_NE(table.find("conv2d           1 | --"), std::string::npos) << table;
  EXPECT_NE(table.find("ffn              2 | 1/5 (5 pending)"), std::string::npos) << table;
  EXPECT_NE(table.find("L1 subtotal        | 8/9"), std::string::npos) << table;
  EXPECT_NE(table.find("L2 subtotal        | 1/5 (5 pending)"), std::string::npos) << table;
  EXPECT_NE(table.find("total              | 9/14"), std::string::npos) << table;
  const std::string speed = speedup_table(m);
  EXPECT_NE(speed.find("1.25x"), std::string::npos) << speed;
  EXPECT_NE(speed.find("--"), std::string::npos) << speed;
}

TEST(Metrics, IterationsTokensAndSeparateColumnsPerAgentAndTarget) {
  std::vector<RunRecord> runs;
  auto r1 = make_run("llm:x", "default", "relu", 1, "C1", 1, "pass", 100, 100);
  r1.first_valid_iteration = 2;
  r1.first_pass_iteration = 4;
  r1.prompt_tokens = 1000;
  r1.completion_tokens = 200;
  auto r2 = make_run("llm:x", "default", "relu", 1, "C2", 1, "mismatch", 0, 0);
  r2.first_valid_iteration = 5;
  r2.prompt_tokens = 3000;
  r2.completion_tokens = 600;
  auto r3 = make_run("llm:x", "default", "relu", 1, "C3", 1, "build_error", 0, 0);
  auto other = make_run("tuner", "small", "relu", 1, "C1", 1, "pass", 100, 100);
  runs = {r1, r2, r3, other};
  const auto m = compute_metrics(runs, {}, {});
  const auto* g = m.task_group("llm:x", "systolic/default", "relu");
  ASSERT_NE(g, nullptr);
  EXPECT_EQ(g->reached_valid, 2u);
  EXPECT_DOUBLE_EQ(*g->mean_first_valid, 3.5);
  EXPECT_EQ(g->reached_pass, 1u);
  EXPECT_DOUBLE_EQ(*g->mean_first_pass, 4.0);
  EXPECT_EQ(g->tokens, 4800u);
  EXPECT_DOUBLE_EQ(g->tokens_per_run, 1600.0);
  EXPECT_EQ(m.task_group("llm:x", "systolic/small", "relu"), nullptr);
  EXPECT_NE(m.task_group("tuner", "systolic/small", "relu"), nullptr);
  EXPECT_EQ(m.agents, (std::vector<std::string>{"llm:x", "tuner"}));
  EXPECT_EQ(m.targets, (std::vector<std::string>{"systolic/default", "systolic/small"}));
  EXPECT_EQ(m.totals.size(), 2u);
}

TEST(Metrics, TablesLeaveCellsTheSweepNeverPlannedBlankAndMarkFailuresX) {
  // systolic/default ran C1 and C2, systolic/small only C1 (as the quick sweep leaves configurations out of
  // a slow target): small's C2 was never planned, so it is blank, not "x" (no correct kernel). default's C2
  // failed: "x". A cycle count wider than the column widens it instead of running into the next one.
  std::vector<RunRecord> runs = {
      make_run("a", "default", "gemm", 1, "C1", 1, "pass", 100, 200),
      make_run("a", "default", "gemm", 1, "C2", 1, "mismatch", 0, 0),
      make_run("a", "small", "gemm", 1, "C1", 1, "pass", 123456789012, 123456789012),
  };
  const auto m = compute_metrics(runs, {}, {});
  const std::string cycles = cycles_table(m);
  const std::string speed = speedup_table(m);
  auto section = [](const std::string& text, const std::string& target) {
    const auto begin = text.find("a on " + target);
    const auto end = text.find("\n\n", begin);
    return text.substr(begin, end == std::string::npos ? std::string::npos : end - begin);
  };
  auto row = [](const std::string& text, const std::string& task) {
    const auto begin = text.find("\n" + task + " ");
    return text.substr(begin + 1, text.find('\n', begin + 1) - begin - 1);
  };
  const std::string small_gemm = row(section(cycles, "systolic/small"), "gemm");
  EXPECT_NE(small_gemm.find("123456789012 (123456789012, -)"), std::string::npos) << cycles;
  EXPECT_EQ(small_gemm.find(" x"), std::string::npos) << cycles;
  EXPECT_EQ(small_gemm.back(), ')') << cycles;  // nothing after the C1 cell: C2 is blank
  const std::string default_gemm = row(section(cycles, "systolic/default"), "gemm");
  EXPECT_EQ(default_gemm.back(), 'x') << cycles;
  EXPECT_EQ(row(section(speed, "systolic/small"), "gemm").find(" x "), std::string::npos) << speed;
  EXPECT_NE(row(section(speed, "systolic/default"), "gemm").find(" x "), std::string::npos) << speed;
}

TEST(Metrics, SpeedupOverTheCompilerBaselinePerCellLevelAndTable) {
  // A platform with a compiler baseline: gemm C1 template 2000 cycles, compiler 8000; the agent's runs
  // 1000 (8x) and 4000 (2x); gemm C2 compiler 3000, one run of 1500 (2x); relu (level 1) C1 compiler 600,
  // a run of 200 (3x); attention (level 2) C1 no compiler baseline (0); a mismatch never counts.
  auto with_compiler = [](RunRecord r, uint64_t compiler) {
    r.compiler_baseline_cycles = compiler;
    r.compiler_speedup = r.correct() ? static_cast<double>(compiler) / static_cast<double>(r.cycles) : 0;
    return r;
  };
  std::vector<RunRecord> runs = {
      with_compiler(make_run("a", "default", "gemm", 1, "C1", 1, "pass", 1000, 2000), 8000),
      with_compiler(make_run("a", "default", "gemm", 1, "C1", 2, "pass", 4000, 2000), 8000),
      with_compiler(make_run("a", "default", "gemm", 1, "C2", 1, "pass", 1500, 2000), 3000),
      with_compiler(make_run("a", "default", "relu", 1, "C1", 1, "pass", 200, 400), 600),
      with_compiler(make_run("a", "default", "relu", 1, "C2", 1, "mismatch", 0, 0), 700),
      make_run("a", "default", "attention", 2, "C1", 1, "pass", 100, 100),
  };
  std::vector<const RunRecord*> ptrs;
  for (const auto& r : runs) ptrs.push_back(&r);
  EXPECT_NEAR(*geomean_compiler_speedup(ptrs), std::pow(8.0 * 2.0 * 2.0 * 3.0, 0.25), 1e-12);
  EXPECT_FALSE(geomean_compiler_speedup({&runs[4], &runs[5]}).has_value());

  const auto m = compute_metrics(runs, {}, {});
  const auto* cell = m.cell("a", "systolic/default", "gemm", "C1");
  ASSERT_NE(cell, nullptr);
  EXPECT_DOUBLE_EQ(*cell->best_compiler_speedup, 8.0);
  EXPECT_EQ(cell->compiler_baseline_cycles, 8000u);
  EXPECT_FALSE(m.cell("a", "systolic/default", "attention", "C1")->best_compiler_speedup.has_value());
  const auto* total = m.total("a", "systolic/default");
  EXPECT_EQ(total->compiler_speedup_runs, 4u);
  EXPECT_NEAR(*total->geomean_compiler_speedup, std::pow(8.0 * 2.0 * 2.0 * 3.0, 0.25), 1e-12);
  EXPECT_TRUE(total->to_json()["geomean_compiler_speedup"].is_number());
  EXPECT_TRUE(
      m.task_group("a", "systolic/default", "attention")->to_json()["geomean_compiler_speedup"].is_null());

  // The table: per cell the best speedup and the compiler's cycles; per task and per level the geometric
  // mean over the cells (the best per configuration: gemm 8x and 2x, relu 3x); the lowest per config.
  const std::string table = compiler_table(m);
  EXPECT_NE(table.find("best speedup over the compiler baseline"), std::string::npos) << table;
  EXPECT_NE(table.find("8.00x (8000)"), std::string::npos) << table;
  EXPECT_NE(table.find("2.00x (3000)"), std::string::npos) << table;
  EXPECT_NE(table.find("3.00x (600)"), std::string::npos) << table;
  EXPECT_NE(table.find("  4.00x\n"), std::string::npos) << table;  // gemm: sqrt(8 * 2)
  EXPECT_NE(
      table.find(fmt::format("L1 geomean         {:<22}  2.00x", fmt::format("{:.2f}x", std::sqrt(24.0)))),
      std::string::npos)
      << table;  // C1: sqrt(8 * 3); C2: 2
  EXPECT_NE(table.find("lowest"), std::string::npos) << table;
  EXPECT_NE(table.find("3.00x                   2.00x"), std::string::npos) << table;  // lowest C1, C2
  // The summary table's geomean over the compiler baseline.
  EXPECT_NE(summary_table(m).find(fmt::format("{:.3f}x", *total->geomean_compiler_speedup)),
            std::string::npos);
  // Without a compiler baseline anywhere there is no table.
  EXPECT_EQ(compiler_table(compute_metrics({runs[5]}, {}, {})), "");
  // A correct run whose compiler baseline was not simulated: no speedup over it, the cell says so (a
  // cell with another run that has one does not).
  auto unsimulated = make_run("a", "default", "gemm", 1, "C3", 1, "pass", 1000, 2000);
  unsimulated.compiler_baseline_not_simulated = true;
  auto simulated_too = with_compiler(make_run("a", "default", "gemm", 1, "C1", 3, "pass", 1000, 2000), 8000);
  auto unsimulated_c1 = make_run("a", "default", "gemm", 1, "C1", 4, "pass", 1000, 2000);
  unsimulated_c1.compiler_baseline_not_simulated = true;
  const auto m2 = compute_metrics({unsimulated, simulated_too, unsimulated_c1}, {}, {});
  EXPECT_TRUE(m2.cell("a", "systolic/default", "gemm", "C3")->compiler_baseline_not_simulated);
  EXPECT_FALSE(m2.cell("a", "systolic/default", "gemm", "C3")->best_compiler_speedup.has_value());
  EXPECT_FALSE(m2.cell("a", "systolic/default", "gemm", "C1")->compiler_baseline_not_simulated);
  EXPECT_TRUE(m2.cell("a", "systolic/default", "gemm", "C3")->to_json()["compiler_baseline_not_simulated"]);
}

TEST(Metrics, SpeedupOverTheTunedBaselineItsFastPAndGeomean) {
  // gemm C1: baseline 2000 cycles, tuned baseline 1000. The agent's runs: 800 (2.5x / 1.25x), 1000
  // (2x / 1x), 1600 (1.25x / 0.625x), a mismatch. relu C1: a correct run whose tuned baseline is not known.
  auto with_tuned = [](RunRecord r, uint64_t tuned) {
    r.set_tuned_baseline(tuned);
    return r;
  };
  std::vector<RunRecord> runs = {
      with_tuned(make_run("a", "default", "gemm", 1, "C1", 1, "pass", 800, 2000), 1000),
      with_tuned(make_run("a", "default", "gemm", 1, "C1", 2, "pass", 1000, 2000), 1000),
      with_tuned(make_run("a", "default", "gemm", 1, "C1", 3, "pass", 1600, 2000), 1000),
      with_tuned(make_run("a", "default", "gemm", 1, "C1", 4, "mismatch", 0, 0), 1000),
      make_run("a", "default", "relu", 1, "C1", 1, "pass", 100, 200),
  };
  EXPECT_DOUBLE_EQ(runs[0].tuned_speedup, 1.25);
  EXPECT_EQ(runs[3].tuned_speedup, 0.0);
  std::vector<const RunRecord*> ptrs;
  for (const auto& r : runs) ptrs.push_back(&r);
  // Over the four runs whose tuned baseline is known: three correct, two at least as fast as it.
  EXPECT_DOUBLE_EQ(fast_p_tuned(ptrs, 0), 3.0 / 4);
  EXPECT_DOUBLE_EQ(fast_p_tuned(ptrs, 1), 2.0 / 4);
  EXPECT_DOUBLE_EQ(fast_p_tuned(ptrs, 1.5), 0.0);
  EXPECT_NEAR(*geomean_tuned_speedup(ptrs), std::cbrt(1.25 * 1.0 * 0.625), 1e-12);
  // Against the template baseline every correct run is at least 1.25x faster.
  EXPECT_DOUBLE_EQ(fast_p(ptrs, 1.25), 4.0 / 5);
  EXPECT_EQ(fast_p_tuned({&runs[4]}, 1), 0.0);
  EXPECT_FALSE(geomean_tuned_speedup({&runs[4]}).has_value());

  const auto m = compute_metrics(runs, {}, {});
  const auto* cell = m.cell("a", "systolic/default", "gemm", "C1");
  ASSERT_NE(cell, nullptr);
  EXPECT_DOUBLE_EQ(*cell->best_speedup, 2.5);
  EXPECT_DOUBLE_EQ(*cell->best_tuned_speedup, 1.25);
  EXPECT_EQ(cell->tuned_baseline_cycles, 1000u);
  EXPECT_FALSE(m.cell("a", "systolic/default", "relu", "C1")->best_tuned_speedup.has_value());
  const auto* total = m.total("a", "systolic/default");
  EXPECT_EQ(total->tuned_runs, 4u);
  EXPECT_EQ(total->tuned_speedup_runs, 3u);
  EXPECT_DOUBLE_EQ(total->fast_p_tuned[1], 0.5);
  EXPECT_NEAR(*total->geomean_tuned_speedup, std::cbrt(1.25 * 1.0 * 0.625), 1e-12);
  EXPECT_NEAR(*total->geomean_speedup, std::pow(2.5 * 2.0 * 1.25 * 2.0, 0.25), 1e-12);
  const auto j = total->to_json();
  EXPECT_DOUBLE_EQ(j["fast_p_tuned"]["1"].get<double>(), 0.5);
  EXPECT_TRUE(m.total("a", "systolic/default")->to_json()["geomean_tuned_speedup"].is_number());
  EXPECT_TRUE(m.task_group("a", "systolic/default", "relu")->to_json()["fast_p_tuned"]["1"].is_null());
  EXPECT_TRUE(m.task_group("a", "systolic/default", "relu")->to_json()["geomean_tuned_speedup"].is_null());

  // The tables show both: best per configuration "over the baseline/over the tuned baseline".
  const std::string speed = speedup_table(m);
  EXPECT_NE(speed.find("2.50x/1.25x"), std::string::npos) << speed;
  EXPECT_NE(speed.find("2.00x/-"), std::string::npos) << speed;  // relu: tuned baseline not known
  const std::string summary = summary_table(m);
  EXPECT_NE(summary.find("geo/tuned"), std::string::npos) << summary;
  EXPECT_NE(summary.find(fmt::format("{:.3f}x", *total->geomean_tuned_speedup)), std::string::npos)
      << summary;
  const std::string cycles = cycles_table(m);
  EXPECT_NE(cycles.find("800 (2000, 1000)"), std::string::npos) << cycles;

  // CSV: the run columns and the metrics columns.
  auto dir = testing::fresh_dir("tuned_csv");
  write_runs_csv(runs, dir / "runs.csv");
  write_metrics_csv(m, dir / "metrics.csv");
  std::ifstream in(dir / "runs.csv");
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  EXPECT_NE(text.find(",baseline_cycles,speedup,tuned_baseline_cycles,tuned_speedup,utilization,"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find(",800,2000,2.5,1000,1.25,"), std::string::npos) << text;
  EXPECT_NE(text.find(",100,200,2,,,"), std::string::npos) << text;  // not known: empty, not 0
  std::ifstream min(dir / "metrics.csv");
  std::string metrics((std::istreambuf_iterator<char>(min)), std::istreambuf_iterator<char>());
  EXPECT_NE(metrics.find(",geomean_speedup,tuned_runs,fast_1_tuned,fast_1.5_tuned,fast_2_tuned,"
                         "geomean_tuned_speedup,"),
            std::string::npos)
      << metrics;
  EXPECT_NE(
      metrics.find(fmt::format("a,systolic,default,total,,,2,2,0,5,4,0,0.8,0.8,0.6,0.6,{},4,0.5,0,0,{},",
                               fmt::format("{:.6g}", *total->geomean_speedup),
                               fmt::format("{:.6g}", *total->geomean_tuned_speedup))),
      std::string::npos)
      << metrics;
  std::filesystem::remove_all(dir);
}

// The agents side by side: model calls only of LLM runs, evaluations, wall time, tokens per role of the
// model roles (the verifier calls none), and porting runs that had nothing to port.
TEST(Metrics, AgentsSideBySideSumModelCallsEvaluationsAndTokensPerRole) {
  auto a = make_run("workflow:default:m", "default", "relu", 1, "C1", 1, "pass", 100, 200);
  a.agent_settings = {{"kind", "llm"}, {"workflow", "default"}};
  a.iterations = 4;
  a.evaluations = 2;
  a.agent_seconds = 1.5;
  a.roles = {{"designer", {{"calls", 1}, {"prompt_tokens", 300}, {"completion_tokens", 40}}},
             {"coder", {{"calls", 2}, {"prompt_tokens", 2000}, {"completion_tokens", 200}}},
             {"verifier", {{"steps", 1}, {"calls", 0}}}};
  auto b = a;
  b.key.config = "C2";
  b.verdict = "mismatch";
  b.roles["coder"]["prompt_tokens"] = 1000;
  auto tuner = make_run("tuner", "default", "relu", 1, "C1", 1, "pass", 100, 200);
  tuner.agent_settings = {{"kind", "tuner"}};
  tuner.iterations = 15;  // candidates, not model calls
  auto port = make_run("port:other:m", "default", "relu", 1, "C1", 1, "error", 0, 0);
  port.status = "no_kernel_to_port";
  const auto m = compute_metrics({a, b, tuner, port}, {}, {});
  const auto* g = m.total("workflow:default:m", "systolic/default");
  ASSERT_NE(g, nullptr);
  EXPECT_EQ(g->model_calls, 8u);
  EXPECT_EQ(g->evaluations, 4u);
  EXPECT_DOUBLE_EQ(g->agent_seconds, 3.0);
  EXPECT_EQ(g->role_tokens.at("designer"), 2 * 340u);
  EXPECT_EQ(g->role_tokens.at("coder"), 2200u + 1200u);
  EXPECT_EQ(g->role_calls.at("coder"), 4u);
  EXPECT_EQ(g->role_tokens.count("verifier"), 0u);
  EXPECT_EQ(m.total("tuner", "systolic/default")->model_calls, 0u);
  EXPECT_EQ(m.total("port:other:m", "systolic/default")->no_kernel_to_port, 1u);
  auto dir = testing::fresh_dir("agents_csv");
  write_metrics_csv(m, dir / "metrics.csv");
  std::ifstream in(dir / "metrics.csv");
  const std::string csv((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  // The cost columns (cost_test.cpp) follow; these runs were not priced.
  EXPECT_NE(
      csv.find(",model_calls,evaluations,agent_seconds,role_tokens,geomean_compiler_speedup,cost_runs,"),
      std::string::npos)
      << csv;
  EXPECT_NE(csv.find(",8,4,3,\"{\"\"coder\"\":3400,\"\"designer\"\":680}\",,0,0,,,\n"), std::string::npos)
      << csv;
  std::filesystem::remove_all(dir);
  const std::string table = agents_table(m);
  EXPECT_NE(table.find("coder 3400, designer 680"), std::string::npos) << table;
  EXPECT_NE(table.find("1/2"), std::string::npos) << table;  // one of two configurations solved
}

// Porting next to the same settings without porting, on the configurations both ran.
TEST(Metrics, ThePortingTableComparesAPortingAgentWithTheSameSettingsWithoutPorting) {
  std::vector<RunRecord> runs;
  // C1: both solve, porting faster; C2: only porting solves; C3: only without porting; C4: only porting ran.
  runs.push_back(make_run("port:other:default:m", "default", "relu", 1, "C1", 1, "pass", 100, 200));
  runs.push_back(make_run("workflow:default:m", "default", "relu", 1, "C1", 1, "pass", 150, 200));
  runs.push_back(make_run("port:other:default:m", "default", "relu", 1, "C2", 1, "pass", 100, 200));
  runs.push_back(make_run("workflow:default:m", "default", "relu", 1, "C2", 1, "mismatch", 0, 0));
  runs.push_back(make_run("port:other:default:m", "default", "relu", 1, "C3", 1, "mismatch", 0, 0));
  runs.push_back(make_run("workflow:default:m", "default", "relu", 1, "C3", 1, "pass", 100, 200));
  runs.push_back(make_run("port:other:default:m", "default", "relu", 1, "C4", 1, "pass", 100, 200));
  const auto m = compute_metrics(runs, {}, {});
  const auto j = porting_json(m);
  ASSERT_EQ(j.size(), 1u);
  EXPECT_EQ(j[0]["plain_agent"], "workflow:default:m");
  EXPECT_EQ(j[0]["configs"], 3);
  EXPECT_EQ(j[0]["solved_port"], 2);
  EXPECT_EQ(j[0]["solved_plain"], 2);
  EXPECT_EQ(j[0]["only_port"], 1);
  EXPECT_EQ(j[0]["only_plain"], 1);
  EXPECT_EQ(j[0]["both_solved"], 1);
  EXPECT_EQ(j[0]["port_faster"], 1);
  EXPECT_NE(porting_table(m).find("port:other:default:m"), std::string::npos);
  // No porting agent: no table.
  EXPECT_EQ(porting_table(compute_metrics({runs[1]}, {}, {})), "");
}

TEST(Report, CsvQuotesFieldsAndHasOneRowPerRun) {
  auto dir = testing::fresh_dir("csv");
  auto r = make_run("tuner", "default", "relu", 1, "C1", 1, "pass", 100, 100);
  r.error = "a, \"quoted\"\nmessage";
  write_runs_csv({r, make_run("tuner", "default", "relu", 1, "C2", 1, "mismatch", 0, 0)}, dir / "runs.csv");
  std::ifstream in(dir / "runs.csv");
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  EXPECT_EQ(text.rfind("platform,hw_config,task,level,config,agent,attempt,status,verdict,error,", 0), 0u);
  EXPECT_NE(text.find("\"a, \"\"quoted\"\"\nmessage\""), std::string::npos) << text;
  EXPECT_NE(text.find("systolic,default,relu,1,C2,tuner,1,submitted,mismatch,,"), std::string::npos) << text;
  std::filesystem::remove_all(dir);
}

TEST(Report, HtmlEmbedsTheDataSafely) {
  ReportData d;
  auto r = make_run("tuner", "default", "relu", 1, "C1", 1, "mismatch", 0, 0);
  r.error = "</script><script>alert(1)</script>";
  d.runs = {r};
  d.metrics = compute_metrics(d.runs, {}, {});
  const std::string page = html_report(d);
  EXPECT_EQ(page.find("</script><script>alert"), std::string::npos);
  EXPECT_NE(page.find("<\\/script><script>alert(1)<\\/script>"), std::string::npos);
  EXPECT_EQ(page.find("KCRAFT_REPORT_DATA"), std::string::npos);
  // Nothing is loaded from elsewhere: the only URL is the SVG namespace.
  size_t urls = 0;
  for (size_t at = page.find("://"); at != std::string::npos; at = page.find("://", at + 1)) ++urls;
  EXPECT_EQ(urls, 1u);
  EXPECT_NE(page.find("http://www.w3.org/2000/svg"), std::string::npos);
}

}  // namespace
}  // namespace kcraft::bench
