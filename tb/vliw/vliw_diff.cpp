#include "tb/vliw/vliw_diff.h"

#include <fmt/format.h>

#include "isa/common/bundle.h"
#include "isa/common/disassembler.h"
#include "isa/common/hw_config.h"
#include "isa/vliw/vliw_iss.h"
#include "tb/common/dram_model.h"
#include "tb/common/paths.h"
#include "tb/vliw/vliw_regs.h"

namespace kcraft::vliw {

RtlRun run_on_rtl(VliwHw& hw, const Params& timing, const std::vector<uint32_t>& program,
                  const std::vector<uint8_t>& dram, uint64_t cycle_cap) {
  tb::DramModel model;
  model.configure(tb::DramTiming{timing.dram_latency, timing.dram_bytes_per_cycle});
  model.load(dram);
  DramModelPort port(model);
  hw.start(program, dram.size());
  while (!hw.stopped() && hw.cycle() < cycle_cap) hw.run_cycles(cycle_cap - hw.cycle(), port);
  RtlRun r;
  r.stop = hw.stopped() ? RtlRun::Stop::kStopped : RtlRun::Stop::kCycleCap;
  r.counters = hw.counters();
  r.cycles = r.counters[kCycles];
  r.state = hw.read_state();
  if (r.stop == RtlRun::Stop::kCycleCap) r.hang = hw.hang_report();
  r.dram = std::move(model.bytes());
  return r;
}

std::optional<std::string> compare_runs(const RtlRun& rtl, const Iss& iss,
                                        const std::vector<uint8_t>& model_dram) {
  if (auto d = rtl.state.first_difference(iss.state(), iss.params())) return *d;
  for (size_t i = 0; i < rtl.dram.size() && i < model_dram.size(); ++i) {
    if (rtl.dram[i] != model_dram[i]) {
      return fmt::format("DRAM byte 0x{:x}: 0x{:02x} vs 0x{:02x}", i, rtl.dram[i], model_dram[i]);
    }
  }
  for (unsigned k = 0; k < kNumCounters; ++k) {
    if (rtl.counters[k] != iss.counters()[k]) {
      return fmt::format("counter {}: {} vs {}", counter_name(k), rtl.counters[k], iss.counters()[k]);
    }
  }
  return std::nullopt;
}

namespace {

struct Compared {
  std::optional<std::string> diff;
  uint64_t cycles = 0;
  uint64_t bundles = 0;
  bool faulted = false;
};

Compared run_both(VliwHw& hw, const Params& p, const std::vector<uint32_t>& program,
                  const std::vector<uint8_t>& dram, uint64_t cycle_cap) {
  Compared c;
  const RtlRun rtl = run_on_rtl(hw, p, program, dram, cycle_cap);
  Iss iss(p);
  iss.reset(program);
  std::vector<uint8_t> model_dram = dram;
  const Iss::Result model = iss.run(model_dram, cycle_cap);
  c.cycles = rtl.cycles;
  c.bundles = rtl.counters[kBundles];
  c.faulted = rtl.state.error.code != ErrorCode::kNone;
  const bool rtl_capped = rtl.stop == RtlRun::Stop::kCycleCap;
  const bool model_capped = model.stop == Iss::Stop::kCycleCap;
  if (rtl_capped != model_capped) {
    c.diff = rtl_capped ? fmt::format("the RTL did not stop within {} cycles (pc {}), the model did after {}",
                                      cycle_cap, rtl.hang.pc, model.cycles)
                        : fmt::format("the RTL stopped after {} cycles, the model ran into the cap of {}",
                                      rtl.cycles, cycle_cap);
    return c;
  }
  c.diff = compare_runs(rtl, iss, model_dram);
  return c;
}

}  // namespace

DiffOutcome compare_rtl_and_model(VliwHw& hw, const Params& p, const std::vector<uint32_t>& program,
                                  const std::vector<uint8_t>& dram, uint64_t cycle_cap) {
  DiffOutcome out;
  Compared full = run_both(hw, p, program, dram, cycle_cap);
  out.cycles = full.cycles;
  out.bundles = full.bundles;
  out.faulted = full.faulted;
  if (!full.diff) return out;

  // The shortest prefix of whole bundles (then a C_HALT bundle) that still diverges.
  const isa::IsaSpec& spec = isa::vliw::spec();
  const std::vector<isa::BundleRange> bundles = isa::split_bundles(spec, program);
  const uint32_t halt = static_cast<uint32_t>(isa::vliw::Op::C_HALT) | (1u << isa::vliw::kEndOfBundle.lsb);
  size_t lo = 0, hi = bundles.size();  // keeping hi bundles diverges (the full program)
  std::string what = *full.diff;
  while (lo + 1 < hi) {
    const size_t mid = (lo + hi) / 2;
    std::vector<uint32_t> prefix(program.begin(),
                                 program.begin() + static_cast<std::ptrdiff_t>(bundles[mid].first));
    prefix.push_back(halt);
    Compared c = run_both(hw, p, prefix, dram, cycle_cap);
    if (c.diff) {
      hi = mid;
      what = *c.diff;
    } else {
      lo = mid;
    }
  }
  Divergence d;
  d.what = what;
  if (!bundles.empty()) {
    const isa::BundleRange& b = bundles[hi == 0 ? 0 : hi - 1];
    d.pc = static_cast<uint32_t>(b.first);
    for (size_t k = 0; k < b.count; ++k) {
      d.bundle += (k == 0 ? "" : " ; ") + isa::disassemble(spec, program[b.first + k]);
    }
  }
  out.divergence = d;
  return out;
}

Params rtl_params_with_timing(VliwHw& hw) {
  Params p = hw.params();
  const Params file =
      Params::from_config(load_hw_config(hw_config_dir("vliw") / (hw.config_name() + ".yaml")));
  p.dram_latency = file.dram_latency;
  p.dram_bytes_per_cycle = file.dram_bytes_per_cycle;
  return p;
}

}  // namespace kcraft::vliw
