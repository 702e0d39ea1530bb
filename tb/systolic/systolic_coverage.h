// The systolic NPU's coverage model for `kcraft coverage systolic` (tb/common/coverage.h).
//
// Bins: every instruction, error code and stall cause of isa/systolic.yaml; the FP class (zero, subnormal,
// normal, inf, nan) of every FP register an instruction reads; and the row forms of each DMA instruction
// (one row, dense rows, strided rows). Instructions, operand classes and errors come from the functional
// model (bit-exact with the RTL on all three, `kcraft validate`); stall causes from the RTL's counters, in
// stalled cycles.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "isa/systolic/random_program.h"
#include "isa/systolic/systolic_machine.h"
#include "tb/common/coverage.h"
#include "tb/common/dram_model.h"

namespace kcraft::systolic {

// Every bin of the model, none hit.
tb::Coverage systolic_coverage_bins();

// Runs one program on the functional model and on the RTL of `hw` and counts its hits under `source`.
void record_systolic_coverage(const std::string& hw, const std::vector<uint32_t>& words,
                              const std::vector<uint8_t>& dram, const tb::DramTiming& timing,
                              tb::CoverageSource source, tb::Coverage& coverage);

// The random generator's options for `length` instructions, steered toward `focus` (validate --steer): unhit
// error bins make half the programs end in a deliberate fault (instead of one in twenty), of those kinds
// only, in the last quarter of the body. The other groups have no knob (unsteered campaigns hit them).
// Without error bins: the unsteered options. Throws std::invalid_argument for an error systolic does not
// have.
RandomProgramOptions steered_random_options(unsigned length, const std::vector<CoverageBinName>& focus);

}  // namespace kcraft::systolic
