#include "tb/systolic/systolic_platform.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <chrono>
#include <cmath>
#include <map>
#include <stdexcept>

#include "isa/common/disassembler.h"
#include "isa/systolic/systolic_iss.h"
#include "systolic_isa.h"
#include "tasks/common/baseline_compiler.h"
#include "tasks/common/inputs.h"
#include "tasks/golden/golden.h"
#include "tasks/systolic/template_compiler.h"
#include "tb/common/counter_view.h"
#include "tb/common/evaluation_steps.h"
#include "tb/common/paths.h"
#include "tb/systolic/systolic_sim.h"
#include "tb/systolic/systolic_timing.h"

namespace kcraft::systolic {

namespace {

std::string upper(std::string s) {
  for (auto& c : s) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return s;
}

constexpr uint64_t kDramGranule = 4096;

uint64_t round_up(uint64_t v, uint64_t g) {
  return (v + g - 1) / g * g;
}

std::string disasm(uint32_t word) {
  return isa::disassemble(isa::systolic::spec(), word);
}

// A DMA instruction's dram_out_of_range error carries [addr, addr + (count-1)*stride + ROW_BYTES) computed
// in 64 bits from the unsigned 32-bit stride register, so the stride is recoverable when count > 1. A
// stride of 2^31 or more is a negative number in the register: DMA strides are unsigned (the hardware has
// no negative strides), so say that instead of leaving an address beyond 4 GiB to be puzzled over.
std::string negative_stride_note(const MachineError& e, const Params& p, uint32_t word) {
  namespace sy = isa::systolic;
  if (e.code != ErrorCode::kDramRange) return "";
  const auto op = static_cast<sy::Op>(sy::extract(word, sy::kOpcode));
  if (op != sy::Op::H_LOAD_V && op != sy::Op::H_LOAD_M && op != sy::Op::H_STORE_V) return "";
  const uint64_t count = sy::extract(word, sy::kImm13);
  const uint64_t row_bytes = p.row_bytes();
  if (count < 2 || e.hi < e.lo + row_bytes || (e.hi - e.lo - row_bytes) % (count - 1) != 0) return "";
  const uint64_t stride = (e.hi - e.lo - row_bytes) / (count - 1);
  if (stride < (uint64_t{1} << 31) || stride > 0xFFFFFFFFu) return "";
  return fmt::format(
      "; the stride r{} = {} is negative: DMA strides are unsigned byte distances and must be >= 0 (the "
      "register's 32 bits are read as {}), so there is no walking DRAM backwards with one DMA",
      sy::extract(word, sy::kRs2), static_cast<int64_t>(stride) - (int64_t{1} << 32), stride);
}

}  // namespace

std::string runtime_error_text(const MachineError& e, const Params& p, const std::string& filename,
                               const isa::AssembleResult& program) {
  const uint32_t word = e.pc < program.words.size() ? program.words[e.pc] : 0;
  const int line = e.pc < program.word_lines.size() ? program.word_lines[e.pc] : 0;
  return fmt::format("{} at pc {} ({}:{}: {}): {}{}", error_name(e.code), e.pc, filename, line, disasm(word),
                     e.describe(p), negative_stride_note(e, p, word));
}

HangDiagnosis hang_diagnosis(const HangReport& h, uint64_t cycle_cap, const std::string& filename,
                             const isa::AssembleResult& program) {
  const int line = h.pc < program.word_lines.size() ? program.word_lines[h.pc] : 0;
  HangDiagnosis out;
  out.detail = fmt::format(
      "cycle cap {} reached at pc {} ({}:{}: {}), issue stage: {}\n"
      "units: vector {}, matrix {}, special functions {}, DMA {}{}; {} active hardware loop(s)\n",
      cycle_cap, h.pc, filename, line, disasm(h.insn), stall_cause_name(h.stall_cause),
      h.vector_busy ? "busy" : "idle", h.matrix_busy ? "busy" : "idle", h.sfu_busy ? "busy" : "idle",
      h.dma_busy ? "busy" : "idle",
      h.dma_busy ? fmt::format(" (command from pc {} has {} rows left)", h.dma_pc, h.dma_rows_left) : "",
      h.loop_depth);
  out.headline = fmt::format("no C_HALT within {} cycles (pc {})", cycle_cap, h.pc);
  return out;
}

namespace {
void add_attainable_bound(IdealCycles& ideal, const tasks::ResolvedConfig& cfg, const HwConfig& c);
}  // namespace

SystolicPlatform::SystolicPlatform()
    : IsaSpecPlatform(kName, isa::systolic::spec(), isa::systolic::isa_markdown()) {
  for (const auto& c : hw_configs()) (void)Params::from_config(c);  // validate every file up front
  announce_systemc_world();
}

Params SystolicPlatform::params(const std::string& name) const {
  return Params::from_config(hw_config(name));
}

std::unique_ptr<Platform> make_systolic_platform() {
  return std::make_unique<SystolicPlatform>();
}

std::string SystolicPlatform::summary() const {
  return "tensor NPU: systolic array + vector unit + scalar unit + DMA (BF16 in DRAM)";
}

uint64_t SystolicPlatform::program_capacity(const std::string& hw) const {
  return params(hw).imem_words;
}

std::unique_ptr<tasks::BaselineCompiler> SystolicPlatform::baseline_compiler(const std::string& hw) const {
  return std::make_unique<TemplateCompiler>(params(hw));
}

std::string SystolicPlatform::unsupported_reason(const tasks::ResolvedConfig& cfg,
                                                 const std::string& hw) const {
  const Params p = params(hw);
  // Tensors move as rows of VLEN elements; counts (heads, batch, kernel taps, CAUSAL) need not be multiples.
  for (const auto* list : {&cfg.inputs, &cfg.outputs}) {
    for (const auto& t : *list) {
      if (!t.shape.empty() && t.shape.back() % p.vlen != 0) {
        return fmt::format("tensor {} has rows of {} elements, not a multiple of the row width VLEN={}",
                           t.name, t.shape.back(), p.vlen);
      }
    }
  }
  const auto lay = layout(cfg);
  const auto dram_bytes = static_cast<uint64_t>(hw_config(hw).runtime_param("dram_bytes"));
  if (lay.total_bytes > dram_bytes) {
    return fmt::format("the task needs {} bytes of DRAM, the configuration has {}", lay.total_bytes,
                       dram_bytes);
  }
  return "";
}

tasks::DramLayout SystolicPlatform::layout(const tasks::ResolvedConfig& cfg) const {
  auto lay = tasks::compute_layout(cfg, 64);
  lay.total_bytes = round_up(lay.total_bytes, kDramGranule);
  return lay;
}

isa::SymbolTable SystolicPlatform::symbols(const std::string& hw, const tasks::ResolvedConfig* cfg,
                                           const tasks::DramLayout* lay) const {
  const HwConfig& c = hw_config(hw);
  isa::SymbolTable s;
  for (const auto& [key, value] : c.build) s[key] = value;
  s["DRAM_LATENCY"] = static_cast<int64_t>(c.runtime_param("dram_latency_cycles"));
  s["DRAM_BYTES_PER_CYCLE"] = static_cast<int64_t>(c.runtime_param("dram_bytes_per_cycle"));
  s["ROW_BYTES"] = 2 * c.build_param("VLEN");
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

IdealCycles SystolicPlatform::ideal_cycles(const tasks::ResolvedConfig& cfg, const std::string& hw) const {
  const HwConfig& c = hw_config(hw);
  const Params p = Params::from_config(c);
  IdealCycles ideal;
  double bytes = 0;
  for (const auto& t : cfg.inputs) bytes += 2.0 * static_cast<double>(t.elements);
  for (const auto& t : cfg.outputs) bytes += 2.0 * static_cast<double>(t.elements);
  ideal.dram = bytes / c.runtime_param("dram_bytes_per_cycle");
  ideal.matrix = cfg.essential_macs / (static_cast<double>(p.mlen) * p.mlen);
  // The vector unit's peak: VLEN lanes, each doing up to two flops per instruction (the fused ones:
  // V_RED_DOT multiplies and adds, V_EXP_VF subtracts and exponentiates). Anything less would not be a
  // lower bound on the cycles.
  ideal.vector = std::max(0.0, cfg.essential_flops - 2.0 * cfg.essential_macs) / (2.0 * p.vlen);
  add_attainable_bound(ideal, cfg, c);
  return ideal;
}

namespace {

// The fewest MLEN x MLEN weight tiles a kernel must load into the array: per matrix product the smaller
// operand's tile count (a kernel may hold either one stationary); 0 when the task has no product priced.
double systolic_weight_tiles(const tasks::ResolvedConfig& cfg, unsigned mlen) {
  const auto tiles = [&](double rows, double cols) {
    return std::ceil(rows / mlen) * std::ceil(cols / mlen);
  };
  const auto product = [&](double m, double k, double n) { return std::min(tiles(k, n), tiles(k, m)); };
  const auto d = [&](const char* name) { return static_cast<double>(cfg.dim(name)); };
  const std::string& t = cfg.task;
  if (t == "gemm" || t == "linear") return tiles(d("K"), d("N"));
  if (t == "batch_matmul") return d("BATCH") * product(d("M"), d("K"), d("N"));
  // Attention: S K^T and P V per key/value head; the query heads sharing one stream through its tiles.
  if (t == "attention" || t == "flash_attention") return 2 * product(d("S"), d("D"), d("S"));
  if (t == "mha") return d("HEADS") * 2 * product(d("S"), d("D"), d("S"));
  if (t == "mqa") return 2 * product(d("HEADS") * d("S"), d("D"), d("S"));
  if (t == "gqa") return d("KV_HEADS") * 2 * product(d("HEADS") / d("KV_HEADS") * d("S"), d("D"), d("S"));
  if (t == "conv2d" || t == "conv_block") {  // im2col: (OH*OW) x (KH*KW*C) patches times the filters
    const double oh = std::floor((d("H") + 2 * d("PAD") - d("KH")) / d("STRIDE")) + 1;
    const double ow = std::floor((d("W") + 2 * d("PAD") - d("KW")) / d("STRIDE")) + 1;
    return product(oh * ow, d("KH") * d("KW") * d("C"), d("F"));
  }
  if (t == "ffn") return product(d("M"), d("D"), d("F")) + product(d("M"), d("F"), d("D"));
  if (t == "swiglu") return 2 * product(d("M"), d("D"), d("F")) + product(d("M"), d("F"), d("D"));
  return 0;
}

// The floors docs/systolic.md ("Timing model", "Bounds") describes, on top of the roofline. Each term is
// something every correct kernel must do, so the result stays a lower bound (tests check that no
// baseline or tuned kernel beats it).
void add_attainable_bound(IdealCycles& ideal, const tasks::ResolvedConfig& cfg, const HwConfig& c) {
  const Params p = Params::from_config(c);
  TimingModel tm;
  tm.p = p;
  tm.dram_latency = static_cast<uint64_t>(c.runtime_param("dram_latency_cycles"));
  tm.dram_bytes_per_cycle = static_cast<uint64_t>(c.runtime_param("dram_bytes_per_cycle"));
  const double latency = static_cast<double>(tm.dram_latency);
  const double row_bytes = p.row_bytes();
  double rows_in = 0, rows_out = 0;
  for (const auto& t : cfg.inputs) rows_in += std::ceil(2.0 * static_cast<double>(t.elements) / row_bytes);
  for (const auto& t : cfg.outputs) rows_out += std::ceil(2.0 * static_cast<double>(t.elements) / row_bytes);

  struct Floor {
    double cycles;
    std::string bound, why;
  };
  std::vector<Floor> floors;
  floors.push_back({ideal.total(), ideal.bound(), "the roofline"});
  // DRAM: every row crosses at the DMA engine's sustained rate; the last answer comes a latency later.
  floors.push_back({(rows_in + rows_out) / tm.rows_per_cycle() + latency, "dram",
                    fmt::format("{:.0f} DRAM rows at {:.2f} rows/cycle + one DRAM latency",
                                rows_in + rows_out, tm.rows_per_cycle())});
  // Vector passes: instructions each VLEN-element row of the output needs (one per cycle), between the
  // first input's arrival and the last result's store. The vector unit has no fused multiply-add (only
  // V_EXP_VF's subtract and V_RED_DOT's multiply-sum, and on hardware with it V_MUL_VFV's two multiplies),
  // so each operation below is an instruction.
  const bool vfv = p.has_v_mul_vfv;
  const auto vector_passes = [&]() -> std::pair<double, std::string> {
    if (cfg.task == "relu") return {1, "V_MAX_VF"};
    if (cfg.task == "silu") return {4, "exp, +1, reciprocal, times x: no instruction fuses two of them"};
    if (cfg.task == "softmax") return {3, "exp, sum, scale (4 with the usual maximum pass)"};
    if (cfg.task == "rms_norm" && vfv) return {2, "sum of squares, times 1/rms and gamma (V_MUL_VFV)"};
    if (cfg.task == "rms_norm") return {3, "sum of squares, times 1/rms, times gamma"};
    if (cfg.task == "layer_norm" && vfv)
      return {
          5,
          "sum, minus the mean, sum of squares (V_RED_DOT), times 1/sigma and gamma (V_MUL_VFV), plus beta"};
    if (cfg.task == "layer_norm")
      return {6, "sum, minus the mean, sum of squares (V_RED_DOT), times 1/sigma, times gamma, plus beta"};
    if (cfg.task == "gelu")
      return {8,
              "x*x, times c, plus 1, times x (the tanh's scale folded into the constants), exp, +1, "
              "reciprocal, times x"};
    if (cfg.task == "rope") return {3, "x times cos, its rotated half times sin, the sum"};
    // No row for depthwise_conv: its taps can run on the matrix unit as diagonal weight tiles (the
    // template does), so the vector unit need not do them.
    if (cfg.task == "linear") return {1, "the bias add"};
    return {0, ""};
  }();
  if (vector_passes.first > 0 && !cfg.outputs.empty()) {
    const double rows = std::ceil(static_cast<double>(cfg.outputs.front().elements) / p.vlen);
    floors.push_back({2 * latency + vector_passes.first * rows, "vector",
                      fmt::format("{:.0f} vector instruction(s) per output row ({}) x {:.0f} rows + a DRAM "
                                  "latency at each end",
                                  vector_passes.first, vector_passes.second, rows)});
  }
  // Matrix: per weight tile an M_LDW (MLEN + 2 cycles) and, after the first, the wait for the previous
  // tile's rows to leave the array; streaming one row per cycle; the M_WOs (BLEN rows in BLEN cycles)
  // can hide in those waits but not in streaming or loading. Before: the first tile's weights arrive.
  // After: the last rows cross the array, are written out and stored. A kernel loads every weight tile
  // at least once: the stationary operand's MLEN x MLEN tiles (either operand of a product can be).
  const double weight_tiles = systolic_weight_tiles(cfg, p.mlen);
  if (cfg.essential_macs > 0 && weight_tiles > 0) {
    const double mlen = p.mlen;
    const double stream = cfg.essential_macs / (mlen * mlen);
    // Each output row of MLEN values of a plain product leaves the accumulators in one M_WO cycle.
    const double wo = (cfg.task == "gemm" || cfg.task == "linear") ? rows_out : 0.0;
    const double before = latency + mlen / tm.rows_per_cycle();
    const double after = 2 * mlen + p.blen + latency;
    const double waits = std::max((weight_tiles - 1) * static_cast<double>(tm.array_drain()), wo);
    floors.push_back(
        {before + stream + weight_tiles * static_cast<double>(tm.ldw_cycles()) + waits + after, "matrix",
         fmt::format("{:.0f} weight tiles x M_LDW {} + {:.0f} array drains x {} + {:.0f} rows streamed "
                     "+ the first weights' load and the last rows' store",
                     weight_tiles, tm.ldw_cycles(), weight_tiles - 1, tm.array_drain(), stream)});
  }
  const auto best = std::max_element(floors.begin(), floors.end(),
                                     [](const Floor& a, const Floor& b) { return a.cycles < b.cycles; });
  ideal.attainable = std::ceil(best->cycles);
  ideal.attainable_bound = best->bound;
  ideal.attainable_why = best->bound + "-bound: " + best->why;
}

}  // namespace

std::string SystolicPlatform::describe_counters(const EvalReport& r) const {
  const tb::CounterView value(r);
  auto pct = [&](const char* name) { return value.percent_of_cycles(name); };
  std::string text = fmt::format(
      "busy: vector {:.1f}%  matrix {:.1f}% (array active {:.1f}%)  DMA {:.1f}%  special functions {:.1f}%\n",
      pct("vector_busy"), pct("matrix_busy"), pct("array_active"), pct("dma_busy"), pct("sfu_busy"));
  text += fmt::format(
      "issue stalls: dependency {:.1f}%  FP register pending {:.1f}%  unit busy {:.1f}%  halt/fence drain "
      "{:.1f}%\n",
      pct("stall_dependency"), pct("stall_fp_pending"), pct("stall_unit_busy"), pct("stall_drain"));
  text += fmt::format("instructions {} (control {}, scalar {}, vector {}, matrix {}, DMA {})\n",
                      value("instructions"), value("instr_control"), value("instr_scalar"),
                      value("instr_vector"), value("instr_matrix"), value("instr_dma"));
  text +=
      fmt::format("DRAM bytes read {} written {}; MACs {}; vector elements {}\n", value("dram_bytes_read"),
                  value("dram_bytes_written"), value("macs"), value("vector_elements"));
  return text;
}

EvalReport SystolicPlatform::evaluate(const EvalRequest& req, const tasks::TaskRegistry& registry) const {
  const auto t_start = std::chrono::steady_clock::now();
  EvalReport r;
  // Unused DRAM reads as 0xFF: a kernel that reads outside its inputs sees garbage, not zeros.
  const auto prepared = tb::prepare_run(*this, req, registry, systolic_hw_configs, 0xFF, r);
  if (!prepared) return r;
  const isa::AssembleResult& asm_result = prepared->program;
  const RunJob& job = prepared->job;
  const std::vector<uint8_t>& image = job.dram;
  const Params p = Params::from_config(*prepared->hw);
  RunResult run;
  try {
    run = run_on_rtl(job);
  } catch (const std::exception& e) {
    return tb::finish(r, Verdict::kHardwareBug, std::string("the simulation failed: ") + e.what(), t_start);
  }
  std::vector<CounterValue> counters;
  for (unsigned i = 0; i < kNumCounters; ++i) counters.push_back({counter_name(i), run.counters[i]});
  tb::record_run(r, run, std::move(counters), [](uint32_t, uint32_t word) { return disasm(word); });

  // ---- functional model: same program, same data, everything must agree
  if (req.check_model) {
    Iss iss(p);
    iss.reset(asm_result.words);
    std::vector<uint8_t> iss_dram = image;
    const uint64_t cap = run.stop == RunResult::Stop::kTimeout ? run.counters[kInstructions] : job.cycle_cap;
    const auto iss_result = iss.run(iss_dram, cap);
    std::string diff;
    if (run.stop == RunResult::Stop::kTimeout) {
      if (iss_result.stop != Iss::Stop::kInstructionCap) {
        diff = fmt::format(
            "the RTL hit the cycle cap after {} instructions, the functional model stopped "
            "after {} ({})",
            run.counters[kInstructions], iss_result.instructions,
            iss_result.stop == Iss::Stop::kHalted ? "halted" : "error");
      }
    } else {
      MachineState model_state = iss.state();
      if (auto d = run.state.first_difference(model_state, p)) diff = "RTL vs model: " + *d;
      if (diff.empty() && run.dram != iss_dram) {
        for (size_t i = 0; i < run.dram.size(); ++i) {
          if (run.dram[i] != iss_dram[i]) {
            diff = fmt::format("DRAM byte 0x{:x}: RTL 0x{:02x}, model 0x{:02x}", i, run.dram[i], iss_dram[i]);
            break;
          }
        }
      }
      for (unsigned c = 0; c < kNumCounters && diff.empty(); ++c) {
        if (counter_is_architectural(c) && run.counters[c] != iss.counters()[c]) {
          diff = fmt::format("counter {}: RTL {}, model {}", counter_name(c), run.counters[c],
                             iss.counters()[c]);
        }
      }
    }
    r.model_check = diff.empty() ? "agree" : diff;
    if (!diff.empty()) {
      return tb::finish(
          r, Verdict::kHardwareBug,
          "the RTL and the functional model disagree (a hardware bug, not the kernel's fault): " + diff,
          t_start);
    }
  } else {
    r.model_check = "skipped";
  }

  // ---- how the run ended
  if (run.stop == RunResult::Stop::kError) {
    r.error_pc = run.error.pc;
    r.runtime_error = runtime_error_text(run.error, p, req.filename, asm_result);
    return tb::finish(r, Verdict::kRuntimeError, r.runtime_error, t_start);
  }
  if (run.stop == RunResult::Stop::kTimeout) {
    r.error_pc = run.hang.pc;
    HangDiagnosis hang = hang_diagnosis(run.hang, job.cycle_cap, req.filename, asm_result);
    r.hang = std::move(hang.detail);
    return tb::finish(r, Verdict::kTimeout, std::move(hang.headline), t_start);
  }
  return tb::judge_outputs(
      r, *prepared, run,
      [&](uint32_t pc) { return disasm(pc < asm_result.words.size() ? asm_result.words[pc] : 0); }, t_start);
}

}  // namespace kcraft::systolic
