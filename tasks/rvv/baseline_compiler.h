// The rvv platform's task side: its DRAM layout and its baseline compiler (tasks/common/baseline_compiler.h).
//
// Kernels are C. The template (the baseline agents are measured against, and the tuner's starting point) is
// hand-vectorised with RVV intrinsics (<riscv_vector.h>): strip-mined loops over vsetvl, reductions, and
// knobs for `lmul` (register grouping) and, for the matrix products, `unroll` (output rows or features per
// pass, i.e. accumulator registers). The level-3 tasks are the composition of the L1/L2 pieces
// (tasks/rvv/composite.h) with their matrix products and convolution vectorised, no knobs.
//
// The compiler baseline (compiler_baseline(), "clang -O2") is the task's plain scalar C reference —
// straightforward loops, as a user of the toolchain writes them from the task's description — compiled with
// clang -O2 and its loop vectorizer (isa/rvv/toolchain.h): what a user gets for free, and KernelCraft's
// "RVV -O2" reference. For the level-3 tasks it is the composition of the scalar references.
//
// Kernels use the symbols header (tasks/rvv/symbols.h): ADDR_<TENSOR>, the dimensions, PARAM_<NAME>; the
// intrinsics templates strip-mine with vsetvl, so they are correct for any VLEN and any dimension.
// Functions without a libm (expf, sqrtf) come from kcraft_math.h, pasted into the kernels that use them
// (tasks/rvv/kernel_math.h).
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "tasks/common/baseline_compiler.h"
#include "tasks/common/layout.h"
#include "tasks/common/task_spec.h"

namespace kcraft::rvv {

// Regions start on 64-byte boundaries: a whole vector register group row at VLEN <= 512 (LMUL 1), and the
// other platforms' alignment. Kernels need only 4 bytes (FP32 elements). A task whose spec has
// scratch_bytes gets its DRAM scratch region as on the other platforms; of the baselines only ffn, swiglu and
// the level-3 composites (tasks/rvv/composite.h) use it, the others keep temporaries on the stack.
inline constexpr uint64_t kLayoutAlignment = 64;

// The language of every generated kernel: the platform's C (tb/rvv/rvv_platform.cpp names it the same).
inline constexpr const char* kKernelLanguage = "c";

// The rvv DRAM layout of a task configuration: FP32 tensors (cfg.dtype must be fp32; throws
// std::invalid_argument otherwise), inputs then outputs, tasks::compute_layout order.
tasks::DramLayout task_layout(const tasks::ResolvedConfig& cfg);

class BaselineCompiler : public tasks::BaselineCompiler {
 public:
  // vlen: the core's VLEN in bits (a power of two in [128, 1024]); it appears only in the summary (the
  // kernels ask vsetvl), but a configuration's knob values stay meaningful per hardware configuration.
  // dcache_bytes: the data cache's size, which sets the matrix products' default k_block.
  explicit BaselineCompiler(int vlen = 128, int64_t dcache_bytes = 32768);

  std::vector<std::string> supported_tasks() const override;
  std::string unsupported_reason(const tasks::ResolvedConfig& cfg) const override;
  std::vector<tasks::Knob> knobs(const tasks::ResolvedConfig& cfg) const override;
  using tasks::BaselineCompiler::generate;
  tasks::GeneratedKernel generate(const tasks::ResolvedConfig& cfg, const tasks::DramLayout& layout,
                                  const tasks::KnobValues& knobs) const override;
  std::string compiler_baseline_name() const override;
  tasks::GeneratedKernel compiler_baseline(const tasks::ResolvedConfig& cfg,
                                           const tasks::DramLayout& layout) const override;

 private:
  // Throws std::invalid_argument when cfg is unsupported or the layout is another configuration's.
  void check_generate_args(const tasks::ResolvedConfig& cfg, const tasks::DramLayout& layout) const;
  // The largest k_block whose rows of B fit the data cache; 0 when all of K fits.
  int64_t default_k_block(const tasks::ResolvedConfig& cfg) const;
  int vlen_;
  int64_t dcache_bytes_;
};

// What Platform::baseline_compiler hands out. Throws std::invalid_argument for a bad VLEN.
std::unique_ptr<tasks::BaselineCompiler> make_baseline_compiler(int vlen = 128, int64_t dcache_bytes = 32768);

}  // namespace kcraft::rvv
