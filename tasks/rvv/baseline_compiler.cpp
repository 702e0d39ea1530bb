#include "tasks/rvv/baseline_compiler.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <stdexcept>

#include "isa/rvv/rvv_memory_map.h"

namespace kcraft::rvv {

extern const char* const kKcraftMathHeader;  // kcraft_math.h (generated: math_header.cpp)

namespace {

using tasks::GeneratedKernel;
using tasks::Knob;
using tasks::KnobValues;
using tasks::ResolvedConfig;

// Replaces every @KEY@ (C code is full of braces, so no fmt templates).
std::string subst(std::string text, const std::map<std::string, std::string>& values) {
  for (const auto& [key, value] : values) {
    const std::string pattern = "@" + key + "@";
    for (size_t at = text.find(pattern); at != std::string::npos; at = text.find(pattern, at + value.size()))
      text.replace(at, pattern.size(), value);
  }
  if (text.find('@') != std::string::npos) throw std::logic_error("rvv template: unreplaced placeholder");
  return text;
}

// ------------------------------------------------------------------ the scalar C references (the baseline)

const char* kScalarRelu = R"(void kernel(void) {
  const float* x = (const float*)ADDR_X;
  float* y = (float*)ADDR_Y;
  for (int i = 0; i < M * N; ++i) y[i] = x[i] > 0.0f ? x[i] : 0.0f;
}
)";

const char* kScalarSilu = R"(void kernel(void) {
  const float* x = (const float*)ADDR_X;
  float* y = (float*)ADDR_Y;
  for (int i = 0; i < M * N; ++i) y[i] = x[i] / (1.0f + kc_expf(-x[i]));
}
)";

const char* kScalarSoftmax = R"(void kernel(void) {
  const float* x = (const float*)ADDR_X;
  float* y = (float*)ADDR_Y;
  for (int m = 0; m < M; ++m) {
    const float* xr = x + m * N;
    float* yr = y + m * N;
    float max = xr[0];
    for (int n = 1; n < N; ++n) max = xr[n] > max ? xr[n] : max;
    float sum = 0.0f;
    for (int n = 0; n < N; ++n) {
      yr[n] = kc_expf(xr[n] - max);
      sum += yr[n];
    }
    for (int n = 0; n < N; ++n) yr[n] = yr[n] / sum;
  }
}
)";

const char* kScalarRmsNorm = R"(void kernel(void) {
  const float* x = (const float*)ADDR_X;
  const float* gamma = (const float*)ADDR_GAMMA;
  float* y = (float*)ADDR_Y;
  for (int m = 0; m < M; ++m) {
    const float* xr = x + m * N;
    float* yr = y + m * N;
    float sum_sq = 0.0f;
    for (int n = 0; n < N; ++n) sum_sq += xr[n] * xr[n];
    const float rms = kc_sqrtf(sum_sq / N + PARAM_EPS);
    for (int n = 0; n < N; ++n) yr[n] = xr[n] / rms * gamma[n];
  }
}
)";

// The golden reference's loop order (tasks/golden/matmul.cpp: C's row accumulates A[m, k] times B's row k),
// which clang -O2 vectorises along n without reassociating any sum.
const char* kScalarGemm = R"(void kernel(void) {
  const float* a = (const float*)ADDR_A;
  const float* b = (const float*)ADDR_B;
  float* c = (float*)ADDR_C;
  for (int m = 0; m < M; ++m) {
    float* cr = c + m * N;
    for (int n = 0; n < N; ++n) cr[n] = 0.0f;
    for (int k = 0; k < K; ++k) {
      const float amk = a[m * K + k];
      const float* br = b + k * N;
      for (int n = 0; n < N; ++n) cr[n] += amk * br[n];
    }
  }
}
)";

const char* kScalarLinear = R"(void kernel(void) {
  const float* x = (const float*)ADDR_X;
  const float* w = (const float*)ADDR_W;
  const float* b = (const float*)ADDR_B;
  float* y = (float*)ADDR_Y;
  for (int m = 0; m < M; ++m) {
    for (int n = 0; n < N; ++n) {
      float acc = 0.0f;
      for (int k = 0; k < K; ++k) acc += x[m * K + k] * w[n * K + k];
      y[m * N + n] = acc + b[n];
    }
  }
}
)";

