// The functional model against hand-computed results, instruction by instruction, plus the machine
// description (hardware configuration validation, error descriptions).
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>

#include "isa/systolic/random_program.h"
#include "isa/systolic/systolic_iss.h"
#include "systolic_isa.h"
#include "tb/systolic/systolic_hw.h"
#include "tests/systolic/test_util.h"

namespace kcraft::systolic {
namespace {

using testing::assemble;
using testing::bf16;
using testing::f32;
using testing::from_bf16;
using testing::from_f32;

Params default_params() {
  return testing::platform().params("default");
}

struct Ran {
  Iss iss;
  Iss::Result result;
  std::vector<uint8_t> dram;
};

Ran run(const std::string& source, std::vector<uint8_t> dram = std::vector<uint8_t>(64 * 1024)) {
  Ran r{Iss(default_params()), {}, std::move(dram)};
  r.iss.reset(assemble(source));
  r.result = r.iss.run(r.dram, 1'000'000);
  return r;
}

uint16_t vs(const Iss& iss, unsigned row, unsigned lane) {
  return iss.state().vsram[row * iss.params().vlen + lane];
}

TEST(SystolicModel, ScalarIntegerOps) {
  auto r = run(R"(
    S_LI r1, 100000          ; two instructions (does not fit 17 bits)
    S_LI r2, -3
    S_ADD r3, r1, r2
    S_SUB r4, r2, r1
    S_MUL r5, r1, r2
    S_AND r6, r1, r2
    S_OR  r7, r0, r2
    S_XOR r8, r1, r1
    S_ADDI r9, r0, 5
    S_SLL r10, r9, r9        ; 5 << 5
    S_SRL r11, r2, r9        ; logical
    S_SLLI r12, r9, 31
    S_SRLI r13, r12, 30
    S_LUI r14, 0xABCD
    S_ORI r14, r14, 0x1234
    S_ADDI r0, r0, 7         ; r0 stays 0
    C_HALT
  )");
  ASSERT_EQ(r.result.stop, Iss::Stop::kHalted);
  const auto& x = r.iss.state().x;
  EXPECT_EQ(x[1], 100000u);
  EXPECT_EQ(x[2], 0xFFFFFFFDu);
  EXPECT_EQ(x[3], 99997u);
  EXPECT_EQ(x[4], static_cast<uint32_t>(-100003));
  EXPECT_EQ(x[5], static_cast<uint32_t>(-300000));
  EXPECT_EQ(x[6], 100000u & 0xFFFFFFFDu);
  EXPECT_EQ(x[7], 0xFFFFFFFDu);
  EXPECT_EQ(x[8], 0u);
  EXPECT_EQ(x[10], 160u);
  EXPECT_EQ(x[11], 0xFFFFFFFDu >> 5);
  EXPECT_EQ(x[12], 0x80000000u);
  EXPECT_EQ(x[13], 2u);
  EXPECT_EQ(x[14], 0xABCD1234u);
  EXPECT_EQ(x[0], 0u);
  EXPECT_EQ(r.iss.counters()[kInstructions], 18u);  // S_LI 100000 expands to two words
}

TEST(SystolicModel, ScalarFloatingPointOps) {
  auto r = run(R"(
    S_LI_FP f1, 1.5
    S_LI_FP f2, 2.25
    S_ADD_FP f3, f1, f2
    S_SUB_FP f4, f1, f2
    S_MUL_FP f5, f1, f2
    S_LI_FP f6, -0.0
    S_MAX_FP f7, f6, f0      ; max(-0, +0) = +0
    S_MIN_FP f8, f0, f6      ; min(+0, -0) = -0
    S_LI_FP f9, 4.0
    S_RECI_FP f10, f9
    S_RSQRT_FP f11, f9
    S_SQRT_FP f12, f9
    S_EXP_FP f13, f0         ; exp(0) = 1
    S_LI r1, -7
    S_ITOF f14, r1
    S_ST_FP f3, r0, 10
    S_LD_FP f15, r0, 10
    S_LI_FP f1, 1.0/3        ; S_LUI_FP + S_LLI_FP: exact FP32
    S_LI_FP f0, 9.0          ; f0 stays 0
    C_HALT
  )");
  ASSERT_EQ(r.result.stop, Iss::Stop::kHalted);
  const auto& f = r.iss.state().f;
  EXPECT_EQ(f[3], f32(3.75f));
  EXPECT_EQ(f[4], f32(-0.75f));
  EXPECT_EQ(f[5], f32(3.375f));
  EXPECT_EQ(f[7], 0x00000000u);
  EXPECT_EQ(f[8], 0x80000000u);
  EXPECT_EQ(f[10], f32(0.25f));
  EXPECT_EQ(f[11], f32(0.5f));
  EXPECT_EQ(f[12], f32(2.0f));
  EXPECT_EQ(f[13], f32(1.0f));
  EXPECT_EQ(f[14], f32(-7.0f));
  EXPECT_EQ(f[15], f32(3.75f));
  EXPECT_EQ(r.iss.state().fpsram[10], f32(3.75f));
  EXPECT_EQ(f[1], f32(1.0f / 3.0f));
  EXPECT_EQ(f[0], 0u);
}

TEST(SystolicModel, NaNsAreCanonical) {
  auto r = run(R"(
    S_LI_FP f1, inf
    S_LI_FP f2, -inf
    S_ADD_FP f3, f1, f2      ; inf - inf
    S_LUI_FP f4, 0x7FC1      ; a NaN with a payload
    S_MAX_FP f5, f4, f0
    C_HALT
  )");
  EXPECT_EQ(r.iss.state().f[3], 0x7FC00000u);
  EXPECT_EQ(r.iss.state().f[5], 0x7FC00000u);
}

TEST(SystolicModel, HardwareLoopsCountAndNest) {
  auto r = run(R"(
    S_LI r1, 4
    C_LOOPI 3, outer_end
    S_ADDI r2, r2, 1           ; 3 times
    C_LOOP r1, inner_end
    S_ADDI r3, r3, 1           ; 3 * 4 times
    S_ADDI r4, r4, 2
  inner_end:
    S_ADDI r5, r5, 1           ; 3 times, also ends the outer body
  outer_end:
    C_LOOP r0, skipped         ; count 0: the body never runs
    S_ADDI r6, r6, 1
  skipped:
    C_LOOPI 5, one
    S_ADDI r7, r7, 3           ; one-instruction body
  one:
    C_HALT
  )");
  ASSERT_EQ(r.result.stop, Iss::Stop::kHalted);
  const auto& x = r.iss.state().x;
  EXPECT_EQ(x[2], 3u);
  EXPECT_EQ(x[3], 12u);
  EXPECT_EQ(x[4], 24u);
  EXPECT_EQ(x[5], 3u);
  EXPECT_EQ(x[6], 0u);
  EXPECT_EQ(x[7], 15u);
}

double ramp(size_t i) {
  return 0.25 * static_cast<double>(i % 64) - 4.0;
}

TEST(SystolicModel, DmaMovesStridedRows) {
  auto dram = testing::bf16_dram(64 * 1024, ramp);
  auto r = run(R"(
    S_LI r1, 10                 ; VSRAM row
    S_LI r2, 64                 ; DRAM address
    S_LI r3, 96                 ; stride: every third row
    H_LOAD_V r1, r2, r3, 4
    S_LI r4, 8192               ; store rows 10..13 densely
    H_STORE_V r1, r4, r0, 1     ; stride 0: one row
    S_LI r5, 32
    S_ADDI r4, r4, 32
    H_STORE_V r1, r4, r5, 4
    H_LOAD_M r0, r2, r5, 2
    C_HALT
  )",
               dram);
  ASSERT_EQ(r.result.stop, Iss::Stop::kHalted);
  const unsigned vlen = r.iss.params().vlen;
  for (unsigned row = 0; row < 4; ++row) {
    for (unsigned lane = 0; lane < vlen; ++lane) {
      const size_t element = (64 + row * 96) / 2 + lane;
      EXPECT_EQ(vs(r.iss, 10 + row, lane), bf16(ramp(element))) << row << " " << lane;
      const size_t out = (8192 + 32 + row * 32) / 2 + lane;
      EXPECT_EQ(r.dram[2 * out] | (r.dram[2 * out + 1] << 8), bf16(ramp(element)));
    }
  }
  EXPECT_EQ(r.iss.state().msram[vlen + 3], bf16(ramp(64 / 2 + 16 + 3)));
  EXPECT_EQ(r.iss.counters()[kDramBytesRead], 6u * 2 * vlen);
  EXPECT_EQ(r.iss.counters()[kDramBytesWritten], 5u * 2 * vlen);
}

double small_ints(size_t i) {
  return static_cast<double>(static_cast<int>(i % 7) - 3);
}

TEST(SystolicModel, VectorOpsRoundOnceToBf16) {
  auto dram = testing::bf16_dram(64 * 1024, small_ints);
  auto r = run(R"(
    S_LI r3, 32
    H_LOAD_V r0, r0, r3, 2       ; rows 0, 1: lanes hold (i % 7) - 3
    S_LI r1, 1
    S_LI r2, 4
    S_LI_FP f1, 0.5
    V_ADD_VV r2, r0, r1          ; row 4
    V_SUB_VV r2, r0, r1, 1       ; row 5 = row 1 - row 2 (offset 1 on all three)
    V_MUL_VF r2, r0, f1, 2       ; row 6 = row 2 * 0.5 (row 2 is zero)
    V_MAX_VF r2, r0, f0, 3       ; row 7 = relu(row 3) (zero)
    S_LI r5, 8
    V_MUL_VF r5, r0, f1          ; row 8 = row 0 * 0.5
    V_EXP_VF r5, r0, f1, 1       ; row 9 = exp(row 1 - 0.5)
    V_BCAST_F r5, f1, 2          ; row 10 = 0.5
    V_RECI_V r5, r5, 3           ; row 11 = 1 / row 11 (zero -> inf)
    V_RED_SUM f2, r0             ; f2 = sum of row 0
    V_RED_MAX f3, r0             ; f3 = max(+0, max of row 0)
    V_RED_DOT f4, r0, r1         ; f4 = row 0 . row 1
    C_HALT
  )",
               dram);
  ASSERT_EQ(r.result.stop, Iss::Stop::kHalted);
  const unsigned vlen = r.iss.params().vlen;
  double sum = 0, dot = 0, mx = 0;
  for (unsigned i = 0; i < vlen; ++i) {
    const double a = small_ints(i), b = small_ints(vlen + i);
    EXPECT_EQ(vs(r.iss, 4, i), bf16(a + b));
    EXPECT_EQ(vs(r.iss, 5, i), bf16(b - 0.0));
    EXPECT_EQ(vs(r.iss, 8, i), bf16(a * 0.5));
    EXPECT_EQ(vs(r.iss, 9, i), bf16(std::exp(b - 0.5))) << i;
    EXPECT_EQ(vs(r.iss, 10, i), bf16(0.5));
    EXPECT_EQ(vs(r.iss, 11, i), 0x7F80);  // 1 / +0
    sum += a;
    dot += a * b;
    mx = std::max(mx, a);
  }
  EXPECT_EQ(r.iss.state().f[2], f32(static_cast<float>(sum)));
  EXPECT_EQ(r.iss.state().f[3], f32(static_cast<float>(mx)));
  EXPECT_EQ(r.iss.state().f[4], f32(static_cast<float>(dot)));
  EXPECT_EQ(r.iss.counters()[kVectorElements], 11u * vlen);
}

