#include "tasks/rvv/vector_kernels.h"

namespace kcraft::rvv::vector {

const std::string& layer_norm() {
  static const std::string text = R"(void kernel(void) {
  const float* x = (const float*)ADDR_X;
  const float* gamma = (const float*)ADDR_GAMMA;
  const float* beta = (const float*)ADDR_BETA;
  float* y = (float*)ADDR_Y;
  const size_t vlmax = __riscv_vsetvlmax_e32m@L@();
  for (int m = 0; m < M; ++m) {
    const float* xr = x + m * N;
    float* yr = y + m * N;
    vfloat32m@L@_t vsum = __riscv_vfmv_v_f_f32m@L@(0.0f, vlmax);
    for (size_t n = 0, vl; n < N; n += vl) {
      vl = __riscv_vsetvl_e32m@L@(N - n);
      vsum = __riscv_vfadd_vv_f32m@L@_tu(vsum, vsum, __riscv_vle32_v_f32m@L@(xr + n, vl), vl);
    }
    const float mean = __riscv_vfmv_f_s_f32m1_f32(
        __riscv_vfredusum_vs_f32m@L@_f32m1(vsum, __riscv_vfmv_s_f_f32m1(0.0f, 1), vlmax)) / N;
    vfloat32m@L@_t vsq = __riscv_vfmv_v_f_f32m@L@(0.0f, vlmax);
    for (size_t n = 0, vl; n < N; n += vl) {
      vl = __riscv_vsetvl_e32m@L@(N - n);
      vfloat32m@L@_t d = __riscv_vfsub_vf_f32m@L@(__riscv_vle32_v_f32m@L@(xr + n, vl), mean, vl);
      vsq = __riscv_vfmacc_vv_f32m@L@_tu(vsq, d, d, vl);
    }
    const float sum_sq = __riscv_vfmv_f_s_f32m1_f32(
        __riscv_vfredusum_vs_f32m@L@_f32m1(vsq, __riscv_vfmv_s_f_f32m1(0.0f, 1), vlmax));
    const float inv = 1.0f / kc_sqrtf(sum_sq / N + PARAM_EPS);
    for (size_t n = 0, vl; n < N; n += vl) {
      vl = __riscv_vsetvl_e32m@L@(N - n);
      vfloat32m@L@_t d = __riscv_vfsub_vf_f32m@L@(__riscv_vle32_v_f32m@L@(xr + n, vl), mean, vl);
      d = __riscv_vfmul_vf_f32m@L@(d, inv, vl);
      __riscv_vse32_v_f32m@L@(yr + n, __riscv_vfmadd_vv_f32m@L@(d, __riscv_vle32_v_f32m@L@(gamma + n, vl),
                                      __riscv_vle32_v_f32m@L@(beta + n, vl), vl), vl);
    }
  }
}
)";
  return text;
}

const std::string& rope() {
  static const std::string text = R"(void kernel(void) {
  const float* x = (const float*)ADDR_X;
  const float* cos_t = (const float*)ADDR_COS;
  const float* sin_t = (const float*)ADDR_SIN;
  float* y = (float*)ADDR_Y;
  const size_t half = D / 2;
  for (int h = 0; h < HEADS; ++h) {
    for (int s = 0; s < S; ++s) {
      const float* xr = x + (h * S + s) * D;
      const float* cr = cos_t + s * D;
      const float* sr = sin_t + s * D;
      float* yr = y + (h * S + s) * D;
      for (size_t d = 0, vl; d < half; d += vl) {
        vl = __riscv_vsetvl_e32m@L@(half - d);
        vfloat32m@L@_t lo = __riscv_vle32_v_f32m@L@(xr + d, vl);
        vfloat32m@L@_t hi = __riscv_vle32_v_f32m@L@(xr + half + d, vl);
        vfloat32m@L@_t y_lo = __riscv_vfmul_vv_f32m@L@(lo, __riscv_vle32_v_f32m@L@(cr + d, vl), vl);
        y_lo = __riscv_vfnmsac_vv_f32m@L@(y_lo, hi, __riscv_vle32_v_f32m@L@(sr + d, vl), vl);
        vfloat32m@L@_t y_hi = __riscv_vfmul_vv_f32m@L@(hi, __riscv_vle32_v_f32m@L@(cr + half + d, vl), vl);
        y_hi = __riscv_vfmacc_vv_f32m@L@(y_hi, lo, __riscv_vle32_v_f32m@L@(sr + half + d, vl), vl);
        __riscv_vse32_v_f32m@L@(yr + d, y_lo, vl);
        __riscv_vse32_v_f32m@L@(yr + half + d, y_hi, vl);
      }
    }
  }
}
)";
  return text;
}

