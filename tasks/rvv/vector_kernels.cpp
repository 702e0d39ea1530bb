#include "tasks/rvv/vector_kernels.h"

#include "tasks/rvv/kernel_math.h"
#include "tasks/rvv/scalar_pieces.h"

#include <fmt/format.h>

#include <cstring>
#include <stdexcept>
#include <utility>

namespace kcraft::rvv::vector {

std::string subst(std::string text, const std::map<std::string, std::string>& values) {
  for (const auto& [key, value] : values) {
    const std::string pattern = "@" + key + "@";
    for (size_t at = text.find(pattern); at != std::string::npos; at = text.find(pattern, at + value.size()))
      text.replace(at, pattern.size(), value);
  }
  if (text.find('@') != std::string::npos) throw std::logic_error("rvv template: unreplaced placeholder");
  return text;
}

const std::string& vlmax_helper() {
  static const std::string text = R"(#ifndef KC_VLMAX_M@L@_DEFINED
#define KC_VLMAX_M@L@_DEFINED
/* An accumulator's width: VLMAX, but no wider than the loop it covers (a reduction costs a cycle per
   element, idle ones included). Every strip's vl is at most both. */
static inline size_t kc_vlmax_e32m@L@(size_t len) {
  const size_t vlmax = __riscv_vsetvlmax_e32m@L@();
  return len < vlmax ? len : vlmax;
}
#endif
)";
  return text;
}

const std::string& layer_norm() {
  static const std::string text = R"(void kernel(void) {
  const float* x = (const float*)ADDR_X;
  const float* gamma = (const float*)ADDR_GAMMA;
  const float* beta = (const float*)ADDR_BETA;
  float* y = (float*)ADDR_Y;
  const size_t vlmax = kc_vlmax_e32m@L@((size_t)(N));
  for (int m = 0; m < M; ++m) {
    const float* xr = x + m * N;
    float* yr = y + m * N;
    /* The mean sums x - x[0], exact for values near x[0]: a large common offset costs no digits. */
    const float shift = xr[0];
    vfloat32m@L@_t vsum = __riscv_vfmv_v_f_f32m@L@(0.0f, vlmax);
    for (size_t n = 0, vl; n < N; n += vl) {
      vl = __riscv_vsetvl_e32m@L@(N - n);
      vsum = __riscv_vfadd_vv_f32m@L@_tu(
          vsum, vsum, __riscv_vfsub_vf_f32m@L@(__riscv_vle32_v_f32m@L@(xr + n, vl), shift, vl), vl);
    }
    const float mean = shift + __riscv_vfmv_f_s_f32m1_f32(__riscv_vfredusum_vs_f32m@L@_f32m1(
                                   vsum, __riscv_vfmv_s_f_f32m1(0.0f, 1), vlmax)) / N;
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

std::string depthwise_conv_streaming() {
  return R"(void kernel(void) {
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
}

std::string depthwise_conv(int64_t kw, int64_t stride, int64_t unroll) {
  if (unroll < 1) return depthwise_conv_streaming();
  // The input columns a pass of `unroll` output pixels reads in one tap row, each loaded once (unless in the
  // padding) and multiplied into every accumulator whose window holds it: column t serves pixel u with tap
  // j = t - u * STRIDE. (Loading the next column ahead of this one's multiply-adds made clang hoist every
  // load of the row and spill register groups: slower.)
  const int64_t columns = (unroll - 1) * stride + kw;
  std::string decl_acc, decl_w, taps, stores;
  for (int64_t u = 0; u < unroll; ++u) {
    decl_acc += fmt::format("        vfloat32m@L@_t acc{} = __riscv_vfmv_v_f_f32m@L@(0.0f, vl);\n", u);
    stores += fmt::format(
        "        if (ow + {0} < out_w) __riscv_vse32_v_f32m@L@(y + ((oh * out_w + ow + {0}) * C + c), "
        "acc{0}, vl);\n",
        u);
  }
  for (int64_t j = 0; j < kw; ++j) {
    decl_w +=
        fmt::format("          const vfloat32m@L@_t w{0} = __riscv_vle32_v_f32m@L@(wr + {0} * C, vl);\n", j);
  }
  for (int64_t t = 0; t < columns; ++t) {
    std::string fmas;
    for (int64_t u = 0; u < unroll; ++u) {
      const int64_t j = t - u * stride;
      if (j < 0 || j >= kw) continue;
      fmas += fmt::format("            acc{0} = __riscv_vfmacc_vv_f32m@L@(acc{0}, w{1}, xv, vl);\n", u, j);
    }
    taps += fmt::format(
        "          if ((unsigned)(iw0 + {0}) < (unsigned)W) {{\n"
        "            const vfloat32m@L@_t xv = __riscv_vle32_v_f32m@L@(xr + (iw0 + {0}) * C, vl);\n{1}"
        "          }}\n",
        t, fmas);
  }
  return fmt::format(R"(void kernel(void) {{
  const float* x = (const float*)ADDR_X;
  const float* w = (const float*)ADDR_W;
  float* y = (float*)ADDR_Y;
  const int out_h = (H + 2 * PAD - KH) / STRIDE + 1;
  const int out_w = (W + 2 * PAD - KW) / STRIDE + 1;
  for (int oh = 0; oh < out_h; ++oh) {{
    for (int ow = 0; ow < out_w; ow += {0}) {{
      const int iw0 = ow * STRIDE - PAD;
      for (size_t c = 0, vl; c < C; c += vl) {{
        vl = __riscv_vsetvl_e32m@L@(C - c);
{1}        for (int i = 0; i < KH; ++i) {{
          const int ih = oh * STRIDE + i - PAD;
          if (ih < 0 || ih >= H) continue;
          const float* wr = w + i * KW * C + c;
          const float* xr = x + ih * W * C + c;
{2}{3}        }}
{4}      }}
    }}
  }}
}}
)",
                     unroll, decl_acc, decl_w, taps, stores);
}

