// An LLM agent in a sweep: `kcraft bench --agents llm:FILE.yaml` against a scripted OpenAI-compatible
// server in this process. Two attempts: the first writes the baseline kernel, evaluates it and submits;
// the second submits a kernel that does not assemble.
#include <fcntl.h>
#include <fmt/format.h>
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <fstream>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "agent/bench/metrics.h"
#include "agent/bench/store.h"
#include "tests/agent/mock_llm_server.h"
#include "tests/bench/test_util.h"

namespace kcraft::bench {
namespace {

namespace fs = std::filesystem;
using agent::testing::MockLlmServer;
using agent::testing::MockUsage;
using agent::testing::Step;
using agent::testing::WireApi;
using nlohmann::json;

std::string capture(const std::string& command, int* code) {
  std::string out;
  FILE* pipe = ::popen(command.c_str(), "r");
  char buf[4096];
  for (size_t n; (n = std::fread(buf, 1, sizeof buf, pipe)) > 0;) out.append(buf, n);
  const int status = ::pclose(pipe);
  *code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return out;
}

TEST(BenchLlm, TokensIterationsAndVerdictsOfAnLlmAgentAreStored) {
  const auto dir = testing::fresh_dir("llm");
  int code = 0;
  const std::string kernel =
      capture(std::string(KCRAFT_BIN) + " baseline systolic relu --config C1 --hw small", &code);
  ASSERT_EQ(code, 0);

  MockLlmServer server(WireApi::kOpenAi);
  const MockUsage usage{1000, 100, 0, 0};
  // Attempt 1: write the kernel, run it, submit.
  server.then(Step::tool_call("write_code", json{{"code", kernel}}.dump(), usage))
      .then(Step::tool_call("run_eval", "{}", usage))
      .then(Step::tool_call("submit", "{}", usage));
  // Attempt 2: a kernel that does not assemble, submitted at once.
  server.then(Step::tool_call("write_code", R"({"code": "NOT_AN_INSTRUCTION r1\n"})", usage))
      .then(Step::tool_call("submit", "{}", usage));
  {
    std::ofstream settings(dir / "mock-model.yaml");
    settings << "provider: openai\nbase_url: " << server.base_url()
             << "\nmodel: mock-model\ntimeout_seconds: 20\nmax_retries: 0\n";
  }
  const std::string db = (dir / "r.db").string();
  const std::string out = capture(
      fmt::format("{} bench --platforms systolic --tasks relu --configs C1 --hw small --agents llm:{} "
                  "--attempts 2 --jobs 1 --budget 4 --db {} 2>&1",
                  KCRAFT_BIN, (dir / "mock-model.yaml").string(), db),
      &code);
  ASSERT_EQ(code, 0) << out;
  EXPECT_EQ(server.request_count(), 5u);
  EXPECT_EQ(server.unscripted_requests(), 0u);

  ResultStore store(db);
  const auto runs = store.runs();
  ASSERT_EQ(runs.size(), 2u);
  const auto& good = runs[0];
  const auto& bad = runs[1];
  EXPECT_EQ(good.key.agent, "llm:mock-model");
  EXPECT_EQ(good.key.attempt, 1u);
  EXPECT_EQ(good.status, "submitted");
  EXPECT_EQ(good.verdict, "pass");
  EXPECT_DOUBLE_EQ(good.speedup, 1.0);  // the baseline's own kernel
  EXPECT_EQ(good.iterations, 3u);
  EXPECT_EQ(good.first_valid_iteration, 2u);  // run_eval in turn 2 assembled it
  EXPECT_EQ(good.first_pass_iteration, 2u);
  EXPECT_EQ(good.prompt_tokens, 3000u);
  EXPECT_EQ(good.completion_tokens, 300u);
  EXPECT_EQ(good.agent_settings.value("model", ""), "mock-model");
  EXPECT_FALSE(good.agent_settings.contains("api_key"));
  EXPECT_TRUE(fs::is_regular_file(good.transcript));
  EXPECT_EQ(bad.key.attempt, 2u);
  EXPECT_EQ(bad.verdict, "build_error");
  EXPECT_EQ(bad.prompt_tokens, 2000u);
  EXPECT_FALSE(bad.first_valid_iteration.has_value());

  // The LLM's cell got its tuned baseline from one extra tuner job (`--tuned-baseline auto`), under the
  // tuned baseline's own definition (default budget), not the sweep's --budget 4.
  const auto tuned = store.tuned_baselines();
  ASSERT_EQ(tuned.size(), 1u);
  EXPECT_EQ(tuned[0].budget, 15u);
  EXPECT_EQ(tuned[0].source.rfind("tuned-baseline tuner job of sweep ", 0), 0u) << tuned[0].source;
  ASSERT_TRUE(good.tuned_baseline_cycles.has_value());
  EXPECT_EQ(*good.tuned_baseline_cycles, tuned[0].cycles);
  EXPECT_LE(tuned[0].cycles, good.cycles);  // the tuner never does worse than the baseline kernel
  EXPECT_DOUBLE_EQ(good.tuned_speedup, static_cast<double>(tuned[0].cycles) / good.cycles);
  EXPECT_EQ(bad.tuned_baseline_cycles, tuned[0].cycles);
  EXPECT_EQ(bad.tuned_speedup, 0.0);
  EXPECT_NE(out.find("1 computed by extra tuner jobs"), std::string::npos) << out;

  const auto m = compute_metrics(runs, store.plan(), store.unsupported());
  const auto* g = m.total("llm:mock-model", "systolic/small");
  ASSERT_NE(g, nullptr);
  EXPECT_EQ(g->configs_solved, 1u);  // one attempt of two solved it
  EXPECT_DOUBLE_EQ(g->fast_p[0], 0.5);
  EXPECT_DOUBLE_EQ(g->fast_p[1], 0.5);
  EXPECT_DOUBLE_EQ(g->tokens_per_run, (3300.0 + 2200.0) / 2);
  EXPECT_NE(out.find("llm:mock-model"), std::string::npos) << out;
  EXPECT_EQ(g->tuned_runs, 2u);

  // Again: everything is stored, nothing runs, and the tuned baseline is not computed twice.
  const std::string again = capture(
      fmt::format("{} bench --platforms systolic --tasks relu --configs C1 --hw small --agents llm:{} "
                  "--attempts 2 --jobs 1 --budget 4 --db {} 2>&1",
                  KCRAFT_BIN, (dir / "mock-model.yaml").string(), db),
      &code);
  ASSERT_EQ(code, 0) << again;
  EXPECT_NE(again.find("1 already stored, 0 from this sweep's tuner runs, 0 computed"), std::string::npos)
      << again;
  EXPECT_EQ(server.request_count(), 5u);
  fs::remove_all(dir);
}

// The kernel library in a sweep: a passing LLM kernel is recorded with its run, and with
// --library-examples the next job's agent retrieves it (another configuration of the task) by
// find_examples, which the run's settings then say.
TEST(BenchLlm, ASweepRecordsPassingKernelsAndItsAgentsCanRetrieveThem) {
  const auto dir = testing::fresh_dir("llm_library");
  int code = 0;
  const std::string kernel =
      capture(std::string(KCRAFT_BIN) + " baseline systolic relu --config C2 --hw default", &code);
  ASSERT_EQ(code, 0);
  MockLlmServer server(WireApi::kOpenAi);
  const MockUsage usage{1000, 100, 0, 0};
  // The sweep runs the larger configuration first. relu C2: the baseline kernel, submitted.
  server.then(Step::tool_call("write_code", json{{"code", kernel}}.dump(), usage))
      .then(Step::tool_call("submit", "{}", usage));
  // relu C1: asks the library, then gives up.
  server.then(Step::tool_call("find_examples", R"({"query": "relu"})", usage))
      .then(Step::branch_on_tool_result("relu C2 (hardware default)", Step::text("found it"),
                                        Step::text("no example")));
  {
    std::ofstream settings(dir / "mock-model.yaml");
    settings << "provider: openai\nbase_url: " << server.base_url()
             << "\nmodel: mock-model\ntimeout_seconds: 20\nmax_retries: 0\n";
  }
  const std::string db = (dir / "r.db").string();
  const std::string out = capture(
      fmt::format("{} bench --platforms systolic --tasks relu --configs C1,C2 --hw default --agents llm:{} "
                  "--jobs 1 --budget 2 --tuned-baseline none --library-examples --db {} 2>&1",
                  KCRAFT_BIN, (dir / "mock-model.yaml").string(), db),
      &code);
  EXPECT_EQ(server.unscripted_requests(), 0u) << out;
  ResultStore store(db);
  const auto runs = store.runs();
  ASSERT_EQ(runs.size(), 2u) << out;
  EXPECT_EQ(runs[1].key.config, "C2");
  EXPECT_EQ(runs[1].verdict, "pass") << out;
  EXPECT_EQ(runs[0].verdict, "build_error") << out;  // C1 wrote nothing
  EXPECT_EQ(runs[0].agent_settings.value("library_examples", false), true);
  const auto kernels = store.kernels();
  ASSERT_EQ(kernels.size(), 1u);
  EXPECT_EQ(kernels[0].config, "C2");
  EXPECT_EQ(kernels[0].agent, "llm:mock-model");
  EXPECT_EQ(kernels[0].cycles, runs[1].cycles);
  EXPECT_EQ(kernels[0].source, kernel);
  // The C1 agent saw the C2 kernel.
  ASSERT_EQ(server.request_count(), 4u);
  ASSERT_NE(server.request(3).last_tool_result(), nullptr);
  EXPECT_NE(server.request(3).last_tool_result()->content.find("relu C2 (hardware default)"),
            std::string::npos)
      << server.request(3).last_tool_result()->content;
  fs::remove_all(dir);
}

std::string write_settings(const fs::path& file, const MockLlmServer& server, const std::string& extra = "") {
  std::ofstream settings(file);
  settings << "provider: openai\nbase_url: " << server.base_url()
           << "\nmodel: mock-model\ntimeout_seconds: 20\nmax_retries: 0\n"
           << extra;
  return file.string();
}

std::string first_user_message(const MockLlmServer& server, size_t request) {
  const auto r = server.request(request);
  return r.messages.empty() ? "" : r.messages[0].content;
}

// `workflow:default:FILE` in a sweep: the designer talks to its own server (the settings' roles), the coder
// and the conductor to the run's; the run record keeps each role's calls and tokens, and the report shows
// the agents side by side with their tokens per role.
TEST(BenchLlm, AWorkflowAgentRunsItsRolesOnTheirOwnProvidersAndTheReportShowsTokensPerRole) {
  const auto dir = testing::fresh_dir("llm_workflow");
  int code = 0;
  const std::string kernel =
      capture(std::string(KCRAFT_BIN) + " baseline systolic relu --config C1 --hw default", &code);
  ASSERT_EQ(code, 0);
  MockLlmServer team(WireApi::kOpenAi), designer(WireApi::kOpenAi);
  designer.then(Step::text("<plan>\nOne pass over the rows: max(x, 0).\n</plan>", MockUsage{300, 40, 0, 0}));
  team.then(Step::tool_call("write_code", json{{"code", kernel}}.dump(), MockUsage{1000, 100, 0, 0}))
      .then(Step::tool_call("submit", "{}", MockUsage{1000, 100, 0, 0}))
      .then(Step::text(R"({"next": "finish"})", MockUsage{500, 20, 0, 0}));  // the conductor
  const std::string settings =
      write_settings(dir / "team.yaml", team,
                     "roles:\n  designer: {base_url: " + designer.base_url() + ", model: mock-designer}\n");
  const std::string db = (dir / "r.db").string();
  const std::string out =
      capture(fmt::format("{} bench --platforms systolic --tasks relu --configs C1 --hw default --agents "
                          "workflow:default:{} --jobs 1 --budget 8 --tuned-baseline none --db {} 2>&1",
                          KCRAFT_BIN, settings, db),
              &code);
  ASSERT_EQ(code, 0) << out;
  EXPECT_EQ(team.unscripted_requests() + designer.unscripted_requests(), 0u) << out;
  ASSERT_EQ(designer.request_count(), 1u) << out;
  EXPECT_EQ(designer.request(0).model, "mock-designer");
  EXPECT_EQ(team.request_count(), 3u);
  EXPECT_NE(first_user_message(team, 0).find("# The designer's plan"), std::string::npos);

  ResultStore store(db);
  const auto runs = store.runs();
  ASSERT_EQ(runs.size(), 1u);
  const auto& run = runs[0];
  EXPECT_EQ(run.key.agent, "workflow:default:team");  // the stored name says which workflow
  EXPECT_EQ(run.status, "submitted") << run.error;
  EXPECT_EQ(run.verdict, "pass");
  EXPECT_EQ(run.iterations, 4u);  // every role's model calls
  EXPECT_EQ(run.agent_settings.value("workflow", ""), "default");
  EXPECT_EQ(run.agent_settings["roles"]["designer"].value("model", ""), "mock-designer");
  EXPECT_EQ(run.roles["designer"]["calls"], 1);
  EXPECT_EQ(run.roles["designer"]["prompt_tokens"], 300);
  EXPECT_EQ(run.roles["coder"]["calls"], 2);
  EXPECT_EQ(run.roles["coder"]["completion_tokens"], 200);
  EXPECT_EQ(run.roles["conductor"]["prompt_tokens"], 500);
  EXPECT_EQ(run.roles["verifier"]["calls"], 0);
  EXPECT_EQ(run.prompt_tokens, 300u + 2000u + 500u);

  // The text report: the agents side by side, with tokens per role (prompt + completion).
  const std::string report = capture(
      fmt::format("{} report --db {} --html {} 2>&1", KCRAFT_BIN, db, (dir / "r.html").string()), &code);
  ASSERT_EQ(code, 0) << report;
  const auto line_start = report.find("workflow:default:team", report.find("tokens per role"));
  ASSERT_NE(line_start, std::string::npos) << report;
  const std::string line = report.substr(line_start, report.find('\n', line_start) - line_start);
  EXPECT_NE(line.find("1/1"), std::string::npos) << line;
  EXPECT_NE(line.find("coder 2200, conductor 520, designer 340"), std::string::npos) << line;
  std::ifstream html_file(dir / "r.html");
  const std::string html((std::istreambuf_iterator<char>(html_file)), std::istreambuf_iterator<char>());
  EXPECT_NE(html.find("id=\"agents\""), std::string::npos);
  EXPECT_NE(html.find(R"("role_tokens":{"coder":2200,"conductor":520,"designer":340})"), std::string::npos);
  const json j = json::parse(capture(fmt::format("{} --json report --db {}", KCRAFT_BIN, db), &code));
  bool found = false;
  for (const auto& g : j["metrics"]["totals"]) {
    if (g["agent"] != "workflow:default:team") continue;
    found = true;
    EXPECT_EQ(g["model_calls"], 4);
    EXPECT_EQ(g["role_calls"]["designer"], 1);
    EXPECT_EQ(g["evaluations"], run.evaluations);
  }
  EXPECT_TRUE(found) << j["metrics"]["totals"].dump();
  fs::remove_all(dir);
}

// The cost of a workflow run, end to end: the designer on an Anthropic-style server with its own prices,
// the coder and the conductor on an OpenAI-style one, each answering with known usage that includes cached
// prompt and reasoning tokens. The report's cost (text, JSON, CSV) is the hand-computed one, and
// `--prices` prices the same runs again after the fact.
TEST(BenchLlm, TheReportPricesEachRolesTokensAtItsOwnPricesEachTokenOnce) {
  const auto dir = testing::fresh_dir("llm_cost");
  int code = 0;
  const std::string kernel =
      capture(std::string(KCRAFT_BIN) + " baseline systolic relu --config C1 --hw default", &code);
  ASSERT_EQ(code, 0);
  MockLlmServer team(WireApi::kOpenAi), designer(WireApi::kAnthropic);
  // Anthropic: 300 input tokens, 200 more read from the cache, 40 output tokens.
  designer.then(
      Step::text("<plan>\nOne pass over the rows: max(x, 0).\n</plan>", MockUsage{300, 40, 0, 200}));
  // OpenAI: 1000 prompt tokens of which 400 cached, 100 completion tokens of which 30 reasoning; twice.
  team.then(Step::tool_call("write_code", json{{"code", kernel}}.dump(), MockUsage{1000, 100, 30, 400}))
      .then(Step::tool_call("submit", "{}", MockUsage{1000, 100, 30, 400}))
      .then(Step::text(R"({"next": "finish"})", MockUsage{500, 20, 0, 0}));  // the conductor
  const std::string settings = write_settings(
      dir / "team.yaml", team,
      "prices: {prompt: 2, cached_prompt: 0.5, completion: 8, reasoning: 10}\n"
      "roles:\n  designer: {provider: anthropic, base_url: " +
          designer.base_url() +
          ", model: mock-designer, prices: {prompt: 3, cached_prompt: 0.3, completion: 15}}\n");
  const std::string db = (dir / "r.db").string();
  const std::string out =
      capture(fmt::format("{} bench --platforms systolic --tasks relu --configs C1 --hw default --agents "
                          "workflow:default:{} --jobs 1 --budget 8 --tuned-baseline none --db {} 2>&1",
                          KCRAFT_BIN, settings, db),
              &code);
  ASSERT_EQ(code, 0) << out;
  ASSERT_EQ(team.unscripted_requests() + designer.unscripted_requests(), 0u) << out;
  ASSERT_EQ(designer.request_count(), 1u) << out;

  // Per million tokens: designer 300 x $3 + 200 x $0.3 + 40 x $15 = 1560; coder, per call, 600 x $2 +
  // 400 x $0.5 + 70 x $8 + 30 x $10 = 2260, twice: 4520; conductor 500 x $2 + 20 x $8 = 1160. In all 7240:
  // $0.00724, for one run that solved its one configuration.
  const std::string expected_line =
      "1       1/1   $0.007240   $0.007240    $0.007240  "
      "coder $0.004520, conductor $0.001160, designer $0.001560";
  EXPECT_NE(out.find(expected_line), std::string::npos) << out;  // `kcraft bench` prints the report too
  const std::string report = capture(fmt::format("{} report --db {} --csv {} --html {} 2>&1", KCRAFT_BIN, db,
                                                 (dir / "runs.csv").string(), (dir / "r.html").string()),
                                     &code);
  ASSERT_EQ(code, 0) << report;
  const auto cost_at = report.find("Cost of the model calls");
  ASSERT_NE(cost_at, std::string::npos) << report;
  EXPECT_NE(report.find("workflow:default:team", cost_at), std::string::npos) << report;
  EXPECT_NE(report.find(expected_line, cost_at), std::string::npos) << report;

  const json j = json::parse(capture(fmt::format("{} --json report --db {}", KCRAFT_BIN, db), &code));
  ASSERT_EQ(j["cost"].size(), 1u) << j["cost"].dump();
  EXPECT_NEAR(j["cost"][0]["cost_usd"].get<double>(), 7240e-6, 1e-12);
  EXPECT_NEAR(j["cost"][0]["cost_per_solved_usd"].get<double>(), 7240e-6, 1e-12);
  EXPECT_NEAR(j["cost"][0]["role_cost_usd"]["designer"].get<double>(), 1560e-6, 1e-12);
  EXPECT_NEAR(j["runs"][0]["cost_usd"].get<double>(), 7240e-6, 1e-12);
  // The prices were stored with the run, the role's with the role.
  EXPECT_EQ(j["runs"][0]["agent_settings"]["prices"]["reasoning"], 10.0);
  EXPECT_EQ(j["runs"][0]["agent_settings"]["roles"]["designer"]["prices"]["cached_prompt"], 0.3);

  std::ifstream runs_csv(dir / "runs.csv");
  std::string header, row;
  std::getline(runs_csv, header);
  std::getline(runs_csv, row);
  EXPECT_EQ(header.substr(header.rfind(',') + 1), "cost_usd");
  EXPECT_EQ(row.substr(row.rfind(',') + 1), "0.00724");

  // The page draws the same in Chromium (as bench.BenchE2E's HTML tests do).
  ASSERT_TRUE(fs::exists("/usr/bin/chromium"))
      << "Debian's chromium is not installed: scripts/setup.sh installs it";
  const std::string dom = capture(
      fmt::format("/usr/bin/chromium --headless --no-sandbox --disable-gpu --disable-background-networking "
                  "--disable-component-update --disable-sync --no-first-run --disable-dev-shm-usage "
                  "--user-data-dir={} --virtual-time-budget=10000 --dump-dom file://{} 2>/dev/null",
                  (dir / "profile").string(), (dir / "r.html").string()),
      &code);
  ASSERT_NE(dom.find("data-rendered=\"ok\""), std::string::npos) << dom.substr(0, 2000);
  const auto cost_table_at = dom.find("id=\"cost-table\"");
  ASSERT_NE(cost_table_at, std::string::npos) << dom;
  const std::string cost_table =
      dom.substr(cost_table_at, dom.find("</table>", cost_table_at) - cost_table_at);
  EXPECT_NE(cost_table.find("<td>$0.007240</td>"), std::string::npos) << cost_table;
  EXPECT_NE(cost_table.find("coder $0.004520, conductor $0.001160, designer $0.001560"), std::string::npos)
      << cost_table;

  // After the fact, from a price table by model: mock-model at $1 for every token, the designer's stored
  // prices kept (not in the table): coder 2 x 1100 + conductor 520 + designer 1560 = 4280 per million.
  {
    std::ofstream table(dir / "prices.yaml");
    table << "mock-model: {prompt: 1, completion: 1}\n";
  }
  const std::string repriced = capture(
      fmt::format("{} report --db {} --prices {} 2>&1", KCRAFT_BIN, db, (dir / "prices.yaml").string()),
      &code);
  ASSERT_EQ(code, 0) << repriced;
  EXPECT_NE(repriced.find("$0.004280   $0.004280    $0.004280  coder $0.002200, conductor $0.000520, "
                          "designer $0.001560"),
            std::string::npos)
      << repriced;
  {
    std::ofstream table(dir / "bad.yaml");
    table << "mock-model: {prompt: -1, completion: 1}\n";
  }
  const std::string bad = capture(
      fmt::format("{} report --db {} --prices {} 2>&1", KCRAFT_BIN, db, (dir / "bad.yaml").string()), &code);
  EXPECT_EQ(code, 2) << bad;
  EXPECT_NE(bad.find("--prices: " + (dir / "bad.yaml").string() + ": mock-model.prompt: must be between 0"),
            std::string::npos)
      << bad;
  fs::remove_all(dir);
}

// Documentation levels in a sweep: two scripted agents of known behaviour, each at two levels, three
// attempts. The `reader` looks a concept up with grep_docs and writes the correct kernel only when the
// platform guide answers (so it solves at `guide`, never at `isa`); the `steady` one writes the correct
// kernel at once (solves at both). The four are distinct agents, stored, transcribed and reported side by
// side, and an `isa` run's system prompt has no platform guide.
TEST(BenchLlm, OneModelAtTwoDocumentationLevelsIsTwoAgentsSideBySide) {
  const auto dir = testing::fresh_dir("llm_docs");
  int code = 0;
  const std::string kernel =
      capture(std::string(KCRAFT_BIN) + " baseline systolic relu --config C1 --hw default", &code);
  ASSERT_EQ(code, 0);
  const MockUsage usage{100, 10, 0, 0};
  const auto write = [&](const std::string& code_text) {
    return Step::tool_call("write_code", json{{"code", code_text}}.dump(), usage);
  };
  std::atomic<int> reader_isa_prompts{0}, reader_guide_prompts{0}, guide_in_isa_prompt{0};
  MockLlmServer reader(WireApi::kOpenAi), steady(WireApi::kOpenAi);
  reader.set_fallback(Step::dynamic([&](const agent::testing::ReceivedRequest& r) {
    const auto* result = r.last_tool_result();
    if (result == nullptr) {
      const bool isa = r.system.find("Not part of this run's documentation") != std::string::npos;
      ++(isa ? reader_isa_prompts : reader_guide_prompts);
      if (isa && r.system.find("# Platform guide\n\n(Not part") == std::string::npos) ++guide_in_isa_prompt;
      return Step::tool_call("grep_docs", R"({"query": "kernel"})", usage);
    }
    if (result->tool_name == "grep_docs")
      return write(result->content.find("--- platform guide") != std::string::npos ? kernel
                                                                                   : "NOT_AN_OP r1\n");
    return Step::tool_call("submit", "{}", usage);
  }));
  steady.set_fallback(Step::dynamic([&](const agent::testing::ReceivedRequest& r) {
    return r.last_tool_result() == nullptr ? write(kernel) : Step::tool_call("submit", "{}", usage);
  }));
  const std::string reader_file = write_settings(dir / "reader.yaml", reader);
  const std::string steady_file = write_settings(dir / "steady.yaml", steady);
  const std::string db = (dir / "r.db").string();
  const std::string out = capture(
      fmt::format("{} bench --platforms systolic --tasks relu --configs C1 --hw default --agents "
                  "llm:{}@docs=isa,llm:{}@docs=guide,llm:{}@docs=isa,llm:{}@docs=guide --attempts 3 --jobs 2 "
                  "--budget 4 --tuned-baseline none --db {} 2>&1",
                  KCRAFT_BIN, reader_file, reader_file, steady_file, steady_file, db),
      &code);
  ASSERT_EQ(code, 0) << out;
  EXPECT_EQ(reader_isa_prompts.load(), 3);
  EXPECT_EQ(reader_guide_prompts.load(), 3);
  EXPECT_EQ(guide_in_isa_prompt.load(), 0);

  ResultStore store(db);
  const auto runs = store.runs();
  ASSERT_EQ(runs.size(), 12u) << out;
  std::map<std::string, std::pair<unsigned, unsigned>> passed;  // agent -> (passing runs, runs)
  for (const auto& r : runs) {
    const std::string level = r.key.agent.substr(r.key.agent.find("@docs=") + 6);
    EXPECT_EQ(r.agent_settings.value("docs", ""), level) << r.key.agent;
    EXPECT_FALSE(r.agent_settings.contains("library_examples"));  // isa and guide get no library
    std::ifstream transcript(r.transcript);
    std::string first_line;
    ASSERT_TRUE(std::getline(transcript, first_line)) << r.transcript;
    EXPECT_EQ(json::parse(first_line)["context"].value("docs", ""), level) << r.transcript;
    passed[r.key.agent].first += r.verdict == "pass";
    passed[r.key.agent].second += 1;
  }
  using Tally = std::pair<unsigned, unsigned>;
  EXPECT_EQ(passed["llm:reader@docs=isa"], Tally(0, 3));
  EXPECT_EQ(passed["llm:reader@docs=guide"], Tally(3, 3));
  EXPECT_EQ(passed["llm:steady@docs=isa"], Tally(3, 3));
  EXPECT_EQ(passed["llm:steady@docs=guide"], Tally(3, 3));

  // The report: the four agents side by side, each with its own solved count.
  const std::string report = capture(fmt::format("{} report --db {} 2>&1", KCRAFT_BIN, db), &code);
  ASSERT_EQ(code, 0) << report;
  const auto solved_header = report.find("Configurations solved");
  ASSERT_NE(solved_header, std::string::npos) << report;
  const std::string header =
      report.substr(solved_header, report.find('\n', report.find('\n', solved_header) + 1) - solved_header);
  for (const char* agent :
       {"llm:reader@docs=isa", "llm:reader@docs=guide", "llm:steady@docs=isa", "llm:steady@docs=guide"}) {
    EXPECT_NE(header.find(agent), std::string::npos) << header;
  }
  const auto row_of = [&](const std::string& agent) {
    const auto at = report.find(agent + " ", report.find("tokens per role"));
    return at == std::string::npos ? std::string() : report.substr(at, report.find('\n', at) - at);
  };
  EXPECT_NE(row_of("llm:reader@docs=isa").find(" 0/1 "), std::string::npos) << report;
  EXPECT_NE(row_of("llm:reader@docs=guide").find(" 1/1 "), std::string::npos) << report;
  EXPECT_NE(row_of("llm:steady@docs=isa").find(" 1/1 "), std::string::npos) << report;
  EXPECT_NE(row_of("llm:steady@docs=guide").find(" 1/1 "), std::string::npos) << report;
  const json j = json::parse(capture(fmt::format("{} --json report --db {}", KCRAFT_BIN, db), &code));
  std::map<std::string, std::pair<int, int>> correct;  // agent -> (correct runs, runs)
  for (const auto& g : j["metrics"]["totals"]) correct[g["agent"]] = {g["correct"], g["runs"]};
  EXPECT_EQ(correct["llm:reader@docs=isa"], std::make_pair(0, 3)) << j["metrics"]["totals"].dump();
  EXPECT_EQ(correct["llm:reader@docs=guide"], std::make_pair(3, 3));
  EXPECT_EQ(correct["llm:steady@docs=isa"], std::make_pair(3, 3));
  EXPECT_EQ(correct["llm:steady@docs=guide"], std::make_pair(3, 3));

  // A level nobody knows is refused before any run.
  const std::string bad = capture(
      fmt::format(
          "{} bench --platforms systolic --tasks relu --configs C1 --hw default --agents llm:{}@docs=most "
          "--db {} 2>&1",
          KCRAFT_BIN, steady_file, (dir / "bad.db").string()),
      &code);
  EXPECT_NE(code, 0);
  EXPECT_NE(bad.find("unknown documentation level 'most'"), std::string::npos) << bad;
  fs::remove_all(dir);
}

size_t count(const std::string& text, const std::string& needle) {
  size_t n = 0;
  for (size_t at = text.find(needle); at != std::string::npos; at = text.find(needle, at + 1)) ++n;
  return n;
}

// Every tag of `dom` that has `attribute` (from "<" to ">").
std::vector<std::string> tags_with(const std::string& dom, const std::string& attribute) {
  std::vector<std::string> tags;
  for (size_t at = dom.find(attribute); at != std::string::npos; at = dom.find(attribute, at + 1)) {
    const size_t start = dom.rfind('<', at), end = dom.find('>', at);
    tags.push_back(dom.substr(start, end - start + 1));
  }
  return tags;
}

const json* group_of(const json& groups, const std::string& agent) {
  for (const auto& g : groups) {
    if (g.value("agent", "") == agent) return &g;
  }
  return nullptr;
}

// The report page of the curves test's store, drawn in headless Chromium: a line per agent in each chart
// (none for a speedup never reached), a point per value, the values on hover.
void expect_the_page_draws_the_curves(const fs::path& dir, const std::string& db, double faster_speedup) {
  int code = 0;
  ASSERT_TRUE(fs::exists("/usr/bin/chromium"))
      << "Debian's chromium is not installed: scripts/setup.sh installs it";
  const std::string html = (dir / "r.html").string();
  const std::string wrote =
      capture(fmt::format("{} report --db {} --html {} 2>&1", KCRAFT_BIN, db, html), &code);
  ASSERT_EQ(code, 0) << wrote;
  const std::string dom = capture(
      fmt::format("/usr/bin/chromium --headless --no-sandbox --disable-gpu --disable-background-networking "
                  "--disable-component-update --disable-sync --no-first-run --disable-dev-shm-usage "
                  "--user-data-dir={} --virtual-time-budget=10000 --dump-dom file://{} 2>/dev/null",
                  (dir / "profile").string(), html),
      &code);
  ASSERT_EQ(code, 0);
  ASSERT_NE(dom.find("data-rendered=\"ok\""), std::string::npos) << dom.substr(0, 3000);
  for (const char* agent :
       {"llm:reader@docs=isa", "llm:reader@docs=guide", "llm:steady@docs=isa", "llm:steady@docs=guide"}) {
    const std::string column = fmt::format("data-column=\"{}@systolic/default\"", agent);
    EXPECT_NE(dom.find("class=\"curve-legend-item\" " + column), std::string::npos) << agent;
    for (const char* kind : {"solved-iteration", "solved-tokens", "speedup-iteration"}) {
      const auto lines = tags_with(dom, fmt::format("class=\"curve {}\"", kind));
      const auto mine = std::count_if(lines.begin(), lines.end(), [&](const std::string& tag) {
        return tag.find(column) != std::string::npos;
      });
      // The reader at isa solved nothing: it has no speedup to draw.
      EXPECT_EQ(mine, std::string(kind) == "speedup-iteration" && std::string(agent) == "llm:reader@docs=isa"
                          ? 0
                          : 1)
          << agent << " " << kind;
    }
  }
  EXPECT_EQ(count(dom, "class=\"curve-point solved-iteration\""), 16u);
  EXPECT_EQ(count(dom, "class=\"curve-point solved-tokens\""), 2u + 1u + 2u + 2u);
  EXPECT_EQ(count(dom, "class=\"curve-point speedup-iteration\""), 2u + 3u + 3u);
  EXPECT_NE(dom.find("llm:steady@docs=isa @ systolic/default: within 2 iterations, 0.67 of cells solved"),
            std::string::npos);
  EXPECT_NE(dom.find("llm:reader@docs=guide @ systolic/default: within 660 tokens, 1.00 of cells solved"),
            std::string::npos);
  EXPECT_NE(
      dom.find(fmt::format("llm:steady@docs=guide @ systolic/default: by iteration 4, {:.3f}x over 2 runs",
                           faster_speedup)),
      std::string::npos);
}

// Issue 30's check for curves: two scripted agents of known behaviour, each at two documentation levels,
// three attempts, budget 4. The `reader` (220 tokens a turn) greps the docs, writes the correct kernel only
// when the platform guide answers, evaluates it and submits: at `guide` every attempt is solved at iteration
// 3 (660 tokens), at `isa` none. The `steady` one (110 tokens a turn) writes the baseline kernel, evaluates
// it (iteration 2, 220 tokens), writes a faster variant and evaluates that (iteration 4), except in one
// attempt of three per level, whose kernel does not assemble. The report's curves and intervals must be the
// ones these scripts imply, and the page must draw them.
TEST(BenchLlm, TwoScriptedAgentsAtTwoDocumentationLevelsShowTheCurvesTheirScriptsImply) {
  const auto dir = testing::fresh_dir("llm_curves");
  int code = 0;
  const std::string base = std::string(KCRAFT_BIN) + " baseline systolic relu --config C1 --hw default";
  const std::string kernel = capture(base, &code);
  ASSERT_EQ(code, 0);
  const std::string faster = capture(base + " --knob unroll=16", &code);
  ASSERT_EQ(code, 0);
  const std::string junk = "NOT_AN_OP r1\n";
  const MockUsage reader_usage{200, 20, 0, 0}, steady_usage{100, 10, 0, 0};
  const auto is_isa = [](const agent::testing::ReceivedRequest& r) {
    return r.system.find("Not part of this run's documentation") != std::string::npos;
  };
  MockLlmServer reader(WireApi::kOpenAi), steady(WireApi::kOpenAi);
  reader.set_fallback(Step::dynamic([&](const agent::testing::ReceivedRequest& r) {
    const auto* result = r.last_tool_result();
    const auto call = [&](const std::string& name, const std::string& arguments) {
      return Step::tool_call(name, arguments, reader_usage);
    };
    if (result == nullptr) return call("grep_docs", R"({"query": "kernel"})");
    if (result->tool_name == "grep_docs") {
      const bool guide = result->content.find("--- platform guide") != std::string::npos;
      return call("write_code", json{{"code", guide ? kernel : junk}}.dump());
    }
    if (result->tool_name == "write_code") return call("run_eval", "{}");
    return call("submit", "{}");
  }));
  std::atomic<int> steady_starts[2] = {{0}, {0}};  // isa, guide
  steady.set_fallback(Step::dynamic([&](const agent::testing::ReceivedRequest& r) {
    const auto* result = r.last_tool_result();
    const auto call = [&](const std::string& name, const std::string& arguments) {
      return Step::tool_call(name, arguments, steady_usage);
    };
    if (result == nullptr) {
      const int start = ++steady_starts[is_isa(r) ? 0 : 1];
      return call("write_code", json{{"code", start == 3 ? junk : kernel}}.dump());
    }
    if (result->tool_name == "write_code") return call("run_eval", "{}");
    if (result->content.rfind("pass", 0) == 0) return call("write_code", json{{"code", faster}}.dump());
    return call("submit", "{}");
  }));
  const std::string reader_file = write_settings(dir / "reader.yaml", reader);
  const std::string steady_file = write_settings(dir / "steady.yaml", steady);
  const std::string db = (dir / "r.db").string();
  const std::string out = capture(
      fmt::format("{} bench --platforms systolic --tasks relu --configs C1 --hw default --agents "
                  "llm:{}@docs=isa,llm:{}@docs=guide,llm:{}@docs=isa,llm:{}@docs=guide --attempts 3 --jobs 2 "
                  "--budget 4 --tuned-baseline none --db {} 2>&1",
                  KCRAFT_BIN, reader_file, reader_file, steady_file, steady_file, db),
      &code);
  ASSERT_EQ(code, 0) << out;
  EXPECT_EQ(reader.unscripted_requests() + steady.unscripted_requests(), 0u);
  EXPECT_EQ(steady_starts[0].load(), 3);
  EXPECT_EQ(steady_starts[1].load(), 3);
  EXPECT_NE(out.find("Curves: where the expected share"), std::string::npos) << out;  // an LLM spent tokens

  // The runs are what the scripts say; the faster variant's speedup is the store's.
  ResultStore store(db);
  const auto runs = store.runs();
  ASSERT_EQ(runs.size(), 12u) << out;
  double faster_speedup = 0;
  for (const auto& r : runs) {
    ASSERT_TRUE(r.trajectory.is_array()) << r.key.id();  // recorded by the worker
    const bool steady_run = r.key.agent.rfind("llm:steady", 0) == 0;
    if (steady_run && r.correct()) {
      EXPECT_EQ(r.iterations, 4u);
      EXPECT_EQ(r.first_pass_iteration, 2u);
      faster_speedup = r.speedup;
    }
  }
  EXPECT_GT(faster_speedup, 1.0);  // unroll=16 beats the template's default

  const json j = json::parse(capture(fmt::format("{} --json report --db {}", KCRAFT_BIN, db), &code));
  ASSERT_EQ(code, 0);
  const json& groups = j["curves"]["groups"];
  ASSERT_EQ(groups.size(), 4u) << j["curves"].dump();
  const auto shares = [](const json& g) {
    std::vector<double> v;
    for (const auto& p : g["by_iteration"]) v.push_back(p["solved"].get<double>());
    return v;
  };
  const auto geomeans = [](const json& g) {
    std::vector<std::optional<double>> v;
    for (const auto& p : g["by_iteration"])
      v.push_back(p["geomean_speedup"].is_null() ? std::nullopt
                                                 : std::optional<double>(p["geomean_speedup"].get<double>()));
    return v;
  };
  using Steps = std::vector<std::pair<uint64_t, double>>;
  const auto token_steps = [](const json& g) {
    Steps v;
    for (const auto& p : g["by_tokens"])
      v.emplace_back(p["tokens"].get<uint64_t>(), p["solved"].get<double>());
    return v;
  };
  const json* reader_guide = group_of(groups, "llm:reader@docs=guide");
  const json* reader_isa = group_of(groups, "llm:reader@docs=isa");
  ASSERT_TRUE(reader_guide && reader_isa);
  EXPECT_EQ(shares(*reader_guide), (std::vector<double>{0, 0, 1, 1}));
  EXPECT_EQ(token_steps(*reader_guide), (Steps{{0, 0.0}, {660, 1.0}}));
  EXPECT_EQ((*reader_guide)["max_tokens"], 880);
  EXPECT_EQ(geomeans(*reader_guide),
            (std::vector<std::optional<double>>{std::nullopt, std::nullopt, 1.0, 1.0}));
  EXPECT_EQ((*reader_guide)["progress_from"]["stored"], 3);
  EXPECT_EQ(shares(*reader_isa), (std::vector<double>{0, 0, 0, 0}));
  EXPECT_EQ(token_steps(*reader_isa), (Steps{{0, 0.0}}));
  for (const char* agent : {"llm:steady@docs=isa", "llm:steady@docs=guide"}) {
    const json* g = group_of(groups, agent);
    ASSERT_NE(g, nullptr) << agent;
    EXPECT_EQ((*g)["max_iterations"], 4) << agent;
    const auto solved = shares(*g);
    ASSERT_EQ(solved.size(), 4u);
    EXPECT_DOUBLE_EQ(solved[0], 0.0) << agent;
    for (size_t i = 1; i < 4; ++i) EXPECT_DOUBLE_EQ(solved[i], 2.0 / 3) << agent << " iteration " << i + 1;
    const auto tokens = token_steps(*g);
    ASSERT_EQ(tokens.size(), 2u) << agent;
    EXPECT_EQ(tokens[1].first, 220u);
    EXPECT_DOUBLE_EQ(tokens[1].second, 2.0 / 3);
    EXPECT_EQ((*g)["max_tokens"], 440);  // four turns of 110
    const auto speedups = geomeans(*g);
    EXPECT_FALSE(speedups[0].has_value());
    EXPECT_DOUBLE_EQ(speedups[1].value_or(0), 1.0);  // the baseline kernel itself
    EXPECT_DOUBLE_EQ(speedups[2].value_or(0), 1.0);
    EXPECT_NEAR(speedups[3].value_or(0), faster_speedup, 1e-12);  // relu's cycles do not depend on the data
    EXPECT_EQ((*g)["by_iteration"][3]["speedup_runs"], 2);
  }

  // The intervals: pass@1 is each curve's end point, with a one-cell interval; the reader at two levels
  // differs, the steady one does not.
  for (const auto& u : j["uncertainty"]["groups"]) {
    const json* g = group_of(groups, u["agent"]);
    ASSERT_NE(g, nullptr);
    EXPECT_DOUBLE_EQ(u["pass_at_1"]["value"].get<double>(), (*g)["by_iteration"][3]["solved"].get<double>());
    EXPECT_DOUBLE_EQ(u["pass_at_1"]["low"].get<double>(), u["pass_at_1"]["high"].get<double>());
  }
  unsigned compared = 0;
  for (const auto& c : j["uncertainty"]["comparisons"]) {
    const std::string a = c["agent_a"], b = c["agent_b"];
    if (a.substr(0, a.find('@')) != b.substr(0, b.find('@'))) continue;
    ++compared;
    EXPECT_EQ(c["pass_at_1_differs"], a.rfind("llm:reader", 0) == 0) << c.dump();
  }
  EXPECT_EQ(compared, 2u);

  // The text report's steps.
  const std::string report = capture(fmt::format("{} report --db {} 2>&1", KCRAFT_BIN, db), &code);
  ASSERT_EQ(code, 0) << report;
  const auto line = report.find("llm:steady@docs=guide", report.find("Curves:"));
  ASSERT_NE(line, std::string::npos) << report;
  const std::string steady_line = report.substr(line, report.find('\n', line) - line);
  EXPECT_NE(steady_line.find("1:0.00 2:0.67 "), std::string::npos) << steady_line;
  EXPECT_NE(steady_line.find("0:0.00 220:0.67 "), std::string::npos) << steady_line;
  EXPECT_NE(steady_line.find(fmt::format("2:1.000x 4:{:.3f}x", faster_speedup)), std::string::npos)
      << steady_line;

  expect_the_page_draws_the_curves(dir, db, faster_speedup);
  fs::remove_all(dir);
}

// `port:PLATFORM:FILE` in a sweep: it runs after the other runs, on every platform but its source, with the
// best passing kernel of the task on the source platform in its prompt; the report puts it next to the same
// settings without porting.
TEST(BenchLlm, APortingAgentStartsFromTheSourcePlatformsBestKernelAndIsComparedWithoutPorting) {
  const auto dir = testing::fresh_dir("llm_port");
  int code = 0;
  const std::string vliw_kernel =
      capture(std::string(KCRAFT_BIN) + " baseline vliw relu --config C1 --hw default", &code);
  ASSERT_EQ(code, 0);
  MockLlmServer server(WireApi::kOpenAi);
  // The two runs without porting (one per platform) get nowhere: two turns of text each.
  for (int i = 0; i < 4; ++i) server.then(Step::text("no idea", MockUsage{100, 10, 0, 0}));
  // The porting run on vliw writes a vliw kernel and submits.
  server.then(Step::tool_call("write_code", json{{"code", vliw_kernel}}.dump(), MockUsage{100, 10, 0, 0}))
      .then(Step::tool_call("submit", "{}", MockUsage{100, 10, 0, 0}));
  const std::string settings = write_settings(dir / "mock-model.yaml", server);
  const std::string db = (dir / "r.db").string();
  const std::string out = capture(
      fmt::format("{} bench --platforms systolic,vliw --tasks relu --configs C1 --hw default --agents "
                  "baseline,llm:{},port:systolic:{} --jobs 1 --budget 2 --tuned-baseline none --db {} 2>&1",
                  KCRAFT_BIN, settings, settings, db),
      &code);
  ASSERT_EQ(code, 0) << out;
  EXPECT_EQ(server.unscripted_requests(), 0u) << out;
  ASSERT_EQ(server.request_count(), 6u) << out;

  ResultStore store(db);
  const auto runs = store.runs();
  ASSERT_EQ(runs.size(), 5u) << out;  // baseline and llm on both platforms; porting on vliw only
  const RunRecord* port = nullptr;
  for (const auto& r : runs) {
    if (r.key.agent == "port:systolic:mock-model") {
      EXPECT_EQ(port, nullptr) << "a porting run on its own source platform";
      port = &r;
    }
  }
  ASSERT_NE(port, nullptr);
  EXPECT_EQ(port->key.platform, "vliw");
  EXPECT_EQ(port->verdict, "pass") << port->error;
  EXPECT_EQ(port->agent_settings["port_from"].value("platform", ""), "systolic");
  // The source is the systolic baseline run's kernel, the only passing one: it is in the porting run's
  // first prompt (the fifth model request) and in its transcript.
  std::string source;
  uint64_t source_cycles = 0;
  for (const auto& k : store.kernels()) {
    if (k.platform == "systolic") {
      source = k.source;
      source_cycles = k.cycles;
    }
  }
  ASSERT_FALSE(source.empty());
  EXPECT_EQ(port->agent_settings["port_from"].value("cycles", uint64_t{0}), source_cycles);
  const std::string prompt = first_user_message(server, 4);
  EXPECT_NE(prompt.find(source), std::string::npos) << prompt;
  EXPECT_NE(prompt.find("on the platform `systolic`"), std::string::npos) << prompt;
  for (size_t i = 0; i < 4; ++i) EXPECT_EQ(first_user_message(server, i).find(source), std::string::npos);
  std::ifstream transcript(port->transcript);
  std::string first_line;
  ASSERT_TRUE(std::getline(transcript, first_line)) << port->transcript;
  EXPECT_NE(json::parse(first_line)["user"].get<std::string>().find(source), std::string::npos);

  // The report compares it with the same settings without porting.
  EXPECT_NE(out.find("Porting: does a kernel for one ISA help on another?"), std::string::npos) << out;
  const json j = json::parse(capture(fmt::format("{} --json report --db {}", KCRAFT_BIN, db), &code));
  ASSERT_EQ(j["porting"].size(), 1u) << j["porting"].dump();
  const auto& cmp = j["porting"][0];
  EXPECT_EQ(cmp["port_agent"], "port:systolic:mock-model");
  EXPECT_EQ(cmp["plain_agent"], "llm:mock-model");
  EXPECT_EQ(cmp["target"], "vliw/default");
  EXPECT_EQ(cmp["configs"], 1);
  EXPECT_EQ(cmp["solved_port"], 1);
  EXPECT_EQ(cmp["solved_plain"], 0);
  EXPECT_EQ(cmp["only_port"], 1);
  fs::remove_all(dir);
}

// A porting run whose source platform has no passing kernel of the cell is stored as "no kernel to port"
// without calling the model (never run unported); once the source platform has one, the next sweep runs it.
TEST(BenchLlm, APortingRunWithNothingToPortSaysSoAndRunsOnceThereIsAKernel) {
  const auto dir = testing::fresh_dir("llm_port_none");
  int code = 0;
  MockLlmServer server(WireApi::kOpenAi);
  const std::string settings = write_settings(dir / "mock-model.yaml", server);
  const std::string db = (dir / "r.db").string();
  const std::string sweep = fmt::format(
      "{} bench --platforms vliw --tasks relu --configs C1 --hw default --agents port:systolic:{} --jobs 1 "
      "--budget 2 --tuned-baseline none --db {} 2>&1",
      KCRAFT_BIN, settings, db);
  std::string out = capture(sweep, &code);
  ASSERT_EQ(code, 0) << out;
  EXPECT_EQ(server.request_count(), 0u);
  {
    ResultStore store(db);
    const auto runs = store.runs();
    ASSERT_EQ(runs.size(), 1u) << out;
    EXPECT_EQ(runs[0].status, "no_kernel_to_port");
    EXPECT_NE(runs[0].verdict, "pass");
    EXPECT_NE(runs[0].error.find("no kernel to port"), std::string::npos) << runs[0].error;
    EXPECT_NE(runs[0].error.find("relu C1 on systolic"), std::string::npos) << runs[0].error;
  }
  // The source platform gets a passing kernel; the porting run is tried again and runs.
  out = capture(fmt::format("{} bench --platforms systolic --tasks relu --configs C1 --hw default --agents "
                            "baseline --jobs 1 --db {} 2>&1",
                            KCRAFT_BIN, db),
                &code);
  ASSERT_EQ(code, 0) << out;
  const std::string vliw_kernel =
      capture(std::string(KCRAFT_BIN) + " baseline vliw relu --config C1 --hw default", &code);
  server.then(Step::tool_call("write_code", json{{"code", vliw_kernel}}.dump(), MockUsage{100, 10, 0, 0}))
      .then(Step::tool_call("submit", "{}", MockUsage{100, 10, 0, 0}));
  out = capture(sweep, &code);
  ASSERT_EQ(code, 0) << out;
  EXPECT_EQ(server.request_count(), 2u) << out;
  ResultStore store(db);
  for (const auto& r : store.runs()) {
    if (r.key.agent != "port:systolic:mock-model") continue;
    EXPECT_EQ(r.status, "submitted") << r.error;
    EXPECT_EQ(r.verdict, "pass");
  }
  fs::remove_all(dir);
}

// `kcraft agent --port-from PLATFORM:KERNEL_FILE`: the kernel is in the prompt and the transcript, and the
// transcript replays; bad values are refused before any model call.
TEST(AgentPorting, TheAgentCommandPortsAKernelFileAndRefusesBadValues) {
  const auto dir = testing::fresh_dir("agent_port");
  int code = 0;
  const std::string source =
      capture(std::string(KCRAFT_BIN) + " baseline systolic relu --config C1 --hw default", &code);
  ASSERT_EQ(code, 0);
  { std::ofstream(dir / "relu.s") << source; }
  const std::string vliw_kernel =
      capture(std::string(KCRAFT_BIN) + " baseline vliw relu --config C1 --hw default", &code);
  MockLlmServer server(WireApi::kOpenAi);
  server.then(Step::tool_call("write_code", json{{"code", vliw_kernel}}.dump(), MockUsage{100, 10, 0, 0}))
      .then(Step::tool_call("submit", "{}", MockUsage{100, 10, 0, 0}));
  const std::string settings = write_settings(dir / "mock-model.yaml", server);
  const std::string transcript = (dir / "t.jsonl").string();
  const std::string base = fmt::format(
      "{} --json agent --platform vliw --task relu --config C1 --provider-config {} --budget 2 "
      "--no-tuned-baseline --no-library --transcript {}",
      KCRAFT_BIN, settings, transcript);
  const std::string out =
      capture(base + " --port-from systolic:" + (dir / "relu.s").string() + " 2>&1", &code);
  ASSERT_EQ(code, 0) << out;
  const json result = json::parse(out.substr(out.find('{')));
  EXPECT_EQ(result["port_from"]["platform"], "systolic");
  EXPECT_EQ(result["score"]["verdict"], "pass");
  ASSERT_EQ(server.request_count(), 2u);
  EXPECT_NE(first_user_message(server, 0).find(source), std::string::npos);
  std::ifstream in(transcript);
  std::string first_line;
  ASSERT_TRUE(std::getline(in, first_line));
  EXPECT_NE(json::parse(first_line)["user"].get<std::string>().find(source), std::string::npos);
  const std::string replay = capture(fmt::format("{} agent replay {} 2>&1", KCRAFT_BIN, transcript), &code);
  EXPECT_EQ(code, 0) << replay;

  // Clear errors, and no model call.
  const auto refused = [&](const std::string& value, const std::string& expected) {
    const std::string text = capture(base + " --port-from " + value + " 2>&1", &code);
    EXPECT_NE(code, 0) << text;
    EXPECT_NE(text.find(expected), std::string::npos) << text;
  };
  refused("nosuch:" + (dir / "relu.s").string(), "unknown platform 'nosuch'");
  refused("systolic:" + (dir / "missing.s").string(), "cannot read the kernel file");
  refused("vliw:" + (dir / "relu.s").string(), "another platform than the run's");
  refused((dir / "relu.s").string(), "expects PLATFORM:KERNEL_FILE");
  EXPECT_EQ(server.request_count(), 2u);
  fs::remove_all(dir);
}

}  // namespace
}  // namespace kcraft::bench
