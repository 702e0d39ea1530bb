// The systolic NPU's hardware-team commands (tb/common/platform.h): `kcraft validate systolic`, a random
// differential campaign of the RTL against the functional model, and `kcraft speed systolic`, simulated
// cycles per second through the SystemC testbench against the bare Verilated model.
#include <stdexcept>

#include "isa/common/disassembler.h"
#include "isa/systolic/random_program.h"
#include "systolic_isa.h"
#include "tasks/common/inputs.h"
#include "tasks/systolic/template_compiler.h"
#include "tb/common/campaigns.h"
#include "tb/common/dram_model.h"
#include "tb/systolic/systolic_coverage.h"
#include "tb/systolic/systolic_diff.h"
#include "tb/systolic/systolic_hw.h"
#include "tb/systolic/systolic_platform.h"
#include "tb/systolic/systolic_regs.h"
#include "tb/systolic/systolic_sim.h"

namespace kcraft::systolic {

CommandReport SystolicPlatform::validate(const ValidationOptions& a) const {
  const auto p = params(a.hw_config);
  const RandomProgramOptions options = steered_random_options(a.length, a.focus);
  tb::CampaignWording wording;
  wording.agreed_on = "every register, SRAM, accumulator, weight, DRAM byte, error and architectural counter";
  return tb::run_validation_campaign(kName, a, wording, [&](uint64_t seed) {
    const auto prog = random_program(p, seed, options);
    const auto outcome = compare_rtl_and_model(a.hw_config, prog.words, prog.dram);
    tb::CampaignStep step;
    step.words = prog.words;
    step.cycles = outcome.cycles;
    step.issued = outcome.instructions;
    step.faulted = outcome.halted_with_error;
    if (outcome.divergence) {
      const auto& d = *outcome.divergence;
      step.divergence = tb::CampaignDivergence{d.pc, d.instruction, d.what};
      step.listing = disassemble(prog.words);
    }
    return step;
  });
}

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
  tb::DramModelPort port(dram);
  return tb::run_speed_comparison(
      kName, a, 0.7, [&] { return run_on_rtl(job).cycles; },
      [&] {
        dram.load(image);
        bare->start(assembled.words, image.size());
        while (!bare->stopped()) bare->run_cycles(1'000'000, port);
        (void)bare->counters();
        return bare->cycle();
      });
}

}  // namespace kcraft::systolic
