// Drives the Verilated rvv_fpu (one operation at a time) and generates operands: the special values
// crossed with each other, and random operands with random exponents.
#pragma once

#include <cstdint>
#include <cstring>
#include <memory>
#include <random>
#include <vector>

#include "tests/rvv_fpu/rvv_fpu_ref.h"
#include "verilated.h"

namespace kcraft::rvv_fpu {

// Special binary32 values: signed zeros, min/max subnormal, min/max normal, one and its neighbours,
// infinities, quiet/signalling NaNs with payloads and both signs, and values at the integer-conversion
// and rounding boundaries (2^23, 2^24, 2^31, 2^32 and their neighbours, halves).
inline const std::vector<uint32_t>& special_values() {
  static const std::vector<uint32_t> kValues = {
      0x00000000, 0x80000000, 0x00000001, 0x80000001, 0x00000003, 0x007fffff, 0x807fffff, 0x00400000,
      0x00800000, 0x80800000, 0x00800001, 0x7f7fffff, 0xff7fffff, 0x7f000000, 0x3f800000, 0xbf800000,
      0x3f800001, 0x3f7fffff, 0x3fffffff, 0x3f000000, 0xbf000000, 0x3fc00000, 0x40200000, 0xc0200000,
      0x3effffff, 0x33800000, 0x34000000, 0x4b000000, 0x4b7fffff, 0x4b800000, 0x4effffff, 0x4f000000,
      0xcf000000, 0xcf000001, 0x4f7fffff, 0x4f800000, 0x7f800000, 0xff800000, 0x7fc00000, 0xffc00000,
      0x7fc12345, 0x7f800001, 0xffa00000, 0x7fbfffff, 0x40400000, 0x0d800000, 0x1f800000, 0x5f800000};
  return kValues;
}

class OperandGenerator {
 public:
  explicit OperandGenerator(uint64_t seed) : rng_(seed) {}
  uint32_t bits() { return static_cast<uint32_t>(rng_()); }
  uint32_t below(uint32_t n) { return static_cast<uint32_t>(rng_() % n); }

  // A float with a random sign, a random exponent (uniform, with extra weight on the subnormal,
  // overflow and infinity/NaN encodings and on exponents near the bias), and a random significand
  // (sometimes all ones or all zeros low bits, which sit on rounding boundaries).
  uint32_t value() {
    const uint32_t pick = below(16);
    if (pick == 0) return special_values()[below(static_cast<uint32_t>(special_values().size()))];
    uint32_t exp;
    if (pick == 1) exp = 0;
    else if (pick == 2) exp = 255;
    else if (pick <= 5) exp = 127 - 30 + below(61);
    else if (pick == 6) exp = below(2) ? below(8) : 254 - below(8);
    else exp = below(256);
    uint32_t mant = bits() & 0x7fffff;
    const uint32_t shape = below(8);
    if (shape == 0) mant |= (1u << below(23)) - 1;            // trailing ones
    else if (shape == 1) mant &= ~((1u << below(23)) - 1);    // trailing zeros
    return (bits() & 0x80000000u) | (exp << 23) | mant;
  }

  // A value that nearly cancels with x (c close to -a*b or b close to -a): a few ulps off, either sign.
  uint32_t near(uint32_t x) {
    const int32_t delta = static_cast<int32_t>(below(9)) - 4;
    uint32_t y = x + static_cast<uint32_t>(delta);
    if (below(2)) y ^= 0x80000000u;
    return y;
  }

  // An integer operand: random, small, or near the 2^24 / 2^31 boundaries.
  uint32_t integer() {
    switch (below(4)) {
      case 0: return bits();
      case 1: return bits() >> below(32);
      case 2: return (1u << (24 + below(8))) + static_cast<uint32_t>(static_cast<int32_t>(below(17)) - 8);
      default: return static_cast<uint32_t>(-static_cast<int32_t>(bits() >> below(32)));
    }
  }

