#include "tb/myaccel/myaccel_platform.h"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <map>

#include "isa/common/disassembler.h"
#include "isa/myaccel/myaccel_iss.h"
#include "tasks/myaccel/baseline_compiler.h"
#include "tb/common/counter_view.h"
#include "tb/common/evaluation_steps.h"
#include "tb/myaccel/myaccel_sim.h"

namespace kcraft::myaccel {

namespace {

std::string upper(std::string s) {
  for (auto& c : s) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return s;
}

}  // namespace

std::string instruction_text(const std::vector<uint32_t>& words, uint32_t pc) {
  return pc < words.size() ? isa::disassemble(isa::myaccel::spec(), words[pc]) : std::string();
}

MyaccelPlatform::MyaccelPlatform()
    : IsaSpecPlatform(kName, isa::myaccel::spec(), isa::myaccel::isa_markdown()) {
  for (const auto& c : hw_configs()) (void)Params::from_config(c);  // validate every file up front
  announce_systemc_world();
}

std::unique_ptr<Platform> make_myaccel_platform() {
  return std::make_unique<MyaccelPlatform>();
}

Params MyaccelPlatform::params(const std::string& hw) const {
  return Params::from_config(hw_config(hw));
}

std::string MyaccelPlatform::summary() const {
  // TEAM: one line on what your accelerator is.
  return "minimal vector accelerator (the platform scaffold): one instruction at a time, LANES FP32 lanes, "
         "row loads and stores from DRAM (FP32 in DRAM)";
}

uint64_t MyaccelPlatform::program_capacity(const std::string& hw) const {
  return params(hw).imem_words;
}

isa::SymbolTable MyaccelPlatform::symbols(const std::string& hw, const tasks::ResolvedConfig* cfg,
                                          const tasks::DramLayout* lay) const {
  isa::SymbolTable s = params(hw).symbols();
  if (cfg != nullptr) {
    for (const auto& [name, value] : cfg->dims) s[name] = value;
  }
  if (lay != nullptr) {
    for (const auto& r : lay->regions) {
      s["ADDR_" + upper(r.name)] = static_cast<int64_t>(r.address);
      s["BYTES_" + upper(r.name)] = static_cast<int64_t>(r.bytes);
    }
    s["DRAM_BYTES"] = static_cast<int64_t>(lay->total_bytes);
  }
  return s;
}

std::unique_ptr<tasks::BaselineCompiler> MyaccelPlatform::baseline_compiler(const std::string& hw) const {
  return std::make_unique<BaselineCompiler>(params(hw));
}

std::string MyaccelPlatform::unsupported_reason(const tasks::ResolvedConfig& cfg,
                                                const std::string& hw) const {
  // TEAM: widen this as your kernels (and your hardware) grow.
  const BaselineCompiler compiler(params(hw));
  if (!compiler.supports(cfg.task)) {
    return fmt::format("the myaccel scaffold runs relu and gemm only (no baseline kernel for {})", cfg.task);
  }
  if (cfg.config != "C1" && cfg.config != "C2") {
    return fmt::format(
        "the myaccel scaffold runs C1-C2 only: one row per DRAM round trip makes {} {} take millions of "
        "cycles",
        cfg.task, cfg.config);
  }
  return compiler.unsupported_reason(cfg);
}

tasks::DramLayout MyaccelPlatform::layout(const tasks::ResolvedConfig& cfg) const {
  return tasks::compute_layout(cfg, 64);
}

IdealCycles MyaccelPlatform::ideal_cycles(const tasks::ResolvedConfig& cfg, const std::string& hw) const {
  const Params p = params(hw);
  IdealCycles ideal;
  double bytes = 0;
  for (const auto& t : cfg.inputs) bytes += 4.0 * static_cast<double>(t.elements);
  for (const auto& t : cfg.outputs) bytes += 4.0 * static_cast<double>(t.elements);
  ideal.dram = bytes / p.dram_bytes_per_cycle;
  // One VADD, VMUL or VMAX per cycle, LANES lanes, one flop each (no fused multiply-add).
  ideal.vector = cfg.essential_flops / p.lanes;
  // The attainable bound: one instruction at a time, so every DRAM row moved costs a whole round trip
  // (memory_cycles()), and the vector work adds to it. Inputs read once and outputs written once is the
  // least a kernel can move.
  const double rows = std::ceil(bytes / p.row_bytes());
  ideal.attainable = rows * p.memory_cycles() + std::ceil(ideal.vector);
  ideal.attainable_bound = "dram";
  ideal.attainable_why =
      fmt::format("dram-bound: {:.0f} rows moved one at a time, {} cycles each, + {:.0f} vector instructions",
                  rows, p.memory_cycles(), std::ceil(ideal.vector));
  return ideal;
}

std::string MyaccelPlatform::describe_counters(const EvalReport& r) const {
  const tb::CounterView c(r);
  return fmt::format(
      "instructions {} in {} cycles; waiting for DRAM {:.1f}% of the cycles\nDRAM bytes read {} written {}; "
      "FP32 lane operations {}\n",
      c("instructions"), r.cycles, c.percent_of_cycles("stall_dram"), c("dram_bytes_read"),
      c("dram_bytes_written"), c("lane_ops"));
}

EvalReport MyaccelPlatform::evaluate(const EvalRequest& req, const tasks::TaskRegistry& registry) const {
  const auto t_start = std::chrono::steady_clock::now();
  EvalReport r;
  auto finish = [&](Verdict verdict, std::string headline) {
    return tb::finish(r, verdict, std::move(headline), t_start);
  };
  const auto prepared = tb::prepare_run(*this, req, registry, myaccel_hw_configs, 0, r);
  if (!prepared) return r;
  const isa::AssembleResult& program = prepared->program;
  const RunJob& job = prepared->job;
  const Params p = Params::from_config(*prepared->hw);
  RunResult run;
  try {
    run = simulate(job);
  } catch (const std::exception& e) {
    return finish(Verdict::kHardwareBug, std::string("the simulation failed: ") + e.what());
  }
  std::vector<CounterValue> counters;
  for (unsigned i = 0; i < kNumCounters; ++i) counters.push_back({counter_name(i), run.counters[i]});
  tb::record_run(r, run, std::move(counters),
                 [&](uint32_t pc, uint32_t) { return instruction_text(program.words, pc); });

  // The functional model's twin run: same program, same data; everything must agree, cycle for cycle.
  if (req.check_model) {
    Iss iss(p);
    iss.reset(program.words);
    std::vector<uint8_t> model_dram = job.dram;
    const Iss::Result model = iss.run(model_dram, job.cycle_cap);
    const auto diff = compare_with_model(run, iss, model, model_dram, job.cycle_cap);
    r.model_check = diff ? *diff : "agree";
    if (diff) {
      return finish(
          Verdict::kHardwareBug,
          "the RTL and the functional model disagree (a hardware bug, not the kernel's fault): " + *diff);
    }
  } else {
    r.model_check = "skipped";
  }

  auto where = [&](uint32_t pc) {
    const int line = pc < program.word_lines.size() ? program.word_lines[pc] : 0;
    return fmt::format("pc {} ({}:{}: {})", pc, req.filename, line, instruction_text(program.words, pc));
  };
  if (run.timed_out) {
    r.error_pc = run.hang_pc;
    r.hang = fmt::format("cycle cap {} reached at {}\n", job.cycle_cap, where(run.hang_pc));
    return finish(Verdict::kTimeout,
                  fmt::format("no HALT within {} cycles ({})", job.cycle_cap, where(run.hang_pc)));
  }
  if (run.state.error.code != ErrorCode::kNone) {
    r.error_pc = run.state.error.pc;
    r.runtime_error = fmt::format("{} at {}: {}", error_name(run.state.error.code), where(run.state.error.pc),
                                  run.state.error.describe());
    return finish(Verdict::kRuntimeError, r.runtime_error);
  }
  return tb::judge_outputs(
      r, *prepared, run, [&](uint32_t pc) { return instruction_text(program.words, pc); }, t_start);
}

}  // namespace kcraft::myaccel
