#include "isa/systolic/random_program.h"

#include <algorithm>
#include <cmath>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include "isa/common/arith/fp_arith.h"
#include "systolic_isa.h"

namespace kcraft::systolic {

namespace {

namespace sy = isa::systolic;
using sy::Op;

// Register roles: r1..r8 hold row numbers inside the window, r9..r11 are free integers, r12 the window
// mask, r13 a DRAM address, r14 a DMA stride, r15 a loop count.
constexpr unsigned kRowRegs = 8;
constexpr unsigned kMaskReg = 12, kAddrReg = 13, kStrideReg = 14, kCountReg = 15;

// The element-wise vector instructions, by operand shape, in the order of isa/systolic.yaml. They come
// from the generated ISA table, so an instruction added to the YAML in one of these shapes joins the
// random campaign with no change here (docs/extending.md); model_test's
// RandomCampaignUsesEveryInstruction names any instruction the generator does not produce.
struct VectorOpsByShape {
  std::vector<Op> vv;  // d, a, b, off
  std::vector<Op> vf;  // d, a, fs, off
  std::vector<Op> v1;  // d, a, off
};

const VectorOpsByShape& vector_ops_by_shape() {
  static const VectorOpsByShape ops = [] {
    VectorOpsByShape by_shape;
    for (const isa::InstructionSpec& insn : sy::spec().instructions) {
      if (insn.unit != "vector") continue;
      std::string fields;
      for (const isa::OperandSpec& operand : insn.operands) fields += operand.field_name + " ";
      const auto op = static_cast<Op>(insn.opcode);
      if (fields == "rd rs1 rs2 off9 ") {
        by_shape.vv.push_back(op);
      } else if (fields == "rd rs1 fs off9 ") {
        by_shape.vf.push_back(op);
      } else if (fields == "rd rs1 off9 ") {
        by_shape.v1.push_back(op);
      }
    }
    // The generator draws from each group: the ISA without one is not the ISA this generator knows.
    if (by_shape.vv.empty() || by_shape.vf.empty() || by_shape.v1.empty()) {
      throw std::logic_error("isa/systolic.yaml lost an element-wise vector instruction shape");
    }
    return by_shape;
  }();
  return ops;
}

// Opcodes isa/systolic.yaml does not define (0 among them: the word after a program's end), and the
// instructions with reserved bits, for illegal words.
const std::vector<uint32_t>& unknown_opcodes() {
  static const std::vector<uint32_t> opcodes = [] {
    std::vector<uint32_t> out;
    for (uint32_t op = 0; op < (1u << sy::kOpcode.width); ++op) {
      if (sy::op_name(static_cast<uint8_t>(op)) == nullptr) out.push_back(op);
    }
    return out;
  }();
  return opcodes;
}

const std::vector<Op>& ops_with_reserved_bits() {
  static const std::vector<Op> ops = [] {
    std::vector<Op> out;
    for (Op op : sy::kAllOps) {
      if (sy::reserved_mask(static_cast<uint8_t>(op)) != 0) out.push_back(op);
    }
    return out;
  }();
  return ops;
}

class Gen {
 public:
  Gen(const Params& p, uint64_t seed, const RandomProgramOptions& o) : p_(p), o_(o), rng_(seed) {
    for (ErrorCode kind : o_.faults) {
      if (kind == ErrorCode::kNone || find_error(static_cast<unsigned>(kind)) == nullptr)
        throw std::invalid_argument("random_program: a deliberate fault must be an error kind, not none");
    }
  }

  RandomProgram build(uint64_t seed) {
    RandomProgram out;
    out.seed = seed;
    dram_bytes_ = 4 * o_.row_window * p_.row_bytes() + 4096;
    out.dram.resize(dram_bytes_);
    for (size_t i = 0; i + 1 < out.dram.size(); i += 2) {
      const uint16_t v = random_bf16();
      out.dram[i] = static_cast<uint8_t>(v & 0xFF);
      out.dram[i + 1] = static_cast<uint8_t>(v >> 8);
    }
    prologue();
    const bool fault = chance(o_.fault_rate);
    // With fault_from 0 this is the original draw, pick(length).
    const auto first = std::min(static_cast<unsigned>(std::clamp(o_.fault_from, 0.0, 1.0) * o_.length),
                                o_.length == 0 ? 0 : o_.length - 1);
    const unsigned fault_at = fault ? first + pick(o_.length - first) : ~0u;
    for (unsigned i = 0; i < o_.length; ++i) {
      if (i == fault_at) {
        if (o_.faults.empty()) {
          emit_original_fault();
        } else {
          emit_fault(o_.faults[pick(static_cast<unsigned>(o_.faults.size()))]);
        }
        continue;
      }
      if (chance(0.06) && i + 8 < o_.length) {
        emit_loop(1);
        continue;
      }
      emit_random();
    }
    emit(R(Op::C_HALT));
    out.words = words_;
    return out;
  }

