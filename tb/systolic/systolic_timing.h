// The systolic NPU's timing model in numbers: what docs/systolic.md ("Timing model") and the ISA
// reference's occupancies state, for the attainable bound. tests/systolic/timing_test.cpp measures every
// one of them on the RTL of each hardware configuration.
#pragma once

#include <algorithm>
#include <cstdint>

#include "isa/systolic/systolic_machine.h"

namespace kcraft::systolic {

struct TimingModel {
  Params p;
  uint64_t dram_latency = 40;
  uint64_t dram_bytes_per_cycle = 32;

  // Matrix unit. An M_LDW issued while the array is empty takes MLEN + 2 cycles before the next matrix
  // instruction is accepted; issued right after the last M_MM/M_MMA it first waits until that
  // instruction's rows have left the array: `array_drain` more cycles.
  uint64_t ldw_cycles() const { return p.mlen + 2; }
  uint64_t array_drain() const { return 2 * p.mlen - 1; }
  // M_MM, M_MMA and M_WO hold the unit BLEN cycles (one row per cycle).
  uint64_t stream_cycles() const { return p.blen; }

  // DMA. A row request stays outstanding DRAM_LATENCY cycles (from its launch until its answer frees the
  // entry). The engine launches one row per cycle at most, the channel takes one row per ROW_BYTES /
  // DRAM_BYTES_PER_CYCLE cycles, and at most DMA_OUTSTANDING rows are in flight.
  uint64_t row_round_trip() const { return dram_latency; }
  double rows_per_cycle() const {
    const double channel = static_cast<double>(dram_bytes_per_cycle) / p.row_bytes();
    const double outstanding = static_cast<double>(p.dma_outstanding) / static_cast<double>(row_round_trip());
    return std::min({1.0, channel, outstanding});
  }
};

}  // namespace kcraft::systolic
