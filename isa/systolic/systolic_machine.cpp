#include "isa/systolic/systolic_machine.h"

#include <fmt/format.h>

namespace kcraft::systolic {

namespace {

bool is_pow2(int64_t v) { return v > 0 && (v & (v - 1)) == 0; }

unsigned param(const HwConfig& cfg, const char* key, int64_t lo, int64_t hi, bool pow2) {
  int64_t v = cfg.build_param(key);
  if (v < lo || v > hi || (pow2 && !is_pow2(v))) {
    throw ConfigError(fmt::format("{}: build.{}: {} is not {}in [{}, {}]", cfg.source.string(), key, v,
                                  pow2 ? "a power of two " : "", lo, hi));
  }
  return static_cast<unsigned>(v);
}

}  // namespace

Params Params::from_config(const HwConfig& cfg) {
  if (cfg.platform != "systolic") {
    throw ConfigError(fmt::format("{}: platform: expected 'systolic', got '{}'", cfg.source.string(), cfg.platform));
  }
  Params p;
  p.mlen = param(cfg, "MLEN", 2, 64, true);
  p.vlen = param(cfg, "VLEN", 2, 64, true);
  if (p.vlen != p.mlen) {
    throw ConfigError(fmt::format("{}: build.VLEN: must equal MLEN ({}), got {}", cfg.source.string(), p.mlen, p.vlen));
  }
  p.blen = param(cfg, "BLEN", 1, p.mlen, true);
  p.imem_words = param(cfg, "IMEM_WORDS", 64, 65536, true);
  p.vsram_rows = param(cfg, "VSRAM_ROWS", 16, 1 << 20, true);
  p.msram_rows = param(cfg, "MSRAM_ROWS", p.mlen, 1 << 20, true);
  p.acc_rows = param(cfg, "ACC_ROWS", p.blen, 1 << 16, true);
  p.fpsram_words = param(cfg, "FPSRAM_WORDS", 2, 1 << 16, true);
  p.loop_depth = param(cfg, "LOOP_DEPTH", 1, 16, false);
  p.dma_slots = param(cfg, "DMA_SLOTS", 1, 16, true);
  p.dma_outstanding = param(cfg, "DMA_OUTSTANDING", 1, 1024, true);
  // Optional (0 when a configuration does not name it): hardware without the fused multiply.
  if (cfg.build.count("HAS_V_MUL_VFV") != 0) p.has_v_mul_vfv = param(cfg, "HAS_V_MUL_VFV", 0, 1, false) != 0;
  return p;
}

const char* error_name(ErrorCode code) {
  const ErrorInfo* info = find_error(static_cast<unsigned>(code));
  return info != nullptr ? info->name : "unknown";
}

std::string MachineError::describe(const Params& p) const {
  switch (code) {
    case ErrorCode::kNone: return "no error";
    case ErrorCode::kIllegalInsn:
      return fmt::format("illegal instruction word 0x{:08x} (unknown opcode, reserved bits set, or a zero "
                         "count/body length)", lo);
    case ErrorCode::kPcRange:
      return fmt::format("execution ran past the instruction memory (pc {} >= IMEM_WORDS {})", lo, p.imem_words);
    case ErrorCode::kLoopNest:
      return fmt::format("the loop body's last instruction is at {} but the enclosing loop's body ends at {}: an "
                         "inner body must end strictly before its enclosing body", lo, hi);
    case ErrorCode::kLoopOverflow:
      return fmt::format("more than LOOP_DEPTH={} nested loops are active", p.loop_depth);
    case ErrorCode::kVsramRange:
      return fmt::format("VSRAM rows [{}, {}) exceed VSRAM_ROWS={}", lo, hi, p.vsram_rows);
    case ErrorCode::kMsramRange:
      return fmt::format("MSRAM rows [{}, {}) exceed MSRAM_ROWS={}", lo, hi, p.msram_rows);
    case ErrorCode::kAccRange:
      return fmt::format("accumulator rows [{}, {}) exceed ACC_ROWS={}", lo, hi, p.acc_rows);
    case ErrorCode::kFpsramRange:
      return fmt::format("FPSRAM word {} exceeds FPSRAM_WORDS={}", lo, p.fpsram_words);
    case ErrorCode::kDramAlign:
      return fmt::format("DRAM address 0x{:x} and stride {} must both be even (BF16 elements)", lo, hi);
    case ErrorCode::kDramRange:
      return fmt::format("DMA touches DRAM bytes [0x{:x}, 0x{:x}) beyond the end of DRAM", lo, hi);
  }
  return "unknown error";
}

const char* counter_name(unsigned counter) {
  return counter < kNumCounters ? kCounters[counter].name : "unknown";
}

bool counter_is_architectural(unsigned counter) {
  return counter < kNumCounters && kCounters[counter].architectural;
}

void MachineState::resize(const Params& p) {
  vsram.assign(size_t{p.vsram_rows} * p.vlen, 0);
  msram.assign(size_t{p.msram_rows} * p.mlen, 0);
  acc.assign(size_t{p.acc_rows} * p.mlen, 0);
  fpsram.assign(p.fpsram_words, 0);
  weights.assign(size_t{p.mlen} * p.mlen, 0);
}

namespace {

template <typename T>
std::optional<std::string> diff_rows(const char* what, const std::vector<T>& a, const std::vector<T>& b,
                                     unsigned row_len, int hex_digits) {
  for (size_t i = 0; i < a.size() && i < b.size(); ++i) {
    if (a[i] != b[i]) {
      return fmt::format("{} row {} element {}: 0x{:0{}x} vs 0x{:0{}x}", what, i / row_len, i % row_len, a[i],
                         hex_digits, b[i], hex_digits);
    }
  }
  if (a.size() != b.size()) return fmt::format("{}: sizes differ ({} vs {})", what, a.size(), b.size());
  return std::nullopt;
}

}  // namespace

std::optional<std::string> MachineState::first_difference(const MachineState& o, const Params& p) const {
  if (halted != o.halted) return fmt::format("halted: {} vs {}", halted, o.halted);
  if (!(error == o.error)) {
    return fmt::format("error: {} at pc {} [0x{:x}, 0x{:x}) vs {} at pc {} [0x{:x}, 0x{:x})", error_name(error.code),
                       error.pc, error.lo, error.hi, error_name(o.error.code), o.error.pc, o.error.lo, o.error.hi);
  }
  if (pc != o.pc) return fmt::format("final pc: {} vs {}", pc, o.pc);
  for (unsigned i = 0; i < 16; ++i) {
    if (x[i] != o.x[i]) return fmt::format("r{}: 0x{:08x} vs 0x{:08x}", i, x[i], o.x[i]);
  }
  for (unsigned i = 0; i < 16; ++i) {
    if (f[i] != o.f[i]) return fmt::format("f{}: 0x{:08x} vs 0x{:08x}", i, f[i], o.f[i]);
  }
  if (auto d = diff_rows("FPSRAM", fpsram, o.fpsram, 1, 8)) return d;
  if (auto d = diff_rows("weights W", weights, o.weights, p.mlen, 4)) return d;
  if (auto d = diff_rows("ACC", acc, o.acc, p.mlen, 8)) return d;
  if (auto d = diff_rows("VSRAM", vsram, o.vsram, p.vlen, 4)) return d;
  if (auto d = diff_rows("MSRAM", msram, o.msram, p.mlen, 4)) return d;
  return std::nullopt;
}

}  // namespace kcraft::systolic