 private:
  bool chance(double p) { return std::uniform_real_distribution<double>(0, 1)(rng_) < p; }
  unsigned pick(unsigned n) { return n == 0 ? 0 : static_cast<unsigned>(rng_() % n); }
  unsigned row_reg() { return 1 + pick(kRowRegs); }
  unsigned any_freg() { return pick(16); }
  unsigned dest_freg() { return 1 + pick(15); }

  uint16_t random_bf16() {
    const unsigned kind = pick(40);
    switch (kind) {
      case 0:
        return 0x0000;
      case 1:
        return 0x8000;
      case 2:
        return 0x7F80;  // +inf
      case 3:
        return 0xFF80;  // -inf
      case 4:
        return static_cast<uint16_t>(0x7FC1 + pick(0x3E));  // NaN with a payload
      case 5:
        return static_cast<uint16_t>(pick(0x7F) + 1);  // subnormal pattern
      case 6:
        return static_cast<uint16_t>(0x7F00 + pick(0x7F));  // near overflow
      default: {
        std::normal_distribution<double> d(0.0, 2.0);
        return arith::double_to_bf16(d(rng_));
      }
    }
  }

  static uint32_t R(Op op) { return static_cast<uint32_t>(op); }
  static uint32_t with(uint32_t w, sy::Field f, uint32_t v) { return isa::insert(w, f, v); }
  void emit(uint32_t w) { words_.push_back(w); }

  void load_int(unsigned reg, uint32_t value) {
    emit(with(with(R(Op::S_LUI), sy::kRd, reg), sy::kImm16, value >> 16));
    emit(with(with(with(R(Op::S_ORI), sy::kRd, reg), sy::kRs1, reg), sy::kImm17, value & 0xFFFF));
  }

  void load_fp(unsigned reg, uint32_t bits) {
    emit(with(with(R(Op::S_LUI_FP), sy::kRd, reg), sy::kImm16, bits >> 16));
    if (bits & 0xFFFF) emit(with(with(R(Op::S_LLI_FP), sy::kRd, reg), sy::kImm16, bits & 0xFFFF));
  }

  void prologue() {
    for (unsigned r = 1; r <= kRowRegs; ++r) load_int(r, pick(o_.row_window));
    for (unsigned r = 9; r <= 11; ++r) load_int(r, static_cast<uint32_t>(rng_()));
    load_int(kMaskReg, o_.row_window - 1);
    load_int(kAddrReg, 0);
    load_int(kStrideReg, p_.row_bytes());
    load_int(kCountReg, 1 + pick(3));
    for (unsigned f = 1; f < 16; ++f) {
      const uint32_t bits = chance(0.8) ? (uint32_t{random_bf16()} << 16) | (chance(0.5) ? pick(0x10000) : 0)
                                        : static_cast<uint32_t>(rng_());
      load_fp(f, bits);
    }
  }

  // Keeps a row register inside the window after arithmetic on it.
  void clamp_row(unsigned reg) {
    emit(with(with(with(R(Op::S_AND), sy::kRd, reg), sy::kRs1, reg), sy::kRs2, kMaskReg));
  }

  uint32_t vector_op(Op op) {
    uint32_t w = R(op);
    w = with(w, sy::kRd, row_reg());
    w = with(w, sy::kRs1, row_reg());
    w = with(w, sy::kRs2, row_reg());
    w = with(w, sy::kOff9, pick(4));
    return w;
  }

