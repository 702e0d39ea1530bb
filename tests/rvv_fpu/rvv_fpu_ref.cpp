// The host reference. This file is compiled with -frounding-math (GCC's stand-in for FENV_ACCESS ON),
// -fsignaling-nans, -ffp-contract=off, -fno-fast-math and -fno-math-errno, and every operand and result
// goes through a volatile, so each operation is one SSE instruction executed at run time under the
// rounding mode set by fesetround, and its exception flags are read back with fetestexcept. x86 SSE and RISC-V agree on IEEE 754 binary32 results, on tininess after rounding and
// on the five flags; the reference departs from the host only where they differ:
//   - NaN results: x86 propagates payloads, RISC-V always returns the canonical NaN 0x7fc00000.
//   - RMM (round to nearest, ties away): x86 has no such mode. The operation is computed in x87 long
//     double (64-bit significand) under round-toward-zero, whose result t and inexact flag together
//     determine the exact value's position relative to every binary32 rounding boundary (at least 40
//     bits separate them); round_half_away() then rounds t to binary32 by hand. Multiplication and the
//     product of an FMA are exact in long double, so an FMA is one rounding of the exact sum.
//   - FMIN/FMAX: RISC-V minimumNumber/maximumNumber (x86 minss/maxss are not), written from the spec.
//   - FCVT.W[U].S: the host rounds (llrintf, 64-bit, so no saturation yet), the RISC-V table saturates
//     (NV alone, no NX, when out of range); for RMM, trunc() and a tie-away step on the exact fraction.
//   - FMA with inf * 0 and a quiet NaN addend: RISC-V requires NV; added here if the host did not.
//   - FCLASS, FSGNJ*, FMV: bit manipulations defined only by RISC-V, written from the spec.
#include "tests/rvv_fpu/rvv_fpu_ref.h"

#include <cfenv>
#include <cmath>
#include <cstring>
#include <limits>

