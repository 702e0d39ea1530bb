#include "tb/vliw/vliw_campaigns.h"

#include <stdexcept>

#include "isa/common/disassembler.h"
#include "isa/vliw/random_program.h"
#include "tasks/common/inputs.h"
#include "tasks/vliw/task_run.h"
#include "tasks/vliw/template_compiler.h"
#include "tb/common/campaigns.h"
#include "tb/vliw/vliw_coverage.h"
#include "tb/vliw/vliw_diff.h"
#include "tb/vliw/vliw_platform.h"
#include "tb/vliw/vliw_sim.h"

namespace kcraft::vliw {

CommandReport validate_random_programs(const ValidationOptions& a) {
  auto hw = make_vliw_hw(a.hw_config);
  const Params p = rtl_params_with_timing(*hw);
  const RandomProgramOptions options = steered_random_options(a.length, a.focus);
  tb::CampaignWording wording;
  wording.unit = "bundle";
  wording.agreed_on =
      "every register, accumulator, DM and DRAM byte, lock, error and counter, cycle for cycle";
  return tb::run_validation_campaign(VliwPlatform::kName, a, wording, [&](uint64_t seed) {
    const RandomProgram prog = random_program(p, seed, options);
    const DiffOutcome outcome = compare_rtl_and_model(*hw, p, prog.words, prog.dram);
    tb::CampaignStep step;
    step.words = prog.words;
    step.cycles = outcome.cycles;
    step.issued = outcome.bundles;
    step.faulted = outcome.faulted;
    if (outcome.divergence) {
      const Divergence& d = *outcome.divergence;
      step.divergence = tb::CampaignDivergence{d.pc, d.bundle, d.what};
      step.listing = prog.source;
    }
    return step;
  });
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
  return tb::run_speed_comparison(
      kName, a, 0.9, [&] { return simulate(job).cycles; },
      [&] { return run_on_rtl(*bare, p, assembled.words, image, kCap).cycles; });
}

}  // namespace kcraft::vliw
