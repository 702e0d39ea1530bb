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

bool Iss::step(std::vector<uint8_t>& dram) {
  const uint32_t pc = pc_;
  if (pc >= p_.imem_words) {
    fault(pc, ErrorCode::kPcRange, pc, p_.imem_words);
    return false;
  }
  const uint32_t w = imem_[pc];
  if (on_issue) on_issue(pc, w);

  const auto op = static_cast<Op>(extract(w, isa::systolic::kOpcode));
  const unsigned rd = extract(w, isa::systolic::kRd);
  const unsigned rs1 = extract(w, isa::systolic::kRs1);
  const unsigned rs2 = extract(w, isa::systolic::kRs2);
  const unsigned fs = extract(w, isa::systolic::kFs);
  const uint64_t off = extract(w, isa::systolic::kOff9);
  const uint32_t imm17 = extract(w, isa::systolic::kImm17);
  const uint32_t imm16 = extract(w, isa::systolic::kImm16);
  const uint32_t imm13 = extract(w, isa::systolic::kImm13);
  const uint32_t cnt12 = extract(w, isa::systolic::kCnt12);
  const uint32_t imm17_sext = static_cast<uint32_t>(isa::systolic::extract_signed(w, isa::systolic::kImm17));

  auto& x = s_.x;
  auto& f = s_.f;
  const uint32_t xd = x[rd], x1 = x[rs1], x2 = x[rs2];
  const uint64_t row_d = uint64_t{xd} + off, row_1 = uint64_t{x1} + off, row_2 = uint64_t{x2} + off;

  // ---- decode what the instruction touches (mirrors systolic_sequencer.sv)
  bool legal = isa::systolic::is_legal(w);
  bool is_loop = false, is_dma = false;
  uint32_t loop_count = 0;
  bool vs_rd_a = false, vs_rd_b = false, vs_wr_d = false;
  bool vs_rng = false, ms_rng = false, acc_rng = false;
  uint64_t vs_lo = 0, vs_hi = 0, ms_lo = 0, ms_hi = 0, acc_lo = 0, acc_hi = 0;
  const uint64_t mlen = p_.mlen, blen = p_.blen;
  switch (op) {
    case Op::C_LOOP:
      is_loop = true;
      loop_count = x1;
      legal = legal && imm13 != 0;
      break;
    case Op::C_LOOPI:
      is_loop = true;
      loop_count = cnt12;
      legal = legal && imm13 != 0;
      break;
    case Op::V_ADD_VV:
    case Op::V_SUB_VV:
    case Op::V_MUL_VV:
    case Op::V_MAX_VV:
    case Op::V_MIN_VV:
      vs_rd_a = vs_rd_b = vs_wr_d = true;
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
      vs_rd_a = vs_wr_d = true;
      break;
    case Op::V_BCAST_F:
      vs_wr_d = true;
      break;
    case Op::V_RED_SUM:
    case Op::V_RED_MAX:
      vs_rd_a = true;
      break;
    case Op::V_RED_DOT:
      vs_rd_a = vs_rd_b = true;
      break;
    case Op::M_LDW:
    case Op::M_LDWT:
      ms_rng = true;
      ms_lo = row_1;
      ms_hi = row_1 + mlen;
      break;
    case Op::M_MM:
    case Op::M_MMA:
      vs_rng = true;
      vs_lo = row_1;
      vs_hi = row_1 + blen;
      acc_rng = true;
      acc_lo = row_d;
      acc_hi = row_d + blen;
      break;
    case Op::M_WO:
      vs_rng = true;
      vs_lo = row_d;
      vs_hi = row_d + blen;
      acc_rng = true;
      acc_lo = row_1;
      acc_hi = row_1 + blen;
      break;
    case Op::H_LOAD_V:
    case Op::H_STORE_V:
      is_dma = true;
      legal = legal && imm13 != 0;
      vs_rng = true;
      vs_lo = xd;
      vs_hi = uint64_t{xd} + imm13;
      break;
    case Op::H_LOAD_M:
      is_dma = true;
      legal = legal && imm13 != 0;
      ms_rng = true;
      ms_lo = xd;
      ms_hi = uint64_t{xd} + imm13;
      break;
    default:
      break;
  }

  // ---- checks, in the RTL's order
  if (!legal) return fault(pc, ErrorCode::kIllegalInsn, w, 0), false;
  const bool loop_active = !loops_.empty();
  const uint64_t new_loop_end = uint64_t{pc} + imm13;
  if (is_loop && loop_active && new_loop_end >= loops_.back().end) {
    return fault(pc, ErrorCode::kLoopNest, new_loop_end, loops_.back().end), false;
  }
  if (is_loop && loop_count != 0 && loops_.size() == p_.loop_depth) {
    return fault(pc, ErrorCode::kLoopOverflow, p_.loop_depth, 0), false;
  }
  const uint64_t vrows = p_.vsram_rows;
  if (vs_rd_a && row_1 >= vrows) return fault(pc, ErrorCode::kVsramRange, row_1, row_1 + 1), false;
  if (vs_rd_b && row_2 >= vrows) return fault(pc, ErrorCode::kVsramRange, row_2, row_2 + 1), false;
  if (vs_wr_d && row_d >= vrows) return fault(pc, ErrorCode::kVsramRange, row_d, row_d + 1), false;
  if (vs_rng && vs_hi > vrows) return fault(pc, ErrorCode::kVsramRange, vs_lo, vs_hi), false;
  if (ms_rng && ms_hi > p_.msram_rows) return fault(pc, ErrorCode::kMsramRange, ms_lo, ms_hi), false;
  if (acc_rng && acc_hi > p_.acc_rows) return fault(pc, ErrorCode::kAccRange, acc_lo, acc_hi), false;
  const uint32_t fpsram_idx = x1 + imm17_sext;
  if ((op == Op::S_LD_FP || op == Op::S_ST_FP) && fpsram_idx >= p_.fpsram_words) {
    return fault(pc, ErrorCode::kFpsramRange, fpsram_idx, uint64_t{fpsram_idx} + 1), false;
  }
  const unsigned row_bytes = p_.row_bytes();
  if (is_dma && ((x1 & 1u) || (x2 & 1u))) return fault(pc, ErrorCode::kDramAlign, x1, x2), false;
  const uint64_t dram_last = uint64_t{x1} + (uint64_t{imm13} - 1) * uint64_t{x2} + row_bytes;
  if (is_dma && dram_last > dram.size()) return fault(pc, ErrorCode::kDramRange, x1, dram_last), false;

  // ---- execute
  auto set_x = [&](uint32_t v) {
    if (rd != 0) x[rd] = v;
  };
  auto set_f = [&](unsigned r, uint32_t v) {
    if (r != 0) f[r] = v;
  };
  const unsigned vlen = p_.vlen;
  auto vrow = [&](uint64_t row) { return &s_.vsram[row * vlen]; };
  auto mrow = [&](uint64_t row) { return &s_.msram[row * mlen]; };
  auto accrow = [&](uint64_t row) { return &s_.acc[row * mlen]; };

  uint32_t next_pc = pc + 1;
  bool halt = false;
  switch (op) {
    case Op::C_NOP:
    case Op::C_FENCE:
      break;
    case Op::C_HALT:
      halt = true;
      break;
    case Op::C_LOOP:
    case Op::C_LOOPI:
      if (loop_count == 0) {
        next_pc = pc + imm13 + 1;
      } else {
        loops_.push_back(Loop{pc + 1, static_cast<uint32_t>(new_loop_end), loop_count});
      }
      break;
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
      set_x(x1 + imm17_sext);
      break;
    case Op::S_ORI:
      set_x(x1 | imm17);
      break;
    case Op::S_SLLI:
      set_x(x1 << (imm17 & 31u));
      break;
    case Op::S_SRLI:
      set_x(x1 >> (imm17 & 31u));
      break;
    case Op::S_LUI:
      set_x(imm16 << 16);
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
      set_f(rd, imm16 << 16);
      break;
    case Op::S_LLI_FP:
      set_f(rd, (f[rd] & 0xFFFF0000u) | imm16);
      break;
    case Op::S_LD_FP:
      set_f(rd, s_.fpsram[fpsram_idx]);
      break;
    case Op::S_ST_FP:
      s_.fpsram[fpsram_idx] = f[rd];
      break;
    case Op::S_ITOF:
      set_f(rd, arith::int32_to_fp32(static_cast<int32_t>(x1)));
      break;

    case Op::V_ADD_VV:
    case Op::V_SUB_VV:
    case Op::V_MUL_VV:
    case Op::V_MAX_VV:
    case Op::V_MIN_VV:
    case Op::V_ADD_VF:
    case Op::V_SUB_VF:
    case Op::V_MUL_VF:
    case Op::V_MAX_VF:
    case Op::V_MIN_VF:
    case Op::V_EXP_V:
    case Op::V_RECI_V:
    case Op::V_RSQRT_V:
    case Op::V_EXP_VF:
    case Op::V_BCAST_F:
    case Op::V_RED_SUM:
    case Op::V_RED_MAX:
    case Op::V_RED_DOT: {
      const uint32_t fv = f[fs];
      std::array<uint32_t, 2 * kMaxLanes> tree;
      std::array<uint16_t, kMaxLanes> out;
      const uint16_t* a = vs_rd_a ? vrow(row_1) : nullptr;
      const uint16_t* b = vs_rd_b ? vrow(row_2) : nullptr;
      for (unsigned i = 0; i < vlen; ++i) {
        const uint32_t a32 = a ? arith::bf16_to_fp32(a[i]) : 0;
        // The vector-vector and vector-scalar forms of an operation differ only in their second operand.
        const uint32_t rhs = b ? arith::bf16_to_fp32(b[i]) : fv;
        uint32_t r = a32;  // V_RED_SUM / V_RED_MAX reduce the lanes themselves
        // clang-format off
        switch (op) {
          case Op::V_ADD_VV: case Op::V_ADD_VF: r = arith::fp32_add(a32, rhs); break;
          case Op::V_SUB_VV: case Op::V_SUB_VF: r = arith::fp32_sub(a32, rhs); break;
          case Op::V_MUL_VV: case Op::V_MUL_VF: r = arith::fp32_mul(a32, rhs); break;
          case Op::V_MAX_VV: case Op::V_MAX_VF: r = arith::fp32_max(a32, rhs); break;
          case Op::V_MIN_VV: case Op::V_MIN_VF: r = arith::fp32_min(a32, rhs); break;
          case Op::V_EXP_V: r = arith::fp32_exp(a32); break;
          case Op::V_RECI_V: r = arith::fp32_reci(a32); break;
          case Op::V_RSQRT_V: r = arith::fp32_rsqrt(a32); break;
          case Op::V_EXP_VF: r = arith::fp32_exp(arith::fp32_sub(a32, fv)); break;
          case Op::V_BCAST_F: r = fv; break;
          case Op::V_RED_DOT: r = arith::bf16_mul(a[i], b[i]); break;
          default: break;
        }
        // clang-format on
        tree[vlen + i] = r;
        out[i] = arith::fp32_to_bf16(r);
      }
      if (is_reduction(op)) {
        const bool is_max = op == Op::V_RED_MAX;
        for (unsigned n = vlen - 1; n >= 1; --n) {
          tree[n] = is_max ? arith::fp32_max(tree[2 * n], tree[2 * n + 1])
                           : arith::fp32_add(tree[2 * n], tree[2 * n + 1]);
        }
        set_f(fs, is_max ? arith::fp32_max(fv, tree[1]) : arith::fp32_add(fv, tree[1]));
      } else {
        std::copy(out.begin(), out.begin() + vlen, vrow(row_d));
      }
      counters_[kVectorElements] += vlen;
      break;
    }

    case Op::M_LDW:
    case Op::M_LDWT:
      for (unsigned k = 0; k < mlen; ++k) {
        for (unsigned n = 0; n < mlen; ++n) {
          s_.weights[k * mlen + n] = op == Op::M_LDW ? mrow(row_1 + k)[n] : mrow(row_1 + n)[k];
        }
      }
      break;
    case Op::M_MM:
    case Op::M_MMA:
      for (unsigned i = 0; i < blen; ++i) {
        const uint16_t* a = vrow(row_1 + i);
        uint32_t* acc = accrow(row_d + i);
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
      for (unsigned i = 0; i < blen; ++i) {
        const uint32_t* acc = accrow(row_1 + i);
        uint16_t* d = vrow(row_d + i);
        for (unsigned n = 0; n < mlen; ++n) d[n] = arith::fp32_to_bf16(acc[n]);
      }
      break;

    case Op::H_LOAD_V:
    case Op::H_LOAD_M:
    case Op::H_STORE_V:
      for (uint32_t i = 0; i < imm13; ++i) {
        const uint64_t addr = uint64_t{x1} + uint64_t{i} * x2;
        const uint64_t row = uint64_t{xd} + i;
        if (op == Op::H_STORE_V) {
          std::memcpy(&dram[addr], vrow(row), row_bytes);
          counters_[kDramBytesWritten] += row_bytes;
          if (on_dram_write) on_dram_write(addr, row_bytes, pc);
        } else {
          std::memcpy(op == Op::H_LOAD_V ? vrow(row) : mrow(row), &dram[addr], row_bytes);
          counters_[kDramBytesRead] += row_bytes;
        }
      }
      break;
  }

  ++counters_[kInstructions];
  switch (classify(op)) {
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
  if (!is_loop && !loops_.empty() && pc == loops_.back().end) {
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

}  // namespace kcraft::systolic
