/* kcraft_math.h: the few math functions rvv kernels need, without a libc or libm (kernels are bare-metal:
 * -ffreestanding -nostdlib). Plain C, header-only; the baseline compiler pastes it into the kernels that use
 * it, and a hand-written kernel may copy it.
 *
 * kc_expf(x): e^x in binary32. Cody-Waite range reduction x = k ln2 + r (|r| <= ln2/2, ln2 split in two
 *   parts so k ln2 is exact enough), the degree-6 minimax polynomial of Cephes' expf for e^r, and 2^k applied
 *   as two exact power-of-two factors, so results in the subnormal range are rounded once. Accuracy,
 *   measured under QEMU against exp in double (tests/rvv_tasks, RvvMath: 512K arguments, a uniform grid over
 *   [-104, 89] and a sweep of bit patterns over |x| in [2^-30, 104]): at most 1 ulp (0.99) on normal
 *   results, at most 0.75 of the least subnormal on subnormal ones. +inf where e^x > FLT_MAX
 *   (x > 88.7228), 0 where e^x < 2^-150 (half the least subnormal, x < -103.97); NaN gives NaN.
 *   Branch-free (selects only), so clang's loop vectorizer turns loops that call it into RVV code.
 * kc_tanhf(x): tanh in binary32, Cephes' tanhf: for |x| <= 0.625 the odd minimax polynomial
 *   x + x^3 P(x^2) (no cancellation near 0), above it 1 - 2 / (e^{2|x|} + 1) with kc_expf, the sign restored;
 *   +-1 once e^{2|x|} overflows. At most 1.25 ulp (1.244 measured under QEMU against tanh in double,
 *   tests/rvv_tasks RvvMath.TanhfIsWithinTwoUlp: 512K arguments over [-12, 12] and |x| in [2^-30, 12]).
 *   Both branches are computed and one selected, so loops that call it vectorise like kc_expf's.
 * kc_sqrtf(x): the F extension's fsqrt.s (correctly rounded). __builtin_sqrtf would do the same at -O2 only
 *   with -fno-math-errno; without it clang calls sqrtf() for errno's sake, and there is no libm to link.
 */
#ifndef KCRAFT_MATH_H
#define KCRAFT_MATH_H

/* unused: pasted into a kernel, a function the kernel does not call would warn (-Wunused-function). */
#define KC_MATH_FN static inline __attribute__((unused))

KC_MATH_FN float kc_bits_to_float(int bits) {
  union {
    int i;
    float f;
  } u;
  u.i = bits;
  return u.f;
}

KC_MATH_FN float kc_expf(float x) {
  x = x < -104.0f ? -104.0f : x; /* e^-104 rounds to 0: clamping keeps 2^k's exponent fields valid */
  x = x > 89.0f ? 89.0f : x;     /* e^89 overflows: the result below is +inf */
  const int k = (int)(x * 1.44269504088896341f + (x < 0.0f ? -0.5f : 0.5f)); /* round(x / ln2) */
  const float kf = (float)k;
  const float r = (x - kf * 0.693359375f) + kf * 2.12194440e-4f; /* x - k ln2: ln2 = 0.693359375 - 2.12e-4 */
  float p = 1.9875691500e-4f;
  p = p * r + 1.3981999507e-3f;
  p = p * r + 8.3334519073e-3f;
  p = p * r + 4.1665795894e-2f;
  p = p * r + 1.6666665459e-1f;
  p = p * r + 5.0000001201e-1f;
  p = p * r * r + r + 1.0f; /* e^r */
  /* 2^k as 2^k1 * 2^(k - k1): k is in [-150, 128], each factor a normal power of two. */
  const int k1 = k >> 1;
  return p * kc_bits_to_float((k1 + 127) << 23) * kc_bits_to_float((k - k1 + 127) << 23);
}

KC_MATH_FN float kc_tanhf(float x) {
  const float ax = x < 0.0f ? -x : x;
  float large = 1.0f - 2.0f / (kc_expf(2.0f * ax) + 1.0f);
  large = x < 0.0f ? -large : large;
  const float z = x * x;
  const float small =
      ((((-5.70498872745e-3f * z + 2.06390887954e-2f) * z - 5.37397155531e-2f) * z + 1.33314422036e-1f) * z -
       3.33332819422e-1f) * z * x + x;
  return ax > 0.625f ? large : small;
}

KC_MATH_FN float kc_sqrtf(float x) {
  float r;
  __asm__("fsqrt.s %0, %1" : "=f"(r) : "f"(x));
  return r;
}

#endif /* KCRAFT_MATH_H */
