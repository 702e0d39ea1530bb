// The plain C functions rvv's scalar references are made of: rms_norm over rows, nn.Linear, ReLU, RoPE, one
// attention head and the grouped heads around it, SwiGLU, the NHWC convolution, and the element-wise glue
// of the level-3 blocks (a residual add, a per-channel scale and shift). Each takes its source and
// destination addresses and its sizes as arguments, so the level-1/2 baselines call them once on their
// task's tensors (clang inlines the one call and folds the constant sizes) and the level-3 composites
// (tasks/rvv/composite.h) call the same functions in sequence on DRAM scratch buffers.
//
// Parameter names are lower case: the symbols header defines the task's dimensions (S, D, N, ...) as
// upper-case macros.
#pragma once

#include <map>
#include <string>
#include <vector>

namespace kcraft::rvv::scalar {

// The C text of the named pieces and of the pieces they call, each once, callees first. Names:
// rms_norm_rows, linear_rows, relu_elements, add_elements, scale_shift_channels, rope_heads,
// attention_head (with its attention_geometry struct), gqa_heads, swiglu_rows, conv2d_nhwc.
// Throws std::invalid_argument for an unknown name.
// `replacements` gives some pieces another text with the same signature (the vectorised pieces,
// tasks/rvv/vector_kernels.h), emitted where the piece would be.
std::string pieces_source(const std::vector<std::string>& names,
                          const std::map<std::string, std::string>& replacements = {});

// Whether any of the pieces (or their callees) calls kcraft_math.h (kc_expf, kc_sqrtf): the kernel must
// paste the header before them.
bool pieces_need_math(const std::vector<std::string>& names);

// The attention_geometry struct that attention_head takes, as C text (a replacement of attention_head
// starts with it).
const char* attention_geometry_source();

}  // namespace kcraft::rvv::scalar
