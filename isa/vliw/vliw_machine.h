// Architectural description of the vliw tile shared by its functional model and, later, its testbench:
// hardware parameters, errors, counters and the architectural state that the RTL and the model must agree
// on bit for bit and cycle for cycle. Error codes, counters and stall causes are generated from
// isa/vliw.yaml (vliw_isa.h here, vliw_isa_pkg.sv for the RTL).
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "isa/common/assembler.h"
#include "isa/common/hw_config.h"
#include "vliw_isa.h"

namespace kcraft::vliw {

// ErrorCode, Counter (kCycles, ..., kNumCounters), StallCause and their tables, generated from the YAML.
using namespace isa::vliw::machine;  // NOLINT(google-build-using-namespace): generated constants only

inline constexpr unsigned kScalarRegisters = 16;
inline constexpr unsigned kPointerRegisters = 8;
inline constexpr unsigned kVectorRegisters = 16;
inline constexpr unsigned kAccumulators = 8;
inline constexpr unsigned kLocks = 16;
inline constexpr unsigned kLockMax = 255;
inline constexpr unsigned kNoLock = 16;  // a DMA op's lock operand that releases none

struct Params {
  // build: (one RTL build per configuration)
  unsigned vlen = 16;
  unsigned imem_words = 4096;
  unsigned dm_bytes = 65536;
  unsigned dm_banks = 8;
  unsigned loop_depth = 4;
  unsigned dma_channels = 4;
  unsigned dma_queue = 4;
  unsigned dma_outstanding = 64;  // DRAM rows in flight at most (the DMA's response queue)
  // runtime: (testbench settings; they change timing, not results)
  unsigned dram_latency = 40;
  unsigned dram_bytes_per_cycle = 32;

  unsigned row_bytes() const { return 2 * vlen; }
  // The matrix-multiply shape: M = N = the largest power of two whose square is at most VLEN, K = VLEN/M.
  unsigned mmul_m() const;
  unsigned mmul_n() const { return mmul_m(); }
  unsigned mmul_k() const { return vlen / mmul_m(); }
  unsigned bank_of(uint64_t dm_address) const {
    return static_cast<unsigned>((dm_address / row_bytes()) % dm_banks);
  }

  // Validates the configuration (powers of two, sizes the instruction fields can address) and throws
  // ConfigError naming the file and field.
  static Params from_config(const HwConfig& cfg);
  // The hardware parameters the assembler predefines (every name of the YAML's `parameters:` except the
  // task's DRAM_BYTES).
  isa::SymbolTable symbols() const;
};

struct MachineError {
  ErrorCode code = ErrorCode::kNone;
  uint32_t pc = 0;  // the first word of the faulting bundle (for a DMA lock release, the DMA op's word)
  uint64_t lo = 0;  // meaning depends on the code: the word, address range [lo, hi), lock, ...
  uint64_t hi = 0;
  bool operator==(const MachineError& o) const {
    return code == o.code && pc == o.pc && lo == o.lo && hi == o.hi;
  }
  std::string describe(const Params& p) const;
};

const char* error_name(ErrorCode code);
const char* counter_name(unsigned counter);

using Counters = std::array<uint64_t, kNumCounters>;

// Everything the RTL and the functional model must agree on after a run (DRAM is compared separately).
struct MachineState {
  std::array<uint32_t, kScalarRegisters> r{};
  std::array<uint32_t, kPointerRegisters> p{};
  std::vector<uint16_t> v;  // kVectorRegisters * vlen, register-major
  std::vector<uint32_t> a;  // kAccumulators * vlen
  std::vector<uint8_t> dm;  // dm_bytes
  std::array<uint8_t, kLocks> locks{};
  bool halted = false;
  MachineError error;
  uint32_t pc = 0;  // the bundle that halted or faulted

  void resize(const Params& p);
  // The first difference, described for a hardware engineer, or nullopt when equal.
  std::optional<std::string> first_difference(const MachineState& other, const Params& p) const;
};

}  // namespace kcraft::vliw
