// The vliw functional model: directed tests per instruction group against independent arithmetic (exact
// values computed in double, or the shared arithmetic library where the ISA says "the approximation of"),
// the exposed pipeline (results land after their latency, a stall never changes that), bank-conflict,
// lock and DMA timing cycle for cycle, errors with their pc, and the hardware configurations.
#include <cmath>
#include <cstring>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "isa/common/arith/fp_arith.h"
#include "isa/common/assembler.h"
#include "isa/vliw/vliw_iss.h"

namespace kcraft::vliw {
namespace {

using ::testing::HasSubstr;

Params default_params() {
  return Params::from_config(
      load_hw_config(std::string(KCRAFT_SOURCE_DIR) + "/rtl/vliw/configs/default.yaml"));
}
Params small_params() {
  return Params::from_config(load_hw_config(std::string(KCRAFT_SOURCE_DIR) + "/rtl/vliw/configs/small.yaml"));
}

struct ProgramRun {
  Iss iss;
  Iss::Result result;
  std::vector<uint8_t> dram;
  explicit ProgramRun(const Params& p) : iss(p) {}
  const MachineState& s() const { return iss.state(); }
  uint16_t v(unsigned reg, unsigned lane) const { return s().v[reg * iss.params().vlen + lane]; }
  uint32_t a(unsigned reg, unsigned lane) const { return s().a[reg * iss.params().vlen + lane]; }
  uint64_t counter(unsigned c) const { return iss.counters()[c]; }
};

// Assembles `source` with the configuration's symbols and runs it on `dram` (64 KiB of zeros by default).
ProgramRun run(const std::string& source, const Params& p = default_params(), std::vector<uint8_t> dram = {},
               uint64_t max_cycles = 100000) {
  if (dram.empty()) dram.assign(65536, 0);
  const isa::AssembleResult a = isa::assemble(isa::vliw::spec(), source, "test.s", p.symbols());
  EXPECT_TRUE(a.ok) << isa::format_diagnostics(a, source);
  ProgramRun r(p);
  r.dram = std::move(dram);
  r.iss.reset(a.words);
  r.result = r.iss.run(r.dram, max_cycles);
  return r;
}

void put_bf16(std::vector<uint8_t>& dram, size_t element, double value) {
  const uint16_t bits = arith::double_to_bf16(value);
  dram[2 * element] = static_cast<uint8_t>(bits);
  dram[2 * element + 1] = static_cast<uint8_t>(bits >> 8);
}

uint16_t bf16(double x) {
  return arith::double_to_bf16(x);
}
uint32_t fp32(double x) {
  return arith::double_to_fp32(x);
}

// DRAM rows 0..rows-1 into DM rows 0..rows-1 and wait for them (lock 15), then v1..v<rows> = those rows.
std::string load_rows(unsigned rows) {
  std::string s = fmt::format(
      "        S_LI r13, {}\n        S_LI r14, ROW_BYTES\n        C_DMALD 0, r0, r0, r14, r13, 15\n"
      "        C_ACQ 15\n        S_PMOV p7, r0\n",
      rows);
  for (unsigned k = 1; k <= rows; ++k) s += fmt::format("        L_VLD v{}, p7, ROW_BYTES\n", k);
  return s + "        C_NOP\n        C_NOP\n";
}

// x[i] = i - 8 in row 0, y[i] = i / 2 in row 1: small values whose sums, differences and products are exact.
std::vector<uint8_t> xy_dram(unsigned vlen) {
  std::vector<uint8_t> dram(65536, 0);
  for (unsigned i = 0; i < vlen; ++i) {
    put_bf16(dram, i, static_cast<double>(i) - 8);
    put_bf16(dram, vlen + i, i / 2.0);
  }
  return dram;
}

TEST(VliwIss, ElementwiseBf16Ops) {
  const Params p = default_params();
  const ProgramRun r =
      run(load_rows(2) +
              "V_ADD v3, v1, v2\nV_SUB v4, v1, v2\nV_MUL v5, v1, v2\nV_MAX v6, v1, v2\nV_MIN v7, v1, v2\n"
              "C_HALT\n",
          p, xy_dram(p.vlen));
  ASSERT_EQ(r.result.stop, Iss::Stop::kHalted);
  for (unsigned i = 0; i < p.vlen; ++i) {
    const double x = static_cast<double>(i) - 8, y = i / 2.0;
    EXPECT_EQ(r.v(3, i), bf16(x + y)) << i;
    EXPECT_EQ(r.v(4, i), bf16(x - y)) << i;
    EXPECT_EQ(r.v(5, i), bf16(x * y)) << i;
    EXPECT_EQ(r.v(6, i), bf16(std::max(x, y))) << i;
    EXPECT_EQ(r.v(7, i), bf16(std::min(x, y))) << i;
  }
}

TEST(VliwIss, MacAndMatrixMultiplyModeOnBothConfigurations) {
  for (const Params& p : {default_params(), small_params()}) {
    const ProgramRun r =
        run(load_rows(2) +
                "A_VMUL a0, v1, v2\nA_MMUL a1, v1, v2\nC_NOP\nA_VMAC a0, v1, v2\nC_NOP\nA_MMAC a1, v1, v2\n"
                "C_HALT\n",
            p, xy_dram(p.vlen));
    ASSERT_EQ(r.result.stop, Iss::Stop::kHalted);
    const unsigned m_count = p.mmul_m(), k_count = p.mmul_k(), n_count = p.mmul_n();
    EXPECT_EQ(m_count * k_count, p.vlen);
    for (unsigned i = 0; i < p.vlen; ++i) {
      const double x = static_cast<double>(i) - 8, y = i / 2.0;
      EXPECT_EQ(r.a(0, i), fp32(2 * x * y)) << "vlen " << p.vlen << " lane " << i;
      if (i >= m_count * n_count) {
        EXPECT_EQ(r.a(1, i), 0u) << "lanes outside the result tile keep their value";
        continue;
      }
      const unsigned m = i / n_count, n = i % n_count;
      double c = 0;
      for (unsigned k = 0; k < k_count; ++k) c += (m * k_count + k - 8.0) * ((k * n_count + n) / 2.0);
      EXPECT_EQ(r.a(1, i), fp32(2 * c)) << "vlen " << p.vlen << " lane " << i;
    }
    EXPECT_EQ(r.counter(kMacs), 2u * p.vlen + 2u * m_count * k_count * n_count);
  }
  EXPECT_EQ(default_params().mmul_m(), 4u);
  EXPECT_EQ(small_params().mmul_k(), 4u);
  EXPECT_EQ(small_params().mmul_n(), 2u);
}

TEST(VliwIss, ConversionsRoundToNearestEven) {
  const ProgramRun r =
      run("S_LI r1, 0x3F808000\nS_LI r2, 0x3F818000\nS_LI r3, 0x3F808001\n"
          "A_BCST a1, r1\nA_BCST a2, r2\nA_BCST a3, r3\n"
          "V_SRS v1, a1\nV_SRS v2, a2\nV_SRS v3, a3\nC_NOP\nA_UPS a4, v3\nC_HALT\n");
  EXPECT_EQ(r.v(1, 0), 0x3F80u);  // a tie rounds to the even significand
  EXPECT_EQ(r.v(2, 5), 0x3F82u);
  EXPECT_EQ(r.v(3, 15), 0x3F81u);
  EXPECT_EQ(r.a(4, 7), 0x3F810000u);
}

TEST(VliwIss, SpecialFunctionsAreTheSharedArithmetic) {
  const Params p = default_params();
  std::vector<uint8_t> dram(65536, 0);
  for (unsigned i = 0; i < p.vlen; ++i) put_bf16(dram, i, 0.375 * i - 2.5);
  put_bf16(dram, 3, 0.0);  // reciprocal and rsqrt of zero, rsqrt of negatives
  const ProgramRun r = run(load_rows(1) +
                               "A_UPS a1, v1\nA_EXP a2, a1\nA_RECI a3, a1\nA_RSQRT a4, a1\n"
                               "C_NOP\nC_NOP\nC_NOP\nC_NOP\nC_HALT\n",
                           p, dram);
  for (unsigned i = 0; i < p.vlen; ++i) {
    const arith::F32 x = r.a(1, i);
    EXPECT_EQ(r.a(2, i), arith::ref::fp32_exp(x)) << i;
    EXPECT_EQ(r.a(3, i), arith::ref::fp32_reci(x)) << i;
    EXPECT_EQ(r.a(4, i), arith::ref::fp32_rsqrt(x)) << i;
    const double xd = arith::f32_to_float(x);
    EXPECT_NEAR(arith::f32_to_float(r.a(2, i)), std::exp(xd), std::exp(xd) * 1e-6) << i;
  }
}

TEST(VliwIss, ReductionsAndTheirOrder) {
  const Params p = default_params();
  std::vector<uint8_t> dram(65536, 0);
  const double big = 99614720;  // exact in BF16; big + 1 rounds back to big in FP32
  put_bf16(dram, 0, big);
  put_bf16(dram, 1, 1);
  put_bf16(dram, 2, -big);
  put_bf16(dram, 3, 1);
  for (unsigned i = 0; i < p.vlen; ++i) put_bf16(dram, p.vlen + i, i == 9 ? 7.5 : -1.0 * i);
  const ProgramRun r = run(load_rows(2) +
                               "A_UPS a1, v1\nA_UPS a2, v2\nA_RSUM a3, a1\nA_RMAX a4, a2\nV_RMAX v3, v2\n"
                               "C_NOP\nC_NOP\nC_NOP\nC_HALT\n",
                           p, dram);
  // Neighbouring lanes first: (big + 1) + (-big + 1) = big - big = 0; a running sum would give 1.
  EXPECT_EQ(r.a(3, 0), 0u);
  EXPECT_EQ(r.a(3, 15), 0u);
  EXPECT_EQ(r.a(4, 2), fp32(7.5));
  EXPECT_EQ(r.v(3, 11), bf16(7.5));
}

TEST(VliwIss, ShufflesBroadcastAndAlign) {
  const Params p = default_params();
  std::vector<uint8_t> dram(65536, 0);
  for (unsigned i = 0; i < 2 * p.vlen; ++i) put_bf16(dram, i, i);  // v1 = 0..15, v2 = 16..31
  const ProgramRun r =
      run(load_rows(2) +
              "V_SHUF v3, v1, v2, 0\nV_SHUF v4, v1, v2, 1\nV_SHUF v5, v1, v2, 2\nV_SHUF v6, v1, v2, 3\n"
              "V_ALIGN v7, v1, v2, 3\nV_BCL v8, v2, 21\nS_LI_FP r1, -1.5\nV_BCST v9, r1\nC_HALT\n",
          p, dram);
  const unsigned h = p.vlen / 2;
  for (unsigned i = 0; i < p.vlen; ++i) {
    EXPECT_EQ(r.v(3, i), bf16(i % 2 == 0 ? i / 2 : 16 + i / 2)) << i;
    EXPECT_EQ(r.v(4, i), bf16(i % 2 == 0 ? h + i / 2 : 16 + h + i / 2)) << i;
    EXPECT_EQ(r.v(5, i), bf16(i < h ? 2 * i : 16 + 2 * (i - h))) << i;
    EXPECT_EQ(r.v(6, i), bf16(i < h ? 2 * i + 1 : 16 + 2 * (i - h) + 1)) << i;
    EXPECT_EQ(r.v(7, i), bf16(i + 3)) << i;         // va[3..15] then vb[0..2]
    EXPECT_EQ(r.v(8, i), bf16(16 + 21 % 16)) << i;  // lane 21 mod VLEN
    EXPECT_EQ(r.v(9, i), bf16(-1.5)) << i;
  }
}

TEST(VliwIss, ScalarPointerLoadAndStoreOps) {
  const ProgramRun r = run(
      "S_LI r1, 100000\nS_LI r2, 3\nS_SLL r3, r1, r2\nS_SRL r4, r1, r2\nS_XOR r5, r1, r2\nS_SUB r6, r2, r1\n"
      "S_MUL r7, r1, r2\nS_ORI r8, r2, 0xF000\nS_ADDI r0, r0, 5\n"
      "S_LI r9, 64\nS_PMOV p2, r9\nS_PADDI p2, 36\nS_PADD p2, r2\nS_PGET r10, p2\n"  // 64 + 36 + 3 = 103
      "S_PMOV p3, r9\nL_SST r1, p3, 4\nL_SST r2, p3\nS_PMOV p4, r9\nL_SLD r11, p4, 4\nL_SLD r12, p4, -2\n"
      "S_LI r13, 0x4040\nL_SST r13, p3\nL_VLDB v1, p3, 2\nC_NOP\nC_NOP\nS_PGET r14, p3\nC_HALT\n");
  const MachineState& s = r.s();
  EXPECT_EQ(s.r[0], 0u);
  EXPECT_EQ(s.r[3], 800000u);
  EXPECT_EQ(s.r[4], 12500u);
  EXPECT_EQ(s.r[5], 100003u);
  EXPECT_EQ(s.r[6], static_cast<uint32_t>(-99997));
  EXPECT_EQ(s.r[7], 300000u);
  EXPECT_EQ(s.r[8], 0xF003u);
  EXPECT_EQ(s.r[10], 103u);
  EXPECT_EQ(s.r[11], 100000u);
  EXPECT_EQ(s.r[12], 3u);
  EXPECT_EQ(s.p[4], 66u);         // 64 + 4 - 2
  EXPECT_EQ(s.r[14], 70u);        // 64 + 4 + 0 + 2
  EXPECT_EQ(r.v(1, 9), 0x4040u);  // the BF16 at DM[68], the low half of the word stored there
}

TEST(VliwIss, ExposedPipelineResultsLandAfterTheirLatency) {
  const std::string program =
      "S_LI_FP r1, 1.0\n"
      "V_BCST v1, r1\n"
      "V_ADD v2, v1, v1\n"                                    // 2.0, visible two bundles later
      "{ V_ADD v3, v2, v2 ; L_VLD v5, p0 ; L_VLD v6, p1 }\n"  // one bundle later: the old v2 (0)
      "V_ADD v4, v2, v2\n"                                    // two bundles later: 4.0
      "C_HALT\n";
  const ProgramRun r = run(program);
  EXPECT_EQ(r.v(3, 0), 0u);
  EXPECT_EQ(r.v(4, 0), bf16(4.0));
  // p0 and p1 are both 0: the same bank, so that bundle stalls one cycle, and the stall changes nothing.
  EXPECT_EQ(r.counter(kStallBankConflict), 1u);
  EXPECT_EQ(r.counter(kBundles), 6u);
}

TEST(VliwIss, BankConflictCostsOneCycle) {
  // Bundles: S_LI, S_PMOV, the loads (stalled one cycle when p0 and p1 share a bank), C_HALT; the loads'
  // results land two drain cycles after C_HALT.
  const ProgramRun conflict = run("S_LI r1, 256\nS_PMOV p1, r1\n{ L_VLD v1, p0 ; L_VLD v2, p1 }\nC_HALT\n");
  EXPECT_EQ(conflict.result.cycles, 7u);
  EXPECT_EQ(conflict.counter(kStallBankConflict), 1u);
  EXPECT_EQ(conflict.counter(kStallDrain), 2u);
  const ProgramRun apart = run("S_LI r1, 32\nS_PMOV p1, r1\n{ L_VLD v1, p0 ; L_VLD v2, p1 }\nC_HALT\n");
  EXPECT_EQ(apart.result.cycles, 6u);
  EXPECT_EQ(apart.counter(kStallBankConflict), 0u);
  EXPECT_EQ(apart.counter(kOpsLs1), 1u);
}

TEST(VliwIss, DmaLoadReleasesItsLockAfterTheDramLatency) {
  std::vector<uint8_t> dram(65536, 0);
  for (unsigned i = 0; i < 32; ++i) dram[i] = static_cast<uint8_t>(i + 1);
  // Cycle 0: S_LI; 1: C_DMALD (queued); 2: the row is launched; DRAM sees it in cycle 3, transfers it in
  // 3 (32 bytes at 32 per cycle) and answers 40 cycles later, in cycle 44, at whose end it completes. So
  // C_ACQ waits in cycles 2..44 and issues in 45; C_HALT in 46; the machine stops before cycle 47.
  const ProgramRun r =
      run("S_LI r3, 1\nC_DMALD 0, r0, r0, r0, r3, 0\nC_ACQ 0\nC_HALT\n", default_params(), dram);
  EXPECT_EQ(r.result.stop, Iss::Stop::kHalted);
  EXPECT_EQ(r.result.cycles, 47u);
  EXPECT_EQ(r.counter(kStallLockWait), 43u);
  EXPECT_EQ(r.counter(kDmaBusy), 43u);
  EXPECT_EQ(r.counter(kDramBytesRead), 32u);
  EXPECT_EQ(r.s().locks[0], 0u);
  EXPECT_EQ(r.s().dm[31], 32u);
}

TEST(VliwIss, DmaStoreWithStrideAndHaltWaitsForIt) {
  std::vector<uint8_t> dram(65536, 0);
  for (unsigned i = 0; i < 64; ++i) dram[i] = static_cast<uint8_t>(i + 1);
  const ProgramRun r =
      run("S_LI r1, 2\nS_LI r2, 32\nC_DMALD 0, r0, r0, r2, r1, 3\nC_ACQ 3\n"
          "S_LI r4, 1000\nS_LI r5, 100\nC_DMAST 1, r0, r4, r5, r1\nC_HALT\n",
          default_params(), dram);
  EXPECT_EQ(r.result.stop, Iss::Stop::kHalted);
  EXPECT_EQ(r.dram[1000], 1u);
  EXPECT_EQ(r.dram[1031], 32u);
  EXPECT_EQ(r.dram[1100], 33u);
  EXPECT_EQ(r.dram[1131], 64u);
  EXPECT_EQ(r.counter(kDramBytesWritten), 64u);
  EXPECT_GT(r.counter(kStallDrain), 39u);  // C_HALT waited for the store's DRAM latency
}

TEST(VliwIss, LoopsRunTheirBodiesZeroSkipsAndNestingWorks) {
  const ProgramRun r =
      run("        S_LI r5, 0\n"
          "        C_LOOPI 3, outer\n"
          "        C_LOOPI 4, inner\n"
          "        S_ADDI r1, r1, 1\n"
          "inner:  S_ADDI r2, r2, 1\n"
          "outer:  C_LOOP r5, skip\n"
          "        S_ADDI r3, r3, 1\n"
          "skip:   { S_ADDI r4, r4, 1 ; C_HALT }\n");
  EXPECT_EQ(r.s().r[1], 12u);
  EXPECT_EQ(r.s().r[2], 3u);
  EXPECT_EQ(r.s().r[3], 0u);
  EXPECT_EQ(r.s().r[4], 1u);
  EXPECT_EQ(r.counter(kBundles), 1u + 1 + 3 * (1 + 4 + 1) + 1 + 1);
}

TEST(VliwIss, RuntimeErrorsNameTheBundle) {
  struct Case {
    std::string source;
    ErrorCode code;
    uint32_t pc;
    uint64_t lo;
  };
  const std::vector<Case> cases = {
      {"S_LI r1, 65536\nS_PMOV p0, r1\nC_NOP\nL_VLD v1, p0\nC_HALT\n", ErrorCode::kDmRange, 4, 65536},
      {"S_LI r1, 16\nS_PMOV p0, r1\nL_VLD v1, p0\nC_HALT\n", ErrorCode::kDmAlign, 2, 16},
      {"S_LI r1, 2\nS_PMOV p0, r1\nL_SLD r2, p0\nC_HALT\n", ErrorCode::kDmAlign, 2, 2},
      {"C_NOP\n.word 0x8000007F\n", ErrorCode::kIllegalInsn, 1, 0x8000007F},
      {"C_NOP\n.word 0x00000040, 0x80000041\n", ErrorCode::kIllegalBundle, 1, 1},
      {"S_LI r1, 70000\nS_LI r2, 1\nC_DMALD 0, r0, r1, r0, r2\nC_HALT\n", ErrorCode::kDramRange, 3, 70000},
      {"S_LI r1, 3\nS_LI r2, 1\nC_DMALD 0, r0, r1, r0, r2\nC_HALT\n", ErrorCode::kDramAlign, 2, 3},
      {"C_DMALD 0, r0, r0, r0, r0\nC_HALT\n", ErrorCode::kDmaEmpty, 0, 0},
      {"C_LOOPI 300, end\nC_REL 2\nend: C_HALT\n", ErrorCode::kLockOverflow, 1, 2},
      {"C_NOP\n", ErrorCode::kIllegalInsn, 1, 0},  // running past the program
  };
  for (const Case& c : cases) {
    const ProgramRun r = run(c.source);
    EXPECT_EQ(r.result.stop, Iss::Stop::kError) << c.source;
    EXPECT_EQ(r.s().error.code, c.code) << c.source << error_name(r.s().error.code);
    EXPECT_EQ(r.s().error.pc, c.pc) << c.source;
    EXPECT_EQ(r.s().error.lo, c.lo) << c.source;
    EXPECT_FALSE(r.s().error.describe(default_params()).empty());
  }
}

// Found by the sanitizer build: a bundle that ends at the last word of the instruction memory moved the pc
// past it, and the decode cache was indexed there (a read and a write outside it).
TEST(VliwIss, RunningOffTheEndOfTheInstructionMemoryIsAPcRangeError) {
  std::string source;
  for (uint32_t i = 0; i < default_params().imem_words; ++i) source += "C_NOP\n";
  const ProgramRun r = run(source);
  EXPECT_EQ(r.result.stop, Iss::Stop::kError);
  EXPECT_EQ(r.s().error.code, ErrorCode::kPcRange) << error_name(r.s().error.code);
  EXPECT_EQ(r.s().error.pc, default_params().imem_words);
}

TEST(VliwIss, ALoopEndInsideABundleIsAnError) {
  // C_LOOPI 2 with a body of 1 word whose end falls inside the next two-word bundle.
  const isa::AssembleResult loop = isa::assemble(isa::vliw::spec(), "C_LOOPI 2, .+2\nC_NOP\n", "l.s");
  ASSERT_TRUE(loop.ok);
  const isa::AssembleResult pair =
      isa::assemble(isa::vliw::spec(), "{ V_ADD v1, v1, v1 ; C_NOP }\nC_HALT\n", "p.s");
  std::vector<uint32_t> words = {loop.words[0], pair.words[0], pair.words[1], pair.words[2]};
  Iss iss(default_params());
  iss.reset(words);
  std::vector<uint8_t> dram(4096, 0);
  EXPECT_EQ(iss.run(dram, 1000).stop, Iss::Stop::kError);
  EXPECT_EQ(iss.state().error.code, ErrorCode::kLoopEnd);
  EXPECT_EQ(iss.state().error.pc, 1u);
}

TEST(VliwIss, ALockNobodyReleasesIsAHangWithItsCause) {
  const ProgramRun r = run("C_ACQ 4\nC_HALT\n", default_params(), {}, 500);
  EXPECT_EQ(r.result.stop, Iss::Stop::kCycleCap);
  EXPECT_EQ(r.iss.last_stall(), StallCause::kLockWait);
  EXPECT_EQ(r.counter(kStallLockWait), 500u);
}

TEST(VliwIss, AFullDmaQueueStalls) {
  // The small configuration has 2-deep queues: the third transfer on channel 0 waits for the first.
  const Params p = small_params();
  const ProgramRun r =
      run("S_LI r1, 1\nC_DMALD 0, r0, r0, r0, r1\nC_DMALD 0, r0, r0, r0, r1\nC_DMALD 0, r0, r0, r0, r1\n"
          "C_HALT\n",
          p);
  EXPECT_EQ(r.result.stop, Iss::Stop::kHalted);
  EXPECT_GT(r.counter(kStallDmaQueue), 50u);
  EXPECT_EQ(r.counter(kDramBytesRead), 3u * p.row_bytes());
}

// DRAM is timed like tb::DramModel: rows share one channel at DRAM_BYTES_PER_CYCLE, and at most
// DMA_OUTSTANDING rows are in flight. The small configuration moves a 16-byte row in 2 cycles at 8 bytes per
// cycle: 64 rows take 128 cycles of channel time after the first launch, plus the latency.
TEST(VliwIss, DmaRowsShareTheDramChannelAndTheOutstandingLimit) {
  const Params p = small_params();
  const std::string source =
      "S_LI r1, 64\nS_LI r2, ROW_BYTES\nC_DMALD 0, r0, r0, r2, r1, 1\nC_ACQ 1\nC_HALT\n";
  const ProgramRun r = run(source, p);
  EXPECT_EQ(r.result.stop, Iss::Stop::kHalted);
  // Row 0 launches in cycle 3 and DRAM sees it in 4; row 63 ends its turn in 4 + 128 = 132 and is answered
  // in 132 + 60 = 192; C_ACQ issues in 193, C_HALT in 194.
  EXPECT_EQ(r.result.cycles, 195u);
  Params few = p;
  few.dma_outstanding = 4;  // now the fifth row waits for the first answer before it launches
  const ProgramRun limited = run(source, few);
  EXPECT_EQ(limited.result.stop, Iss::Stop::kHalted);
  EXPECT_GT(limited.result.cycles, 16u * (60 + 2));
}

// A DMA op naming a channel the configuration does not have is an illegal word (small has 2 channels).
TEST(VliwIss, ADmaChannelBeyondTheConfigurationIsIllegal) {
  const std::string source = "S_LI r1, 1\nC_DMALD 3, r0, r0, r0, r1\nC_HALT\n";
  const ProgramRun r = run(source, small_params());
  EXPECT_EQ(r.result.stop, Iss::Stop::kError);
  EXPECT_EQ(r.s().error.code, ErrorCode::kIllegalInsn);
  EXPECT_EQ(r.s().error.pc, 1u);
  EXPECT_EQ(run(source).result.stop, Iss::Stop::kHalted);
}

TEST(VliwConfig, BothConfigurationsLoadAndPredefineTheParameters) {
  const Params d = default_params();
  EXPECT_EQ(d.vlen, 16u);
  EXPECT_EQ(d.row_bytes(), 32u);
  EXPECT_EQ(d.dm_bytes, 65536u);
  EXPECT_EQ(d.dram_latency, 40u);
  const Params s = small_params();
  EXPECT_EQ(s.vlen, 8u);
  EXPECT_EQ(s.dma_queue, 2u);
  EXPECT_EQ(d.dma_outstanding, 64u);
  EXPECT_EQ(s.dma_outstanding, 32u);
  // Every parameter of the ISA reference is predefined (DRAM_BYTES comes from the task).
  const isa::SymbolTable symbols = d.symbols();
  for (const isa::ParameterSpec& param : isa::vliw::spec().parameters) {
    EXPECT_EQ(symbols.count(param.name), 1u) << param.name;
  }
  HwConfig bad = load_hw_config(std::string(KCRAFT_SOURCE_DIR) + "/rtl/vliw/configs/default.yaml");
  bad.build["VLEN"] = 12;
  EXPECT_THROW(Params::from_config(bad), ConfigError);
  bad.build["VLEN"] = 16;
  bad.build["DMA_CHANNELS"] = 5;
  try {
    Params::from_config(bad);
    ADD_FAILURE() << "5 DMA channels accepted";
  } catch (const ConfigError& e) {
    EXPECT_THAT(e.what(), HasSubstr("build.DMA_CHANNELS"));
  }
}

}  // namespace
}  // namespace kcraft::vliw

