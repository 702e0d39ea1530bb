// RTL (rtl/common/kc_fp_pkg.sv through tests/arith/fp_bench_top.sv, Verilated) == C++ ref, bit for bit,
// on >= 10^6 edge-biased random vectors per function. When yosys is available the same comparison runs on
// the netlist yosys elaborates from the package, which shows yosys reads the package as Verilator does.
#include <gtest/gtest.h>

#include <cstdint>
#include <functional>
#include <memory>
#include <string>

#include "Vfp_bench.h"
#include "isa/common/arith/fp_arith.h"
#include "tests/arith/arith_test_util.h"
#include "verilated.h"
#if KCRAFT_ARITH_HAVE_YOSYS_NETLIST
#include "Vfp_bench_yosys.h"
#endif

namespace kcraft::arith {
namespace {

using testing::EdgeCaseGenerator;

// Opcodes of fp_bench_top.sv.
enum class Op : uint8_t {
  kAdd = 0,
  kSub,
  kMul,
  kMax,
  kMin,
  kExp,
  kReci,
  kRsqrt,
  kSqrt,
  kBf16ToFp32,
  kFp32ToBf16,
  kInt32ToFp32,
  kBf16Mul,
  kBf16Mac,
  kCount
};

F32 reference(Op op, F32 a, F32 b) {
  switch (op) {
    case Op::kAdd:
      return ref::fp32_add(a, b);
    case Op::kSub:
      return ref::fp32_sub(a, b);
    case Op::kMul:
      return ref::fp32_mul(a, b);
    case Op::kMax:
      return ref::fp32_max(a, b);
    case Op::kMin:
      return ref::fp32_min(a, b);
    case Op::kExp:
      return ref::fp32_exp(a);
    case Op::kReci:
      return ref::fp32_reci(a);
    case Op::kRsqrt:
      return ref::fp32_rsqrt(a);
    case Op::kSqrt:
      return ref::fp32_sqrt(a);
    case Op::kBf16ToFp32:
      return ref::bf16_to_fp32(static_cast<Bf16>(a));
    case Op::kFp32ToBf16:
      return ref::fp32_to_bf16(a);
    case Op::kInt32ToFp32:
      return ref::int32_to_fp32(static_cast<int32_t>(a));
    case Op::kBf16Mul:
      return ref::bf16_mul(static_cast<Bf16>(a), static_cast<Bf16>(b));
    case Op::kBf16Mac:  // a + lo(b) * hi(b), as kc_fp_pkg::bf16_mac
      return ref::fp32_add(a, ref::bf16_mul(static_cast<Bf16>(b & 0xFFFFu), static_cast<Bf16>(b >> 16)));
    case Op::kCount:
      break;
  }
  return 0;
}

bool is_bf16_input(Op op) {
  return op == Op::kBf16ToFp32 || op == Op::kBf16Mul;
}

// Operands for one vector: edge-biased FP32 pairs; for BF16 inputs the high half of an edge-biased FP32
// (so BF16 specials, subnormals and exponent extremes appear) or random bits; for int32 random magnitudes
// of every size.
std::pair<F32, F32> operands(Op op, EdgeCaseGenerator& gen) {
  if (op == Op::kInt32ToFp32) return {static_cast<F32>(static_cast<int32_t>(gen.bits()) >> gen.below(32)), 0};
  auto [a, b] = gen.pair();
  if (op == Op::kBf16Mac) {  // the accumulator a, the factors from the high halves of b and a third value
    const F32 c = gen.pair().first;
    const F32 lo = gen.below(2) != 0 ? b >> 16 : gen.bits() & 0xFFFFu;
    const F32 hi = gen.below(2) != 0 ? c >> 16 : gen.bits() & 0xFFFFu;
    return {a, lo | (hi << 16)};
  }
  if (is_bf16_input(op)) {
    a = gen.below(2) != 0 ? a >> 16 : gen.bits() & 0xFFFFu;
    b = gen.below(2) != 0 ? b >> 16 : gen.bits() & 0xFFFFu;
  }
  return {a, b};
}

template <typename Model>
void compare_all_ops(Model& model, int vectors_per_op, uint64_t seed) {
  for (int op_index = 0; op_index < static_cast<int>(Op::kCount); ++op_index) {
    const auto op = static_cast<Op>(op_index);
    EdgeCaseGenerator gen(seed + static_cast<uint64_t>(op_index));
    model.op_i = static_cast<uint8_t>(op_index);
    for (int i = 0; i < vectors_per_op; ++i) {
      const auto [a, b] = operands(op, gen);
      model.a_i = a;
      model.b_i = b;
      model.eval();
      const F32 expected = reference(op, a, b);
      ASSERT_EQ(model.result_o, expected) << "op " << op_index << std::hex << " a=0x" << a << " b=0x" << b
                                          << " (vector " << std::dec << i << ")";
    }
  }
}

TEST(RtlVsCpp, AllFunctionsOnAMillionVectorsEach) {
  auto context = std::make_unique<VerilatedContext>();
  Vfp_bench model(context.get());
  compare_all_ops(model, 1'000'000, 100);
}

// bf16_mac's short path against the general functions where they interact: accumulators near the
// product (cancellation, a sign away from it, a half-ulp tie) and at every alignment shift from 0 to 40.
TEST(RtlVsCpp, Bf16MacAroundTheProduct) {
  auto context = std::make_unique<VerilatedContext>();
  Vfp_bench model(context.get());
  model.op_i = static_cast<uint8_t>(Op::kBf16Mac);
  EdgeCaseGenerator gen(300);
  for (int i = 0; i < 4'000'000; ++i) {
    const auto [x, y] = gen.pair();
    const F32 lo = gen.below(4) != 0 ? x >> 16 : gen.bits() & 0xFFFFu;
    const F32 hi = gen.below(4) != 0 ? y >> 16 : gen.bits() & 0xFFFFu;
    const F32 p = ref::bf16_mul(static_cast<Bf16>(lo), static_cast<Bf16>(hi));
    const uint32_t ep = (p >> 23) & 0xFFu;
    F32 c = 0;
    switch (gen.below(5)) {
      case 0:  // -p plus a few ulps: cancellation
        c = (p ^ 0x80000000u) + gen.below(64) - 32;
        break;
      case 1:  // p plus a few ulps
        c = p + gen.below(64) - 32;
        break;
      case 2: {  // any sign, exponent within 40 of the product's, random or short significand
        const uint32_t e = ep + gen.below(81) - 40;
        c = (gen.bits() & 0x807FFFFFu) | ((e & 0xFFu) << 23);
        if (gen.below(2) != 0) c = gen.short_significand(c);
        break;
      }
      case 3: {  // a half-ulp of the accumulator (or of the product) away: exact ties
        const uint32_t e = ep > 24 ? ep - 24 + gen.below(3) : gen.below(4);
        c = (gen.bits() & 0x80000000u) | (e << 23) | (gen.below(2) != 0 ? 1u : 0u);
        if (gen.below(2) != 0) c |= gen.bits() & 0x007F0000u;
        break;
      }
      default:
        c = gen.operand();
        break;
    }
    model.a_i = c;
    model.b_i = lo | (hi << 16);
    model.eval();
    ASSERT_EQ(model.result_o, ref::fp32_add(c, p))
        << std::hex << "c=0x" << c << " a=0x" << lo << " b=0x" << hi << " (vector " << std::dec << i << ")";
  }
}

TEST(RtlVsCpp, UnusedOpcodesGiveZero) {
  auto context = std::make_unique<VerilatedContext>();
  Vfp_bench model(context.get());
  for (uint8_t op = static_cast<uint8_t>(Op::kCount); op < 16; ++op) {
    model.op_i = op;
    model.a_i = 0x3F800000u;
    model.b_i = 0x3F800000u;
    model.eval();
    EXPECT_EQ(model.result_o, 0u) << int{op};
  }
}

#if KCRAFT_ARITH_HAVE_YOSYS_NETLIST
// The netlist evaluates every function on each eval(), so it gets fewer vectors.
TEST(RtlVsCpp, YosysNetlistMatchesReference) {
  auto context = std::make_unique<VerilatedContext>();
  Vfp_bench_yosys model(context.get());
  compare_all_ops(model, 100'000, 200);
}
#endif

}  // namespace
}  // namespace kcraft::arith
