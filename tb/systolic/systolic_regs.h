// Host-visible constants of systolic_top: mirrors rtl/systolic/systolic_pkg.sv (debug selectors, status
// words, control addresses). tests/systolic checks the RTL's answers against these.
#pragma once

#include <cstdint>

#include "tb/common/accelerator_hw.h"

namespace kcraft::systolic::regs {

// Control addresses, kDbgStatus/kDbgCounter, status words 0-5 and the flags: every top's (tb::regs).
using namespace kcraft::tb::regs;

enum DbgSel : unsigned {
  kDbgXreg = 2,
  kDbgFreg = 3,
  kDbgVsram = 4,
  kDbgMsram = 5,
  kDbgAcc = 6,
  kDbgFpsram = 7,
  kDbgImem = 8,
  kDbgWeights = 9,
};

enum StatusWord : unsigned {
  kStInsn = 6,
  kStUnits = 7,
  kStDmaPc = 8,
  kStDmaLeft = 9,
  kStLoopDepth = 10,
  kStParamMlen = 16,
  kStParamVlen = 17,
  kStParamBlen = 18,
  kStParamImem = 19,
  kStParamVsram = 20,
  kStParamMsram = 21,
  kStParamAcc = 22,
  kStParamFpsram = 23,
  kStParamLoop = 24,
  kStParamDmaSlots = 25,
  kStParamDmaOutstanding = 26,
};

// Bits of systolic_top.trace_o (systolic_pkg TR_*): what every unit does in a cycle.
enum TraceBit : unsigned {
  kTrStallLsb = 0,  // 4 bits: StallCause
  kTrRunning = 4,
  kTrVecIssue = 5,
  kTrSfuBusy = 6,
  kTrMatBusy = 7,
  kTrArray = 8,
  kTrMatStateLsb = 9,  // 3 bits: TraceMatState
  kTrMatWload = 12,
  kTrMatRetire = 13,
  kTrDmaBusy = 14,
  kTrDmaStart = 15,
  kTrDmaDone = 16,
  kTrDmaLoad = 17,
  kTrDmaStore = 18,
};
enum TraceMatState : unsigned {
  kTrMatIdle = 0,
  kTrMatLdwDrain = 1,
  kTrMatLdwLoad = 2,
  kTrMatMm = 3,
  kTrMatWo = 4,
};

}  // namespace kcraft::systolic::regs
