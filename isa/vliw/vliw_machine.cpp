#include "isa/vliw/vliw_machine.h"

#include <fmt/format.h>

namespace kcraft::vliw {
namespace {

bool is_pow2(int64_t v) {
  return v > 0 && (v & (v - 1)) == 0;
}

unsigned param(const HwConfig& cfg, const char* key, int64_t lo, int64_t hi, bool pow2) {
  const int64_t v = cfg.build_param(key);
  if (v < lo || v > hi || (pow2 && !is_pow2(v))) {
    throw ConfigError(fmt::format("{}: build.{}: {} is not {}in [{}, {}]", cfg.source.string(), key, v,
                                  pow2 ? "a power of two " : "", lo, hi));
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

unsigned Params::mmul_m() const {
  unsigned m = 1;
  while ((2 * m) * (2 * m) <= vlen) m *= 2;
  return m;
}

Params Params::from_config(const HwConfig& cfg) {
  if (cfg.platform != "vliw") {
    throw ConfigError(
        fmt::format("{}: platform: expected 'vliw', got '{}'", cfg.source.string(), cfg.platform));
  }
  Params p;
  // V_BCL's lane and V_ALIGN's shift are 6-bit fields; V_SHUF needs an even lane count.
  p.vlen = param(cfg, "VLEN", 4, 64, true);
  // A loop body is at most 4095 words (12-bit field), and the whole program must fit.
  p.imem_words = param(cfg, "IMEM_WORDS", 64, 4096, true);
  p.dm_banks = param(cfg, "DM_BANKS", 1, 64, true);
  p.dm_bytes = param(cfg, "DM_BYTES", int64_t{p.dm_banks} * p.row_bytes(), int64_t{1} << 24, true);
  p.loop_depth = param(cfg, "LOOP_DEPTH", 1, 16, false);
  p.dma_channels = param(cfg, "DMA_CHANNELS", 1, 4, false);  // the `ch` field is 2 bits
  p.dma_queue = param(cfg, "DMA_QUEUE", 1, 64, false);
  p.dma_outstanding = param(cfg, "DMA_OUTSTANDING", 1, 1024, false);
  p.dram_latency = runtime_param(cfg, "dram_latency_cycles", 40, 1, 100000);
  p.dram_bytes_per_cycle = runtime_param(cfg, "dram_bytes_per_cycle", 32, 1, 1 << 20);
  return p;
}

isa::SymbolTable Params::symbols() const {
  return {{"VLEN", vlen},
          {"ROW_BYTES", row_bytes()},
          {"MMUL_M", mmul_m()},
          {"MMUL_K", mmul_k()},
          {"MMUL_N", mmul_n()},
          {"IMEM_WORDS", imem_words},
          {"DM_BYTES", dm_bytes},
          {"DM_BANKS", dm_banks},
          {"LOOP_DEPTH", loop_depth},
          {"DMA_CHANNELS", dma_channels},
          {"DMA_QUEUE", dma_queue},
          {"DMA_OUTSTANDING", dma_outstanding},
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

std::string MachineError::describe(const Params& p) const {
  switch (code) {
    case ErrorCode::kNone:
      return "no error";
    case ErrorCode::kIllegalInsn:
      return fmt::format(
          "illegal op word 0x{:08x} (unknown opcode, reserved bits set, or an operand no "
          "assembler writes)",
          lo);
    case ErrorCode::kIllegalBundle:
      return fmt::format(
          "the words at {}..{} do not form a bundle (more than {} words, or ops out of slot "
          "order)",
          lo, hi, isa::vliw::kMaxBundleWords);
    case ErrorCode::kPcRange:
      return fmt::format("the bundle runs past the instruction memory (word {} >= IMEM_WORDS {})", lo,
                         p.imem_words);
    case ErrorCode::kLoopNest:
      return fmt::format(
          "the loop body ends at word {} but the enclosing loop's body ends at {}: an inner "
          "body must end strictly before its enclosing body",
          lo, hi);
    case ErrorCode::kLoopOverflow:
      return fmt::format("more than LOOP_DEPTH={} nested loops are active", p.loop_depth);
    case ErrorCode::kLoopEnd:
      return fmt::format("a loop body ends at word {}, inside the bundle at word {}", lo, hi);
    case ErrorCode::kDmRange:
      return fmt::format("DM bytes [{}, {}) exceed DM_BYTES={}", lo, hi, p.dm_bytes);
    case ErrorCode::kDmAlign:
      return fmt::format("DM address {} is not aligned to the access ({} bytes)", lo, hi);
    case ErrorCode::kDramRange:
      return fmt::format("DMA touches DRAM bytes [0x{:x}, 0x{:x}) beyond the end of DRAM", lo, hi);
    case ErrorCode::kDramAlign:
      return fmt::format("DRAM address 0x{:x} and stride {} must both be even (BF16 elements)", lo, hi);
    case ErrorCode::kDmaEmpty:
      return "a DMA transfer of 0 rows";
    case ErrorCode::kLockOverflow:
      return fmt::format("lock {} would go above {}", lo, kLockMax);
  }
  return "unknown error";
}

void MachineState::resize(const Params& params) {
  v.assign(size_t{kVectorRegisters} * params.vlen, 0);
  a.assign(size_t{kAccumulators} * params.vlen, 0);
  dm.assign(params.dm_bytes, 0);
}

std::optional<std::string> MachineState::first_difference(const MachineState& o, const Params& params) const {
  for (unsigned i = 0; i < kScalarRegisters; ++i) {
    if (r[i] != o.r[i]) return fmt::format("r{}: 0x{:08x} vs 0x{:08x}", i, r[i], o.r[i]);
  }
  for (unsigned i = 0; i < kPointerRegisters; ++i) {
    if (p[i] != o.p[i]) return fmt::format("p{}: 0x{:08x} vs 0x{:08x}", i, p[i], o.p[i]);
  }
  for (size_t i = 0; i < v.size() && i < o.v.size(); ++i) {
    if (v[i] != o.v[i]) {
      return fmt::format("v{} lane {}: 0x{:04x} vs 0x{:04x}", i / params.vlen, i % params.vlen, v[i], o.v[i]);
    }
  }
  for (size_t i = 0; i < a.size() && i < o.a.size(); ++i) {
    if (a[i] != o.a[i]) {
      return fmt::format("a{} lane {}: 0x{:08x} vs 0x{:08x}", i / params.vlen, i % params.vlen, a[i], o.a[i]);
    }
  }
  for (size_t i = 0; i < dm.size() && i < o.dm.size(); ++i) {
    if (dm[i] != o.dm[i]) return fmt::format("DM byte {}: 0x{:02x} vs 0x{:02x}", i, dm[i], o.dm[i]);
  }
  for (unsigned i = 0; i < kLocks; ++i) {
    if (locks[i] != o.locks[i]) return fmt::format("lock {}: {} vs {}", i, locks[i], o.locks[i]);
  }
  if (halted != o.halted) return fmt::format("halted: {} vs {}", halted, o.halted);
  if (!(error == o.error)) {
    return fmt::format("error: {} at pc {} vs {} at pc {}", error_name(error.code), error.pc,
                       error_name(o.error.code), o.error.pc);
  }
  if (pc != o.pc) return fmt::format("pc: {} vs {}", pc, o.pc);
  return std::nullopt;
}

}  // namespace kcraft::vliw