  void emit_random() {
    const unsigned cls = pick(100);
    if (cls < 22) {  // scalar integer
      static const Op ops[] = {Op::S_ADD, Op::S_SUB,  Op::S_MUL, Op::S_AND,  Op::S_OR,   Op::S_XOR, Op::S_SLL,
                               Op::S_SRL, Op::S_ADDI, Op::S_ORI, Op::S_SLLI, Op::S_SRLI, Op::S_LUI};
      const Op op = ops[pick(std::size(ops))];
      const bool row_target = chance(0.5);
      const unsigned rd = row_target ? row_reg() : 9 + pick(3);
      uint32_t w = with(R(op), sy::kRd, rd);
      w = with(w, sy::kRs1, pick(16));
      w = with(w, sy::kRs2, pick(16));
      if (op == Op::S_ADDI || op == Op::S_ORI || op == Op::S_SLLI || op == Op::S_SRLI) {
        w = with(w, sy::kImm17,
                 op == Op::S_ADDI ? pick(1u << 17) : (op == Op::S_ORI ? pick(1u << 16) : pick(32)));
      }
      if (op == Op::S_LUI) w = with(R(op), sy::kRd, rd) | (pick(1u << 16) << 16);
      emit(w);
      if (row_target) clamp_row(rd);
      return;
    }
    if (cls < 40) {  // scalar FP
      static const Op ops[] = {Op::S_ADD_FP, Op::S_SUB_FP,  Op::S_MUL_FP,  Op::S_MAX_FP,   Op::S_MIN_FP,
                               Op::S_EXP_FP, Op::S_RECI_FP, Op::S_SQRT_FP, Op::S_RSQRT_FP, Op::S_LUI_FP,
                               Op::S_LLI_FP, Op::S_LD_FP,   Op::S_ST_FP,   Op::S_ITOF};
      const Op op = ops[pick(std::size(ops))];
      uint32_t w = with(R(op), sy::kRd, op == Op::S_ST_FP ? any_freg() : dest_freg());
      if (op == Op::S_LUI_FP || op == Op::S_LLI_FP) {
        w = with(w, sy::kImm16, pick(1u << 16));
      } else if (op == Op::S_LD_FP || op == Op::S_ST_FP) {
        w = with(with(w, sy::kRs1, 0), sy::kImm17, pick(p_.fpsram_words));
      } else if (op == Op::S_ITOF) {
        w = with(w, sy::kRs1, pick(16));
      } else {
        w = with(with(w, sy::kRs1, any_freg()), sy::kRs2, any_freg());
        if (op == Op::S_EXP_FP || op == Op::S_RECI_FP || op == Op::S_SQRT_FP || op == Op::S_RSQRT_FP) {
          w = with(w, sy::kRs2, 0);  // unary: rs2 is reserved
        }
      }
      emit(w);
      return;
    }
    if (cls < 70) {  // vector
      const VectorOpsByShape& ops = vector_ops_by_shape();
      auto any_of = [&](const std::vector<Op>& shape) {
        return shape[pick(static_cast<unsigned>(shape.size()))];
      };
      const unsigned k = pick(5);
      uint32_t w = 0;
      if (k == 0) {
        w = vector_op(any_of(ops.vv));
        w = with(w, sy::kFs, 0);
      } else if (k == 1 && p_.has_v_mul_vfv && chance(0.2)) {
        // The optional fused multiply, on hardware that has it only (hardware without it gets the same
        // programs as before it existed): d, a, fs and b.
        w = with(vector_op(Op::V_MUL_VFV), sy::kFs, any_freg());
      } else if (k == 1) {
        w = with(with(vector_op(any_of(ops.vf)), sy::kRs2, 0), sy::kFs, any_freg());
      } else if (k == 2) {
        w = with(with(vector_op(any_of(ops.v1)), sy::kRs2, 0), sy::kFs, 0);
      } else if (k == 3) {
        static const Op red[] = {Op::V_RED_SUM, Op::V_RED_MAX, Op::V_RED_DOT};
        const Op op = red[pick(std::size(red))];
        w = with(with(vector_op(op), sy::kRd, 0), sy::kFs, dest_freg());
        if (op != Op::V_RED_DOT) w = with(w, sy::kRs2, 0);
      } else {
        w = with(with(with(vector_op(Op::V_BCAST_F), sy::kRs1, 0), sy::kRs2, 0), sy::kFs, any_freg());
      }
      emit(w);
      return;
    }
    if (cls < 85) {  // matrix
      const unsigned k = pick(6);
      if (k < 1) {
        uint32_t w = with(R(chance(0.5) ? Op::M_LDW : Op::M_LDWT), sy::kRs1, row_reg());
        emit(with(w, sy::kOff9, pick(4)));
      } else if (k < 4) {
        uint32_t w =
            with(with(R(chance(0.5) ? Op::M_MM : Op::M_MMA), sy::kRd, row_reg()), sy::kRs1, row_reg());
        emit(with(w, sy::kOff9, pick(4)));
      } else {
        uint32_t w = with(with(R(Op::M_WO), sy::kRd, row_reg()), sy::kRs1, row_reg());
        emit(with(w, sy::kOff9, pick(4)));
      }
      return;
    }
    if (cls < 97) {  // DMA: the DRAM address is a row of a window-sized region, stride 0..2 rows
      const unsigned src = row_reg();
      emit(with(with(with(R(Op::S_SLLI), sy::kRd, kAddrReg), sy::kRs1, src), sy::kImm17,
                static_cast<uint32_t>(std::log2(p_.row_bytes()))));
      if (chance(0.3))
        emit(with(with(R(Op::S_ADDI), sy::kRd, kStrideReg), sy::kImm17, p_.row_bytes() * pick(3)));
      static const Op ops[] = {Op::H_LOAD_V, Op::H_LOAD_M, Op::H_STORE_V};
      uint32_t w =
          with(with(with(R(ops[pick(3)]), sy::kRd, row_reg()), sy::kRs1, kAddrReg), sy::kRs2, kStrideReg);
      emit(with(w, sy::kImm13, 1 + pick(8)));
      return;
    }
    emit(R(chance(0.5) ? Op::C_NOP : Op::C_FENCE));
  }

