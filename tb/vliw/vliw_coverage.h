// The vliw tile's coverage model for `kcraft coverage vliw` (tb/common/coverage.h).
//
// Bins: every instruction, error code and stall cause of isa/vliw.yaml; the slot each load/store op
// issued in (ls0, ls1); bundle widths (1 .. 5 ops); the FP classes of the vector (BF16) and accumulator
// (FP32) lanes each op reads; and the exposed-pipeline hazards per register class (a read before an earlier
// op's result landed, which sees the old value; a read in the very bundle the result lands). All of them
// come from the functional model, which is cycle-exact (`kcraft validate vliw` compares it with the RTL
// cycle for cycle, stall counters included).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "isa/vliw/random_program.h"
#include "isa/vliw/vliw_machine.h"
#include "tb/common/coverage.h"

namespace kcraft::vliw {

// Every bin of the model, none hit.
tb::Coverage vliw_coverage_bins();

// Runs one program on the functional model with `params` and counts its hits under `source`.
void record_vliw_coverage(const Params& params, const std::vector<uint32_t>& words,
                          const std::vector<uint8_t>& dram, tb::CoverageSource source,
                          tb::Coverage& coverage);

// The random generator's options for `bundles` bundles, steered toward `focus` (validate --steer): unhit
// error bins make half the programs end in a deliberate fault (instead of one in twenty), of those kinds
// only, in the last quarter of the body; unhit instruction, ls-slot and lane-class bins make their
// instructions favoured (drawn for half of their slot's ops; control ops: their construct is several times as
// frequent). Other groups have no knob. Throws std::invalid_argument for an error or instruction vliw does
// not have.
RandomProgramOptions steered_random_options(unsigned bundles, const std::vector<CoverageBinName>& focus);

}  // namespace kcraft::vliw
