// An LLM agent in a sweep: `kcraft bench --agents llm:FILE.yaml` against a scripted OpenAI-compatible
// server in this process. Two attempts: the first writes the baseline kernel, evaluates it and submits;
// the second submits a kernel that does not assemble.
#include <fcntl.h>
#include <fmt/format.h>
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <fstream>

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

}  // namespace
}  // namespace kcraft::bench
