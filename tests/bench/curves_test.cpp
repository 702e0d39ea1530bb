// The curves (agent/bench/curves.h): trajectories from transcript events, each run's progress from its
// stored trajectory, its transcript or its summary, and the per-agent curves over cells on hand-built runs
// whose values are known.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>

#include "agent/bench/curves.h"
#include "agent/bench/uncertainty.h"
#include "tests/bench/test_util.h"

namespace kcraft::bench {
namespace {

using nlohmann::json;
using testing::make_run;

json response(unsigned iteration, uint64_t prompt, uint64_t completion) {
  return {{"type", "llm_response"},
          {"iteration", iteration},
          {"usage", {{"prompt_tokens", prompt}, {"completion_tokens", completion}, {"reasoning_tokens", 7}}}};
}

json eval_result(unsigned iteration, const std::string& verdict, uint64_t cycles, bool is_error = false) {
  return {{"type", "tool_result"},
          {"iteration", iteration},
          {"name", "run_eval"},
          {"is_error", is_error},
          {"data", {{"verdict", verdict}, {"cycles", cycles}}}};
}

// A trajectory as the worker would store it: tokens per iteration, and the cycles of a passing run_eval in
// the iterations that have one.
json stored(const std::vector<uint64_t>& tokens_per_iteration,
            const std::map<unsigned, uint64_t>& pass_cycles) {
  std::vector<json> events;
  for (unsigned i = 1; i <= tokens_per_iteration.size(); ++i) {
    events.push_back(response(i, tokens_per_iteration[i - 1], 0));
    const auto pass = pass_cycles.find(i);
    if (pass != pass_cycles.end()) events.push_back(eval_result(i, "pass", pass->second));
  }
  return trajectory_json(trajectory_from_events(events));
}

TEST(Curves, ATrajectoryCountsTokensPassesAndTheBestCyclesPerIteration) {
  const std::vector<json> events = {
      {{"type", "run_start"}, {"agent", "llm:m"}},
      eval_result(0, "pass", 10),  // a search's seed: not the agent's work
      {{"type", "llm_request"}, {"iteration", 1}},
      response(1, 100, 10),
      {{"type", "tool_result"}, {"iteration", 1}, {"name", "write_code"}, {"is_error", false}},
      eval_result(1, "mismatch", 900),
      response(2, 200, 20),
      eval_result(2, "pass", 800),
      eval_result(2, "pass", 0, true),  // an error result is no pass
      response(3, 300, 30),
      eval_result(3, "pass", 900),  // slower: the best stays
      // A search applies a candidate of model call 5 before call 4's: iterations are sorted.
      eval_result(5, "pass", 600),
      response(5, 500, 50),
      response(4, 400, 40),
      {{"type", "llm_request"}, {"iteration", 6}},  // a provider error: no response, no iteration
      {{"type", "provider_error"}, {"iteration", 6}},
      {{"type", "score"}, {"score", {{"verdict", "pass"}}}}};
  const auto t = trajectory_from_events(events);
  const std::vector<TrajectoryPoint> expected = {{1, 110, false, 0},
                                                 {2, 330, true, 800},
                                                 {3, 660, true, 800},
                                                 {4, 1100, true, 800},
                                                 {5, 1650, true, 600}};
  EXPECT_EQ(t, expected);
  EXPECT_EQ(trajectory_from_json(trajectory_json(t)), t);
  EXPECT_THROW(trajectory_from_json(json::object()), std::invalid_argument);
  EXPECT_THROW(trajectory_from_json(json::array({1, 2})), std::invalid_argument);
  EXPECT_TRUE(trajectory_from_events({}).empty());
}

TEST(Curves, ARunIsSolvedAtItsFirstPassOnlyWhenItIsCorrect) {
  auto run = make_run("llm:m", "default", "relu", 1, "C1", 1, "pass", 400, 1000);
  run.iterations = 4;
  run.prompt_tokens = 1000;
  run.trajectory = stored({100, 150, 150, 600}, {{2, 500}, {3, 400}});
  auto p = run_progress(run);
  EXPECT_EQ(p.source, ProgressSource::kStored);
  EXPECT_EQ(p.solved_at, 2u);
  EXPECT_EQ(p.solved_tokens, 250u);
  EXPECT_EQ(p.tokens_spent, 1000u);
  EXPECT_FALSE(p.speedup_at(1).has_value());
  EXPECT_DOUBLE_EQ(*p.speedup_at(2), 2.0);
  EXPECT_DOUBLE_EQ(*p.speedup_at(3), 2.5);
  EXPECT_DOUBLE_EQ(*p.speedup_at(9), 2.5);

  // The same development passes, but the hidden seeds failed: never solved.
  auto wrong = run;
  wrong.verdict = "mismatch";
  p = run_progress(wrong);
  EXPECT_FALSE(p.solved_at.has_value());
  EXPECT_TRUE(p.speedup_steps.empty());
  EXPECT_EQ(p.tokens_spent, 1000u);

  // Correct, never evaluated during the run: solved at its last iteration, with all its tokens; its
  // recorded speedup from then on.
  auto untested = run;
  untested.trajectory = stored({100, 150, 150, 600}, {});
  p = run_progress(untested);
  EXPECT_EQ(p.solved_at, 4u);
  EXPECT_EQ(p.solved_tokens, 1000u);
  EXPECT_DOUBLE_EQ(*p.speedup_at(4), 2.5);  // 1000 / 400, the record's speedup
  EXPECT_FALSE(p.speedup_at(3).has_value());

  // The baseline agent: no iterations, no tokens: solved at iteration 1.
  auto baseline = make_run("baseline", "default", "relu", 1, "C1", 1, "pass", 1000, 1000);
  baseline.iterations = 0;
  baseline.trajectory = json::array();
  p = run_progress(baseline);
  EXPECT_EQ(p.solved_at, 1u);
  EXPECT_EQ(p.solved_tokens, 0u);
  EXPECT_DOUBLE_EQ(*p.speedup_at(1), 1.0);

  // No baseline to compare with: solved, without a speedup.
  auto no_baseline = run;
  no_baseline.baseline_cycles = 0;
  no_baseline.speedup = 0;
  p = run_progress(no_baseline);
  EXPECT_EQ(p.solved_at, 2u);
  EXPECT_TRUE(p.speedup_steps.empty());
}

TEST(Curves, RunsStoredWithoutATrajectoryAreReadFromTheirTranscriptElseTheirSummary) {
  const auto dir = testing::fresh_dir("curves_transcript");
  auto run = make_run("llm:m", "default", "relu", 1, "C1", 1, "pass", 500, 1000);
  run.iterations = 3;
  run.prompt_tokens = 900;
  run.first_pass_iteration = 3;
  run.transcript = (dir / "t.jsonl").string();
  {
    std::ofstream out(run.transcript);
    for (const auto& e :
         {response(1, 100, 0), response(2, 300, 0), eval_result(2, "pass", 500), response(3, 500, 0)})
      out << e.dump() << "\n";
  }
  auto p = run_progress(run);
  EXPECT_EQ(p.source, ProgressSource::kTranscript);
  EXPECT_EQ(p.solved_at, 2u);
  EXPECT_EQ(p.solved_tokens, 400u);
  EXPECT_DOUBLE_EQ(*p.speedup_at(2), 2.0);

  // Cut short mid-line: the summary fields (the first pass; all of the run's tokens, the only ones known).
  { std::ofstream(run.transcript, std::ios::app) << "{\"type\": \"llm_resp"; }
  p = run_progress(run);
  EXPECT_EQ(p.source, ProgressSource::kSummary);
  EXPECT_EQ(p.solved_at, 3u);
  EXPECT_EQ(p.solved_tokens, 900u);
  EXPECT_DOUBLE_EQ(*p.speedup_at(3), 2.0);
  std::filesystem::remove_all(dir);
  p = run_progress(run);  // gone
  EXPECT_EQ(p.source, ProgressSource::kSummary);
  EXPECT_EQ(p.solved_at, 3u);

  // A stored trajectory wins over the transcript.
  run.trajectory = stored({100}, {{1, 250}});
  p = run_progress(run);
  EXPECT_EQ(p.source, ProgressSource::kStored);
  EXPECT_EQ(p.solved_at, 1u);
  EXPECT_DOUBLE_EQ(*p.speedup_at(1), 4.0);
}

// Agent a: relu C1, three attempts, two solve at iteration 2 (250 tokens; 500 then 400 cycles from
// iteration 3), the third passes its development run at iteration 3 but fails the hidden seeds; relu C2,
// one attempt, solves at iteration 1 (50 tokens) as fast as the baseline. Agent b: relu C1, three attempts,
// each solves at iteration 4 (800 tokens) in 250 cycles. Baseline: 1000 cycles everywhere, budget 4.
std::vector<RunRecord> known_runs() {
  std::vector<RunRecord> runs;
  const auto run = [&](const std::string& agent, const std::string& config, unsigned attempt,
                       const std::string& verdict, uint64_t cycles, const json& trajectory) {
    auto r = make_run(agent, "default", "relu", 1, config, attempt, verdict, cycles, 1000);
    r.budget = 4;
    r.iterations = static_cast<unsigned>(trajectory.size());
    r.prompt_tokens = trajectory.back()["tokens"].get<uint64_t>();
    r.trajectory = trajectory;
    runs.push_back(r);
  };
  for (unsigned attempt = 1; attempt <= 2; ++attempt)
    run("a", "C1", attempt, "pass", 400, stored({100, 150, 150, 100}, {{2, 500}, {3, 400}}));
  run("a", "C1", 3, "mismatch", 0, stored({100, 150, 150, 100}, {{3, 400}}));
  run("a", "C2", 1, "pass", 1000, stored({50}, {{1, 1000}}));
  for (unsigned attempt = 1; attempt <= 3; ++attempt)
    run("b", "C1", attempt, "pass", 250, stored({200, 200, 200, 200}, {{4, 250}}));
  return runs;
}

TEST(Curves, SolvedShareAndSpeedupPerAgentAreTheOnesTheRunsImply) {
  const auto runs = known_runs();
  const auto metrics = compute_metrics(runs, {}, {});
  const auto curves = compute_curves(runs, metrics);
  ASSERT_EQ(curves.groups.size(), 2u);
  const auto& a = curves.groups[0];
  const auto& b = curves.groups[1];
  ASSERT_EQ(a.agent, "a");
  ASSERT_EQ(b.agent, "b");
  EXPECT_EQ(a.cells, 2u);
  EXPECT_EQ(a.runs, 4u);
  EXPECT_EQ(a.max_iterations, 4u);
  EXPECT_EQ(a.max_tokens, 500u);
  EXPECT_EQ(a.from_stored, 3u);  // the correct runs' progress
  EXPECT_EQ(a.from_transcript + a.from_summary, 0u);

  // Each cell weighs one, its attempts share it: C2 is solved from iteration 1, C1 by 2 of 3 from 2.
  ASSERT_EQ(a.by_iteration.size(), 4u);
  EXPECT_DOUBLE_EQ(a.by_iteration[0].solved, (0.0 + 1.0) / 2);
  for (unsigned i = 1; i < 4; ++i) EXPECT_DOUBLE_EQ(a.by_iteration[i].solved, (2.0 / 3 + 1.0) / 2) << i + 1;
  ASSERT_EQ(b.by_iteration.size(), 4u);
  for (unsigned i = 0; i < 3; ++i) EXPECT_DOUBLE_EQ(b.by_iteration[i].solved, 0.0) << i + 1;
  EXPECT_DOUBLE_EQ(b.by_iteration[3].solved, 1.0);

  // At the budget the curve is pass@1.
  const auto u = compute_uncertainty(runs, metrics);
  EXPECT_DOUBLE_EQ(a.by_iteration.back().solved, *u.group("a", "systolic/default")->pass_at_1.value);
  EXPECT_DOUBLE_EQ(b.by_iteration.back().solved, *u.group("b", "systolic/default")->pass_at_1.value);

  // Against tokens: a step at each solving run's tokens.
  ASSERT_EQ(a.by_tokens.size(), 3u);
  EXPECT_EQ(a.by_tokens[0].tokens, 0u);
  EXPECT_DOUBLE_EQ(a.by_tokens[0].solved, 0.0);
  EXPECT_EQ(a.by_tokens[1].tokens, 50u);
  EXPECT_DOUBLE_EQ(a.by_tokens[1].solved, 0.5);
  EXPECT_EQ(a.by_tokens[2].tokens, 250u);
  EXPECT_DOUBLE_EQ(a.by_tokens[2].solved, (2.0 / 3 + 1.0) / 2);
  ASSERT_EQ(b.by_tokens.size(), 2u);
  EXPECT_EQ(b.by_tokens[1].tokens, 800u);
  EXPECT_DOUBLE_EQ(b.by_tokens[1].solved, 1.0);

  // Geometric-mean speedup over the runs solved by then: C2's 1x alone, then 2x twice with it, then 2.5x.
  EXPECT_DOUBLE_EQ(*a.by_iteration[0].geomean_speedup, 1.0);
  EXPECT_EQ(a.by_iteration[0].speedup_runs, 1u);
  EXPECT_NEAR(*a.by_iteration[1].geomean_speedup, std::cbrt(2.0 * 2.0 * 1.0), 1e-12);
  EXPECT_EQ(a.by_iteration[1].speedup_runs, 3u);
  EXPECT_NEAR(*a.by_iteration[2].geomean_speedup, std::cbrt(2.5 * 2.5 * 1.0), 1e-12);
  EXPECT_NEAR(*a.by_iteration[3].geomean_speedup, std::cbrt(2.5 * 2.5 * 1.0), 1e-12);
  for (unsigned i = 0; i < 3; ++i) EXPECT_FALSE(b.by_iteration[i].geomean_speedup.has_value()) << i + 1;
  EXPECT_DOUBLE_EQ(*b.by_iteration[3].geomean_speedup, 4.0);
  EXPECT_EQ(b.by_iteration[3].speedup_runs, 3u);

  // The JSON carries the same points, the text the steps.
  const json j = curves.to_json();
  ASSERT_EQ(j["groups"].size(), 2u);
  EXPECT_EQ(j["groups"][1]["by_iteration"][3]["geomean_speedup"], 4.0);
  EXPECT_TRUE(j["groups"][1]["by_iteration"][0]["geomean_speedup"].is_null());
  EXPECT_EQ(j["groups"][1]["by_tokens"][1]["tokens"], 800);
  EXPECT_EQ(j["groups"][0]["progress_from"]["stored"], 3);
  const std::string text = curves_table(curves);
  EXPECT_NE(text.find("1:0.50 2:0.83"), std::string::npos) << text;
  EXPECT_NE(text.find("0:0.00 50:0.50 250:0.83"), std::string::npos) << text;
  EXPECT_NE(text.find("1:1.000x 2:1.587x 3:1.842x"), std::string::npos) << text;
  EXPECT_NE(text.find("1:0.00 4:1.00"), std::string::npos) << text;
  EXPECT_NE(text.find("0:0.00 800:1.00"), std::string::npos) << text;
  EXPECT_NE(text.find("4:4.000x"), std::string::npos) << text;
}

TEST(Curves, OfflineAgentsWithoutTokensAreLeftOutOfTheSweepsTableButNotTheReports) {
  std::vector<RunRecord> runs = {make_run("baseline", "default", "relu", 1, "C1", 1, "pass", 1000, 1000)};
  runs[0].iterations = 0;
  runs[0].budget = 0;
  const auto curves = compute_curves(runs, compute_metrics(runs, {}, {}));
  ASSERT_EQ(curves.groups.size(), 1u);
  const auto& g = curves.groups[0];
  EXPECT_EQ(g.max_iterations, 1u);
  ASSERT_EQ(g.by_iteration.size(), 1u);
  EXPECT_DOUBLE_EQ(g.by_iteration[0].solved, 1.0);
  EXPECT_EQ(g.from_summary, 1u);  // no trajectory, no transcript
  ASSERT_EQ(g.by_tokens.size(), 1u);
  EXPECT_DOUBLE_EQ(g.by_tokens[0].solved, 1.0);  // solved with no tokens at all
  EXPECT_EQ(curves_table(curves, true), "");
  EXPECT_NE(curves_table(curves).find("baseline"), std::string::npos);
  // Planned cells without finished runs make no group.
  const std::vector<PlannedRun> plan = {{{"systolic", "default", "relu", "C1", "llm:m", 1}, 1}};
  EXPECT_TRUE(compute_curves({}, compute_metrics({}, plan, {})).groups.empty());
}

}  // namespace
}  // namespace kcraft::bench
