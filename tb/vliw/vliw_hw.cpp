#include "tb/vliw/vliw_hw.h"

#include <stdexcept>

#include <fmt/format.h>

#include "tb/common/dram_model.h"
#include "tb/vliw/vliw_regs.h"

namespace kcraft::vliw {

uint64_t DramModelPort::access(bool write, uint64_t addr, uint8_t* data, unsigned len, uint64_t cycle,
                               uint32_t pc) {
  if (!dram_.in_range(addr, len)) {
    throw std::runtime_error(fmt::format("DMA request for DRAM bytes [0x{:x}, 0x{:x}) beyond its {} bytes",
                                         addr, addr + len, dram_.size()));
  }
  return dram_.access(write, addr, data, len, cycle, pc);
}

void VliwHw::load_program(const std::vector<uint32_t>& words) {
  if (words.size() > params().imem_words) {
    throw std::invalid_argument(
        fmt::format("program of {} words does not fit IMEM_WORDS={}", words.size(), params().imem_words));
  }
  for (size_t i = 0; i < words.size(); ++i) ctl_write(regs::kCtlImem + static_cast<uint32_t>(i), words[i]);
}

uint32_t VliwHw::status(unsigned word) {
  uint32_t v = 0;
  dbg_read(regs::kDbgStatus, word, &v, sizeof v);
  return v;
}

uint64_t VliwHw::status64(unsigned word) {
  uint64_t v = 0;
  dbg_read(regs::kDbgStatus, word, &v, sizeof v);
  return v;
}

Counters VliwHw::counters() {
  Counters c{};
  for (unsigned i = 0; i < kNumCounters; ++i) dbg_read(regs::kDbgCounter, i, &c[i], sizeof c[i]);
  return c;
}

MachineState VliwHw::read_state() {
  const Params& p = params();
  MachineState s;
  s.resize(p);
  for (unsigned i = 0; i < kScalarRegisters; ++i) dbg_read(regs::kDbgXreg, i, &s.r[i], 4);
  for (unsigned i = 0; i < kPointerRegisters; ++i) dbg_read(regs::kDbgPreg, i, &s.p[i], 4);
  for (unsigned i = 0; i < kVectorRegisters; ++i)
    dbg_read(regs::kDbgVreg, i, &s.v[size_t{i} * p.vlen], 2 * p.vlen);
  for (unsigned i = 0; i < kAccumulators; ++i)
    dbg_read(regs::kDbgAreg, i, &s.a[size_t{i} * p.vlen], 4 * p.vlen);
  const unsigned rows = p.dm_bytes / p.row_bytes();
  for (unsigned r = 0; r < rows; ++r)
    dbg_read(regs::kDbgDm, r, &s.dm[size_t{r} * p.row_bytes()], p.row_bytes());
  for (unsigned l = 0; l < kLocks; ++l) dbg_read(regs::kDbgLock, l, &s.locks[l], 1);
  s.halted = (status(regs::kStHaltState) & regs::kHaltByInstruction) != 0;
  s.error.code = static_cast<ErrorCode>(status(regs::kStErrCode));
  if (s.error.code != ErrorCode::kNone) {
    s.error.pc = status(regs::kStErrPc);
    s.error.lo = status64(regs::kStErrLo);
    s.error.hi = status64(regs::kStErrHi);
  }
  s.pc = status(regs::kStPc);
  return s;
}

HangReport VliwHw::hang_report() {
  HangReport h;
  h.pc = status(regs::kStPc);
  h.stall_cause = status(regs::kStStall);
  h.dma_busy_channels = status(regs::kStDmaBusy);
  h.dma_rows_in_flight = status(regs::kStDmaInFlight);
  h.loop_depth = status(regs::kStLoopDepth);
  for (unsigned l = 0; l < kLocks; ++l) dbg_read(regs::kDbgLock, l, &h.locks[l], 1);
  return h;
}

}  // namespace kcraft::vliw
