#include "isa/myaccel/myaccel_iss.h"

#include <algorithm>
#include <cstring>
#include <stdexcept>

#include <fmt/format.h>

#include "isa/common/arith/fp_arith.h"

namespace kcraft::myaccel {

namespace isa_ = isa::myaccel;

Iss::Iss(const Params& params) : p_(params) {
  s_.resize(p_);
}

void Iss::reset(const std::vector<uint32_t>& program) {
  if (program.size() > p_.imem_words) {
    throw std::invalid_argument(
        fmt::format("the program has {} words, IMEM_WORDS is {}", program.size(), p_.imem_words));
  }
  imem_ = program;
  s_ = MachineState{};
  s_.resize(p_);
  counters_ = {};
  cycle_ = 0;
  channel_free_ = 0;
  pc_ = 0;
  stopped_ = false;
}

void Iss::fault(ErrorCode code, uint64_t lo, uint64_t hi) {
  s_.error = MachineError{code, pc_, lo, hi};
  s_.pc = pc_;
  stopped_ = true;
}

uint64_t Iss::dram_cycles(uint64_t now) {
  const uint64_t start = std::max(now, channel_free_);
  channel_free_ = start + (p_.row_bytes() + p_.dram_bytes_per_cycle - 1) / p_.dram_bytes_per_cycle;
  return channel_free_ + p_.dram_latency - now;
}

bool Iss::check_dram(uint32_t addr, uint64_t row_addr, const std::vector<uint8_t>& dram) {
  if (addr % 4 != 0) {
    fault(ErrorCode::kDramAlign, addr, 0);
    return false;
  }
  if (row_addr + p_.row_bytes() > dram.size()) {
    fault(ErrorCode::kDramRange, row_addr, row_addr + p_.row_bytes());
    return false;
  }
  return true;
}

uint64_t Iss::execute(std::vector<uint8_t>& dram) {
  const uint32_t word = pc_ < imem_.size() ? imem_[pc_] : 0;
  if (!isa_::is_legal(word)) {
    fault(ErrorCode::kIllegalInsn, word, 0);
    return 1;
  }
  const unsigned rd = isa_::extract(word, isa_::kRd);
  const unsigned rs1 = isa_::extract(word, isa_::kRs1);
  const unsigned rs2 = isa_::extract(word, isa_::kRs2);
  const uint32_t* va = &s_.v[size_t{rs1} * p_.lanes];
  const uint32_t* vb = &s_.v[size_t{rs2} * p_.lanes];
  uint32_t* vd = &s_.v[size_t{rd} * p_.lanes];
  auto set_x = [&](uint32_t value) {
    if (rd != 0) s_.x[rd] = value;  // x0 stays 0
  };
  auto lanes = [&](auto op) {
    for (unsigned i = 0; i < p_.lanes; ++i) vd[i] = op(va[i], vb[i]);
    counters_[kLaneOps] += p_.lanes;
  };
  uint32_t next_pc = pc_ + 1;
  uint64_t cycles = 1;
  switch (isa_::op_of(word)) {
    case isa_::Op::HALT:
      s_.halted = true;
      s_.pc = pc_;
      stopped_ = true;
      break;
    case isa_::Op::BNZ:
      if (s_.x[rs1] != 0) next_pc = isa_::extract(word, isa_::kImm16);
      break;
    case isa_::Op::LI:
      set_x(static_cast<uint32_t>(isa_::extract_signed(word, isa_::kImm20)));
      break;
    case isa_::Op::ADDI:
      set_x(s_.x[rs1] + static_cast<uint32_t>(isa_::extract_signed(word, isa_::kImm16)));
      break;
    case isa_::Op::ADD:
      set_x(s_.x[rs1] + s_.x[rs2]);
      break;
    case isa_::Op::VLD:
    case isa_::Op::VST:
    case isa_::Op::VBC: {
      const isa_::Op op = isa_::op_of(word);
      const uint32_t addr = s_.x[rs1];
      const uint64_t row_addr = op == isa_::Op::VBC ? addr - addr % p_.row_bytes() : addr;
      if (!check_dram(addr, row_addr, dram)) return 1;
      // The request reaches DRAM in the cycle after the issue cycle (k + 1); the instruction ends in the
      // cycle its response is due (k + 1 + dram_cycles), so it spans dram_cycles + 2 cycles.
      cycles = 2 + dram_cycles(cycle_ + 1);
      counters_[kStallDram] += cycles - 1;
      if (op == isa_::Op::VST) {
        std::memcpy(&dram[row_addr], vd, p_.row_bytes());
        counters_[kDramBytesWritten] += p_.row_bytes();
      } else if (op == isa_::Op::VLD) {
        std::memcpy(vd, &dram[row_addr], p_.row_bytes());
        counters_[kDramBytesRead] += p_.row_bytes();
      } else {
        uint32_t value = 0;
        std::memcpy(&value, &dram[addr], 4);
        std::fill(vd, vd + p_.lanes, value);
        counters_[kDramBytesRead] += p_.row_bytes();
      }
      break;
    }
    case isa_::Op::VSPLAT:
      std::fill(vd, vd + p_.lanes, s_.x[rs1]);
      break;
    case isa_::Op::VADD:
      lanes([](uint32_t a, uint32_t b) { return arith::fp32_add(a, b); });
      break;
    case isa_::Op::VMUL:
      lanes([](uint32_t a, uint32_t b) { return arith::fp32_mul(a, b); });
      break;
    case isa_::Op::VMAX:
      lanes([](uint32_t a, uint32_t b) { return arith::fp32_max(a, b); });
      break;
  }
  counters_[kInstructions] += 1;
  if (!stopped_) pc_ = next_pc;
  return cycles;
}

Iss::Result Iss::step(std::vector<uint8_t>& dram, uint64_t count, uint64_t max_cycles) {
  const arith::FpEnvGuard fp_env;  // FTZ, DAZ, round to nearest even: what the RTL's kc_fp_pkg does
  for (uint64_t n = 0; n < count && !stopped_; ++n) {
    if (cycle_ >= max_cycles) return {Stop::kCycleCap, cycle_};
    if (on_issue) on_issue(pc_, pc_ < imem_.size() ? imem_[pc_] : 0, cycle_);
    cycle_ += execute(dram);
    counters_[kCycles] = cycle_;
  }
  if (!stopped_) return {cycle_ >= max_cycles ? Stop::kCycleCap : Stop::kPaused, cycle_};
  return {s_.error.code == ErrorCode::kNone ? Stop::kHalted : Stop::kError, cycle_};
}

Iss::Result Iss::run(std::vector<uint8_t>& dram, uint64_t max_cycles) {
  const Result r = step(dram, UINT64_MAX, max_cycles);
  if (r.stop == Stop::kCycleCap) return r;
  if (cycle_ > max_cycles) return {Stop::kCycleCap, cycle_};
  return {s_.error.code == ErrorCode::kNone ? Stop::kHalted : Stop::kError, cycle_};
}

}  // namespace kcraft::myaccel
