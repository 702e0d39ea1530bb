// `kcraft coverage vliw --rtl`: the runs go to a Verilator coverage build of the default configuration (a
// variant plugin, cached in build/test-variant-cache), and its line and toggle counts follow what the
// programs do. Its own executable: the coverage model must be registered before the process's SystemC
// world is built.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <string>

#include "isa/common/assembler.h"
#include "isa/common/hw_config.h"
#include "tb/common/coverage_report.h"
#include "tb/common/paths.h"
#include "tb/common/rtl_coverage.h"
#include "tb/vliw/vliw_coverage.h"
#include "tb/vliw/vliw_sim.h"
#include "tests/tb/rtl_dat_counts.h"
#include "vliw_isa.h"

namespace kcraft::vliw {
namespace {

using tb::CoverageSource;

const tb::RtlModuleCoverage& module_named(const std::vector<tb::RtlModuleCoverage>& rows,
                                          const std::string& prefix) {
  for (const auto& m : rows) {
    if (m.module.rfind(prefix, 0) == 0) return m;
  }
  throw std::runtime_error("no module " + prefix + " in the RTL coverage");
}

constexpr const char* kScalarProgram =
    "S_LI r1, 100000\nS_ADDI r2, r1, 5\nS_ADD r3, r2, r1\nS_MUL r4, r3, r2\nS_XOR r5, r4, r1\nC_HALT\n";
// Vector and accumulator ops of every kind the vector unit has a block for, each result waited out.
constexpr const char* kVectorProgram = R"(
  S_LI_FP r3, 1.5
  V_BCST v1, r3
  C_NOP
  V_ADD v2, v1, v1
  V_MUL v3, v1, v1
  V_MAX v4, v2, v3
  V_SHUF v5, v1, v2, 1
  V_RMAX v6, v4
  A_UPS a1, v1
  A_VMAC a2, v1, v2
  A_MMUL a3, v1, v2
  A_EXP a4, a1
  A_RECI a5, a1
  A_RSUM a6, a1
  C_NOP
  C_NOP
  C_NOP
  C_HALT
)";
// A DMA load into DM, waited for with its lock, and a store back.
constexpr const char* kDmaProgram = R"(
  S_LI r1, 4096
  S_LI r2, 3
  S_LI r3, 100
  C_DMALD 0, r0, r1, r3, r2, 2
  C_ACQ 2
  C_DMAST 1, r0, r1, r3, r2
  C_HALT
)";

class VliwRtlCoverage : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    ::setenv("KCRAFT_VARIANT_CACHE", KCRAFT_TEST_VARIANT_CACHE, 1);
    const auto configs = load_hw_configs(hw_config_dir("vliw"));
    const auto base =
        std::find_if(configs.begin(), configs.end(), [](const HwConfig& c) { return c.name == "default"; });
    ASSERT_NE(base, configs.end());
    std::string note;
    config_ = new std::string(tb::prepare_rtl_coverage_model("vliw", *base, 2, note));
    params_ = new Params(Params::from_config(*base));
  }

  // Runs `source` on the coverage build.
  static void run(const std::string& source) {
    const isa::AssembleResult a = isa::assemble(isa::vliw::spec(), source, "test.s", params_->symbols());
    ASSERT_TRUE(a.ok) << source;
    RunJob job;
    job.config = *config_;
    job.program = a.words;
    job.dram = std::vector<uint8_t>(1 << 16, 0);
    job.timing = tb::DramTiming{40, 32};
    job.cycle_cap = 100000;
    const RunResult r = simulate(job);
    ASSERT_EQ(r.stop, RunResult::Stop::kStopped);
    ASSERT_EQ(r.state.error.code, ErrorCode::kNone) << source;
  }

  static std::string* config_;
  static Params* params_;
};
std::string* VliwRtlCoverage::config_ = nullptr;
Params* VliwRtlCoverage::params_ = nullptr;

TEST_F(VliwRtlCoverage, AScalarProgramLeavesVectorUnitLinesUnhitThatAVectorProgramHits) {
  EXPECT_EQ(*config_, "default_rtlcov");
  tb::RtlCoverage rtl;
  rtl.take(rtl_hw(*config_), CoverageSource::kBaselines);  // whatever earlier tests ran: not counted
  tb::RtlCoverage fresh;
  run(kScalarProgram);
  fresh.take(rtl_hw(*config_), CoverageSource::kDirected);
  run(kVectorProgram);
  fresh.take(rtl_hw(*config_), CoverageSource::kRandom);
  run(kDmaProgram);
  fresh.take(rtl_hw(*config_), CoverageSource::kBaselines);

  const auto rows = fresh.modules();
  const auto& vector = module_named(rows, "vliw_vector_unit");
  const auto& core = module_named(rows, "vliw_core");
  const auto& dma = module_named(rows, "vliw_dma");
  const auto& all = rows.back();
  ASSERT_EQ(all.module, "all modules");
  ASSERT_GT(vector.lines, 0u);
  ASSERT_GT(vector.toggles, 0u);
  constexpr unsigned kScalar = 0, kVector = 1, kDma = 2;
  EXPECT_LT(vector.lines_hit[kScalar], vector.lines_hit[kVector])
      << "the vector program runs vector-unit code the scalar program never reaches";
  EXPECT_LT(vector.toggles_hit[kScalar], vector.toggles_hit[kVector]);
  EXPECT_LT(dma.lines_hit[kScalar], dma.lines_hit[kDma]) << "only the DMA program moves data";
  EXPECT_LT(dma.toggles_hit[kVector], dma.toggles_hit[kDma]);
  EXPECT_GT(core.lines_hit[kScalar], 0u) << "the scalar program runs through the core";
  EXPECT_LT(all.lines_hit_any, all.lines) << "three small programs cannot reach every line";
  EXPECT_LE(all.toggles_hit_any, all.toggles);

  // The report carries the table in its text, JSON and HTML.
  CoverageOptions options;
  options.rtl = true;
  options.html_path = ::testing::TempDir() + "vliw_rtl_coverage.html";
  const auto report = tb::coverage_report("vliw", options, vliw_coverage_bins(), "notes", &fresh);
  EXPECT_NE(report.text.find("vliw_vector_unit"), std::string::npos);
  ASSERT_TRUE(report.json.contains("rtl"));
  EXPECT_EQ(report.json["rtl"].back()["lines"]["total"], all.lines);
}

TEST_F(VliwRtlCoverage, CountsGrowWhenAProgramRunsAgainAndATakeZeroesThem) {
  tb::test::expect_counts_follow_runs(
      rtl_hw(*config_), [&] { run(kVectorProgram); }, ::testing::TempDir() + "vliw_rtlcov_counts");
}

TEST_F(VliwRtlCoverage, TheBuiltInModelHasNoCoverage) {
  tb::RtlCoverage rtl;
  EXPECT_THROW(rtl.take(rtl_hw("default"), CoverageSource::kDirected), std::logic_error);
}

}  // namespace
}  // namespace kcraft::vliw