#include "isa/vliw/random_program.h"

namespace kcraft::vliw {
namespace {

// The generator feeds the RTL differential campaign: its programs must assemble, be deterministic per
// seed, exercise every slot, loops, DMA and bank conflicts, and end (halt or a deliberate fault) instead
// of hanging.
TEST(VliwRandomProgram, ProgramsAreValidDeterministicAndEnd) {
  for (const Params& p : {default_params(), small_params()}) {
    unsigned halted = 0, faulted = 0;
    Counters total{};
    for (uint64_t seed = 1; seed <= 60; ++seed) {
      const RandomProgram program = random_program(p, seed);
      EXPECT_EQ(random_program(p, seed).words, program.words) << seed;
      Iss iss(p);
      iss.reset(program.words);
      std::vector<uint8_t> dram = program.dram;
      const Iss::Result r = iss.run(dram, 200000);
      ASSERT_NE(r.stop, Iss::Stop::kCycleCap) << "seed " << seed << "\n" << program.source;
      (r.stop == Iss::Stop::kHalted ? halted : faulted) += 1;
      for (unsigned c = 0; c < kNumCounters; ++c) total[c] += iss.counters()[c];
      // The disassembly of every program assembles to the same words.
      const std::string text = isa::disassemble_program(isa::vliw::spec(), program.words);
      EXPECT_EQ(isa::assemble(isa::vliw::spec(), text, "d.s", p.symbols()).words, program.words) << seed;
    }
    EXPECT_GT(halted, 45u);
    EXPECT_GT(faulted, 0u);
    for (unsigned c : {kOpsLs0, kOpsLs1, kOpsVec, kOpsScl, kOpsCtl, kStallBankConflict, kDramBytesRead,
                       kDramBytesWritten, kMacs, kStallLockWait}) {
      EXPECT_GT(total[c], 0u) << counter_name(c);
    }
  }
}

}  // namespace
}  // namespace kcraft::vliw

