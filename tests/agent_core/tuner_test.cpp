// The offline tuner: through the same tools, never slower than the baseline, transcripts that replay.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "agent/common/replay.h"
#include "agent/common/transcript.h"
#include "agent/tuner/tuner.h"

namespace kcraft::agent {
namespace {

TEST(AgentTuner, FindsAFasterGemmAndRecordsEverything) {
  TaskContext ctx;
  ctx.task = "gemm";
  ctx.config = "C4";  // M=128: the baseline's 64-row blocks reload every weight tile twice
  const auto path = std::filesystem::temp_directory_path() / "kcraft_tuner_gemm_c4.jsonl";
  Transcript transcript(path);
  AgentResult r = run_tuner(ctx, AgentBudget{}, transcript);
  EXPECT_EQ(r.status, "submitted");
  EXPECT_EQ(r.agent, "tuner");
  EXPECT_EQ(r.budget, 15u);  // level 1
  EXPECT_LE(r.iterations, r.budget);
  EXPECT_GE(r.iterations, 5u);
  EXPECT_EQ(r.first_valid_iteration, 1u);
  EXPECT_EQ(r.first_pass_iteration, 1u);  // the baseline passes
  ASSERT_EQ(r.score.verdict, Verdict::kPass);
  EXPECT_GT(r.score.speedup, 1.05) << "the tuner should beat the baseline on gemm C4";
  EXPECT_EQ(r.tokens.prompt_tokens, 0u);
  // The transcript on disk has the whole run and replays to the same results.
  const auto events = read_transcript(path);
  EXPECT_EQ(events.front()["type"], "run_start");
  EXPECT_EQ(events.back()["type"], "run_end");
  EXPECT_EQ(events.back()["result"]["score"]["verdict"], "pass");
  auto replay = replay_transcript(path);
  EXPECT_TRUE(replay.ok()) << replay.summary();
  EXPECT_EQ(replay.tool_calls,
            2 * r.iterations + 2);  // write_code + run_eval per candidate, final save + submit
}

TEST(AgentTuner, NeverSlowerThanTheBaseline) {
  for (const std::string task : {"relu", "silu", "softmax", "rms_norm", "linear"}) {
    TaskContext ctx;
    ctx.task = task;
    ctx.config = "C2";
    Transcript transcript;
    AgentResult r = run_tuner(ctx, AgentBudget{6, 0}, transcript);
    ASSERT_EQ(r.score.verdict, Verdict::kPass) << task;
    EXPECT_GE(r.score.speedup, 1.0) << task;
    EXPECT_LE(r.score.cycles, r.score.baseline_cycles) << task;
    EXPECT_LE(r.score.utilization, 1.0) << task << ": the ideal cycle count must be a lower bound";
    EXPECT_LE(r.iterations, 6u);
  }
}

TEST(AgentTuner, BudgetOfOneIsTheBaseline) {
  TaskContext ctx;
  ctx.task = "softmax";
  ctx.config = "C2";
  Transcript transcript;
  AgentResult r = run_tuner(ctx, AgentBudget{1, 0}, transcript);
  EXPECT_EQ(r.iterations, 1u);
  EXPECT_DOUBLE_EQ(r.score.speedup, 1.0);
}

TEST(AgentBaseline, SubmitsTheTemplateKernelWithoutADevelopmentRun) {
  TaskContext ctx;
  ctx.task = "softmax";
  ctx.config = "C2";
  const auto path = std::filesystem::temp_directory_path() / "kcraft_baseline_softmax_c2.jsonl";
  AgentResult r;
  {
    Transcript transcript(path);
    r = run_baseline(ctx, transcript);
  }
  EXPECT_EQ(r.status, "submitted");
  EXPECT_EQ(r.agent, "baseline");
  EXPECT_EQ(r.evaluations, 0u);  // scoring's hidden seeds are the only simulations
  ASSERT_EQ(r.score.verdict, Verdict::kPass);
  EXPECT_DOUBLE_EQ(r.score.speedup, 1.0);
  // The score carries the counters of the run its cycles come from: the first hidden seed.
  ASSERT_FALSE(r.score.counters.empty());
  Transcript tuner_transcript;
  const AgentResult tuned = run_tuner(ctx, AgentBudget{1, 0}, tuner_transcript);
  EXPECT_EQ(tuned.final_code, r.final_code);
  EXPECT_EQ(tuned.score.cycles, r.score.cycles);
  EXPECT_EQ(tuned.score.counters, r.score.counters);
  bool cycles_counter = false;
  for (const auto& [name, value] : r.score.counters) {
    if (name == "cycles") {
      cycles_counter = true;
      EXPECT_EQ(value, r.score.cycles);
    }
  }
  EXPECT_TRUE(cycles_counter);
  auto replay = replay_transcript(path);
  EXPECT_TRUE(replay.ok()) << replay.summary();
  EXPECT_EQ(replay.tool_calls, 2u);  // write_code, submit
}

TEST(AgentReplay, DetectsATamperedTranscript) {
  TaskContext ctx;
  ctx.task = "relu";
  ctx.config = "C1";
  const auto path = std::filesystem::temp_directory_path() / "kcraft_tuner_relu_c1.jsonl";
  {
    Transcript transcript(path);
    run_tuner(ctx, AgentBudget{2, 0}, transcript);
  }
  ASSERT_TRUE(replay_transcript(path).ok());
  // Claim a different cycle count for the first evaluation.
  auto events = read_transcript(path);
  for (auto& e : events) {
    if (e["type"] == "tool_result" && e["name"] == "run_eval") {
      e["data"]["cycles"] = e["data"]["cycles"].get<uint64_t>() + 1;
      break;
    }
  }
  const auto tampered = std::filesystem::temp_directory_path() / "kcraft_tuner_relu_c1_tampered.jsonl";
  {
    std::ofstream out(tampered);
    for (const auto& e : events) out << e.dump() << "\n";
  }
  auto replay = replay_transcript(tampered);
  EXPECT_FALSE(replay.ok());
  ASSERT_EQ(replay.mismatches.size(), 1u);
  EXPECT_EQ(replay.mismatches[0].tool, "run_eval");
  // A malformed line names the file and line.
  { std::ofstream(tampered, std::ios::app) << "{not json\n"; }
  try {
    replay_transcript(tampered);
    FAIL() << "malformed transcript accepted";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find(tampered.string() + ":"), std::string::npos) << e.what();
  }
}

// Found by fuzzing (tests/fuzz/regressions/transcript_replay): an event with a missing or mistyped field
// (a tool_call without "arguments", a non-object line, a number where text belongs) escaped from replay as
// the JSON library's exception, or read a missing key of a const object (undefined behaviour). Each is a
// malformed transcript naming the file and the event.
TEST(AgentReplay, MalformedEventsNameTheFileAndEvent) {
  const std::string start =
      R"({"type": "run_start", "agent": "t", "context": {"platform": "systolic", "hw_config": "default", )"
      R"("task": "relu", "config": "C1", "dev_seed": 1}})";
  const std::vector<std::pair<std::string, std::string>> cases = {
      {start + "\n" + R"({"type": "tool_call", "id": "c1", "name": "check_syntax"})",
       "t.jsonl: event 2: no \"arguments\""},
      {"1\n" + start, "t.jsonl: event 1: not a JSON object"},
      // A number no double holds: the JSON library's out_of_range, found by fuzzing (a regression input
      // in tests/fuzz/regressions/transcript_replay/).
      {start + "\n" + R"({"type": "llm_request", "t": 6.694e705})", "t.jsonl:2: not a JSON event"},
      {R"({"type": 5})", "t.jsonl: event 1: \"type\" is not a string"},
      {R"({"type": "run_start"})", "t.jsonl: event 1: run_start has no \"context\" object"},
      {R"({"type": "run_start", "context": {"platform": "systolic", "hw_config": "default", "task": "relu", )"
       R"("config": "C1", "dev_seed": "one"}})",
       "t.jsonl: event 1: \"dev_seed\" is not a non-negative integer"},
      {start + "\n" + R"({"type": "tool_call", "name": 5, "arguments": "{}"})",
       "t.jsonl: event 2: \"name\" is not a string"},
      {start + "\n" + R"({"type": "score", "score": {"verdict": 3}})",
       "t.jsonl: event 2: \"verdict\" is not a string"},
      {start + "\n" + R"({"type": "score", "score": {"verdict": "great"}})",
       "t.jsonl: event 2: unknown verdict"},
      {start + "\n" + R"({"type": "score"})", "t.jsonl: event 2: score has no \"score\" object"},
  };
  for (const auto& [text, message] : cases) {
    try {
      replay_events(parse_transcript(text, "t.jsonl"), "t.jsonl");
      ADD_FAILURE() << "accepted:\n" << text;
    } catch (const std::runtime_error& e) {
      EXPECT_NE(std::string(e.what()).find(message), std::string::npos) << e.what();
    }
  }
}

}  // namespace
}  // namespace kcraft::agent
