#include <vector>

#include "tasks/golden/references.h"

namespace kcraft::tasks::golden {

void gemm(GoldenContext& context) {
  const Tensor& a = context.input("A");
  const Tensor& b = context.input("B");
  Tensor& c = context.output("C");
  context.require(a.shape.size() == 2 && b.shape.size() == 2 && c.shape.size() == 2,
                  "A, B and C must be 2-D");
  const int64_t m = a.shape[0], k = a.shape[1], n = b.shape[1];
  context.require(b.shape[0] == k && c.shape == Shape{m, n}, "shapes A " + format_shape(a.shape) + ", B " +
                                                                 format_shape(b.shape) + ", C " +
                                                                 format_shape(c.shape) + " do not chain");
  // i-k-j order keeps the inner loop contiguous; each C element is still a plain FP64 sum over k.
  for (int64_t i = 0; i < m; ++i) {
    double* row = c.data.data() + i * n;
    for (int64_t p = 0; p < k; ++p) {
      const double scale = a.data[static_cast<std::size_t>(i * k + p)];
      const double* b_row = b.data.data() + p * n;
      for (int64_t j = 0; j < n; ++j) row[j] += scale * b_row[j];
    }
  }
}

void linear(GoldenContext& context) {
  const Tensor& x = context.input("x");
  const Tensor& w = context.input("W");
  const Tensor& bias = context.input("b");
  Tensor& y = context.output("y");
  context.require(x.shape.size() == 2 && w.shape.size() == 2 && y.shape.size() == 2,
                  "x, W and y must be 2-D");
  const int64_t m = x.shape[0], k = x.shape[1], n = w.shape[0];
  context.require(w.shape[1] == k && bias.shape == Shape{n} && y.shape == Shape{m, n},
                  "shapes x " + format_shape(x.shape) + ", W " + format_shape(w.shape) + ", b " +
                      format_shape(bias.shape) + ", y " + format_shape(y.shape) +
                      " do not match y = x W^T + b");
  for (int64_t i = 0; i < m; ++i) {
    const double* x_row = x.data.data() + i * k;
    for (int64_t j = 0; j < n; ++j) {
      const double* w_row = w.data.data() + j * k;
      double sum = 0.0;
      for (int64_t p = 0; p < k; ++p) sum += x_row[p] * w_row[p];
      y.data[static_cast<std::size_t>(i * n + j)] = sum + bias.data[static_cast<std::size_t>(j)];
    }
  }
}

void gemv(GoldenContext& context) {
  const Tensor& a = context.input("A");
  const Tensor& x = context.input("x");
  Tensor& y = context.output("y");
  context.require(a.shape.size() == 2, "A must be 2-D, got " + format_shape(a.shape));
  const int64_t m = a.shape[0], k = a.shape[1];
  context.require(x.shape == Shape{k} && y.shape == Shape{m}, "shapes A " + format_shape(a.shape) + ", x " +
                                                                  format_shape(x.shape) + ", y " +
                                                                  format_shape(y.shape) + " do not chain");
  for (int64_t i = 0; i < m; ++i) {
    const double* row = a.data.data() + i * k;
    double sum = 0.0;
    for (int64_t p = 0; p < k; ++p) sum += row[p] * x.data[static_cast<std::size_t>(p)];
    y.data[static_cast<std::size_t>(i)] = sum;
  }
}

void batch_matmul(GoldenContext& context) {
  const Tensor& a = context.input("A");
  const Tensor& b = context.input("B");
  Tensor& c = context.output("C");
  context.require(a.shape.size() == 3 && b.shape.size() == 3 && c.shape.size() == 3,
                  "A, B and C must be 3-D [batch, rows, columns]");
  const int64_t batch = a.shape[0], m = a.shape[1], k = a.shape[2], n = b.shape[2];
  context.require(b.shape[0] == batch && b.shape[1] == k && c.shape == Shape{batch, m, n},
                  "shapes A " + format_shape(a.shape) + ", B " + format_shape(b.shape) + ", C " +
                      format_shape(c.shape) + " do not chain");
  for (int64_t index = 0; index < batch; ++index) {
    const double* a_mat = a.data.data() + index * m * k;
    const double* b_mat = b.data.data() + index * k * n;
    double* c_mat = c.data.data() + index * m * n;
    for (int64_t i = 0; i < m; ++i) {
      for (int64_t p = 0; p < k; ++p) {
        const double scale = a_mat[i * k + p];
        for (int64_t j = 0; j < n; ++j) c_mat[i * n + j] += scale * b_mat[p * n + j];
      }
    }
  }
}

}  // namespace kcraft::tasks::golden