namespace kcraft::vliw {
namespace {

TEST(VliwIss, RemainingScalarAccumulatorAndStoreOps) {
  const Params p = default_params();
  const ProgramRun r = run(load_rows(2) +
                               "S_LI r1, 0xF0F0\nS_LI r2, 0x0FF0\nS_AND r3, r1, r2\nS_OR r4, r1, r2\n"
                               "S_SLLI r5, r1, 4\nS_SRLI r6, r1, 4\n"
                               "A_UPS a1, v1\nA_UPS a2, v2\nC_NOP\nA_ADD a3, a1, a2\nA_SUB a4, a1, a2\n"
                               "A_MUL a5, a1, a2\nA_MAX a6, a1, a2\nS_LI r7, 4096\nS_PMOV p6, r7\nC_NOP\n"
                               "L_VST v2, p6, ROW_BYTES\nL_VST v1, p6\nC_NOP\nL_VLD v9, p6\nC_HALT\n",
                           p, xy_dram(p.vlen));
  ASSERT_EQ(r.result.stop, Iss::Stop::kHalted);
  EXPECT_EQ(r.s().r[3], 0x00F0u);
  EXPECT_EQ(r.s().r[4], 0xFFF0u);
  EXPECT_EQ(r.s().r[5], 0xF0F00u);
  EXPECT_EQ(r.s().r[6], 0x0F0Fu);
  for (unsigned i = 0; i < p.vlen; ++i) {
    const double x = static_cast<double>(i) - 8, y = i / 2.0;
    EXPECT_EQ(r.a(3, i), fp32(x + y)) << i;
    EXPECT_EQ(r.a(4, i), fp32(x - y)) << i;
    EXPECT_EQ(r.a(5, i), fp32(x * y)) << i;
    EXPECT_EQ(r.a(6, i), fp32(std::max(x, y))) << i;
    // v2 was stored at DM[4096], v1 one row later, then read back from there.
    const uint16_t stored = static_cast<uint16_t>(r.s().dm[4096 + 2 * i] | r.s().dm[4096 + 2 * i + 1] << 8);
    EXPECT_EQ(stored, bf16(y)) << i;
    EXPECT_EQ(r.v(9, i), bf16(x)) << i;
  }
}

}  // namespace
}  // namespace kcraft::vliw
