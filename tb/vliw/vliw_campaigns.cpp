#include "tb/vliw/vliw_campaigns.h"

#include <algorithm>
#include <chrono>
#include <stdexcept>

#include <fmt/format.h>

#include "isa/common/disassembler.h"
#include "isa/vliw/random_program.h"
#include "isa/vliw/task_run.h"
#include "tasks/common/inputs.h"
#include "tasks/vliw/template_compiler.h"
#include "tb/vliw/vliw_diff.h"
#include "tb/vliw/vliw_platform.h"
#include "tb/vliw/vliw_sim.h"

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

CommandReport VliwPlatform::validate(const ValidationOptions& options) const {
  (void)hw_config(options.hw_config);  // an unknown name lists the known ones
  return validate_random_programs(options);
}

CommandReport VliwPlatform::speed(const SpeedOptions& a, const tasks::TaskRegistry& registry) const {
  const Params p = params(a.hw_config);
  const auto cfg = registry.get(a.task).resolve(a.config, kDType);
  const auto lay = layout(cfg);
  TemplateCompiler compiler(p);
  const auto kernel = compiler.generate(cfg, lay);
  const auto assembled = assemble(kernel.source, "speed.s", symbols(a.hw_config, &cfg, &lay));
  if (!assembled.ok) throw std::runtime_error("the baseline kernel does not assemble");
  auto image = tasks::make_dram_image(lay, tasks::make_inputs(cfg, 1));
  image.resize(lay.total_bytes, 0);
  constexpr uint64_t kCap = 2'000'000'000;

  // SystemC: the full testbench (accelerator module, TLM DRAM target, host) as every eval uses it.
  RunJob job;
  job.config = a.hw_config;
  job.program = assembled.words;
  job.dram = image;
  job.timing = tb::DramTiming{p.dram_latency, p.dram_bytes_per_cycle};
  job.cycle_cap = kCap;
  // Bare: the same Verilated configuration driven from a plain C++ loop with the same DRAM model.
  auto bare = make_vliw_hw(a.hw_config);

  std::vector<double> sc_rates, bare_rates;
  uint64_t cycles = 0;
  for (unsigned r = 0; r < std::max(1u, a.repeats); ++r) {
    auto t0 = std::chrono::steady_clock::now();
    const RunResult result = simulate(job);
    const double sc = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    cycles = result.cycles;
    sc_rates.push_back(static_cast<double>(result.cycles) / sc);

    t0 = std::chrono::steady_clock::now();
    const RtlRun b = run_on_rtl(*bare, p, assembled.words, image, kCap);
    const double bt = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    if (b.cycles != result.cycles) {
      throw std::runtime_error(
          fmt::format("bare run took {} cycles, SystemC run {}", b.cycles, result.cycles));
    }
    bare_rates.push_back(static_cast<double>(b.cycles) / bt);
  }
  auto median = [](std::vector<double> v) {
    std::sort(v.begin(), v.end());
    return v[v.size() / 2];
  };
  const double sc = median(sc_rates), bt = median(bare_rates);
  CommandReport report;
  report.json = {{"workload", a.task + " " + a.config + " baseline"},
                 {"hw_config", a.hw_config},
                 {"cycles", cycles},
                 {"systemc_cycles_per_second", sc},
                 {"bare_cycles_per_second", bt},
                 {"ratio", sc / bt},
                 {"repeats", a.repeats}};
  report.text = fmt::format("workload: {} {} baseline on {}/{}, {} cycles per run, median of {} runs\n",
                            a.task, a.config, kName, a.hw_config, cycles, a.repeats);
  report.text += fmt::format("  SystemC testbench : {:>10.0f} cycles/s\n", sc);
  report.text += fmt::format("  bare Verilator    : {:>10.0f} cycles/s\n", bt);
  report.text += fmt::format("  ratio SystemC/bare: {:.3f}  (target >= 0.9)\n", sc / bt);
  return report;
}

}  // namespace kcraft::vliw