TEST(SystolicModel, ReductionSumsLanesAsABalancedTree) {
  // Lanes 0..3 = 2^24, 1, -2^24, 1 and zeros elsewhere. Pairwise: (2^24 + 1) rounds to 2^24 and
  // (-2^24 + 1) is exact, so the tree gives 1; a left-to-right sum would give 2^24+1-2^24+1 = 1 or
  // 0 depending on order. The ISA fixes the tree.
  std::vector<uint8_t> dram(64 * 1024);
  const uint16_t lanes[4] = {0x4B80, 0x3F80, 0xCB80, 0x3F80};
  for (int i = 0; i < 4; ++i) {
    dram[2 * i] = static_cast<uint8_t>(lanes[i] & 0xFF);
    dram[2 * i + 1] = static_cast<uint8_t>(lanes[i] >> 8);
  }
  auto r = run(R"(
    S_LI r3, 32
    H_LOAD_V r0, r0, r3, 1
    V_RED_SUM f1, r0
    C_HALT
  )",
               dram);
  EXPECT_EQ(r.iss.state().f[1], f32(1.0f));
}

TEST(SystolicModel, MatrixUnitMultipliesAccumulatesAndTransposes) {
  const Params p = default_params();
  // DRAM: rows 0..MLEN-1 = identity * 2 (the weights), rows MLEN.. = A (values i % 7 - 3).
  std::vector<uint8_t> dram(64 * 1024);
  auto put = [&](size_t element, double v) {
    const uint16_t b = bf16(v);
    dram[2 * element] = static_cast<uint8_t>(b & 0xFF);
    dram[2 * element + 1] = static_cast<uint8_t>(b >> 8);
  };
  for (unsigned k = 0; k < p.mlen; ++k) {
    for (unsigned n = 0; n < p.mlen; ++n) put(k * p.mlen + n, k == n ? 2.0 : (n == k + 1 ? 1.0 : 0.0));
  }
  for (unsigned i = 0; i < p.blen * p.mlen; ++i) put(p.mlen * p.mlen + i, small_ints(i));
  auto r = run(R"(
    S_LI r3, ROW_BYTES
    H_LOAD_M r0, r0, r3, MLEN            ; W: 2 on the diagonal, 1 above it
    S_LI r1, MLEN * ROW_BYTES
    S_LI r2, 100
    H_LOAD_V r2, r1, r3, BLEN            ; A rows at VSRAM 100
    M_LDW r0
    M_MM r0, r2                          ; ACC 0.. = A W
    M_MMA r0, r2                         ; ACC 0.. += A W
    M_LDWT r0
    S_LI r4, 8
    M_MM r4, r2                          ; ACC 8.. = A W^T
    S_LI r5, 200
    M_WO r5, r0                          ; VSRAM 200.. = bf16(ACC 0..)
    C_HALT
  )",
               dram);
  ASSERT_EQ(r.result.stop, Iss::Stop::kHalted);
  for (unsigned i = 0; i < p.blen; ++i) {
    for (unsigned n = 0; n < p.mlen; ++n) {
      auto a = [&](unsigned k) { return small_ints(i * p.mlen + k); };
      const double aw = 2 * a(n) + (n > 0 ? a(n - 1) : 0.0);            // (A W)[i][n]
      const double awt = 2 * a(n) + (n + 1 < p.mlen ? a(n + 1) : 0.0);  // (A W^T)[i][n]
      EXPECT_EQ(r.iss.state().acc[i * p.mlen + n], f32(static_cast<float>(2 * aw))) << i << "," << n;
      EXPECT_EQ(r.iss.state().acc[(8 + i) * p.mlen + n], f32(static_cast<float>(awt)));
      EXPECT_EQ(vs(r.iss, 200 + i, n), bf16(2 * aw));
    }
  }
  EXPECT_EQ(r.iss.counters()[kMacs], 3u * p.blen * p.mlen * p.mlen);
}

