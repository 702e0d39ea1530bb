// Reference for rtl/rvv/rvv_fpu.sv: each RV32F operation computed by the host's IEEE 754 binary32
// hardware (x86 SSE through <cfenv>), adjusted only where RISC-V defines more than IEEE or differs from
// x86 (see rvv_fpu_ref.cpp). Results and fflags must match the RTL bit for bit.
#pragma once

#include <cstdint>
#include <string_view>

namespace kcraft::rvv_fpu {

// Mirrors rvv_fpu_pkg::op_e.
enum class Op : uint8_t {
  kAdd = 0, kSub, kMul, kMadd, kMsub, kNmsub, kNmadd, kDiv, kSqrt, kMin, kMax, kEq, kLt, kLe, kClass,
  kSgnj, kSgnjn, kSgnjx, kCvtWS, kCvtWuS, kCvtSW, kCvtSWu, kMvXW, kMvWX, kCount
};

// Rounding modes as in frm.
enum Rm : uint8_t { kRne = 0, kRtz = 1, kRdn = 2, kRup = 3, kRmm = 4 };

// fflags bits.
inline constexpr uint32_t kNv = 16, kDz = 8, kOf = 4, kUf = 2, kNx = 1;
inline constexpr uint32_t kCanonicalNan = 0x7fc00000u;

struct Result {
  uint32_t value;
  uint32_t flags;
  bool operator==(const Result& other) const { return value == other.value && flags == other.flags; }
};

// Number of float operands an operation reads (a, b, c), and whether a is an integer.
int operand_count(Op op);
bool reads_integer(Op op);
bool uses_rounding_mode(Op op);
std::string_view op_name(Op op);

Result reference(Op op, Rm rm, uint32_t a, uint32_t b, uint32_t c);

}  // namespace kcraft::rvv_fpu
