// The LLM agent loop against scripted local servers speaking the OpenAI and Anthropic wire formats:
// a full repair conversation, and every fault a real provider throws at it.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "agent/common/agent_run.h"
#include "agent/common/environment.h"
#include "agent/common/replay.h"
#include "agent/library/library.h"
#include "tests/agent/mock_llm_server.h"

namespace kcraft::agent {
namespace {

using testing::MockLlmServer;
using testing::MockReply;
using testing::Step;
using testing::WireApi;

TaskContext relu_c1() {
  TaskContext c;
  c.task = "relu";
  c.config = "C1";
  return c;
}

std::string correct_kernel() {
  const Platform& p = platform(default_platform_name());
  auto cfg = task_registry().get("relu").resolve("C1", p.dtype());
  return p.baseline_compiler("default")->generate(cfg, p.layout(cfg)).source;
}

std::string wrong_kernel() {
  std::string code = correct_kernel();
  for (auto at = code.find("V_MAX_VF"); at != std::string::npos; at = code.find("V_MAX_VF"))
    code.replace(at, 8, "V_MIN_VF");
  return code;
}

std::string code_args(const std::string& code) {
  return nlohmann::json{{"code", code}}.dump();
}

std::string read_file(const std::filesystem::path& p) {
  std::ifstream in(p);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

class LlmLoop : public ::testing::TestWithParam<WireApi> {};

TEST_P(LlmLoop, RepairsItsWayFromASyntaxErrorToAPassingKernel) {
  MockLlmServer server(GetParam());
  const testing::MockUsage usage{1000, 200, 50, 100};
  server.then(Step::tool_call("write_code", code_args("V_ADD_VX r1, r2, r3\nC_HALT\n"), usage))
      .then(Step::tool_call("check_syntax", "{}", usage))
      .then(Step::branch_on_tool_result("error",
                                        Step::tool_call("write_code", code_args(wrong_kernel()), usage),
                                        Step::text("the syntax error was not reported")))
      .then(Step::tool_call("run_eval", "{}", usage))
      .then(Step::branch_on_tool_result("mismatch",
                                        Step::tool_call("view_output", R"({"max_rows": 4})", usage),
                                        Step::text("the mismatch was not reported")))
      .then(Step::branch_on_tool_result("worst",
                                        Step::tool_call("write_code", code_args(correct_kernel()), usage),
                                        Step::text("view_output showed nothing")))
      .then(Step::tool_call("run_eval", "{}", usage))
      .then(Step::branch_on_tool_result("pass", Step::tool_call("submit", "{}", usage),
                                        Step::text("did not pass")));
  auto provider = make_provider(server.settings());
  const auto path = std::filesystem::temp_directory_path() /
                    (std::string("kcraft_loop_") + testing::wire_api_name(GetParam()) + ".jsonl");
  AgentResult r;
  {
    Transcript transcript(path);
    r = run_llm_agent(*provider, relu_c1(), AgentBudget{}, transcript);
  }
  EXPECT_EQ(r.status, "submitted") << r.summary();
  EXPECT_EQ(r.iterations, 8u);
  EXPECT_EQ(r.budget, 15u);
  EXPECT_EQ(r.first_valid_iteration, 4u);  // the wrong kernel assembles; run_eval in turn 4 shows it
  EXPECT_EQ(r.first_pass_iteration, 7u);
  EXPECT_EQ(r.evaluations, 2u);
  // Prompt tokens include cached ones: OpenAI counts them in prompt_tokens, Anthropic reports them apart.
  EXPECT_EQ(r.tokens.prompt_tokens, GetParam() == WireApi::kOpenAi ? 8000u : 8800u);
  EXPECT_EQ(r.tokens.cached_prompt_tokens, 800u);
  EXPECT_EQ(r.tokens.completion_tokens, 1600u);
  EXPECT_EQ(r.score.verdict, Verdict::kPass);
  EXPECT_DOUBLE_EQ(r.score.speedup, 1.0);
  EXPECT_EQ(server.unscripted_requests(), 0u);

  // What the model was sent: the prompts, the tools, and every tool result.
  auto first = server.request(0);
  EXPECT_NE(first.system.find("# ISA reference"), std::string::npos);
  EXPECT_NE(first.system.find("at most 15 model turns"), std::string::npos);
  EXPECT_EQ(first.tool_names.size(), ToolSession::schemas().size());
  ASSERT_FALSE(first.messages.empty());
  EXPECT_NE(first.messages[0].content.find("ADDR_X"), std::string::npos);  // the task with its symbols
  auto third = server.request(2);
  ASSERT_NE(third.last_tool_result(), nullptr);
  EXPECT_NE(third.last_tool_result()->content.find("did you mean"), std::string::npos);

  // The transcript: every event, flushed to disk, replayable.
  const auto events = read_transcript(path);
  size_t calls = 0, results = 0, responses = 0;
  for (const auto& e : events) {
    calls += e["type"] == "tool_call";
    results += e["type"] == "tool_result";
    responses += e["type"] == "llm_response";
  }
  EXPECT_EQ(responses, 8u);
  EXPECT_EQ(calls, 8u);
  EXPECT_EQ(results, 8u);
  EXPECT_EQ(events.back()["type"], "run_end");
  EXPECT_EQ(events.back()["result"]["first_pass_iteration"], 7);
  auto replay = replay_transcript(path);
  EXPECT_TRUE(replay.ok()) << replay.summary();
  EXPECT_EQ(replay.tool_calls, 8u);
}

// The kernel library through a whole run: the model retrieves examples and documentation sections, the
// scored cell's kernel in the library never reaches it, and the transcript replays.
TEST_P(LlmLoop, RetrievesExamplesOfOtherCellsButNeverTheScoredOne) {
  const auto library_file =
      std::filesystem::temp_directory_path() /
      (std::string("kcraft_loop_library_") + testing::wire_api_name(GetParam()) + ".db");
  std::filesystem::remove(library_file);
  {
    library::KernelLibrary lib(library_file);
    const std::string platform_name = default_platform_name();
    // The answer itself, on this and on another hardware configuration: must never be shown.
    lib.insert({platform_name, "default", "relu", "C1", 100, "llm:x", "", "; leakmark\n" + correct_kernel(),
                "abc", "", ""});
    lib.insert({platform_name, "other_hw", "relu", "C1", 90, "llm:x", "", "; leakmark\n" + correct_kernel(),
                "abc", "", ""});
    lib.insert({platform_name, "default", "relu", "C2", 300, "llm:x", "",
                "; example of relu C2\n" + correct_kernel(), "abc", "", ""});
  }
  TaskContext ctx = relu_c1();
  ctx.library = library_file.string();
  MockLlmServer server(GetParam());
  const testing::MockUsage usage{1000, 200, 0, 0};
  server.then(Step::tool_call("find_examples", R"({"query": "relu leakmark"})", usage))
      .then(Step::branch_on_tool_result("example of relu C2",
                                        Step::tool_call("search_docs", R"({"query": "loop"})", usage),
                                        Step::text("no example")))
      .then(Step::tool_call("write_code", code_args(correct_kernel()), usage))
      .then(Step::tool_call("run_eval", "{}", usage))
      .then(Step::tool_call("submit", "{}", usage));
  auto provider = make_provider(server.settings());
  const auto path = std::filesystem::temp_directory_path() /
                    (std::string("kcraft_loop_library_") + testing::wire_api_name(GetParam()) + ".jsonl");
  AgentResult r;
  {
    Transcript transcript(path);
    r = run_llm_agent(*provider, ctx, AgentBudget{}, transcript);
  }
  EXPECT_EQ(r.status, "submitted") << r.summary();
  EXPECT_EQ(r.score.verdict, Verdict::kPass);
  EXPECT_EQ(server.unscripted_requests(), 0u);
  for (size_t i = 0; i < server.request_count(); ++i) {
    for (const auto& m : server.request(i).messages)
      EXPECT_EQ(m.content.find("leakmark"), std::string::npos) << i;
  }
  ASSERT_NE(server.request(2).last_tool_result(), nullptr);
  EXPECT_NE(server.request(2).last_tool_result()->content.find("--- ISA reference > "), std::string::npos);
  const auto j = r.to_json();
  EXPECT_EQ(j["library"]["allows_scored_cell"], false);
  EXPECT_EQ(j["library"]["scored_cell_examples"], 0);
  const auto events = read_transcript(path);
  const auto start =
      std::find_if(events.begin(), events.end(), [](const auto& e) { return e["type"] == "run_start"; });
  ASSERT_NE(start, events.end());
  EXPECT_EQ((*start)["context"]["library"], library_file.string());
  auto replay = replay_transcript(path);
  EXPECT_TRUE(replay.ok()) << replay.summary();
  EXPECT_EQ(replay.tool_calls, 5u);
  std::filesystem::remove(library_file);
}

TEST_P(LlmLoop, BadToolCallsGoBackToTheModel) {
  MockLlmServer server(GetParam());
  MockReply several;
  several.tool_calls = {{"run_eval", "{}", ""},
                        {"frobnicate", "{}", ""},
                        {"write_code", "{\"code\": 42}", ""},
                        {"write_code", "{\"code\": \"C_HALT", ""}};  // malformed JSON
  server.then(Step::reply(several)).then(Step::text("I give up"));
  server.set_fallback(Step::text("still nothing"));
  auto provider = make_provider(server.settings());
  Transcript transcript;
  auto r = run_llm_agent(*provider, relu_c1(), AgentBudget{3, 0}, transcript);
  EXPECT_EQ(r.status, "budget_exhausted");
  EXPECT_EQ(r.iterations, 3u);
  EXPECT_EQ(r.score.verdict, Verdict::kBuildError);  // nothing was ever saved
  auto second = server.request(1);
  std::vector<std::string> results;
  for (const auto& m : second.messages) {
    if (m.role == ChatMessage::Role::kTool) results.push_back(m.content);
  }
  ASSERT_EQ(results.size(), 4u);
  EXPECT_NE(results[0].find("call write_code first"), std::string::npos) << results[0];
  EXPECT_NE(results[1].find("unknown tool 'frobnicate'"), std::string::npos) << results[1];
  EXPECT_NE(results[2].find("'code' must be a string"), std::string::npos) << results[2];
  // OpenAI carries the malformed text as is; Anthropic's `input` must be an object, so it arrives as a
  // JSON string. Either way the model hears that its arguments were not a JSON object.
  EXPECT_TRUE(results[3].find("not valid JSON") != std::string::npos ||
              results[3].find("must be a JSON object") != std::string::npos)
      << results[3];
  // The text-only turn was answered with a reminder.
  auto third = server.request(2);
  EXPECT_NE(third.last_message()->content.find("Use the tools"), std::string::npos);
}

TEST_P(LlmLoop, RateLimitsAreRetriedAndTheRunContinues) {
  MockLlmServer server(GetParam());
  server.then(Step::http_error(429).retry_after("0"))
      .then(Step::http_error(503))
      .then(Step::tool_call("write_code", code_args(correct_kernel())))
      .then(Step::tool_call("submit", "{}"));
  auto provider = make_provider(server.settings());
  Transcript transcript;
  auto r = run_llm_agent(*provider, relu_c1(), AgentBudget{}, transcript);
  EXPECT_EQ(r.status, "submitted");
  EXPECT_EQ(r.iterations, 2u);
  EXPECT_EQ(r.score.verdict, Verdict::kPass);
  EXPECT_EQ(transcript.events()[2]["attempts"], 3);  // the first llm_response needed three HTTP attempts
}

TEST_P(LlmLoop, AProviderThatStaysDownEndsTheRunAndKeepsTheTranscript) {
  MockLlmServer server(GetParam());
  server.then(Step::tool_call("write_code", code_args(correct_kernel())));
  server.set_fallback(Step::http_error(500));
  auto provider = make_provider(server.settings());
  const auto path = std::filesystem::temp_directory_path() /
                    (std::string("kcraft_loop_down_") + testing::wire_api_name(GetParam()) + ".jsonl");
  AgentResult r;
  {
    Transcript transcript(path);
    r = run_llm_agent(*provider, relu_c1(), AgentBudget{}, transcript);
  }
  EXPECT_EQ(r.status, "provider_error");
  EXPECT_NE(r.error.find("server_error"), std::string::npos) << r.error;
  EXPECT_EQ(r.iterations, 1u);
  EXPECT_EQ(r.score.verdict, Verdict::kPass);  // the kernel saved before the outage is still scored
  const auto text = read_file(path);
  EXPECT_NE(text.find("\"provider_error\""), std::string::npos);
  EXPECT_NE(text.find("\"run_end\""), std::string::npos);
}

TEST_P(LlmLoop, TimeoutsAndMalformedBodiesAreProviderErrors) {
  {
    MockLlmServer server(GetParam());
    server.set_fallback(Step::stall(5));
    auto settings = server.settings();
    settings.timeout_seconds = 0.3;
    settings.max_retries = 1;
    auto provider = make_provider(settings);
    Transcript transcript;
    auto r = run_llm_agent(*provider, relu_c1(), AgentBudget{}, transcript);
    EXPECT_EQ(r.status, "provider_error");
    EXPECT_NE(r.error.find("timeout"), std::string::npos) << r.error;
    server.stop();
  }
  {
    MockLlmServer server(GetParam());
    server.set_fallback(Step::malformed_json());
    auto provider = make_provider(server.settings());
    Transcript transcript;
    auto r = run_llm_agent(*provider, relu_c1(), AgentBudget{}, transcript);
    EXPECT_EQ(r.status, "provider_error");
    EXPECT_NE(r.error.find("bad_response"), std::string::npos) << r.error;
  }
}

TEST_P(LlmLoop, TokenCapStopsTheRun) {
  MockLlmServer server(GetParam());
  server.set_fallback(Step::tool_call("grep_docs", R"({"query": "M_MM"})", {60000, 5000, 0, 0}));
  auto provider = make_provider(server.settings());
  Transcript transcript;
  auto r = run_llm_agent(*provider, relu_c1(), AgentBudget{0, 100000}, transcript);
  EXPECT_EQ(r.status, "token_cap");
  EXPECT_EQ(r.iterations, 2u);  // 65k after one turn, 130k after two: the third is not made
}

TEST_P(LlmLoop, TheApiKeyIsNeverWrittenAnywhere) {
  const std::string secret = "sk-kcraft-test-5ecret-6f1d9c";
  setenv("KCRAFT_TEST_API_KEY", secret.c_str(), 1);
  MockLlmServer server(GetParam());
  server.then(Step::tool_call("write_code", code_args(correct_kernel())));
  server.set_fallback(Step::http_error(401, "{\"error\": {\"message\": \"invalid key " + secret + "\"}}"));
  auto settings = server.settings();
  settings.api_key_env = "KCRAFT_TEST_API_KEY";
  auto provider = make_provider(settings);
  const auto path = std::filesystem::temp_directory_path() /
                    (std::string("kcraft_loop_key_") + testing::wire_api_name(GetParam()) + ".jsonl");
  AgentResult r;
  {
    Transcript transcript(path);
    r = run_llm_agent(*provider, relu_c1(), AgentBudget{}, transcript);
  }
  EXPECT_EQ(r.status, "provider_error");
  EXPECT_EQ(read_file(path).find(secret), std::string::npos);
  EXPECT_EQ(r.to_json().dump().find(secret), std::string::npos);
  EXPECT_EQ(r.summary().find(secret), std::string::npos);
  // ... but it was sent, in the right header.
  auto req = server.request(0);
  const std::string header =
      GetParam() == WireApi::kOpenAi ? req.header("Authorization") : req.header("x-api-key");
  EXPECT_NE(header.find(secret), std::string::npos);
  unsetenv("KCRAFT_TEST_API_KEY");
}

INSTANTIATE_TEST_SUITE_P(Wire, LlmLoop, ::testing::Values(WireApi::kOpenAi, WireApi::kAnthropic),
                         [](const auto& param_info) {
                           return std::string(testing::wire_api_name(param_info.param));
                         });

}  // namespace
}  // namespace kcraft::agent
