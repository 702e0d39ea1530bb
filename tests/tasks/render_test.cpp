// What the agent reads.
#include <gtest/gtest.h>

#include "tasks/common/render.h"
#include "test_util.h"

namespace kcraft::tasks {
namespace {

TEST(Render, ShowsEverythingTheAgentNeeds) {
  const TaskSpec& spec = testing::registry().get("rms_norm");
  const DramLayout layout = compute_layout(spec, "C3", DType::bf16);
  const std::string text = render_task(spec, "C3", DType::bf16, layout);
  for (const char* needle : {
           "Task rms_norm: RMSNorm (level 1, config C3, complexity 4.82)",
           "y[m, n] = x[m, n] / sqrt(mean_j(x[m, j]^2) + eps) * gamma[n]",
           "Dimensions: M = 64, N = 256",
           "eps = 1e-05  (added to the mean of squares before the square root)",
           "Data type: bf16 (2 bytes per element, little-endian)",
           "x [M, N] = [64, 256], activation, values ~ normal(mean 0, std 1)",
           "gamma [N] = [256], weight, values ~ uniform[0.5, 1.5): scale per column",
           "y [M, N] = [64, 256]",
           "a kernel may write only: y [0x8200, 0x10200)",
           "|out - ref| <= 0.001 + 0.02*|ref|",
           "relative L2 error ||out - ref|| / ||ref|| <= 0.01",
           "change between runs",
           "Work: 4*M*N = 65,536 FLOPs.",
       }) {
    EXPECT_NE(text.find(needle), std::string::npos) << "missing '" << needle << "' in\n" << text;
  }
  // Short enough to sit in every prompt.
  EXPECT_LT(text.size(), 2500u) << text;
  // fp32 shows its own tolerance and sizes.
  const std::string fp32 = render_task(spec, "C3", DType::fp32, compute_layout(spec, "C3", DType::fp32));
  EXPECT_NE(fp32.find("|out - ref| <= 1e-05 + 0.0001*|ref|"), std::string::npos) << fp32;
  EXPECT_THROW(render_task(spec, "C2", DType::bf16, layout), std::invalid_argument);
}

TEST(Render, JsonViews) {
  const TaskSpec& spec = testing::registry().get("linear");
  const DramLayout layout = compute_layout(spec, "C1", DType::bf16);
  const nlohmann::json json = task_to_json(spec, "C1", DType::bf16, layout);
  EXPECT_EQ(json["name"], "linear");
  EXPECT_EQ(json["inputs"][1]["shape_dims"], nlohmann::json::array({"N", "K"}));
  EXPECT_EQ(json["layout"]["regions"][3]["name"], "y");
  EXPECT_EQ(json["inputs"][2]["init"]["dist"], "uniform");
  EXPECT_DOUBLE_EQ(json["inputs"][2]["init"]["hi"].get<double>(), 0.25);  // 1/sqrt(16)
  const nlohmann::json summary = task_summary_json(spec);
  EXPECT_EQ(summary["configs"].size(), 5u);
  EXPECT_EQ(summary["configs"][4]["dims"]["K"], 256);
}

TEST(Render, DescribedDimsAndRotaryTablesReadWell) {
  const TaskSpec& conv = testing::registry().get("conv2d");
  const std::string text = render_task(conv, "C3", DType::bf16, compute_layout(conv, "C3", DType::bf16));
  // One dim per line with its meaning when the spec describes them.
  EXPECT_NE(text.find("Dimensions:\n  H = 32: input height\n"), std::string::npos) << text;
  EXPECT_NE(text.find("  PAD = 1: zero padding on each side\n"), std::string::npos) << text;
  const nlohmann::json json = task_to_json(conv, "C3", DType::bf16, compute_layout(conv, "C3", DType::bf16));
  ASSERT_EQ(json["dim_list"].size(), 8u);
  EXPECT_EQ(json["dim_list"][6],
            (nlohmann::json{{"name", "STRIDE"}, {"value", 2}, {"description", "stride in both directions"}}));

  const TaskSpec& rope = testing::registry().get("rope");
  const DramLayout layout = compute_layout(rope, "C1", DType::fp32);
  const std::string rope_text = render_task(rope, "C1", DType::fp32, layout);
  EXPECT_NE(rope_text.find(
                "cos [S, D] = [16, 64], weight, values ~ the rotary table cos(s * 10000^(-2*(d mod D/2)/D))"),
            std::string::npos)
      << rope_text;
  EXPECT_EQ(task_to_json(rope, "C1", DType::fp32, layout)["inputs"][2]["init"],
            (nlohmann::json{{"dist", "rope_sin"}, {"base", 10000.0}}));
  // Undescribed dims stay on one line.
  const TaskSpec& gemm = testing::registry().get("gemm");
  EXPECT_NE(render_task(gemm, "C1", DType::bf16, compute_layout(gemm, "C1", DType::bf16))
                .find("Dimensions: M = 16, K = 16, N = 16\n"),
            std::string::npos);
}

}  // namespace
}  // namespace kcraft::tasks