std::string repeat(int64_t count, const char* pattern) {
  std::string s;
  for (int64_t u = 0; u < count; ++u) s += fmt::format(fmt::runtime(pattern), u);
  return s;
}

namespace {

// attention_head_by_query_blocks' kernel, part by part (its @...@ tokens are replaced at the end).

// The block sizes, the buffers and the function's head (the geometry form's buffers as locals, and its bias
// table).
std::string attention_head_start(const std::string& query_block, const std::string& key_block,
                                 const AttentionHeadForm& form, bool online) {
  const auto if_online = [&](const std::string& text) { return online ? text : std::string(); };
  const auto if_geometry = [&](const std::string& text) { return form.geometry ? text : std::string(); };
  std::string s =
      fmt::format("#define QB {}\n#define KB ({}) /* keys per block */\n", query_block, key_block);
  // The buffers, every element written before it is read: in the tasks static (DTCM), in the composites on
  // the stack (also DTCM), so that crt0 does not spend a composite's cycles zeroing them as .bss.
  std::string buffers =
      R"(static float kc_qt[@DMAX@ * QB]; /* Q's block, transposed and scaled: row d holds the block's Q[i, d] */
static float kc_pt[KB * QB]; /* a key block's scores, then probabilities, transposed: row j for key j0 + j */
static float kc_max[QB], kc_sum[QB];
)";
  buffers += if_online(
      "static float kc_rescale[QB];\n"
      "static float kc_o[QB * @DMAX@]; /* O's rows before the last key block, unnormalised */\n");
  buffers += if_geometry(
      "static float kc_bias[QB + S]; /* the bias of each distance i - j, after QB zeros (negative distances) "
      "*/\n");
  if (!form.geometry) s += buffers;
  if (form.geometry) {
    s +=
        R"(/* The attention_geometry form (the composites): rows strided, the scale and the causal flag at run time,
 * and with a bias, score (i, j) + bias[bucket[i - j]] (causal heads: i >= j). p is not needed. */
static void attention_head(const attention_geometry* g, const float* q, const float* k, const float* v, float* o,
                           float* p) {
  const int seq = g->seq, dim = g->dim, q_stride = g->q_stride, kv_stride = g->kv_stride, causal = g->causal;
  const float scale = g->scale;
  (void)p;
)";
    for (size_t at = 0, end; at < buffers.size(); at = end + 1) {  // the buffers as locals, indented
      end = buffers.find('\n', at);
      s += "  " + buffers.substr(at + std::strlen("static "), end - at - std::strlen("static ")) + "\n";
    }
    s += R"(  if (g->bias) {
    for (int d = 0; d < QB; ++d) kc_bias[d] = 0.0f;
    for (int d = 0; d < seq; ++d) kc_bias[QB + d] = g->bias[g->bucket[d]];
  }
)";
  } else {
    s += "static void attention_head(const float* q, const float* k, const float* v, float* o) {\n";
  }
  return s;
}