struct ErrorCase {
  const char* name;
  const char* source;
  ErrorCode code;
  uint32_t pc;
  uint64_t lo, hi;
};

class SystolicModelErrors : public ::testing::TestWithParam<ErrorCase> {};

TEST_P(SystolicModelErrors, StopAtTheFaultingInstruction) {
  const auto& c = GetParam();
  auto r = run(c.source);
  ASSERT_EQ(r.result.stop, Iss::Stop::kError) << c.name;
  const auto& e = r.iss.state().error;
  EXPECT_EQ(e.code, c.code) << c.name << ": " << e.describe(default_params());
  EXPECT_EQ(e.pc, c.pc);
  EXPECT_EQ(e.lo, c.lo);
  EXPECT_EQ(e.hi, c.hi);
  EXPECT_EQ(r.iss.state().pc, c.pc);
  EXPECT_FALSE(e.describe(default_params()).empty());
}

// DRAM in these programs is 64 KiB.
INSTANTIATE_TEST_SUITE_P(
    AllCodes, SystolicModelErrors,
    ::testing::Values(
        ErrorCase{"illegal", "S_ADDI r1, r0, 1\n.word 0x7F\nC_HALT", ErrorCode::kIllegalInsn, 1, 0x7F, 0},
        ErrorCase{"reserved_bits", ".word 0x00100001\nC_HALT", ErrorCode::kIllegalInsn, 0, 0x00100001, 0},
        ErrorCase{"no_halt", "S_ADDI r1, r0, 1", ErrorCode::kIllegalInsn, 1, 0, 0},
        // The assembler rejects both loop errors statically, so these are hand-encoded: C_LOOPI count 2,
        // body 2 twice (the inner body ends after the outer one) ...
        ErrorCase{"loop_nest", ".word 0x00100105, 0x00100105\nC_NOP\nC_NOP\nC_HALT", ErrorCode::kLoopNest, 1,
                  3, 2},
        // ... and five properly nested C_LOOPI 1 (bodies 9, 7, 5, 3, 1) on a four-deep loop stack.
        ErrorCase{"loop_overflow",
                  ".word 0x00480085, 0x00380085, 0x00280085, 0x00180085, 0x00080085\n"
                  "C_NOP\nC_NOP\nC_NOP\nC_NOP\nC_NOP\nC_HALT",
                  ErrorCode::kLoopOverflow, 4, 4, 0},
        ErrorCase{"vsram", "S_LI r1, VSRAM_ROWS - 2\nV_ADD_VV r0, r1, r0, 2\nC_HALT", ErrorCode::kVsramRange,
                  1, 8192, 8193},
        ErrorCase{"vsram_range", "S_LI r1, VSRAM_ROWS - 2\nS_LI r2, 64\nH_LOAD_V r1, r0, r2, 3\nC_HALT",
                  ErrorCode::kVsramRange, 2, 8190, 8193},
        ErrorCase{"msram", "S_LI r1, MSRAM_ROWS - 8\nM_LDW r1\nC_HALT", ErrorCode::kMsramRange, 1, 2040,
                  2056},
        ErrorCase{"acc", "S_LI r1, ACC_ROWS - 1\nM_MM r1, r0\nC_HALT", ErrorCode::kAccRange, 1, 511, 515},
        ErrorCase{"fpsram", "S_LD_FP f1, r0, FPSRAM_WORDS\nC_HALT", ErrorCode::kFpsramRange, 0, 256, 257},
        ErrorCase{"fpsram_negative", "S_ST_FP f1, r0, -1\nC_HALT", ErrorCode::kFpsramRange, 0, 0xFFFFFFFF,
                  0x100000000},
        ErrorCase{"dram_align", "S_LI r1, 3\nH_LOAD_V r0, r1, r0, 1\nC_HALT", ErrorCode::kDramAlign, 1, 3, 0},
        ErrorCase{"dram_range", "S_LI r1, 65536 - 32\nS_LI r2, 32\nH_STORE_V r0, r1, r2, 2\nC_HALT",
                  ErrorCode::kDramRange, 2, 65504, 65568}),
    [](const auto& param_info) { return std::string(param_info.param.name); });

