#include "isa/systolic/systolic_iss.h"

#include <array>
#include <cstring>
#include <stdexcept>

#include "isa/common/arith/fp_arith.h"
#include "systolic_isa.h"

namespace kcraft::systolic {

namespace arith = kcraft::arith;
using isa::systolic::extract;
using isa::systolic::Op;

namespace {

constexpr unsigned kMaxLanes = 64;  // Params::from_config caps VLEN

enum class Cls { kControl, kScalar, kVector, kMatrix, kDma };

Cls classify(Op op) {
  auto v = static_cast<uint8_t>(op);
  if (v >= 0x10 && v < 0x30) return Cls::kScalar;
  if (v >= 0x30 && v < 0x50) return Cls::kVector;
  if (v >= 0x50 && v < 0x60) return Cls::kMatrix;
  if (v >= 0x60 && v < 0x70) return Cls::kDma;
  return Cls::kControl;
}

bool is_reduction(Op op) {
  return op == Op::V_RED_SUM || op == Op::V_RED_MAX || op == Op::V_RED_DOT;
}

}  // namespace

Iss::Iss(const Params& params) : p_(params) {
  reset({});
}

void Iss::reset(const std::vector<uint32_t>& program) {
  if (program.size() > p_.imem_words) {
    throw std::invalid_argument("program has " + std::to_string(program.size()) +
                                " instructions but IMEM_WORDS is " + std::to_string(p_.imem_words));
  }
  imem_.assign(p_.imem_words, 0);
  std::copy(program.begin(), program.end(), imem_.begin());
  s_ = MachineState{};
  s_.resize(p_);
  counters_.fill(0);
  loops_.clear();
  pc_ = 0;
  stopped_ = false;
}

void Iss::fault(uint32_t pc, ErrorCode code, uint64_t lo, uint64_t hi) {
  s_.error = MachineError{code, pc, lo, hi};
  s_.pc = pc;
  s_.halted = true;
  stopped_ = true;
}

Iss::Result Iss::run(std::vector<uint8_t>& dram, uint64_t max_instructions) {
  arith::FpEnvGuard fp_env;
  Result r;
  uint64_t start = counters_[kInstructions];
  while (!stopped_) {
    if (counters_[kInstructions] - start >= max_instructions) {
      r.stop = Stop::kInstructionCap;
      r.instructions = counters_[kInstructions] - start;
      return r;
    }
    step(dram);
  }
  r.stop = s_.error.code == ErrorCode::kNone ? Stop::kHalted : Stop::kError;
  r.instructions = counters_[kInstructions] - start;
  return r;
}

// An instruction as step() sees it: its fields, the registers it reads, and what it touches (the decode of
// systolic_sequencer.sv), which check() tests before anything executes.
struct Iss::Insn {
  uint32_t pc = 0, word = 0;
  Op op = Op::C_NOP;
  unsigned rd = 0, rs1 = 0, rs2 = 0, fs = 0;
  uint64_t off = 0;
  uint32_t imm17 = 0, imm16 = 0, imm13 = 0, cnt12 = 0, imm17_sext = 0;
  uint32_t xd = 0, x1 = 0, x2 = 0;
  uint64_t row_d = 0, row_1 = 0, row_2 = 0;
  uint64_t new_loop_end = 0;  // a loop's last body instruction
  uint32_t fpsram_idx = 0;    // S_LD_FP / S_ST_FP's word