// Per block of QB query rows: Q's rows transposed and scaled into kc_qt, then per block of KB keys the
// scores, @U@ keys per pass and the keys left over one by one.
std::string attention_scores(int64_t unroll, const AttentionHeadForm& form) {
  const bool strided = form.geometry;  // rows of q, k, v and o further apart than their dim elements
  const auto if_geometry = [&](const std::string& text) { return form.geometry ? text : std::string(); };
  std::string s;
  s += R"(  for (int i0 = 0; i0 < @SEQ@; i0 += QB) {
    const int rows = @SEQ@ - i0 < QB ? @SEQ@ - i0 : QB;
    const int keys = @CAUSAL@ ? i0 + rows : @SEQ@; /* the keys the block's last row attends */
    const size_t vl = __riscv_vsetvl_e32m@L@(rows);
    for (int d = 0; d < @DIM@; ++d) {
      vfloat32m@L@_t col = __riscv_vlse32_v_f32m@L@(q + i0 * @QS@ + d, @QS@ * 4, vl);
      __riscv_vse32_v_f32m@L@(kc_qt + d * QB, __riscv_vfmul_vf_f32m@L@(col, @SCALE@, vl), vl);
    }
    const vuint32m@L@_t row = __riscv_vid_v_u32m@L@(vl);
    for (int j0 = 0; j0 < keys; j0 += KB) {
      const int j1 = keys - j0 < KB ? keys : j0 + KB;
      const int last = j1 == keys;
      /* scores: @U@ keys per pass, each row of qt loaded once for all of them */
      int j = j0;
      for (; j + @U@ <= j1; j += @U@) {
        const float* kr = k + j * @KVS@;
)";
  s += repeat(unroll, "        vfloat32m@L@_t acc{0} = __riscv_vfmv_v_f_f32m@L@(0.0f, vl);\n");
  // The scalar K elements would miss the data cache once per line (the core waits ~20 cycles each): the
  // next pass's rows (contiguous) are loaded into the cache ahead by vector loads (8 lines in flight),
  // added into an accumulator times 0 so that they are not optimised away.
  s += "        const int ahead = j1 - (j + @U@) < @U@ ? j1 - (j + @U@) : @U@;\n";
  if (strided) {
    s += R"(        for (int a = 0; a < ahead; ++a)
          for (size_t c = 0, vc; c < (size_t)@DIM@; c += vc) {
            vc = __riscv_vsetvl_e32m@L@(@DIM@ - c);
            acc0 = __riscv_vfmacc_vf_f32m@L@_tu(acc0, 0.0f, __riscv_vle32_v_f32m@L@(kr + (@U@ + a) * @KVS@ + c, vc), vc);
          }
)";
  } else {
    s += R"(        for (size_t c = 0, vc; c < (size_t)(ahead > 0 ? ahead * D : 0); c += vc) {
          vc = __riscv_vsetvl_e32m@L@(ahead * D - c);
          acc0 = __riscv_vfmacc_vf_f32m@L@_tu(acc0, 0.0f, __riscv_vle32_v_f32m@L@(kr + @U@ * D + c, vc), vc);
        }
)";
  }
  s += strided ? R"(        /* two rows of qt per step, so that one loads while the other is used */
        int d = 0;
        for (; d + 1 < dim; d += 2) {
)"
               : R"(        /* two rows of qt per step, so that one loads while the other is used */
        for (int d = 0; d < D; d += 2) {
)";
  s += R"(          const vfloat32m@L@_t qa = __riscv_vle32_v_f32m@L@(kc_qt + d * QB, vl);
          const vfloat32m@L@_t qb = __riscv_vle32_v_f32m@L@(kc_qt + (d + 1) * QB, vl);
)";
  s += repeat(unroll, "          acc{0} = __riscv_vfmacc_vf_f32m@L@(acc{0}, kr[{0} * @KVS@ + d], qa, vl);\n");
  s += repeat(unroll,
              "          acc{0} = __riscv_vfmacc_vf_f32m@L@(acc{0}, kr[{0} * @KVS@ + d + 1], qb, vl);\n");
  s += "        }\n";
  s += if_geometry(
      "        if (d < dim) {\n          const vfloat32m@L@_t qa = __riscv_vle32_v_f32m@L@(kc_qt + d * QB, "
      "vl);\n" +
      repeat(unroll, "          acc{0} = __riscv_vfmacc_vf_f32m@L@(acc{0}, kr[{0} * @KVS@ + d], qa, vl);\n") +
      "        }\n        if (g->bias) {\n" +
      repeat(unroll,
             "          acc{0} = __riscv_vfadd_vv_f32m@L@(acc{0}, __riscv_vle32_v_f32m@L@(kc_bias + QB + i0 "
             "- (j + {0}), vl), vl);\n") +
      "        }\n");
  s += repeat(unroll, "        __riscv_vse32_v_f32m@L@(kc_pt + (j - j0 + {0}) * QB, acc{0}, vl);\n");
  s += R"(      }
      for (; j < j1; ++j) {
        vfloat32m@L@_t acc = __riscv_vfmv_v_f_f32m@L@(0.0f, vl);
        for (int d = 0; d < @DIM@; ++d)
          acc = __riscv_vfmacc_vf_f32m@L@(acc, k[j * @KVS@ + d], __riscv_vle32_v_f32m@L@(kc_qt + d * QB, vl), vl);
)" +
       if_geometry(
           "        if (g->bias) acc = __riscv_vfadd_vv_f32m@L@(acc, __riscv_vle32_v_f32m@L@(kc_bias + QB + "
           "i0 - j, vl), vl);\n") +
       R"(        __riscv_vse32_v_f32m@L@(kc_pt + (j - j0) * QB, acc, vl);
      }
)";
  return s;
}

// The key block's softmax, every query row at once: the running maximum (rescaling the running sum and O's
// rows when it grows, with several key blocks), the exponentials and their sum.
std::string attention_softmax(bool online) {
  const auto if_online = [&](const std::string& text) { return online ? text : std::string(); };
  std::string s;
  s +=
      R"(      /* softmax along the keys, every query row at once; with CAUSAL, key j > i0 is masked for the rows
         r < j - i0 (-inf for the maximum, 0 after the exp) */
      vfloat32m@L@_t vmax = j0 ? __riscv_vle32_v_f32m@L@(kc_max, vl) : __riscv_vfmv_v_f_f32m@L@(-__builtin_inff(), vl);
      for (j = j0; j < j1; ++j) {
        vfloat32m@L@_t sj = __riscv_vle32_v_f32m@L@(kc_pt + (j - j0) * QB, vl);
        if (@CAUSAL@ && j > i0)
          sj = __riscv_vfmerge_vfm_f32m@L@(sj, -__builtin_inff(), __riscv_vmsltu_vx_u32m@L@_b@B@(row, j - i0, vl), vl);
        vmax = __riscv_vfmax_vv_f32m@L@(vmax, sj, vl);
      }
)";
  s += if_online(R"(      if (j0) { /* the running sum and O's rows shrink by e^(old max - new max) */
        const vfloat32m@L@_t rescale = kc_vexpf(__riscv_vfsub_vv_f32m@L@(__riscv_vle32_v_f32m@L@(kc_max, vl), vmax, vl), vl);
        __riscv_vse32_v_f32m@L@(kc_rescale, rescale, vl);
        __riscv_vse32_v_f32m@L@(kc_sum, __riscv_vfmul_vv_f32m@L@(__riscv_vle32_v_f32m@L@(kc_sum, vl), rescale, vl), vl);
      }
      __riscv_vse32_v_f32m@L@(kc_max, vmax, vl);
)");
  s +=
      R"(      vfloat32m@L@_t vsum = j0 ? __riscv_vle32_v_f32m@L@(kc_sum, vl) : __riscv_vfmv_v_f_f32m@L@(0.0f, vl);
      for (j = j0; j < j1; ++j) {
        vfloat32m@L@_t e = kc_vexpf(__riscv_vfsub_vv_f32m@L@(__riscv_vle32_v_f32m@L@(kc_pt + (j - j0) * QB, vl), vmax, vl), vl);
        if (@CAUSAL@ && j > i0)
          e = __riscv_vfmerge_vfm_f32m@L@(e, 0.0f, __riscv_vmsltu_vx_u32m@L@_b@B@(row, j - i0, vl), vl);
        __riscv_vse32_v_f32m@L@(kc_pt + (j - j0) * QB, e, vl);
        vsum = __riscv_vfadd_vv_f32m@L@(vsum, e, vl);
      }
      /* after the last block kc_sum holds 1 / sum */
      __riscv_vse32_v_f32m@L@(kc_sum, last ? __riscv_vfrdiv_vf_f32m@L@(vsum, 1.0f, vl) : vsum, vl);
)";
  return s;
}

