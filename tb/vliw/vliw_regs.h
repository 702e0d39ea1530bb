// Host-visible constants of vliw_top: mirrors rtl/vliw/vliw_pkg.sv (control addresses, back-door
// selectors, status words). tests/vliw checks the RTL's answers against these.
#pragma once

#include <cstdint>

#include "tb/common/accelerator_hw.h"

namespace kcraft::vliw::regs {

// Control addresses, kDbgStatus/kDbgCounter, status words 0-5 and the flags: every top's (tb::regs).
using namespace kcraft::tb::regs;

enum DbgSel : unsigned {
  kDbgXreg = 2,
  kDbgPreg = 3,
  kDbgVreg = 4,
  kDbgAreg = 5,
  kDbgDm = 6,
  kDbgImem = 7,
  kDbgLock = 8,
};

enum StatusWord : unsigned {
  kStStall = 6,
  kStLoopDepth = 7,
  kStDmaBusy = 8,
  kStDmaInFlight = 9,
  kStHaltState = 10,
  kStParamVlen = 16,
  kStParamImem = 17,
  kStParamDm = 18,
  kStParamBanks = 19,
  kStParamLoop = 20,
  kStParamChannels = 21,
  kStParamQueue = 22,
  kStParamOutstanding = 23,
};

enum HaltState : uint32_t {
  kHaltByInstruction = 1u << 0,  // C_HALT issued
  kHaltDraining = 1u << 1,
  kHaltStopped = 1u << 2,
};

}  // namespace kcraft::vliw::regs