TEST(SystolicModel, EveryErrorOfTheIsaYamlHasItsOwnDescription) {
  const Params p = default_params();
  std::set<std::string> messages;
  for (const auto& e : kErrors) {
    MachineError error;
    error.code = e.code;
    error.lo = 3;
    error.hi = 5;
    const std::string text = error.describe(p);
    EXPECT_NE(text, "unknown error") << e.name << " has no message in MachineError::describe";
    EXPECT_TRUE(messages.insert(text).second) << e.name << " shares its message: " << text;
    EXPECT_STREQ(error_name(e.code), e.name);
  }
  MachineError unknown;
  unknown.code = static_cast<ErrorCode>(15);
  EXPECT_EQ(unknown.describe(p), "unknown error");
  EXPECT_STREQ(error_name(unknown.code), "unknown");
}

TEST(SystolicModel, NamesComeFromTheGeneratedTables) {
  ASSERT_EQ(isa::systolic::spec().counters.size(), size_t{kNumCounters});
  for (unsigned k = 0; k < kNumCounters; ++k) {
    const isa::CounterSpec& yaml = isa::systolic::spec().counters[k];
    EXPECT_EQ(counter_name(k), yaml.name);
    EXPECT_EQ(counter_is_architectural(k), yaml.architectural) << yaml.name;
  }
  EXPECT_STREQ(counter_name(kNumCounters), "unknown");
  EXPECT_FALSE(counter_is_architectural(kNumCounters));
  for (const isa::MachineCode& c : isa::systolic::spec().stall_causes.codes) {
    EXPECT_EQ(stall_cause_name(c.code), c.description);
  }
  EXPECT_STREQ(stall_cause_name(15), "unknown");
  // Hand-checked: the names the CLI's JSON and messages have always used.
  EXPECT_STREQ(counter_name(kStallFpPending), "stall_fp_pending");
  EXPECT_STREQ(error_name(ErrorCode::kVsramRange), "vsram_out_of_range");
  EXPECT_STREQ(stall_cause_name(0), "issuing (no stall)");
}

