#include "tb/systolic/systolic_diff.h"

#include <fmt/format.h>

#include "isa/common/disassembler.h"
#include "isa/systolic/systolic_iss.h"
#include "systolic_isa.h"
#include "tb/systolic/systolic_sim.h"

namespace kcraft::systolic {

namespace {

struct Compared {
  std::optional<std::string> diff;
  uint64_t cycles = 0;
  uint64_t instructions = 0;
  bool error = false;
};

Compared run_both(const std::string& hw, const std::vector<uint32_t>& program,
                  const std::vector<uint8_t>& dram, uint64_t cycle_cap) {
  RunJob job;
  job.config = hw;
  job.program = program;
  job.dram = dram;
  job.cycle_cap = cycle_cap;
  job.read_state = true;
  RunResult rtl = run_on_rtl(job);
  const Params p = rtl_params(hw);
  Iss iss(p);
  iss.reset(program);
  std::vector<uint8_t> model_dram = dram;
  Compared c;
  c.cycles = rtl.cycles;
  c.instructions = rtl.counters[kInstructions];
  c.error = rtl.stop == RunResult::Stop::kError;
  if (rtl.stop == RunResult::Stop::kTimeout) {
    c.diff = fmt::format("the RTL did not halt within {} cycles (pc {})", cycle_cap, rtl.hang.pc);
    return c;
  }
  auto stop = iss.run(model_dram, rtl.counters[kInstructions] + 1);
  if (stop.stop == Iss::Stop::kInstructionCap) {
    c.diff = fmt::format("the RTL stopped after {} instructions, the model kept going", c.instructions);
    return c;
  }
  if (auto d = rtl.state.first_difference(iss.state(), p)) {
    c.diff = *d;
    return c;
  }
  for (size_t i = 0; i < rtl.dram.size(); ++i) {
    if (rtl.dram[i] != model_dram[i]) {
      c.diff = fmt::format("DRAM byte 0x{:x}: 0x{:02x} vs 0x{:02x}", i, rtl.dram[i], model_dram[i]);
      return c;
    }
  }
  for (unsigned k = 0; k < kNumCounters; ++k) {
    if (counter_is_architectural(k) && rtl.counters[k] != iss.counters()[k]) {
      c.diff = fmt::format("counter {}: {} vs {}", counter_name(k), rtl.counters[k], iss.counters()[k]);
      return c;
    }
  }
  return c;
}

}  // namespace

DiffOutcome compare_rtl_and_model(const std::string& hw, const std::vector<uint32_t>& program,
                                  const std::vector<uint8_t>& dram, uint64_t cycle_cap) {
  DiffOutcome out;
  Compared full = run_both(hw, program, dram, cycle_cap);
  out.cycles = full.cycles;
  out.instructions = full.instructions;
  out.halted_with_error = full.error;
  if (!full.diff) return out;

  // Find the shortest prefix (program with C_HALT at position k) that still diverges.
  size_t lo = 0, hi = program.size();  // prefix hi diverges (the full program)
  std::string what = *full.diff;
  while (lo + 1 < hi) {
    const size_t mid = (lo + hi) / 2;
    std::vector<uint32_t> prefix(program.begin(), program.begin() + static_cast<std::ptrdiff_t>(mid));
    prefix.push_back(static_cast<uint32_t>(isa::systolic::Op::C_HALT));
    Compared c = run_both(hw, prefix, dram, cycle_cap);
    if (c.diff) {
      hi = mid;
      what = *c.diff;
    } else {
      lo = mid;
    }
  }
  Divergence d;
  d.what = what;
  d.pc = static_cast<uint32_t>(hi == 0 ? 0 : hi - 1);
  d.instruction = d.pc < program.size() ? isa::disassemble(isa::systolic::spec(), program[d.pc]) : "";
  out.divergence = d;
  return out;
}

}  // namespace kcraft::systolic
