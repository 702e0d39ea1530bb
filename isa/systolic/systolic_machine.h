// Architectural description of the systolic NPU shared by its functional model and its testbench:
// hardware parameters, error codes, performance counters and the architectural state that the RTL and
// the functional model must agree on bit for bit. Mirrors rtl/systolic/systolic_pkg.sv; the RTL tests
// read the parameters and codes back through the debug port.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "isa/common/hw_config.h"

namespace kcraft::systolic {

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

  unsigned row_bytes() const { return 2 * vlen; }
  // Validates the combination (powers of two, VLEN == MLEN, sizes that fit the instruction fields) and
  // throws ConfigError naming the file and field.
  static Params from_config(const HwConfig& cfg);
};

enum class ErrorCode : uint8_t {
  kNone = 0,
  kIllegalInsn = 1,
  kPcRange = 2,
  kLoopNest = 3,
  kLoopOverflow = 4,
  kVsramRange = 5,
  kMsramRange = 6,
  kAccRange = 7,
  kFpsramRange = 8,
  kDramAlign = 9,
  kDramRange = 10,
};
const char* error_name(ErrorCode code);

struct MachineError {
  ErrorCode code = ErrorCode::kNone;
  uint32_t pc = 0;
  uint64_t lo = 0;  // meaning depends on the code: offending row/address range [lo, hi), word, ...
  uint64_t hi = 0;
  bool operator==(const MachineError& o) const {
    return code == o.code && pc == o.pc && lo == o.lo && hi == o.hi;
  }
  std::string describe(const Params& p) const;
};

enum Counter : unsigned {
  kCycles = 0,
  kInstructions = 1,
  kStallDependency = 2,
  kStallFpPending = 3,
  kStallUnitBusy = 4,
  kSfuBusy = 5,
  kStallDrain = 6,
  kVectorBusy = 7,
  kMatrixBusy = 8,
  kDmaBusy = 9,
  kDramBytesRead = 10,
  kDramBytesWritten = 11,
  kMacs = 12,
  kVectorElements = 13,
  kInstrControl = 14,
  kInstrScalar = 15,
  kInstrVector = 16,
  kInstrMatrix = 17,
  kInstrDma = 18,
  kArrayActive = 19,
  kNumCounters = 20,
};
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
