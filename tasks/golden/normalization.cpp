#include <algorithm>
#include <cmath>

#include "tasks/golden/references.h"

namespace kcraft::tasks::golden {

namespace {
// Rows are the last dimension; everything before it is flattened.
struct Rows {
  int64_t count;
  int64_t length;
};

Rows rows_of(GoldenContext& context, const Tensor& x, const Tensor& y) {
  context.require(!x.shape.empty(), "x must have at least one dimension");
  context.require(x.shape == y.shape, "x " + format_shape(x.shape) + " and y " + format_shape(y.shape) +
                                          " must have the same shape");
  const int64_t length = x.shape.back();
  return {static_cast<int64_t>(x.data.size()) / length, length};
}
}  // namespace

void softmax(GoldenContext& context) {
  const Tensor& x = context.input("x");
  Tensor& y = context.output("y");
  const Rows rows = rows_of(context, x, y);
  for (int64_t r = 0; r < rows.count; ++r) {
    const double* in = x.data.data() + r * rows.length;
    double* out = y.data.data() + r * rows.length;
    const double row_max = *std::max_element(in, in + rows.length);
    double sum = 0.0;
    for (int64_t i = 0; i < rows.length; ++i) {
      out[i] = std::exp(in[i] - row_max);
      sum += out[i];
    }
    for (int64_t i = 0; i < rows.length; ++i) out[i] /= sum;
  }
}

void rms_norm(GoldenContext& context) {
  rms_norm_into(context, context.input("x"), context.input("gamma"), context.param("eps"),
                context.output("y"));
}

void rms_norm_into(GoldenContext& context, const Tensor& x, const Tensor& gamma, double eps, Tensor& y) {
  const Rows rows = rows_of(context, x, y);
  context.require(gamma.shape == Shape{rows.length}, gamma.name + " " + format_shape(gamma.shape) +
                                                         " must be [" + std::to_string(rows.length) + "]");
  for (int64_t r = 0; r < rows.count; ++r) {
    const double* in = x.data.data() + r * rows.length;
    double* out = y.data.data() + r * rows.length;
    double sum_squares = 0.0;
    for (int64_t i = 0; i < rows.length; ++i) sum_squares += in[i] * in[i];
    const double inv_rms = 1.0 / std::sqrt(sum_squares / static_cast<double>(rows.length) + eps);
    for (int64_t i = 0; i < rows.length; ++i)
      out[i] = in[i] * inv_rms * gamma.data[static_cast<std::size_t>(i)];
  }
}

void layer_norm(GoldenContext& context) {
  const Tensor& x = context.input("x");
  const Tensor& gamma = context.input("gamma");
  const Tensor& beta = context.input("beta");
  Tensor& y = context.output("y");
  const Rows rows = rows_of(context, x, y);
  const Shape row_shape{rows.length};
  context.require(gamma.shape == row_shape && beta.shape == row_shape,
                  "gamma " + format_shape(gamma.shape) + " and beta " + format_shape(beta.shape) +
                      " must be [" + std::to_string(rows.length) + "]");
  const double eps = context.param("eps");
  const double n = static_cast<double>(rows.length);
  for (int64_t r = 0; r < rows.count; ++r) {
    const double* in = x.data.data() + r * rows.length;
    double* out = y.data.data() + r * rows.length;
    // Two passes (mean, then squared deviations): no cancellation for inputs with a large mean.
    double sum = 0.0;
    for (int64_t i = 0; i < rows.length; ++i) sum += in[i];
    const double mean = sum / n;
    double sum_squares = 0.0;
    for (int64_t i = 0; i < rows.length; ++i) sum_squares += (in[i] - mean) * (in[i] - mean);
    const double inv_std = 1.0 / std::sqrt(sum_squares / n + eps);
    for (int64_t i = 0; i < rows.length; ++i) {
      const auto col = static_cast<std::size_t>(i);
      out[i] = (in[i] - mean) * inv_std * gamma.data[col] + beta.data[col];
    }
  }
}

}  // namespace kcraft::tasks::golden
