#include "tasks/myaccel/baseline_compiler.h"

#include <stdexcept>

#include <fmt/format.h>

namespace kcraft::myaccel {

namespace {

// LI's immediate: 20 bits, signed.
constexpr uint64_t kLiLimit = uint64_t{1} << 19;

// relu: per row of LANES elements a VLD, a VMAX with a zero vector and a VST.
std::string relu_kernel() {
  return R"(; relu: y = max(x, 0), one row of LANES FP32 elements per iteration.
        LI     x1, ADDR_X
        LI     x2, ADDR_Y
        LI     x3, M * N / LANES    ; rows
        VSPLAT v0, x0               ; v0 = +0.0
row:
        VLD    v1, x1
        VMAX   v1, v1, v0
        VST    v1, x2
        ADDI   x1, x1, ROW_BYTES
        ADDI   x2, x2, ROW_BYTES
        ADDI   x3, x3, -1
        BNZ    x3, row
        HALT
)";
}

// gemm: C[m, n0 .. n0+LANES) = sum over k of A[m, k] * B[k, n0 .. n0+LANES), k in order.
std::string gemm_kernel() {
  return R"(; gemm: C = A B; per row m of C and block of LANES columns, K broadcasts of A times rows of B.
        LI     x1, ADDR_A           ; A[m, 0]
        LI     x3, ADDR_C           ; C[m, n0]
        LI     x6, M
m_loop:
        LI     x8, ADDR_B           ; B[0, n0]
        LI     x5, N / LANES
n_loop:
        VSPLAT v0, x0               ; the accumulator
        MV     x9, x1               ; A[m, k]
        MV     x2, x8               ; B[k, n0]
        LI     x4, K
k_loop:
        VBC    v1, x9
        VLD    v2, x2
        VMUL   v3, v1, v2
        VADD   v0, v0, v3
        ADDI   x9, x9, 4
        ADDI   x2, x2, 4 * N
        ADDI   x4, x4, -1
        BNZ    x4, k_loop
        VST    v0, x3
        ADDI   x3, x3, ROW_BYTES
        ADDI   x8, x8, ROW_BYTES
        ADDI   x5, x5, -1
        BNZ    x5, n_loop
        ADDI   x1, x1, 4 * K
        ADDI   x6, x6, -1
        BNZ    x6, m_loop
        HALT
)";
}

}  // namespace

std::string BaselineCompiler::unsupported_reason(const tasks::ResolvedConfig& cfg) const {
  if (!supports(cfg.task)) return fmt::format("the myaccel baseline compiler has no kernel for {}", cfg.task);
  const int64_t n = cfg.dim("N");
  if (n % p_.lanes != 0) {
    return fmt::format("N = {} is not a multiple of LANES = {} (the kernels move whole rows)", n, p_.lanes);
  }
  if (cfg.task == "gemm" && 4 * n > 32767)
    return fmt::format("4*N = {} does not fit ADDI's immediate", 4 * n);
  uint64_t bytes = 0;
  for (const auto& t : cfg.inputs) bytes += 4 * static_cast<uint64_t>(t.elements) + 64;
  for (const auto& t : cfg.outputs) bytes += 4 * static_cast<uint64_t>(t.elements) + 64;
  if (bytes >= kLiLimit)
    return fmt::format("the tensors ({} bytes) reach past LI's range (2^19 bytes)", bytes);
  return "";
}

std::vector<tasks::Knob> BaselineCompiler::knobs(const tasks::ResolvedConfig& cfg) const {
  if (!supports(cfg.task)) throw std::invalid_argument("myaccel: no baseline kernel for " + cfg.task);
  return {};
}

tasks::GeneratedKernel BaselineCompiler::generate(const tasks::ResolvedConfig& cfg, const tasks::DramLayout&,
                                                  const tasks::KnobValues&) const {
  if (const std::string why = unsupported_reason(cfg); !why.empty()) throw std::invalid_argument(why);
  tasks::GeneratedKernel k;
  if (cfg.task == "relu") {
    k.source = relu_kernel();
    k.summary = "one row of LANES elements per iteration: VLD, VMAX with zero, VST";
  } else {
    k.source = gemm_kernel();
    k.summary = "per row of C and block of LANES columns: K times VBC of A, VLD of B, VMUL, VADD; one VST";
  }
  return k;
}

}  // namespace kcraft::myaccel