  // A hardware loop of a few random instructions, possibly with one nested loop inside.
  void emit_loop(int depth) {
    const unsigned body = 2 + pick(5);
    const bool from_reg = chance(0.3);
    const size_t at = words_.size();
    emit(0);  // patched below once the body length is known
    for (unsigned i = 0; i < body; ++i) {
      if (depth < 2 && chance(0.15)) emit_loop(depth + 1);
      emit_random();  // also makes sure an inner body never ends with its enclosing body
    }
    const uint32_t len = static_cast<uint32_t>(words_.size() - at - 1);
    uint32_t w =
        from_reg ? with(R(Op::C_LOOP), sy::kRs1, kCountReg) : with(R(Op::C_LOOPI), sy::kCnt12, pick(4));
    words_[at] = with(w, sy::kImm13, len);
  }

  // The original fault mix (RandomProgramOptions::faults empty): unchanged, so that a seed's program is too.
  void emit_original_fault() {
    switch (pick(6)) {
      case 0:
        emit(0x0000007Fu);
        break;  // unknown opcode
      case 1:
        emit(R(Op::C_NOP) | (1u << 20));
        break;   // reserved bit set
      case 2: {  // VSRAM row out of range
        load_int(9, p_.vsram_rows - 1);
        emit(with(with(with(R(Op::V_ADD_VV), sy::kRd, 9), sy::kRs1, 1), sy::kOff9, 1 + pick(8)));
        break;
      }
      case 3: {  // DRAM range
        load_int(kAddrReg, dram_bytes_ - p_.row_bytes() / 2 * 2);
        emit(with(with(with(with(R(Op::H_LOAD_V), sy::kRd, 1), sy::kRs1, kAddrReg), sy::kRs2, kStrideReg),
                  sy::kImm13, 2));
        break;
      }
      case 4: {  // odd DRAM address
        load_int(kAddrReg, 3);
        emit(with(with(with(with(R(Op::H_STORE_V), sy::kRd, 1), sy::kRs1, kAddrReg), sy::kRs2, kStrideReg),
                  sy::kImm13, 1));
        break;
      }
      default: {  // accumulator range
        load_int(9, p_.acc_rows - 1);
        emit(with(with(R(Op::M_WO), sy::kRd, 1), sy::kRs1, 9));
        break;
      }
    }
  }