  bool legal = false;
  bool is_loop = false, is_dma = false;
  uint32_t loop_count = 0;
  bool vs_rd_a = false, vs_rd_b = false, vs_wr_d = false;
  bool vs_rng = false, ms_rng = false, acc_rng = false;
  uint64_t vs_lo = 0, vs_hi = 0, ms_lo = 0, ms_hi = 0, acc_lo = 0, acc_hi = 0;
};

Iss::Insn Iss::decode(uint32_t pc, uint32_t w) const {
  Insn i;
  i.pc = pc;
  i.word = w;
  i.op = static_cast<Op>(extract(w, isa::systolic::kOpcode));
  i.rd = extract(w, isa::systolic::kRd);
  i.rs1 = extract(w, isa::systolic::kRs1);
  i.rs2 = extract(w, isa::systolic::kRs2);
  i.fs = extract(w, isa::systolic::kFs);
  i.off = extract(w, isa::systolic::kOff9);
  i.imm17 = extract(w, isa::systolic::kImm17);
  i.imm16 = extract(w, isa::systolic::kImm16);
  i.imm13 = extract(w, isa::systolic::kImm13);
  i.cnt12 = extract(w, isa::systolic::kCnt12);
  i.imm17_sext = static_cast<uint32_t>(isa::systolic::extract_signed(w, isa::systolic::kImm17));

  const auto& x = s_.x;
  i.xd = x[i.rd];
  i.x1 = x[i.rs1];
  i.x2 = x[i.rs2];
  i.row_d = uint64_t{i.xd} + i.off;
  i.row_1 = uint64_t{i.x1} + i.off;
  i.row_2 = uint64_t{i.x2} + i.off;
  i.new_loop_end = uint64_t{pc} + i.imm13;
  i.fpsram_idx = i.x1 + i.imm17_sext;

  // ---- what the instruction touches (mirrors systolic_sequencer.sv)
  i.legal = isa::systolic::is_legal(w);
  const uint64_t mlen = p_.mlen, blen = p_.blen;
  switch (i.op) {
    case Op::C_LOOP:
      i.is_loop = true;
      i.loop_count = i.x1;
      i.legal = i.legal && i.imm13 != 0;
      break;
    case Op::C_LOOPI:
      i.is_loop = true;
      i.loop_count = i.cnt12;
      i.legal = i.legal && i.imm13 != 0;
      break;
    case Op::V_ADD_VV:
    case Op::V_SUB_VV:
    case Op::V_MUL_VV:
    case Op::V_MAX_VV:
    case Op::V_MIN_VV:
      i.vs_rd_a = i.vs_rd_b = i.vs_wr_d = true;
      break;
    case Op::V_MUL_VFV:  // optional: illegal in hardware built without it
      i.legal = i.legal && p_.has_v_mul_vfv;
      i.vs_rd_a = i.vs_rd_b = i.vs_wr_d = true;
      break;
    case Op::V_ADD_VF:
    case Op::V_SUB_VF:
    case Op::V_MUL_VF:
    case Op::V_MAX_VF:
    case Op::V_MIN_VF:
    case Op::V_EXP_VF:
    case Op::V_EXP_V:
    case Op::V_RECI_V:
    case Op::V_RSQRT_V:
      i.vs_rd_a = i.vs_wr_d = true;
      break;
    case Op::V_BCAST_F:
      i.vs_wr_d = true;
      break;
    case Op::V_RED_SUM:
    case Op::V_RED_MAX:
      i.vs_rd_a = true;
      break;
    case Op::V_RED_DOT:
      i.vs_rd_a = i.vs_rd_b = true;
      break;
    case Op::M_LDW:
    case Op::M_LDWT:
      i.ms_rng = true;
      i.ms_lo = i.row_1;
      i.ms_hi = i.row_1 + mlen;
      break;
    case Op::M_MM:
    case Op::M_MMA:
      i.vs_rng = true;
      i.vs_lo = i.row_1;
      i.vs_hi = i.row_1 + blen;
      i.acc_rng = true;
      i.acc_lo = i.row_d;
      i.acc_hi = i.row_d + blen;
      break;
    case Op::M_WO:
      i.vs_rng = true;
      i.vs_lo = i.row_d;
      i.vs_hi = i.row_d + blen;
      i.acc_rng = true;
      i.acc_lo = i.row_1;
      i.acc_hi = i.row_1 + blen;
      break;
    case Op::H_LOAD_V:
    case Op::H_STORE_V:
      i.is_dma = true;
      i.legal = i.legal && i.imm13 != 0;
      i.vs_rng = true;
      i.vs_lo = i.xd;
      i.vs_hi = uint64_t{i.xd} + i.imm13;
      break;
    case Op::H_LOAD_M:
      i.is_dma = true;
      i.legal = i.legal && i.imm13 != 0;
      i.ms_rng = true;
      i.ms_lo = i.xd;
      i.ms_hi = uint64_t{i.xd} + i.imm13;
      break;
    default:
      break;
  }
  return i;
}

// The checks, in the RTL's order; false after the first that faults.
bool Iss::check(const Insn& i, const std::vector<uint8_t>& dram) {
  const uint32_t pc = i.pc;
  if (!i.legal) return fault(pc, ErrorCode::kIllegalInsn, i.word, 0), false;
  const bool loop_active = !loops_.empty();
  if (i.is_loop && loop_active && i.new_loop_end >= loops_.back().end) {
    return fault(pc, ErrorCode::kLoopNest, i.new_loop_end, loops_.back().end), false;
  }
  if (i.is_loop && i.loop_count != 0 && loops_.size() == p_.loop_depth) {
    return fault(pc, ErrorCode::kLoopOverflow, p_.loop_depth, 0), false;
  }
  const uint64_t vrows = p_.vsram_rows;
  if (i.vs_rd_a && i.row_1 >= vrows) return fault(pc, ErrorCode::kVsramRange, i.row_1, i.row_1 + 1), false;
  if (i.vs_rd_b && i.row_2 >= vrows) return fault(pc, ErrorCode::kVsramRange, i.row_2, i.row_2 + 1), false;
  if (i.vs_wr_d && i.row_d >= vrows) return fault(pc, ErrorCode::kVsramRange, i.row_d, i.row_d + 1), false;
  if (i.vs_rng && i.vs_hi > vrows) return fault(pc, ErrorCode::kVsramRange, i.vs_lo, i.vs_hi), false;
  if (i.ms_rng && i.ms_hi > p_.msram_rows) return fault(pc, ErrorCode::kMsramRange, i.ms_lo, i.ms_hi), false;
  if (i.acc_rng && i.acc_hi > p_.acc_rows) return fault(pc, ErrorCode::kAccRange, i.acc_lo, i.acc_hi), false;
  if ((i.op == Op::S_LD_FP || i.op == Op::S_ST_FP) && i.fpsram_idx >= p_.fpsram_words) {
    return fault(pc, ErrorCode::kFpsramRange, i.fpsram_idx, uint64_t{i.fpsram_idx} + 1), false;
  }
  const unsigned row_bytes = p_.row_bytes();
  if (i.is_dma && ((i.x1 & 1u) || (i.x2 & 1u))) return fault(pc, ErrorCode::kDramAlign, i.x1, i.x2), false;
  const uint64_t dram_last = uint64_t{i.x1} + (uint64_t{i.imm13} - 1) * uint64_t{i.x2} + row_bytes;
  if (i.is_dma && dram_last > dram.size()) return fault(pc, ErrorCode::kDramRange, i.x1, dram_last), false;
  return true;
}

bool Iss::step(std::vector<uint8_t>& dram) {
  const uint32_t pc = pc_;
  if (pc >= p_.imem_words) {
    fault(pc, ErrorCode::kPcRange, pc, p_.imem_words);
    return false;
  }
  const uint32_t w = imem_[pc];
  if (on_issue) on_issue(pc, w);
  const Insn i = decode(pc, w);
  if (!check(i, dram)) return false;

  uint32_t next_pc = pc + 1;
  bool halt = false;
  switch (classify(i.op)) {
    case Cls::kControl:
      halt = execute_control(i, next_pc);
      break;
    case Cls::kScalar:
      execute_scalar(i);
      break;
    case Cls::kVector:
      execute_vector(i);
      break;
    case Cls::kMatrix:
      execute_matrix(i);
      break;
    case Cls::kDma:
      execute_dma(i, dram);
      break;
  }

  ++counters_[kInstructions];
  switch (classify(i.op)) {
    case Cls::kControl:
      ++counters_[kInstrControl];
      break;
    case Cls::kScalar:
      ++counters_[kInstrScalar];
      break;
    case Cls::kVector:
      ++counters_[kInstrVector];
      break;
    case Cls::kMatrix:
      ++counters_[kInstrMatrix];
      break;
    case Cls::kDma:
      ++counters_[kInstrDma];
      break;
  }
  if (halt) {
    s_.halted = true;
    s_.pc = pc;
    stopped_ = true;
    return false;
  }
  // Loop back or leave the innermost loop after its last body instruction (never after a C_LOOP itself).
  if (!i.is_loop && !loops_.empty() && pc == loops_.back().end) {
    if (loops_.back().left > 1) {
      --loops_.back().left;
      next_pc = loops_.back().start;
    } else {
      loops_.pop_back();
    }
  }
  pc_ = next_pc;
  return true;
}

// C_NOP, C_FENCE, C_HALT (returns true), C_LOOP and C_LOOPI (a loop of no iterations jumps past its body).
bool Iss::execute_control(const Insn& i, uint32_t& next_pc) {
  switch (i.op) {
    case Op::C_HALT:
      return true;
    case Op::C_LOOP:
    case Op::C_LOOPI:
      if (i.loop_count == 0) {
        next_pc = i.pc + i.imm13 + 1;
      } else {
        loops_.push_back(Loop{i.pc + 1, static_cast<uint32_t>(i.new_loop_end), i.loop_count});
      }
      return false;
    default:
      return false;
  }
}

// The integer and FP32 scalar registers and the FP constant SRAM.
void Iss::execute_scalar(const Insn& i) {
  auto& x = s_.x;
  auto& f = s_.f;
  const uint32_t x1 = i.x1, x2 = i.x2;
  const unsigned rd = i.rd, rs1 = i.rs1, rs2 = i.rs2;
  auto set_x = [&](uint32_t v) {
    if (rd != 0) x[rd] = v;
  };
  auto set_f = [&](unsigned r, uint32_t v) {
    if (r != 0) f[r] = v;
  };
  switch (i.op) {
    case Op::S_ADD:
      set_x(x1 + x2);
      break;
    case Op::S_SUB:
      set_x(x1 - x2);
      break;
    case Op::S_MUL:
      set_x(x1 * x2);
      break;
    case Op::S_AND:
      set_x(x1 & x2);
      break;
    case Op::S_OR:
      set_x(x1 | x2);
      break;
    case Op::S_XOR:
      set_x(x1 ^ x2);
      break;
    case Op::S_SLL:
      set_x(x1 << (x2 & 31u));
      break;
    case Op::S_SRL:
      set_x(x1 >> (x2 & 31u));
      break;
    case Op::S_ADDI:
      set_x(x1 + i.imm17_sext);
      break;
    case Op::S_ORI:
      set_x(x1 | i.imm17);
      break;
    case Op::S_SLLI:
      set_x(x1 << (i.imm17 & 31u));
      break;
    case Op::S_SRLI:
      set_x(x1 >> (i.imm17 & 31u));
      break;
    case Op::S_LUI:
      set_x(i.imm16 << 16);
      break;
    case Op::S_ADD_FP:
      set_f(rd, arith::fp32_add(f[rs1], f[rs2]));
      break;
    case Op::S_SUB_FP:
      set_f(rd, arith::fp32_sub(f[rs1], f[rs2]));
      break;
    case Op::S_MUL_FP:
      set_f(rd, arith::fp32_mul(f[rs1], f[rs2]));
      break;
    case Op::S_MAX_FP:
      set_f(rd, arith::fp32_max(f[rs1], f[rs2]));
      break;
    case Op::S_MIN_FP:
      set_f(rd, arith::fp32_min(f[rs1], f[rs2]));
      break;
    case Op::S_EXP_FP:
      set_f(rd, arith::fp32_exp(f[rs1]));
      break;
    case Op::S_RECI_FP:
      set_f(rd, arith::fp32_reci(f[rs1]));
      break;
    case Op::S_SQRT_FP:
      set_f(rd, arith::fp32_sqrt(f[rs1]));
      break;
    case Op::S_RSQRT_FP:
      set_f(rd, arith::fp32_rsqrt(f[rs1]));
      break;
    case Op::S_LUI_FP:
      set_f(rd, i.imm16 << 16);
      break;
    case Op::S_LLI_FP:
      set_f(rd, (f[rd] & 0xFFFF0000u) | i.imm16);
      break;
    case Op::S_LD_FP:
      set_f(rd, s_.fpsram[i.fpsram_idx]);
      break;
    case Op::S_ST_FP:
      s_.fpsram[i.fpsram_idx] = f[rd];
      break;
    case Op::S_ITOF:
      set_f(rd, arith::int32_to_fp32(static_cast<int32_t>(x1)));
      break;
    default:
      break;
  }
}

// The vector unit: lane-wise on VSRAM rows, or a reduction into FP register fs.
void Iss::execute_vector(const Insn& i) {
  const Op op = i.op;
  auto& f = s_.f;
  const unsigned vlen = p_.vlen;
  auto vrow = [&](uint64_t row) { return &s_.vsram[row * vlen]; };
  const uint32_t fv = f[i.fs];
  std::array<uint32_t, 2 * kMaxLanes> tree;
  std::array<uint16_t, kMaxLanes> out;
  const uint16_t* a = i.vs_rd_a ? vrow(i.row_1) : nullptr;
  const uint16_t* b = i.vs_rd_b ? vrow(i.row_2) : nullptr;
  for (unsigned l = 0; l < vlen; ++l) {
    const uint32_t a32 = a ? arith::bf16_to_fp32(a[l]) : 0;
    // The vector-vector and vector-scalar forms of an operation differ only in their second operand.
    const uint32_t rhs = b ? arith::bf16_to_fp32(b[l]) : fv;
    uint32_t r = a32;  // V_RED_SUM / V_RED_MAX reduce the lanes themselves
    // clang-format off
    switch (op) {
      case Op::V_ADD_VV: case Op::V_ADD_VF: r = arith::fp32_add(a32, rhs); break;
      case Op::V_SUB_VV: case Op::V_SUB_VF: r = arith::fp32_sub(a32, rhs); break;
      case Op::V_MUL_VV: case Op::V_MUL_VF: r = arith::fp32_mul(a32, rhs); break;
      // (a * fs) rounded to BF16, times b: bit for bit V_MUL_VF then V_MUL_VV.
      case Op::V_MUL_VFV: r = arith::bf16_mul(arith::fp32_to_bf16(arith::fp32_mul(a32, fv)), b[l]); break;
      case Op::V_MAX_VV: case Op::V_MAX_VF: r = arith::fp32_max(a32, rhs); break;
      case Op::V_MIN_VV: case Op::V_MIN_VF: r = arith::fp32_min(a32, rhs); break;
      case Op::V_EXP_V: r = arith::fp32_exp(a32); break;
      case Op::V_RECI_V: r = arith::fp32_reci(a32); break;
      case Op::V_RSQRT_V: r = arith::fp32_rsqrt(a32); break;
      case Op::V_EXP_VF: r = arith::fp32_exp(arith::fp32_sub(a32, fv)); break;
      case Op::V_BCAST_F: r = fv; break;
      case Op::V_RED_DOT: r = arith::bf16_mul(a[l], b[l]); break;
      default: break;
    }
    // clang-format on
    tree[vlen + l] = r;
    out[l] = arith::fp32_to_bf16(r);
  }
  if (is_reduction(op)) {
    const bool is_max = op == Op::V_RED_MAX;
    for (unsigned n = vlen - 1; n >= 1; --n) {
      tree[n] = is_max ? arith::fp32_max(tree[2 * n], tree[2 * n + 1])
                       : arith::fp32_add(tree[2 * n], tree[2 * n + 1]);
    }
    if (i.fs != 0) f[i.fs] = is_max ? arith::fp32_max(fv, tree[1]) : arith::fp32_add(fv, tree[1]);
  } else {
    std::copy(out.begin(), out.begin() + vlen, vrow(i.row_d));
  }
  counters_[kVectorElements] += vlen;
}

// The matrix unit: weights from MSRAM, products of BLEN VSRAM rows into the accumulators, write-out.
void Iss::execute_matrix(const Insn& i) {
  const Op op = i.op;
  const uint64_t mlen = p_.mlen, blen = p_.blen;
  const unsigned vlen = p_.vlen;
  auto vrow = [&](uint64_t row) { return &s_.vsram[row * vlen]; };
  auto mrow = [&](uint64_t row) { return &s_.msram[row * mlen]; };
  auto accrow = [&](uint64_t row) { return &s_.acc[row * mlen]; };
  switch (op) {
    case Op::M_LDW:
    case Op::M_LDWT:
      for (unsigned k = 0; k < mlen; ++k) {
        for (unsigned n = 0; n < mlen; ++n) {
          s_.weights[k * mlen + n] = op == Op::M_LDW ? mrow(i.row_1 + k)[n] : mrow(i.row_1 + n)[k];
        }
      }
      break;
    case Op::M_MM:
    case Op::M_MMA:
      for (unsigned r = 0; r < blen; ++r) {
        const uint16_t* a = vrow(i.row_1 + r);
        uint32_t* acc = accrow(i.row_d + r);
        for (unsigned n = 0; n < mlen; ++n) {
          uint32_t s = 0;  // +0: the partial sum entering the top of each column
          for (unsigned k = 0; k < mlen; ++k) {
            s = arith::fp32_add(s, arith::bf16_mul(a[k], s_.weights[k * mlen + n]));
          }
          acc[n] = op == Op::M_MMA ? arith::fp32_add(acc[n], s) : s;
        }
      }
      counters_[kMacs] += blen * mlen * mlen;
      break;
    case Op::M_WO:
      for (unsigned r = 0; r < blen; ++r) {
        const uint32_t* acc = accrow(i.row_1 + r);
        uint16_t* d = vrow(i.row_d + r);
        for (unsigned n = 0; n < mlen; ++n) d[n] = arith::fp32_to_bf16(acc[n]);
      }
      break;
    default:
      break;
  }
}

// DMA: imm13 rows between DRAM (from x1, stride x2) and VSRAM or MSRAM (from row xd).
void Iss::execute_dma(const Insn& i, std::vector<uint8_t>& dram) {
  const unsigned vlen = p_.vlen;
  const uint64_t mlen = p_.mlen;
  auto vrow = [&](uint64_t row) { return &s_.vsram[row * vlen]; };
  auto mrow = [&](uint64_t row) { return &s_.msram[row * mlen]; };
  const unsigned row_bytes = p_.row_bytes();
  for (uint32_t r = 0; r < i.imm13; ++r) {
    const uint64_t addr = uint64_t{i.x1} + uint64_t{r} * i.x2;
    const uint64_t row = uint64_t{i.xd} + r;
    if (i.op == Op::H_STORE_V) {
      std::memcpy(&dram[addr], vrow(row), row_bytes);
      counters_[kDramBytesWritten] += row_bytes;
      if (on_dram_write) on_dram_write(addr, row_bytes, i.pc);
    } else {
      std::memcpy(i.op == Op::H_LOAD_V ? vrow(row) : mrow(row), &dram[addr], row_bytes);
      counters_[kDramBytesRead] += row_bytes;
    }
  }
}

}  // namespace kcraft::systolic
