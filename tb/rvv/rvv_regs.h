// Host-visible constants of rvv_top: mirrors rtl/rvv/rvv_pkg.sv (control addresses, back-door selectors,
// status words, error codes, stall causes, counters). tests/rvv_core checks the RTL's answers against these.
#pragma once

#include <cstdint>

#include "tb/common/accelerator_hw.h"

namespace kcraft::rvv {

namespace regs {
// Control addresses (ITCM words, START, DRAM size, CLEAR), kDbgStatus/kDbgCounter, status words 0-5 and
// the flags: every top's (tb::regs).
using namespace kcraft::tb::regs;

inline constexpr uint32_t kCtlDtcm = 0x20000000u;  // + word index from the DTCM base: initial data

enum DbgSel : unsigned {
  kDbgXreg = 2,
  kDbgFreg = 3,
  kDbgVreg = 4,  // VLEN bits, byte k of the register at byte k
  kDbgCsr = 5,   // the CSR numbered <addr>
  kDbgDtcm = 6,  // DTCM word <addr>
  kDbgItcm = 7,  // ITCM word <addr>
};

enum StatusWord : unsigned {
  kStStall = 6,
  kStParamVlen = 16,
  kStParamItcm = 17,
  kStParamDtcm = 18,
  kStParamLanes = 19,
  kStParamDcache = 20,
};
}  // namespace regs

enum class ErrorCode : uint32_t {
  kNone = 0,
  kIllegal = 1,     // an instruction outside the implemented subset
  kFetch = 2,       // pc outside ITCM or not 4-byte aligned
  kLoad = 3,        // a load outside DTCM and DRAM (or past the DRAM size)
  kStore = 4,       // a store outside DTCM and DRAM, or into ITCM
  kMisaligned = 5,  // a scalar access not aligned to its size
  kEbreak = 6,
};

enum class StallCause : uint32_t {
  kNone = 0,
  kData = 1,       // an operand from a multi-cycle op (divide, FDIV/FSQRT) not ready; CSR serialisation
  kLoadUse = 2,    // an operand from the load just ahead
  kFpDivSqrt = 3,  // the FP divide/sqrt unit is busy
  kVector = 4,     // the vector unit cannot take it (busy, queue full, result)
  kMemory = 5,     // a DRAM access (cache miss, write buffer full) waits
  kBranch = 6,     // a bubble after a taken branch or jump
};

enum Counter : unsigned {
  kCntCycles = 0,
  kCntInstret = 1,
  kCntVectorInsns = 2,
  kCntVectorBusy = 3,
  kCntStallData = 4,
  kCntStallLoadUse = 5,
  kCntStallFpDivSqrt = 6,
  kCntStallVector = 7,
  kCntStallMemory = 8,
  kCntStallBranch = 9,
  kCntDramReadBytes = 10,
  kCntDramWriteBytes = 11,
  kCntDcacheMisses = 12,
  kNumCounters = 13,
};

// CSR numbers the back door (and the core) know.
enum Csr : uint32_t {
  kCsrFflags = 0x001,
  kCsrFrm = 0x002,
  kCsrFcsr = 0x003,
  kCsrVstart = 0x008,
  kCsrCycle = 0xC00,
  kCsrTime = 0xC01,
  kCsrInstret = 0xC02,
  kCsrVl = 0xC20,
  kCsrVtype = 0xC21,
  kCsrVlenb = 0xC22,
  kCsrCycleh = 0xC80,
  kCsrTimeh = 0xC81,
  kCsrInstreth = 0xC82,
};

}  // namespace kcraft::rvv