// ------------------------------------------------------------------ the RVV intrinsics templates
// @L@ is LMUL. Loops strip-mine with vsetvl; running sums and maxima live in a whole register group
// updated tail-undisturbed (_tu), so a short last strip leaves the other lanes' partial results intact,
// and are reduced once per row.

// kc_expf (kcraft_math.h) per element. Unlike kc_expf, a NaN input is not propagated (vfmax/vfmin return
// the other operand): task inputs are finite.
const char* kVectorExp = R"(static inline vfloat32m@L@_t kc_vexpf(vfloat32m@L@_t x, size_t vl) {
  x = __riscv_vfmin_vf_f32m@L@(__riscv_vfmax_vf_f32m@L@(x, -104.0f, vl), 89.0f, vl);
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
  /* times 2^k as two normal powers of two, 2^(k>>1) and 2^(k - (k>>1)) */
  vint32m@L@_t k1 = __riscv_vsra_vx_i32m@L@(k, 1, vl);
  vint32m@L@_t e1 = __riscv_vsll_vx_i32m@L@(__riscv_vadd_vx_i32m@L@(k1, 127, vl), 23, vl);
  vint32m@L@_t e2 = __riscv_vsll_vx_i32m@L@(__riscv_vadd_vx_i32m@L@(__riscv_vsub_vv_i32m@L@(k, k1, vl), 127, vl), 23, vl);
  p = __riscv_vfmul_vv_f32m@L@(p, __riscv_vreinterpret_v_i32m@L@_f32m@L@(e1), vl);
  return __riscv_vfmul_vv_f32m@L@(p, __riscv_vreinterpret_v_i32m@L@_f32m@L@(e2), vl);
}

)";

const char* kVectorRelu = R"(void kernel(void) {
  const float* x = (const float*)ADDR_X;
  float* y = (float*)ADDR_Y;
  for (size_t i = 0, vl; i < (size_t)M * N; i += vl) {
    vl = __riscv_vsetvl_e32m@L@((size_t)M * N - i);
    vfloat32m@L@_t v = __riscv_vle32_v_f32m@L@(x + i, vl);
    __riscv_vse32_v_f32m@L@(y + i, __riscv_vfmax_vf_f32m@L@(v, 0.0f, vl), vl);
  }
}
)";

const char* kVectorSilu = R"(void kernel(void) {
  const float* x = (const float*)ADDR_X;
  float* y = (float*)ADDR_Y;
  for (size_t i = 0, vl; i < (size_t)M * N; i += vl) {
    vl = __riscv_vsetvl_e32m@L@((size_t)M * N - i);
    vfloat32m@L@_t v = __riscv_vle32_v_f32m@L@(x + i, vl);
    vfloat32m@L@_t e = kc_vexpf(__riscv_vfneg_v_f32m@L@(v, vl), vl);
    __riscv_vse32_v_f32m@L@(y + i, __riscv_vfdiv_vv_f32m@L@(v, __riscv_vfadd_vf_f32m@L@(e, 1.0f, vl), vl), vl);
  }
}
)";

