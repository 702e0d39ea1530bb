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

}  // namespace
}  // namespace kcraft::tasks