// O's rows from the key block's probabilities and V, @U@ rows per pass, then the rows left over; normalised
// into o after the last key block, else kept in kc_o.
std::string attention_output(int64_t unroll, bool online) {
  const auto if_online = [&](const std::string& text) { return online ? text : std::string(); };
  std::string s;
  s += R"(      /* O's rows: @U@ rows per pass, each strip of V's rows loaded once for all of them (a masked
         probability is 0, so a pass runs to the keys of its last row) */
      int r = 0;
      for (; r + @U@ <= rows; r += @U@) {
        const int pass_end = @CAUSAL@ && i0 + r + @U@ < j1 ? i0 + r + @U@ : j1;
        for (size_t d = 0, vd; d < @DIMZ@; d += vd) {
          vd = __riscv_vsetvl_e32m@L@(@DIM@ - d);
)";
  s += repeat(unroll, "          vfloat32m@L@_t out{0} = __riscv_vfmv_v_f_f32m@L@(0.0f, vd);\n");
  s += if_online(
      repeat(unroll,
             "          if (j0) out{0} = __riscv_vfmul_vf_f32m@L@(__riscv_vle32_v_f32m@L@(kc_o + (r + {0}) "
             "* @DIM@ + d, vd), kc_rescale[r + {0}], vd);\n"));
  s += R"(          for (int jj = j0; jj < pass_end; ++jj) {
            const vfloat32m@L@_t vv = __riscv_vle32_v_f32m@L@(v + jj * @KVS@ + d, vd);
            const float* pr = kc_pt + (jj - j0) * QB + r;
)";
  s += repeat(unroll, "            out{0} = __riscv_vfmacc_vf_f32m@L@(out{0}, pr[{0}], vv, vd);\n");
  s += "          }\n          if (last) {\n";
  s += repeat(unroll,
              "            __riscv_vse32_v_f32m@L@(o + (i0 + r + {0}) * @QS@ + d, "
              "__riscv_vfmul_vf_f32m@L@(out{0}, kc_sum[r + {0}], vd), vd);\n");
  s += "          }\n";
  s += if_online(
      "          else {\n" +
      repeat(unroll, "            __riscv_vse32_v_f32m@L@(kc_o + (r + {0}) * @DIM@ + d, out{0}, vd);\n") +
      "          }\n");
  s += R"(        }
      }
      for (; r < rows; ++r) {
        const int pass_end = @CAUSAL@ && i0 + r + 1 < j1 ? i0 + r + 1 : j1;
        for (size_t d = 0, vd; d < @DIMZ@; d += vd) {
          vd = __riscv_vsetvl_e32m@L@(@DIM@ - d);
          vfloat32m@L@_t out = __riscv_vfmv_v_f_f32m@L@(0.0f, vd);
)";
  s += if_online(
      "          if (j0) out = __riscv_vfmul_vf_f32m@L@(__riscv_vle32_v_f32m@L@(kc_o + r * @DIM@ + d, vd), "
      "kc_rescale[r], vd);\n");
  s += R"(          for (int jj = j0; jj < pass_end; ++jj)
            out = __riscv_vfmacc_vf_f32m@L@(out, kc_pt[(jj - j0) * QB + r], __riscv_vle32_v_f32m@L@(v + jj * @KVS@ + d, vd), vd);
          if (last)
            __riscv_vse32_v_f32m@L@(o + (i0 + r) * @QS@ + d, __riscv_vfmul_vf_f32m@L@(out, kc_sum[r], vd), vd);
)";
  s += if_online("          else\n            __riscv_vse32_v_f32m@L@(kc_o + r * @DIM@ + d, out, vd);\n");
  s += R"(        }
      }
    }
  }
}

)";
  return s;
}

}  // namespace

std::string attention_head_by_query_blocks(int64_t unroll, const std::string& query_block,
                                           const std::string& key_block, const AttentionHeadForm& form) {
  // With one block of all the keys, O's rows go straight to the output: no buffer, no rescaling.
  const bool online = key_block != "S";
  std::string s = attention_head_start(query_block, key_block, form, online) +
                  attention_scores(unroll, form) + attention_softmax(online) +
                  attention_output(unroll, online);
  const std::pair<const char*, const std::string*> names[] = {
      {"@SEQ@", &form.seq},      {"@DIMZ@", &form.dim_size}, {"@DIM@", &form.dim},
      {"@DMAX@", &form.dim_max}, {"@QS@", &form.q_stride},   {"@KVS@", &form.kv_stride},
      {"@SCALE@", &form.scale},  {"@CAUSAL@", &form.causal}};
  for (const auto& [token, value] : names)
    for (size_t at = s.find(token); at != std::string::npos; at = s.find(token, at + value->size()))
      s.replace(at, std::strlen(token), *value);
  return s;
}

