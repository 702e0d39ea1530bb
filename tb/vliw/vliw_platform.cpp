#include "tb/vliw/vliw_platform.h"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <map>
#include <stdexcept>

#include "isa/common/bundle.h"
#include "isa/common/disassembler.h"
#include "isa/vliw/vliw_iss.h"
#include "tasks/common/baseline_compiler.h"
#include "tasks/common/inputs.h"
#include "tasks/golden/golden.h"
#include "tasks/vliw/task_run.h"
#include "tasks/vliw/template_compiler.h"
#include "tb/common/counter_view.h"
#include "tb/common/evaluation_steps.h"
#include "tb/common/paths.h"
#include "tb/vliw/vliw_diff.h"
#include "tb/vliw/vliw_sim.h"

namespace kcraft::vliw {

namespace {

double element_bytes(const tasks::ResolvedConfig& cfg) {
  double bytes = 0;
  for (const auto& t : cfg.inputs) bytes += 2.0 * static_cast<double>(t.elements);
  for (const auto& t : cfg.outputs) bytes += 2.0 * static_cast<double>(t.elements);
  return bytes;
}

}  // namespace

std::string bundle_text(const std::vector<uint32_t>& words, uint32_t pc) {
  const isa::IsaSpec& spec = isa::vliw::spec();
  for (const auto& b : isa::split_bundles(spec, words)) {
    if (b.first != pc) continue;
    std::string text;
    for (size_t k = 0; k < b.count; ++k)
      text += (k == 0 ? "" : " ; ") + isa::disassemble(spec, words[b.first + k]);
    return b.count > 1 ? "{ " + text + " }" : text;
  }
  return pc < words.size() ? isa::disassemble(spec, words[pc]) : std::string();
}

std::string runtime_error_text(const MachineError& e, const Params& p, const std::string& filename,
                               const isa::AssembleResult& program) {
  const int line = e.pc < program.word_lines.size() ? program.word_lines[e.pc] : 0;
  return fmt::format("{} at pc {} ({}:{}: {}): {}", error_name(e.code), e.pc, filename, line,
                     bundle_text(program.words, e.pc), e.describe(p));
}

HangDiagnosis hang_diagnosis(const HangReport& h, uint64_t cycle_cap, const std::string& filename,
                             const isa::AssembleResult& program) {
  const std::string bundle = bundle_text(program.words, h.pc);
  std::string waiting;
  if (h.stall_cause == static_cast<unsigned>(StallCause::kLockWait)) {
    // The lock C_ACQ waits on: its operand in the bundle's control op.
    std::string lock = "?";
    const auto at = bundle.find("C_ACQ ");
    if (at != std::string::npos) {
      const auto end = bundle.find_first_of(" ;}", at + 6);
      lock = bundle.substr(at + 6, end == std::string::npos ? std::string::npos : end - (at + 6));
    }
    waiting = fmt::format(
        "the control slot waits in C_ACQ for lock {} (at 0){}", lock,
        h.dma_busy_channels == 0
            ? "; no DMA transfer is queued or in flight, so nothing will release it: a lock deadlock"
            : fmt::format("; DMA channels busy (mask 0x{:x}, {} DRAM rows in flight)", h.dma_busy_channels,
                          h.dma_rows_in_flight));
  } else {
    const char* cause = "unknown";
    for (const auto& c : kStallCauses) {
      if (static_cast<unsigned>(c.code) == h.stall_cause) cause = c.name;
    }
    waiting = fmt::format("issue stage: {}", cause);
  }
  std::string locks;
  for (unsigned l = 0; l < kLocks; ++l) locks += fmt::format("{}{}", l == 0 ? "" : " ", h.locks[l]);
  const int line = h.pc < program.word_lines.size() ? program.word_lines[h.pc] : 0;
  HangDiagnosis out;
  out.detail = fmt::format(
      "cycle cap {} reached at pc {} ({}:{}: {})\n{}\nlocks 0..{}: {}; {} active hardware loop(s)\n",
      cycle_cap, h.pc, filename, line, bundle, waiting, kLocks - 1, locks, h.loop_depth);
  out.headline = fmt::format("no C_HALT within {} cycles (pc {}): {}", cycle_cap, h.pc, waiting);
  return out;
}

VliwPlatform::VliwPlatform() : IsaSpecPlatform(kName, isa::vliw::spec(), isa::vliw::isa_markdown()) {
  for (const auto& c : hw_configs()) (void)Params::from_config(c);  // validate every file up front
  announce_systemc_world();
}

std::unique_ptr<Platform> make_vliw_platform() {
  return std::make_unique<VliwPlatform>();
}

Params VliwPlatform::params(const std::string& hw) const {
  return Params::from_config(hw_config(hw));
}

std::string VliwPlatform::summary() const {
  return "VLIW SIMD tile: 2 load/store + vector + scalar + control slots, exposed pipeline, banked DM, DMA "
         "with locks (BF16 in DRAM)";
}

uint64_t VliwPlatform::program_capacity(const std::string& hw) const {
  return params(hw).imem_words;
}

isa::SymbolTable VliwPlatform::symbols(const std::string& hw, const tasks::ResolvedConfig* cfg,
                                       const tasks::DramLayout* lay) const {
  const Params p = params(hw);
  if (cfg != nullptr && lay != nullptr) return task_symbols(p, *cfg, *lay);
  isa::SymbolTable s = p.symbols();
  if (cfg != nullptr) {
    for (const auto& [name, value] : cfg->dims) s[name] = value;
  }
  return s;
}

std::unique_ptr<tasks::BaselineCompiler> VliwPlatform::baseline_compiler(const std::string& hw) const {
  return std::make_unique<TemplateCompiler>(params(hw));
}

std::string VliwPlatform::unsupported_reason(const tasks::ResolvedConfig& cfg, const std::string& hw) const {
  const Params p = params(hw);
  if (auto why = vector_dims_reason(cfg, p.vlen); !why.empty()) return why;
  const auto dram_bytes = static_cast<uint64_t>(hw_config(hw).runtime_param("dram_bytes"));
  if (const auto lay = layout(cfg); lay.total_bytes > dram_bytes) {
    return fmt::format("the task needs {} bytes of DRAM, the configuration has {}", lay.total_bytes,
                       dram_bytes);
  }
  // Where the template compiler has a template it knows the DM and IMEM limits; what it refuses is not
  // offered as supported (it reads the configuration file, so this holds whether or not the model is built).
  // Tasks without a template stay open to hand-written kernels.
  const TemplateCompiler compiler(p);
  if (compiler.supports(cfg.task)) return compiler.unsupported_reason(cfg);
  return "";
}

tasks::DramLayout VliwPlatform::layout(const tasks::ResolvedConfig& cfg) const {
  return task_layout(cfg);
}

namespace {

// The vector-slot ops every VLEN-element output vector of an element-wise task needs, and which: FP32 work
// runs on accumulators (A_UPS in, V_SRS out), one operation per op except A_VMAC's multiply-add on BF16
// operands (docs/vliw.md, "Bounds"). {0, ""} where the flops alone price the task.
std::pair<double, std::string> vliw_vector_ops(const tasks::ResolvedConfig& cfg, double vlen) {
  const std::string& t = cfg.task;
  if (t == "relu") return {1, "V_MAX on the BF16 vector"};
  if (t == "silu") return {6, "A_UPS, A_EXP, +1, A_RECI, times x, V_SRS"};
  if (t == "gelu")
    return {10,
            "A_UPS, x*x, times c, plus 1, times x (the tanh's scale in the constants), A_EXP, +1, "
            "A_RECI, times x, V_SRS"};
  if (t == "softmax") return {7, "the maximum, A_UPS, minus it, A_EXP, the sum, times 1/sum, V_SRS"};
  if (t == "layer_norm")
    return {8,
            "A_UPS, the sum, minus the mean, the sum of squares, times 1/sigma, times gamma, plus beta, "
            "V_SRS"};
  if (t == "rms_norm")
    return {4, "the sum of squares (A_VMAC), gamma times 1/rms, x times that (A_VMUL on BF16), V_SRS"};
  if (t == "rope")
    return {4, "the pair swap (V_SHUF), x times cos, plus the swapped times sin (A_VMAC), V_SRS"};
  if (t == "gemv") {  // a dot product per output element, reduced across the lanes
    const double per_element = std::ceil(static_cast<double>(cfg.dim("K")) / vlen) + 1;
    return {vlen * per_element,
            fmt::format("per output element {:.0f} A_VMACs over K and an A_RSUM", per_element - 1)};
  }
  if (t == "depthwise_conv") {
    const double taps = static_cast<double>(cfg.dim("KH") * cfg.dim("KW"));
    return {taps + 1, fmt::format("{:.0f} A_VMACs, V_SRS", taps)};
  }
  return {0, ""};
}

}  // namespace

IdealCycles VliwPlatform::ideal_cycles(const tasks::ResolvedConfig& cfg, const std::string& hw) const {
  const Params p = params(hw);
  IdealCycles ideal;
  ideal.dram = element_bytes(cfg) / p.dram_bytes_per_cycle;
  // The vector slot's peak: A_MMUL/A_MMAC, MMUL_M x MMUL_K x MMUL_N MACs per bundle.
  ideal.matrix = cfg.essential_macs / static_cast<double>(p.mmul_m() * p.mmul_k() * p.mmul_n());
  // Everything else on the vector slot: VLEN lanes, at most two flops each per bundle (the fused ops).
  ideal.vector = std::max(0.0, cfg.essential_flops - 2.0 * cfg.essential_macs) / (2.0 * p.vlen);
  // The attainable bound (docs/vliw.md, "Bounds"). The matrix products and the element-wise work issue on
  // the same vector slot, one op per bundle, so their bundles add up; for the element-wise tasks, the ops
  // every VLEN-element output vector needs; no unit starts before the first input row is back from DRAM.
  const auto [per_vector, ops] = vliw_vector_ops(cfg, p.vlen);
  const double out_vectors =
      cfg.outputs.empty() ? 0.0 : std::ceil(static_cast<double>(cfg.outputs.front().elements) / p.vlen);
  const double slot = std::max(ideal.matrix + ideal.vector, per_vector * out_vectors);
  // DRAM rows stream one behind the other, so the channel's floor pays one latency; the slot's work sits
  // between the first input row's arrival and the last output row's write, which the halt waits for.
  const double latency = p.dram_latency;
  const bool dram_bound = ideal.dram + latency >= slot + 2 * latency;
  ideal.attainable = std::ceil(dram_bound ? ideal.dram + latency : slot + 2 * latency);
  const bool by_ops = per_vector * out_vectors >= ideal.matrix + ideal.vector;
  ideal.attainable_bound = dram_bound ? "dram" : !by_ops && ideal.matrix > ideal.vector ? "matrix" : "vector";
  std::string slot_why =
      by_ops ? fmt::format("{:.0f} vector-slot ops per output vector ({}) x {:.0f} vectors", per_vector, ops,
                           out_vectors)
             : fmt::format(
                   "the vector slot's matrix bundles ({:.0f}) and element-wise bundles ({:.0f}) one "
                   "after the other",
                   ideal.matrix, ideal.vector);
  ideal.attainable_why = fmt::format(
      "{}-bound: DRAM {:.0f} cycles + one DRAM latency ({}); {} = {:.0f} + two DRAM latencies (the first "
      "input row's, the last output row's)",
      ideal.attainable_bound, ideal.dram, p.dram_latency, slot_why, slot);
  return ideal;
}

std::string VliwPlatform::describe_counters(const EvalReport& r) const {
  const tb::CounterView value(r);
  const double bundles = std::max(1.0, value.as_double("bundles"));
  auto pct = [&](const char* name) { return value.percent_of_cycles(name); };
  auto occ = [&](const char* name) { return 100.0 * value.as_double(name) / bundles; };
  std::string text =
      fmt::format("bundles issued {} in {} cycles ({:.1f}%); ops {} ({:.2f} per bundle)\n", value("bundles"),
                  r.cycles, pct("bundles"), value("ops"), value.as_double("ops") / bundles);
  text += fmt::format(
      "slot occupancy (of bundles): ls0 {:.1f}%  ls1 {:.1f}%  vec {:.1f}%  scl {:.1f}%  ctl {:.1f}%\n",
      occ("ops_ls0"), occ("ops_ls1"), occ("ops_vec"), occ("ops_scl"), occ("ops_ctl"));
  text += fmt::format(
      "stalls (of cycles): bank conflict {:.1f}%  lock wait {:.1f}%  DMA queue full {:.1f}%  halt drain "
      "{:.1f}%; DMA busy {:.1f}%\n",
      pct("stall_bank_conflict"), pct("stall_lock_wait"), pct("stall_dma_queue"), pct("stall_drain"),
      pct("dma_busy"));
  text += fmt::format("DRAM bytes read {} written {}; MACs {}\n", value("dram_bytes_read"),
                      value("dram_bytes_written"), value("macs"));
  return text;
}

EvalReport VliwPlatform::evaluate(const EvalRequest& req, const tasks::TaskRegistry& registry) const {
  const auto t_start = std::chrono::steady_clock::now();
  EvalReport r;
  auto finish = [&](Verdict verdict, std::string headline) {
    return tb::finish(r, verdict, std::move(headline), t_start);
  };
  const auto prepared = tb::prepare_run(*this, req, registry, vliw_hw_configs, 0, r);
  if (!prepared) return r;
  const isa::AssembleResult& asm_result = prepared->program;
  const RunJob& job = prepared->job;
  const std::vector<uint8_t>& image = job.dram;
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
                 [&](uint32_t pc, uint32_t) { return bundle_text(asm_result.words, pc); });
  // ---- the functional model's twin run: same program, same data, everything must agree cycle for cycle
  if (req.check_model) {
    Iss iss(p);
    iss.reset(asm_result.words);
    std::vector<uint8_t> model_dram = image;
    const Iss::Result model = iss.run(model_dram, job.cycle_cap);
    std::string diff;
    const bool rtl_capped = run.stop == RunResult::Stop::kTimeout;
    const bool model_capped = model.stop == Iss::Stop::kCycleCap;
    if (rtl_capped != model_capped) {
      diff = rtl_capped ? fmt::format(
                              "the RTL hit the cycle cap of {}, the functional model stopped after {} "
                              "cycles",
                              job.cycle_cap, model.cycles)
                        : fmt::format(
                              "the RTL stopped after {} cycles, the functional model ran into the cap "
                              "of {}",
                              run.cycles, job.cycle_cap);
    } else if (!rtl_capped) {
      RtlRun rtl;
      rtl.cycles = run.cycles;
      rtl.counters = run.counters;
      rtl.state = run.state;
      rtl.dram = run.dram;
      if (auto d = compare_runs(rtl, iss, model_dram)) diff = "RTL vs model: " + *d;
    }
    r.model_check = diff.empty() ? "agree" : diff;
    if (!diff.empty()) {
      return finish(
          Verdict::kHardwareBug,
          "the RTL and the functional model disagree (a hardware bug, not the kernel's fault): " + diff);
    }
  } else {
    r.model_check = "skipped";
  }

  // ---- how the run ended
  if (run.stop == RunResult::Stop::kStopped && run.state.error.code != ErrorCode::kNone) {
    r.error_pc = run.state.error.pc;
    r.runtime_error = runtime_error_text(run.state.error, p, req.filename, asm_result);
    return finish(Verdict::kRuntimeError, r.runtime_error);
  }
  if (run.stop == RunResult::Stop::kTimeout) {
    r.error_pc = run.hang.pc;
    HangDiagnosis hang = hang_diagnosis(run.hang, job.cycle_cap, req.filename, asm_result);
    r.hang = std::move(hang.detail);
    return finish(Verdict::kTimeout, std::move(hang.headline));
  }
  return tb::judge_outputs(
      r, *prepared, run, [&](uint32_t pc) { return bundle_text(asm_result.words, pc); }, t_start);
}

}  // namespace kcraft::vliw
