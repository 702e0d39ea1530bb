// The rvv task side under QEMU (the platform's functional reference): every task x C1..C5 template (RVV
// intrinsics) and compiler baseline (the scalar C reference at -O2) passes the golden comparison; every knob
// combination the tuner can try passes on C1 and C2; kernels with the classic mistakes, all-zero and
// unwritten outputs fail; kcraft_math.h's expf and the templates' vector exp are as accurate as documented;
// the layout and the knob API.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iterator>
#include <limits>
#include <map>
#include <optional>
#include <set>
#include <stdexcept>
#include <string>
#include <tuple>
#include <vector>

#include "isa/rvv/qemu_runner.h"
#include "isa/rvv/toolchain.h"
#include "tasks/common/inputs.h"
#include "tasks/rvv/baseline_compiler.h"
#include "tasks/rvv/composite.h"
#include "tasks/rvv/kernel_math.h"
#include "tasks/rvv/scalar_pieces.h"
#include "tasks/rvv/symbols.h"
#include "tasks/rvv/vector_kernels.h"
#include "tests/rvv_tasks/task_run.h"

namespace kcraft::rvv {
namespace {

using testing::registry;
using testing::run_task;
using testing::TaskRun;

const std::vector<std::string> kTasks = {"gemm",
                                         "linear",
                                         "relu",
                                         "rms_norm",
                                         "silu",
                                         "softmax",
                                         "gelu",
                                         "layer_norm",
                                         "gemv",
                                         "batch_matmul",
                                         "conv2d",
                                         "depthwise_conv",
                                         "rope",
                                         "ffn",
                                         "swiglu",
                                         "attention",
                                         "flash_attention",
                                         "mha",
                                         "gqa",
                                         "mqa",
                                         "conv_block",
                                         "decoder_block_llama",
                                         "decoder_block_t5"};
const std::vector<std::string> kConfigs = {"C1", "C2", "C3", "C4", "C5"};

tasks::ResolvedConfig resolve(const std::string& task, const std::string& config) {
  return registry().get(task).resolve(config, tasks::DType::fp32);
}

tasks::GeneratedKernel generate(const std::string& task, const std::string& config,
                                const tasks::KnobValues& knobs = {}) {
  const auto cfg = resolve(task, config);
  return BaselineCompiler().generate(cfg, task_layout(cfg), knobs);
}

tasks::GeneratedKernel compiler_baseline(const std::string& task, const std::string& config) {
  const auto cfg = resolve(task, config);
  return BaselineCompiler().compiler_baseline(cfg, task_layout(cfg));
}

std::string describe(const TaskRun& r) {
  if (!r.message.empty()) return r.message;
  std::string s = r.inputs_intact ? "" : "the kernel wrote an input region\n";
  return s + tasks::format_compare(r.compare);
}

void expect_no_warnings(const TaskRun& r, const std::string& what) {
  for (const auto& d : r.built.diagnostics) {
    ADD_FAILURE() << what << ": " << format_diagnostics({d});
  }
}

// ------------------------------------------------------------------ every task x C1..C5: both references

using Case = std::tuple<std::string, std::string>;

std::string case_name(const ::testing::TestParamInfo<Case>& info) {
  return std::get<0>(info.param) + "_" + std::get<1>(info.param);
}

class RvvBaseline : public ::testing::TestWithParam<Case> {};

TEST_P(RvvBaseline, VectorTemplatePassesUnderQemu) {
  const auto& [task, config] = GetParam();
  const auto k = generate(task, config);
  EXPECT_NE(k.source.find("#include <riscv_vector.h>"), std::string::npos)
      << "the template uses the vector unit";
  EXPECT_NE(k.source.find("__riscv_vsetvl_e32m"), std::string::npos) << "and strip-mines with vsetvl";
  const TaskRun r = run_task(task, config, k.source);
  ASSERT_TRUE(r.passed()) << task << " " << config << "\n" << describe(r) << "\n" << k.source;
  expect_no_warnings(r, task + " " + config);
  std::printf("%s %s template: build %.2f s, QEMU run %.2f s, %zu code words\n", task.c_str(), config.c_str(),
              r.build_seconds, r.run.seconds, r.built.itcm.size());
  RecordProperty("qemu_seconds", fmt::format("{:.3f}", r.run.seconds));
}

TEST_P(RvvBaseline, CompilerBaselineScalarReferenceAtO2PassesUnderQemu) {
  const auto& [task, config] = GetParam();
  const auto k = compiler_baseline(task, config);
  EXPECT_TRUE(k.knobs.empty());
  EXPECT_EQ(k.source.find("riscv_vector.h"), std::string::npos) << "the compiler baseline is plain C";
  const TaskRun r = run_task(task, config, k.source);
  ASSERT_TRUE(r.passed()) << task << " " << config << "\n" << describe(r) << "\n" << k.source;
  expect_no_warnings(r, task + " " + config);
  std::printf("%s %s compiler baseline: build %.2f s, QEMU run %.2f s, %zu code words\n", task.c_str(),
              config.c_str(), r.build_seconds, r.run.seconds, r.built.itcm.size());
}

INSTANTIATE_TEST_SUITE_P(AllTasks, RvvBaseline,
                         ::testing::Combine(::testing::ValuesIn(kTasks), ::testing::ValuesIn(kConfigs)),
                         case_name);

// Both on C2 at VLEN 256 (the template asks vsetvl for more elements; the toolchain's Zvl256b changes what
// clang's vectorizer emits).
class RvvBaselineVlen256 : public ::testing::TestWithParam<std::string> {};

TEST_P(RvvBaselineVlen256, TemplateAndCompilerBaselinePassOnC2) {
  const std::string task = GetParam();
  const TaskRun t = run_task(task, "C2", generate(task, "C2").source, 256);
  EXPECT_TRUE(t.passed()) << "template\n" << describe(t);
  const TaskRun c = run_task(task, "C2", compiler_baseline(task, "C2").source, 256);
  EXPECT_TRUE(c.passed()) << "compiler baseline\n" << describe(c);
}

INSTANTIATE_TEST_SUITE_P(AllTasks, RvvBaselineVlen256, ::testing::ValuesIn(kTasks));

// ------------------------------------------------------------------ every knob combination, small configs

class RvvKnobs : public ::testing::TestWithParam<Case> {};

TEST_P(RvvKnobs, EveryCombinationTheTunerCanTryPasses) {
  const auto& [task, config] = GetParam();
  const auto cfg = resolve(task, config);
  const BaselineCompiler compiler;
  const auto knobs = compiler.knobs(cfg);
  // Every combination of the register knobs (lmul, unroll); the matrix products' k_block (a loop bound
  // only) takes each value at the others' defaults.
  std::vector<tasks::KnobValues> points(1);
  for (const auto& knob : knobs) {
    ASSERT_NE(std::find(knob.candidates.begin(), knob.candidates.end(), knob.baseline), knob.candidates.end())
        << knob.name;
    if (knob.name == "k_block") continue;
    std::vector<tasks::KnobValues> next;
    for (const auto& p : points) {
      for (int64_t v : knob.candidates) {
        auto q = p;
        q[knob.name] = v;
        next.push_back(q);
      }
    }
    points = next;
  }
  for (const auto& knob : knobs) {
    if (knob.name != "k_block") continue;
    for (int64_t v : knob.candidates) points.push_back({{knob.name, v}});
  }
  std::set<std::string> sources;
  for (const auto& point : points) {
    const auto k = compiler.generate(cfg, task_layout(cfg), point);
    for (const auto& knob : knobs) {  // the knobs as used are legal values
      const int64_t v = k.knobs.at(knob.name);
      EXPECT_NE(std::find(knob.candidates.begin(), knob.candidates.end(), v), knob.candidates.end())
          << knob.name << "=" << v;
    }
    if (!sources.insert(k.source).second) continue;
    const TaskRun r = run_task(task, config, k.source);
    std::string what;
    for (const auto& [name, v] : k.knobs) what += fmt::format(" {}={}", name, v);
    EXPECT_TRUE(r.passed()) << task << " " << config << what << "\n" << describe(r) << "\n" << k.source;
    expect_no_warnings(r, task + " " + config + what);
  }
  // One kernel per LMUL at least (more with unroll); a composite (no knobs) its one.
  EXPECT_GE(sources.size(), knobs.empty() ? 1 : knobs.at(0).candidates.size());
  std::printf("%s %s: %zu distinct kernels passed\n", task.c_str(), config.c_str(), sources.size());
}

// The composites' template vectorises their matrix products and convolution, with the LMUL each piece is
// given (dot products 8, convolution 4); RvvBaseline runs it on every configuration.
TEST(RvvComposites, TemplateVectorisesTheMatrixProductsAndTheConvolution) {
  for (const char* task : {"conv_block", "decoder_block_llama", "decoder_block_t5"}) {
    const std::string source = generate(task, "C1").source;
    EXPECT_EQ(source.find("@L@"), std::string::npos);
    EXPECT_NE(source.find(std::string(task) == "conv_block" ? "__riscv_vfmacc_vf_f32m4"
                                                            : "__riscv_vfmacc_vv_f32m8_tu"),
              std::string::npos)
        << task;
    // The compiler baseline composes the scalar pieces.
    EXPECT_EQ(compiler_baseline(task, "C1").source.find("riscv_vector.h"), std::string::npos) << task;
  }
}

// The vectorised conv2d piece against the scalar one on shapes no task has: odd channels (the channel
// loop's tail), a row whose pixels are not a multiple of four (the zero row for the missing ones), more
// filters than one strip, a non-square kernel, stride 2 with padding 2, a 1x1 kernel with one channel.
// An output it skipped or wrote to the wrong pixel shows as a large error (or NaN: y starts as NaN).
TEST(RvvComposites, VectorConv2dPieceMatchesTheScalarPieceOnOddShapes) {
  const auto cfg = resolve("relu", "C1");
  const auto layout = task_layout(cfg);
  const std::string piece = vector::subst(vector::composite_pieces().at("conv2d_nhwc"), {{"L", "4"}});
  const std::string source = "#include <riscv_vector.h>\n#define conv2d_nhwc conv2d_vector\n" + piece +
                             "#undef conv2d_nhwc\n" + scalar::pieces_source({"conv2d_nhwc"}, {}) + R"(
static const int kShapes[3][8] = {  /* H, W, C, F, KH, KW, stride, pad */
    {7, 9, 3, 5, 3, 3, 1, 1}, {8, 10, 2, 20, 5, 3, 2, 2}, {5, 6, 1, 3, 1, 1, 1, 0}};
static float xs[8 * 10 * 3], ws[5 * 3 * 3 * 20], yv[8 * 10 * 20], ys[8 * 10 * 20];
void kernel(void) {
  unsigned state = 12345u;
  float worst = 0.0f, outputs = 0.0f;
  for (int s = 0; s < 3; ++s) {
    const int* d = kShapes[s];
    const int oh = (d[0] + 2 * d[7] - d[4]) / d[6] + 1, ow = (d[1] + 2 * d[7] - d[5]) / d[6] + 1;
    for (int i = 0; i < d[0] * d[1] * d[2]; ++i) xs[i] = (float)((state = state * 1103515245u + 12345u) >> 16) / 32768.0f - 1.0f;
    for (int i = 0; i < d[4] * d[5] * d[2] * d[3]; ++i) ws[i] = (float)((state = state * 1103515245u + 12345u) >> 16) / 32768.0f - 1.0f;
    for (int i = 0; i < oh * ow * d[3]; ++i) yv[i] = __builtin_nanf("");
    conv2d_vector(xs, ws, yv, d[0], d[1], d[2], d[3], d[4], d[5], d[6], d[7]);
    conv2d_nhwc(xs, ws, ys, d[0], d[1], d[2], d[3], d[4], d[5], d[6], d[7]);
    for (int i = 0; i < oh * ow * d[3]; ++i) {
      const float diff = yv[i] > ys[i] ? yv[i] - ys[i] : ys[i] - yv[i];
      const float err = diff / (1.0f + (ys[i] > 0 ? ys[i] : -ys[i]));
      if (!(err <= worst)) worst = err == err ? err : 1e30f;
      outputs += 1.0f;
    }
  }
  ((float*)ADDR_Y)[0] = worst;
  ((float*)ADDR_Y)[1] = outputs;
}
)";
  BuildOptions o;
  o.symbols_header = symbols_header(cfg, layout, {{"VLEN", 128}});
  const BuiltKernel k = build_kernel(source, o);
  ASSERT_TRUE(k.ok) << format_diagnostics(k.diagnostics) << k.log;
  const RunResult r = run_qemu(k, std::vector<uint8_t>(layout.total_bytes, 0));
  ASSERT_EQ(r.end, RunEnd::kExited) << r.message;
  float got[2];
  std::memcpy(got, r.dram.data() + layout.region("y").address, sizeof got);
  EXPECT_EQ(got[1], 7 * 9 * 5 + 4 * 6 * 20 + 5 * 6 * 3);
  EXPECT_LT(got[0], 1e-5f);  // the same products; only the rounding of the sums may differ
}

INSTANTIATE_TEST_SUITE_P(SmallConfigs, RvvKnobs,
                         ::testing::Combine(::testing::ValuesIn(kTasks), ::testing::Values("C1", "C2")),
                         case_name);

// ------------------------------------------------------------------ wrong kernels fail

std::string replace_once(std::string s, const std::string& from, const std::string& to) {
  const auto at = s.find(from);
  if (at == std::string::npos) throw std::logic_error("mutation target not found: " + from);
  return s.replace(at, from.size(), to);
}

// Writes 0 to every output element.
std::string zeros_kernel(const tasks::ResolvedConfig& cfg) {
  std::string body;
  for (const auto& t : cfg.outputs) {
    std::string upper = t.name;
    for (char& c : upper) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    body += fmt::format("  for (int i = 0; i < BYTES_{0} / 4; ++i) ((float*)ADDR_{0})[i] = 0.0f;\n", upper);
  }
  return "void kernel(void) {\n" + body + "}\n";
}

class RvvWrongKernels : public ::testing::TestWithParam<std::string> {};

TEST_P(RvvWrongKernels, ZerosUnwrittenAndClassicMistakesFail) {
  const std::string task = GetParam();
  const std::string config = "C2";
  const auto cfg = resolve(task, config);
  const std::string baseline = compiler_baseline(task, config).source;
  // The mistake someone writing the task from its description could make, on the scalar reference.
  const std::map<std::string, std::pair<std::string, std::string>> mistakes = {
      {"relu", {"x[i] : 0.0f", "x[i] : 0.01f * x[i]"}},                                // leaky relu
      {"silu", {"x[i] / (1.0f + kc_expf(-x[i]))", "1.0f / (1.0f + kc_expf(-x[i]))"}},  // sigmoid
      {"softmax", {"yr[n] = yr[n] / sum", "yr[n] = yr[n] / N"}},                       // wrong normalisation
      {"rms_norm", {"/ rms * gamma[n]", "/ rms"}},                                     // gamma forgotten
      {"gemm", {"amk * br[n]", "amk * b[n * K + k]"}},                                 // B read transposed
      {"linear", {"acc + b[n]", "acc"}},                                               // bias forgotten
      {"gelu", {"(v + 0.044715f * v * v * v)", "v"}},                                  // cubic term lost
      {"layer_norm", {" + beta[n]", ""}},                                              // beta forgotten
      {"gemv", {"a[m * K + k]", "a[k * M + m]"}},                                      // A transposed
      {"batch_matmul", {"bb + k * N", "(const float*)ADDR_B + k * N"}},                // batch 0's B always
      {"conv2d",                                                                       // taps transposed
       {"((i * kernel_w + j) * channels + c) * filters", "((j * kernel_w + i) * channels + c) * filters"}},
      {"depthwise_conv", {"(i * KW + j) * C", "(j * KW + i) * C"}},      // taps transposed
      {"rope", {"- xr[d + half] * sr[d]", "+ xr[d + half] * sr[d]"}},    // rotate_half's sign
      {"ffn", {"acc + b1[f]", "acc"}},                                   // first bias forgotten
      {"swiglu", {"g / (1.0f + kc_expf(-g)) * u", "g * u"}},             // no SiLU on the gate
      {"attention", {"g->causal ? i + 1 : seq", "seq"}},                 // causal mask ignored
      {"mha", {"dot * scale", "dot"}},                                   // scale forgotten
      {"gqa", {"kv = h / (heads / kv_heads)", "kv = h % kv_heads"}},     // wrong K/V head
      {"mqa", {"p[j] / sum", "p[j]"}},                                   // not normalised
      {"flash_attention", {"acc[d] *= rescale", "acc[d] *= 1.0f"}},      // no rescaling
      {"conv_block", {"c] * scale[c] + shift[c];", "c] * scale[c];"}},   // batch-norm shift lost
      {"decoder_block_llama", {"add_elements(x, x2, x2, S * D);", ""}},  // attention residual lost
      {"decoder_block_t5", {"DH, DH, bias,", "DH, DH, 0,"}},             // relative bias lost
  };
  const auto& [from, to] = mistakes.at(task);
  const std::vector<std::pair<std::string, std::string>> wrong = {
      {"all zeros", zeros_kernel(cfg)},
      {"outputs never written", "void kernel(void) {}\n"},
      {"the classic mistake", replace_once(baseline, from, to)},
  };
  for (const auto& [what, source] : wrong) {
    const TaskRun r = run_task(task, config, source);
    ASSERT_TRUE(r.built.ok) << what << "\n" << r.message;
    ASSERT_EQ(r.run.end, RunEnd::kExited) << what << ": " << r.message;
    EXPECT_FALSE(r.passed()) << task << ": " << what << " passed\n" << source;
  }
}

// A broken intrinsics kernel fails too: the gemm template with row 1 fed row 0's A values.
TEST(RvvWrongKernels, IntrinsicsGemmWithAWrongRowFails) {
  const auto k = generate("gemm", "C2", {{"lmul", 2}, {"unroll", 4}});
  const TaskRun good = run_task("gemm", "C2", k.source);
  ASSERT_TRUE(good.passed()) << describe(good);
  const TaskRun bad = run_task("gemm", "C2", replace_once(k.source, "ar[1 * K + k]", "ar[0 * K + k]"));
  ASSERT_EQ(bad.run.end, RunEnd::kExited) << bad.message;
  EXPECT_FALSE(bad.passed());
}

INSTANTIATE_TEST_SUITE_P(AllTasks, RvvWrongKernels, ::testing::ValuesIn(kTasks));

// ------------------------------------------------------------------ exp accuracy

// Arguments for exp: specials, a uniform grid over [-104, 89] and a sweep of bit patterns over
// |x| in [2^-30, 104] (small arguments, where e^x ~ 1 + x, get their share), `count` in all.
std::vector<float> exp_arguments(size_t count) {
  const float inf = std::numeric_limits<float>::infinity();
  std::vector<float> xs = {std::numeric_limits<float>::quiet_NaN(),
                           0.0f,
                           -0.0f,
                           inf,
                           -inf,
                           88.72f,
                           88.7228394f,
                           88.73f,
                           89.0f,
                           100.0f,
                           -87.33f,
                           -87.34f,
                           -103.0f,
                           -103.9f,
                           -104.0f,
                           -110.0f,
                           1e-30f,
                           -1e-30f,
                           0.5f,
                           -0.34657f,
                           0.34657f,
                           1.0f,
                           -1.0f};
  const size_t grid = (count - xs.size()) / 2;
  for (size_t i = 0; i < grid; ++i) xs.push_back(-104.0f + 193.0f * static_cast<float>(i) / grid);
  uint32_t lo, hi;
  const float a = 0x1p-30f, b = 104.0f;
  std::memcpy(&lo, &a, 4);
  std::memcpy(&hi, &b, 4);
  const size_t sweep = count - xs.size();
  for (size_t i = 0; i < sweep; ++i) {
    const uint32_t bits =
        (lo + static_cast<uint32_t>((uint64_t{hi - lo} * i) / sweep)) | (i % 2 ? 0x80000000u : 0);
    float x;
    std::memcpy(&x, &bits, 4);
    xs.push_back(x);
  }
  return xs;
}

struct ExpError {
  double max_ulp_normal = 0.0;     // on results >= FLT_MIN
  double max_abs_subnormal = 0.0;  // on results below FLT_MIN (in units of the least subnormal, 2^-149)
  size_t wrong_specials = 0;       // overflow, underflow, infinities (NaN aside)
  bool nan_gives_nan = false;
  std::string worst;
};

// The argument range a vector exp clamps its input to (the reference is then exp of the clamped argument).
struct ExpClamp {
  double lo, hi;
};

// Runs `source` (y[i] = exp(x[i]) over the relu C5 layout, 512K elements) and measures the error against
// exp in double.
ExpError measure_exp(const std::string& source, std::string* disassembly = nullptr,
                     std::optional<ExpClamp> clamp = std::nullopt) {
  const auto cfg = resolve("relu", "C5");
  const auto layout = task_layout(cfg);
  const auto xs = exp_arguments(static_cast<size_t>(cfg.dim("M") * cfg.dim("N")));
  std::vector<uint8_t> dram(layout.total_bytes, 0xFF);
  std::memcpy(dram.data() + layout.region("x").address, xs.data(), xs.size() * 4);
  BuildOptions o;
  o.symbols_header = symbols_header(cfg, layout, {{"VLEN", 128}});
  const BuiltKernel k = build_kernel(source, o);
  EXPECT_TRUE(k.ok) << format_diagnostics(k.diagnostics) << k.log;
  if (!k.ok) return {};
  if (disassembly != nullptr) *disassembly = k.disassembly;
  const RunResult r = run_qemu(k, dram);
  EXPECT_EQ(r.end, RunEnd::kExited) << r.message;
  if (r.end != RunEnd::kExited) return {};
  std::vector<float> ys(xs.size());
  std::memcpy(ys.data(), r.dram.data() + layout.region("y").address, ys.size() * 4);
  ExpError e;
  for (size_t i = 0; i < xs.size(); ++i) {
    const double arg = clamp ? std::clamp(static_cast<double>(xs[i]), clamp->lo, clamp->hi) : xs[i];
    const double ref = std::exp(arg);
    const float y = ys[i];
    if (std::isnan(xs[i])) {
      e.nan_gives_nan = std::isnan(y);
      continue;
    }
    if (ref > std::numeric_limits<float>::max() || ref < 0x1p-150) {
      const bool ok = ref > 1.0 ? y == std::numeric_limits<float>::infinity() : y == 0.0f;
      if (!ok) {
        ++e.wrong_specials;
        e.worst += fmt::format("exp({}) = {}, expected {}\n", xs[i], y, ref);
      }
      continue;
    }
    const double err = std::fabs(static_cast<double>(y) - ref);
    if (ref >= std::numeric_limits<float>::min()) {
      const float rf = static_cast<float>(ref);
      const double ulp = static_cast<double>(std::nextafter(rf, std::numeric_limits<float>::infinity()) - rf);
      if (err / ulp > e.max_ulp_normal) {
        e.max_ulp_normal = err / ulp;
        e.worst = fmt::format("worst normal: exp({:.9g}) = {:.9g}, exact {:.17g}\n", xs[i], y, ref);
      }
    } else {
      e.max_abs_subnormal = std::max(e.max_abs_subnormal, err / 0x1p-149);
    }
  }
  return e;
}

TEST(RvvMath, ExpfIsWithinOneUlpScalarAndAutoVectorised) {
  for (const bool vectorised : {false, true}) {
    const std::string loop =
        vectorised ? "" : "#pragma clang loop vectorize(disable) interleave(disable)\n  ";
    const std::string source = math_header() +
                               "void kernel(void) {\n  const float* x = (const float*)ADDR_X;\n"
                               "  float* y = (float*)ADDR_Y;\n  " +
                               loop + "for (int i = 0; i < M * N; ++i) y[i] = kc_expf(x[i]);\n}\n";
    std::string disassembly;
    const ExpError e = measure_exp(source, &disassembly);
    EXPECT_EQ(disassembly.find("vfmul.v") != std::string::npos, vectorised) << disassembly;
    std::printf(
        "kc_expf (%s): max %.3f ulp on normal results, %.3f least-subnormal units on subnormal ones\n",
        vectorised ? "auto-vectorised" : "scalar", e.max_ulp_normal, e.max_abs_subnormal);
    EXPECT_LE(e.max_ulp_normal, 1.0) << e.worst;
    EXPECT_LE(e.max_abs_subnormal, 1.0);
    EXPECT_EQ(e.wrong_specials, 0u) << e.worst;
    EXPECT_TRUE(e.nan_gives_nan);
  }
}

// kc_tanhf (gelu, ffn) against tanh in double: a uniform grid over [-12, 12) and a sweep of bit patterns
// over |x| in [2^-30, 12] (the small-argument polynomial), both signs, under QEMU, scalar and
// auto-vectorised.
TEST(RvvMath, TanhfIsWithinTwoUlp) {
  const auto cfg = resolve("relu", "C5");
  const auto layout = task_layout(cfg);
  const size_t count = static_cast<size_t>(cfg.dim("M") * cfg.dim("N"));
  std::vector<float> xs = {0.0f, -0.0f, 0.625f, -0.625f, 0.62500006f, 44.0f, -44.0f, 100.0f, -100.0f};
  const size_t grid = (count - xs.size()) / 2;
  for (size_t i = 0; i < grid; ++i) xs.push_back(-12.0f + 24.0f * static_cast<float>(i) / grid);
  uint32_t lo, hi;
  const float a = 0x1p-30f, b = 12.0f;
  std::memcpy(&lo, &a, 4);
  std::memcpy(&hi, &b, 4);
  for (size_t i = 0; xs.size() < count; ++i) {
    const uint32_t bits = lo + static_cast<uint32_t>((static_cast<uint64_t>(hi - lo) * i) / (count / 2));
    float x;
    std::memcpy(&x, &bits, 4);
    xs.push_back(i % 2 ? -x : x);
  }
  for (const bool vectorised : {false, true}) {
    const std::string loop =
        vectorised ? "" : "#pragma clang loop vectorize(disable) interleave(disable)\n  ";
    const std::string source = math_header() +
                               "void kernel(void) {\n  const float* x = (const float*)ADDR_X;\n"
                               "  float* y = (float*)ADDR_Y;\n  " +
                               loop + "for (int i = 0; i < M * N; ++i) y[i] = kc_tanhf(x[i]);\n}\n";
    std::vector<uint8_t> dram(layout.total_bytes, 0xFF);
    std::memcpy(dram.data() + layout.region("x").address, xs.data(), xs.size() * 4);
    BuildOptions o;
    o.symbols_header = symbols_header(cfg, layout, {{"VLEN", 128}});
    const BuiltKernel k = build_kernel(source, o);
    ASSERT_TRUE(k.ok) << format_diagnostics(k.diagnostics) << k.log;
    EXPECT_EQ(k.disassembly.find("vfmul.v") != std::string::npos, vectorised);
    const RunResult r = run_qemu(k, dram);
    ASSERT_EQ(r.end, RunEnd::kExited) << r.message;
    double max_ulp = 0.0;
    std::string worst;
    for (size_t i = 0; i < xs.size(); ++i) {
      float y;
      std::memcpy(&y, r.dram.data() + layout.region("y").address + 4 * i, 4);
      const double ref = std::tanh(static_cast<double>(xs[i]));
      const float rf = static_cast<float>(ref);
      const double ulp =
          std::max(static_cast<double>(std::nextafter(std::fabs(rf), 2.0f) - std::fabs(rf)), 0x1p-149);
      const double err = std::fabs(static_cast<double>(y) - ref) / ulp;
      if (!(err <= max_ulp)) {
        max_ulp = std::isnan(err) ? 1e30 : err;
        worst = fmt::format("tanh({:.9g}) = {:.9g}, exact {:.17g}", xs[i], y, ref);
      }
    }
    std::printf("kc_tanhf (%s): max %.3f ulp; worst %s\n", vectorised ? "auto-vectorised" : "scalar", max_ulp,
                worst.c_str());
    EXPECT_LE(max_ulp, 2.0) << worst;
  }
}

// Within one ulp of exp of the argument clamped to [-86, 88.7]: every result normal, none 0 or infinite.
TEST(RvvMath, VectorExpOfTheTemplatesIsWithinOneUlpOfTheClampedArgument) {
  for (const int lmul : {1, 8}) {
    const std::string source = fmt::format(R"(#include <riscv_vector.h>
{}void kernel(void) {{
  const float* x = (const float*)ADDR_X;
  float* y = (float*)ADDR_Y;
  for (size_t i = 0, vl; i < (size_t)M * N; i += vl) {{
    vl = __riscv_vsetvl_e32m{}((size_t)M * N - i);
    __riscv_vse32_v_f32m{}(y + i, kc_vexpf(__riscv_vle32_v_f32m{}(x + i, vl), vl), vl);
  }}
}}
)",
                                           vector_exp_source(lmul), lmul, lmul, lmul);
    // The clamp's bounds as the kernel holds them (floats).
    const ExpClamp clamp{-86.0, static_cast<double>(88.7f)};
    const ExpError e = measure_exp(source, nullptr, clamp);
    std::printf("kc_vexpf (LMUL %d): max %.3f ulp\n", lmul, e.max_ulp_normal);
    EXPECT_LE(e.max_ulp_normal, 1.0) << e.worst;
    EXPECT_EQ(e.max_abs_subnormal, 0.0);  // no reference below FLT_MIN: every result is normal
    EXPECT_EQ(e.wrong_specials, 0u) << e.worst;
    // NaN is the one special the vector version does not keep (documented): it reads as a clamp bound.
    EXPECT_FALSE(e.nan_gives_nan);
  }
}

