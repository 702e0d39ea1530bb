#include <cmath>
#include <vector>

#include "tasks/golden/references.h"

namespace kcraft::tasks::golden {

std::vector<double> linear_rows(const double* in, const Tensor& w, const Tensor* bias, int64_t rows) {
  const int64_t n = w.shape[0], k = w.shape[1];
  std::vector<double> out(static_cast<std::size_t>(rows * n));
  for (int64_t i = 0; i < rows; ++i) {
    for (int64_t j = 0; j < n; ++j) {
      double sum = 0.0;
      for (int64_t p = 0; p < k; ++p) sum += in[i * k + p] * w.data[static_cast<std::size_t>(j * k + p)];
      out[static_cast<std::size_t>(i * n + j)] = sum + (bias ? bias->data[static_cast<std::size_t>(j)] : 0.0);
    }
  }
  return out;
}

namespace {
void require_weight(GoldenContext& context, const Tensor& w, int64_t out_features, int64_t in_features) {
  context.require(w.shape == Shape{out_features, in_features},
                  w.name + " " + format_shape(w.shape) + " must be [" + std::to_string(out_features) + ", " +
                      std::to_string(in_features) + "] ([out, in])");
}

// x [M, D] and y [M, D]; returns (M, D).
std::pair<int64_t, int64_t> block_io(GoldenContext& context, const Tensor& x, const Tensor& y) {
  context.require(
      x.shape.size() == 2 && y.shape == x.shape,
      "x " + format_shape(x.shape) + " and y " + format_shape(y.shape) + " must be the same [M, D]");
  return {x.shape[0], x.shape[1]};
}
}  // namespace

void rope(GoldenContext& context) {
  rope_into(context, context.input("x"), context.input("cos"), context.input("sin"), context.output("y"));
}

void rope_into(GoldenContext& context, const Tensor& x, const Tensor& cos, const Tensor& sin, Tensor& y) {
  context.require(
      x.shape.size() == 3 && y.shape == x.shape,
      "x " + format_shape(x.shape) + " and y " + format_shape(y.shape) + " must be [HEADS, S, D]");
  const int64_t heads = x.shape[0], seq = x.shape[1], dim = x.shape[2];
  context.require(dim % 2 == 0, "D = " + std::to_string(dim) + " must be even");
  context.require(cos.shape == Shape{seq, dim} && sin.shape == Shape{seq, dim},
                  "cos " + format_shape(cos.shape) + " and sin " + format_shape(sin.shape) + " must be [" +
                      std::to_string(seq) + ", " + std::to_string(dim) + "]");
  const int64_t half = dim / 2;
  for (int64_t h = 0; h < heads; ++h) {
    for (int64_t s = 0; s < seq; ++s) {
      const double* in = x.data.data() + (h * seq + s) * dim;
      double* out = y.data.data() + (h * seq + s) * dim;
      for (int64_t d = 0; d < dim; ++d) {
        const double rotated = d < half ? -in[d + half] : in[d - half];
        const auto t = static_cast<std::size_t>(s * dim + d);
        out[d] = in[d] * cos.data[t] + rotated * sin.data[t];
      }
    }
  }
}

void ffn(GoldenContext& context) {
  const Tensor& x = context.input("x");
  const Tensor& w1 = context.input("W1");
  const Tensor& b1 = context.input("b1");
  const Tensor& w2 = context.input("W2");
  const Tensor& b2 = context.input("b2");
  Tensor& y = context.output("y");
  const auto [m, d] = block_io(context, x, y);
  context.require(w1.shape.size() == 2, "W1 must be [F, D], got " + format_shape(w1.shape));
  const int64_t f = w1.shape[0];
  require_weight(context, w1, f, d);
  require_weight(context, w2, d, f);
  context.require(b1.shape == Shape{f} && b2.shape == Shape{d},
                  "b1 " + format_shape(b1.shape) + " must be [F], b2 " + format_shape(b2.shape) + " [D]");
  std::vector<double> hidden = linear_rows(x.data.data(), w1, &b1, m);
  for (double& value : hidden) value = gelu_tanh(value);
  y.data = linear_rows(hidden.data(), w2, &b2, m);
}

void swiglu(GoldenContext& context) {
  swiglu_into(context, context.input("x"), context.input("Wg"), context.input("Wu"), context.input("Wd"),
              context.output("y"));
}

void swiglu_into(GoldenContext& context, const Tensor& x, const Tensor& wg, const Tensor& wu,
                 const Tensor& wd, Tensor& y) {
  const auto [m, d] = block_io(context, x, y);
  context.require(wg.shape.size() == 2, "Wg must be [F, D], got " + format_shape(wg.shape));
  const int64_t f = wg.shape[0];
  require_weight(context, wg, f, d);
  require_weight(context, wu, f, d);
  require_weight(context, wd, d, f);
  std::vector<double> gate = linear_rows(x.data.data(), wg, nullptr, m);
  const std::vector<double> up = linear_rows(x.data.data(), wu, nullptr, m);
  for (std::size_t i = 0; i < gate.size(); ++i) gate[i] = gate[i] / (1.0 + std::exp(-gate[i])) * up[i];
  y.data = linear_rows(gate.data(), wd, nullptr, m);
}

}  // namespace kcraft::tasks::golden
