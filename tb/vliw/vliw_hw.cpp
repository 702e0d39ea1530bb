#include "tb/vliw/vliw_hw.h"

#include "tb/vliw/vliw_regs.h"

namespace kcraft::vliw {

Counters VliwHw::counters() {
  Counters c{};
  for (unsigned i = 0; i < kNumCounters; ++i) c[i] = counter(i);
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
  s.error = read_error<MachineError>();
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

Params VliwHw::read_params() {
  Params p;
  p.vlen = status(regs::kStParamVlen);
  p.imem_words = status(regs::kStParamImem);
  p.dm_bytes = status(regs::kStParamDm);
  p.dm_banks = status(regs::kStParamBanks);
  p.loop_depth = status(regs::kStParamLoop);
  p.dma_channels = status(regs::kStParamChannels);
  p.dma_queue = status(regs::kStParamQueue);
  p.dma_outstanding = status(regs::kStParamOutstanding);
  return p;
}

}  // namespace kcraft::vliw
