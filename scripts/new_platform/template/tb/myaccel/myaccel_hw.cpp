#include "tb/myaccel/myaccel_hw.h"

#include "tb/myaccel/myaccel_regs.h"

namespace kcraft::myaccel {

Counters MyaccelHw::counters() {
  Counters c{};
  for (unsigned i = 0; i < kNumCounters; ++i) c[i] = counter(i);
  return c;
}

MachineState MyaccelHw::read_state() {
  const Params& p = params();
  MachineState s;
  s.resize(p);
  for (unsigned i = 0; i < kScalarRegisters; ++i) dbg_read(regs::kDbgXreg, i, &s.x[i], 4);
  for (unsigned i = 0; i < kVectorRegisters; ++i)
    dbg_read(regs::kDbgVreg, i, &s.v[size_t{i} * p.lanes], p.row_bytes());
  s.halted = status(regs::kStHalted) != 0;
  s.error = read_error<MachineError>();
  s.pc = (status(regs::kStFlags) & regs::kFlagStopped) != 0 ? status(regs::kStPc) : 0;
  return s;
}

Params MyaccelHw::read_params() {
  Params p;
  p.lanes = status(regs::kStParamLanes);
  p.imem_words = status(regs::kStParamImem);
  return p;
}

}  // namespace kcraft::myaccel
