// Regression tracking: runs matched by key, slower/broken/faster/fixed by the threshold, both input kinds.
#include <gtest/gtest.h>

#include <fstream>

#include "agent/bench/compare.h"
#include "agent/bench/report.h"
#include "agent/bench/store.h"
#include "tests/bench/test_util.h"

namespace kcraft::bench {
namespace {

using testing::make_run;

RunRecord run(const std::string& task, const std::string& config, const std::string& verdict,
              uint64_t cycles) {
  return make_run("baseline", "default", task, 1, config, 1, verdict, cycles, 1000);
}

const ComparedRun& find(const CompareResult& r, const std::string& task, const std::string& config) {
  for (const auto& c : r.runs) {
    if (c.key.task == task && c.key.config == config) return c;
  }
  throw std::runtime_error("no run " + task + " " + config);
}

TEST(Compare, ClassifiesEachRunByVerdictAndTheThreshold) {
  const std::vector<RunRecord> before = {run("gemm", "C1", "pass", 1000),     run("gemm", "C2", "pass", 1000),
                                         run("gemm", "C3", "pass", 1000),     run("relu", "C1", "pass", 1000),
                                         run("relu", "C2", "mismatch", 1000), run("relu", "C3", "pass", 500),
                                         run("silu", "C1", "timeout", 0)};
  const std::vector<RunRecord> after = {run("gemm", "C1", "pass", 1021),  // +2.1%: slower than 2%
                                        run("gemm", "C2", "pass", 1020),  // +2.0%: within
                                        run("gemm", "C3", "pass", 900),   // -10%: faster
                                        run("relu", "C1", "mismatch", 0), run("relu", "C2", "pass", 800),
                                        run("silu", "C1", "timeout", 0),  // incorrect in both: same
                                        run("silu", "C2", "pass", 10)};
  const CompareOptions options;  // 2%
  const auto r = compare_runs(before, after, options);
  EXPECT_EQ(find(r, "gemm", "C1").change, Change::kSlower);
  EXPECT_NEAR(find(r, "gemm", "C1").cycles_change_pct, 2.1, 1e-9);
  EXPECT_EQ(find(r, "gemm", "C2").change, Change::kSame);
  EXPECT_EQ(find(r, "gemm", "C3").change, Change::kFaster);
  EXPECT_EQ(find(r, "relu", "C1").change, Change::kBroken);
  EXPECT_EQ(find(r, "relu", "C2").change, Change::kFixed);
  EXPECT_EQ(find(r, "relu", "C3").change, Change::kOnlyOld);
  EXPECT_EQ(find(r, "silu", "C1").change, Change::kSame);
  EXPECT_EQ(find(r, "silu", "C2").change, Change::kOnlyNew);
  EXPECT_EQ(r.slower, 1u);
  EXPECT_EQ(r.broken, 1u);
  EXPECT_EQ(r.faster, 1u);
  EXPECT_EQ(r.fixed, 1u);
  EXPECT_EQ(r.same, 2u);
  EXPECT_EQ(r.only_old, 1u);
  EXPECT_EQ(r.only_new, 1u);
  EXPECT_TRUE(r.regressed);
  EXPECT_EQ(r.compared_cycles, 3u);
  EXPECT_NEAR(r.geomean_ratio, std::cbrt(1.021 * 1.020 * 0.9), 1e-12);

  const std::string text = compare_text(r, options, false);
  EXPECT_NE(text.find("1 run got slower than 2%: systolic/default gemm C1 baseline (+2.1%)"),
            std::string::npos)
      << text;
  EXPECT_NE(
      text.find("1 run correct before is not now: systolic/default relu C1 baseline (pass -> mismatch)"),
      std::string::npos)
      << text;
  EXPECT_NE(text.find("REGRESSED"), std::string::npos);
  EXPECT_EQ(text.find("gemm     C2"), std::string::npos) << "unchanged runs are listed only with --all";
  EXPECT_NE(compare_text(r, options, true).find("C2"), std::string::npos);
  const auto j = compare_json(r, options);
  EXPECT_EQ(j["regressed"], true);
  EXPECT_EQ(j["counts"]["slower"], 1);
  EXPECT_EQ(j["runs"].size(), 8u);
}

TEST(Compare, NoRegressionWithinTheThresholdOrWhenOnlyFaster) {
  const auto r = compare_runs({run("gemm", "C1", "pass", 1000)}, {run("gemm", "C1", "pass", 1040)},
                              CompareOptions{5.0, false});
  EXPECT_FALSE(r.regressed);
  EXPECT_EQ(r.same, 1u);
  const auto faster = compare_runs({run("gemm", "C1", "pass", 1000)}, {run("gemm", "C1", "pass", 10)}, {});
  EXPECT_FALSE(faster.regressed);
  EXPECT_NE(compare_text(faster, {}, false).find("no regression"), std::string::npos);
  // With --fail-on-missing, a run that disappeared counts.
  const auto missing = compare_runs({run("gemm", "C1", "pass", 1000)}, {}, CompareOptions{2.0, true});
  EXPECT_TRUE(missing.regressed);
  EXPECT_THROW(compare_runs({}, {}, CompareOptions{-1.0, false}), std::invalid_argument);
}

TEST(Compare, MarksHardwareAndKernelChangesAndKeysByAgentAndAttempt) {
  RunRecord a = run("gemm", "C1", "pass", 1000), b = a;
  a.hardware_id = "h1";
  b.hardware_id = "h2";
  b.kernel = "another kernel";
  RunRecord tuner = make_run("tuner", "default", "gemm", 1, "C1", 1, "pass", 10, 1000);
  RunRecord second = make_run("baseline", "default", "gemm", 1, "C1", 2, "pass", 5000, 1000);
  const auto r = compare_runs({a, tuner}, {b, second}, {});
  ASSERT_EQ(r.runs.size(), 3u);
  EXPECT_TRUE(r.runs[0].hardware_changed);
  EXPECT_TRUE(r.runs[0].kernel_changed);
  EXPECT_EQ(r.only_old, 1u);  // the tuner run
  EXPECT_EQ(r.only_new, 1u);  // attempt 2 is another run, not attempt 1 slowed down
  EXPECT_FALSE(r.regressed);
}

TEST(Compare, ReadsAStoreAndAReportJsonAlikeAndRefusesAnythingElse) {
  const auto dir = testing::fresh_dir("compare");
  const auto db = dir / "r.db";
  {
    ResultStore store(db);
    store.insert_run(run("gemm", "C1", "pass", 1000));
    store.insert_run(run("relu", "C1", "mismatch", 0));
  }
  const auto from_db = load_runs_for_compare(db);
  ASSERT_EQ(from_db.size(), 2u);
  {
    const ResultStore store(db);
    std::ofstream(dir / "report.json") << report_json(load_report_data(store)).dump();
  }
  const auto from_json = load_runs_for_compare(dir / "report.json");
  ASSERT_EQ(from_json.size(), 2u);
  const auto r = compare_runs(from_db, from_json, {});
  EXPECT_EQ(r.same, 2u);
  EXPECT_FALSE(r.regressed);

  std::ofstream(dir / "garbage.json") << "not json {";
  std::ofstream(dir / "object.json") << R"({"rows": []})";
  for (const auto& bad : {dir / "garbage.json", dir / "object.json", dir / "absent.db"}) {
    try {
      load_runs_for_compare(bad);
      ADD_FAILURE() << bad << " was accepted";
    } catch (const std::runtime_error& e) {
      EXPECT_NE(std::string(e.what()).find(bad.filename().string()), std::string::npos) << e.what();
    }
  }
  EXPECT_FALSE(std::filesystem::exists(dir / "absent.db"));
  std::filesystem::remove_all(dir);
}

// Found by the report_json fuzz harness: a count of 1e53 was cast to unsigned (undefined behaviour).
TEST(Compare, NumbersOutOfTheirRangeInAReportJsonAreErrorsNamingTheField) {
  auto good = run("gemm", "C1", "pass", 1000).to_json();
  ASSERT_NO_THROW(RunRecord::from_json(good));
  const std::vector<std::pair<std::string, nlohmann::json>> bad = {
      {"iterations", nlohmann::json::parse("99999999999999999999999999999999999999999999999999990")},
      {"iterations", -1},
      {"iterations", 4294967296ull},
      {"cycles", 1.5},
      {"cycles", "1000"},
      {"attempt", 1e30},
      {"level", 3000000000ull},
      {"worker_pid", 1e300},
      {"first_pass_iteration", -2},
      {"tuned_baseline_cycles", true},
  };
  for (const auto& [field, value] : bad) {
    auto j = good;
    j[field] = value;
    const nlohmann::json report = {{"runs", nlohmann::json::array({j})}};
    try {
      runs_from_report_json(report.dump(), "r.json");
      ADD_FAILURE() << field << " = " << value.dump() << " was accepted";
    } catch (const std::runtime_error& e) {
      EXPECT_NE(std::string(e.what()).find("r.json: runs[0]: \"" + field + "\""), std::string::npos)
          << e.what();
    }
  }
}

}  // namespace
}  // namespace kcraft::bench
