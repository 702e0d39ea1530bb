// Random valid programs for differential testing of the vliw RTL against its functional model.
//
// Programs fill bundles with every kind of op on a small window of data memory, so that exposed-pipeline
// hazards (reads before results land, results landing in the same bundle), bank conflicts, DMA transfers
// with locks, and hardware loops (immediate and register counts, 0 included, nested) are all frequent.
// DRAM starts with random BF16 values including zeros, infinities, NaNs and subnormal patterns. A small
// fraction of programs ends in a deliberate fault, of any of the error kinds of isa/vliw.yaml (each one a
// program can reach). Deterministic for a given seed and options; the program is assembler text too, so a
// failing case can be read and re-run.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "isa/vliw/vliw_machine.h"

namespace kcraft::vliw {

struct RandomProgramOptions {
  unsigned bundles = 120;    // random bundles in the body (set-up, loops and DMA add a few)
  double fault_rate = 0.05;  // probability that the program contains one deliberate fault
  double fault_from = 0;     // the fault comes after this fraction of the body (0..1), uniformly placed
  size_t dram_bytes = 65536;
  // The kinds a deliberate fault is drawn from, uniformly; empty: every kind of fault_kinds().
  std::vector<ErrorCode> faults;
  // Instructions (isa/vliw.yaml names) to emit more often than the default mix: a steered campaign aims
  // at instruction bins a coverage report never hit. Empty: the default mix.
  std::vector<std::string> favoured;
};

// Every error kind the generator can end a program with: all of isa/vliw.yaml's `errors:` but none.
std::vector<ErrorCode> fault_kinds();

struct RandomProgram {
  std::string source;  // assembler text, with the configuration's symbols predefined
  std::vector<uint32_t> words;
  std::vector<uint8_t> dram;
  uint64_t seed = 0;
};

// Throws std::invalid_argument for options it cannot honour (an unknown favoured instruction, the fault
// kind none), std::logic_error if the generated text does not assemble (a generator bug).
RandomProgram random_program(const Params& params, uint64_t seed, const RandomProgramOptions& options = {});

}  // namespace kcraft::vliw
