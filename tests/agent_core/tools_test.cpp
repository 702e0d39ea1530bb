// The agent tools as a model uses them: arguments checked, results compact and actionable.
#include <gtest/gtest.h>

#include "agent/common/environment.h"
#include "agent/common/scoring.h"
#include "agent/common/tools.h"
#include "tasks/rvv/kernel_math.h"

namespace kcraft::agent {
namespace {

TaskContext relu_c2() {
  TaskContext c;
  c.task = "relu";
  c.config = "C2";
  return c;
}

std::string baseline(const TaskContext& ctx) {
  const Platform& p = platform(ctx.platform);
  auto cfg = task_registry().get(ctx.task).resolve(ctx.config, p.dtype());
  return p.baseline_compiler(ctx.hw_config)->generate(cfg, p.layout(cfg)).source;
}

TEST(AgentTools, SchemasDescribeEveryTool) {
  std::vector<std::string> names;
  for (const auto& t : ToolSession::schemas()) {
    names.push_back(t.name);
    EXPECT_FALSE(t.description.empty()) << t.name;
    EXPECT_EQ(t.parameters["type"], "object") << t.name;
    EXPECT_TRUE(t.parameters["properties"].is_object()) << t.name;
  }
  EXPECT_EQ(names,
            (std::vector<std::string>{"write_code", "check_syntax", "run_eval", "view_output", "grep_docs",
                                      "search_docs", "find_examples", "get_inst_size", "profile", "submit"}));
}

TEST(AgentTools, BadCallsAreToolErrorsNotExceptions) {
  ToolSession s(relu_c2());
  auto r = s.call_text("write_kode", "{}");
  EXPECT_TRUE(r.is_error);
  EXPECT_NE(r.text.find("unknown tool 'write_kode'"), std::string::npos) << r.text;
  EXPECT_NE(r.text.find("write_code"), std::string::npos);
  r = s.call_text("write_code", "{\"code\": \"C_HALT\"");  // truncated JSON
  EXPECT_TRUE(r.is_error);
  EXPECT_NE(r.text.find("not valid JSON"), std::string::npos) << r.text;
  // A number no double holds is not valid JSON either (nlohmann says out_of_range, not parse_error).
  r = s.call_text("write_code", "{\"code\": \"C_HALT\", \"x\": 1e999}");
  EXPECT_TRUE(r.is_error);
  EXPECT_NE(r.text.find("not valid JSON"), std::string::npos) << r.text;
  r = s.call_text("write_code", "{\"code\": 42}");
  EXPECT_TRUE(r.is_error);
  EXPECT_NE(r.text.find("'code' must be a string"), std::string::npos) << r.text;
  r = s.call_text("write_code", "{}");
  EXPECT_NE(r.text.find("missing required argument 'code'"), std::string::npos) << r.text;
  r = s.call_text("run_eval", "{\"fast\": true}");
  EXPECT_NE(r.text.find("unknown argument 'fast'"), std::string::npos) << r.text;
  r = s.call_text("run_eval", "");
  EXPECT_TRUE(r.is_error);
  EXPECT_NE(r.text.find("call write_code first"), std::string::npos) << r.text;
  EXPECT_TRUE(s.call_text("view_output", "{}").is_error);
  EXPECT_TRUE(s.call_text("profile", "{}").is_error);
  EXPECT_TRUE(s.call_text("submit", "{}").is_error);
  EXPECT_THROW(ToolSession(TaskContext{"systolic", "default", "relux", "C1", 1}), std::invalid_argument);
}

TEST(AgentTools, WriteCheckEvalProfileSubmit) {
  ToolSession s(relu_c2());
  EXPECT_FALSE(s.call("write_code", nlohmann::json{{"code", "V_ADD_VX r1, r2, r3\nC_HALT\n"}}).is_error);
  auto r = s.call_text("check_syntax", "{}");
  EXPECT_FALSE(r.is_error);
  EXPECT_FALSE(r.data["ok"].get<bool>());
  EXPECT_NE(r.text.find("kernel.s:1:1: error: unknown instruction 'V_ADD_VX'"), std::string::npos) << r.text;
  EXPECT_NE(r.text.find("did you mean"), std::string::npos) << r.text;
  r = s.call_text("run_eval", "{}");
  EXPECT_EQ(r.data["verdict"], "build_error");

  s.call("write_code", nlohmann::json{{"code", baseline(relu_c2())}});
  r = s.call_text("check_syntax", "{}");
  EXPECT_TRUE(r.data["ok"].get<bool>()) << r.text;
  r = s.call_text("get_inst_size", "{}");
  EXPECT_GT(r.data["instructions"].get<int>(), 5);
  r = s.call_text("run_eval", "{}");
  EXPECT_EQ(r.data["verdict"], "pass") << r.text;
  EXPECT_GT(r.data["cycles"].get<uint64_t>(), 0u);
  EXPECT_NE(r.text.find("pass:"), std::string::npos);
  r = s.call_text("profile", "{}");
  EXPECT_NE(r.text.find("DMA"), std::string::npos) << r.text;
  EXPECT_EQ(r.data["cycles"], s.last_eval()->cycles);
  // The timeline summary of the same run: per-unit busy windows, overlap, the stalls that cost most.
  for (const char* part : {"timeline of", "busy windows", "overlap:", "DMA engine", "attainable"})
    EXPECT_NE(r.text.find(part), std::string::npos) << part << "\n" << r.text;
  EXPECT_LT(r.text.size(), 6000u) << "the profile must stay compact for a model's context";
  // The profile's shares read like run_eval's.
  const std::string share = share_of_cycles("ideal", s.last_eval()->ideal.total(), s.last_eval()->cycles);
  EXPECT_NE(r.text.find(share), std::string::npos) << r.text;
  r = s.call_text("submit", "{}");
  EXPECT_TRUE(s.submitted());
  EXPECT_EQ(s.evaluations(), 2u);
}

TEST(AgentTools, ViewOutputShowsWhereItIsWrong) {
  ToolSession s(relu_c2());
  std::string code = baseline(relu_c2());
  for (auto at = code.find("V_MAX_VF"); at != std::string::npos; at = code.find("V_MAX_VF"))
    code.replace(at, 8, "V_MIN_VF");
  s.call("write_code", nlohmann::json{{"code", code}});
  auto r = s.call_text("run_eval", "{}");
  EXPECT_EQ(r.data["verdict"], "mismatch");
  EXPECT_NE(r.text.find("elements within tolerance"), std::string::npos) << r.text;
  r = s.call("view_output", nlohmann::json{{"max_rows", 4}});
  EXPECT_FALSE(r.is_error) << r.text;
  EXPECT_NE(r.text.find("worst"), std::string::npos) << r.text;
  EXPECT_NE(r.text.find("row"), std::string::npos) << r.text;
  EXPECT_TRUE(s.call("view_output", nlohmann::json{{"output", "z"}}).is_error);
}

TEST(AgentTools, GrepDocsFindsInstructionsAndConcepts) {
  ToolSession s(relu_c2());
  auto r = s.call("grep_docs", nlohmann::json{{"query", "v_exp_vf"}});
  EXPECT_EQ(r.data["instruction"], "V_EXP_VF");
  EXPECT_EQ(r.text.rfind("#### V_EXP_VF", 0), 0u) << r.text.substr(0, 200);
  EXPECT_NE(r.text.find("exp(a[i] - fs)"), std::string::npos) << r.text;
  r = s.call("grep_docs", nlohmann::json{{"query", "double buffering"}, {"max_results", 3}});
  EXPECT_GE(r.data["matches"].get<int>(), 1);
  EXPECT_LE(r.data["matches"].get<int>(), 3);
  r = s.call("grep_docs", nlohmann::json{{"query", "xyzzy-not-there"}});
  EXPECT_EQ(r.data["matches"], 0);
}

TEST(AgentTools, LongResultsAreTruncatedWithANote) {
  std::string text;
  for (int i = 0; i < 1000; ++i) text += "line " + std::to_string(i) + " of a long diagnostic\n";
  auto cut = truncate_for_model(text, 1000);
  EXPECT_LE(cut.size(), 1100u);
  EXPECT_NE(cut.find("[... truncated:"), std::string::npos);
  EXPECT_EQ(truncate_for_model("short", 1000), "short");
}

TEST(AgentScoring, HiddenSeedsAreNotTheDevelopmentSeed) {
  auto ctx = relu_c2();
  auto seeds = hidden_seeds(ctx);
  ASSERT_EQ(seeds.size(), 2u);
  EXPECT_NE(seeds[0], seeds[1]);
  for (auto s : seeds) EXPECT_NE(s, ctx.dev_seed);
  EXPECT_EQ(seeds, hidden_seeds(ctx));  // stable
}

TEST(AgentScoring, OnlyKernelsThatComputeFromTheirInputsScore) {
  auto ctx = relu_c2();
  // A kernel that stores rows it never computed (VSRAM starts zeroed) can match outputs only by luck;
  // relu outputs of the hidden seeds are not all zero, so it fails there.
  auto lazy =
      score_kernel(ctx, "S_LI r2, ADDR_Y\nS_LI r3, ROW_BYTES\nH_STORE_V r0, r2, r3, M * N / VLEN\nC_HALT\n");
  EXPECT_EQ(lazy.verdict, Verdict::kMismatch);
  EXPECT_EQ(lazy.speedup, 0.0);
  auto good = score_kernel(ctx, baseline(ctx));
  EXPECT_EQ(good.verdict, Verdict::kPass);
  ASSERT_EQ(good.seeds.size(), 2u);
  EXPECT_EQ(good.cycles, good.baseline_cycles);
  EXPECT_DOUBLE_EQ(good.speedup, 1.0);
  EXPECT_EQ(score_kernel(ctx, "").verdict, Verdict::kBuildError);
}

TEST(AgentScoring, RangeStressTasksGetAThirdHiddenSeedWithTheStressBit) {
  TaskContext ctx;
  ctx.task = "softmax";
  ctx.config = "C1";
  const auto seeds = hidden_seeds(ctx);
  ASSERT_EQ(seeds.size(), 3u);
  EXPECT_FALSE(tasks::is_range_stress_seed(seeds[0]));
  EXPECT_FALSE(tasks::is_range_stress_seed(seeds[1]));
  EXPECT_TRUE(tasks::is_range_stress_seed(seeds[2]));
  for (auto s : seeds) EXPECT_NE(s, ctx.dev_seed);
  EXPECT_EQ(seeds, hidden_seeds(ctx));  // stable
  for (const auto s : hidden_seeds(relu_c2())) EXPECT_FALSE(tasks::is_range_stress_seed(s));
}

// A softmax that skips the row maximum: exp(x) / sum exp(x). It passes the ordinary hidden seeds (logits
// of a few units) and fails the range-stress one, where kc_expf overflows to +inf and inf/inf is NaN. rvv
// takes the kernel in C, the simplest path to write one.
TEST(AgentScoring, NaiveSoftmaxFailsOnlyTheRangeStressSeed) {
  TaskContext ctx;
  ctx.platform = "rvv";
  ctx.task = "softmax";
  ctx.config = "C1";
  auto kernel = [](bool subtract_max) {
    return rvv::math_header() + R"(
void kernel(void) {
  const float* x = (const float*)ADDR_X;
  float* y = (float*)ADDR_Y;
  for (int m = 0; m < M; ++m) {
    const float* xr = x + m * N;
    float* yr = y + m * N;
    float max = xr[0];
    for (int n = 1; n < N; ++n) max = xr[n] > max ? xr[n] : max;
)" + (subtract_max ? "" : "    max = 0.0f;\n") +
           R"(    float sum = 0.0f;
    for (int n = 0; n < N; ++n) {
      yr[n] = kc_expf(xr[n] - max);
      sum += yr[n];
    }
    for (int n = 0; n < N; ++n) yr[n] = yr[n] / sum;
  }
}
)";
  };
  const Score naive = score_kernel(ctx, kernel(false), "c");
  ASSERT_EQ(naive.seeds.size(), 3u);
  EXPECT_EQ(naive.seeds[0].verdict, Verdict::kPass) << naive.seeds[0].headline;
  EXPECT_EQ(naive.seeds[1].verdict, Verdict::kPass) << naive.seeds[1].headline;
  EXPECT_TRUE(tasks::is_range_stress_seed(naive.seeds[2].seed));
  EXPECT_NE(naive.seeds[2].verdict, Verdict::kPass) << naive.seeds[2].headline;
  EXPECT_NE(naive.verdict, Verdict::kPass);
  const Score robust = score_kernel(ctx, kernel(true), "c");
  EXPECT_EQ(robust.verdict, Verdict::kPass);
  for (const auto& seed : robust.seeds) EXPECT_EQ(seed.verdict, Verdict::kPass) << seed.headline;
}

}  // namespace
}  // namespace kcraft::agent