// vlinear_tokens (vector_kernels.h): the block's columns, KC_KC at a time, transposed into DTCM by strided
// loads; each output feature's values for the block are vfmacc.vf of w's row with the transposed rows, two
// features per pass, stored with a strided store (a previous chunk's partial sums loaded back the same way).
const std::string& linear_tokens() {
  constexpr int64_t unroll = 2;
  static const std::string text = [] {
    std::string s = R"(#ifndef KC_VLINEAR_TOKENS_DEFINED
#define KC_VLINEAR_TOKENS_DEFINED
#define KC_TB 32 /* tokens per block: at most VLMAX at LMUL 8 (32 at VLEN 128) */
#define KC_KC 128
/* Where token blocks beat dot products: enough tokens and columns to amortise the transposition and the
   strided stores (linear C1, 16 x 16 x 16, is faster as dot products). */
#define KC_TOKEN_BLOCKS_PAY(rows, ins, outs) ((rows) >= 8 && ((ins) >= 32 || (outs) >= 32))
static float kc_xt[KC_KC * KC_TB];
static void vlinear_tokens(const float* x, const float* w, const float* bias, float* y, int rows, int ins,
                           int outs) {
  for (int m0 = 0; m0 < rows; m0 += KC_TB) {
    const int tb = rows - m0 < KC_TB ? rows - m0 : KC_TB;
    const size_t vl = __riscv_vsetvl_e32m8(tb);
    for (int k0 = 0; k0 < ins; k0 += KC_KC) {
      const int kc = ins - k0 < KC_KC ? ins - k0 : KC_KC;
      for (int k = 0; k < kc; ++k)
        __riscv_vse32_v_f32m8(kc_xt + k * KC_TB, __riscv_vlse32_v_f32m8(x + m0 * ins + k0 + k, ins * 4, vl), vl);
      int o = 0;
      for (; o + #U# <= outs; o += #U#) {
        const float* wr = w + o * ins + k0;
)";
    s += repeat(
        unroll,
        "        vfloat32m8_t acc{0} = k0 ? __riscv_vlse32_v_f32m8(y + m0 * outs + o + {0}, outs * 4, vl)\n"
        "                                 : __riscv_vfmv_v_f_f32m8(bias ? bias[o + {0}] : 0.0f, vl);\n");
    s += R"(        const int ahead = outs - (o + #U#) < #U# ? outs - (o + #U#) : #U#;
        for (int a = 0; a < ahead; ++a) {
          for (size_t c = 0, vc; c < (size_t)kc; c += vc) {
            vc = __riscv_vsetvl_e32m8(kc - c);
            acc0 = __riscv_vfmacc_vf_f32m8_tu(acc0, 0.0f, __riscv_vle32_v_f32m8(wr + (#U# + a) * ins + c, vc), vc);
          }
        }
        int k = 0;
        for (; k + 1 < kc; k += 2) {
          const vfloat32m8_t xa = __riscv_vle32_v_f32m8(kc_xt + k * KC_TB, vl);
          const vfloat32m8_t xb = __riscv_vle32_v_f32m8(kc_xt + (k + 1) * KC_TB, vl);
)";
    s += repeat(unroll, "          acc{0} = __riscv_vfmacc_vf_f32m8(acc{0}, wr[{0} * ins + k], xa, vl);\n");
    s += repeat(unroll,
                "          acc{0} = __riscv_vfmacc_vf_f32m8(acc{0}, wr[{0} * ins + k + 1], xb, vl);\n");
    s += R"(        }
        if (k < kc) {
          const vfloat32m8_t xa = __riscv_vle32_v_f32m8(kc_xt + k * KC_TB, vl);
)";
    s += repeat(unroll, "          acc{0} = __riscv_vfmacc_vf_f32m8(acc{0}, wr[{0} * ins + k], xa, vl);\n");
    s += "        }\n";
    s += repeat(unroll, "        __riscv_vsse32_v_f32m8(y + m0 * outs + o + {0}, outs * 4, acc{0}, vl);\n");
    s += R"(      }
      for (; o < outs; ++o) {
        const float* wr = w + o * ins + k0;
        vfloat32m8_t acc = k0 ? __riscv_vlse32_v_f32m8(y + m0 * outs + o, outs * 4, vl)
                              : __riscv_vfmv_v_f_f32m8(bias ? bias[o] : 0.0f, vl);
        for (int k = 0; k < kc; ++k)
          acc = __riscv_vfmacc_vf_f32m8(acc, wr[k], __riscv_vle32_v_f32m8(kc_xt + k * KC_TB, vl), vl);
        __riscv_vsse32_v_f32m8(y + m0 * outs + o, outs * 4, acc, vl);
      }
    }
  }
}

)";
    s += "#endif\n";
    for (size_t at = s.find("#U#"); at != std::string::npos; at = s.find("#U#", at))
      s.replace(at, 3, std::to_string(unroll));
    return s;
  }();
  return text;
}

const std::string& conv2d() {
  // The composites' vectorised conv2d_nhwc piece on the task's tensors (clang inlines the one call and
  // folds the constant sizes, as for the scalar reference).
  static const std::string text = composite_pieces().at("conv2d_nhwc") + R"(void kernel(void) {
  conv2d_nhwc((const float*)ADDR_X, (const float*)ADDR_W, (float*)ADDR_Y, H, W, C, F, KH, KW, STRIDE, PAD);
}
)";
  return text;
}

namespace {

// One dot product, strip-mined, reduced once onto `init`; defined once whichever pieces use it.
const char* kVdot = R"(#ifndef KC_VDOT_DEFINED
#define KC_VDOT_DEFINED
static inline float kc_vdot(const float* a, const float* b, int n, float init) {
  const size_t vlmax = kc_vlmax_e32m@L@((size_t)(n));
  vfloat32m@L@_t acc = __riscv_vfmv_v_f_f32m@L@(0.0f, vlmax);
  for (size_t k = 0, vl; k < (size_t)n; k += vl) {
    vl = __riscv_vsetvl_e32m@L@(n - k);
    acc = __riscv_vfmacc_vv_f32m@L@_tu(acc, __riscv_vle32_v_f32m@L@(a + k, vl), __riscv_vle32_v_f32m@L@(b + k, vl),
                                      vl);
  }
  return __riscv_vfmv_f_s_f32m1_f32(
      __riscv_vfredusum_vs_f32m@L@_f32m1(acc, __riscv_vfmv_s_f_f32m1(init, 1), vlmax));
}
#endif

)";

