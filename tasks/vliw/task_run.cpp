#include "tasks/vliw/task_run.h"

#include <cctype>
#include <exception>

#include <fmt/format.h>

#include "tasks/common/inputs.h"
#include "tasks/golden/golden.h"

namespace kcraft::vliw {

namespace {

std::string upper(const std::string& s) {
  std::string out = s;
  for (auto& c : out) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return out;
}

}  // namespace

tasks::DramLayout task_layout(const tasks::ResolvedConfig& cfg) {
  return tasks::compute_layout(cfg, 64);
}

isa::SymbolTable task_symbols(const Params& p, const tasks::ResolvedConfig& cfg,
                              const tasks::DramLayout& layout) {
  isa::SymbolTable s = p.symbols();
  for (const auto& [name, value] : cfg.dims) s[name] = value;
  for (const auto& r : layout.regions) {
    s["ADDR_" + upper(r.name)] = static_cast<int64_t>(r.address);
    s["BYTES_" + upper(r.name)] = static_cast<int64_t>(r.bytes);
  }
  s["DRAM_BYTES"] = static_cast<int64_t>(layout.total_bytes);
  return s;
}

TaskRun run_task_program(const Params& p, const std::vector<uint32_t>& words, const tasks::TaskSpec& spec,
                         const std::string& config, uint64_t seed, uint64_t max_cycles) {
  TaskRun run;
  try {
    const tasks::ResolvedConfig cfg = spec.resolve(config, tasks::DType::bf16);
    const tasks::DramLayout layout = task_layout(cfg);
    const auto inputs = tasks::make_inputs(cfg, seed);
    std::vector<uint8_t> dram = tasks::make_dram_image(layout, inputs);
    Iss iss(p);
    iss.reset(words);
    run.ran = true;
    run.result = iss.run(dram, max_cycles);
    run.counters = iss.counters();
    run.error = iss.state().error;
    if (run.result.stop == Iss::Stop::kError) {
      run.message = run.error.describe(p);
    } else if (run.result.stop == Iss::Stop::kCycleCap) {
      run.message = fmt::format("no C_HALT within {} cycles", max_cycles);
    }
    run.outputs = tasks::read_outputs(layout, dram);
    const auto refs = tasks::compute_reference(cfg, spec.golden, inputs);
    run.compare = tasks::compare_outputs(cfg, run.outputs, refs);
  } catch (const std::exception& e) {
    run.message = e.what();
  }
  return run;
}

TaskRun run_task_kernel(const Params& p, const std::string& source, const tasks::TaskSpec& spec,
                        const std::string& config, uint64_t seed, uint64_t max_cycles) {
  const tasks::ResolvedConfig cfg = spec.resolve(config, tasks::DType::bf16);
  const tasks::DramLayout layout = task_layout(cfg);
  isa::AssembleResult a = isa::assemble(isa::vliw::spec(), source, "kernel.s", task_symbols(p, cfg, layout));
  if (!a.ok) {
    TaskRun run;
    run.message = isa::format_diagnostics(a, source);
    run.assembled = std::move(a);
    return run;
  }
  TaskRun run = run_task_program(p, a.words, spec, config, seed, max_cycles);
  run.assembled = std::move(a);
  return run;
}

}  // namespace kcraft::vliw
