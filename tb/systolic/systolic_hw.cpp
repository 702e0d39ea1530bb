#include "tb/systolic/systolic_hw.h"

#include <stdexcept>

#include "tb/systolic/systolic_regs.h"

namespace kcraft::systolic {

const char* stall_cause_name(unsigned cause) {
  const StallCauseInfo* info = find_stall_cause(cause);
  return info != nullptr ? info->description : "unknown";
}

Counters SystolicHw::counters() {
  Counters c{};
  for (unsigned i = 0; i < kNumCounters; ++i) c[i] = counter(i);
  return c;
}

MachineState SystolicHw::read_state() {
  const Params& p = params();
  MachineState s;
  s.resize(p);
  for (unsigned i = 0; i < 16; ++i) {
    dbg_read(regs::kDbgXreg, i, &s.x[i], 4);
    dbg_read(regs::kDbgFreg, i, &s.f[i], 4);
  }
  for (unsigned r = 0; r < p.vsram_rows; ++r)
    dbg_read(regs::kDbgVsram, r, &s.vsram[size_t{r} * p.vlen], 2 * p.vlen);
  for (unsigned r = 0; r < p.msram_rows; ++r)
    dbg_read(regs::kDbgMsram, r, &s.msram[size_t{r} * p.mlen], 2 * p.mlen);
  for (unsigned r = 0; r < p.acc_rows; ++r)
    dbg_read(regs::kDbgAcc, r, &s.acc[size_t{r} * p.mlen], 4 * p.mlen);
  for (unsigned w = 0; w < p.fpsram_words; ++w) dbg_read(regs::kDbgFpsram, w, &s.fpsram[w], 4);
  for (unsigned k = 0; k < p.mlen; ++k)
    dbg_read(regs::kDbgWeights, k, &s.weights[size_t{k} * p.mlen], 2 * p.mlen);
  const uint32_t flags = status(regs::kStFlags);
  s.halted = (flags & regs::kFlagStopped) != 0;
  s.error = read_error<MachineError>();
  s.pc = status(regs::kStPc);
  return s;
}

HangReport SystolicHw::hang_report() {
  HangReport h;
  h.pc = status(regs::kStPc);
  h.insn = status(regs::kStInsn);
  const uint32_t units = status(regs::kStUnits);
  h.vector_busy = units & 1u;
  h.matrix_busy = (units >> 1) & 1u;
  h.dma_busy = (units >> 2) & 1u;
  h.sfu_busy = (units >> 3) & 1u;
  h.stall_cause = (units >> 4) & 0xFu;
  h.dma_pc = status(regs::kStDmaPc);
  h.dma_rows_left = status(regs::kStDmaLeft);
  h.loop_depth = status(regs::kStLoopDepth);
  return h;
}

Params SystolicHw::read_params() {
  Params p;
  p.mlen = status(regs::kStParamMlen);
  p.vlen = status(regs::kStParamVlen);
  p.blen = status(regs::kStParamBlen);
  p.imem_words = status(regs::kStParamImem);
  p.vsram_rows = status(regs::kStParamVsram);
  p.msram_rows = status(regs::kStParamMsram);
  p.acc_rows = status(regs::kStParamAcc);
  p.fpsram_words = status(regs::kStParamFpsram);
  p.loop_depth = status(regs::kStParamLoop);
  p.dma_slots = status(regs::kStParamDmaSlots);
  p.dma_outstanding = status(regs::kStParamDmaOutstanding);
  p.has_v_mul_vfv = status(regs::kStParamHasVMulVfv) != 0;
  return p;
}

}  // namespace kcraft::systolic
