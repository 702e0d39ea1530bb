// Host-visible constants of vliw_top: mirrors rtl/vliw/vliw_pkg.sv (control addresses, back-door
// selectors, status words). tests/vliw checks the RTL's answers against these.
#pragma once

#include <cstdint>

namespace kcraft::vliw::regs {

enum DbgSel : unsigned {
  kDbgStatus = 0,
  kDbgCounter = 1,
  kDbgXreg = 2,
  kDbgPreg = 3,
  kDbgVreg = 4,
  kDbgAreg = 5,
  kDbgDm = 6,
  kDbgImem = 7,
  kDbgLock = 8,
};

enum StatusWord : unsigned {
  kStFlags = 0,
  kStErrCode = 1,
  kStErrPc = 2,
  kStErrLo = 3,
  kStErrHi = 4,
  kStPc = 5,
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

enum StatusFlag : uint32_t {
  kFlagRunning = 1u << 0,
  kFlagStopped = 1u << 1,
  kFlagError = 1u << 2,
  kFlagClearing = 1u << 3,
};

enum HaltState : uint32_t {
  kHaltByInstruction = 1u << 0,  // C_HALT issued
  kHaltDraining = 1u << 1,
  kHaltStopped = 1u << 2,
};

inline constexpr uint32_t kCtlImem = 0x00000000u;  // + word index
inline constexpr uint32_t kCtlStart = 0x10000000u;
inline constexpr uint32_t kCtlDramBytes = 0x10000001u;
inline constexpr uint32_t kCtlClear = 0x10000002u;

}  // namespace kcraft::vliw::regs
