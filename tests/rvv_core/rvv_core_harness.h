// Shared by the rvv core's tests: build an assembly kernel with the project's toolchain, run it on the
// RTL (bare, tb::DramModel) and under QEMU (the reference), and compare the end-state signature and DRAM.
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "isa/rvv/qemu_runner.h"
#include "isa/rvv/toolchain.h"
#include "tb/common/dram_model.h"
#include "tb/rvv/rvv_hw.h"

namespace kcraft::rvv::test {

// One Verilated configuration, made once per test binary.
RvvHw& hw(const std::string& config = "default");

// The assembly kernel `body` (the text after "kernel:"; it must end with `ret`) built for `config`'s VLEN.
BuiltKernel build_asm(const std::string& body, const std::string& config = "default");

// A DRAM image of `bytes` pseudo-random bytes.
std::vector<uint8_t> random_dram(size_t bytes, uint32_t seed);

struct Both {
  BareRun rtl;
  std::vector<uint8_t> rtl_dram;
  RunResult qemu;
};

// Runs the kernel on the RTL and under QEMU with the same DRAM image.
Both run_both(const BuiltKernel& kernel, const std::vector<uint8_t>& dram,
              const std::string& config = "default", uint64_t max_cycles = 2'000'000);

// Both ended normally and agree on the signature (x1..x31, f0..f31, fcsr, vl, vtype, vstart, vlenb) and DRAM.
void expect_same_end_state(const Both& b);

// Builds and runs `body` on both, and compares (the common case).
Both check_against_qemu(const std::string& body, const std::vector<uint8_t>& dram,
                        const std::string& config = "default");

// The RTL alone (QEMU not run): the kernel's run.
BareRun run_rtl(const BuiltKernel& kernel, const std::vector<uint8_t>& dram,
                const std::string& config = "default", uint64_t max_cycles = 2'000'000,
                std::vector<uint8_t>* dram_out = nullptr);

// The address of `symbol` in the built kernel's ELF symbol table (from the disassembly's labels).
uint32_t symbol_address(const BuiltKernel& kernel, const std::string& symbol);

}  // namespace kcraft::rvv::test
