// Architectural description of the systolic NPU shared by its functional model and its testbench:
// hardware parameters, error codes, performance counters and the architectural state that the RTL and
// the functional model must agree on bit for bit. Error codes, counters and stall causes are generated
// from isa/systolic.yaml (systolic_isa.h here, systolic_isa_pkg.sv for the RTL); the RTL tests read the
// parameters and codes back through the debug port.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "isa/common/hw_config.h"
#include "systolic_isa.h"

namespace kcraft::systolic {

// ErrorCode, Counter (kCycles, ..., kNumCounters), StallCause and their tables kErrors, kCounters and
// kStallCauses, generated from the YAML.
using namespace isa::systolic::machine;  // NOLINT(google-build-using-namespace): generated constants only

struct Params {
  unsigned mlen = 16;
  unsigned vlen = 16;
  unsigned blen = 4;
  unsigned imem_words = 8192;
  unsigned vsram_rows = 8192;
  unsigned msram_rows = 2048;
  unsigned acc_rows = 512;
  unsigned fpsram_words = 256;
  unsigned loop_depth = 4;
  unsigned dma_slots = 4;
  unsigned dma_outstanding = 64;
  bool has_v_mul_vfv = false;  // the optional fused multiply V_MUL_VFV (build parameter HAS_V_MUL_VFV)

  unsigned row_bytes() const { return 2 * vlen; }
  // Validates the combination (powers of two, VLEN == MLEN, sizes that fit the instruction fields) and
  // throws ConfigError naming the file and field.
  static Params from_config(const HwConfig& cfg);
};

// The error's name as the tools print it ("vsram_out_of_range"); "unknown" for other values.
const char* error_name(ErrorCode code);

struct MachineError {
  ErrorCode code = ErrorCode::kNone;
  uint32_t pc = 0;
  uint64_t lo = 0;  // meaning depends on the code: offending row/address range [lo, hi), word, ...
  uint64_t hi = 0;
  bool operator==(const MachineError& o) const {
    return code == o.code && pc == o.pc && lo == o.lo && hi == o.hi;
  }
  // A detailed message with the offending values (every generated ErrorCode has its own).
  std::string describe(const Params& p) const;
};

// The counter's name as `kcraft eval` prints it; "unknown" for other values.
const char* counter_name(unsigned counter);
// Counters that do not depend on timing; the functional model computes these too.
bool counter_is_architectural(unsigned counter);

using Counters = std::array<uint64_t, kNumCounters>;

// Everything the RTL and the functional model must agree on after a run (DRAM is compared separately).
struct MachineState {
  std::array<uint32_t, 16> x{};
  std::array<uint32_t, 16> f{};
  std::vector<uint16_t> vsram;    // vsram_rows * vlen, row-major
  std::vector<uint16_t> msram;    // msram_rows * mlen
  std::vector<uint32_t> acc;      // acc_rows * mlen
  std::vector<uint32_t> fpsram;   // fpsram_words
  std::vector<uint16_t> weights;  // mlen * mlen, W[k][n] at k * mlen + n
  bool halted = false;
  MachineError error;
  uint32_t pc = 0;  // the instruction that halted or faulted

  void resize(const Params& p);
  // The first difference, described for a hardware engineer, or nullopt when equal.
  std::optional<std::string> first_difference(const MachineState& other, const Params& p) const;
};

}  // namespace kcraft::systolic