TEST(SystolicModel, InstructionCapStopsARunawayLoop) {
  Iss iss(default_params());
  iss.reset(assemble("S_LI r1, 0x7FFFFFFF\nC_LOOP r1, e\nS_ADDI r2, r2, 1\ne:\nC_HALT"));
  std::vector<uint8_t> dram(4096);
  auto res = iss.run(dram, 1000);
  EXPECT_EQ(res.stop, Iss::Stop::kInstructionCap);
  EXPECT_EQ(res.instructions, 1000u);
}

TEST(SystolicModel, ProgramLargerThanImemIsRejected) {
  Iss iss(default_params());
  EXPECT_THROW(iss.reset(std::vector<uint32_t>(default_params().imem_words + 1, 1)), std::invalid_argument);
}

TEST(SystolicModel, RandomProgramsAreValidAndDeterministic) {
  const Params p = default_params();
  auto a = random_program(p, 42);
  auto b = random_program(p, 42);
  auto c = random_program(p, 43);
  EXPECT_EQ(a.words, b.words);
  EXPECT_EQ(a.dram, b.dram);
  EXPECT_NE(a.words, c.words);
  // Most random programs run to C_HALT (the rest end in their one deliberate fault).
  int halted = 0;
  for (uint64_t seed = 0; seed < 50; ++seed) {
    auto prog = random_program(p, seed);
    Iss iss(p);
    iss.reset(prog.words);
    auto res = iss.run(prog.dram, 1'000'000);
    ASSERT_NE(res.stop, Iss::Stop::kInstructionCap) << seed;
    halted += res.stop == Iss::Stop::kHalted;
  }
  EXPECT_GE(halted, 40);
}

