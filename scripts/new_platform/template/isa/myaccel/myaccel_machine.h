// What the myaccel functional model and the testbench share: the hardware parameters, errors, counters and
// the architectural state the RTL and the model must agree on bit for bit and cycle for cycle. Error codes,
// counters and stall causes are generated from isa/myaccel.yaml (myaccel_isa.h here, myaccel_isa_pkg.sv for
// the RTL).
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "isa/common/assembler.h"
#include "isa/common/hw_config.h"
#include "myaccel_isa.h"

namespace kcraft::myaccel {

// ErrorCode, Counter (kCycles, ..., kNumCounters), StallCause and their tables, generated from the YAML.
using namespace isa::myaccel::machine;  // NOLINT(google-build-using-namespace): generated constants only

inline constexpr unsigned kScalarRegisters = 16;
inline constexpr unsigned kVectorRegisters = 16;

struct Params {
  // build: (one RTL build per configuration)
  unsigned lanes = 8;
  unsigned imem_words = 1024;
  // runtime: (testbench settings; they change timing, not results)
  unsigned dram_latency = 20;
  unsigned dram_bytes_per_cycle = 32;

  unsigned row_bytes() const { return 4 * lanes; }
  // Cycles a VLD, VST or VBC takes, issue to finish (isa/myaccel.yaml, "DRAM accesses").
  unsigned memory_cycles() const {
    return 2 + dram_latency + (row_bytes() + dram_bytes_per_cycle - 1) / dram_bytes_per_cycle;
  }

  // Validates the configuration and throws ConfigError naming the file and field.
  static Params from_config(const HwConfig& cfg);
  // The hardware parameters the assembler predefines (every name of the YAML's `parameters:`).
  isa::SymbolTable symbols() const;
};

struct MachineError {
  ErrorCode code = ErrorCode::kNone;
  uint32_t pc = 0;
  uint64_t lo = 0;  // the word (illegal_instruction), the address, or the byte range [lo, hi)
  uint64_t hi = 0;
  bool operator==(const MachineError& o) const {
    return code == o.code && pc == o.pc && lo == o.lo && hi == o.hi;
  }
  std::string describe() const;
};

const char* error_name(ErrorCode code);
const char* counter_name(unsigned counter);

using Counters = std::array<uint64_t, kNumCounters>;

// Everything the RTL and the functional model must agree on after a run (DRAM is compared separately).
struct MachineState {
  std::array<uint32_t, kScalarRegisters> x{};
  std::vector<uint32_t> v;  // kVectorRegisters * lanes FP32 bit patterns, register-major
  bool halted = false;      // stopped by HALT (not by an error)
  MachineError error;
  uint32_t pc = 0;  // the instruction that halted or faulted

  void resize(const Params& p) { v.assign(size_t{kVectorRegisters} * p.lanes, 0); }
  // The first difference ("v3 lane 2: 0x... vs 0x..."), or nullopt when equal.
  std::optional<std::string> first_difference(const MachineState& other, const Params& p) const;
};

}  // namespace kcraft::myaccel
