// Random valid programs for differential testing of the systolic RTL against its functional model.
//
// Programs mix every instruction class on a small window of SRAM rows so that hazards (RAW/WAR/WAW on
// VSRAM, MSRAM, accumulators and FP registers) are frequent, use hardware loops, and start from DRAM
// holding random BF16 values including zeros, infinities, NaNs and subnormal patterns. A small fraction
// of programs ends in a deliberate fault so error reporting is compared too: by default one of the
// original mix (an illegal word, a VSRAM, accumulator or DRAM range, a misaligned DRAM address); asked for
// (`faults`), any of the error kinds of isa/systolic.yaml. Deterministic for a given seed and options.
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
  double fault_from = 0;     // the fault comes after this fraction of the body (0..1), uniformly placed
  // The kinds a deliberate fault is drawn from, uniformly, each in one of several forms (fault_kinds():
  // all of them). Empty: the original mix, which keeps every seed's program what it was before the
  // generator knew the other kinds (existing campaigns, reports and tests stay reproducible).
  std::vector<ErrorCode> faults;
};

// Every error kind the generator can end a program with: all of isa/systolic.yaml's `errors:` but none.
std::vector<ErrorCode> fault_kinds();

struct RandomProgram {
  std::vector<uint32_t> words;
  std::vector<uint8_t> dram;
  uint64_t seed = 0;
};

// Throws std::invalid_argument for a fault kind that is no error (none, or a code isa/systolic.yaml lacks).
RandomProgram random_program(const Params& params, uint64_t seed, const RandomProgramOptions& options = {});

}  // namespace kcraft::systolic
