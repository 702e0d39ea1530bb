// The pass rule's edge cases, and the diagnostics (text and JSON).
#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "tasks/common/compare.h"

namespace kcraft::tasks {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr double kInf = std::numeric_limits<double>::infinity();
const Tolerance kBf16 = default_tolerance(DType::bf16);

TEST(Compare, DefaultTolerances) {
  EXPECT_EQ(kBf16.atol, 1e-3);
  EXPECT_EQ(kBf16.rtol, 2e-2);
  EXPECT_EQ(kBf16.rel_l2, 1e-2);
  const Tolerance fp32 = default_tolerance(DType::fp32);
  EXPECT_EQ(fp32.atol, 1e-5);
  EXPECT_EQ(fp32.rtol, 1e-4);
  EXPECT_EQ(fp32.rel_l2, 1e-4);
}

TEST(Compare, ExactMatchPasses) {
  const std::vector<double> ref = {1, -2, 3, 0.5};
  auto result = compare_tensor("y", {2, 2}, ref, ref, kBf16);
  EXPECT_TRUE(result.pass);
  EXPECT_EQ(result.within, 4);
  EXPECT_EQ(result.outside, 0);
  EXPECT_EQ(result.percent_within, 100.0);
  EXPECT_EQ(result.rel_l2, 0.0);
  EXPECT_EQ(result.max_abs_error, 0.0);
}

TEST(Compare, SingleElementJustOutsideToleranceFails) {
  // allowed at ref = 1 is 0.001 + 0.02 = 0.021. One element off by 0.0211 of 256: rel L2 is tiny
  // (0.0211 / 16 = 1.3e-3) yet the element rule fails.
  std::vector<double> ref(256, 1.0);
  std::vector<double> out = ref;
  out[37] = 1.0 + 0.0211;
  auto result = compare_tensor("y", {16, 16}, out, ref, kBf16);
  EXPECT_FALSE(result.pass);
  EXPECT_FALSE(result.elements_ok);
  EXPECT_TRUE(result.rel_l2_ok);
  EXPECT_EQ(result.outside, 1);
  EXPECT_EQ(result.within, 255);
  ASSERT_FALSE(result.worst.empty());
  EXPECT_EQ(result.worst[0].flat_index, 37);
  EXPECT_EQ(result.worst[0].index, (std::vector<int64_t>{2, 5}));
  EXPECT_FALSE(result.worst[0].within);
  EXPECT_NEAR(result.worst[0].allowed, 0.021, 1e-15);
  EXPECT_EQ(result.rows[2].outside, 1);
  EXPECT_EQ(result.rows[1].outside, 0);
  // Just inside passes.
  out[37] = 1.0 + 0.0209;
  EXPECT_TRUE(compare_tensor("y", {16, 16}, out, ref, kBf16).pass);
}

TEST(Compare, AllZeroOutputFailsThroughRelL2EvenWhenElementsAreSmall) {
  // Reference values below atol everywhere: every element is "within" atol, but the output carries no
  // information; rel L2 = 1 rejects it.
  std::vector<double> ref(64);
  for (std::size_t i = 0; i < ref.size(); ++i) ref[i] = (i % 2 ? 1 : -1) * 5e-4;
  std::vector<double> zeros(64, 0.0);
  auto result = compare_tensor("y", {4, 16}, zeros, ref, kBf16);
  EXPECT_TRUE(result.elements_ok);
  EXPECT_FALSE(result.rel_l2_ok);
  EXPECT_FALSE(result.pass);
  EXPECT_DOUBLE_EQ(result.rel_l2, 1.0);
}

TEST(Compare, AllZeroReferenceNeedsAnExactMatch) {
  std::vector<double> ref(16, 0.0);
  EXPECT_TRUE(compare_tensor("y", {16}, ref, ref, kBf16).pass);
  std::vector<double> out(16, 0.0);
  out[3] = 1e-4;  // within atol, but ||ref|| = 0
  auto result = compare_tensor("y", {16}, out, ref, kBf16);
  EXPECT_TRUE(result.elements_ok);
  EXPECT_TRUE(std::isinf(result.rel_l2));
  EXPECT_FALSE(result.pass);
}

TEST(Compare, NanAndInfPositionsMustMatch) {
  const std::vector<double> ref = {kNaN, kInf, -kInf, 1.0, 2.0, 3.0};
  // Same positions and signs: pass.
  std::vector<double> out = {kNaN, kInf, -kInf, 1.0, 2.0, 3.0};
  auto ok = compare_tensor("y", {6}, out, ref, kBf16);
  EXPECT_TRUE(ok.pass);
  EXPECT_EQ(ok.nonfinite_mismatches, 0);
  EXPECT_EQ(ok.rel_l2, 0.0);
  // Wrong infinity sign.
  out = {kNaN, -kInf, -kInf, 1.0, 2.0, 3.0};
  auto sign = compare_tensor("y", {6}, out, ref, kBf16);
  EXPECT_FALSE(sign.pass);
  EXPECT_EQ(sign.nonfinite_mismatches, 1);
  // A finite value where the reference is NaN.
  out = {0.0, kInf, -kInf, 1.0, 2.0, 3.0};
  EXPECT_FALSE(compare_tensor("y", {6}, out, ref, kBf16).pass);
  // NaN where the reference is finite: fails, and the error is infinite.
  out = {kNaN, kInf, -kInf, kNaN, 2.0, 3.0};
  auto nan_out = compare_tensor("y", {6}, out, ref, kBf16);
  EXPECT_FALSE(nan_out.pass);
  EXPECT_EQ(nan_out.nonfinite_mismatches, 1);
  EXPECT_TRUE(std::isinf(nan_out.max_abs_error));
  EXPECT_TRUE(std::isinf(nan_out.rel_l2));
  EXPECT_EQ(nan_out.worst[0].flat_index, 3);
  // Infinity where the reference is finite.
  out = {kNaN, kInf, -kInf, 1.0, kInf, 3.0};
  EXPECT_FALSE(compare_tensor("y", {6}, out, ref, kBf16).pass);
}

TEST(Compare, RelL2BoundCatchesSystematicSmallErrors) {
  // Every element 1.5% high: inside rtol (2%) but rel L2 = 0.015 > 0.01.
  std::vector<double> ref(100), out(100);
  for (int i = 0; i < 100; ++i) {
    ref[static_cast<std::size_t>(i)] = 1.0 + i * 0.01;
    out[static_cast<std::size_t>(i)] = ref[static_cast<std::size_t>(i)] * 1.015;
  }
  auto result = compare_tensor("y", {100}, out, ref, kBf16);
  EXPECT_TRUE(result.elements_ok);
  EXPECT_FALSE(result.rel_l2_ok);
  EXPECT_NEAR(result.rel_l2, 0.015, 1e-12);
  EXPECT_NEAR(result.max_rel_error, 0.015, 1e-12);
}

TEST(Compare, WorstElementsAndRowsAreOrdered) {
  std::vector<double> ref(64, 1.0), out(64, 1.0);
  out[5] = 1.5;   // row 0
  out[40] = 3.0;  // row 2, the worst
  out[41] = 0.9;  // row 2
  CompareOptions options;
  options.worst_count = 3;
  auto result = compare_tensor("y", {4, 16}, out, ref, kBf16, options);
  ASSERT_EQ(result.worst.size(), 3u);
  EXPECT_EQ(result.worst[0].flat_index, 40);
  EXPECT_EQ(result.worst[1].flat_index, 5);
  EXPECT_EQ(result.worst[2].flat_index, 41);
  ASSERT_EQ(result.rows.size(), 4u);
  EXPECT_EQ(result.rows[2].outside, 2);
  EXPECT_DOUBLE_EQ(result.rows[2].max_abs_error, 2.0);
  EXPECT_DOUBLE_EQ(result.rows[2].mse, (4.0 + 0.01) / 16);
  EXPECT_EQ(result.rows[3].outside, 0);
  EXPECT_EQ(result.rows[3].mse, 0.0);
  EXPECT_EQ(result.outside, 3);
}

TEST(Compare, ThreeDimensionalRowsCarryTheirLeadingIndex) {
  std::vector<double> ref(2 * 3 * 16, 1.0), out = ref;
  out[(1 * 3 + 2) * 16 + 7] = 5.0;
  auto result = compare_tensor("y", {2, 3, 16}, out, ref, kBf16);
  ASSERT_EQ(result.rows.size(), 6u);
  EXPECT_EQ(result.rows[5].index, (std::vector<int64_t>{1, 2}));
  EXPECT_EQ(result.rows[5].outside, 1);
  EXPECT_EQ(result.worst[0].index, (std::vector<int64_t>{1, 2, 7}));
}

TEST(Compare, SizeMismatchThrows) {
  EXPECT_THROW(compare_tensor("y", {2, 2}, {1, 2, 3}, {1, 2, 3, 4}, kBf16), std::invalid_argument);
}

TEST(Compare, TextIsCompactAndTruncatesWithANote) {
  // 64 rows of 16; every other row has one bad element.
  std::vector<double> ref(64 * 16, 1.0), out = ref;
  for (int r = 0; r < 64; r += 2) out[static_cast<std::size_t>(r * 16 + 3)] = 2.0;
  auto result = compare_tensor("y", {64, 16}, out, ref, kBf16);
  FormatOptions options;
  options.max_rows = 5;
  options.max_worst = 4;
  const std::string text = format_compare(result, options);
  EXPECT_NE(text.find("y [64, 16]: FAIL (32 elements outside tolerance"), std::string::npos) << text;
  EXPECT_NE(text.find("rows with errors: 0, 2, 4, 6, 8, 10, 12, 14, ... (24 more ranges) (32 of 64 rows"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("... 27 more rows with errors not shown"), std::string::npos) << text;
  EXPECT_NE(text.find("[0, 3]"), std::string::npos) << text;
  // Bounded size: a handful of lines regardless of the tensor size.
  EXPECT_LT(std::count(text.begin(), text.end(), '\n'), 20);

  auto pass = compare_tensor("y", {64, 16}, ref, ref, kBf16);
  const std::string pass_text = format_compare(pass);
  EXPECT_EQ(pass_text.rfind("y [64, 16]: PASS\n", 0), 0u) << pass_text;
  EXPECT_EQ(pass_text.find("rows with errors"), std::string::npos);
}

TEST(Compare, JsonCarriesEverythingAndEncodesNonFinite) {
  const std::vector<double> ref = {1.0, 2.0, 3.0, 4.0};
  const std::vector<double> out = {1.0, kNaN, 3.0, 4.5};
  auto result = compare_tensor("y", {2, 2}, out, ref, kBf16);
  nlohmann::json json = to_json(result);
  EXPECT_EQ(json["name"], "y");
  EXPECT_EQ(json["pass"], false);
  EXPECT_EQ(json["outside"], 2);
  EXPECT_EQ(json["nonfinite_mismatches"], 1);
  EXPECT_EQ(json["rel_l2"], "inf");
  EXPECT_EQ(json["worst"][0]["out"], "nan");
  EXPECT_EQ(json["worst"][0]["index"], nlohmann::json::array({0, 1}));
  EXPECT_EQ(json["rows"].size(), 2u);
  EXPECT_EQ(json["rows_with_errors"], 2);
  EXPECT_EQ(json["tolerance"]["rtol"], 0.02);
  // The dump round-trips through text (no raw NaN in the output).
  EXPECT_EQ(nlohmann::json::parse(json.dump()), json);
  // Row truncation keeps rows with errors first.
  std::vector<double> big_ref(32 * 16, 1.0), big_out = big_ref;
  big_out[30 * 16] = 9.0;
  nlohmann::json truncated = to_json(compare_tensor("y", {32, 16}, big_out, big_ref, kBf16), 3);
  ASSERT_EQ(truncated["rows"].size(), 3u);
  EXPECT_EQ(truncated["rows_truncated"], true);
  bool has_row_30 = false;
  for (const auto& row : truncated["rows"]) has_row_30 = has_row_30 || row["row"] == 30;
  EXPECT_TRUE(has_row_30);
}

TEST(Compare, TaskLevelResultRequiresEveryOutput) {
  ResolvedConfig config;
  config.task = "two";
  config.tolerance = kBf16;
  for (const char* name : {"a", "b"}) {
    ResolvedTensor t;
    t.name = name;
    t.shape = {4};
    t.elements = 4;
    t.is_output = true;
    config.outputs.push_back(t);
  }
  Tensor a("a", {4}), b("b", {4});
  a.data = {1, 2, 3, 4};
  b.data = {5, 6, 7, 8};
  Tensor b_wrong = b;
  b_wrong.data[2] = 0;
  EXPECT_TRUE(compare_outputs(config, {a, b}, {a, b}).pass);
  auto result = compare_outputs(config, {b_wrong, a}, {a, b});  // order does not matter, names do
  EXPECT_FALSE(result.pass);
  EXPECT_TRUE(result.outputs[0].pass);
  EXPECT_FALSE(result.outputs[1].pass);
  EXPECT_NE(format_compare(result).find("b [4]: FAIL"), std::string::npos);
  EXPECT_THROW(compare_outputs(config, {a}, {a, b}), std::invalid_argument);
}

}  // namespace
}  // namespace kcraft::tasks
