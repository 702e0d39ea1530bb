// Are the default tolerances honest? Correct kernels (correctly rounded outputs, and kernels that compute
// the way the hardware does: BF16 storage between steps, FP32 accumulation) must pass on every config;
// plausible wrong kernels must fail on every config.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <functional>
#include <map>

#include "tasks/common/compare.h"
#include "tasks/common/inputs.h"
#include "tasks/golden/golden.h"
#include "test_util.h"

namespace kcraft::tasks {
namespace {

// A kernel under test: inputs and the config in, output values out (in the output dtype).
using Kernel =
    std::function<std::vector<double>(const std::vector<Tensor>& inputs, const ResolvedConfig& config)>;

struct Case {
  std::vector<Tensor> inputs;
  std::vector<Tensor> refs;
  ResolvedConfig config;
};

const Case& case_for(const std::string& task, const std::string& config, DType dtype) {
  static std::map<std::string, Case> cache;
  const std::string key = task + "/" + config + "/" + std::string(dtype_name(dtype));
  auto it = cache.find(key);
  if (it == cache.end()) {
    const TaskSpec& spec = testing::registry().get(task);
    Case c;
    c.config = spec.resolve(config, dtype);
    c.inputs = make_inputs(c.config, 20240601);
    c.refs = compute_reference(c.config, spec.golden, c.inputs);
    it = cache.emplace(key, std::move(c)).first;
  }
  return it->second;
}

CompareResult run(const std::string& task, const std::string& config, DType dtype, const Kernel& kernel) {
  const Case& c = case_for(task, config, dtype);
  const std::vector<double> out = kernel(c.inputs, c.config);
  return compare_tensor(c.refs[0].name, c.refs[0].shape, out, c.refs[0].data, c.config.tolerance);
}

double bf(double v) {
  return round_to_dtype(v, DType::bf16);
}
float f32(double v) {
  return static_cast<float>(v);
}
double store(double v, DType dtype) {
  return round_to_dtype(v, dtype);
}

int64_t rows_of(const Tensor& t) {
  return static_cast<int64_t>(t.data.size()) / t.shape.back();
}

// ---- correct kernels -------------------------------------------------------------------------------

// What a vector unit with `dtype` storage does: each step computed in FP32, stored rounded.
std::vector<double> relu_kernel(const std::vector<Tensor>& in, const ResolvedConfig& c) {
  std::vector<double> y;
  for (double x : in[0].data) y.push_back(store(std::max(x, 0.0), c.dtype));
  return y;
}

std::vector<double> silu_kernel(const std::vector<Tensor>& in, const ResolvedConfig& c) {
  std::vector<double> y;
  for (double x : in[0].data) {
    const double e = store(std::exp(-f32(x)), c.dtype);
    const double d = store(f32(1.0) + f32(e), c.dtype);
    const double r = store(1.0f / f32(d), c.dtype);
    y.push_back(store(f32(x) * f32(r), c.dtype));
  }
  return y;
}

std::vector<double> softmax_kernel(const std::vector<Tensor>& in, const ResolvedConfig& c,
                                   bool subtract_max) {
  const Tensor& x = in[0];
  const int64_t n = x.shape.back();
  std::vector<double> y(x.data.size());
  for (int64_t r = 0; r < rows_of(x); ++r) {
    float row_max = -INFINITY;
    for (int64_t j = 0; j < n; ++j) row_max = std::max(row_max, f32(x.at2(r, j)));
    if (!subtract_max) row_max = 0.0f;
    float sum = 0.0f;  // FP32 reduction
    std::vector<double> e(static_cast<std::size_t>(n));
    for (int64_t j = 0; j < n; ++j) {
      e[static_cast<std::size_t>(j)] = store(std::exp(f32(x.at2(r, j)) - row_max), c.dtype);
      sum += f32(e[static_cast<std::size_t>(j)]);
    }
    const float inv = 1.0f / sum;
    for (int64_t j = 0; j < n; ++j)
      y[static_cast<std::size_t>(r * n + j)] = store(f32(e[static_cast<std::size_t>(j)]) * inv, c.dtype);
  }
  return y;
}

std::vector<double> rms_norm_kernel(const std::vector<Tensor>& in, const ResolvedConfig& c, bool use_eps,
                                    bool use_gamma) {
  const Tensor& x = in[0];
  const Tensor& gamma = in[1];
  const int64_t n = x.shape.back();
  const float eps = use_eps ? f32(c.param("eps")) : 0.0f;
  std::vector<double> y(x.data.size());
  for (int64_t r = 0; r < rows_of(x); ++r) {
    float sum_sq = 0.0f;
    for (int64_t j = 0; j < n; ++j) sum_sq += f32(x.at2(r, j)) * f32(x.at2(r, j));
    const float inv_rms = 1.0f / std::sqrt(sum_sq / static_cast<float>(n) + eps);
    for (int64_t j = 0; j < n; ++j) {
      const double normalised = store(f32(x.at2(r, j)) * inv_rms, c.dtype);
      const double g = use_gamma ? gamma.data[static_cast<std::size_t>(j)] : 1.0;
      y[static_cast<std::size_t>(r * n + j)] = store(f32(normalised) * f32(g), c.dtype);
    }
  }
  return y;
}

// C = A B with FP32 accumulation in k order (a systolic column), B read as stored [K, N] or, when
// `transpose_b`, wrongly as [N, K].
std::vector<double> gemm_kernel(const std::vector<Tensor>& in, const ResolvedConfig& c, bool transpose_b) {
  const Tensor& a = in[0];
  const Tensor& b = in[1];
  const int64_t m = a.shape[0], k = a.shape[1], n = b.shape[1];
  std::vector<double> out(static_cast<std::size_t>(m * n));
  for (int64_t i = 0; i < m; ++i) {
    for (int64_t j = 0; j < n; ++j) {
      float acc = 0.0f;
      for (int64_t p = 0; p < k; ++p) {
        const double bv = transpose_b ? b.data[static_cast<std::size_t>(j * k + p)]
                                      : b.data[static_cast<std::size_t>(p * n + j)];
        acc += f32(a.data[static_cast<std::size_t>(i * k + p)]) * f32(bv);
      }
      out[static_cast<std::size_t>(i * n + j)] = store(acc, c.dtype);
    }
  }
  return out;
}

// y = x W^T + b: FP32 dot products, output rounded, then the bias added on the vector unit.
std::vector<double> linear_kernel(const std::vector<Tensor>& in, const ResolvedConfig& c,
                                  bool transposed_weight, bool use_bias) {
  const Tensor& x = in[0];
  const Tensor& w = in[1];
  const Tensor& bias = in[2];
  const int64_t m = x.shape[0], k = x.shape[1], n = w.shape[0];
  std::vector<double> out(static_cast<std::size_t>(m * n));
  for (int64_t i = 0; i < m; ++i) {
    for (int64_t j = 0; j < n; ++j) {
      float acc = 0.0f;
      for (int64_t p = 0; p < k; ++p) {
        // The wrong kernel reads W as if it were stored [K, N] (x W instead of x W^T).
        const double wv = transposed_weight ? w.data[static_cast<std::size_t>(p * n + j)]
                                            : w.data[static_cast<std::size_t>(j * k + p)];
        acc += f32(x.data[static_cast<std::size_t>(i * k + p)]) * f32(wv);
      }
      const double product = store(acc, c.dtype);
      const double b = use_bias ? bias.data[static_cast<std::size_t>(j)] : 0.0;
      out[static_cast<std::size_t>(i * n + j)] = store(f32(product) + f32(b), c.dtype);
    }
  }
  return out;
}

Kernel correct_kernel(const std::string& task) {
  if (task == "relu") return relu_kernel;
  if (task == "silu") return silu_kernel;
  if (task == "softmax") return [](const auto& in, const auto& c) { return softmax_kernel(in, c, true); };
  if (task == "rms_norm")
    return [](const auto& in, const auto& c) { return rms_norm_kernel(in, c, true, true); };
  if (task == "gemm") return [](const auto& in, const auto& c) { return gemm_kernel(in, c, false); };
  return [](const auto& in, const auto& c) { return linear_kernel(in, c, false, true); };
}

// ---- the sweep -------------------------------------------------------------------------------------

struct Summary {
  double worst_rel_l2 = 0.0;
  double worst_ratio = 0.0;  // max over elements of abs error / allowed
};

void expect_all_configs(const std::string& task, DType dtype, const Kernel& kernel, bool should_pass,
                        const std::string& label) {
  Summary summary;
  double lowest_within = 100.0;
  int passed = 0;
  for (const std::string& config : standard_config_names()) {
    const CompareResult result = run(task, config, dtype, kernel);
    passed += result.pass ? 1 : 0;
    EXPECT_EQ(result.pass, should_pass)
        << task << " " << config << " " << dtype_name(dtype) << " " << label << "\n"
        << format_compare(result);
    summary.worst_rel_l2 = std::max(summary.worst_rel_l2, result.rel_l2);
    if (!result.worst.empty()) {
      summary.worst_ratio =
          std::max(summary.worst_ratio, result.worst[0].abs_error / result.worst[0].allowed);
    }
    lowest_within = std::min(lowest_within, result.percent_within);
  }
  std::printf("  %-9s %-4s %-34s passed %d/5  max rel L2 %.2e  max err/allowed %.2f  min within %.2f%%\n",
              task.c_str(), std::string(dtype_name(dtype)).c_str(), label.c_str(), passed,
              summary.worst_rel_l2, summary.worst_ratio, lowest_within);
}

const std::vector<std::string> kTasks = {"relu", "silu", "softmax", "rms_norm", "gemm", "linear"};

TEST(ToleranceSanity, CorrectlyRoundedOutputsPass) {
  for (DType dtype : {DType::bf16, DType::fp32}) {
    for (const std::string& task : kTasks) {
      expect_all_configs(
          task, dtype,
          [&](const auto&, const ResolvedConfig& c) {
            const Case& cs = case_for(task, c.config, dtype);
            std::vector<double> out;
            for (double v : cs.refs[0].data) out.push_back(store(v, dtype));
            return out;
          },
          true, "correctly rounded reference");
    }
  }
}

TEST(ToleranceSanity, HardwareStyleKernelsPass) {
  for (DType dtype : {DType::bf16, DType::fp32}) {
    for (const std::string& task : kTasks)
      expect_all_configs(task, dtype, correct_kernel(task), true, "stepwise kernel");
  }
}

TEST(ToleranceSanity, HarmlessVariantsPass) {
  for (DType dtype : {DType::bf16, DType::fp32}) {
    expect_all_configs(
        "softmax", dtype, [](const auto& in, const auto& c) { return softmax_kernel(in, c, false); }, true,
        "softmax without max subtraction");
    expect_all_configs(
        "rms_norm", dtype, [](const auto& in, const auto& c) { return rms_norm_kernel(in, c, false, true); },
        true, "rms_norm without eps");
  }
}

TEST(ToleranceSanity, AllZeroOutputsFail) {
  for (DType dtype : {DType::bf16, DType::fp32}) {
    for (const std::string& task : kTasks) {
      expect_all_configs(
          task, dtype,
          [&](const auto&, const ResolvedConfig& c) {
            return std::vector<double>(static_cast<std::size_t>(c.outputs[0].elements), 0.0);
          },
          false, "all zeros");
    }
  }
}

TEST(ToleranceSanity, WrongKernelsFail) {
  const DType dtype = DType::bf16;
  expect_all_configs(
      "silu", dtype,
      [](const auto& in, const auto& c) {
        std::vector<double> y;
        for (double x : in[0].data) y.push_back(store(1.0 / (1.0 + std::exp(-x)), c.dtype));
        return y;
      },
      false, "sigmoid instead of silu");
  expect_all_configs(
      "relu", dtype,
      [](const auto& in, const auto& c) {
        std::vector<double> y;
        for (double x : in[0].data) y.push_back(store(x > 0 ? x : 0.01 * x, c.dtype));
        return y;
      },
      false, "leaky relu (slope 0.01)");
  expect_all_configs(
      "linear", dtype, [](const auto& in, const auto& c) { return linear_kernel(in, c, true, true); }, false,
      "linear with W not transposed");
  expect_all_configs(
      "linear", dtype, [](const auto& in, const auto& c) { return linear_kernel(in, c, false, false); },
      false, "linear without bias");
  expect_all_configs(
      "gemm", dtype, [](const auto& in, const auto& c) { return gemm_kernel(in, c, true); }, false,
      "gemm reading B transposed");
  expect_all_configs(
      "softmax", dtype,
      [](const auto& in, const auto& c) {
        // Normalised down the columns instead of along the rows.
        const Tensor& x = in[0];
        const int64_t m = x.shape[0], n = x.shape[1];
        std::vector<double> y(x.data.size());
        for (int64_t j = 0; j < n; ++j) {
          double col_max = -INFINITY, sum = 0.0;
          for (int64_t i = 0; i < m; ++i) col_max = std::max(col_max, x.at2(i, j));
          for (int64_t i = 0; i < m; ++i) sum += std::exp(x.at2(i, j) - col_max);
          for (int64_t i = 0; i < m; ++i)
            y[static_cast<std::size_t>(i * n + j)] = store(std::exp(x.at2(i, j) - col_max) / sum, c.dtype);
        }
        return y;
      },
      false, "softmax over the wrong axis");
  expect_all_configs(
      "softmax", dtype,
      [](const auto& in, const auto& c) {
        return std::vector<double>(in[0].data.size(),
                                   store(1.0 / static_cast<double>(in[0].shape.back()), c.dtype));
      },
      false, "softmax as uniform 1/N");
  expect_all_configs(
      "rms_norm", dtype, [](const auto& in, const auto& c) { return rms_norm_kernel(in, c, true, false); },
      false, "rms_norm without gamma");
}

// Policy, stated as a test: GEMM must accumulate over K in FP32 (the systolic accumulator, M_MMA) as
// PyTorch does for BF16. A kernel that rounds each 16-wide K tile's partial sum to BF16 and adds the tiles
// on the vector unit loses ~K/16 roundings: 2-7% of elements leave the tolerance once K > 16.
TEST(ToleranceSanity, GemmWithBf16PartialSumsFailsOnceKIsTiled) {
  const Kernel bf16_partial_sums = [](const auto& in, const auto&) {
    const Tensor& a = in[0];
    const Tensor& b = in[1];
    const int64_t m = a.shape[0], k = a.shape[1], n = b.shape[1];
    std::vector<double> out(static_cast<std::size_t>(m * n));
    for (int64_t i = 0; i < m; ++i) {
      for (int64_t j = 0; j < n; ++j) {
        double total = 0.0;
        for (int64_t tile = 0; tile < k; tile += 16) {
          float acc = 0.0f;
          for (int64_t p = tile; p < tile + 16; ++p) {
            acc += f32(a.data[static_cast<std::size_t>(i * k + p)]) *
                   f32(b.data[static_cast<std::size_t>(p * n + j)]);
          }
          total = bf(f32(total) + f32(bf(acc)));
        }
        out[static_cast<std::size_t>(i * n + j)] = total;
      }
    }
    return out;
  };
  for (const std::string& config : standard_config_names()) {
    const CompareResult result = run("gemm", config, DType::bf16, bf16_partial_sums);
    const bool single_tile = case_for("gemm", config, DType::bf16).config.dim("K") == 16;
    EXPECT_EQ(result.pass, single_tile) << config << "\n" << format_compare(result);
    std::printf("  gemm bf16 %s, K tiles summed in BF16: %.2f%% within, rel L2 %.2e\n", config.c_str(),
                result.percent_within, result.rel_l2);
  }
}

TEST(ToleranceSanity, OffByOneRowShiftFails) {
  for (const std::string& task : kTasks) {
    expect_all_configs(
        task, DType::bf16,
        [&](const auto&, const ResolvedConfig& c) {
          // Row r gets the reference's row r+1 (the last row wraps to row 0).
          const Tensor& ref = case_for(task, c.config, DType::bf16).refs[0];
          const int64_t n = ref.shape.back();
          const int64_t rows = rows_of(ref);
          std::vector<double> out(ref.data.size());
          for (int64_t r = 0; r < rows; ++r) {
            for (int64_t j = 0; j < n; ++j)
              out[static_cast<std::size_t>(r * n + j)] =
                  bf(ref.data[static_cast<std::size_t>(((r + 1) % rows) * n + j)]);
          }
          return out;
        },
        false, "rows shifted by one");
  }
}

}  // namespace
}  // namespace kcraft::tasks
