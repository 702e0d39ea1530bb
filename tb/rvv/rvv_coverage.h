// The rvv core's coverage model for `kcraft coverage rvv` (tb/common/coverage.h).
//
// The functional model of rvv is QEMU, which reports no per-instruction events, so every bin comes from the
// RTL: the instruction trace of the retired instructions (decoded by objdump with no aliases, so "li" counts
// as the ADDI it is) and the core's stall counters. Bins: every instruction of isa/rvv/rvv_isa.yaml; the
// vector operand forms SEW x LMUL x masked (the vtype of the last vsetvli/vsetivli before a vector
// instruction; the combinations Zve32f allows, SEW <= LMUL * ELEN); and the stall causes.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "isa/rvv/toolchain.h"
#include "tb/common/coverage.h"
#include "tb/common/dram_model.h"

namespace kcraft::rvv {

// Every bin of the model, none hit.
tb::Coverage rvv_coverage_bins();

// What a run retired that the table has no entry for (a table gap, shown in the report's notes).
struct RvvCoverageExtras {
  std::map<std::string, uint64_t> unlisted;      // lower-case mnemonic -> retired count
  uint64_t vector_insns_with_unknown_vtype = 0;  // after a register-form vsetvl
};

// Runs a built kernel on the RTL of `hw` against `dram` and counts its hits under `source`.
void record_rvv_coverage(const std::string& hw, const BuiltKernel& kernel, const std::vector<uint8_t>& dram,
                         const tb::DramTiming& timing, tb::CoverageSource source, tb::Coverage& coverage,
                         RvvCoverageExtras& extras);

}  // namespace kcraft::rvv
