#include "tb/vliw/vliw_campaigns.h"

#include <chrono>

#include <fmt/format.h>

#include "isa/common/disassembler.h"
#include "isa/vliw/random_program.h"
#include "tb/vliw/vliw_diff.h"

namespace kcraft::vliw {

CommandReport validate_random_programs(const ValidationOptions& a) {
  auto hw = make_vliw_hw(a.hw_config);
  const Params p = rtl_params_with_timing(*hw);
  RandomProgramOptions options;
  options.bundles = a.length;
  uint64_t cycles = 0, bundles = 0, faulted = 0;
  const auto t0 = std::chrono::steady_clock::now();
  CommandReport report;
  for (uint64_t i = 0; i < a.programs; ++i) {
    const uint64_t seed = a.seed + i;
    const RandomProgram prog = random_program(p, seed, options);
    const DiffOutcome outcome = compare_rtl_and_model(*hw, p, prog.words, prog.dram);
    cycles += outcome.cycles;
    bundles += outcome.bundles;
    faulted += outcome.faulted ? 1 : 0;
    if (outcome.divergence) {
      const Divergence& d = *outcome.divergence;
      nlohmann::json words = nlohmann::json::array();
      for (uint32_t w : prog.words) words.push_back(w);
      report.ok = false;
      report.json = {{"result", "divergence"}, {"program_seed", seed}, {"pc", d.pc},
                     {"bundle", d.bundle},     {"difference", d.what}, {"program", words}};
      report.text = fmt::format("DIVERGENCE in random program seed {} ({} words)\n", seed, prog.words.size());
      report.text += fmt::format("first diverging bundle: pc {}: {}\n", d.pc, d.bundle);
      report.text += fmt::format("state difference (RTL vs model): {}\n", d.what);
      report.text +=
          fmt::format("reproduce: kcraft validate vliw --hw {} --seed {} --programs 1 --length {}\n",
                      a.hw_config, seed, a.length);
      report.text += "program:\n" + prog.source;
      return report;
    }
  }
  const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  report.json = {{"result", "agree"},    {"programs", a.programs}, {"faulting_programs", faulted},
                 {"rtl_cycles", cycles}, {"bundles", bundles},     {"seconds", wall}};
  report.text = fmt::format(
      "{} random programs on vliw/{} (seeds {}..{}, {} bundles issued, {} RTL cycles, {} ending in a "
      "deliberate "
      "fault): RTL and functional model agree on every register, accumulator, DM and DRAM byte, lock, error "
      "and counter, cycle for cycle ({:.1f} s)\n",
      a.programs, a.hw_config, a.seed, a.seed + a.programs - 1, bundles, cycles, faulted, wall);
  return report;
}

}  // namespace kcraft::vliw
