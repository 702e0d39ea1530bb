// Random programs for `kcraft validate myaccel`: the RTL and the functional model run each one and must
// agree on every register, DRAM byte, error and counter, cycle for cycle (tb/myaccel/myaccel_campaigns.cpp).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "isa/myaccel/myaccel_machine.h"

namespace kcraft::myaccel {

struct RandomProgram {
  std::string source;  // assembly text
  std::vector<uint32_t> words;
  std::vector<uint8_t> dram;  // the initial DRAM image (random bytes: FP32 values of every kind)
};

// `length` instructions or so: every instruction, FP32 operands from DRAM and from VSPLAT, short counted
// loops, forward branches, and in about one program in eight a deliberate fault (a misaligned or
// out-of-range address, an illegal word). Always terminates.
RandomProgram random_program(const Params& p, uint64_t seed, unsigned length);

}  // namespace kcraft::myaccel
