#include "tasks/rvv/kernel_math.h"

#include <fmt/format.h>

#include <stdexcept>

namespace kcraft::rvv {

extern const char* const kKcraftMathHeader;  // kcraft_math.h (generated: math_header.cpp)

namespace {

// kc_expf's range reduction and polynomial (kcraft_math.h) per element, 2^k applied as one integer add to
// the result's exponent field (2 instructions instead of kc_expf's 8 for two powers of two): x is clamped to
// [-86, 88.7], where k = round(x / ln2) is in [-124, 128] and e^r 2^k a normal number (e^r < 1 when k is
// 128), so below -86 the result is e^-86 (4.4e-38, not 0 or a subnormal) and above 88.7 it is e^88.7
// (3.3e38, not infinity). A NaN input is not propagated (vfmax/vfmin return the other operand): task
// inputs are finite.
const char* kVectorExp = R"(static inline vfloat32m@L@_t kc_vexpf(vfloat32m@L@_t x, size_t vl) {
  x = __riscv_vfmin_vf_f32m@L@(__riscv_vfmax_vf_f32m@L@(x, -86.0f, vl), 88.7f, vl);
  /* k = round(x / ln2) (fcsr's default round-to-nearest-even), r = x - k ln2 in two parts */
  vint32m@L@_t k = __riscv_vfcvt_x_f_v_i32m@L@(__riscv_vfmul_vf_f32m@L@(x, 1.44269504088896341f, vl), vl);
  vfloat32m@L@_t kf = __riscv_vfcvt_f_x_v_f32m@L@(k, vl);
  vfloat32m@L@_t r = __riscv_vfnmsac_vf_f32m@L@(x, 0.693359375f, kf, vl);
  r = __riscv_vfmacc_vf_f32m@L@(r, 2.12194440e-4f, kf, vl);
  vfloat32m@L@_t p = __riscv_vfadd_vf_f32m@L@(__riscv_vfmul_vf_f32m@L@(r, 1.9875691500e-4f, vl), 1.3981999507e-3f, vl);
  p = __riscv_vfadd_vf_f32m@L@(__riscv_vfmul_vv_f32m@L@(p, r, vl), 8.3334519073e-3f, vl);
  p = __riscv_vfadd_vf_f32m@L@(__riscv_vfmul_vv_f32m@L@(p, r, vl), 4.1665795894e-2f, vl);
  p = __riscv_vfadd_vf_f32m@L@(__riscv_vfmul_vv_f32m@L@(p, r, vl), 1.6666665459e-1f, vl);
  p = __riscv_vfadd_vf_f32m@L@(__riscv_vfmul_vv_f32m@L@(p, r, vl), 5.0000001201e-1f, vl);
  p = __riscv_vfmadd_vv_f32m@L@(__riscv_vfmul_vv_f32m@L@(p, r, vl), r, r, vl); /* p r^2 + r */
  p = __riscv_vfadd_vf_f32m@L@(p, 1.0f, vl);
  /* times 2^k: e^r is in [0.70, 1.42] (below 1 when k is 128), so k added to its exponent field stays in
     the normal range */
  vint32m@L@_t bits = __riscv_vadd_vv_i32m@L@(__riscv_vreinterpret_v_f32m@L@_i32m@L@(p), __riscv_vsll_vx_i32m@L@(k, 23, vl), vl);
  return __riscv_vreinterpret_v_i32m@L@_f32m@L@(bits);
}

)";

}  // namespace

const std::string& math_header() {
  static const std::string text = kKcraftMathHeader;
  return text;
}

std::string vector_exp_source(int lmul) {
  if (lmul != 1 && lmul != 2 && lmul != 4 && lmul != 8)
    throw std::invalid_argument(fmt::format("rvv: LMUL {} is not 1, 2, 4 or 8", lmul));
  // @L@ is LMUL, its only placeholder.
  std::string text = kVectorExp;
  const std::string l = std::to_string(lmul);
  for (size_t at = text.find("@L@"); at != std::string::npos; at = text.find("@L@", at + l.size()))
    text.replace(at, 3, l);
  return text;
}

}  // namespace kcraft::rvv
