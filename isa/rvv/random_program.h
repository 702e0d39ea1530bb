// Random RV32IMF + Zicsr + Zve32f programs for the differential campaign of `kcraft validate rvv`: each
// program is a kernel in assembly (the toolchain builds it with crt0) and a DRAM image; the RTL and QEMU
// run it and must end in the same state (crt0's signature, DRAM).
//
// A program loads random and special integer values into the registers and special FP values (zeros,
// infinities, quiet and signalling NaNs, subnormals, the extremes, ordinary numbers) into f0..f31, then runs
// `length` random instructions: integer ALU, M (division by zero and overflow included), loads and stores
// of every width to DRAM and the DTCM, forward branches, FP arithmetic, fused ops, conversions, compares
// and moves with every static rounding mode and the dynamic one under changing frm, CSR accesses and, with
// `vector`, vsetvli with every SEW (8, 16, 32) and LMUL (mf4..m8) the core supports and random AVL, and
// vector integer, FP32, mask, reduction, permutation and memory instructions, masked (v0.t) and not. The
// epilogue makes everything comparable: the vector registers and the DTCM buffer are stored to DRAM, vl
// and vtype copied to integer registers. No instruction reads a counter CSR and no branch goes backwards,
// so every program ends.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace kcraft::rvv {

struct RandomProgramOptions {
  unsigned length = 160;  // random instructions
  bool vector = true;     // include vector instructions
  unsigned vlen = 128;    // the core's VLEN (bounds the vector register dump)
  // Steering (`--steer`; the defaults leave every program as it was).
  // Rounding modes (0 rne .. 4 rmm) to favour: three quarters of the rm operands (a third of those dyn) and
  // of the frm writes take one of them.
  std::vector<unsigned> rounding_modes;
  // Percent of F instructions before which a source register is reloaded with a special value (signed
  // zeros, infinities, quiet and signalling NaNs, subnormals).
  unsigned special_reload_percent = 0;
};

struct RandomProgram {
  std::string source;         // the kernel, assembly for the C preprocessor (a .S file)
  std::vector<uint8_t> dram;  // the DRAM image (kRandomProgramDramBytes)
};

inline constexpr uint32_t kRandomProgramDramBytes = 16384;

// Deterministic in (seed, options).
RandomProgram random_program(uint64_t seed, const RandomProgramOptions& options = {});

}  // namespace kcraft::rvv
