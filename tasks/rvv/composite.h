// The composition layer of rvv's baseline compiler: the level-3 tasks (conv_block, decoder_block_llama,
// decoder_block_t5) as the level-1/2 scalar C references (tasks/rvv/scalar_pieces.h, the very functions the
// L1/L2 baselines call) run in sequence, each reading and writing DRAM: the block's inputs and output, and
// its intermediates in the task's scratch region (ADDR_SCRATCH). Only the scores of one query row live on
// chip (the stack, as in the L2 attention baselines).
//
// The kernel is an explicit sequence of phases (the spec's `phases:`, in order). Each starts with a store
// to the layout's `phase_<name>` region when the layout has one, which the DRAM model takes as "phase
// <name> starts now" to attribute cycles per phase; without such a region the phase is a comment only.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "tasks/common/layout.h"
#include "tasks/common/task_spec.h"

namespace kcraft::rvv::composite {

// conv_block, decoder_block_llama, decoder_block_t5.
const std::vector<std::string>& tasks();
bool is_composite(const std::string& task);

// The phases a task's kernel marks, in order. Throws std::invalid_argument for a task not in tasks().
const std::vector<std::string>& phases(const std::string& task);

// Empty when the composite kernel can be built for cfg (a composite task); otherwise why not: a tensor
// the kernel names is missing, the intermediates need more scratch than the spec sizes, T5's bias table
// is not num_buckets wide, conv_block's residual on a shape change.
std::string unsupported_reason(const tasks::ResolvedConfig& cfg);

// The kernel's C source (kcraft_math.h pasted in where needed). Throws std::invalid_argument when
// unsupported_reason is not empty.
// lmul > 0: the matrix products, attention and the convolution (linear_rows, swiglu_rows, attention_head,
// conv2d_nhwc) vectorised with RVV intrinsics at that LMUL (tasks/rvv/vector_kernels.h), the rest as in the
// scalar composite; the products take their input rows in blocks of at most block_bytes (half the data
// cache).
std::string kernel_source(const tasks::ResolvedConfig& cfg, const tasks::DramLayout& layout, int lmul = 0,
                          int64_t block_bytes = 16384);

// One intermediate in the scratch region: the kernel's C name, its place (bytes from ADDR_SCRATCH), its
// shape in the task's dimensions and what it holds. Buffers do not overlap.
struct ScratchBuffer {
  std::string name;
  uint64_t offset = 0;
  uint64_t bytes = 0;
  std::string shape;  // e.g. "[S, HEADS*DH]"
  std::string what;
};

// The kernel's scratch allocation for cfg (a composite task), in address order. Throws
// std::invalid_argument for a task not in tasks().
std::vector<ScratchBuffer> scratch_buffers(const tasks::ResolvedConfig& cfg);

}  // namespace kcraft::rvv::composite