namespace kcraft::rvv_fpu {
namespace {

float as_float(uint32_t bits) {
  float f;
  std::memcpy(&f, &bits, sizeof f);
  return f;
}

uint32_t as_bits(float f) {
  uint32_t bits;
  std::memcpy(&bits, &f, sizeof bits);
  return bits;
}

bool is_nan(uint32_t x) { return (x & 0x7f800000u) == 0x7f800000u && (x & 0x007fffffu) != 0; }
bool is_snan(uint32_t x) { return is_nan(x) && (x & 0x00400000u) == 0; }
bool is_inf(uint32_t x) { return (x & 0x7fffffffu) == 0x7f800000u; }
bool is_zero(uint32_t x) { return (x & 0x7fffffffu) == 0; }
bool is_finite(uint32_t x) { return (x & 0x7f800000u) != 0x7f800000u; }

uint32_t host_flags() {
  const int e = std::fetestexcept(FE_ALL_EXCEPT);
  return ((e & FE_INVALID) ? kNv : 0) | ((e & FE_DIVBYZERO) ? kDz : 0) | ((e & FE_OVERFLOW) ? kOf : 0) |
         ((e & FE_UNDERFLOW) ? kUf : 0) | ((e & FE_INEXACT) ? kNx : 0);
}

int host_mode(Rm rm) {
  switch (rm) {
    case kRtz: return FE_TOWARDZERO;
    case kRdn: return FE_DOWNWARD;
    case kRup: return FE_UPWARD;
    default: return FE_TONEAREST;
  }
}

// Runs fn under the rounding mode with the flags cleared; returns its flags.
template <typename Fn>
uint32_t with_mode(int mode, Fn&& fn) {
  std::fesetround(mode);
  std::feclearexcept(FE_ALL_EXCEPT);
  fn();
  const uint32_t flags = host_flags();
  std::fesetround(FE_TONEAREST);
  std::feclearexcept(FE_ALL_EXCEPT);
  return flags;
}

Result canonicalize(float r, uint32_t flags) {
  return {std::isnan(r) ? kCanonicalNan : as_bits(r), flags};
}

// Rounds |t| (+ something in (0, ulp64) below it when sticky) to binary32 with ties away from zero.
// Called in round-to-nearest; every step is exact (scaling by powers of two, floor of a 64-bit value).
Result round_half_away(long double t, bool sticky) {
  if (t == 0) return {std::signbit(t) ? 0x80000000u : 0u, 0};
  const bool neg = std::signbit(t);
  const long double m = std::fabs(t);
  const int e = std::ilogb(m);
  auto round_at = [&](int lsb_exp, bool* inexact) {
    const long double q = std::ldexp(m, -lsb_exp);
    long double ip = std::floor(q);
    const long double fraction = q - ip;
    *inexact = fraction != 0 || sticky;
    if (fraction >= 0.5L) ip += 1;
    return std::ldexp(ip, lsb_exp);
  };
  bool inexact = false;
  bool unused = false;
  const long double r = round_at(std::max(e - 23, -149), &inexact);
  const bool tiny = round_at(e - 23, &unused) < std::ldexp(1.0L, -126);  // tininess after rounding
  if (r >= std::ldexp(1.0L, 128)) return {neg ? 0xff800000u : 0x7f800000u, kOf | kNx};
  const uint32_t bits = as_bits(static_cast<float>(r)) | (neg ? 0x80000000u : 0u);
  return {bits, (inexact ? kNx : 0) | (inexact && tiny ? kUf : 0)};
}

// The host's binary32 result of an arithmetic operation under a host rounding mode.
Result host_arith(Op op, int mode, uint32_t a, uint32_t b, uint32_t c) {
  volatile float x = as_float(a);
  volatile float y = as_float(b);
  volatile float z = as_float(c);
  volatile float r = 0;
  const uint32_t flags = with_mode(mode, [&] {
    switch (op) {
      case Op::kAdd: r = x + y; break;
      case Op::kSub: r = x - y; break;
      case Op::kMul: r = x * y; break;
      case Op::kMadd: r = std::fmaf(x, y, z); break;
      case Op::kMsub: r = std::fmaf(x, y, -z); break;
      case Op::kNmsub: r = std::fmaf(-x, y, z); break;
      case Op::kNmadd: r = std::fmaf(-x, y, -z); break;
      case Op::kDiv: r = x / y; break;
      case Op::kSqrt: r = std::sqrt(static_cast<float>(x)); break;
      case Op::kCvtSW: r = static_cast<float>(static_cast<int32_t>(a)); break;
      case Op::kCvtSWu: r = static_cast<float>(a); break;
      default: break;
    }
  });
  return canonicalize(r, flags);
}

// RMM: the same operation in long double under round-toward-zero, then round_half_away.
Result rmm_arith(Op op, uint32_t a, uint32_t b, uint32_t c) {
  const bool finite = is_finite(a) && (operand_count(op) < 2 || is_finite(b)) && (operand_count(op) < 3 || is_finite(c));
  const bool integer = op == Op::kCvtSW || op == Op::kCvtSWu;
  // Non-finite operands, x/0 and sqrt of a negative: the result does not depend on the rounding mode.
  if (!integer && (!finite || (op == Op::kDiv && is_zero(b)) || (op == Op::kSqrt && (a >> 31) && !is_zero(a)))) {
    return host_arith(op, FE_TONEAREST, a, b, c);
  }
  volatile long double x = as_float(a);
  volatile long double y = as_float(b);
  volatile long double z = as_float(c);
  volatile long double t = 0;
  const uint32_t flags = with_mode(FE_TOWARDZERO, [&] {
    switch (op) {
      case Op::kAdd: t = x + y; break;
      case Op::kSub: t = x - y; break;
      case Op::kMul: t = x * y; break;
      case Op::kMadd: t = x * y + z; break;   // x * y is exact (48 bits), so one rounding
      case Op::kMsub: t = x * y - z; break;
      case Op::kNmsub: t = -(x * y) + z; break;
      case Op::kNmadd: t = -(x * y) - z; break;
      case Op::kDiv: t = x / y; break;
      case Op::kSqrt: t = std::sqrt(static_cast<long double>(x)); break;
      case Op::kCvtSW: t = static_cast<long double>(static_cast<int32_t>(a)); break;
      case Op::kCvtSWu: t = static_cast<long double>(a); break;
      default: break;
    }
  });
  return round_half_away(t, (flags & kNx) != 0);
}

Result convert_to_int(bool is_signed, Rm rm, uint32_t a) {
  const uint32_t max = is_signed ? 0x7fffffffu : 0xffffffffu;
  const uint32_t min = is_signed ? 0x80000000u : 0u;
  if (is_nan(a)) return {max, kNv};
  const float x = as_float(a);
  if (std::fabs(x) >= 4294967296.0f) return {(a >> 31) ? min : max, kNv};  // includes inf
  int64_t r = 0;
  uint32_t flags = 0;
  if (rm == kRmm) {
    const double d = x;
    const double t = std::trunc(d);
    const double fraction = std::fabs(d - t);
    r = static_cast<int64_t>(t) + (fraction >= 0.5 ? (d < 0 ? -1 : 1) : 0);
    flags = fraction != 0 ? kNx : 0;
  } else {
    volatile float v = x;
    volatile long long rr = 0;
    flags = with_mode(host_mode(rm), [&] { rr = std::llrint(static_cast<float>(v)); });
    r = rr;
  }
  const int64_t lo = is_signed ? INT32_MIN : 0;
  const int64_t hi = is_signed ? INT32_MAX : UINT32_MAX;
  if (r < lo) return {min, kNv};
  if (r > hi) return {max, kNv};
  return {static_cast<uint32_t>(r), flags};
}

Result min_max(bool is_min, uint32_t a, uint32_t b) {
  const uint32_t flags = (is_snan(a) || is_snan(b)) ? kNv : 0;
  if (is_nan(a) && is_nan(b)) return {kCanonicalNan, flags};
  if (is_nan(a)) return {b, flags};
  if (is_nan(b)) return {a, flags};
  const float x = as_float(a);
  const float y = as_float(b);
  if (x < y) return {is_min ? a : b, flags};
  if (y < x) return {is_min ? b : a, flags};
  // Equal: only +0 and -0 differ in bits; -0 is the smaller.
  const bool a_negative = (a >> 31) != 0;
  return {(is_min == a_negative) ? a : b, flags};
}

uint32_t classify(uint32_t a) {
  const bool neg = (a >> 31) != 0;
  const uint32_t exp = (a >> 23) & 0xff;
  if (is_snan(a)) return 1u << 8;
  if (is_nan(a)) return 1u << 9;
  if (is_inf(a)) return neg ? 1u << 0 : 1u << 7;
  if (is_zero(a)) return neg ? 1u << 3 : 1u << 4;
  if (exp == 0) return neg ? 1u << 2 : 1u << 5;
  return neg ? 1u << 1 : 1u << 6;
}

}  // namespace

int operand_count(Op op) {
  switch (op) {
    case Op::kMadd: case Op::kMsub: case Op::kNmsub: case Op::kNmadd: return 3;
    case Op::kSqrt: case Op::kClass: case Op::kCvtWS: case Op::kCvtWuS: case Op::kCvtSW:
    case Op::kCvtSWu: case Op::kMvXW: case Op::kMvWX: return 1;
    default: return 2;
  }
}

bool reads_integer(Op op) { return op == Op::kCvtSW || op == Op::kCvtSWu || op == Op::kMvWX; }

bool uses_rounding_mode(Op op) {
  switch (op) {
    case Op::kAdd: case Op::kSub: case Op::kMul: case Op::kMadd: case Op::kMsub: case Op::kNmsub:
    case Op::kNmadd: case Op::kDiv: case Op::kSqrt: case Op::kCvtWS: case Op::kCvtWuS: case Op::kCvtSW:
    case Op::kCvtSWu: return true;
    default: return false;
  }
}

std::string_view op_name(Op op) {
  static constexpr std::string_view kNames[] = {
      "fadd", "fsub", "fmul", "fmadd", "fmsub", "fnmsub", "fnmadd", "fdiv", "fsqrt", "fmin", "fmax", "feq",
      "flt", "fle", "fclass", "fsgnj", "fsgnjn", "fsgnjx", "fcvt_w_s", "fcvt_wu_s", "fcvt_s_w", "fcvt_s_wu",
      "fmv_x_w", "fmv_w_x"};
  return kNames[static_cast<int>(op)];
}

Result reference(Op op, Rm rm, uint32_t a, uint32_t b, uint32_t c) {
  switch (op) {
    case Op::kAdd: case Op::kSub: case Op::kMul: case Op::kMadd: case Op::kMsub: case Op::kNmsub:
    case Op::kNmadd: case Op::kDiv: case Op::kSqrt: case Op::kCvtSW: case Op::kCvtSWu: {
      Result r = rm == kRmm ? rmm_arith(op, a, b, c) : host_arith(op, host_mode(rm), a, b, c);
      const bool fma = op == Op::kMadd || op == Op::kMsub || op == Op::kNmsub || op == Op::kNmadd;
      if (fma && ((is_inf(a) && is_zero(b)) || (is_zero(a) && is_inf(b)))) r.flags |= kNv;
      return r;
    }
    case Op::kMin: return min_max(true, a, b);
    case Op::kMax: return min_max(false, a, b);
    case Op::kEq: case Op::kLt: case Op::kLe: {
      // GCC compiles == to ucomiss (quiet: NV only for a signalling NaN) and < / <= to comiss
      // (signalling: NV for any NaN), which are exactly FEQ and FLT/FLE; value and flags are the host's.
      volatile float x = as_float(a);
      volatile float y = as_float(b);
      volatile bool r = false;
      const uint32_t flags = with_mode(FE_TONEAREST, [&] {
        r = op == Op::kEq ? (x == y) : op == Op::kLt ? (x < y) : (x <= y);
      });
      return {r ? 1u : 0u, flags};
    }
    case Op::kClass: return {classify(a), 0};
    case Op::kSgnj: return {(a & 0x7fffffffu) | (b & 0x80000000u), 0};
    case Op::kSgnjn: return {(a & 0x7fffffffu) | (~b & 0x80000000u), 0};
    case Op::kSgnjx: return {a ^ (b & 0x80000000u), 0};
    case Op::kCvtWS: return convert_to_int(true, rm, a);
    case Op::kCvtWuS: return convert_to_int(false, rm, a);
    case Op::kMvXW: case Op::kMvWX: return {a, 0};
    default: return {0, 0};
  }
}

}  // namespace kcraft::rvv_fpu
