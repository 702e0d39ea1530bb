// What runs cost (agent/bench/cost.h) and the report's cost sections, on hand-made records: every expected
// number is worked out by hand in the comments.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <fstream>
#include <iterator>
#include <sstream>

#include "agent/bench/cost.h"
#include "agent/bench/metrics.h"
#include "agent/bench/report.h"
#include "tests/bench/test_util.h"

namespace kcraft::bench {
namespace {

using nlohmann::json;
using testing::make_run;

json prices_json(double prompt, double cached, double completion, double reasoning) {
  return agent::TokenPrices{prompt, cached, completion, reasoning}.to_json();
}

// An LLM agent's run on `model`, with `prices` (null: none) in its settings.
RunRecord llm_run(const std::string& config, unsigned attempt, const std::string& verdict, uint64_t prompt,
                  uint64_t completion, const std::string& model, const json& prices,
                  const std::string& agent = "llm:m") {
  RunRecord r = make_run(agent, "default", "relu", 1, config, attempt, verdict, 100, 200);
  r.prompt_tokens = prompt;
  r.completion_tokens = completion;
  r.agent_settings = {{"kind", "llm"}, {"provider", "openai"}, {"model", model}};
  if (!prices.is_null()) r.agent_settings["prices"] = prices;
  return r;
}

std::string slurp(const std::filesystem::path& file) {
  std::ifstream in(file);
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

TEST(Cost, ARunIsPricedFromItsTokensWithoutCountingCachedOrReasoningTwice) {
  RunRecord r = llm_run("C1", 1, "pass", 10000, 3000, "m", prices_json(2, 0.5, 8, 10));
  r.cached_prompt_tokens = 6000;  // of the 10000 prompt tokens
  r.reasoning_tokens = 2000;      // of the 3000 completion tokens
  const RunCost cost = run_cost(r);
  EXPECT_TRUE(cost.applies);
  ASSERT_TRUE(cost.usd.has_value());
  // 4000 x $2 + 6000 x $0.5 + 1000 x $8 + 2000 x $10 = 39000 per million: $0.039.
  EXPECT_NEAR(*cost.usd, 0.039, 1e-12);
  EXPECT_TRUE(cost.roles.empty());
  EXPECT_TRUE(cost.unpriced_models.empty());
}

// A workflow: the designer on a model of its own with its own prices, the coder and the conductor on the
// run's settings, the verifier calling no model.
RunRecord workflow_run() {
  RunRecord r =
      llm_run("C1", 1, "pass", 0, 0, "coder-model", prices_json(1, 0.25, 4, 4), "workflow:default:t");
  r.agent_settings["roles"] = {
      {"designer", {{"kind", "llm"}, {"model", "designer-model"}, {"prices", prices_json(3, 0.3, 15, 15)}}}};
  const auto use = [](uint64_t calls, uint64_t prompt, uint64_t cached, uint64_t completion) {
    return json{{"steps", 1},
                {"calls", calls},
                {"prompt_tokens", prompt},
                {"cached_prompt_tokens", cached},
                {"completion_tokens", completion},
                {"reasoning_tokens", 0}};
  };
  r.roles = {{"designer", use(1, 500, 200, 40)},
             {"coder", use(2, 2000, 0, 200)},
             {"conductor", use(1, 500, 0, 20)},
             {"verifier", use(0, 0, 0, 0)}};
  r.prompt_tokens = 3000;
  r.cached_prompt_tokens = 200;
  r.completion_tokens = 260;
  return r;
}

TEST(Cost, EachWorkflowRoleIsPricedAtItsOwnSettings) {
  const RunCost cost = run_cost(workflow_run());
  ASSERT_TRUE(cost.usd.has_value());
  // designer: 300 x $3 + 200 x $0.3 + 40 x $15 = 1560 per million; coder: 2000 x $1 + 200 x $4 = 2800;
  // conductor: 500 x $1 + 20 x $4 = 580; total 4940 per million.
  EXPECT_NEAR(cost.roles.at("designer"), 1560e-6, 1e-15);
  EXPECT_NEAR(cost.roles.at("coder"), 2800e-6, 1e-15);
  EXPECT_NEAR(cost.roles.at("conductor"), 580e-6, 1e-15);
  EXPECT_EQ(cost.roles.count("verifier"), 0u);
  EXPECT_NEAR(*cost.usd, 4940e-6, 1e-15);
}

TEST(Cost, WithoutPricesTheCostIsUnknownAndNamesTheModel) {
  const RunCost none = run_cost(llm_run("C1", 1, "pass", 1000, 100, "local-model", nullptr));
  EXPECT_TRUE(none.applies);
  EXPECT_FALSE(none.usd.has_value());
  EXPECT_EQ(none.unpriced_models, std::vector<std::string>{"local-model"});

  // One role without prices (its settings name another model and give none): the whole run is unknown.
  RunRecord r = workflow_run();
  r.agent_settings["roles"]["designer"].erase("prices");
  const RunCost partly = run_cost(r);
  EXPECT_FALSE(partly.usd.has_value());
  EXPECT_TRUE(partly.roles.empty());
  EXPECT_EQ(partly.unpriced_models, std::vector<std::string>{"designer-model"});

  // A price table by model name fills in: 300 x $2 + 200 x $1 + 40 x $10 = 1200 per million for the
  // designer, the others as before (2800 + 580).
  const agent::PriceTable table = {{"designer-model", {2, 1, 10, 10}}};
  const RunCost filled = run_cost(r, table);
  ASSERT_TRUE(filled.usd.has_value());
  EXPECT_NEAR(*filled.usd, (1200 + 2800 + 580) * 1e-6, 1e-15);
}

TEST(Cost, APriceTableWinsOverTheStoredPrices) {
  const RunRecord r = llm_run("C1", 1, "pass", 1'000'000, 0, "m", prices_json(5, 5, 5, 5));
  EXPECT_NEAR(*run_cost(r).usd, 5.0, 1e-12);
  EXPECT_NEAR(*run_cost(r, {{"m", {2, 2, 2, 2}}}).usd, 2.0, 1e-12);
  EXPECT_NEAR(*run_cost(r, {{"other", {2, 2, 2, 2}}}).usd, 5.0, 1e-12);  // another model's: not used
}

TEST(Cost, OfflineAgentsAndFailedJobsHaveNoCostAndAnLlmRunWithoutTokensCostsNothing) {
  RunRecord tuner = make_run("tuner", "default", "relu", 1, "C1", 1, "pass", 100, 200);
  tuner.agent_settings = {{"kind", "tuner"}};
  EXPECT_FALSE(run_cost(tuner).applies);
  EXPECT_FALSE(
      run_cost(error_record({"systolic", "default", "relu", "C1", "llm:m", 1}, 1, "crashed")).applies);
  // A run that called no model (a porting run with nothing to port) costs 0 even without prices.
  const RunCost nothing = run_cost(llm_run("C1", 1, "mismatch", 0, 0, "m", nullptr));
  EXPECT_TRUE(nothing.applies);
  ASSERT_TRUE(nothing.usd.has_value());
  EXPECT_EQ(*nothing.usd, 0.0);
}

// Two configurations, one solved: C1 solved on the first of two attempts, C2 never; plus a failed job.
// Prices $1 per million tokens of any kind, so 10000 tokens cost $0.01.
std::vector<RunRecord> one_solved_of_two() {
  const json dollar = prices_json(1, 1, 1, 1);
  std::vector<RunRecord> runs = {
      llm_run("C1", 1, "pass", 10000, 0, "m", dollar), llm_run("C1", 2, "mismatch", 20000, 0, "m", dollar),
      llm_run("C2", 1, "mismatch", 25000, 5000, "m", dollar),
      error_record({"systolic", "default", "relu", "C2", "llm:m", 2}, 1, "crashed")};
  price_runs(runs);
  return runs;
}

TEST(Cost, PerSolvedConfigurationCountsEveryAttempt) {
  const auto runs = one_solved_of_two();
  const auto m = compute_metrics(runs, {}, {});
  const auto* g = m.total("llm:m", "systolic/default");
  ASSERT_NE(g, nullptr);
  EXPECT_EQ(g->configs_solved, 1u);
  EXPECT_EQ(g->failed_jobs, 1u);
  EXPECT_EQ(g->cost_runs, 3u);  // the failed job's usage is not known
  EXPECT_EQ(g->unpriced_runs, 0u);
  // $0.01 + $0.02 + $0.03 = $0.06 over 3 runs, and over the one solved configuration.
  ASSERT_TRUE(g->cost_usd.has_value());
  EXPECT_NEAR(*g->cost_usd, 0.06, 1e-12);
  EXPECT_NEAR(*g->cost_per_run_usd, 0.02, 1e-12);
  EXPECT_NEAR(*g->cost_per_solved_usd, 0.06, 1e-12);
  // Per task and level the same (one task).
  EXPECT_NEAR(*m.task_group("llm:m", "systolic/default", "relu")->cost_usd, 0.06, 1e-12);

  const std::string text = cost_table(m);
  const auto line_at = text.find("llm:m");
  ASSERT_NE(line_at, std::string::npos) << text;
  const std::string line = text.substr(line_at, text.find('\n', line_at) - line_at);
  EXPECT_NE(line.find("  3       1/2     $0.0600     $0.0200      $0.0600  -"), std::string::npos) << line;
  EXPECT_NE(text.find("failed jobs are not in the cost"), std::string::npos) << text;

  const json j = cost_json(m);
  ASSERT_EQ(j.size(), 1u);
  EXPECT_EQ(j[0]["agent"], "llm:m");
  EXPECT_EQ(j[0]["runs"], 3);
  EXPECT_EQ(j[0]["configs_solved"], 1);
  EXPECT_NEAR(j[0]["cost_usd"].get<double>(), 0.06, 1e-12);
  EXPECT_NEAR(j[0]["cost_per_solved_usd"].get<double>(), 0.06, 1e-12);
}

TEST(Cost, AGroupWithAnUnpricedRunHasAnUnknownCostNotAPartialOne) {
  auto runs = one_solved_of_two();
  runs[1].agent_settings.erase("prices");
  runs[1].agent_settings["model"] = "m2";
  price_runs(runs);
  const auto m = compute_metrics(runs, {}, {});
  const auto* g = m.total("llm:m", "systolic/default");
  EXPECT_EQ(g->cost_runs, 3u);
  EXPECT_EQ(g->unpriced_runs, 1u);
  EXPECT_EQ(g->unpriced_models, std::set<std::string>{"m2"});
  EXPECT_FALSE(g->cost_usd.has_value());
  EXPECT_FALSE(g->cost_per_run_usd.has_value());
  EXPECT_FALSE(g->cost_per_solved_usd.has_value());
  EXPECT_NE(cost_table(m).find("unknown: no prices for m2 (1 of 3 runs"), std::string::npos) << cost_table(m);
  EXPECT_TRUE(cost_json(m)[0]["cost_usd"].is_null());
  EXPECT_EQ(cost_json(m)[0]["unpriced_models"], json::array({"m2"}));
  // Priced after the fact, by model: m2 at $2 per million makes run 2 $0.04: $0.08 in all.
  price_runs(runs, {{"m2", {2, 2, 2, 2}}});
  const auto priced = compute_metrics(runs, {}, {});
  EXPECT_NEAR(*priced.total("llm:m", "systolic/default")->cost_usd, 0.08, 1e-12);
}

TEST(Cost, NothingSolvedHasNoCostPerSolvedConfiguration) {
  std::vector<RunRecord> runs = {llm_run("C1", 1, "mismatch", 10000, 0, "m", prices_json(1, 1, 1, 1))};
  price_runs(runs);
  const auto m = compute_metrics(runs, {}, {});
  const auto* g = m.total("llm:m", "systolic/default");
  EXPECT_NEAR(*g->cost_usd, 0.01, 1e-12);
  EXPECT_FALSE(g->cost_per_solved_usd.has_value());
  EXPECT_NE(cost_table(m).find("none solved"), std::string::npos) << cost_table(m);
}

TEST(Cost, OfflineAgentsHaveNoCostSection) {
  RunRecord tuner = make_run("tuner", "default", "relu", 1, "C1", 1, "pass", 100, 200);
  tuner.agent_settings = {{"kind", "tuner"}};
  std::vector<RunRecord> runs = {tuner};
  price_runs(runs);
  const auto m = compute_metrics(runs, {}, {});
  EXPECT_EQ(m.total("tuner", "systolic/default")->cost_runs, 0u);
  EXPECT_FALSE(m.total("tuner", "systolic/default")->cost_usd.has_value());
  EXPECT_EQ(cost_table(m), "");
  EXPECT_TRUE(cost_json(m).empty());
}

TEST(Cost, TheReportsCarryTheCost) {
  ReportData d;
  d.runs = one_solved_of_two();
  d.runs[2].agent_settings.erase("prices");  // C2's attempt: unknown
  price_runs(d.runs);
  d.metrics = compute_metrics(d.runs, {}, {});
  const json j = report_json(d);
  ASSERT_EQ(j["cost"].size(), 1u);
  EXPECT_TRUE(j["cost"][0]["cost_usd"].is_null());
  EXPECT_NEAR(j["runs"][0]["cost_usd"].get<double>(), 0.01, 1e-12);
  EXPECT_TRUE(j["runs"][2].contains("cost_usd"));
  EXPECT_TRUE(j["runs"][2]["cost_usd"].is_null());  // unknown, not 0
  EXPECT_FALSE(j["runs"][3].contains("cost_usd"));  // the failed job: no usage to price
  bool found_total = false;
  for (const auto& g : j["metrics"]["totals"]) {
    if (g["agent"] != "llm:m") continue;
    found_total = true;
    EXPECT_TRUE(g["cost_usd"].is_null());
    EXPECT_EQ(g["unpriced_runs"], 1);
  }
  EXPECT_TRUE(found_total);

  const auto dir = testing::fresh_dir("cost_csv");
  write_runs_csv(d.runs, dir / "runs.csv");
  std::istringstream csv(slurp(dir / "runs.csv"));
  std::string header, row;
  std::getline(csv, header);
  EXPECT_EQ(header.substr(header.rfind(',') + 1), "cost_usd");
  std::vector<std::string> last_fields;
  while (std::getline(csv, row)) last_fields.push_back(row.substr(row.rfind(',') + 1));
  EXPECT_EQ(last_fields, (std::vector<std::string>{"0.01", "0.02", "", ""}));  // unknown and failed: empty

  write_metrics_csv(d.metrics, dir / "metrics.csv");
  std::istringstream metrics(slurp(dir / "metrics.csv"));
  std::getline(metrics, header);
  EXPECT_NE(header.find(",cost_runs,unpriced_runs,cost_usd,cost_per_run_usd,cost_per_solved_usd"),
            std::string::npos)
      << header;
  std::getline(metrics, row);
  EXPECT_EQ(row.substr(row.size() - std::string(",3,1,,,").size()), ",3,1,,,") << row;

  const std::string html = html_report(d);
  EXPECT_NE(html.find("id=\"cost\""), std::string::npos);
  EXPECT_NE(html.find("\"cost\":[{"), std::string::npos);
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace kcraft::bench
