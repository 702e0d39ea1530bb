#include "isa/myaccel/myaccel_machine.h"

#include <fmt/format.h>

namespace kcraft::myaccel {

namespace {

unsigned build_param(const HwConfig& cfg, const char* key, int64_t lo, int64_t hi) {
  const int64_t v = cfg.build_param(key);
  const bool pow2 = v > 0 && (v & (v - 1)) == 0;
  if (v < lo || v > hi || !pow2) {
    throw ConfigError(fmt::format("{}: build.{}: {} is not a power of two in [{}, {}]", cfg.source.string(),
                                  key, v, lo, hi));
  }
  return static_cast<unsigned>(v);
}

unsigned runtime_param(const HwConfig& cfg, const char* key, double fallback, double lo, double hi) {
  const double v = cfg.runtime_param(key, fallback);
  if (v < lo || v > hi || v != static_cast<double>(static_cast<unsigned>(v))) {
    throw ConfigError(
        fmt::format("{}: runtime.{}: {} is not an integer in [{}, {}]", cfg.source.string(), key, v, lo, hi));
  }
  return static_cast<unsigned>(v);
}

}  // namespace

Params Params::from_config(const HwConfig& cfg) {
  if (cfg.platform != "myaccel") {
    throw ConfigError(
        fmt::format("{}: platform: expected 'myaccel', got '{}'", cfg.source.string(), cfg.platform));
  }
  Params p;
  p.lanes = build_param(cfg, "LANES", 1, 64);
  p.imem_words = build_param(cfg, "IMEM_WORDS", 16, 65536);  // BNZ's target is a 16-bit field
  p.dram_latency = runtime_param(cfg, "dram_latency_cycles", 20, 1, 100000);
  p.dram_bytes_per_cycle = runtime_param(cfg, "dram_bytes_per_cycle", 32, 1, 1 << 20);
  return p;
}

isa::SymbolTable Params::symbols() const {
  return {{"LANES", lanes},
          {"IMEM_WORDS", imem_words},
          {"ROW_BYTES", row_bytes()},
          {"DRAM_LATENCY", dram_latency},
          {"DRAM_BYTES_PER_CYCLE", dram_bytes_per_cycle}};
}

const char* error_name(ErrorCode code) {
  const ErrorInfo* info = find_error(static_cast<unsigned>(code));
  return info != nullptr ? info->name : "unknown";
}

const char* counter_name(unsigned counter) {
  return counter < kNumCounters ? kCounters[counter].name : "unknown";
}

std::string MachineError::describe() const {
  switch (code) {
    case ErrorCode::kNone:
      return "no error";
    case ErrorCode::kIllegalInsn:
      return fmt::format("illegal instruction word 0x{:08x} (unknown opcode or reserved bits set)", lo);
    case ErrorCode::kDramAlign:
      return fmt::format("DRAM address 0x{:x} is not a multiple of 4", lo);
    case ErrorCode::kDramRange:
      return fmt::format("DRAM bytes [0x{:x}, 0x{:x}) are beyond the end of DRAM", lo, hi);
  }
  return "unknown error";
}

std::optional<std::string> MachineState::first_difference(const MachineState& o, const Params& p) const {
  for (unsigned i = 0; i < kScalarRegisters; ++i) {
    if (x[i] != o.x[i]) return fmt::format("x{}: 0x{:08x} vs 0x{:08x}", i, x[i], o.x[i]);
  }
  for (size_t i = 0; i < v.size() && i < o.v.size(); ++i) {
    if (v[i] != o.v[i]) {
      return fmt::format("v{} lane {}: 0x{:08x} vs 0x{:08x}", i / p.lanes, i % p.lanes, v[i], o.v[i]);
    }
  }
  if (halted != o.halted) return fmt::format("halted: {} vs {}", halted, o.halted);
  if (!(error == o.error)) {
    return fmt::format("error: {} at pc {} [0x{:x}, 0x{:x}) vs {} at pc {} [0x{:x}, 0x{:x})",
                       error_name(error.code), error.pc, error.lo, error.hi, error_name(o.error.code),
                       o.error.pc, o.error.lo, o.error.hi);
  }
  if (pc != o.pc) return fmt::format("pc: {} vs {}", pc, o.pc);
  return std::nullopt;
}

}  // namespace kcraft::myaccel
