// The rvv core's coverage model for `kcraft coverage rvv` (tb/common/coverage.h).
//
// The functional model of rvv is QEMU, which reports no per-instruction events, so every bin comes from the
// RTL: the instruction trace of the retired instructions (decoded by objdump with no aliases, so "li" counts
// as the ADDI it is) and the core's stall counters. Bins: every instruction of isa/rvv/rvv_isa.yaml; the
// vector operand forms SEW x LMUL x masked (the vtype of the last vsetvli/vsetivli before a vector
// instruction; the combinations Zve32f allows, SEW <= LMUL * ELEN); the stall causes; and IEEE 754 FP32:
// per FP instruction group the rounding mode each instruction ran under (static rm field, or dyn with the
// frm value read through the back door), the class of every scalar F source operand (the f register read
// through the back door on the retirement cycle, before the retiring write), and the exception flags an
// instruction raised (rvv_top's retire_fflags_o / vector_fflags_o, in the trace word: fcsr.fflags is sticky
// and would hide a flag raised again).
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "isa/rvv/random_program.h"
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
  // Events the FP bins have no bin for (a decoding gap; the notes show them): flags raised by an
  // instruction outside the flag groups, F operand reads of a row without operand-class bins.
  std::map<std::string, uint64_t> unbinned_fp;  // "<mnemonic> <what>" -> count
};

// The random generator's options for `kcraft coverage rvv` and `kcraft validate rvv` with --steer: unhit
// rounding-mode bins make three quarters of the rounding modes (static and frm) come from their modes;
// unhit FP operand class or exception flag bins reload a source register with a special value before 30%
// of the F instructions. No focus: the unsteered generator, program for program.
RandomProgramOptions steered_random_options(unsigned length, unsigned vlen,
                                            const std::vector<CoverageBinName>& focus);

// Runs a built kernel on the RTL of `hw` against `dram` and counts its hits under `source`.
void record_rvv_coverage(const std::string& hw, const BuiltKernel& kernel, const std::vector<uint8_t>& dram,
                         const tb::DramTiming& timing, tb::CoverageSource source, tb::Coverage& coverage,
                         RvvCoverageExtras& extras);

}  // namespace kcraft::rvv