const char* kVectorSoftmax = R"(void kernel(void) {
  const float* x = (const float*)ADDR_X;
  float* y = (float*)ADDR_Y;
  const size_t vlmax = __riscv_vsetvlmax_e32m@L@();
  for (int m = 0; m < M; ++m) {
    const float* xr = x + m * N;
    float* yr = y + m * N;
    vfloat32m@L@_t vmax = __riscv_vfmv_v_f_f32m@L@(-__builtin_inff(), vlmax);
    for (size_t n = 0, vl; n < N; n += vl) {
      vl = __riscv_vsetvl_e32m@L@(N - n);
      vmax = __riscv_vfmax_vv_f32m@L@_tu(vmax, vmax, __riscv_vle32_v_f32m@L@(xr + n, vl), vl);
    }
    const float max = __riscv_vfmv_f_s_f32m1_f32(
        __riscv_vfredmax_vs_f32m@L@_f32m1(vmax, __riscv_vfmv_s_f_f32m1(-__builtin_inff(), 1), vlmax));
    vfloat32m@L@_t vsum = __riscv_vfmv_v_f_f32m@L@(0.0f, vlmax);
    for (size_t n = 0, vl; n < N; n += vl) {
      vl = __riscv_vsetvl_e32m@L@(N - n);
      vfloat32m@L@_t e = kc_vexpf(__riscv_vfsub_vf_f32m@L@(__riscv_vle32_v_f32m@L@(xr + n, vl), max, vl), vl);
      __riscv_vse32_v_f32m@L@(yr + n, e, vl);
      vsum = __riscv_vfadd_vv_f32m@L@_tu(vsum, vsum, e, vl);
    }
    const float inv = 1.0f / __riscv_vfmv_f_s_f32m1_f32(
        __riscv_vfredusum_vs_f32m@L@_f32m1(vsum, __riscv_vfmv_s_f_f32m1(0.0f, 1), vlmax));
    for (size_t n = 0, vl; n < N; n += vl) {
      vl = __riscv_vsetvl_e32m@L@(N - n);
      __riscv_vse32_v_f32m@L@(yr + n, __riscv_vfmul_vf_f32m@L@(__riscv_vle32_v_f32m@L@(yr + n, vl), inv, vl), vl);
    }
  }
}
)";

const char* kVectorRmsNorm = R"(void kernel(void) {
  const float* x = (const float*)ADDR_X;
  const float* gamma = (const float*)ADDR_GAMMA;
  float* y = (float*)ADDR_Y;
  const size_t vlmax = __riscv_vsetvlmax_e32m@L@();
  for (int m = 0; m < M; ++m) {
    const float* xr = x + m * N;
    float* yr = y + m * N;
    vfloat32m@L@_t vsq = __riscv_vfmv_v_f_f32m@L@(0.0f, vlmax);
    for (size_t n = 0, vl; n < N; n += vl) {
      vl = __riscv_vsetvl_e32m@L@(N - n);
      vfloat32m@L@_t v = __riscv_vle32_v_f32m@L@(xr + n, vl);
      vsq = __riscv_vfmacc_vv_f32m@L@_tu(vsq, v, v, vl);
    }
    const float sum_sq = __riscv_vfmv_f_s_f32m1_f32(
        __riscv_vfredusum_vs_f32m@L@_f32m1(vsq, __riscv_vfmv_s_f_f32m1(0.0f, 1), vlmax));
    const float inv = 1.0f / kc_sqrtf(sum_sq / N + PARAM_EPS);
    for (size_t n = 0, vl; n < N; n += vl) {
      vl = __riscv_vsetvl_e32m@L@(N - n);
      vfloat32m@L@_t v = __riscv_vfmul_vf_f32m@L@(__riscv_vle32_v_f32m@L@(xr + n, vl), inv, vl);
      __riscv_vse32_v_f32m@L@(yr + n, __riscv_vfmul_vv_f32m@L@(v, __riscv_vle32_v_f32m@L@(gamma + n, vl), vl), vl);
    }
  }
}
)";

// C[m .. m+U, n .. n+vl] in U accumulator groups: per k one vector load of B's row strip, shared by U
// vfmacc.vf with A[m+u, k] as the scalar.
std::string vector_gemm(int64_t lmul, int64_t unroll) {
  std::string init, fma, store;
  for (int64_t u = 0; u < unroll; ++u) {
    init += fmt::format("      vfloat32m@L@_t acc{} = __riscv_vfmv_v_f_f32m@L@(0.0f, vl);\n", u);
    fma += fmt::format("        acc{0} = __riscv_vfmacc_vf_f32m@L@(acc{0}, ar[{0} * K + k], bv, vl);\n", u);
    store += fmt::format("      __riscv_vse32_v_f32m@L@(c + (m + {0}) * N + n, acc{0}, vl);\n", u);
  }
  return subst(R"(void kernel(void) {
  const float* a = (const float*)ADDR_A;
  const float* b = (const float*)ADDR_B;
  float* c = (float*)ADDR_C;
  for (int m = 0; m < M; m += @U@) {
    const float* ar = a + m * K;
    for (size_t n = 0, vl; n < N; n += vl) {
      vl = __riscv_vsetvl_e32m@L@(N - n);
)" + init + R"(      for (int k = 0; k < K; ++k) {
        vfloat32m@L@_t bv = __riscv_vle32_v_f32m@L@(b + k * N + n, vl);
)" + fma + R"(      }
)" + store + R"(    }
  }
}
)",
               {{"L", std::to_string(lmul)}, {"U", std::to_string(unroll)}});
}

