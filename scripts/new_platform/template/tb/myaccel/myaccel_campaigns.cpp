// `kcraft validate myaccel` and `kcraft speed myaccel` on the shared loops of tb/common/campaigns.h.
#include <stdexcept>

#include "isa/myaccel/random_program.h"
#include "tasks/common/inputs.h"
#include "tasks/myaccel/baseline_compiler.h"
#include "tb/common/campaigns.h"
#include "tb/myaccel/myaccel_platform.h"
#include "tb/myaccel/myaccel_sim.h"

namespace kcraft::myaccel {

CommandReport MyaccelPlatform::validate(const ValidationOptions& a) const {
  (void)hw_config(a.hw_config);  // an unknown name lists the known ones
  auto hw = make_myaccel_hw(a.hw_config);
  const Params p = rtl_params_with_timing(*hw);
  constexpr uint64_t kCap = 10'000'000;
  tb::CampaignWording wording;
  wording.unit = "instruction";
  wording.agreed_on = "every register, DRAM byte, error and counter, cycle for cycle";
  return tb::run_validation_campaign(kName, a, wording, [&](uint64_t seed) {
    const RandomProgram prog = random_program(p, seed, a.length);
    const RunResult rtl = run_on_rtl(*hw, p, prog.words, prog.dram, kCap);
    Iss iss(p);
    iss.reset(prog.words);
    std::vector<uint8_t> model_dram = prog.dram;
    const Iss::Result model = iss.run(model_dram, kCap);
    tb::CampaignStep step;
    step.words = prog.words;
    step.cycles = rtl.cycles;
    step.issued = rtl.counters[kInstructions];
    step.faulted = rtl.state.error.code != ErrorCode::kNone;
    if (auto diff = compare_with_model(rtl, iss, model, model_dram, kCap)) {
      // TEAM: a bisection to the first diverging instruction (tb/vliw/vliw_diff.cpp) helps once programs
      // grow; here the report names the program and the difference.
      step.divergence =
          tb::CampaignDivergence{rtl.state.pc, instruction_text(prog.words, rtl.state.pc), *diff};
      step.listing = prog.source;
    }
    return step;
  });
}

CommandReport MyaccelPlatform::speed(const SpeedOptions& a, const tasks::TaskRegistry& registry) const {
  const Params p = params(a.hw_config);
  const auto cfg = registry.get(a.task).resolve(a.config, kDType);
  if (const std::string why = unsupported_reason(cfg, a.hw_config); !why.empty())
    throw std::invalid_argument(why);
  const auto lay = layout(cfg);
  const auto kernel = BaselineCompiler(p).generate(cfg, lay);
  const auto assembled = assemble(kernel.source, "speed.s", symbols(a.hw_config, &cfg, &lay));
  if (!assembled.ok) throw std::runtime_error("the baseline kernel does not assemble");
  auto image = tasks::make_dram_image(lay, tasks::make_inputs(cfg, 1));
  image.resize(lay.total_bytes, 0);
  constexpr uint64_t kCap = 2'000'000'000;
  RunJob job;
  job.config = a.hw_config;
  job.program = assembled.words;
  job.dram = image;
  job.timing = tb::DramTiming{p.dram_latency, p.dram_bytes_per_cycle};
  job.cycle_cap = kCap;
  auto bare = make_myaccel_hw(a.hw_config);
  return tb::run_speed_comparison(
      kName, a, 0.9, [&] { return simulate(job).cycles; },
      [&] { return run_on_rtl(*bare, p, assembled.words, image, kCap).cycles; });
}

std::vector<SpeedWorkload> MyaccelPlatform::speed_workloads() const {
  return {{"gemm", "C2"}, {"relu", "C2"}};
}

}  // namespace kcraft::myaccel
