#include "isa/common/arith/fp_arith.h"

#include <cmath>
#include <cstring>

// The ref:: functions mirror rtl/common/kc_fp_pkg.sv step by step: same operand widths, same shifts, same
// constants. When changing one, change the other; the RTL-vs-C++ test (tests/arith) compares them.

namespace kcraft::arith {

namespace {

using detail::daz32;
using detail::is_nan32;

constexpr F32 kPosInf32 = 0x7F800000u;
constexpr F32 kOne32 = 0x3F800000u;

constexpr uint32_t sign_of(F32 x) {
  return x >> 31;
}
constexpr uint32_t exp_of(F32 x) {
  return (x >> 23) & 0xFFu;
}
constexpr uint32_t frac_of(F32 x) {
  return x & 0x7FFFFFu;
}
constexpr F32 pack(uint32_t sign, uint32_t biased_exp, uint32_t frac) {
  return (sign << 31) | (biased_exp << 23) | (frac & 0x7FFFFFu);
}

// Number of leading zeros of the low `width` bits of v (width when v == 0).
constexpr uint32_t leading_zeros(uint32_t v, uint32_t width) {
  uint32_t count = 0;
  for (uint32_t bit = width; bit-- > 0;) {
    if ((v >> bit) & 1u) break;
    ++count;
  }
  return count;
}

// Rounds a fixed-point significand q that holds 24 + `extra` bits (value in [2^(23+extra), 2^(24+extra)))
// half-up to 24 bits. Returns the 24- or 25-bit result (2^24 when the rounding carried out).
constexpr uint64_t round_half_up(uint64_t q, uint32_t extra) {
  return (q >> extra) + ((q >> (extra - 1)) & 1u);
}

// ---- exp constants (see docs/arithmetic.md and fit_coefficients.py) ----
constexpr uint64_t kLog2eQ39 = 0xB8AA3B295Cull;  // round(log2(e) * 2^39)
// 2^f ~= sum kExpPoly[i] * f^i on [0, 1), Q2.30, relative minimax with kExpPoly[0] = 1 exactly.
constexpr uint64_t kExpPoly[7] = {1073741824u, 744260972u, 257944253u, 59576866u,
                                  10388937u,   1338724u,   232067u};

// ---- reciprocal seed: 1/M ~= 24/17 - 8/17 * M on [1, 2), Q1.31 ----
constexpr uint64_t kReciSeedA = 3031741621u;  // round(24/17 * 2^31)
constexpr uint64_t kReciSeedB = 1010580540u;  // round(8/17 * 2^31)

// ---- rsqrt seeds: 1/sqrt(M) ~= A - B * M, M in [1, 2) and [2, 4), Q1.31 (relative minimax) ----
constexpr uint64_t kRsqrtSeedA1 = 2714663486u;
constexpr uint64_t kRsqrtSeedB1 = 614982852u;
constexpr uint64_t kRsqrtSeedA2 = 1919556960u;
constexpr uint64_t kRsqrtSeedB2 = 217429272u;
constexpr int kNewtonSteps = 3;

}  // namespace

namespace ref {

F32 bf16_to_fp32(Bf16 x) {
  return detail::bf16_to_fp32(x);
}
Bf16 fp32_to_bf16(F32 x) {
  return detail::fp32_to_bf16(x);
}
F32 fp32_max(F32 a, F32 b) {
  return detail::fp32_max(a, b);
}
F32 fp32_min(F32 a, F32 b) {
  return detail::fp32_min(a, b);
}

F32 int32_to_fp32(int32_t x) {
  const uint32_t sign = static_cast<uint32_t>(x) >> 31;
  const uint32_t mag = sign != 0 ? 0u - static_cast<uint32_t>(x) : static_cast<uint32_t>(x);
  if (mag == 0) return 0;
  const uint32_t lz = leading_zeros(mag, 32);
  const uint32_t norm = mag << lz;  // bit 31 set
  uint32_t mant = norm >> 8;
  const uint32_t guard = (norm >> 7) & 1u;
  const uint32_t sticky = (norm & 0x7Fu) != 0;
  mant += guard & (sticky | (mant & 1u));
  uint32_t biased_exp = 158 - lz;  // 2^31 has biased exponent 127 + 31
  if ((mant >> 24) != 0) {
    mant >>= 1;
    ++biased_exp;
  }
  return pack(sign, biased_exp, mant);
}

F32 fp32_add(F32 a, F32 b) {
  const uint32_t ea = exp_of(a);
  const uint32_t eb = exp_of(b);
  const bool a_inf = ea == 0xFF && frac_of(a) == 0;
  const bool b_inf = eb == 0xFF && frac_of(b) == 0;
  if (is_nan32(a) || is_nan32(b)) return kCanonicalNaN32;
  if (a_inf && b_inf) return sign_of(a) == sign_of(b) ? a : kCanonicalNaN32;
  if (a_inf) return a;
  if (b_inf) return b;
  // DAZ: a zero exponent field reads as a signed zero.
  if (ea == 0 && eb == 0) return (sign_of(a) & sign_of(b)) << 31;
  if (ea == 0) return b;
  if (eb == 0) return a;

  const bool swap = (a & detail::kMagMask32) < (b & detail::kMagMask32);
  const F32 big = swap ? b : a;
  const F32 small = swap ? a : b;
  const uint32_t e_big = exp_of(big);
  const uint32_t sign = sign_of(big);
  // 24-bit significands with three extra low bits (guard, round, sticky): enough for correct rounding.
  const uint32_t m_big = (0x800000u | frac_of(big)) << 3;
  const uint32_t m_small_full = (0x800000u | frac_of(small)) << 3;
  const uint32_t shift = e_big - exp_of(small);
  const uint32_t aligned = shift >= 27 ? 0 : m_small_full >> shift;
  const uint32_t lost_mask = shift >= 27 ? 0x7FFFFFFu : (1u << shift) - 1;
  const uint32_t m_small = aligned | ((m_small_full & lost_mask) != 0 ? 1u : 0u);
  const uint32_t sum = sign_of(a) == sign_of(b) ? m_big + m_small : m_big - m_small;  // 28 bits
  if (sum == 0) return 0;  // exact cancellation gives +0 under round-to-nearest

  uint32_t norm;  // 27 bits, bit 26 set
  uint32_t biased_exp;
  if ((sum >> 27) != 0) {
    norm = (sum >> 1) | (sum & 1u);
    biased_exp = e_big + 1;
  } else {
    const uint32_t lz = leading_zeros(sum, 27);
    // Results below 2^-126 only arise from near-equal operands and are exact, so flushing before rounding
    // is the same as flushing after it.
    if (lz >= e_big) return sign << 31;
    norm = (sum << lz) & 0x7FFFFFFu;
    biased_exp = e_big - lz;
  }
  uint32_t mant = norm >> 3;
  const uint32_t guard = (norm >> 2) & 1u;
  const uint32_t sticky = (norm & 3u) != 0;
  mant += guard & (sticky | (mant & 1u));
  if ((mant >> 24) != 0) {
    mant >>= 1;
    ++biased_exp;
  }
  if (biased_exp >= 0xFF) return (sign << 31) | kPosInf32;
  return pack(sign, biased_exp, mant);
}

F32 fp32_sub(F32 a, F32 b) {
  return fp32_add(a, b ^ detail::kSignMask32);
}

F32 fp32_mul(F32 a, F32 b) {
  const uint32_t ea = exp_of(a);
  const uint32_t eb = exp_of(b);
  const uint32_t sign = sign_of(a) ^ sign_of(b);
  if (is_nan32(a) || is_nan32(b)) return kCanonicalNaN32;
  if (ea == 0xFF || eb == 0xFF) return (ea == 0 || eb == 0) ? kCanonicalNaN32 : (sign << 31) | kPosInf32;
  if (ea == 0 || eb == 0) return sign << 31;

  const uint64_t product = uint64_t{0x800000u | frac_of(a)} * (0x800000u | frac_of(b));  // [2^46, 2^48)
  const uint32_t top = static_cast<uint32_t>(product >> 47);
  const uint32_t shift = 23 + top;
  uint32_t mant = static_cast<uint32_t>(product >> shift);  // 24 bits
  const uint32_t guard = static_cast<uint32_t>(product >> (shift - 1)) & 1u;
  const uint32_t sticky = (product & ((uint64_t{1} << (shift - 1)) - 1)) != 0;
  mant += guard & (sticky | (mant & 1u));
  // Biased result exponent + 127, kept non-negative: ea + eb + carries in [2, 510].
  uint32_t exp_sum = ea + eb + top;
  if ((mant >> 24) != 0) {
    mant >>= 1;
    ++exp_sum;
  }
  // Tininess after rounding (x86): the exponent is checked on the rounded significand.
  if (exp_sum <= 127) return sign << 31;
  if (exp_sum >= 127 + 0xFF) return (sign << 31) | kPosInf32;
  return pack(sign, exp_sum - 127, mant);
}

F32 bf16_mul(Bf16 a, Bf16 b) {
  const uint32_t ea = (a >> 7) & 0xFFu;
  const uint32_t eb = (b >> 7) & 0xFFu;
  const uint32_t fa = a & 0x7Fu;
  const uint32_t fb = b & 0x7Fu;
  const uint32_t sign = ((a ^ b) >> 15) & 1u;
  if ((ea == 0xFF && fa != 0) || (eb == 0xFF && fb != 0)) return kCanonicalNaN32;
  if (ea == 0xFF || eb == 0xFF) return (ea == 0 || eb == 0) ? kCanonicalNaN32 : (sign << 31) | kPosInf32;
  if (ea == 0 || eb == 0) return sign << 31;

  const uint32_t product = (0x80u | fa) * (0x80u | fb);  // [2^14, 2^16): exact, no rounding
  const uint32_t top = product >> 15;
  const uint32_t mant = product << (9 - top);  // 24 bits, bit 23 set
  const uint32_t exp_sum = ea + eb + top;
  if (exp_sum <= 127) return sign << 31;
  if (exp_sum >= 127 + 0xFF) return (sign << 31) | kPosInf32;
  return pack(sign, exp_sum - 127, mant);
}

// exp(x) = 2^t with t = x * log2(e) = n + f, n integer, f in [0, 1).
F32 fp32_exp(F32 x) {
  const uint32_t e = exp_of(x);
  const uint32_t sign = sign_of(x);
  if (is_nan32(x)) return kCanonicalNaN32;
  if (e == 0) return kOne32;  // +-0 and (DAZ) subnormals
  // |x| >= 128 (including infinity): far beyond both the overflow (88.72) and underflow (-87.34) limits.
  if (e >= 134) return sign != 0 ? 0u : kPosInf32;

  // |t| = m * log2(e) * 2^(e - 150) in Q.32 fixed point; m * kLog2eQ39 < 2^64.
  const uint64_t product = uint64_t{0x800000u | frac_of(x)} * kLog2eQ39;
  const uint32_t shift = 157 - e;                             // 150 + 39 - 32 - e, in [24, 156]
  const uint64_t t_mag = shift >= 64 ? 0 : product >> shift;  // < 185 * 2^32
  const uint32_t int_mag = static_cast<uint32_t>(t_mag >> 32);
  const uint32_t frac_mag = static_cast<uint32_t>(t_mag);
  // n = floor(t) and f = t - n, for t = -|t| when x < 0.
  const uint32_t f = sign != 0 ? 0u - frac_mag : frac_mag;  // Q0.32
  int32_t n = static_cast<int32_t>(int_mag);
  if (sign != 0) n = -n - (frac_mag != 0 ? 1 : 0);

  // 2^f by Horner in Q2.30; all coefficients are positive, so q stays in [2^30, 2^31].
  uint64_t q = kExpPoly[6];
  for (int i = 5; i >= 1; --i) q = kExpPoly[i] + static_cast<uint32_t>((q * f) >> 32);
  const uint64_t q_top = (kExpPoly[0] + static_cast<uint32_t>((q * f) >> 32)) >> 6;  // 26 bits

  // Round half-up to 24 bits; 2^f rounded up to 2.0 (q_top bit 25) moves to the next binade.
  uint32_t mant;
  if ((q_top >> 25) != 0) {
    mant = static_cast<uint32_t>(round_half_up(q_top, 2));
    ++n;
  } else {
    mant = static_cast<uint32_t>(round_half_up(q_top, 1));
  }
  if ((mant >> 24) != 0) {
    mant >>= 1;
    ++n;
  }
  const int32_t biased_exp = n + 127;
  if (biased_exp >= 0xFF) return kPosInf32;
  if (biased_exp <= 0) return 0;  // FTZ
  return pack(0, static_cast<uint32_t>(biased_exp), mant);
}

// 1/x = (1/M) * 2^-(e-127) with M in [1, 2): linear seed and three Newton-Raphson steps r' = r * (2 - M*r)
// in Q1.31; every iterate is <= 1/M <= 1, so r fits in 32 bits.
F32 fp32_reci(F32 x) {
  const uint32_t e = exp_of(x);
  const uint32_t sign = sign_of(x);
  if (is_nan32(x)) return kCanonicalNaN32;
  if (e == 0xFF) return sign << 31;             // 1/+-inf = +-0
  if (e == 0) return (sign << 31) | kPosInf32;  // 1/+-0 = +-inf (DAZ: subnormals too)

  const uint64_t m24 = 0x800000u | frac_of(x);  // Q1.23
  const uint64_t m32 = m24 << 8;                // Q1.31
  auto r = static_cast<uint32_t>(kReciSeedA - static_cast<uint32_t>((m24 * kReciSeedB) >> 23));
  for (int step = 0; step < kNewtonSteps; ++step) {
    // M*r < 2 (Q2.62 < 2^63), so 2 - M*r in Q1.31 fits 32 bits.
    const auto two_minus_mr = static_cast<uint32_t>(((uint64_t{1} << 63) - m32 * r) >> 31);
    r = static_cast<uint32_t>((uint64_t{r} * two_minus_mr) >> 31);
  }
  // r in (2^30, 2^31]: normalise to [1, 2) and round to 24 bits.
  uint32_t mant;
  uint32_t biased_exp = 253 - e;  // for 1/M in [0.5, 1)
  if ((r >> 31) != 0) {
    mant = static_cast<uint32_t>(round_half_up(r, 8));
    ++biased_exp;
  } else {
    mant = static_cast<uint32_t>(round_half_up(r, 7));
  }
  if ((mant >> 24) != 0) {
    mant >>= 1;
    ++biased_exp;
  }
  // e >= 253 gives a result below 2^-126 unless it rounded up to exactly 2^-126: FTZ. (biased_exp wraps
  // to a huge value for e = 254.)
  if (biased_exp == 0 || biased_exp > 0xFF) return sign << 31;
  return pack(sign, biased_exp, mant);
}

// 1/sqrt(x) = (1/sqrt(M')) * 2^(-E'/2) with E' even and M' in [1, 4): per-octave linear seed and three
// Newton-Raphson steps y' = y * (3 - M'*y^2) / 2; every iterate is <= 1/sqrt(M') <= 1.
F32 fp32_rsqrt(F32 x) {
  const uint32_t e = exp_of(x);
  const uint32_t sign = sign_of(x);
  if (is_nan32(x)) return kCanonicalNaN32;
  if (e == 0) return (sign << 31) | kPosInf32;  // rsqrt(+-0) = +-inf (DAZ: subnormals too)
  if (sign != 0) return kCanonicalNaN32;        // negative, including -inf
  if (e == 0xFF) return 0;                      // rsqrt(+inf) = +0

  const uint64_t m24 = 0x800000u | frac_of(x);
  // An odd unbiased exponent (even biased e) moves one factor 2 into the significand: M' in [2, 4).
  const bool odd = (e & 1u) == 0;
  const uint64_t m30 = odd ? m24 << 8 : m24 << 7;  // Q2.30
  auto y = static_cast<uint32_t>(odd ? kRsqrtSeedA2 - static_cast<uint32_t>((m30 * kRsqrtSeedB2) >> 30)
                                     : kRsqrtSeedA1 - static_cast<uint32_t>((m30 * kRsqrtSeedB1) >> 30));
  for (int step = 0; step < kNewtonSteps; ++step) {
    const auto y_squared = static_cast<uint32_t>((uint64_t{y} * y) >> 31);  // Q1.31
    // M'*y^2 is close to 1 (Q3.61), so 3 - M'*y^2 in Q2.30 fits 32 bits.
    const auto three_minus = static_cast<uint32_t>(((uint64_t{3} << 61) - m30 * y_squared) >> 31);
    y = static_cast<uint32_t>((uint64_t{y} * three_minus) >> 31);  // y * (3 - M'y^2) / 2 in Q1.31
  }
  uint32_t mant;
  uint32_t biased_exp = (380 - e) >> 1;  // 126 - E'/2 for y in [0.5, 1)
  if ((y >> 31) != 0) {
    mant = static_cast<uint32_t>(round_half_up(y, 8));
    ++biased_exp;
  } else {
    mant = static_cast<uint32_t>(round_half_up(y, 7));
  }
  if ((mant >> 24) != 0) {
    mant >>= 1;
    ++biased_exp;
  }
  return pack(0, biased_exp, mant);
}

F32 fp32_sqrt(F32 x) {
  if (is_nan32(x)) return kCanonicalNaN32;
  if (exp_of(x) == 0) return x & detail::kSignMask32;  // +-0 (DAZ: subnormals too)
  if (sign_of(x) != 0) return kCanonicalNaN32;
  if (exp_of(x) == 0xFF) return kPosInf32;
  return fp32_mul(x, fp32_rsqrt(x));
}

}  // namespace ref

// ---- fast path (out-of-line parts) ----

namespace {
constexpr unsigned kMxcsrDaz = 0x0040u;
constexpr unsigned kMxcsrExceptionMasks = 0x1F80u;
constexpr unsigned kMxcsrRoundingMask = 0x6000u;  // 00 = round to nearest even
constexpr unsigned kMxcsrFtz = 0x8000u;
}  // namespace

FpEnvGuard::FpEnvGuard() {
#if KCRAFT_ARITH_NATIVE_SSE
  saved_mxcsr_ = _mm_getcsr();
  _mm_setcsr((saved_mxcsr_ & ~kMxcsrRoundingMask) | kMxcsrFtz | kMxcsrDaz | kMxcsrExceptionMasks);
#else
  saved_mxcsr_ = 0;
#endif
}

FpEnvGuard::~FpEnvGuard() {
#if KCRAFT_ARITH_NATIVE_SSE
  _mm_setcsr(saved_mxcsr_);
#endif
}

bool FpEnvGuard::active() {
#if KCRAFT_ARITH_NATIVE_SSE
  return detail::sse_env_ok();
#else
  return true;
#endif
}

F32 fp32_sqrt(F32 x) {
  if (is_nan32(x)) return kCanonicalNaN32;
  if (exp_of(x) == 0) return x & detail::kSignMask32;
  if (sign_of(x) != 0) return kCanonicalNaN32;
  if (exp_of(x) == 0xFF) return kPosInf32;
  return fp32_mul(x, ref::fp32_rsqrt(x));
}

float f32_to_float(F32 x) {
  return detail::bits_to_float(x);
}
F32 float_to_f32(float x) {
  return detail::float_to_bits(x);
}

double bf16_to_double(Bf16 x) {
  return static_cast<double>(f32_to_float(bf16_to_fp32(x)));
}

namespace {
// Rounds |x| (finite, non-zero) to `bits` significant bits, nearest-even, with an unbounded exponent.
// Returns the significand in [2^(bits-1), 2^bits) and sets *exp2 so that the value is sig * 2^(*exp2).
uint64_t round_double_significand(double mag, int bits, int* exp2) {
  uint64_t raw;
  std::memcpy(&raw, &mag, sizeof raw);
  const int biased = static_cast<int>((raw >> 52) & 0x7FF);
  uint64_t sig = raw & ((uint64_t{1} << 52) - 1);
  int e;
  if (biased == 0) {  // subnormal double: normalise
    const int lz = __builtin_clzll(sig) - 11;
    sig <<= lz;
    e = -1074 - lz;
  } else {
    sig |= uint64_t{1} << 52;
    e = biased - 1075;
  }
  // sig in [2^52, 2^53), value = sig * 2^e.
  const int drop = 53 - bits;
  const uint64_t kept = sig >> drop;
  const uint64_t rest = sig & ((uint64_t{1} << drop) - 1);
  const uint64_t half = uint64_t{1} << (drop - 1);
  uint64_t rounded = kept + ((rest > half || (rest == half && (kept & 1u) != 0)) ? 1 : 0);
  e += drop;
  if ((rounded >> bits) != 0) {
    rounded >>= 1;
    ++e;
  }
  *exp2 = e;
  return rounded;
}
}  // namespace

F32 double_to_fp32(double x) {
  if (std::isnan(x)) return kCanonicalNaN32;
  const uint32_t sign = std::signbit(x) ? 1u : 0u;
  if (std::isinf(x)) return (sign << 31) | kPosInf32;
  if (x == 0.0) return sign << 31;
  int e = 0;
  const uint64_t sig = round_double_significand(std::fabs(x), 24, &e);
  const int biased_exp = e + 23 + 127;
  if (biased_exp <= 0) return sign << 31;
  if (biased_exp >= 0xFF) return (sign << 31) | kPosInf32;
  return pack(sign, static_cast<uint32_t>(biased_exp), static_cast<uint32_t>(sig));
}

Bf16 double_to_bf16(double x) {
  if (std::isnan(x)) return kCanonicalNaN16;
  const uint32_t sign = std::signbit(x) ? 1u : 0u;
  if (std::isinf(x)) return static_cast<Bf16>((sign << 15) | 0x7F80u);
  if (x == 0.0) return static_cast<Bf16>(sign << 15);
  int e = 0;
  const uint64_t sig = round_double_significand(std::fabs(x), 8, &e);
  const int biased_exp = e + 7 + 127;
  if (biased_exp <= 0) return static_cast<Bf16>(sign << 15);
  if (biased_exp >= 0xFF) return static_cast<Bf16>((sign << 15) | 0x7F80u);
  return static_cast<Bf16>((sign << 15) | (static_cast<uint32_t>(biased_exp) << 7) | (sig & 0x7Fu));
}

}  // namespace kcraft::arith
