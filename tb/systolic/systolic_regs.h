// Host-visible constants of systolic_top: mirrors rtl/systolic/systolic_pkg.sv (debug selectors, status
// words, control addresses). tests/systolic checks the RTL's answers against these.
#pragma once

#include <cstdint>

namespace kcraft::systolic::regs {

enum DbgSel : unsigned {
  kDbgStatus = 0,
  kDbgCounter = 1,
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
  kStFlags = 0,
  kStErrCode = 1,
  kStErrPc = 2,
  kStErrLo = 3,
  kStErrHi = 4,
  kStPc = 5,
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

enum StatusFlag : uint32_t {
  kFlagRunning = 1u << 0,
  kFlagHalted = 1u << 1,
  kFlagError = 1u << 2,
  kFlagClearing = 1u << 3,
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

inline constexpr uint32_t kCtlImem = 0x00000000u;  // + instruction index
inline constexpr uint32_t kCtlStart = 0x10000000u;
inline constexpr uint32_t kCtlDramBytes = 0x10000001u;
inline constexpr uint32_t kCtlClear = 0x10000002u;

}  // namespace kcraft::systolic::regs