// ------------------------------------------------------------------ the docs' worked example

std::string read_source(const std::string& relative) {
  std::ifstream f(std::string(KCRAFT_SOURCE_DIR) + "/" + relative);
  if (!f) throw std::runtime_error("cannot read " + relative);
  return {std::istreambuf_iterator<char>(f), std::istreambuf_iterator<char>()};
}

const std::vector<std::pair<std::string, std::string>> kExamples = {{"docs/examples/rvv/gemm.c", "c"},
                                                                    {"docs/examples/rvv/gemm.S", "asm"}};

class RvvExamples : public ::testing::TestWithParam<std::string> {};

TEST_P(RvvExamples, HandVectorisedGemmPassesAtVlen128And256) {
  const std::string config = GetParam();
  for (const auto& [file, language] : kExamples) {
    for (const int vlen : {128, 256}) {
      const TaskRun r = run_task("gemm", config, read_source(file), vlen, 1234, language);
      EXPECT_TRUE(r.passed()) << file << " " << config << " VLEN " << vlen << "\n" << describe(r);
      expect_no_warnings(r, file);
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Gemm, RvvExamples, ::testing::ValuesIn(kConfigs));

// The examples execute far fewer instructions than the compiler baseline (cycles are the RTL's to tell;
// this is the bound the docs' >= 2x claim starts from).
TEST(RvvExamples, ExecuteUnderAQuarterOfTheCompilerBaselinesInstructions) {
  const std::string config = "C3";
  const auto cfg = resolve("gemm", config);
  const auto dram = tasks::make_dram_image(task_layout(cfg), tasks::make_inputs(cfg, 1234));
  const TaskRun base = run_task("gemm", config, compiler_baseline("gemm", config).source);
  ASSERT_TRUE(base.passed());
  const auto n_base = testing::count_instructions(base.built, dram).instructions;
  for (const auto& [file, language] : kExamples) {
    const TaskRun r = run_task("gemm", config, read_source(file), 128, 1234, language);
    ASSERT_TRUE(r.passed()) << file;
    const auto n = testing::count_instructions(r.built, dram).instructions;
    std::printf("gemm %s: compiler baseline %llu instructions, %s %llu (%.1fx fewer)\n", config.c_str(),
                static_cast<unsigned long long>(n_base), file.c_str(), static_cast<unsigned long long>(n),
                static_cast<double>(n_base) / static_cast<double>(n));
    EXPECT_LT(4 * n, n_base) << file;
  }
}

// ------------------------------------------------------------------ the instruction counter

// rvv_icount's counts are exact: a loop of 1000 iterations of 4 instructions (2 of them vector) adds
// exactly 2 + 4000 instructions and 1 + 2000 vector ones to an empty kernel.
TEST(RvvInstructionCount, CountsALoopExactly) {
  auto build = [](const std::string& body) {
    BuildOptions o;
    o.language = "asm";
    o.file_name = "k.S";
    BuiltKernel k = build_kernel("  .text\n  .globl kernel\nkernel:\n" + body + "  ret\n", o);
    EXPECT_TRUE(k.ok) << format_diagnostics(k.diagnostics);
    return k;
  };
  const std::vector<uint8_t> dram(64, 0);
  const auto empty = testing::count_instructions(build(""), dram);
  const auto loop = testing::count_instructions(build(R"(  li t0, 1000
  vsetivli zero, 4, e32, m1, ta, ma
1:
  vadd.vv v1, v1, v2
  vadd.vv v2, v2, v1
  addi t0, t0, -1
  bnez t0, 1b
)"),
                                                dram);
  EXPECT_GT(empty.instructions, 0u);
  EXPECT_EQ(loop.instructions - empty.instructions, 2u + 4000u);
  EXPECT_EQ(loop.vector_instructions - empty.vector_instructions, 1u + 2000u);
}

// ------------------------------------------------------------------ layout and the knob API

TEST(RvvLayout, Fp32TensorsOn64ByteBoundaries) {
  for (const auto& task : kTasks) {
    for (const auto& config : kConfigs) {
      const auto cfg = resolve(task, config);
      const auto layout = task_layout(cfg);
      EXPECT_EQ(layout.dtype, tasks::DType::fp32);
      EXPECT_EQ(layout.alignment, kLayoutAlignment);
      uint64_t end = 0;
      for (const auto& r : layout.regions) {
        EXPECT_EQ(r.address % 64, 0u) << task << " " << r.name;
        EXPECT_GE(r.address, end);
        end = r.end();
        if (r.kind == tasks::RegionKind::scratch) {  // bytes, no shape
          EXPECT_EQ(r.bytes, cfg.scratch_bytes) << task;
          continue;
        }
        if (r.kind == tasks::RegionKind::phase) {  // a phase's marker region (level 3)
          EXPECT_EQ(r.bytes, tasks::kPhaseMarkerBytes) << task;
          continue;
        }
        int64_t elements = 1;
        for (int64_t d : r.shape) elements *= d;
        EXPECT_EQ(r.bytes, static_cast<uint64_t>(elements) * 4) << task << " " << r.name;
      }
    }
  }
  EXPECT_THROW(task_layout(registry().get("gemm").resolve("C1", tasks::DType::bf16)), std::invalid_argument);
}

TEST(RvvCompiler, KnobsAndClamping) {
  const BaselineCompiler c;
  auto sorted_tasks = kTasks;
  std::sort(sorted_tasks.begin(), sorted_tasks.end());
  EXPECT_EQ(c.supported_tasks(), sorted_tasks);
  const auto cfg = resolve("gemm", "C3");
  const auto knobs = c.knobs(cfg);
  ASSERT_EQ(knobs.size(), 3u);
  EXPECT_EQ(knobs[0].name, "lmul");
  EXPECT_EQ(knobs[1].name, "unroll");
  EXPECT_EQ(knobs[2].name, "k_block");
  // k_block's default: all of K while B fits the cache (C3: 64 x 128 x 4 = 32 KiB, the whole cache), else
  // the largest block that does (C4: 64 rows of 512 bytes; C5: 32 rows of 1 KiB); a smaller cache, smaller
  // blocks; C1's B fits whole.
  EXPECT_EQ(knobs[2].baseline, 0);
  EXPECT_EQ(BaselineCompiler(128, 4096).knobs(cfg)[2].baseline, 0);  // not even 16 rows fit: none
  EXPECT_EQ(BaselineCompiler(128, 8192).knobs(cfg)[2].baseline, 16);
  EXPECT_EQ(BaselineCompiler(128, 16384).knobs(cfg)[2].baseline, 32);
  EXPECT_EQ(c.knobs(resolve("gemm", "C1"))[2].baseline, 0);
  EXPECT_EQ(c.knobs(resolve("gemm", "C4"))[2].baseline, 64);
  EXPECT_EQ(c.knobs(resolve("gemm", "C5"))[2].baseline, 32);
  EXPECT_EQ(c.knobs(resolve("relu", "C1")).size(), 1u);  // no unroll for element-wise tasks
  // Every level-1/2 task's template is vectorised, the convolutions, layer_norm and rope included.
  for (const char* task : {"conv2d", "depthwise_conv", "layer_norm", "rope"}) {
    const auto cfg1 = resolve(task, "C1");
    ASSERT_EQ(c.knobs(cfg1).size(), std::string(task) == "depthwise_conv" ? 2u : 1u) << task;  // lmul, unroll
    EXPECT_NE(c.generate(cfg1, task_layout(cfg1)).source.find("__riscv_vsetvl_e32m"), std::string::npos)
        << task;
  }
  // depthwise_conv's unroll (output pixels per pass) leaves room for KW = 3 weight groups and the input
  // column: at LMUL 4 (8 groups) 4 pixels, at LMUL 8 none, so one pixel per pass with every operand loaded
  // per tap; the default is 2.
  const auto dw = resolve("depthwise_conv", "C2");
  EXPECT_EQ(c.knobs(dw)[1].baseline, 2);
  const auto dw4 = c.generate(dw, task_layout(dw), {{"lmul", 4}, {"unroll", 8}});
  EXPECT_EQ(dw4.knobs.at("unroll"), 4);
  EXPECT_NE(dw4.source.find("acc3 = __riscv_vfmacc_vv_f32m4(acc3, w2, xv, vl)"), std::string::npos)
      << dw4.source;
  const auto dw8 = c.generate(dw, task_layout(dw), {{"lmul", 8}, {"unroll", 4}});
  EXPECT_EQ(dw8.knobs.at("unroll"), 1);
  EXPECT_EQ(dw8.source.find("acc0"), std::string::npos) << dw8.source;
  // The level-3 composites have no knobs.
  const auto block = resolve("conv_block", "C1");
  EXPECT_TRUE(c.knobs(block).empty());
  // The compiler baseline: named, plain C, no knobs, for every task; none for an unsupported configuration.
  EXPECT_EQ(c.compiler_baseline_name(), "clang -O2");
  const auto layout = task_layout(cfg);
  const auto scalar = c.compiler_baseline(cfg, layout);
  EXPECT_TRUE(scalar.knobs.empty());
  EXPECT_NE(scalar.source.find("the plain scalar C reference"), std::string::npos);
  EXPECT_EQ(scalar.source.find("riscv_vector.h"), std::string::npos);
  EXPECT_EQ(scalar.language, "c");
  EXPECT_THROW(c.compiler_baseline(resolve("gemm", "C1"), layout), std::invalid_argument);
  // The attention family's unroll (keys per pass) has a tail loop, so it need not divide S.
  const auto att = resolve("attention", "C1");
  EXPECT_EQ(c.generate(att, task_layout(att), {{"lmul", 1}, {"unroll", 8}}).knobs.at("unroll"), 8);
  // The default knobs are the knobs' baselines.
  EXPECT_EQ(c.generate(cfg, layout).source,
            c.generate(cfg, layout, {{"lmul", knobs[0].baseline}, {"unroll", knobs[1].baseline}}).source);
  // LMUL 8 leaves room for two accumulator groups next to B's strip; 3 rounds down to 2; 100 to 8.
  auto k = c.generate(cfg, layout, {{"lmul", 8}, {"unroll", 8}});
  EXPECT_EQ(k.knobs.at("unroll"), 2);
  k = c.generate(cfg, layout, {{"lmul", 3}, {"unroll", 100}});
  EXPECT_EQ(k.knobs.at("lmul"), 2);
  EXPECT_EQ(k.knobs.at("unroll"), 8);
  EXPECT_NE(k.source.find("__riscv_vfmacc_vf_f32m2"), std::string::npos) << k.source;
  // k_block: 0 and blocks of all of K or more are one pass (the same kernel); others round down to a
  // candidate, at least 16.
  EXPECT_EQ(c.generate(cfg, layout, {{"k_block", 0}}).knobs.at("k_block"), 0);
  EXPECT_EQ(c.generate(cfg, layout, {{"k_block", 64}}).source,
            c.generate(cfg, layout, {{"k_block", 0}}).source);
  EXPECT_EQ(c.generate(cfg, layout, {{"k_block", 40}}).knobs.at("k_block"), 32);
  EXPECT_EQ(c.generate(cfg, layout, {{"k_block", 3}}).knobs.at("k_block"), 16);
  EXPECT_NE(c.generate(cfg, layout, {{"k_block", 16}}).source.find("k0 += 16"), std::string::npos);
  // Errors: an unknown task, a bf16 configuration, a layout of another configuration, a bad VLEN.
  auto other = cfg;
  other.task = "no_such_task";
  EXPECT_FALSE(c.unsupported_reason(other).empty());
  EXPECT_THROW(c.knobs(other), std::invalid_argument);
  const auto bf16 = registry().get("gemm").resolve("C1", tasks::DType::bf16);
  EXPECT_NE(c.unsupported_reason(bf16).find("FP32"), std::string::npos);
  EXPECT_THROW(c.generate(bf16, layout), std::invalid_argument);
  EXPECT_THROW(c.generate(resolve("gemm", "C1"), layout), std::invalid_argument);
  EXPECT_THROW(c.compiler_baseline(bf16, layout), std::invalid_argument);
  EXPECT_THROW(BaselineCompiler(96), std::invalid_argument);
  EXPECT_NE(make_baseline_compiler(256), nullptr);
  // The math header is pasted only where it is used.
  EXPECT_EQ(generate("gemm", "C1").source.find("kc_expf"), std::string::npos);
  EXPECT_NE(generate("silu", "C1").source.find("KC_MATH_FN float kc_expf"), std::string::npos);
  EXPECT_EQ(compiler_baseline("gemm", "C1").source.find("kc_expf"), std::string::npos);
  EXPECT_NE(compiler_baseline("silu", "C1").source.find("KC_MATH_FN float kc_expf"), std::string::npos);
}

// ------------------------------------------------------------------ the level-3 composites

const std::vector<std::string> kCompositeTasks = {"conv_block", "decoder_block_llama", "decoder_block_t5"};

// Every intermediate has its own 64-byte-aligned buffer inside the spec's scratch region, and the kernel
// points at the buffers the allocation says.
TEST(RvvComposite, ScratchBuffersFitTheRegionWithoutOverlapping) {
  EXPECT_EQ(composite::tasks(), kCompositeTasks);
  // The kernels' phases are the specs' (so the layout has a marker region for each).
  for (const auto& task : kCompositeTasks) {
    std::vector<std::string> declared;
    for (const auto& phase : registry().get(task).phases) declared.push_back(phase.name);
    EXPECT_EQ(composite::phases(task), declared) << task;
  }
  for (const auto& task : kCompositeTasks) {
    for (const auto& config : kConfigs) {
      const auto cfg = resolve(task, config);
      ASSERT_EQ(BaselineCompiler().unsupported_reason(cfg), "") << task << " " << config;
      const auto buffers = composite::scratch_buffers(cfg);
      ASSERT_FALSE(buffers.empty());
      const std::string source = generate(task, config).source;
      uint64_t end = 0;
      for (const auto& b : buffers) {
        EXPECT_EQ(b.offset % 64, 0u) << task << " " << b.name;
        EXPECT_GE(b.offset, end) << task << " " << config << " " << b.name << " overlaps the buffer before";
        EXPECT_GT(b.bytes, 0u);
        end = b.offset + b.bytes;
        EXPECT_NE(
            source.find(fmt::format("float* const {} = (float*)ADDR_SCRATCH + {};", b.name, b.offset / 4)),
            std::string::npos)
            << task << " " << b.name << "\n"
            << source;
      }
      EXPECT_LE(end, cfg.scratch_bytes) << task << " " << config;
    }
  }
  EXPECT_THROW(composite::scratch_buffers(resolve("gqa", "C1")), std::invalid_argument);
}

// The kernel is its phases in order; each marks its start with one store to its `phase_<name>` region when
// the layout has one, and is a comment only otherwise.
TEST(RvvComposite, PhasesInOrderWithAMarkerWhereTheLayoutHasTheRegion) {
  for (const auto& task : kCompositeTasks) {
    const auto cfg = resolve(task, "C1");
    auto layout = task_layout(cfg);
    const auto& phases = composite::phases(task);
    ASSERT_GE(phases.size(), 2u);
    // Without phase regions: comments only.
    layout.regions.erase(
        std::remove_if(layout.regions.begin(), layout.regions.end(),
                       [](const tasks::DramRegion& r) { return r.name.rfind("phase_", 0) == 0; }),
        layout.regions.end());
    const std::string plain = BaselineCompiler().generate(cfg, layout).source;
    EXPECT_EQ(plain.find("volatile unsigned"), std::string::npos) << plain;
    // With one region per phase after the layout's end: one store each, in the phases' order.
    for (const auto& phase : phases) {
      tasks::DramRegion region;
      region.name = "phase_" + phase;
      region.kind = tasks::RegionKind::phase;
      region.address = layout.total_bytes;
      region.bytes = 256;
      region.writable = true;
      layout.total_bytes += 256;
      layout.regions.push_back(region);
    }
    const std::string marked = BaselineCompiler().generate(cfg, layout).source;
    size_t previous = 0;
    for (const auto& phase : phases) {
      std::string symbol = "ADDR_PHASE_" + phase;
      for (char& c : symbol) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
      const auto comment = marked.find("/* phase " + phase + " */");
      const std::string statement = "*(volatile unsigned*)" + symbol + " = 0;";
      const auto store = marked.find(statement);
      ASSERT_NE(comment, std::string::npos) << task << " " << phase;
      ASSERT_NE(store, std::string::npos) << task << " " << phase << "\n" << marked;
      EXPECT_GT(comment, previous) << task << ": " << phase << " out of order";
      EXPECT_GT(store, comment);
      EXPECT_EQ(marked.find(statement, store + 1), std::string::npos) << "one marker per phase";
      previous = store;
    }
  }
  EXPECT_THROW(composite::phases("gemm"), std::invalid_argument);
}

// A configuration the composite cannot build is refused with the reason, and generate throws it.
TEST(RvvComposite, ConfigurationsItCannotBuildAreStated) {
  const BaselineCompiler c;
  auto set_dim = [](tasks::ResolvedConfig cfg, const std::string& name, int64_t value) {
    for (auto& [n, v] : cfg.dims) {
      if (n == name) v = value;
    }
    return cfg;
  };
  auto expect_reason = [&](const tasks::ResolvedConfig& cfg, const std::string& words) {
    const std::string why = c.unsupported_reason(cfg);
    EXPECT_NE(why.find(words), std::string::npos) << cfg.task << ": '" << why << "'";
    EXPECT_THROW(c.generate(cfg, task_layout(cfg)), std::invalid_argument) << cfg.task;
  };
  const auto llama = resolve("decoder_block_llama", "C3");
  auto small_scratch = llama;
  small_scratch.scratch_bytes = 1024;
  expect_reason(small_scratch, "bytes of scratch");
  expect_reason(set_dim(llama, "KV_HEADS", 3), "multiple of KV_HEADS");
  auto t5 = resolve("decoder_block_t5", "C1");
  for (auto& t : t5.inputs) {
    if (t.name == "bias") t.shape = {2, 16};
  }
  expect_reason(t5, "num_buckets = 32 wide");
  expect_reason(set_dim(resolve("conv_block", "C3"), "RESIDUAL", 2), "RESIDUAL must be 0 or 1");
  auto shrunk = resolve("conv_block", "C3");
  for (auto& t : shrunk.outputs) t.shape = {8, 8, 32};
  expect_reason(shrunk, "residual add needs");
  // No knobs: one composed kernel; the compiler baseline refuses the configuration too.
  EXPECT_TRUE(c.knobs(llama).empty());
  EXPECT_THROW(c.compiler_baseline(small_scratch, task_layout(small_scratch)), std::invalid_argument);
}

}  // namespace
}  // namespace kcraft::rvv