// The first programs of a `kcraft validate systolic` campaign (its first seed, its program length)
// execute every instruction of isa/systolic.yaml, so an instruction the random generator never produces
// fails here by name. docs/extending.md relies on it: a new instruction is in the campaign of
// `kcraft validate systolic --programs 20` once this test passes.
// The optional fused multiply V_MUL_VFV: bit for bit the pair V_MUL_VF + V_MUL_VV (BF16 rounding after each
// multiply), on hardware with HAS_V_MUL_VFV; an illegal instruction on hardware without it.
TEST(SystolicModel, FusedMultiplyIsThePairBitForBitAndIllegalWithoutItsHardware) {
  auto symbols = testing::platform().symbols("default");
  symbols.erase("HAS_V_MUL_VFV");  // the assembler then accepts it whatever the hardware
  const std::string source = R"(
    S_LI r3, 32
    H_LOAD_V r0, r0, r3, 2       ; rows 0, 1: lanes hold (i % 7) - 3
    S_LI r1, 1
    S_LI r2, 4
    S_LI r4, 8
    S_LI r6, 5
    S_LI_FP f1, 0.5
    S_LI_FP f2, 0.3
    V_MUL_VFV r2, r0, f1, r1     ; row 4 = (row 0 * 0.5) * row 1: exact
    V_MUL_VF r4, r0, f2          ; row 8 = row 0 * 0.3 ...
    V_MUL_VV r4, r4, r1          ; ... * row 1, rounded twice
    V_MUL_VFV r6, r0, f2, r1     ; row 5 = the same, fused
    V_MUL_VFV r2, r0, f2, r0, 2  ; row 6 = (row 2 * 0.3) * row 2 (row 2 is zero)
    V_MUL_VFV r2, r0, f2, r1, 3  ; row 7 = (row 3 * 0.3) * row 4
    V_MUL_VFV r4, r0, f2, r1, 1  ; row 9 = (row 1 * 0.3) * row 2
    C_HALT
  )";
  const auto assembled = testing::platform().assemble(source, "test.s", symbols);
  ASSERT_TRUE(assembled.ok);
  const auto dram = testing::bf16_dram(64 * 1024, small_ints);
  Params with = default_params();
  with.has_v_mul_vfv = true;
  Iss iss(with);
  iss.reset(assembled.words);
  auto image = dram;
  ASSERT_EQ(iss.run(image, 1'000'000).stop, Iss::Stop::kHalted);
  const unsigned vlen = with.vlen;
  for (unsigned i = 0; i < vlen; ++i) {
    const double a = small_ints(i), b = small_ints(vlen + i);
    EXPECT_EQ(vs(iss, 4, i), bf16(a * 0.5 * b)) << i;
    const uint16_t pair = vs(iss, 8, i);  // the unfused pair
    EXPECT_EQ(pair, bf16(from_bf16(bf16(static_cast<double>(static_cast<float>(a * 0.3f)))) * b)) << i;
    EXPECT_EQ(vs(iss, 5, i), pair) << i;
    EXPECT_EQ(vs(iss, 6, i) & 0x7FFF, 0u) << i;  // zero rows: +-0
  }
  EXPECT_EQ(iss.state().vsram.size(), size_t{with.vsram_rows} * vlen);
  EXPECT_EQ(iss.counters()[kVectorElements], 7u * vlen);

  // Hardware without it: illegal_instruction at the first V_MUL_VFV.
  Iss without(default_params());
  ASSERT_FALSE(default_params().has_v_mul_vfv);
  without.reset(assembled.words);
  image = dram;
  ASSERT_EQ(without.run(image, 1'000'000).stop, Iss::Stop::kError);
  EXPECT_EQ(without.state().error.code, ErrorCode::kIllegalInsn);
  EXPECT_EQ(isa::systolic::op_of(assembled.words.at(without.state().error.pc)), isa::systolic::Op::V_MUL_VFV);
  // and the assembler says so for the configuration
  const auto rejected =
      testing::platform().assemble(source, "test.s", testing::platform().symbols("default"));
  EXPECT_FALSE(rejected.ok);
}

