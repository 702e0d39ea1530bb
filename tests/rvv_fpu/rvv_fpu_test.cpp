// rtl/rvv/rvv_fpu.sv (Verilated) against the host's IEEE 754 binary32 hardware (rvv_fpu_ref.cpp), bit
// for bit on results and fflags: for every operation and every rounding mode, the 48 special values
// crossed with each other (all pairs; all 48^3 triples for the FMAs) and kRandomPerOp random operand
// sets per operation (rounding modes in turn); plus the handshake and the documented latencies.
#include <gtest/gtest.h>

#include <cstdio>
#include <string>
#include <vector>

#include KCRAFT_RVV_FPU_MODEL_HEADER
#include "tests/rvv_fpu/rvv_fpu_harness.h"

namespace kcraft::rvv_fpu {
namespace {

using Model = KCRAFT_RVV_FPU_MODEL;

constexpr int kBitsPerCycle = KCRAFT_RVV_FPU_BITS_PER_CYCLE;
// The recurrence iterations plus the accepting edge (rtl/rvv/rvv_fpu.sv).
constexpr int kDivSqrtLatency = (28 + kBitsPerCycle - 1) / kBitsPerCycle + 1;
#ifdef KCRAFT_RVV_FPU_RANDOM_PER_OP
constexpr int kRandomPerOp = KCRAFT_RVV_FPU_RANDOM_PER_OP;
#else
constexpr int kRandomPerOp = 200000;
#endif

std::string describe(Op op, Rm rm, uint32_t a, uint32_t b, uint32_t c, Result got, Result want) {
  char text[200];
  std::snprintf(text, sizeof text, "%s rm=%d a=%08x b=%08x c=%08x: rtl %08x flags %02x, ref %08x flags %02x",
                std::string(op_name(op)).c_str(), static_cast<int>(rm), a, b, c, got.value, got.flags,
                want.value, want.flags);
  return text;
}

class Checker {
 public:
  void check(Op op, Rm rm, uint32_t a, uint32_t b, uint32_t c) {
    const Result got = dut_.run(op, rm, a, b, c);
    const Result want = reference(op, rm, a, b, c);
    ++cases_;
    if (!(got == want)) {
      if (++failures_ <= 20) ADD_FAILURE() << describe(op, rm, a, b, c, got, want);
    }
  }
  long cases() const { return cases_; }
  long failures() const { return failures_; }
  Dut<Model>& dut() { return dut_; }

