#include "tb/rvv/rvv_hw.h"

#include <fmt/format.h>

#include <cstring>
#include <stdexcept>

#include "isa/rvv/rvv_memory_map.h"

namespace kcraft::rvv {

const char* error_name(ErrorCode code) {
  switch (code) {
    case ErrorCode::kNone:
      return "none";
    case ErrorCode::kIllegal:
      return "illegal instruction";
    case ErrorCode::kFetch:
      return "fetch outside ITCM";
    case ErrorCode::kLoad:
      return "bad load address";
    case ErrorCode::kStore:
      return "bad store address";
    case ErrorCode::kMisaligned:
      return "misaligned access";
    case ErrorCode::kEbreak:
      return "ebreak";
  }
  return "unknown error";
}

const char* stall_name(StallCause cause) {
  switch (cause) {
    case StallCause::kNone:
      return "none";
    case StallCause::kData:
      return "data";
    case StallCause::kLoadUse:
      return "load_use";
    case StallCause::kFpDivSqrt:
      return "fp_divsqrt";
    case StallCause::kVector:
      return "vector";
    case StallCause::kMemory:
      return "memory";
    case StallCause::kBranch:
      return "branch";
  }
  return "unknown";
}

const char* counter_name(unsigned counter) {
  static const char* const kNames[kNumCounters] = {
      "cycles",          "instructions",       "vector_instructions", "vector_busy",  "stall_data",
      "stall_load_use",  "stall_fp_divsqrt",   "stall_vector",        "stall_memory", "stall_branch",
      "dram_bytes_read", "dram_bytes_written", "dcache_misses"};
  return counter < kNumCounters ? kNames[counter] : "unknown";
}

std::string ErrorReport::describe() const {
  switch (code) {
    case ErrorCode::kNone:
      return "no error";
    case ErrorCode::kFetch:
      return fmt::format("fetch outside ITCM or misaligned at pc 0x{:08x}", pc);
    case ErrorCode::kLoad:
    case ErrorCode::kStore:
    case ErrorCode::kMisaligned:
      return fmt::format("{} 0x{:08x} by instruction 0x{:08x} at pc 0x{:08x}", error_name(code), addr, insn,
                         pc);
    default:
      return fmt::format("{} 0x{:08x} at pc 0x{:08x}", error_name(code), insn, pc);
  }
}

Params RvvHw::read_params() {
  Params p;
  p.vlen = status(regs::kStParamVlen);
  p.lanes = status(regs::kStParamLanes);
  p.itcm_bytes = status(regs::kStParamItcm);
  p.dtcm_bytes = status(regs::kStParamDtcm);
  p.dcache_bytes = status(regs::kStParamDcache);
  p.imem_words = p.itcm_bytes / 4;
  return p;
}

Counters RvvHw::counters() {
  Counters c{};
  for (unsigned i = 0; i < kNumCounters; ++i) c[i] = counter(i);
  return c;
}

uint32_t RvvHw::xreg(unsigned i) {
  return dbg_word(regs::kDbgXreg, i);
}

uint32_t RvvHw::freg(unsigned i) {
  return dbg_word(regs::kDbgFreg, i);
}

std::vector<uint8_t> RvvHw::vreg(unsigned i) {
  std::vector<uint8_t> v(params().vlen / 8);
  dbg_read(regs::kDbgVreg, i, v.data(), static_cast<unsigned>(v.size()));
  return v;
}

uint32_t RvvHw::csr(uint32_t number) {
  return dbg_word(regs::kDbgCsr, number);
}

uint32_t RvvHw::dtcm_word(uint32_t index) {
  return dbg_word(regs::kDbgDtcm, index);
}

uint32_t RvvHw::itcm_word(uint32_t index) {
  return dbg_word(regs::kDbgItcm, index);
}

std::vector<uint8_t> RvvHw::read_dtcm(uint32_t address, uint32_t bytes) {
  if (address % 4 != 0 || bytes % 4 != 0 || address < RVV_DTCM_BASE ||
      uint64_t{address} + bytes > uint64_t{RVV_DTCM_BASE} + params().dtcm_bytes) {
    throw std::invalid_argument(fmt::format("DTCM range [0x{:x}, 0x{:x}) is not word-aligned inside the DTCM",
                                            address, address + bytes));
  }
  std::vector<uint8_t> out(bytes);
  for (uint32_t i = 0; i < bytes / 4; ++i) {
    const uint32_t w = dtcm_word((address - RVV_DTCM_BASE) / 4 + i);
    std::memcpy(&out[4 * i], &w, 4);
  }
  return out;
}

ErrorReport RvvHw::error() {
  ErrorReport e;
  e.code = static_cast<ErrorCode>(status(regs::kStErrCode));
  if (e.code != ErrorCode::kNone) {
    e.pc = status(regs::kStErrPc);
    e.insn = status(regs::kStErrLo);
    e.addr = status(regs::kStErrHi);
  }
  return e;
}

StallCause RvvHw::stall() {
  return static_cast<StallCause>(status(regs::kStStall));
}

std::optional<Signature> RvvHw::signature() {
  const auto bytes = read_dtcm(RVV_SIG_ADDR, RVV_SIG_BYTES);
  auto word = [&](unsigned offset) {
    uint32_t w = 0;
    std::memcpy(&w, &bytes[offset], 4);
    return w;
  };
  if (word(RVV_SIG_OFF_MAGIC) != RVV_SIG_MAGIC) return std::nullopt;
  Signature s;
  for (unsigned i = 1; i < 32; ++i) s.x[i] = word(RVV_SIG_OFF_X + 4 * i);
  for (unsigned i = 0; i < 32; ++i) s.f[i] = word(RVV_SIG_OFF_F + 4 * i);
  s.fcsr = word(RVV_SIG_OFF_FCSR);
  s.vl = word(RVV_SIG_OFF_VL);
  s.vtype = word(RVV_SIG_OFF_VTYPE);
  s.vstart = word(RVV_SIG_OFF_VSTART);
  s.vlenb = word(RVV_SIG_OFF_VLENB);
  return s;
}

std::vector<CtlWrite> RvvHw::load_writes(const ElfImage& program, uint64_t dram_bytes) const {
  const Params& p = params();
  if (program.entry != RVV_ITCM_BASE) {
    throw std::invalid_argument(
        fmt::format("the program's entry point is 0x{:x}, not the ITCM base 0x{:x} (crt0)", program.entry,
                    RVV_ITCM_BASE));
  }
  if (dram_bytes > RVV_DRAM_MAX_BYTES) {
    throw std::invalid_argument(fmt::format("a DRAM image of {} bytes is larger than RVV_DRAM_MAX_BYTES ({})",
                                            dram_bytes, RVV_DRAM_MAX_BYTES));
  }
  std::vector<CtlWrite> writes;
  for (const ElfSegment& seg : program.segments) {
    const uint64_t begin = seg.address;
    const uint64_t end = begin + seg.mem_bytes;
    static_assert(RVV_ITCM_BASE == 0, "the ITCM starts at address 0");
    const bool in_itcm = end <= uint64_t{RVV_ITCM_BASE} + p.itcm_bytes;
    const bool in_dtcm = begin >= RVV_DTCM_BASE && end <= uint64_t{RVV_DTCM_BASE} + p.dtcm_bytes;
    if (!in_itcm && !in_dtcm) {
      throw std::invalid_argument(
          fmt::format("segment [0x{:x}, 0x{:x}) is neither inside the ITCM ({} bytes at 0x{:x}) nor the DTCM "
                      "({} bytes at 0x{:x})",
                      begin, end, p.itcm_bytes, RVV_ITCM_BASE, p.dtcm_bytes, RVV_DTCM_BASE));
    }
    const uint32_t base = in_itcm ? RVV_ITCM_BASE : RVV_DTCM_BASE;
    const uint32_t space = in_itcm ? regs::kCtlImem : regs::kCtlDtcm;
    // Whole words; the memories were cleared, so zero words (and .bss) need no write.
    const uint64_t first = begin & ~uint64_t{3};
    for (uint64_t a = first; a < begin + seg.data.size(); a += 4) {
      uint32_t w = 0;
      for (unsigned k = 0; k < 4; ++k) {
        const uint64_t b = a + k;
        if (b >= begin && b < begin + seg.data.size()) w |= uint32_t{seg.data[b - begin]} << (8 * k);
      }
      if (w != 0) writes.push_back({space + static_cast<uint32_t>((a - base) / 4), w});
    }
  }
  const auto host_word = [](uint32_t address) { return regs::kCtlDtcm + (address - RVV_DTCM_BASE) / 4; };
  writes.push_back({host_word(RVV_HOST_DRAM_BYTES), static_cast<uint32_t>(dram_bytes)});
  writes.push_back({host_word(RVV_HOST_FLAGS), 0});
  writes.push_back({regs::kCtlDramBytes, static_cast<uint32_t>(dram_bytes)});
  return writes;
}

void RvvHw::load(const ElfImage& program, uint64_t dram_bytes) {
  const auto writes = load_writes(program, dram_bytes);
  reset_and_clear();
  for (const CtlWrite& w : writes) ctl_write(w.addr, w.data);
}

BareRun RvvHw::run(const ElfImage& program, tb::DramModel& dram, uint64_t max_cycles) {
  load(program, dram.size());
  ctl_write(regs::kCtlStart, 1);
  DramModelPort port(dram);
  BareRun r;
  run_cycles(max_cycles, port);
  r.stopped = stopped();
  r.cycles = cycle();
  r.error = error();
  r.counters = counters();
  r.pc = pc();
  if (r.stopped && r.error.code == ErrorCode::kNone) {
    if (auto s = signature()) {
      r.signature_valid = true;
      r.signature = *s;
    }
  }
  return r;
}

}  // namespace kcraft::rvv