TEST(SystolicModel, RandomCampaignUsesEveryInstruction) {
  constexpr uint64_t kPrograms = 20;
  const ValidationOptions campaign;  // the command's defaults
  const Params p = testing::platform().params(campaign.hw_config);
  RandomProgramOptions options;
  options.length = campaign.length;
  std::map<uint8_t, uint64_t> executed;  // by opcode
  // The optional instructions are in the campaigns of hardware that has them: the same programs with every
  // optional instruction enabled.
  Params with_options = p;
  with_options.has_v_mul_vfv = true;
  for (const Params& hw : {p, with_options}) {
    for (uint64_t seed = campaign.seed; seed < campaign.seed + kPrograms; ++seed) {
      const RandomProgram prog = random_program(hw, seed, options);
      std::vector<uint8_t> dram = prog.dram;
      Iss iss(hw);
      iss.on_issue = [&](uint32_t, uint32_t word) {
        ++executed[static_cast<uint8_t>(isa::systolic::op_of(word))];
      };
      iss.reset(prog.words);
      ASSERT_NE(iss.run(dram, 1'000'000).stop, Iss::Stop::kInstructionCap) << "seed " << seed;
    }
  }
  for (isa::systolic::Op op : isa::systolic::kAllOps) {
    const auto opcode = static_cast<uint8_t>(op);
    EXPECT_GT(executed[opcode], 0u) << isa::systolic::op_name(opcode) << " is in no program of seeds "
                                    << campaign.seed << ".." << campaign.seed + kPrograms - 1
                                    << ": teach isa/systolic/random_program.cpp its operands";
  }
}

