#include "tb/common/evaluation_steps.h"

#include <algorithm>
#include <iostream>

#include <fmt/format.h>

#include "isa/common/assembler.h"
#include "tasks/common/inputs.h"
#include "tasks/common/layout.h"
#include "tasks/golden/golden.h"
#include "tb/common/hw_variants.h"
#include "tb/common/variant_build.h"

namespace kcraft::tb {

namespace {

double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

}  // namespace

EvalReport& finish(EvalReport& r, Verdict verdict, std::string headline,
                   std::chrono::steady_clock::time_point start) {
  r.verdict = verdict;
  r.headline = std::move(headline);
  r.wall_seconds = seconds_since(start);
  return r;
}

uint64_t default_cycle_cap(const tasks::ResolvedConfig& cfg) {
  uint64_t bytes = 0;
  for (const auto& t : cfg.inputs) bytes += static_cast<uint64_t>(t.elements) * 2;
  for (const auto& t : cfg.outputs) bytes += static_cast<uint64_t>(t.elements) * 2;
  return 1'000'000 + 16 * bytes + 4 * static_cast<uint64_t>(cfg.flops);
}

std::optional<PreparedRun> prepare_run(const Platform& platform, const EvalRequest& req,
                                       const tasks::TaskRegistry& registry, const LinkedConfigs& linked,
                                       uint8_t fill, EvalReport& r) {
  const auto start = std::chrono::steady_clock::now();
  r.platform = platform.name();
  r.hw_config = req.hw_config;
  r.task = req.task;
  r.config = req.config;
  r.seed = req.seed;
  PreparedRun k;

  // ---- the request
  try {
    k.spec = &registry.get(req.task);  // an unknown name gets the did-you-mean message
    k.cfg = k.spec->resolve(req.config, platform.dtype());
    k.hw = &platform.hw_config(req.hw_config);
  } catch (const std::exception& e) {
    finish(r, Verdict::kInputError, e.what(), start);
    return std::nullopt;
  }
  if (auto why = platform.unsupported_reason(k.cfg, req.hw_config); !why.empty()) {
    finish(r, Verdict::kInputError,
           fmt::format("{} {} is not supported on {}/{}: {}", req.task, req.config, platform.name(),
                       req.hw_config, why),
           start);
    return std::nullopt;
  }
  k.layout = platform.layout(k.cfg);
  for (const auto& phase : k.cfg.phases) r.phases.push_back(PhaseCycles{phase.name, 0, 0});
  r.ideal = platform.ideal_cycles(k.cfg, req.hw_config);

  // ---- build: every diagnostic with line:column, in the language of the file's extension
  try {
    (void)platform.language_of_file(req.filename);
  } catch (const std::invalid_argument& e) {
    finish(r, Verdict::kInputError, e.what(), start);
    return std::nullopt;
  }
  k.program = platform.assemble(req.source, req.filename, platform.symbols(req.hw_config, &k.cfg, &k.layout));
  r.cacheable = k.program.reproducible;
  r.errors = k.program.error_count();
  r.warnings = k.program.warning_count();
  r.instruction_count = k.program.instruction_count();
  if (!k.program.diagnostics.empty()) r.diagnostics = isa::format_diagnostics(k.program, req.source);
  if (!k.program.ok) {
    finish(r, Verdict::kBuildError,
           fmt::format("{} error(s), {} warning(s) while assembling", r.errors, r.warnings), start);
    return std::nullopt;
  }
  const uint64_t capacity = platform.program_capacity(req.hw_config);
  if (k.program.words.size() > capacity) {
    finish(r, Verdict::kBuildError,
           fmt::format("the program has {} words but IMEM_WORDS is {}", k.program.words.size(), capacity),
           start);
    return std::nullopt;
  }
  // A configuration not compiled into this binary gets its model built on first use. One that still has
  // none (the fuzz build links no model and cannot build one) cannot run: say so before computing inputs
  // and references.
  auto models = linked();
  if (std::find(models.begin(), models.end(), req.hw_config) == models.end()) {
    try {
      if (ensure_hw_model(platform.name(), req.hw_config, std::cerr)) models = linked();
    } catch (const VariantBuildError& e) {
      finish(r, Verdict::kInputError, e.what(), start);
      return std::nullopt;
    } catch (const std::invalid_argument&) {
      // no build information: the message below says what to do
    }
  }
  if (std::find(models.begin(), models.end(), req.hw_config) == models.end()) {
    finish(r, Verdict::kInputError,
           fmt::format("{}/{} has no Verilated model in this binary (rebuild kcraft)", platform.name(),
                       req.hw_config),
           start);
    return std::nullopt;
  }

  // ---- inputs, the golden reference and the job
  RunJob& job = k.job;
  try {
    const auto inputs = tasks::make_inputs(k.cfg, req.seed);
    k.references = tasks::compute_reference(k.cfg, k.spec->golden, inputs);
    job.dram = tasks::make_dram_image(k.layout, inputs);
    job.dram.resize(k.layout.total_bytes, fill);
  } catch (const std::exception& e) {
    finish(r, Verdict::kInputError, e.what(), start);
    return std::nullopt;
  }
  job.config = req.hw_config;
  job.program = k.program.words;
  for (const auto& [begin, end] : k.layout.writable_ranges())
    job.writable.push_back(DramRegion{begin, end, ""});
  for (const tasks::DramRegion* marker : k.layout.phase_markers())
    job.phase_markers.push_back(DramRegion{marker->address, marker->end(), marker->name});
  job.timing.latency_cycles = static_cast<uint64_t>(k.hw->runtime_param("dram_latency_cycles"));
  job.timing.bytes_per_cycle = static_cast<uint64_t>(k.hw->runtime_param("dram_bytes_per_cycle"));
  job.clock_mhz = k.hw->runtime_param("clock_mhz", 1000);
  job.cycle_cap = effective_cycle_cap(req, default_cycle_cap(k.cfg));
  job.waveform_path = req.waveform_path;
  job.instruction_trace = req.instruction_trace;
  job.timeline = req.timeline;
  job.timeline_title =
      fmt::format("{} {} on {}/{} (seed {})", req.task, req.config, platform.name(), req.hw_config, req.seed);
  job.read_state = req.check_model;
  return k;
}

void record_run(EvalReport& r, const RunOutcome& run, std::vector<CounterValue> counters,
                const std::function<std::string(uint32_t pc, uint32_t word)>& describe) {
  r.cycles = run.cycles;
  r.timeline = run.timeline;
  r.counters = std::move(counters);
  split_cycles_by_phase(r.phases, run.phase_marks, run.cycles, r.unmarked_cycles);
  const double cycles = static_cast<double>(run.cycles);
  r.utilization = run.cycles > 0 ? r.ideal.total() / cycles : 0.0;
  r.attainable_utilization = run.cycles > 0 ? r.ideal.attainable / cycles : 0.0;
  for (const auto& t : run.trace)
    r.trace.push_back(
        fmt::format("{:>10}  {:>5}  {:08x}  {}", t.cycle, t.pc, t.word, describe(t.pc, t.word)));
}

EvalReport& judge_outputs(EvalReport& r, const PreparedRun& k, const RunOutcome& run,
                          const std::function<std::string(uint32_t pc)>& describe,
                          std::chrono::steady_clock::time_point start) {
  if (!run.violations.empty()) {
    const auto& v = run.violations.front();
    std::string where = "outside every region";
    for (const auto& region : k.layout.regions) {
      if (v.addr < region.end() && v.addr + v.bytes > region.address) {
        where = fmt::format("into {} '{}' [0x{:x}, 0x{:x})", tasks::region_kind_name(region.kind),
                            region.name, region.address, region.end());
        break;
      }
    }
    r.error_pc = v.pc;
    r.runtime_error = fmt::format(
        "forbidden DRAM write of {} bytes at 0x{:x} {} by pc {} ({}); {} such write(s) in all. Kernels may "
        "write only the outputs and scratch",
        v.bytes, v.addr, where, v.pc, describe(v.pc), run.violations.size());
    return finish(r, Verdict::kRuntimeError, r.runtime_error, start);
  }
  const auto outputs = tasks::read_outputs(k.layout, run.dram);
  r.compare = tasks::compare_outputs(k.cfg, outputs, k.references);
  if (r.compare->pass) {
    return finish(
        r, Verdict::kPass,
        fmt::format("{} cycles; {} ({}-bound); attainable bound {:.0f} cycles", r.cycles,
                    share_of_cycles("ideal", r.ideal.total(), r.cycles), r.ideal.bound(), r.ideal.attainable),
        start);
  }
  double within = 0, count = 0;
  for (const auto& o : r.compare->outputs) {
    within += static_cast<double>(o.within);
    count += static_cast<double>(o.count);
  }
  return finish(r, Verdict::kMismatch,
                fmt::format("{} cycles, {:.2f}% of elements within tolerance", r.cycles,
                            count > 0 ? 100.0 * within / count : 0.0),
                start);
}

}  // namespace kcraft::tb