 private:
  Dut<Model> dut_;
  long cases_ = 0;
  long failures_ = 0;
};

std::vector<Rm> modes(Op op) {
  if (!uses_rounding_mode(op)) return {kRne};
  return {kRne, kRtz, kRdn, kRup, kRmm};
}

class RvvFpuOp : public ::testing::TestWithParam<Op> {};

TEST_P(RvvFpuOp, SpecialValuesCrossed) {
  const Op op = GetParam();
  Checker checker;
  const int n = operand_count(op);
  const auto& values = special_values();
  std::vector<uint32_t> first = values;
  if (reads_integer(op)) {
    first = {0u, 1u, 0xffffffffu, 0x7fffffffu, 0x80000000u, 0x80000001u, 0x00ffffffu, 0x01000000u,
             0x01000001u, 0x01000003u, 0xfeffffffu, 0x7fffffc0u, 0x7fffffbfu, 0xffffff80u, 0x12345678u};
  }
  for (Rm rm : modes(op)) {
    for (uint32_t a : first) {
      if (n == 1) {
        checker.check(op, rm, a, 0, 0);
        continue;
      }
      for (uint32_t b : values) {
        if (n == 2) {
          checker.check(op, rm, a, b, 0);
          continue;
        }
        for (uint32_t c : values) checker.check(op, rm, a, b, c);
      }
    }
  }
  std::printf("%s: %ld special cases, %ld mismatches\n", std::string(op_name(op)).c_str(), checker.cases(),
              checker.failures());
  EXPECT_EQ(checker.failures(), 0);
}

TEST_P(RvvFpuOp, Random) {
  const Op op = GetParam();
  Checker checker;
  OperandGenerator gen(0x5eed0000u + static_cast<uint32_t>(op));
  const std::vector<Rm> rms = modes(op);
  for (int i = 0; i < kRandomPerOp; ++i) {
    uint32_t a, b, c;
    random_operands(gen, op, &a, &b, &c);
    checker.check(op, rms[static_cast<size_t>(i) % rms.size()], a, b, c);
  }
  std::printf("%s: %ld random cases, %ld mismatches\n", std::string(op_name(op)).c_str(), checker.cases(),
              checker.failures());
  EXPECT_EQ(checker.failures(), 0);
}

std::vector<Op> all_ops() {
  std::vector<Op> ops;
  for (int i = 0; i < static_cast<int>(Op::kCount); ++i) ops.push_back(static_cast<Op>(i));
  return ops;
}

// A variant with another divider parameter only needs the operations that parameter changes.
std::vector<Op> tested_ops() {
#if KCRAFT_RVV_FPU_DIVSQRT_ONLY
  return {Op::kDiv, Op::kSqrt};
#else
  return all_ops();
#endif
}

INSTANTIATE_TEST_SUITE_P(Ops, RvvFpuOp, ::testing::ValuesIn(tested_ops()),
                         [](const ::testing::TestParamInfo<Op>& param_info) { return std::string(op_name(param_info.param)); });

// The documented latencies: 1 for everything but FDIV/FSQRT, ceil(28 / bits per cycle) + 1 for those
// (whatever the operands: specials take as long), with in_ready_o low meanwhile.
TEST(RvvFpuTiming, Latencies) {
  Dut<Model> dut;
  for (Op op : all_ops()) {
    for (uint32_t a : {0x3f800000u, 0x7fc00000u, 0x00000001u, 0x00000000u}) {
      int latency = 0;
      dut.run(op, kRne, a, 0x40400000u, 0x3f800000u, &latency);
      const int want = (op == Op::kDiv || op == Op::kSqrt) ? kDivSqrtLatency : 1;
      EXPECT_EQ(latency, want) << op_name(op) << " a=" << std::hex << a;
    }
  }
}

TEST(RvvFpuTiming, DivideStallsInput) {
  Dut<Model> dut;
  auto& m = dut.model();
  m.in_valid_i = 1;
  m.op_i = static_cast<uint8_t>(Op::kDiv);
  m.rm_i = kRne;
  m.a_i = 0x3f800000u;  // 1 / 3
  m.b_i = 0x40400000u;
  m.eval();
  ASSERT_TRUE(m.in_ready_o);
  dut.edge();
  // A second operation is held off until the quotient is out.
  m.op_i = static_cast<uint8_t>(Op::kAdd);
  m.a_i = 0x3f800000u;
  m.b_i = 0x3f800000u;
  m.eval();
  int edges = 1;
  while (!m.out_valid_o) {
    EXPECT_FALSE(m.in_ready_o) << "edge " << edges;
    dut.edge();
    ++edges;
  }
  EXPECT_EQ(edges, kDivSqrtLatency);
  EXPECT_EQ(m.result_o, 0x3eaaaaabu);
  EXPECT_TRUE(m.in_ready_o);  // the add is accepted on the next edge
  dut.edge();
  m.in_valid_i = 0;
  m.eval();
  EXPECT_TRUE(m.out_valid_o);
  EXPECT_EQ(m.result_o, 0x40000000u);
}

TEST(RvvFpuTiming, ResultHoldsAfterValid) {
  // result_o/flags_o keep the last result, whichever unit produced it, until the next one.
  Dut<Model> dut;
  auto& m = dut.model();
  dut.run(Op::kAdd, kRne, 0x3f800000u, 0x3f800000u, 0);
  const Result quotient = dut.run(Op::kDiv, kRne, 0x3f800000u, 0x40400000u, 0);
  EXPECT_EQ(quotient.value, 0x3eaaaaabu);
  EXPECT_EQ(quotient.flags, kNx);
  for (int i = 0; i < 3; ++i) {
    dut.edge();
    EXPECT_FALSE(m.out_valid_o);
    EXPECT_EQ(m.result_o, 0x3eaaaaabu);
    EXPECT_EQ(m.flags_o, kNx);
  }
  dut.run(Op::kMul, kRne, 0x40000000u, 0x40400000u, 0);
  dut.edge();
  EXPECT_EQ(m.result_o, 0x40c00000u);
  EXPECT_EQ(m.flags_o, 0u);
}

// The reserved rounding-mode encodings 5..7 (which the core traps before issue) round like RNE.
TEST(RvvFpuRoundingMode, ReservedEncodingsRoundToNearestEven) {
  Dut<Model> dut;
  OperandGenerator gen(7);
  long mismatches = 0;
  for (int i = 0; i < 20000; ++i) {
    const Op op = static_cast<Op>(gen.below(static_cast<uint32_t>(Op::kCount)));
    uint32_t a, b, c;
    random_operands(gen, op, &a, &b, &c);
    const Result want = reference(op, kRne, a, b, c);
    for (int rm = 5; rm <= 7; ++rm) {
      const Result got = dut.run(op, static_cast<Rm>(rm), a, b, c);
      if (!(got == want) && ++mismatches <= 10) {
        ADD_FAILURE() << describe(op, static_cast<Rm>(rm), a, b, c, got, want);
      }
    }
  }
  EXPECT_EQ(mismatches, 0);
}

TEST(RvvFpuTiming, SimpleOpsBackToBack) {
  // One simple operation per cycle: each result is out the cycle after its accepting edge.
  Dut<Model> dut;
  auto& m = dut.model();
  for (uint32_t i = 0; i < 8; ++i) {
    m.in_valid_i = 1;
    m.op_i = static_cast<uint8_t>(Op::kCvtSWu);
    m.rm_i = kRne;
    m.a_i = i;
    m.eval();
    ASSERT_TRUE(m.in_ready_o);
    dut.edge();
    EXPECT_TRUE(m.out_valid_o);
    EXPECT_EQ(m.result_o, reference(Op::kCvtSWu, kRne, i, 0, 0).value);
  }
  m.in_valid_i = 0;
  dut.edge();
  EXPECT_FALSE(m.out_valid_o);
}

}  // namespace
}  // namespace kcraft::rvv_fpu