// Both take x's rows in blocks of half the data cache (@XB@ bytes), W's rows in the loop over a block and the
// block's rows inside it, so that the rows of W in use and the block stay in the data cache: W comes from
// DRAM once per block, not once per row of x (1.4x on decoder_block_llama C1). Two accumulators, x's strip
// and W's fill LMUL 8's four register groups.
const char* kLinearRows =
    R"(#ifndef KC_LINEAR_ROWS_DEFINED
#define KC_LINEAR_ROWS_DEFINED
/* nn.Linear over `rows` rows (vectorised): y[m, n] = x[m, :] . w[n, :] + b[n]; b may be 0. x's rows in
 * blocks of at most @XB@ bytes (half the data cache); two rows of w per pass share each strip of x's row,
 * and every row of the block passes over them while both are in the data cache. */
static void linear_rows(const float* x, const float* w, const float* b, float* y, int rows, int in_features,
                        int out_features) {
  if (KC_TOKEN_BLOCKS_PAY(rows, in_features, out_features)) {
    vlinear_tokens(x, w, b, y, rows, in_features, out_features);
    return;
  }
  const size_t vlmax = kc_vlmax_e32m@L@((size_t)(in_features));
  const int rows_per_block = in_features * 4 >= @XB@ ? 1 : @XB@ / (in_features * 4);
  for (int m0 = 0; m0 < rows; m0 += rows_per_block) {
    const int m1 = rows - m0 < rows_per_block ? rows : m0 + rows_per_block;
    int n = 0;
    for (; n + 2 <= out_features; n += 2) {
      const float* w0 = w + n * in_features;
      const float* w1 = w0 + in_features;
      for (int m = m0; m < m1; ++m) {
        const float* xr = x + m * in_features;
        vfloat32m@L@_t acc0 = __riscv_vfmv_v_f_f32m@L@(0.0f, vlmax);
        vfloat32m@L@_t acc1 = __riscv_vfmv_v_f_f32m@L@(0.0f, vlmax);
        for (size_t k = 0, vl; k < (size_t)in_features; k += vl) {
          vl = __riscv_vsetvl_e32m@L@(in_features - k);
          vfloat32m@L@_t xv = __riscv_vle32_v_f32m@L@(xr + k, vl);
          acc0 = __riscv_vfmacc_vv_f32m@L@_tu(acc0, xv, __riscv_vle32_v_f32m@L@(w0 + k, vl), vl);
          acc1 = __riscv_vfmacc_vv_f32m@L@_tu(acc1, xv, __riscv_vle32_v_f32m@L@(w1 + k, vl), vl);
        }
        float* yr = y + m * out_features + n;
        yr[0] = __riscv_vfmv_f_s_f32m1_f32(
            __riscv_vfredusum_vs_f32m@L@_f32m1(acc0, __riscv_vfmv_s_f_f32m1(b ? b[n] : 0.0f, 1), vlmax));
        yr[1] = __riscv_vfmv_f_s_f32m1_f32(
            __riscv_vfredusum_vs_f32m@L@_f32m1(acc1, __riscv_vfmv_s_f_f32m1(b ? b[n + 1] : 0.0f, 1), vlmax));
      }
    }
    for (; n < out_features; ++n) {
      for (int m = m0; m < m1; ++m)
        y[m * out_features + n] = kc_vdot(x + m * in_features, w + n * in_features, in_features, b ? b[n] : 0.0f);
    }
  }
}
#endif

)";

// swiglu_tokens: swiglu_rows' two projections and the gate as vlinear_tokens computes a product: a block of
// tokens (as many as kc_xt holds at this width, at most 32) transposed into DTCM whole, then per feature the
// gate's and the up projection's values for the block as vfmacc.vf of Wg's and Wu's rows (both pulled into
// the cache a feature ahead) with the transposed rows, silu(g) u on the vector unit (kc_vexpf), stored with a
// strided store into the hidden features.
const char* kSwigluTokens =
    R"(static void swiglu_tokens(const float* x, const float* wg, const float* wu, float* hidden, int rows,
                          int width, int features) {
  const int block = KC_KC * KC_TB / width < KC_TB ? KC_KC * KC_TB / width : KC_TB;
  for (int m0 = 0; m0 < rows; m0 += block) {
    const int tb = rows - m0 < block ? rows - m0 : block;
    const size_t vl = __riscv_vsetvl_e32m8(tb);
    for (int k = 0; k < width; ++k)
      __riscv_vse32_v_f32m8(kc_xt + k * tb, __riscv_vlse32_v_f32m8(x + m0 * width + k, width * 4, vl), vl);
    for (int f = 0; f < features; ++f) {
      const float* gr = wg + f * width;
      const float* ur = wu + f * width;
      vfloat32m8_t ag = __riscv_vfmv_v_f_f32m8(0.0f, vl);
      vfloat32m8_t au = __riscv_vfmv_v_f_f32m8(0.0f, vl);
      if (f + 1 < features) {
        for (size_t c = 0, vc; c < (size_t)width; c += vc) {
          vc = __riscv_vsetvl_e32m8(width - c);
          ag = __riscv_vfmacc_vf_f32m8_tu(ag, 0.0f, __riscv_vle32_v_f32m8(gr + width + c, vc), vc);
          au = __riscv_vfmacc_vf_f32m8_tu(au, 0.0f, __riscv_vle32_v_f32m8(ur + width + c, vc), vc);
        }
      }
      int k = 0;
      for (; k + 1 < width; k += 2) {
        const vfloat32m8_t xa = __riscv_vle32_v_f32m8(kc_xt + k * tb, vl);
        const vfloat32m8_t xb = __riscv_vle32_v_f32m8(kc_xt + (k + 1) * tb, vl);
        ag = __riscv_vfmacc_vf_f32m8(ag, gr[k], xa, vl);
        au = __riscv_vfmacc_vf_f32m8(au, ur[k], xa, vl);
        ag = __riscv_vfmacc_vf_f32m8(ag, gr[k + 1], xb, vl);
        au = __riscv_vfmacc_vf_f32m8(au, ur[k + 1], xb, vl);
      }
      if (k < width) {
        const vfloat32m8_t xa = __riscv_vle32_v_f32m8(kc_xt + k * tb, vl);
        ag = __riscv_vfmacc_vf_f32m8(ag, gr[k], xa, vl);
        au = __riscv_vfmacc_vf_f32m8(au, ur[k], xa, vl);
      }
      const vfloat32m8_t e = kc_vexpf(__riscv_vfneg_v_f32m8(ag, vl), vl);
      const vfloat32m8_t h = __riscv_vfmul_vv_f32m8(__riscv_vfdiv_vv_f32m8(ag, __riscv_vfadd_vf_f32m8(e, 1.0f, vl), vl), au, vl);
      __riscv_vsse32_v_f32m8(hidden + m0 * features + f, features * 4, h, vl);
    }
  }
}

)";