const std::string& depthwise_conv() {
  static const std::string text = R"(void kernel(void) {
  const float* x = (const float*)ADDR_X;
  const float* w = (const float*)ADDR_W;
  float* y = (float*)ADDR_Y;
  const int out_h = (H + 2 * PAD - KH) / STRIDE + 1;
  const int out_w = (W + 2 * PAD - KW) / STRIDE + 1;
  for (int oh = 0; oh < out_h; ++oh) {
    for (int ow = 0; ow < out_w; ++ow) {
      float* yp = y + (oh * out_w + ow) * C;
      for (size_t c = 0, vl; c < C; c += vl) {
        vl = __riscv_vsetvl_e32m@L@(C - c);
        vfloat32m@L@_t acc = __riscv_vfmv_v_f_f32m@L@(0.0f, vl);
        for (int i = 0; i < KH; ++i) {
          const int ih = oh * STRIDE + i - PAD;
          if (ih < 0 || ih >= H) continue;
          for (int j = 0; j < KW; ++j) {
            const int iw = ow * STRIDE + j - PAD;
            if (iw < 0 || iw >= W) continue;
            acc = __riscv_vfmacc_vv_f32m@L@(acc, __riscv_vle32_v_f32m@L@(x + (ih * W + iw) * C + c, vl),
                                            __riscv_vle32_v_f32m@L@(w + (i * KW + j) * C + c, vl), vl);
          }
        }
        __riscv_vse32_v_f32m@L@(yp + c, acc, vl);
      }
    }
  }
}
)";
  return text;
}

const std::string& conv2d() {
  static const std::string text = R"(void kernel(void) {
  const float* x = (const float*)ADDR_X;
  const float* w = (const float*)ADDR_W;
  float* y = (float*)ADDR_Y;
  const int out_h = (H + 2 * PAD - KH) / STRIDE + 1;
  const int out_w = (W + 2 * PAD - KW) / STRIDE + 1;
  for (int oh = 0; oh < out_h; ++oh) {
    for (int ow = 0; ow < out_w; ++ow) {
      float* yp = y + (oh * out_w + ow) * F;
      for (size_t f = 0, vl; f < F; f += vl) {
        vl = __riscv_vsetvl_e32m@L@(F - f);
        vfloat32m@L@_t acc = __riscv_vfmv_v_f_f32m@L@(0.0f, vl);
        for (int i = 0; i < KH; ++i) {
          const int ih = oh * STRIDE + i - PAD;
          if (ih < 0 || ih >= H) continue;
          for (int j = 0; j < KW; ++j) {
            const int iw = ow * STRIDE + j - PAD;
            if (iw < 0 || iw >= W) continue;
            const float* xp = x + (ih * W + iw) * C;
            const float* wp = w + (i * KW + j) * C * F + f;
            for (int c = 0; c < C; ++c)
              acc = __riscv_vfmacc_vf_f32m@L@(acc, xp[c], __riscv_vle32_v_f32m@L@(wp + c * F, vl), vl);
          }
        }
        __riscv_vse32_v_f32m@L@(yp + f, acc, vl);
      }
    }
  }
}
)";
  return text;
}

}  // namespace kcraft::rvv::vector
