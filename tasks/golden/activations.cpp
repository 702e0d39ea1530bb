#include <cmath>

#include "tasks/golden/references.h"

namespace kcraft::tasks::golden {

namespace {
template <typename Fn>
void elementwise(GoldenContext& context, Fn fn) {
  const Tensor& x = context.input("x");
  Tensor& y = context.output("y");
  context.require(x.shape == y.shape, "x " + format_shape(x.shape) + " and y " + format_shape(y.shape) +
                                          " must have the same shape");
  for (std::size_t i = 0; i < x.data.size(); ++i) y.data[i] = fn(x.data[i]);
}
}  // namespace

double relu_value(double x) {
  // NaN propagates (x > 0 is false for NaN, so test for it explicitly).
  return std::isnan(x) ? x : (x > 0.0 ? x : 0.0);
}

void relu(GoldenContext& context) {
  elementwise(context, relu_value);
}

void silu(GoldenContext& context) {
  // x / (1 + e^-x) is accurate for both signs: e^-x overflows to inf for x << 0 and gives -0.
  elementwise(context, [](double x) { return x / (1.0 + std::exp(-x)); });
}

double gelu_tanh(double x) {
  // PyTorch gelu(approximate='tanh'): 0.5 x (1 + tanh z) written as x / (1 + e^(-2z)), which is the same
  // function without the cancellation in 1 + tanh z for z << 0 (the far negative tail keeps full precision).
  constexpr double kSqrt2OverPi = 0.79788456080286535588;
  const double z = kSqrt2OverPi * (x + 0.044715 * x * x * x);
  return x / (1.0 + std::exp(-2.0 * z));
}

void gelu(GoldenContext& context) {
  elementwise(context, gelu_tanh);
}

}  // namespace kcraft::tasks::golden