const char* kSwigluRows =
    R"(/* SwiGLU over `rows` rows of `width` (vectorised dot products): hidden = silu(x Wg^T) * (x Wu^T)
 * in DRAM scratch, then y = hidden Wd^T. Feature f's rows of Wg and Wu share each strip of x's row, and
 * every row of a block of x (at most @XB@ bytes) passes over them while both are in the data cache. */
static void swiglu_rows(const float* x, const float* wg, const float* wu, const float* wd, float* hidden, float* y,
                        int rows, int width, int features) {
  if (rows >= 8 && width <= KC_KC * KC_TB / 8) { /* blocks of at least 8 tokens */
    swiglu_tokens(x, wg, wu, hidden, rows, width, features);
    linear_rows(hidden, wd, 0, y, rows, features, width);
    return;
  }
  const size_t vlmax = kc_vlmax_e32m@L@((size_t)(width));
  const vfloat32m1_t zero = __riscv_vfmv_s_f_f32m1(0.0f, 1);
  const int rows_per_block = width * 4 >= @XB@ ? 1 : @XB@ / (width * 4);
  for (int m0 = 0; m0 < rows; m0 += rows_per_block) {
    const int m1 = rows - m0 < rows_per_block ? rows : m0 + rows_per_block;
    for (int f = 0; f < features; ++f) {
      const float* gr = wg + f * width;
      const float* ur = wu + f * width;
      for (int m = m0; m < m1; ++m) {
        const float* xr = x + m * width;
        vfloat32m@L@_t ag = __riscv_vfmv_v_f_f32m@L@(0.0f, vlmax);
        vfloat32m@L@_t au = __riscv_vfmv_v_f_f32m@L@(0.0f, vlmax);
        for (size_t k = 0, vl; k < (size_t)width; k += vl) {
          vl = __riscv_vsetvl_e32m@L@(width - k);
          vfloat32m@L@_t xv = __riscv_vle32_v_f32m@L@(xr + k, vl);
          ag = __riscv_vfmacc_vv_f32m@L@_tu(ag, xv, __riscv_vle32_v_f32m@L@(gr + k, vl), vl);
          au = __riscv_vfmacc_vv_f32m@L@_tu(au, xv, __riscv_vle32_v_f32m@L@(ur + k, vl), vl);
        }
        const float g = __riscv_vfmv_f_s_f32m1_f32(__riscv_vfredusum_vs_f32m@L@_f32m1(ag, zero, vlmax));
        const float u = __riscv_vfmv_f_s_f32m1_f32(__riscv_vfredusum_vs_f32m@L@_f32m1(au, zero, vlmax));
        hidden[m * features + f] = g / (1.0f + kc_expf(-g)) * u;
      }
    }
  }
  linear_rows(hidden, wd, 0, y, rows, features, width);
}

)";

const char* kConv2dNhwc =
    R"(/* 2-D convolution, NHWC input, HWIO weights, vectorised along the filters: four output pixels of a row
 * at a time, one accumulator strip each, held over every tap and input channel, so each strip of weights
 * is loaded once for the four (the weights outgrow the data cache from C4 on: each load is a DRAM
 * stream). A tap outside the image, and a pixel past the row's end, read a row of zeros on the stack
 * (adding 0 * w leaves a sum as it is). */
