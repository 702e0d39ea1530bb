// The `single` workflow is today's loop: on a scripted server it must give the transcript and verdict the
// loop gave before workflows existed. data/single_legacy_openai.jsonl was written by the legacy
// run_llm_agent (commit 3ed48d9, before this test's workflow engine) on this very script; the test
// compares event by event after dropping what legitimately differs between runs (timings, the mock
// server's port) and the fields workflows added (the role tag, the workflow name and per-role counts).
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "agent/common/agent_run.h"
#include "agent/common/environment.h"
#include "tests/agent/mock_llm_server.h"

namespace kcraft::agent {
namespace {

using nlohmann::json;
using testing::MockLlmServer;
using testing::Step;
using testing::WireApi;

std::string relu_kernel(bool correct) {
  const Platform& p = platform(default_platform_name());
  auto cfg = task_registry().get("relu").resolve("C1", p.dtype());
  std::string code = p.baseline_compiler("default")->generate(cfg, p.layout(cfg)).source;
  if (!correct) {
    for (auto at = code.find("V_MAX_VF"); at != std::string::npos; at = code.find("V_MAX_VF"))
      code.replace(at, 8, "V_MIN_VF");
  }
  return code;
}

std::string code_args(const std::string& code) {
  return json{{"code", code}}.dump();
}

// A repair conversation with every kind of turn: a syntax error, a mismatch, view_output, a text-only
// turn (nudged), a pass and submit.
void script_repair(MockLlmServer& server) {
  const testing::MockUsage usage{1000, 200, 50, 100};
  server.then(Step::tool_call("write_code", code_args("V_ADD_VX r1, r2, r3\nC_HALT\n"), usage))
      .then(Step::tool_call("check_syntax", "{}", usage))
      .then(Step::tool_call("write_code", code_args(relu_kernel(false)), usage))
      .then(Step::tool_call("run_eval", "{}", usage))
      .then(Step::tool_call("view_output", R"({"max_rows": 4})", usage))
      .then(Step::text("Thinking about the sign of the comparison.", usage))
      .then(Step::tool_call("write_code", code_args(relu_kernel(true)), usage))
      .then(Step::tool_call("run_eval", "{}", usage))
      .then(Step::tool_call("submit", "{}", usage));
}

json normalized(json event) {
  event.erase("t");
  event.erase("role");
  event.erase("seconds");
  if (event.contains("settings")) event["settings"].erase("base_url");
  if (event["type"] == "run_start") event.erase("workflow");
  if (event["type"] == "run_end") {
    for (const char* added : {"wall_seconds", "workflow", "roles", "steps"}) event["result"].erase(added);
  }
  return event;
}

std::vector<json> run_single(const std::filesystem::path& path) {
  MockLlmServer server(WireApi::kOpenAi);
  script_repair(server);
  auto provider = make_provider(server.settings());
  TaskContext ctx;
  ctx.task = "relu";
  {
    Transcript transcript(path);
    run_llm_agent(*provider, ctx, AgentBudget{}, transcript);
  }
  EXPECT_EQ(server.unscripted_requests(), 0u);
  std::vector<json> out;
  for (const auto& e : read_transcript(path)) out.push_back(normalized(e));
  return out;
}

TEST(SingleWorkflow, ReproducesTheLegacyLoopsTranscriptAndVerdict) {
  const auto path = std::filesystem::temp_directory_path() / "kcraft_single_golden.jsonl";
  const auto events = run_single(path);
  const std::filesystem::path golden =
      std::filesystem::path(KCRAFT_TEST_DATA_DIR) / "single_legacy_openai.jsonl";
  if (const char* write = std::getenv("KCRAFT_WRITE_SINGLE_GOLDEN"); write && std::string(write) == "1") {
    std::ofstream out(golden);
    for (const auto& e : events) out << e.dump() << "\n";
    GTEST_SKIP() << "wrote " << golden;
  }
  const auto expected = read_transcript(golden);
  ASSERT_EQ(events.size(), expected.size());
  for (size_t i = 0; i < events.size(); ++i) EXPECT_EQ(events[i], expected[i]) << "event " << i;
  EXPECT_EQ(events.back()["result"]["status"], "submitted");
  EXPECT_EQ(events.back()["result"]["score"]["verdict"], "pass");
}

}  // namespace
}  // namespace kcraft::agent