  static uint32_t loopi(uint32_t count, uint32_t body) {
    return with(with(R(Op::C_LOOPI), sy::kCnt12, count), sy::kImm13, body);
  }
  static uint32_t loop_on(unsigned count_reg, uint32_t body) {
    return with(with(R(Op::C_LOOP), sy::kRs1, count_reg), sy::kImm13, body);
  }
  // A loop that runs 1..3 times (r15 holds 1..3) or 0 times.
  uint32_t counted_loop(uint32_t body) {
    return chance(0.5) ? loopi(1 + pick(3), body) : loop_on(kCountReg, body);
  }
  uint32_t skipped_loop(uint32_t body) { return chance(0.5) ? loopi(0, body) : loop_on(0, body); }

  static uint32_t dma(Op op, unsigned sram_row_reg, unsigned addr_reg, unsigned stride_reg, uint32_t count) {
    return with(with(with(with(R(op), sy::kRd, sram_row_reg), sy::kRs1, addr_reg), sy::kRs2, stride_reg),
                sy::kImm13, count);
  }
  Op any_dma_op() {
    static const Op ops[] = {Op::H_LOAD_V, Op::H_LOAD_M, Op::H_STORE_V};
    return ops[pick(3)];
  }
  // A row number far beyond any SRAM, for the forms that show that rows do not wrap around.
  uint32_t near_2_to_32() { return 0xFFFFFFFFu - pick(8); }

  // One deliberate fault of `kind` (isa/systolic.yaml `errors:`), in one of its forms. Faults sit between
  // top-level instructions (no loop is active) and may overwrite r9; what follows never runs.
  void emit_fault(ErrorCode kind) {
    switch (kind) {
      case ErrorCode::kIllegalInsn:
        illegal_instruction();
        break;
      case ErrorCode::kPcRange:
        pc_out_of_range();
        break;
      case ErrorCode::kLoopNest:
        loop_nesting();
        break;
      case ErrorCode::kLoopOverflow:
        loop_stack_overflow();
        break;
      case ErrorCode::kVsramRange:
        vsram_out_of_range();
        break;
      case ErrorCode::kMsramRange:
        msram_out_of_range();
        break;
      case ErrorCode::kAccRange:
        acc_out_of_range();
        break;
      case ErrorCode::kFpsramRange:
        fpsram_out_of_range();
        break;
      case ErrorCode::kDramAlign:
        dram_misaligned();
        break;
      case ErrorCode::kDramRange:
        dram_out_of_range();
        break;
      case ErrorCode::kNone:
        break;
    }
  }

  void illegal_instruction() {
    switch (pick(4)) {
      case 0: {  // an unknown opcode, any other bits
        const std::vector<uint32_t>& opcodes = unknown_opcodes();
        emit(opcodes[pick(static_cast<unsigned>(opcodes.size()))] |
             (static_cast<uint32_t>(rng_()) << sy::kOpcode.width));
        break;
      }
      case 1: {  // one reserved bit set in an instruction's word
        const std::vector<Op>& ops = ops_with_reserved_bits();
        const Op op = ops[pick(static_cast<unsigned>(ops.size()))];
        const uint32_t reserved = sy::reserved_mask(static_cast<uint8_t>(op));
        std::vector<unsigned> bits;
        for (unsigned b = 0; b < 32; ++b) {
          if (reserved >> b & 1u) bits.push_back(b);
        }
        emit(R(op) | (1u << bits[pick(static_cast<unsigned>(bits.size()))]));
        break;
      }
      case 2:  // a loop body of 0 instructions
        emit(chance(0.5) ? loopi(pick(4), 0) : loop_on(kCountReg, 0));
        break;
      default:  // a DMA transfer of 0 rows
        emit(dma(any_dma_op(), row_reg(), kAddrReg, kStrideReg, 0));
        break;
    }
  }

