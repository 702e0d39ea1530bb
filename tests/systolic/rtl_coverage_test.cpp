// `kcraft coverage systolic --rtl`: the runs go to a Verilator coverage build of the default configuration
// (a variant plugin, cached in build/test-variant-cache), and its line and toggle counts follow what the
// programs do. Its own executable: the coverage model must be registered before the process's SystemC
// world is built.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <string>

#include "isa/common/hw_config.h"
#include "tb/common/coverage_report.h"
#include "tb/common/paths.h"
#include "tb/common/rtl_coverage.h"
#include "tb/systolic/systolic_coverage.h"
#include "tb/systolic/systolic_sim.h"
#include "tests/systolic/test_util.h"

namespace kcraft::systolic {
namespace {

using tb::CoverageSource;
using testing::assemble;

const tb::RtlModuleCoverage& module_named(const std::vector<tb::RtlModuleCoverage>& rows,
                                          const std::string& prefix) {
  for (const auto& m : rows) {
    if (m.module.rfind(prefix, 0) == 0) return m;
  }
  throw std::runtime_error("no module " + prefix + " in the RTL coverage");
}

constexpr const char* kScalarProgram = "S_ADDI r1, r0, 5\nS_ADD r2, r1, r1\nS_ADD r3, r2, r1\nC_HALT\n";
constexpr const char* kMatrixProgram = R"(
  S_LI r3, ROW_BYTES
  H_LOAD_M r0, r0, r3, 2*MLEN
  S_LI r1, 64
  H_LOAD_V r1, r0, r3, 4*BLEN
  M_LDW r0
  S_LI r2, 0
  M_MM r2, r1
  M_MMA r2, r1, BLEN
  S_LI r5, 200
  M_WO r5, r2
  C_HALT
)";

TEST(SystolicRtlCoverage, AScalarProgramLeavesMatrixLinesUnhitThatAMatmulHits) {
  ::setenv("KCRAFT_VARIANT_CACHE", KCRAFT_TEST_VARIANT_CACHE, 1);
  const auto configs = load_hw_configs(hw_config_dir("systolic"));
  const auto base =
      std::find_if(configs.begin(), configs.end(), [](const HwConfig& c) { return c.name == "default"; });
  ASSERT_NE(base, configs.end());
  std::string note;
  const std::string config = tb::prepare_rtl_coverage_model("systolic", *base, 2, note);
  EXPECT_EQ(config, "default_rtlcov");

  tb::Coverage functional = systolic_coverage_bins();
  tb::RtlCoverage rtl;
  const std::vector<uint8_t> dram(1 << 16, 0);
  const tb::DramTiming timing{40, 32};
  record_systolic_coverage(config, assemble(kScalarProgram), dram, timing, CoverageSource::kDirected,
                           functional);
  rtl.take(rtl_hw(config), CoverageSource::kDirected);
  record_systolic_coverage(config, assemble(kMatrixProgram), dram, timing, CoverageSource::kRandom,
                           functional);
  rtl.take(rtl_hw(config), CoverageSource::kRandom);
  // Nothing ran since the last take: its counts were zeroed.
  rtl.take(rtl_hw(config), CoverageSource::kBaselines);

  const auto rows = rtl.modules();
  const auto& matrix = module_named(rows, "systolic_matrix_unit");
  const auto& sequencer = module_named(rows, "systolic_sequencer");
  const auto& all = rows.back();
  ASSERT_EQ(all.module, "all modules");
  EXPECT_GT(matrix.lines, 0u);
  EXPECT_GT(matrix.toggles, 0u);
  EXPECT_LT(matrix.lines_hit[0], matrix.lines_hit[1])
      << "the matmul runs matrix-unit code the scalar program never reaches";
  EXPECT_LT(matrix.toggles_hit[0], matrix.toggles_hit[1]);
  EXPECT_GT(sequencer.lines_hit[0], 0u) << "the scalar program runs through the sequencer";
  EXPECT_EQ(all.lines_hit[2], 0u);
  EXPECT_EQ(all.toggles_hit[2], 0u);
  EXPECT_LT(all.lines_hit_any, all.lines) << "two small programs cannot reach every line";
  EXPECT_LE(all.toggles_hit_any, all.toggles);

  // The report carries the table in its text, JSON and HTML.
  CoverageOptions options;
  options.rtl = true;
  options.html_path = ::testing::TempDir() + "rtl_coverage.html";
  const auto report = tb::coverage_report("systolic", options, functional, "notes", &rtl);
  EXPECT_NE(report.text.find("systolic_matrix_unit"), std::string::npos);
  ASSERT_TRUE(report.json.contains("rtl"));
  EXPECT_EQ(report.json["rtl"].back()["lines"]["total"], all.lines);
}

TEST(SystolicRtlCoverage, TheBuiltInModelHasNoCoverage) {
  tb::RtlCoverage rtl;
  EXPECT_THROW(rtl.take(rtl_hw("default"), CoverageSource::kDirected), std::logic_error);
}

}  // namespace
}  // namespace kcraft::systolic
