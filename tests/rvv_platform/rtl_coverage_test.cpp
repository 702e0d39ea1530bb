// `kcraft coverage rvv --rtl`: the runs go to a Verilator coverage build of the default configuration (a
// variant plugin, cached in build/test-variant-cache), and its line and toggle counts follow what the
// kernels do. Its own executable: the coverage model must be registered before the process's SystemC world
// is built.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <string>

#include "isa/common/hw_config.h"
#include "isa/rvv/toolchain.h"
#include "tb/common/coverage_report.h"
#include "tb/common/paths.h"
#include "tb/common/rtl_coverage.h"
#include "tb/rvv/rvv_coverage.h"
#include "tb/rvv/rvv_sim.h"
#include "tests/tb/rtl_dat_counts.h"

namespace kcraft::rvv {
namespace {

using tb::CoverageSource;

const tb::RtlModuleCoverage& module_named(const std::vector<tb::RtlModuleCoverage>& rows,
                                          const std::string& prefix) {
  for (const auto& m : rows) {
    if (m.module.rfind(prefix, 0) == 0) return m;
  }
  throw std::runtime_error("no module " + prefix + " in the RTL coverage");
}

// Integer only (crt0 around it clears the vector registers and f0, nothing more of those units).
constexpr const char* kIntegerKernel =
    "  li a0, 1000\n  li a1, 7\n  add a2, a0, a1\n  mul a3, a2, a1\n  div a4, a3, a1\n  rem a5, a3, a0\n";
// Scalar FP: the fused multiply-add and the iterative divide and square root.
constexpr const char* kScalarFpKernel =
    "  li t0, 0x40400000\n  fmv.w.x f1, t0\n  li t0, 0x40000000\n  fmv.w.x f2, t0\n  fdiv.s f3, f1, f2\n"
    "  fsqrt.s f4, f1\n  fmadd.s f5, f1, f2, f3\n";
// Vector integer and FP arithmetic, a divide and a reduction.
constexpr const char* kVectorKernel =
    "  li a0, 8\n  vsetvli a1, a0, e32, m2, ta, ma\n  vid.v v2\n  vadd.vi v2, v2, 1\n  vmul.vv v4, v2, v2\n"
    "  vdivu.vv v6, v4, v2\n  vredsum.vs v8, v4, v2\n  vfcvt.f.x.v v10, v2\n  vfmul.vv v12, v10, v10\n"
    "  vfadd.vv v14, v12, v10\n  vfdiv.vv v16, v14, v10\n"
    // Narrow integer elements: the 16- and 8-bit slots' ALUs work only in beats of elements that narrow.
    "  vsetvli a1, a0, e16, m1, ta, ma\n  vadd.vv v20, v2, v4\n  vsetvli a1, a0, e8, m1, ta, ma\n"
    "  vadd.vv v21, v2, v4\n";

BuiltKernel build(const std::string& body) {
  BuildOptions o;
  o.language = "asm";
  o.file_name = "k.S";
  BuiltKernel k = build_kernel("  .text\n  .globl kernel\nkernel:\n" + body + "  ret\n", o);
  EXPECT_TRUE(k.ok) << k.log;
  return k;
}

class RvvRtlCoverage : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    ::setenv("KCRAFT_VARIANT_CACHE", KCRAFT_TEST_VARIANT_CACHE, 1);
    const auto configs = load_hw_configs(hw_config_dir("rvv"));
    const auto base =
        std::find_if(configs.begin(), configs.end(), [](const HwConfig& c) { return c.name == "default"; });
    ASSERT_NE(base, configs.end());
    std::string note;
    config_ = new std::string(tb::prepare_rtl_coverage_model("rvv", *base, 2, note));
  }

  // Runs `body` as a kernel on the coverage build, counting its functional bins as `kcraft coverage` does.
  static void run(const std::string& body) {
    const BuiltKernel k = build(body);
    ASSERT_TRUE(k.ok);
    tb::Coverage functional = rvv_coverage_bins();
    RvvCoverageExtras extras;
    record_rvv_coverage(*config_, k, std::vector<uint8_t>(4096, 0), tb::DramTiming{20, 16},
                        CoverageSource::kRandom, functional, extras);
    EXPECT_GT(functional.hits("instruction", "ADDI"), 0u) << "the kernel ran";
  }

  static std::string* config_;
};
std::string* RvvRtlCoverage::config_ = nullptr;

TEST_F(RvvRtlCoverage, AnIntegerKernelLeavesFpAndVectorLinesUnhitThatFpAndVectorKernelsHit) {
  EXPECT_EQ(*config_, "default_rtlcov");
  tb::RtlCoverage discard;
  discard.take(rtl_hw(*config_), CoverageSource::kBaselines);  // whatever earlier tests ran: not counted
  tb::RtlCoverage rtl;
  run(kIntegerKernel);
  rtl.take(rtl_hw(*config_), CoverageSource::kDirected);
  run(kVectorKernel);
  rtl.take(rtl_hw(*config_), CoverageSource::kRandom);
  run(kScalarFpKernel);
  rtl.take(rtl_hw(*config_), CoverageSource::kBaselines);

  const auto rows = rtl.modules();
  const auto& alu = module_named(rows, "rvv_vpu_alu");
  const auto& divsqrt = module_named(rows, "rvv_fpu_divsqrt");
  const auto& div = module_named(rows, "rvv_div");
  const auto& all = rows.back();
  ASSERT_EQ(all.module, "all modules");
  constexpr unsigned kInteger = 0, kVector = 1, kScalarFp = 2;
  ASSERT_GT(alu.lines, 0u);
  EXPECT_LT(alu.lines_hit[kInteger], alu.lines_hit[kVector])
      << "the vector kernel runs vector-ALU code the integer kernel never reaches";
  EXPECT_LT(alu.toggles_hit[kInteger], alu.toggles_hit[kVector]);
  EXPECT_LT(divsqrt.lines_hit[kInteger], divsqrt.lines_hit[kScalarFp])
      << "only fdiv.s and fsqrt.s run the iterative divider";
  EXPECT_LT(divsqrt.toggles_hit[kInteger], divsqrt.toggles_hit[kScalarFp]);
  EXPECT_GT(div.lines_hit[kInteger], div.lines_hit[kScalarFp]) << "only div and rem run the integer divider";
  EXPECT_LT(all.lines_hit_any, all.lines) << "three small kernels cannot reach every line";

  CoverageOptions options;
  options.rtl = true;
  options.html_path = ::testing::TempDir() + "rvv_rtl_coverage.html";
  const auto report = tb::coverage_report("rvv", options, rvv_coverage_bins(), "notes", &rtl);
  EXPECT_NE(report.text.find("rvv_vpu_alu"), std::string::npos);
  ASSERT_TRUE(report.json.contains("rtl"));
  EXPECT_EQ(report.json["rtl"].back()["lines"]["total"], all.lines);
}

TEST_F(RvvRtlCoverage, CountsGrowWhenAKernelRunsAgainAndATakeZeroesThem) {
  tb::test::expect_counts_follow_runs(
      rtl_hw(*config_), [&] { run(kVectorKernel); }, ::testing::TempDir() + "rvv_rtlcov_counts");
}

TEST_F(RvvRtlCoverage, TheBuiltInModelHasNoCoverage) {
  tb::RtlCoverage rtl;
  EXPECT_THROW(rtl.take(rtl_hw("default"), CoverageSource::kDirected), std::logic_error);
}

}  // namespace
}  // namespace kcraft::rvv