static void conv2d_nhwc(const float* x, const float* w, float* y, int height, int width, int channels,
                        int filters, int kernel_h, int kernel_w, int stride, int pad) {
  const int out_h = (height + 2 * pad - kernel_h) / stride + 1;
  const int out_w = (width + 2 * pad - kernel_w) / stride + 1;
  const int block = 4;
  float zero[channels];
  for (size_t c = 0, vl; c < (size_t)channels; c += vl) {
    vl = __riscv_vsetvl_e32m@L@(channels - c);
    __riscv_vse32_v_f32m@L@(zero + c, __riscv_vfmv_v_f_f32m@L@(0.0f, vl), vl);
  }
  for (int oh = 0; oh < out_h; ++oh) {
    for (int ow0 = 0; ow0 < out_w; ow0 += block) {
      const int pixels = out_w - ow0 < block ? out_w - ow0 : block;
      float* yp = y + (oh * out_w + ow0) * filters;
      for (size_t f = 0, vl; f < (size_t)filters; f += vl) {
        vl = __riscv_vsetvl_e32m@L@(filters - f);
        vfloat32m@L@_t a0 = __riscv_vfmv_v_f_f32m@L@(0.0f, vl);
        vfloat32m@L@_t a1 = a0, a2 = a0, a3 = a0;
        for (int i = 0; i < kernel_h; ++i) {
          const int ih = oh * stride + i - pad;
          if (ih < 0 || ih >= height) continue;
          const float* row = x + ih * width * channels;
          for (int j = 0; j < kernel_w; ++j) {
            const int iw = ow0 * stride + j - pad; /* pixel p reads column iw + p * stride */
            const float* wp = w + (i * kernel_w + j) * channels * filters + f;
            const float* x0 = (unsigned)iw < (unsigned)width ? row + iw * channels : zero;
            const int iw1 = iw + stride, iw2 = iw1 + stride, iw3 = iw2 + stride;
            const float* x1 = pixels > 1 && (unsigned)iw1 < (unsigned)width ? row + iw1 * channels : zero;
            const float* x2 = pixels > 2 && (unsigned)iw2 < (unsigned)width ? row + iw2 * channels : zero;
            const float* x3 = pixels > 3 && (unsigned)iw3 < (unsigned)width ? row + iw3 * channels : zero;
            int c = 0;
            for (; c + 1 < channels; c += 2) { /* two strips in flight: the second load overlaps the first */
              const vfloat32m@L@_t wv = __riscv_vle32_v_f32m@L@(wp + c * filters, vl);
              const vfloat32m@L@_t wn = __riscv_vle32_v_f32m@L@(wp + (c + 1) * filters, vl);
              a0 = __riscv_vfmacc_vf_f32m@L@(a0, x0[c], wv, vl);
              a1 = __riscv_vfmacc_vf_f32m@L@(a1, x1[c], wv, vl);
              a2 = __riscv_vfmacc_vf_f32m@L@(a2, x2[c], wv, vl);
              a3 = __riscv_vfmacc_vf_f32m@L@(a3, x3[c], wv, vl);
              a0 = __riscv_vfmacc_vf_f32m@L@(a0, x0[c + 1], wn, vl);
              a1 = __riscv_vfmacc_vf_f32m@L@(a1, x1[c + 1], wn, vl);
              a2 = __riscv_vfmacc_vf_f32m@L@(a2, x2[c + 1], wn, vl);
              a3 = __riscv_vfmacc_vf_f32m@L@(a3, x3[c + 1], wn, vl);
            }
            for (; c < channels; ++c) {
              const vfloat32m@L@_t wv = __riscv_vle32_v_f32m@L@(wp + c * filters, vl);
              a0 = __riscv_vfmacc_vf_f32m@L@(a0, x0[c], wv, vl);
              a1 = __riscv_vfmacc_vf_f32m@L@(a1, x1[c], wv, vl);
              a2 = __riscv_vfmacc_vf_f32m@L@(a2, x2[c], wv, vl);
              a3 = __riscv_vfmacc_vf_f32m@L@(a3, x3[c], wv, vl);
            }
          }
        }
        __riscv_vse32_v_f32m@L@(yp + f, a0, vl);
        if (pixels > 1) __riscv_vse32_v_f32m@L@(yp + filters + f, a1, vl);
        if (pixels > 2) __riscv_vse32_v_f32m@L@(yp + 2 * filters + f, a2, vl);
        if (pixels > 3) __riscv_vse32_v_f32m@L@(yp + 3 * filters + f, a3, vl);
      }
    }
  }
}

)";

// The vector exp at LMUL 8, once however many pieces use it.
std::string vector_exp_m8_once() {
  return "#ifndef KC_VEXPF_M8_DEFINED\n#define KC_VEXPF_M8_DEFINED\n" + vector_exp_source(8) + "#endif\n";
}

// The composites' attention_head: the tasks' query blocks (attention_head_by_query_blocks) on the
// attention_geometry, 2 keys and 2 rows per pass as the tasks' default; 32 query rows at LMUL 8 (VLMAX on
// both configurations: 4 * LMUL rows fit any VLEN from 128 on), all keys in one block (S).
std::string composite_attention_head() {
  AttentionHeadForm form;
  form.geometry = true;
  form.seq = "seq";
  form.dim = "dim";
  form.dim_size = "(size_t)dim";
  form.dim_max = "DH";
  form.q_stride = "q_stride";
  form.kv_stride = "kv_stride";
  form.scale = "scale";
  form.causal = "causal";
  std::string s = attention_head_by_query_blocks(2, "(4 * @L@ < 32 ? 4 * @L@ : 32)", "S", form);
  for (size_t at = s.find("@U@"); at != std::string::npos; at = s.find("@U@", at)) s.replace(at, 3, "2");
  return s;
}

}  // namespace

const std::map<std::string, std::string>& composite_pieces() {
  static const std::map<std::string, std::string> pieces = {
      {"linear_rows", vlmax_helper() + kVdot + linear_tokens() + kLinearRows},
      {"attention_head",
       scalar::attention_geometry_source() + vector_exp_m8_once() + composite_attention_head()},
      {"swiglu_rows", vlmax_helper() + kVdot + linear_tokens() + kLinearRows + vector_exp_m8_once() +
                          kSwigluTokens + kSwigluRows},  // its down projection is linear_rows
      {"conv2d_nhwc", kConv2dNhwc},
  };
  return pieces;
}

}  // namespace kcraft::rvv::vector
