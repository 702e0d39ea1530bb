// The code above tb/ is generic: a platform registered only in this test binary (fake_platform.h) is
// picked up by the registry, the agent tools, scoring, the offline tuner, the MCP tools and sweep
// planning, with no line of them naming it.
#include <gtest/gtest.h>

#include <filesystem>

#include "agent/bench/plan.h"
#include "agent/common/environment.h"
#include "agent/common/replay.h"
#include "agent/common/scoring.h"
#include "agent/common/tools.h"
#include "agent/common/transcript.h"
#include "agent/mcp/mcp_tools.h"
#include "agent/tuner/tuner.h"
#include "tests/agent_core/fake_platform.h"

namespace kcraft::agent {
namespace {

using nlohmann::json;
using testing::kFakePlatform;

class FakePlatformRegistered : public ::testing::Environment {
 public:
  void SetUp() override { register_platform(kFakePlatform, testing::make_fake_platform); }
};
const auto* const kRegistered = ::testing::AddGlobalTestEnvironment(new FakePlatformRegistered);

TaskContext fake_relu() {
  TaskContext c;
  c.platform = kFakePlatform;
  c.task = "relu";
  c.config = "C1";
  return c;
}

TEST(GenericPlatform, TheRegistryListsItAfterTheBuiltInOnes) {
  const auto names = platform_names();
  ASSERT_GE(names.size(), 2u);
  EXPECT_EQ(names.back(), kFakePlatform);
  EXPECT_NE(default_platform_name(), kFakePlatform);  // registered platforms keep the default
  EXPECT_EQ(platform(kFakePlatform).name(), kFakePlatform);
  EXPECT_EQ(platforms().back(), find_platform(kFakePlatform));
  try {
    platform("nope");
    FAIL() << "no exception";
  } catch (const std::invalid_argument& e) {
    EXPECT_EQ(std::string(e.what()), "unknown platform 'nope' (available: " + platform_list_text() + ")");
    EXPECT_NE(std::string(e.what()).find(", fake)"), std::string::npos) << e.what();
  }
  EXPECT_THROW(register_platform(kFakePlatform, testing::make_fake_platform), std::invalid_argument);
}

TEST(GenericPlatform, ToolSessionWorksThroughTheInterface) {
  ToolSession s(fake_relu());
  EXPECT_FALSE(s.call("write_code", {{"code", "FAKE_OP\nFAKE_OP HAZARD\n"}}).is_error);
  const auto check = s.call("check_syntax", json::object());
  EXPECT_EQ(check.data["ok"], true) << check.text;
  EXPECT_EQ(check.data["warnings"], 1) << check.text;
  EXPECT_NE(check.text.find("OK: 2 instruction words (IMEM holds 64)"), std::string::npos) << check.text;
  const auto bad = s.call("check_syntax", {{"code", "BAD\n"}});
  EXPECT_EQ(bad.data["ok"], false) << bad.text;
  EXPECT_NE(bad.text.find("try FAKE_OP"), std::string::npos) << bad.text;

  const auto eval = s.call("run_eval", json::object());
  EXPECT_EQ(eval.data["verdict"], "pass") << eval.text;
  EXPECT_EQ(eval.data["cycles"], 200) << eval.text;
  const auto profile = s.call("profile", json::object());
  EXPECT_NE(profile.text.find("fake counters: 2 FAKE_OPs"), std::string::npos) << profile.text;
  const auto size = s.call("get_inst_size", json::object());
  EXPECT_EQ(size.data["imem_words"], 64) << size.text;

  const auto entry = s.call("grep_docs", {{"query", "fake_op"}});
  EXPECT_EQ(entry.data["instruction"], "FAKE_OP") << entry.text;
  EXPECT_NE(entry.text.find("Does nothing for 100 cycles"), std::string::npos) << entry.text;
  const auto guide = s.call("grep_docs", {{"query", "nothing overlaps"}});
  EXPECT_EQ(guide.data["matches"], 1) << guide.text;
}

TEST(GenericPlatform, PromptTextsNameThePlatform) {
  const std::string task = task_text(fake_relu());
  EXPECT_NE(task.find("Predefined symbols, as assembler symbols (fake/default)"), std::string::npos) << task;
  EXPECT_NE(task.find("PROGRAM_WORDS=64"), std::string::npos) << task;
  const std::string hw = hardware_summary(kFakePlatform, "default");
  EXPECT_EQ(hw,
            "Hardware configuration fake/default: a platform that exists only in a test binary\n"
            "  LANES = 4\n  PROGRAM_WORDS = 64\n  DRAM_LATENCY = 10 cycles\n");
  EXPECT_NE(isa_reference(kFakePlatform).find("#### FAKE_OP"), std::string::npos);
  EXPECT_NE(platform_guide(kFakePlatform).find("One FAKE_OP per cycle"), std::string::npos);
}

TEST(GenericPlatform, AnUnsupportedTaskIsRefused) {
  TaskContext c = fake_relu();
  c.task = "gemm";
  try {
    ToolSession s(c);
    FAIL() << "no exception";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(
        std::string(e.what()).find("not supported on fake/default: the fake platform has no matrix unit"),
        std::string::npos)
        << e.what();
  }
}

TEST(GenericPlatform, ScoringUsesItsBaselineCompiler) {
  const Score score = score_kernel(fake_relu(), "FAKE_OP\n");
  EXPECT_EQ(score.verdict, Verdict::kPass);
  EXPECT_EQ(score.cycles, 100u);
  EXPECT_EQ(score.baseline_cycles, 300u);  // the baseline unrolls three times
  EXPECT_DOUBLE_EQ(score.speedup, 3.0);
  // The platform's compiler baseline (five FAKE_OPs) on the same seed, and the speedup over it.
  EXPECT_EQ(score.compiler_baseline_cycles, 500u);
  EXPECT_DOUBLE_EQ(score.compiler_speedup, 5.0);
  EXPECT_EQ(score.to_json()["compiler_baseline_cycles"], 500u);
  EXPECT_EQ(compiler_baseline_name(kFakePlatform, "default"), "fake cc");
  // A task the compiler baseline does not cover: none, and no field.
  TaskContext silu = fake_relu();
  silu.task = "silu";
  const Score none = score_kernel(silu, "FAKE_OP\n");
  EXPECT_EQ(none.verdict, Verdict::kPass);
  EXPECT_EQ(none.compiler_baseline_cycles, 0u);
  EXPECT_EQ(none.compiler_speedup, 0.0);
  EXPECT_FALSE(none.to_json().contains("compiler_baseline_cycles"));
}

TEST(GenericPlatform, ACacheOnlyCompilerBaselineIsNotSimulated) {
  TaskContext c = fake_relu();
  c.config = "C2";  // no other test scores it: this process has not remembered its compiler baseline
  set_compiler_baseline_policy(CompilerBaselinePolicy::kCacheOnly);
  // No evaluation cache: the compiler baseline is not simulated, and the score says so.
  const Score none = score_kernel(c, "FAKE_OP\n");
  EXPECT_EQ(none.verdict, Verdict::kPass);
  EXPECT_TRUE(none.compiler_baseline_not_simulated);
  EXPECT_EQ(none.compiler_baseline_cycles, 0u);
  EXPECT_EQ(none.to_json()["compiler_baseline"], "not simulated");

  // (The evaluation cache keeps nothing of a platform registered at run time; the path through it is
  // bench.BenchE2E.CompilerBaselinesBeyondC2ComeFromTheEvaluationCacheUnlessAllIsAsked's.)
  // Simulating (the default, and what every other test sees) fills it in: nothing was remembered.
  set_compiler_baseline_policy(CompilerBaselinePolicy::kSimulate);
  const Score simulated = score_kernel(c, "FAKE_OP\n");
  EXPECT_FALSE(simulated.compiler_baseline_not_simulated);
  EXPECT_EQ(simulated.compiler_baseline_cycles, 500u);
  EXPECT_FALSE(simulated.to_json().contains("compiler_baseline"));
}

TEST(GenericPlatform, TheTunerExploresItsKnobs) {
  EXPECT_EQ(tuner_search_space_id(fake_relu()).size(), 16u);
  Transcript transcript;
  const AgentResult result = run_tuner(fake_relu(), AgentBudget{5, 0}, transcript);
  EXPECT_EQ(result.status, "submitted") << result.error;
  EXPECT_EQ(result.score.verdict, Verdict::kPass);
  EXPECT_EQ(result.score.cycles, 100u);  // unroll=1 is the fastest, found past the refused unroll=4
  EXPECT_EQ(result.iterations, 3u);      // baseline, unroll=1, unroll=2: the refused point costs none
  EXPECT_NE(result.summary().find("(fake/default)"), std::string::npos) << result.summary();
}

// A template without knobs has one candidate: the tuner submits it without a development run, as the
// baseline agent does, and scoring's hidden seeds are the only simulations.
TEST(GenericPlatform, TheTunerSubmitsATemplateWithoutKnobsUnevaluated) {
  TaskContext ctx = fake_relu();
  ctx.task = "silu";
  const auto path = std::filesystem::temp_directory_path() / "kcraft_tuner_no_knobs.jsonl";
  AgentResult result;
  {
    Transcript transcript(path);
    result = run_tuner(ctx, AgentBudget{0, 0}, transcript);
  }
  EXPECT_EQ(result.status, "submitted") << result.error;
  EXPECT_EQ(result.iterations, 1u);
  EXPECT_EQ(result.evaluations, 0u);
  EXPECT_EQ(result.score.verdict, Verdict::kPass);
  EXPECT_EQ(result.score.cycles, 300u);
  EXPECT_DOUBLE_EQ(result.score.speedup, 1.0);
  const auto replay = replay_transcript(path);
  EXPECT_TRUE(replay.ok()) << replay.summary();
  EXPECT_EQ(replay.tool_calls, 2u);  // write_code, submit
  std::filesystem::remove(path);
}

TEST(GenericPlatform, McpToolsListAndSelectIt) {
  mcp::McpToolbox box;
  const auto list = box.call("list_tasks", {{"platform", kFakePlatform}});
  ASSERT_FALSE(list.is_error) << list.text;
  EXPECT_NE(list.text.find("support C1..C5 on fake/default"), std::string::npos) << list.text;
  EXPECT_NE(list.text.find("a platform that exists only in a test binary"), std::string::npos) << list.text;
  bool relu_has_baseline = false, gemm_unsupported = false;
  for (const auto& t : list.data["tasks"]) {
    if (t["name"] == "relu") relu_has_baseline = t["support"]["C1"] == "baseline";
    if (t["name"] == "gemm") gemm_unsupported = t["support"]["C1"] == "the fake platform has no matrix unit";
  }
  EXPECT_TRUE(relu_has_baseline) << list.data.dump();
  EXPECT_TRUE(gemm_unsupported) << list.data.dump();
  const auto unknown = box.call("list_tasks", {{"platform", "nope"}});
  EXPECT_TRUE(unknown.is_error);
  EXPECT_NE(unknown.text.find("available: " + platform_list_text()), std::string::npos) << unknown.text;

  const auto selected = box.call("select_task", {{"task", "silu"}, {"platform", kFakePlatform}});
  ASSERT_FALSE(selected.is_error) << selected.text;
  EXPECT_NE(selected.text.find("silu C1 on fake/default"), std::string::npos) << selected.text;
  const auto hardware = box.call("read_docs", {{"document", "hardware"}});
  EXPECT_NE(hardware.text.find("fake/default"), std::string::npos) << hardware.text;
  const auto submitted = box.call("submit", json::object());
  EXPECT_TRUE(submitted.is_error) << submitted.text;  // nothing written yet
  box.call("write_code", {{"code", "FAKE_OP\n"}});
  const auto scored = box.call("submit", json::object());
  EXPECT_EQ(scored.data["score"]["verdict"], "pass") << scored.text;
}

TEST(GenericPlatform, SweepPlansRunOnIt) {
  bench::SweepFilters f;
  f.platforms = {kFakePlatform};
  f.tasks = {"relu", "gemm"};
  f.agents = {"baseline"};
  f.full = true;  // C1..C5, not the quick sweep's C1-C2
  const auto plan = bench::build_plan(f, task_registry());
  ASSERT_EQ(plan.hardware.size(), 1u);
  EXPECT_EQ(plan.hardware[0].platform, kFakePlatform);
  EXPECT_EQ(plan.hardware[0].config["build"]["LANES"], 4);
  EXPECT_EQ(plan.runs.size(), 5u);         // relu C1..C5
  EXPECT_EQ(plan.unsupported.size(), 5u);  // gemm C1..C5
  for (const auto& run : plan.runs) EXPECT_EQ(run.key.target(), "fake/default");
  EXPECT_EQ(bench::attainable_cycles(kFakePlatform, "default", "relu", "C1"),
            platform(kFakePlatform)
                .ideal_cycles(task_registry().get("relu").resolve("C1", tasks::DType::bf16), "default")
                .attainable);
}

}  // namespace
}  // namespace kcraft::agent