  // A loop that runs 0 times continues after its end, which its body length (up to 8191) puts at
  // IMEM_WORDS or past it. In an IMEM too large for one such skip, skips over never-executed zero words come
  // first, each leaving room for the rest of the program.
  void pc_out_of_range() {
    constexpr int64_t kMaxBody = (int64_t{1} << sy::kImm13.width) - 1;
    // The body length that ends at the last word of IMEM.
    int64_t to_end = int64_t{p_.imem_words} - static_cast<int64_t>(words_.size()) - 1;
    while (to_end > kMaxBody) {
      const int64_t hop = std::min(kMaxBody, to_end - kMaxBody / 2);
      emit(skipped_loop(static_cast<uint32_t>(hop)));
      words_.resize(words_.size() + static_cast<size_t>(hop), 0);
      to_end -= hop + 1;
    }
    to_end = std::max<int64_t>(to_end, 1);
    const int64_t body =
        chance(0.5) ? to_end
                    : to_end + pick(static_cast<unsigned>(std::max<int64_t>(kMaxBody - to_end + 1, 1)));
    emit(skipped_loop(static_cast<uint32_t>(body)));
  }

  // A loop inside another loop's body whose own body ends where the enclosing one ends or after it (its
  // count, 0 too, does not matter); sometimes both inside a further loop (the check looks at the innermost).
  void loop_nesting() {
    const bool enclosed = chance(0.3);
    const size_t enclosing_at = words_.size();
    if (enclosed) emit(0);  // patched below
    const unsigned body = 2 + pick(4);
    const unsigned before = pick(body - 1);  // outer-body instructions before the inner loop
    emit(counted_loop(body));
    for (unsigned k = 0; k < before; ++k) emit(R(Op::C_NOP));
    const uint32_t inner_body = body - 1 - before + pick(3);
    emit(pick(3) == 0 ? skipped_loop(inner_body) : counted_loop(inner_body));
    for (unsigned k = before + 1; k < body; ++k) emit(R(Op::C_NOP));
    if (enclosed) {
      emit(R(Op::C_NOP));
      words_[enclosing_at] = counted_loop(static_cast<uint32_t>(words_.size() - enclosing_at - 1));
    }
  }

  // LOOP_DEPTH properly nested loops, then one more with a non-zero count; before it, sometimes a loop of
  // count 0, which is no error at full depth.
  void loop_stack_overflow() {
    std::vector<size_t> open;
    for (unsigned d = 0; d < p_.loop_depth; ++d) {
      open.push_back(words_.size());
      emit(0);  // patched below
    }
    if (chance(0.5)) {
      emit(skipped_loop(1));
      emit(R(Op::C_NOP));
    }
    emit(counted_loop(1));
    emit(R(Op::C_NOP));
    for (auto it = open.rbegin(); it != open.rend(); ++it) {
      emit(R(Op::C_NOP));  // each body ends one instruction after the one it encloses
      words_[*it] = counted_loop(static_cast<uint32_t>(words_.size() - *it - 1));
    }
  }

  void vsram_out_of_range() {
    const uint32_t rows = p_.vsram_rows;
    const bool far = chance(0.25);
    switch (pick(3)) {
      case 0: {  // one row of an element-wise op (d, a or b): register + off at VSRAM_ROWS or beyond
        const std::vector<Op>& vv = vector_ops_by_shape().vv;
        const unsigned off = pick(8);
        load_int(9, far ? near_2_to_32() : rows - off + pick(4));
        uint32_t w =
            with(with(vector_op(vv[pick(static_cast<unsigned>(vv.size()))]), sy::kOff9, off), sy::kFs, 0);
        static const sy::Field kRowFields[] = {sy::kRd, sy::kRs1, sy::kRs2};
        emit(with(w, kRowFields[pick(3)], 9));
        break;
      }
      case 1: {  // the BLEN rows an M_MM/M_MMA reads or an M_WO writes
        load_int(9, far ? near_2_to_32() : rows - p_.blen + 1 + pick(p_.blen));
        static const Op ops[] = {Op::M_MM, Op::M_MMA, Op::M_WO};
        const Op op = ops[pick(3)];
        const bool wo = op == Op::M_WO;  // M_WO: rd is the VSRAM row, rs1 the accumulator row
        emit(with(with(R(op), sy::kRd, wo ? 9 : row_reg()), sy::kRs1, wo ? row_reg() : 9));
        break;
      }
      default: {  // the last rows of a vector DMA transfer
        const unsigned inside = pick(4);
        load_int(9, far ? near_2_to_32() : rows - inside);
        emit(dma(chance(0.5) ? Op::H_LOAD_V : Op::H_STORE_V, 9, kAddrReg, kStrideReg, inside + 1 + pick(4)));
        break;
      }
    }
  }

