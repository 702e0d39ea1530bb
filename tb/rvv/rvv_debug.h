// `kcraft debug rvv` (tb/rvv/rvv_debug.cpp): the parts tests reach directly.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace kcraft::rvv {

// The integer and FP registers at one instruction of a trace.
struct RegisterStep {
  uint32_t pc = 0;     // QEMU: the instruction about to run; RTL: the instruction that retired
  uint64_t cycle = 0;  // RTL: the retiring cycle
  std::array<uint32_t, 32> x{};
  std::array<uint32_t, 32> f{};  // raw bits (QEMU's NaN-boxed values cut to their low half)
};

// QEMU's `-d cpu,fpu` log (riscv32, 7.2): one step per " pc ..." dump, the registers before that
// instruction. Lines it does not know are skipped.
std::vector<RegisterStep> parse_qemu_cpu_log(const std::string& log);

}  // namespace kcraft::rvv
