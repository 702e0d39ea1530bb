// Random valid programs for differential testing of the systolic RTL against its functional model.
//
// Programs mix every instruction class on a small window of SRAM rows so that hazards (RAW/WAR/WAW on
// VSRAM, MSRAM, accumulators and FP registers) are frequent, use hardware loops, and start from DRAM
// holding random BF16 values including zeros, infinities, NaNs and subnormal patterns. A small fraction
// of programs ends in a deliberate fault (illegal word, out-of-range access) so error reporting is
// compared too. Deterministic for a given seed.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "isa/systolic/systolic_machine.h"

namespace kcraft::systolic {

struct RandomProgramOptions {
  unsigned length = 160;     // instructions in the body (loops add a few)
  unsigned row_window = 64;  // VSRAM/MSRAM/ACC rows the program touches (power of two)
  double fault_rate = 0.05;  // probability that the program contains one deliberate fault
};

struct RandomProgram {
  std::vector<uint32_t> words;
  std::vector<uint8_t> dram;
  uint64_t seed = 0;
};

RandomProgram random_program(const Params& params, uint64_t seed, const RandomProgramOptions& options = {});

}  // namespace kcraft::systolic