// y[m, n .. n+U]: U dot products of x's row with W's rows n..n+U-1 (contiguous in k), each accumulated
// in a register group over k strips (x's strip loaded once for all U), reduced with the bias as the start.
std::string vector_linear(int64_t lmul, int64_t unroll) {
  std::string init, fma, store;
  for (int64_t u = 0; u < unroll; ++u) {
    init += fmt::format("      vfloat32m@L@_t acc{} = __riscv_vfmv_v_f_f32m@L@(0.0f, vlmax);\n", u);
    fma += fmt::format(
        "        acc{0} = __riscv_vfmacc_vv_f32m@L@_tu(acc{0}, xv, __riscv_vle32_v_f32m@L@(w + (n + {0}) * K "
        "+ "
        "k, vl), vl);\n",
        u);
    store += fmt::format(
        "      y[m * N + n + {0}] = __riscv_vfmv_f_s_f32m1_f32(\n"
        "          __riscv_vfredusum_vs_f32m@L@_f32m1(acc{0}, __riscv_vfmv_s_f_f32m1(b[n + {0}], 1), "
        "vlmax));\n",
        u);
  }
  return subst(R"(void kernel(void) {
  const float* x = (const float*)ADDR_X;
  const float* w = (const float*)ADDR_W;
  const float* b = (const float*)ADDR_B;
  float* y = (float*)ADDR_Y;
  const size_t vlmax = __riscv_vsetvlmax_e32m@L@();
  for (int m = 0; m < M; ++m) {
    const float* xr = x + m * K;
    for (int n = 0; n < N; n += @U@) {
)" + init + R"(      for (size_t k = 0, vl; k < K; k += vl) {
        vl = __riscv_vsetvl_e32m@L@(K - k);
        vfloat32m@L@_t xv = __riscv_vle32_v_f32m@L@(xr + k, vl);
)" + fma + R"(      }
)" + store + R"(    }
  }
}
)",
               {{"L", std::to_string(lmul)}, {"U", std::to_string(unroll)}});
}

// ------------------------------------------------------------------ the tasks

struct TaskTemplate {
  const char* scalar;                // the C reference
  bool uses_math;                    // needs kcraft_math.h (kc_expf / kc_sqrtf)
  bool uses_vector_exp;              // the intrinsics template needs kc_vexpf
  std::vector<int64_t> lmuls;        // LMUL candidates of the intrinsics template
  int64_t lmul_baseline;             // where the tuner starts once it tries intrinsics
  bool has_unroll;                   // gemm, linear: output rows / features per pass
  std::vector<std::string> tensors;  // the tensors the kernels name, for a clear error if a spec changes
};

const std::map<std::string, TaskTemplate>& templates() {
  static const std::map<std::string, TaskTemplate> t = {
      {"relu", {kScalarRelu, false, false, {1, 2, 4, 8}, 8, false, {"x", "y"}}},
      {"silu", {kScalarSilu, true, true, {1, 2, 4}, 2, false, {"x", "y"}}},
      {"softmax", {kScalarSoftmax, true, true, {1, 2, 4}, 2, false, {"x", "y"}}},
      {"rms_norm", {kScalarRmsNorm, true, false, {1, 2, 4, 8}, 4, false, {"x", "gamma", "y"}}},
      {"gemm", {kScalarGemm, false, false, {1, 2, 4, 8}, 2, true, {"A", "B", "C"}}},
      {"linear", {kScalarLinear, false, false, {1, 2, 4, 8}, 2, true, {"x", "W", "b", "y"}}},
  };
  return t;
}

const TaskTemplate& find_template(const std::string& task) {
  const auto it = templates().find(task);
  if (it == templates().end())
    throw std::invalid_argument("rvv baseline compiler: no template for task '" + task + "'");
  return it->second;
}

