// The systolic NPU's hardware-team commands (tb/common/platform.h): `kcraft validate systolic`, a random
// differential campaign of the RTL against the functional model, and `kcraft speed systolic`, simulated
// cycles per second through the SystemC testbench against the bare Verilated model.
#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <stdexcept>

#include "isa/common/disassembler.h"
#include "isa/systolic/random_program.h"
#include "systolic_isa.h"
#include "tasks/common/inputs.h"
#include "tasks/systolic/template_compiler.h"
#include "tb/common/dram_model.h"
#include "tb/systolic/systolic_diff.h"
#include "tb/systolic/systolic_hw.h"
#include "tb/systolic/systolic_platform.h"
#include "tb/systolic/systolic_regs.h"
#include "tb/systolic/systolic_sim.h"

namespace kcraft::systolic {

CommandReport SystolicPlatform::validate(const ValidationOptions& a) const {
  const auto p = params(a.hw_config);
  RandomProgramOptions options;
  options.length = a.length;
  uint64_t cycles = 0, instructions = 0, faulted = 0;
  const auto t0 = std::chrono::steady_clock::now();
  CommandReport report;
  for (uint64_t i = 0; i < a.programs; ++i) {
    const uint64_t seed = a.seed + i;
    auto prog = random_program(p, seed, options);
    auto outcome = compare_rtl_and_model(a.hw_config, prog.words, prog.dram);
    cycles += outcome.cycles;
    instructions += outcome.instructions;
    faulted += outcome.halted_with_error ? 1 : 0;
    if (outcome.divergence) {
      const auto& d = *outcome.divergence;
      nlohmann::json words = nlohmann::json::array();
      for (auto w : prog.words) words.push_back(w);
      report.ok = false;
      report.json = {{"result", "divergence"},       {"program_seed", seed}, {"pc", d.pc},
                     {"instruction", d.instruction}, {"difference", d.what}, {"program", words}};
      report.text =
          fmt::format("DIVERGENCE in random program seed {} ({} instructions)\n", seed, prog.words.size());
      report.text += fmt::format("first diverging instruction: pc {}: {}\n", d.pc, d.instruction);
      report.text += fmt::format("state difference (RTL vs model): {}\n", d.what);
      report.text += fmt::format("reproduce: kcraft validate {} --hw {} --seed {} --programs 1 --length {}\n",
                                 kName, a.hw_config, seed, a.length);
      report.text += "program:\n" + disassemble(prog.words);
      return report;
    }
  }
  const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  report.json = {{"result", "agree"},    {"programs", a.programs},       {"faulting_programs", faulted},
                 {"rtl_cycles", cycles}, {"instructions", instructions}, {"seconds", wall}};
  report.text = fmt::format(
      "{} random programs (seeds {}..{}, {} instructions executed, {} RTL cycles, {} ending in a "
      "deliberate "
      "fault): RTL and functional model agree on every register, SRAM, accumulator, weight, DRAM byte, "
      "error and architectural counter ({:.1f} s)\n",
      a.programs, a.seed, a.seed + a.programs - 1, instructions, cycles, faulted, wall);
  return report;
}

namespace {

class BarePort : public MemoryPort {
 public:
  explicit BarePort(tb::DramModel& dram) : dram_(dram) {}
  uint64_t access(bool write, uint64_t addr, uint8_t* data, unsigned len, uint64_t cycle,
                  uint32_t pc) override {
    return dram_.access(write, addr, data, len, cycle, pc);
  }

 private:
  tb::DramModel& dram_;
};

}  // namespace

CommandReport SystolicPlatform::speed(const SpeedOptions& a, const tasks::TaskRegistry& registry) const {
  const HwConfig& hw = hw_config(a.hw_config);
  auto cfg = registry.get(a.task).resolve(a.config, kDType);
  auto lay = layout(cfg);
  TemplateCompiler compiler(params(a.hw_config));
  auto kernel = compiler.generate(cfg, lay);
  auto assembled = assemble(kernel.source, "speed.s", symbols(a.hw_config, &cfg, &lay));
  if (!assembled.ok) throw std::runtime_error("baseline kernel does not assemble");
  auto image = tasks::make_dram_image(lay, tasks::make_inputs(cfg, 1));
  image.resize(lay.total_bytes, 0xFF);
  tb::DramTiming timing{static_cast<uint64_t>(hw.runtime_param("dram_latency_cycles")),
                        static_cast<uint64_t>(hw.runtime_param("dram_bytes_per_cycle"))};

  // SystemC: the full testbench (accelerator module, TLM DRAM target, host) as every eval uses it.
  RunJob job;
  job.config = a.hw_config;
  job.program = assembled.words;
  job.dram = image;
  job.timing = timing;
  // Bare: the same Verilated configuration driven from a plain C++ loop with the same DRAM model.
  auto bare = make_systolic_hw(a.hw_config);
  tb::DramModel dram;
  dram.configure(timing);
  BarePort port(dram);

  std::vector<double> sc_rates, bare_rates;
  uint64_t cycles = 0;
  for (unsigned r = 0; r < a.repeats; ++r) {
    auto t0 = std::chrono::steady_clock::now();
    auto result = run_on_rtl(job);
    double sc = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    cycles = result.cycles;
    sc_rates.push_back(static_cast<double>(result.cycles) / sc);

    t0 = std::chrono::steady_clock::now();
    dram.load(image);
    bare->reset_and_clear();
    bare->load_program(assembled.words);
    bare->ctl_write(regs::kCtlDramBytes, static_cast<uint32_t>(image.size()));
    bare->ctl_write(regs::kCtlStart, 1);
    while (!bare->halted()) bare->run_cycles(1'000'000, port);
    (void)bare->counters();
    double bt = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    if (bare->cycle() != result.cycles) {
      throw std::runtime_error(
          fmt::format("bare run took {} cycles, SystemC run {}", bare->cycle(), result.cycles));
    }
    bare_rates.push_back(static_cast<double>(bare->cycle()) / bt);
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
  report.text += fmt::format("  ratio SystemC/bare: {:.3f}  (target >= 0.7)\n", sc / bt);
  return report;
}

}  // namespace kcraft::systolic