  void msram_out_of_range() {
    const uint32_t rows = p_.msram_rows;
    const bool far = chance(0.25);
    if (chance(0.5)) {  // the MLEN rows an M_LDW/M_LDWT reads
      const unsigned off = pick(4);
      load_int(9, far ? near_2_to_32() : rows - p_.mlen - off + 1 + pick(p_.mlen));
      emit(with(with(R(chance(0.5) ? Op::M_LDW : Op::M_LDWT), sy::kRs1, 9), sy::kOff9, off));
    } else {  // the last rows an H_LOAD_M writes
      const unsigned inside = pick(4);
      load_int(9, far ? near_2_to_32() : rows - inside);
      emit(dma(Op::H_LOAD_M, 9, kAddrReg, kStrideReg, inside + 1 + pick(4)));
    }
  }

  void acc_out_of_range() {
    // The BLEN accumulator rows an M_MM/M_MMA writes (rd) or an M_WO reads (rs1).
    load_int(9, chance(0.25) ? near_2_to_32() : p_.acc_rows - p_.blen + 1 + pick(p_.blen));
    static const Op ops[] = {Op::M_MM, Op::M_MMA, Op::M_WO};
    const Op op = ops[pick(3)];
    const bool wo = op == Op::M_WO;
    emit(with(with(R(op), sy::kRd, wo ? row_reg() : 9), sy::kRs1, wo ? 9 : row_reg()));
  }

  void fpsram_out_of_range() {
    const bool store = chance(0.5);
    uint32_t w = with(R(store ? Op::S_ST_FP : Op::S_LD_FP), sy::kRd, store ? any_freg() : dest_freg());
    if (chance(0.5)) {  // a register near the end plus an immediate that takes it to FPSRAM_WORDS or past
      const unsigned inside = pick(4);
      load_int(9, p_.fpsram_words - inside);
      w = with(with(w, sy::kRs1, 9), sy::kImm17, inside + pick(4));
    } else {  // a negative index: a huge unsigned word number
      w = with(with(w, sy::kRs1, 0), sy::kImm17, static_cast<uint32_t>(-static_cast<int32_t>(1 + pick(64))));
    }
    emit(w);
  }

  void dram_misaligned() {
    if (chance(0.5)) {  // an odd address
      load_int(9, 2 * pick(4096) + 1);
      emit(dma(any_dma_op(), row_reg(), 9, kStrideReg, 1 + pick(4)));
    } else {  // an odd stride (one row too: the check does not look at the count)
      load_int(9, p_.row_bytes() * pick(3) + 1);
      emit(dma(any_dma_op(), row_reg(), kAddrReg, 9, 1 + pick(4)));
    }
  }

  void dram_out_of_range() {
    const unsigned row = p_.row_bytes();
    switch (pick(3)) {
      case 0:  // a row that starts inside DRAM and ends past it
        load_int(9, static_cast<uint32_t>(dram_bytes_ - row + 2 * (1 + pick(row / 2))));
        emit(dma(any_dma_op(), row_reg(), 9, kStrideReg, 1 + pick(3)));
        break;
      case 1:  // a stride that takes the last row out
        load_int(9, static_cast<uint32_t>(dram_bytes_ / 2));
        emit(dma(any_dma_op(), row_reg(), 0, 9, 3 + pick(2)));
        break;
      default:  // near 2^32 (addresses do not wrap)
        load_int(9, chance(0.5) ? 0x7FFFFFFEu : 0xFFFFFFFEu);
        emit(dma(any_dma_op(), row_reg(), 9, kStrideReg, 1));
        break;
    }
  }

  const Params& p_;
  const RandomProgramOptions& o_;
  std::mt19937_64 rng_;
  std::vector<uint32_t> words_;
  uint64_t dram_bytes_ = 0;
};

}  // namespace

std::vector<ErrorCode> fault_kinds() {
  std::vector<ErrorCode> kinds;
  for (const ErrorInfo& e : kErrors) {
    if (e.code != ErrorCode::kNone) kinds.push_back(e.code);
  }
  return kinds;
}

RandomProgram random_program(const Params& params, uint64_t seed, const RandomProgramOptions& options) {
  return Gen(params, seed, options).build(seed);
}

}  // namespace kcraft::systolic
