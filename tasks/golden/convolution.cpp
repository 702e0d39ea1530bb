#include "tasks/golden/references.h"

namespace kcraft::tasks::golden {

namespace {
// The geometry of a padded, strided convolution of an [H, W, C] image, checked against the output shape.
struct ConvGeometry {
  int64_t height, width, channels;
  int64_t kernel_h, kernel_w;
  int64_t stride, pad;
  int64_t out_h, out_w;

  // The input pixel a kernel tap reads for an output position, or -1 in the zero padding.
  int64_t source_row(int64_t oh, int64_t i) const {
    const int64_t h = oh * stride + i - pad;
    return h >= 0 && h < height ? h : -1;
  }
  int64_t source_col(int64_t ow, int64_t j) const {
    const int64_t w = ow * stride + j - pad;
    return w >= 0 && w < width ? w : -1;
  }
};

ConvGeometry conv_geometry(GoldenContext& context, const Tensor& x, const Tensor& w, const Tensor& y) {
  context.require(x.shape.size() == 3, "x must be [H, W, C], got " + format_shape(x.shape));
  context.require(w.shape.size() >= 3, "w must be [KH, KW, C, ...], got " + format_shape(w.shape));
  context.require(y.shape.size() == 3, "y must be [OH, OW, channels], got " + format_shape(y.shape));
  ConvGeometry g{x.shape[0],         x.shape[1], x.shape[2], w.shape[0], w.shape[1], context.dim("STRIDE"),
                 context.dim("PAD"), 0,          0};
  context.require(g.stride >= 1 && g.pad >= 0, "STRIDE must be >= 1 and PAD >= 0");
  context.require(w.shape[2] == g.channels, "w " + format_shape(w.shape) + " does not match x's " +
                                                std::to_string(g.channels) + " channels");
  context.require(g.kernel_h <= g.height + 2 * g.pad && g.kernel_w <= g.width + 2 * g.pad,
                  "the kernel is larger than the padded image");
  g.out_h = (g.height + 2 * g.pad - g.kernel_h) / g.stride + 1;
  g.out_w = (g.width + 2 * g.pad - g.kernel_w) / g.stride + 1;
  context.require(y.shape[0] == g.out_h && y.shape[1] == g.out_w,
                  "y " + format_shape(y.shape) + " must be [" + std::to_string(g.out_h) + ", " +
                      std::to_string(g.out_w) + ", ...] for this stride and padding");
  return g;
}
}  // namespace

void conv2d(GoldenContext& context) {
  conv2d_into(context, context.input("x"), context.input("w"), context.output("y"));
}

void conv2d_into(GoldenContext& context, const Tensor& x, const Tensor& w, Tensor& y) {
  const ConvGeometry g = conv_geometry(context, x, w, y);
  context.require(w.shape.size() == 4, "w must be [KH, KW, C, F], got " + format_shape(w.shape));
  const int64_t filters = w.shape[3];
  context.require(y.shape[2] == filters,
                  "y " + format_shape(y.shape) + " must have F = " + std::to_string(filters) + " channels");
  for (int64_t oh = 0; oh < g.out_h; ++oh) {
    for (int64_t ow = 0; ow < g.out_w; ++ow) {
      double* out = y.data.data() + (oh * g.out_w + ow) * filters;
      for (int64_t i = 0; i < g.kernel_h; ++i) {
        const int64_t h = g.source_row(oh, i);
        if (h < 0) continue;
        for (int64_t j = 0; j < g.kernel_w; ++j) {
          const int64_t col = g.source_col(ow, j);
          if (col < 0) continue;
          const double* pixel = x.data.data() + (h * g.width + col) * g.channels;
          const double* taps = w.data.data() + (i * g.kernel_w + j) * g.channels * filters;  // [C, F]
          for (int64_t c = 0; c < g.channels; ++c) {
            for (int64_t f = 0; f < filters; ++f) out[f] += pixel[c] * taps[c * filters + f];
          }
        }
      }
    }
  }
}

void depthwise_conv(GoldenContext& context) {
  const Tensor& x = context.input("x");
  const Tensor& w = context.input("w");
  Tensor& y = context.output("y");
  const ConvGeometry g = conv_geometry(context, x, w, y);
  context.require(w.shape.size() == 3, "w must be [KH, KW, C], got " + format_shape(w.shape));
  context.require(y.shape[2] == g.channels, "y " + format_shape(y.shape) +
                                                " must have C = " + std::to_string(g.channels) + " channels");
  for (int64_t oh = 0; oh < g.out_h; ++oh) {
    for (int64_t ow = 0; ow < g.out_w; ++ow) {
      double* out = y.data.data() + (oh * g.out_w + ow) * g.channels;
      for (int64_t i = 0; i < g.kernel_h; ++i) {
        const int64_t h = g.source_row(oh, i);
        if (h < 0) continue;
        for (int64_t j = 0; j < g.kernel_w; ++j) {
          const int64_t col = g.source_col(ow, j);
          if (col < 0) continue;
          const double* pixel = x.data.data() + (h * g.width + col) * g.channels;
          const double* taps = w.data.data() + (i * g.kernel_w + j) * g.channels;
          for (int64_t c = 0; c < g.channels; ++c) out[c] += pixel[c] * taps[c];
        }
      }
    }
  }
}

}  // namespace kcraft::tasks::golden