// ---------------------------------------------------------------- hardware configurations
class HwConfigFiles : public ::testing::Test {
 protected:
  std::filesystem::path write(const std::string& name, const std::string& text) {
    auto dir = std::filesystem::temp_directory_path() / "kcraft_hwcfg_test";
    std::filesystem::create_directories(dir);
    auto path = dir / name;
    std::ofstream(path) << text;
    return path;
  }
  static std::string error_of(const std::filesystem::path& f) {
    try {
      (void)Params::from_config(load_hw_config(f));
    } catch (const ConfigError& e) {
      return e.what();
    }
    return "";
  }
};

TEST_F(HwConfigFiles, ShippedConfigurationsAreValid) {
  for (const auto& c : testing::platform().hw_configs()) EXPECT_NO_THROW(Params::from_config(c)) << c.name;
  EXPECT_EQ(testing::platform().params("default").mlen, 16u);
  EXPECT_EQ(testing::platform().params("small").mlen, 8u);
}

TEST_F(HwConfigFiles, BrokenFilesNameTheFileAndField) {
  const std::string base =
      "platform: systolic\nname: t\nbuild: {MLEN: 16, VLEN: 16, BLEN: 4, IMEM_WORDS: 1024, "
      "VSRAM_ROWS: 1024, MSRAM_ROWS: 256, ACC_ROWS: 64, FPSRAM_WORDS: 16, LOOP_DEPTH: 4, "
      "DMA_SLOTS: 4, DMA_OUTSTANDING: 8}\n";
  EXPECT_EQ(error_of(write("ok.yaml", base)), "");
  auto f = write("vlen.yaml", "platform: systolic\nname: t\nbuild: {MLEN: 16, VLEN: 8}\n");
  EXPECT_NE(error_of(f).find("vlen.yaml: build.VLEN: must equal MLEN"), std::string::npos) << error_of(f);
  f = write("pow2.yaml", std::string(base).replace(base.find("VSRAM_ROWS: 1024"), 16, "VSRAM_ROWS: 1000"));
  EXPECT_NE(error_of(f).find("pow2.yaml: build.VSRAM_ROWS: 1000 is not a power of two"), std::string::npos)
      << error_of(f);
  f = write("text.yaml", std::string(base).replace(base.find("BLEN: 4"), 7, "BLEN: four"));
  EXPECT_NE(error_of(f).find("text.yaml: build.BLEN: expected an integer, got 'four'"), std::string::npos)
      << error_of(f);
  f = write("missing.yaml", "platform: systolic\nname: t\nbuild: {MLEN: 16, VLEN: 16}\n");
  EXPECT_NE(error_of(f).find("missing.yaml: build.BLEN: missing"), std::string::npos) << error_of(f);
  f = write("unknown.yaml", base + "bild: 3\n");
  EXPECT_NE(error_of(f).find("unknown.yaml: bild: unknown field"), std::string::npos) << error_of(f);
  f = write("syntax.yaml", "platform: [systolic\n");
  EXPECT_NE(error_of(f).find("syntax.yaml:"), std::string::npos) << error_of(f);
  EXPECT_NE(error_of(f).find("YAML syntax error"), std::string::npos) << error_of(f);
}

}  // namespace
}  // namespace kcraft::systolic