const std::vector<int64_t> kUnrolls = {1, 2, 4, 8};
constexpr int64_t kUnrollBaseline = 4;
constexpr int kVectorRegisters = 32;

// Accumulator groups the matrix templates may keep in registers next to their operands, so nothing spills:
// gemm holds U accumulators and B's strip, linear U accumulators, x's strip and one W strip.
int64_t max_unroll(const std::string& task, int64_t lmul) {
  const int64_t groups = kVectorRegisters / lmul;
  return task == "gemm" ? groups - 1 : groups - 2;
}

// The largest candidate <= value (the smallest candidate when none is).
int64_t clamp_down(const std::vector<int64_t>& candidates, int64_t value) {
  int64_t best = candidates.front();
  for (int64_t c : candidates) {
    if (c <= value) best = std::max(best, c);
  }
  return best;
}

int64_t knob_value(const KnobValues& values, const std::vector<Knob>& knobs, const std::string& name) {
  const auto it = values.find(name);
  if (it != values.end()) return it->second;
  for (const auto& k : knobs) {
    if (k.name == name) return k.baseline;
  }
  throw std::logic_error("rvv template has no knob " + name);
}

}  // namespace

const std::string& math_header() {
  static const std::string text = kKcraftMathHeader;
  return text;
}

std::string vector_exp_source(int lmul) {
  if (lmul != 1 && lmul != 2 && lmul != 4 && lmul != 8)
    throw std::invalid_argument(fmt::format("rvv: LMUL {} is not 1, 2, 4 or 8", lmul));
  return subst(kVectorExp, {{"L", std::to_string(lmul)}});
}

tasks::DramLayout task_layout(const ResolvedConfig& cfg) {
  if (cfg.dtype != tasks::DType::fp32) {
    throw std::invalid_argument(
        fmt::format("rvv: task {} {} must be resolved in fp32 (rvv tensors are FP32)", cfg.task, cfg.config));
  }
  return tasks::compute_layout(cfg, kLayoutAlignment);
}

BaselineCompiler::BaselineCompiler(int vlen) : vlen_(vlen) {
  if (vlen < 128 || vlen > 1024 || (vlen & (vlen - 1)) != 0) {
    throw std::invalid_argument(
        fmt::format("rvv baseline compiler: VLEN {} is not a power of two in [128, 1024]", vlen));
  }
}

std::unique_ptr<tasks::BaselineCompiler> make_baseline_compiler(int vlen) {
  return std::make_unique<BaselineCompiler>(vlen);
}

std::vector<std::string> BaselineCompiler::supported_tasks() const {
  std::vector<std::string> names;
  for (const auto& [name, t] : templates()) names.push_back(name);
  return names;
}

std::string BaselineCompiler::unsupported_reason(const ResolvedConfig& cfg) const {
  if (!supports(cfg.task)) return "the rvv baseline compiler has no template for task '" + cfg.task + "'";
  if (cfg.dtype != tasks::DType::fp32)
    return "rvv tensors are FP32; the configuration is resolved in another dtype";
  for (const auto& name : find_template(cfg.task).tensors) {
    bool found = false;
    for (const auto& t : cfg.inputs) found = found || t.name == name;
    for (const auto& t : cfg.outputs) found = found || t.name == name;
    if (!found) return "the rvv template for " + cfg.task + " expects a tensor named '" + name + "'";
  }
  const uint64_t bytes = tasks::compute_layout(cfg, kLayoutAlignment).total_bytes;
  if (bytes > RVV_DRAM_MAX_BYTES) {
    return fmt::format("the layout needs {} bytes of DRAM; rvv has at most {}", bytes, RVV_DRAM_MAX_BYTES);
  }
  return "";
}