 private:
  std::mt19937_64 rng_;
};

// Operands for one random case of op.
inline void random_operands(OperandGenerator& gen, Op op, uint32_t* a, uint32_t* b, uint32_t* c) {
  *a = reads_integer(op) ? gen.integer() : gen.value();
  *b = gen.value();
  *c = gen.value();
  const uint32_t shape = gen.below(4);
  if ((op == Op::kAdd || op == Op::kSub) && shape == 0) *b = gen.near(*a);
  const bool product_like = op == Op::kMul || op == Op::kDiv || operand_count(op) == 3;
  if (product_like && shape == 1) {
    // A result near the underflow (2^-126, subnormals) or overflow (2^128) boundary: a moderate a, and b
    // chosen so that a * b (or a / b) lands there, then nudged by a few ulps.
    const uint32_t exps[] = {0, 1, 2, 253, 254};
    const uint32_t target_bits = (exps[gen.below(5)] << 23) | (gen.below(2) ? 0x7fffffu : gen.bits() & 0x7fffffu);
    float t, x;
    std::memcpy(&t, &target_bits, 4);
    const uint32_t a_bits = (gen.bits() & 0x807fffffu) | ((127 - 20 + gen.below(41)) << 23);
    std::memcpy(&x, &a_bits, 4);
    const float y = op == Op::kDiv ? static_cast<float>(static_cast<double>(x) / t)
                                   : static_cast<float>(static_cast<double>(t) / x);
    uint32_t y_bits;
    std::memcpy(&y_bits, &y, 4);
    *a = a_bits;
    *b = gen.near(y_bits);
    if (operand_count(op) == 3) *c = gen.below(2) ? gen.near(target_bits) : (gen.bits() & 0x80ffffffu);
  }
  if (operand_count(op) == 3 && (shape == 0 || shape == 2)) {
    float x, y;
    std::memcpy(&x, a, 4);
    std::memcpy(&y, b, 4);
    const float p = x * y;
    uint32_t pb;
    std::memcpy(&pb, &p, 4);
    // shape 0: c near the rounded product, massive cancellation in the fused sum. shape 2: c within 2^+-45
    // of the product, any mantissa: every alignment the fused sum shifts an operand by (exact ones and
    // those that collapse low bits into a sticky bit) around the product's significand.
    if (shape == 0) {
      *c = gen.near(pb);
    } else {
      const int e = static_cast<int>((pb >> 23) & 0xffu) - 45 + static_cast<int>(gen.below(91));
      if (e >= 1 && e <= 254) *c = (gen.bits() & 0x807fffffu) | (static_cast<uint32_t>(e) << 23);
    }
  }
}

// Runs operations on a Verilated rvv_fpu (Model is Vrvv_fpu or a parameter variant).
template <typename Model>
class Dut {
 public:
  Dut() : context_(std::make_unique<VerilatedContext>()), model_(std::make_unique<Model>(context_.get())) {
    model_->clk_i = 0;
    model_->rst_ni = 0;
    model_->in_valid_i = 0;
    model_->eval();
    model_->rst_ni = 1;
    model_->eval();
  }

  void edge() {
    model_->clk_i = 1;
    model_->eval();
    model_->clk_i = 0;
    model_->eval();
  }

  // Issues one operation (waiting for in_ready_o) and returns its result; *latency gets the number of
  // rising edges from the accepting one to the one after which out_valid_o was high.
  Result run(Op op, Rm rm, uint32_t a, uint32_t b, uint32_t c, int* latency = nullptr) {
    while (!model_->in_ready_o) edge();
    model_->in_valid_i = 1;
    model_->op_i = static_cast<uint8_t>(op);
    model_->rm_i = rm;
    model_->a_i = a;
    model_->b_i = b;
    model_->c_i = c;
    model_->eval();
    edge();
    model_->in_valid_i = 0;
    model_->eval();
    int edges = 1;
    while (!model_->out_valid_o) {
      edge();
      ++edges;
      if (edges > 1000) return {0xdeadbeef, 0xff};
    }
    if (latency) *latency = edges;
    return {model_->result_o, model_->flags_o};
  }

  Model& model() { return *model_; }

 private:
  std::unique_ptr<VerilatedContext> context_;
  std::unique_ptr<Model> model_;
};

}  // namespace kcraft::rvv_fpu
