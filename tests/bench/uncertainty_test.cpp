// pass@k and the bootstrap intervals of agent/bench/uncertainty.h, on hand-made runs whose answers are
// known.
#include "agent/bench/uncertainty.h"

#include <gtest/gtest.h>

#include <cmath>
#include <functional>

#include "agent/bench/report.h"
#include "tests/bench/test_util.h"

namespace kcraft::bench {
namespace {

using testing::make_run;

// pass@k by brute force: the share of the k-subsets of n attempts (the first c correct) holding a
// correct one.
double pass_at_k_by_enumeration(unsigned n, unsigned c, unsigned k) {
  unsigned subsets = 0, with_correct = 0;
  for (unsigned mask = 0; mask < (1u << n); ++mask) {
    if (static_cast<unsigned>(__builtin_popcount(mask)) != k) continue;
    ++subsets;
    if ((mask & ((1u << c) - 1)) != 0) ++with_correct;
  }
  return static_cast<double>(with_correct) / subsets;
}

TEST(PassAtK, KnownValues) {
  EXPECT_DOUBLE_EQ(pass_at_k(3, 1, 1), 1.0 / 3);
  EXPECT_DOUBLE_EQ(pass_at_k(3, 1, 2), 2.0 / 3);
  EXPECT_DOUBLE_EQ(pass_at_k(3, 1, 3), 1.0);
  EXPECT_DOUBLE_EQ(pass_at_k(3, 0, 2), 0.0);
  EXPECT_NEAR(pass_at_k(5, 2, 3), 1.0 - 1.0 / 10, 1e-12);     // C(3,3)/C(5,3)
  EXPECT_NEAR(pass_at_k(10, 3, 5), 1.0 - 21.0 / 252, 1e-12);  // C(7,5)/C(10,5)
}

TEST(PassAtK, AgreesWithEnumeratingEverySubset) {
  for (unsigned n = 1; n <= 9; ++n) {
    for (unsigned c = 0; c <= n; ++c) {
      for (unsigned k = 1; k <= n; ++k) {
        EXPECT_NEAR(pass_at_k(n, c, k), pass_at_k_by_enumeration(n, c, k), 1e-12)
            << "n=" << n << " c=" << c << " k=" << k;
      }
    }
  }
}

TEST(PassAtK, RefusesImpossibleArguments) {
  EXPECT_THROW(pass_at_k(3, 1, 0), std::invalid_argument);
  EXPECT_THROW(pass_at_k(3, 1, 4), std::invalid_argument);
  EXPECT_THROW(pass_at_k(3, 4, 1), std::invalid_argument);
}

// `solved` cells whose one attempt passes and `unsolved` whose one attempt fails, for agent `agent`.
std::vector<RunRecord> one_attempt_cells(const std::string& agent, unsigned solved, unsigned unsolved) {
  std::vector<RunRecord> runs;
  for (unsigned i = 0; i < solved + unsolved; ++i) {
    runs.push_back(make_run(agent, "default", "t" + std::to_string(i), 1, "C1", 1,
                            i < solved ? "pass" : "fail", 1000, 1000));
  }
  return runs;
}

std::vector<CellRuns> cells_of(const std::vector<RunRecord>& runs) {
  std::vector<CellRuns> cells;
  for (const auto& r : runs) cells.push_back({&r});
  return cells;
}

const CellStatistic kPassAt1 = [](const std::vector<const CellRuns*>& s) { return mean_pass_at_k(s, 1); };

TEST(Bootstrap, TheIntervalOfAShareIsAboutTheNormalOneAndHoldsTheEstimate) {
  const auto runs = one_attempt_cells("a", 20, 20);
  const auto e = bootstrap(cells_of(runs), kPassAt1, {});
  ASSERT_TRUE(e.value && e.interval);
  EXPECT_DOUBLE_EQ(*e.value, 0.5);
  // 1.96 * sqrt(0.25 / 40) = 0.155: the percentile bootstrap of a mean of 40 coin flips is close to it.
  EXPECT_NEAR(e.interval->low, 0.5 - 0.155, 0.04);
  EXPECT_NEAR(e.interval->high, 0.5 + 0.155, 0.04);
  EXPECT_LE(e.interval->low, *e.value);
  EXPECT_GE(e.interval->high, *e.value);
}

TEST(Bootstrap, MoreCellsGiveANarrowerInterval) {
  const auto few = one_attempt_cells("a", 5, 5), many = one_attempt_cells("a", 80, 80);
  const auto narrow = bootstrap(cells_of(many), kPassAt1, {});
  const auto wide = bootstrap(cells_of(few), kPassAt1, {});
  ASSERT_TRUE(narrow.interval && wide.interval);
  EXPECT_LT(narrow.interval->high - narrow.interval->low, 0.5 * (wide.interval->high - wide.interval->low));
}

TEST(Bootstrap, TheSameSeedGivesTheSameIntervalAndAnotherSeedAnother) {
  const auto runs = one_attempt_cells("a", 7, 6);
  const auto cells = cells_of(runs);
  const auto first = bootstrap(cells, kPassAt1, {});
  const auto again = bootstrap(cells, kPassAt1, {});
  BootstrapSettings other;
  other.seed = 7;
  const auto reseeded = bootstrap(cells, kPassAt1, other);
  ASSERT_TRUE(first.interval && again.interval && reseeded.interval);
  EXPECT_EQ(first.interval->low, again.interval->low);
  EXPECT_EQ(first.interval->high, again.interval->high);
  BootstrapSettings fewer;
  fewer.resamples = 50;
  const auto coarse = bootstrap(cells, kPassAt1, fewer);
  // Different resamples: at least one bound moves (13 cells give many distinct resample means).
  EXPECT_TRUE(reseeded.interval->low != first.interval->low ||
              reseeded.interval->high != first.interval->high ||
              coarse.interval->low != first.interval->low || coarse.interval->high != first.interval->high);
}

TEST(Bootstrap, IdenticalCellsGiveAPointInterval) {
  const auto runs = one_attempt_cells("a", 12, 0);
  const auto e = bootstrap(cells_of(runs), kPassAt1, {});
  ASSERT_TRUE(e.interval);
  EXPECT_EQ(e.interval->low, 1.0);
  EXPECT_EQ(e.interval->high, 1.0);
}

TEST(Bootstrap, AnUndefinedStatisticHasNoEstimate) {
  const auto runs = one_attempt_cells("a", 0, 6);  // nothing correct: no speedup to average
  const auto e = bootstrap(cells_of(runs), pooled_geomean_speedup, {});
  EXPECT_FALSE(e.value);
  EXPECT_FALSE(e.interval);
}

// Agent `steady` passes every attempt of every cell; `one_in_three` passes the first of three attempts;
// `coin` passes every attempt of half its cells; `coin_too` the same cells, so it never differs from coin.
std::vector<RunRecord> three_attempt_sweep() {
  std::vector<RunRecord> runs;
  for (unsigned cell = 0; cell < 12; ++cell) {
    const std::string task = "t" + std::to_string(cell);
    for (unsigned attempt = 1; attempt <= 3; ++attempt) {
      runs.push_back(make_run("steady", "default", task, 1, "C1", attempt, "pass", 500, 1000));
      runs.push_back(make_run("one_in_three", "default", task, 1, "C1", attempt,
                              attempt == 1 ? "pass" : "fail", 1000, 1000));
      runs.push_back(
          make_run("coin", "default", task, 1, "C1", attempt, cell % 2 == 0 ? "pass" : "fail", 1000, 1000));
      runs.push_back(make_run("coin_too", "default", task, 1, "C1", attempt, cell % 2 == 0 ? "pass" : "fail",
                              1000, 1000));
    }
  }
  return runs;
}

TEST(Uncertainty, PassAtKAndComparisonsOfAgentsOfKnownBehaviour) {
  const auto runs = three_attempt_sweep();
  const auto metrics = compute_metrics(runs, {}, {});
  const auto u = compute_uncertainty(runs, metrics);

  const auto* steady = u.group("steady", "systolic/default");
  const auto* one_in_three = u.group("one_in_three", "systolic/default");
  const auto* coin = u.group("coin", "systolic/default");
  ASSERT_TRUE(steady && one_in_three && coin);
  EXPECT_EQ(one_in_three->attempts, 3u);
  EXPECT_EQ(one_in_three->cells, 12u);
  EXPECT_NEAR(*one_in_three->pass_at_1.value, 1.0 / 3, 1e-12);
  EXPECT_NEAR(*one_in_three->pass_at_k.value, 1.0, 1e-12);  // one of three attempts always passes
  EXPECT_NEAR(one_in_three->pass_at_1.interval->high - one_in_three->pass_at_1.interval->low, 0.0, 1e-12);
  EXPECT_NEAR(*coin->pass_at_1.value, 0.5, 1e-12);
  EXPECT_GT(coin->pass_at_1.interval->high - coin->pass_at_1.interval->low, 0.3);  // 12 coin flips: wide
  EXPECT_NEAR(*steady->geomean_speedup.value, 2.0, 1e-12);

  // The pair in the metrics' agent order; `sign` turns its a - b into first - second.
  auto comparison = [&](const std::string& first, const std::string& second,
                        double* sign) -> const AgentComparison& {
    for (const auto& c : u.comparisons) {
      if (c.agent_a == first && c.agent_b == second) {
        *sign = 1;
        return c;
      }
      if (c.agent_a == second && c.agent_b == first) {
        *sign = -1;
        return c;
      }
    }
    ADD_FAILURE() << "no comparison " << first << " / " << second;
    return u.comparisons.front();
  };
  double sign = 0;
  const auto& steady_vs_third = comparison("steady", "one_in_three", &sign);
  EXPECT_EQ(steady_vs_third.common_cells, 12u);
  EXPECT_NEAR(sign * *steady_vs_third.pass_at_1_difference.value, 2.0 / 3, 1e-12);
  EXPECT_TRUE(steady_vs_third.pass_at_1_differs());
  EXPECT_NEAR(std::pow(*steady_vs_third.geomean_ratio.value, sign), 2.0, 1e-12);
  EXPECT_TRUE(steady_vs_third.geomean_differs());
  // Identical behaviour, cell for cell: the paired difference is exactly zero, never marked.
  const auto& coins = comparison("coin", "coin_too", &sign);
  EXPECT_EQ(*coins.pass_at_1_difference.value, 0.0);
  EXPECT_FALSE(coins.pass_at_1_differs());
  // coin against one_in_three: 0.5 - 0.333 on 12 cells, an interval that includes zero.
  const auto& coin_vs_third = comparison("coin", "one_in_three", &sign);
  EXPECT_NEAR(sign * *coin_vs_third.pass_at_1_difference.value, 0.5 - 1.0 / 3, 1e-12);
  EXPECT_FALSE(coin_vs_third.pass_at_1_differs());

  const std::string table = uncertainty_table(u);
  EXPECT_NE(table.find("0.33 [0.33, 0.33]"), std::string::npos) << table;
  // steady against one_in_three, + or - by the agents' order
  EXPECT_TRUE(table.find("+0.67 [+0.67, +0.67] *") != std::string::npos ||
              table.find("-0.67 [-0.67, -0.67] *") != std::string::npos)
      << table;
  EXPECT_NE(table.find("2000 resamples, seed 20261206"), std::string::npos) << table;
  const auto j = u.to_json();
  EXPECT_EQ(j["groups"].size(), 4u);
  EXPECT_EQ(j["comparisons"].size(), 6u);
}

TEST(Uncertainty, ASingleDeterministicAgentHasNothingToCompare) {
  const auto runs = one_attempt_cells("baseline", 6, 0);
  const auto u = compute_uncertainty(runs, compute_metrics(runs, {}, {}));
  EXPECT_TRUE(u.comparisons.empty());
  EXPECT_EQ(uncertainty_table(u, true), "");
  EXPECT_NE(uncertainty_table(u, false), "");
}

}  // namespace
}  // namespace kcraft::bench