std::vector<Knob> BaselineCompiler::knobs(const ResolvedConfig& cfg) const {
  const TaskTemplate& t = find_template(cfg.task);
  std::vector<Knob> out;
  out.push_back(
      {"intrinsics",
       "0: the plain scalar C reference, vectorised only by clang -O2's auto-vectorizer (the baseline); "
       "1: hand-vectorised with RVV intrinsics (lmul" +
           std::string(t.has_unroll ? ", unroll" : "") + ")",
       0,
       {0, 1}});
  out.push_back({"lmul",
                 "intrinsics: LMUL, the vector registers grouped per operand (elements per instruction "
                 "= VLEN/32 x LMUL)",
                 t.lmul_baseline, t.lmuls});
  if (t.has_unroll) {
    out.push_back({"unroll",
                   cfg.task == "gemm"
                       ? "intrinsics: rows of C per pass (accumulator groups sharing each B load)"
                       : "intrinsics: output features per pass (accumulator groups sharing each x load)",
                   kUnrollBaseline, kUnrolls});
  }
  return out;
}

GeneratedKernel BaselineCompiler::generate(const ResolvedConfig& cfg, const tasks::DramLayout& layout,
                                           const KnobValues& values) const {
  const TaskTemplate& t = find_template(cfg.task);
  if (const std::string why = unsupported_reason(cfg); !why.empty()) throw std::invalid_argument(why);
  if (layout.task != cfg.task || layout.config != cfg.config) {
    throw std::invalid_argument(
        fmt::format("rvv baseline compiler: the layout is for {} {}, the configuration {} {}", layout.task,
                    layout.config, cfg.task, cfg.config));
  }
  const auto knob_list = knobs(cfg);
  GeneratedKernel g;
  g.language = kKernelLanguage;
  const bool intrinsics = knob_value(values, knob_list, "intrinsics") != 0;
  int64_t lmul = clamp_down(t.lmuls, knob_value(values, knob_list, "lmul"));
  int64_t unroll = kUnrollBaseline;
  if (t.has_unroll) {
    const int64_t rows = cfg.dim(cfg.task == "gemm" ? "M" : "N");
    unroll =
        clamp_down(kUnrolls, std::min(knob_value(values, knob_list, "unroll"), max_unroll(cfg.task, lmul)));
    while (rows % unroll != 0) unroll /= 2;  // dims are multiples of 16 today; stay correct if not
  }
  if (!intrinsics) {  // the other knobs do not apply: report their baselines, so equal kernels have equal
                      // knobs
    lmul = t.lmul_baseline;
    unroll = kUnrollBaseline;
  }
  g.knobs["intrinsics"] = intrinsics ? 1 : 0;
  g.knobs["lmul"] = lmul;
  if (t.has_unroll) g.knobs["unroll"] = unroll;

  std::string& s = g.source;
  if (!intrinsics) {
    s = fmt::format(
        "/* {} {}: the plain scalar C reference (rvv's baseline: clang -O2 with auto-vectorisation). */\n",
        cfg.task, cfg.config);
    if (t.uses_math) s += math_header() + "\n";
    s += t.scalar;
    g.summary = "scalar C reference at -O2 (clang's auto-vectorizer decides what runs on the vector unit)";
    return g;
  }
  s = fmt::format("/* {} {}: hand-vectorised with RVV intrinsics, LMUL={}{}. */\n#include <riscv_vector.h>\n",
                  cfg.task, cfg.config, lmul, t.has_unroll ? fmt::format(", unroll {}", unroll) : "");
  if (t.uses_math) s += "\n" + math_header() + "\n";
  const std::map<std::string, std::string> l = {{"L", std::to_string(lmul)}};
  if (t.uses_vector_exp) s += subst(kVectorExp, l);
  if (cfg.task == "relu") s += subst(kVectorRelu, l);
  if (cfg.task == "silu") s += subst(kVectorSilu, l);
  if (cfg.task == "softmax") s += subst(kVectorSoftmax, l);
  if (cfg.task == "rms_norm") s += subst(kVectorRmsNorm, l);
  if (cfg.task == "gemm") s += vector_gemm(lmul, unroll);
  if (cfg.task == "linear") s += vector_linear(lmul, unroll);
  g.summary = fmt::format(
      "RVV intrinsics, LMUL={} ({} elements per instruction at VLEN {}){}", lmul, vlen_ / 32 * lmul, vlen_,
      t.has_unroll ? fmt::format(", {} {} per pass", unroll, cfg.task == "gemm" ? "rows" : "output features")
                   : "");
  return g;
}

}  // namespace kcraft::rvv
