#include "tb/rvv/rvv_platform.h"

#include <cctype>

#include <fmt/format.h>

#include <csignal>

#include <algorithm>
#include <any>
#include <chrono>
#include <cmath>
#include <map>
#include <optional>
#include <stdexcept>

#include "isa/rvv/isa_reference.h"
#include "isa/rvv/rvv_memory_map.h"
#include "isa/rvv/toolchain.h"
#include "tasks/common/baseline_compiler.h"
#include "tasks/rvv/baseline_compiler.h"
#include "tasks/rvv/symbols.h"
#include "tb/common/counter_view.h"
#include "tb/common/evaluation_steps.h"
#include "tb/common/paths.h"
#include "tb/rvv/rvv_diff.h"
#include "tb/rvv/rvv_disasm.h"
#include "tb/rvv/rvv_sim.h"
#include "tb/rvv/rvv_subset.h"

namespace kcraft::rvv {

namespace {

std::function<void(RunResult&)>& qemu_result_hook() {
  static std::function<void(RunResult&)> hook;
  return hook;
}

// What each parameter means for a kernel writer (hw_parameters(), the agents' hardware document).
const std::map<std::string, std::string>& parameter_descriptions() {
  static const std::map<std::string, std::string> d = {
      {"VLEN", "bits per vector register (vlenb = VLEN / 8 bytes); VLMAX = LMUL * VLEN / SEW"},
      {"LANES", "32-bit vector lanes: a vector instruction takes about VLEN * LMUL / (32 * LANES) cycles"},
      {"ITCM_BYTES", "instruction memory: code (crt0 and the kernel) at 0x00000000"},
      {"DTCM_BYTES", "data memory at 0x00010000: .rodata/.data/.bss, the stack, one-cycle loads and stores"},
      {"DCACHE_BYTES",
       "direct-mapped write-through data cache for scalar and vector DRAM accesses (lines of VLEN / 8 bytes; "
       "a whole-row store allocates)"},
      {"WRITE_BUFFER", "posted DRAM store rows (scalar and vector) in flight before a store waits"},
      {"DRAM_OUTSTANDING", "DRAM requests (rows) in flight at once"},
      {"DIV_BITS_PER_CYCLE", "integer divide: 32 / this + 2 cycles"},
      {"FDIV_BITS_PER_CYCLE", "fdiv.s/fsqrt.s: ceil(28 / this) + 1 cycles"},
      {"VECTOR_QUEUE",
       "vector instructions issued by the core and not yet started; the memory and arithmetic engines run "
       "one "
       "each at a time, overlapping when they share no written register"},
      {"DRAM_LATENCY", "cycles from a DRAM request to its data"},
      {"DRAM_BYTES_PER_CYCLE", "DRAM channel bandwidth; one row (VLEN / 8 bytes) per request"},
  };
  return d;
}

std::string describe_parameter(const std::string& name) {
  const auto& d = parameter_descriptions();
  const auto it = d.find(name);
  return it == d.end() ? std::string() : it->second;
}

double io_bytes(const tasks::ResolvedConfig& cfg) {
  double bytes = 0;
  for (const auto& t : cfg.inputs) bytes += 4.0 * static_cast<double>(t.elements);
  for (const auto& t : cfg.outputs) bytes += 4.0 * static_cast<double>(t.elements);
  return bytes;
}

int vlen_of(const isa::SymbolTable& symbols) {
  const auto it = symbols.find("VLEN");
  return it == symbols.end() ? 128 : static_cast<int>(it->second);
}

isa::Diagnostic to_diagnostic(const ToolDiagnostic& d, const std::string& kernel_file) {
  isa::Diagnostic out;
  out.severity = d.severity;
  out.message = d.message;
  if (d.file == kernel_file) {
    out.line = d.line;
    out.column = d.column;
  } else if (!d.file.empty()) {
    // Another file of the build (the symbols header, crt0): its position goes into the message, so the
    // kernel's own lines are never pointed at wrongly.
    out.message = fmt::format("{}{}{}: {}", d.file, d.line > 0 ? fmt::format(":{}", d.line) : "",
                              d.column > 0 ? fmt::format(":{}", d.column) : "", d.message);
  }
  return out;
}

std::string end_of_qemu(const RunResult& q) {
  std::string s = std::string(run_end_name(q.end));
  if (q.end == RunEnd::kTrapped) {
    s = q.signal_name;
    if (q.pc) s += fmt::format(" at pc 0x{:x}", *q.pc);
    if (q.fault_address) s += fmt::format(" (address 0x{:08x})", *q.fault_address);
  }
  if (!q.message.empty()) s += ": " + q.message;
  return s;
}

// QEMU itself failed (an assertion or crash of the emulator, not a trap of the guest): QEMU 7.2 aborts on
// vfcvt.rtz.x(u).f.v, for one. Its first message, or "" when it was the guest's trap.
std::string qemu_own_failure(const RunResult& q) {
  if (q.end != RunEnd::kTrapped || q.signal != SIGABRT || q.pc) return "";
  const auto at = q.qemu_stderr.find("qemu-riscv32: ");
  if (at == std::string::npos) return "";
  const auto end = q.qemu_stderr.find('\n', at);
  return q.qemu_stderr.substr(at, end == std::string::npos ? std::string::npos : end - at);
}

}  // namespace

uint64_t default_cycle_cap(const tasks::ResolvedConfig& cfg) {
  return tb::default_cycle_cap(cfg) + 20 * static_cast<uint64_t>(cfg.flops);
}

void set_qemu_result_hook(std::function<void(RunResult&)> hook) {
  qemu_result_hook() = std::move(hook);
}

void apply_qemu_result_hook(RunResult& result) {
  if (qemu_result_hook()) qemu_result_hook()(result);
}

Params params_from_config(const HwConfig& c) {
  Params p;
  p.vlen = static_cast<unsigned>(c.build_param("VLEN"));
  p.lanes = static_cast<unsigned>(c.build_param("LANES"));
  p.itcm_bytes = static_cast<unsigned>(c.build_param("ITCM_BYTES"));
  p.dtcm_bytes = static_cast<unsigned>(c.build_param("DTCM_BYTES"));
  p.dcache_bytes = static_cast<unsigned>(c.build_param("DCACHE_BYTES"));
  p.imem_words = p.itcm_bytes / 4;
  p.dram_latency = static_cast<unsigned>(c.runtime_param("dram_latency_cycles"));
  p.dram_bytes_per_cycle = static_cast<unsigned>(c.runtime_param("dram_bytes_per_cycle"));
  if (p.vlen < 128 || p.vlen > 1024 || (p.vlen & (p.vlen - 1)) != 0)
    throw ConfigError(
        fmt::format("{}: build.VLEN: {} is not a power of two in [128, 1024]", c.source.string(), p.vlen));
  if (p.itcm_bytes != RVV_ITCM_BYTES || p.dtcm_bytes != RVV_DTCM_BYTES)
    throw ConfigError(
        fmt::format("{}: ITCM_BYTES and DTCM_BYTES must be {} (the memory map, "
                    "isa/rvv/rvv_memory_map.h)",
                    c.source.string(), RVV_ITCM_BYTES));
  return p;
}

RvvPlatform::RvvPlatform() : configs_(load_hw_configs(hw_config_dir(kName))) {
  if (configs_.empty())
    throw ConfigError(fmt::format("{}: no hardware configurations found", hw_config_dir(kName).string()));
  for (const auto& c : configs_) (void)params_from_config(c);  // validate every file up front
  announce_systemc_world();
}

std::unique_ptr<Platform> make_rvv_platform() {
  return std::make_unique<RvvPlatform>();
}

std::string RvvPlatform::summary() const {
  return "RISC-V RV32IMF + Zve32f core, in-order 5-stage pipeline with a lane-based vector unit, ITCM/DTCM, "
         "C or assembly through clang, checked against QEMU (FP32 in DRAM)";
}

Params RvvPlatform::params(const std::string& hw) const {
  return params_from_config(hw_config(hw));
}

std::vector<HwParameter> RvvPlatform::hw_parameters(const std::string& hw) const {
  const HwConfig& c = hw_config(hw);
  std::vector<HwParameter> rows;
  for (const auto& [key, value] : c.build)
    rows.push_back({key, std::to_string(value), "", describe_parameter(key), HwParameter::Kind::kBuild});
  rows.push_back({"DRAM_LATENCY", fmt::format("{}", c.runtime_param("dram_latency_cycles")), "cycles",
                  describe_parameter("DRAM_LATENCY"), HwParameter::Kind::kRuntime});
  rows.push_back({"DRAM_BYTES_PER_CYCLE", fmt::format("{}", c.runtime_param("dram_bytes_per_cycle")), "",
                  describe_parameter("DRAM_BYTES_PER_CYCLE"), HwParameter::Kind::kRuntime});
  return rows;
}

uint64_t RvvPlatform::program_capacity(const std::string& hw) const {
  return params(hw).imem_words;
}

std::vector<KernelLanguage> RvvPlatform::languages() const {
  return {
      KernelLanguage{
          kKernelLanguage,
          {".c"},
          "C11 (clang-16 -O2, auto-vectorised; <riscv_vector.h> intrinsics): define void kernel(void), "
          "which returns when done"},
      KernelLanguage{"asm",
                     {".S", ".s"},
                     "RISC-V assembly through the C preprocessor (the ISA reference): a global function "
                     "`kernel` (ilp32f) that returns with ret"},
  };
}

std::string RvvPlatform::isa_reference() const {
  return isa_markdown(static_cast<int>(params("default").vlen));
}

std::vector<std::string> RvvPlatform::instruction_names() const {
  return rvv::instruction_names();
}

std::string RvvPlatform::symbols_note(const tasks::ResolvedConfig& cfg) const {
  if (cfg.params.empty()) return "";
  std::string out =
      "  Float parameters: in C, PARAM_<NAME> is the float itself; in assembly, PARAM_<NAME>_F32 is its\n"
      "  bit pattern (li t0, PARAM_<NAME>_F32; fmv.w.x ft0, t0):";
  for (const auto& [name, value] : cfg.params) {
    std::string upper_name = name;
    for (char& c : upper_name) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    out += fmt::format(" PARAM_{}={}f", upper_name, static_cast<float>(value));
  }
  return out + "\n";
}

isa::SymbolTable RvvPlatform::symbols(const std::string& hw, const tasks::ResolvedConfig* cfg,
                                      const tasks::DramLayout* lay) const {
  const HwConfig& c = hw_config(hw);
  isa::SymbolTable s;
  for (const auto& [key, value] : c.build) s[key] = value;
  s["VLENB"] = c.build_param("VLEN") / 8;
  s["DRAM_LATENCY"] = static_cast<int64_t>(c.runtime_param("dram_latency_cycles"));
  s["DRAM_BYTES_PER_CYCLE"] = static_cast<int64_t>(c.runtime_param("dram_bytes_per_cycle"));
  if (cfg != nullptr && lay != nullptr) return task_symbols(*cfg, *lay, s);
  if (cfg != nullptr) {
    for (const auto& [name, value] : cfg->dims) s[name] = value;
  }
  return s;
}

namespace {
// Diagnostics by position, each note kept right after the error or warning it belongs to (clang's "passing
// argument to parameter here" points before its error's column, and a plain sort moved it in front).
std::vector<isa::Diagnostic> sorted_keeping_notes(std::vector<isa::Diagnostic> diagnostics) {
  std::vector<std::vector<isa::Diagnostic>> groups;
  for (auto& d : diagnostics) {
    if (d.severity != isa::Severity::kNote || groups.empty()) groups.emplace_back();
    groups.back().push_back(std::move(d));
  }
  std::stable_sort(groups.begin(), groups.end(), [](const auto& a, const auto& b) {
    return a.front().line != b.front().line ? a.front().line < b.front().line
                                            : a.front().column < b.front().column;
  });
  std::vector<isa::Diagnostic> out;
  for (auto& group : groups)
    for (auto& d : group) out.push_back(std::move(d));
  return out;
}
}  // namespace

BuildOptions RvvPlatform::build_options(const std::string& filename, const isa::SymbolTable& symbols) const {
  BuildOptions o;
  o.language = language_of_file(filename).name;
  o.file_name = filename;
  o.vlen = vlen_of(symbols);
  o.symbols_header = symbols_header(symbols);
  return o;
}

isa::AssembleResult RvvPlatform::assemble(const std::string& source, const std::string& filename,
                                          const isa::SymbolTable& symbols) const {
  isa::AssembleResult out;
  out.filename = filename;
  try {
    const BuildOptions o = build_options(filename, symbols);
    auto built = std::make_shared<BuiltKernel>(build_kernel(source, o));
    const std::string kernel_file = std::filesystem::path(filename).filename().string();
    for (const auto& d : built->diagnostics) out.diagnostics.push_back(to_diagnostic(d, kernel_file));
    // A failed build with no error line (a tool died without saying why) still says something.
    if (!built->ok && out.error_count() == 0)
      out.diagnostics.push_back({isa::Severity::kError, 0, 0, 0, "the build failed:\n" + built->log, "", ""});
    out.ok = built->ok;
    out.reproducible = built->reproducible;
    if (out.ok) out.words = built->itcm;
    out.artifact = std::shared_ptr<const BuiltKernel>(std::move(built));
  } catch (const std::exception& e) {
    out.ok = false;
    out.reproducible = false;  // a missing tool, a full disk: nothing the source decided
    out.diagnostics.push_back({isa::Severity::kError, 0, 0, 0, e.what(), "", ""});
  }
  out.diagnostics = sorted_keeping_notes(std::move(out.diagnostics));
  return out;
}

isa::AssembleResult RvvPlatform::check(const std::string& source, const std::string& filename,
                                       const isa::SymbolTable& symbols) const {
  isa::AssembleResult out = assemble(source, filename, symbols);
  if (!out.ok) {
    // The assembler refuses some of them itself (EEW = 64 under Zve32f, in its own words): the hint gives
    // the guide's.
    for (auto& d : out.diagnostics) {
      if (d.severity != isa::Severity::kError || d.line <= 0 || !d.hint.empty()) continue;
      if (const std::string what = outside_class_of_line(source, d.line); !what.empty())
        d.hint = "outside the implemented subset: " + what;
    }
    return out;
  }
  const auto built = std::any_cast<std::shared_ptr<const BuiltKernel>>(out.artifact);
  std::vector<OutsideInstruction> found;
  try {
    found = instructions_outside_subset(built->itcm);
  } catch (const std::exception& e) {
    out.ok = false;
    out.reproducible = false;
    out.diagnostics.push_back({isa::Severity::kError, 0, 0, 0, e.what(), "", ""});
    return out;
  }
  if (found.empty()) return out;
  // The kernel's lines come from the same build with debug information; its code is clang's without -g
  // too, and the words are compared so that a difference never points at a wrong line.
  std::map<uint32_t, int> lines;
  try {
    BuildOptions o = build_options(filename, symbols);
    o.debug_lines = true;
    const BuiltKernel with_lines = build_kernel(source, o);
    if (with_lines.ok && with_lines.itcm == built->itcm) {
      // Assembly has a row per instruction: a word without one (.word data) has no line of its own.
      const bool exact = o.language != "c";
      for (const auto& f : found) {
        if (const int line = source_line_at(with_lines.line_rows, f.pc, exact); line > 0) lines[f.pc] = line;
      }
    }
  } catch (const std::exception&) {
    // no line table: the errors name the pc alone
  }
  for (auto& d : outside_subset_diagnostics(found, lines, source)) out.diagnostics.push_back(std::move(d));
  out.ok = false;
  out.diagnostics = sorted_keeping_notes(std::move(out.diagnostics));
  return out;
}

std::string RvvPlatform::disassemble(const std::vector<uint32_t>& words) const {
  return objdump_words(words);
}

std::string RvvPlatform::unsupported_reason(const tasks::ResolvedConfig& cfg, const std::string& hw) const {
  const auto dram_bytes = static_cast<uint64_t>(hw_config(hw).runtime_param("dram_bytes"));
  const uint64_t limit = std::min<uint64_t>(dram_bytes, RVV_DRAM_MAX_BYTES);
  if (const auto lay = layout(cfg); lay.total_bytes > limit)
    return fmt::format("the task needs {} bytes of DRAM, the configuration has {}", lay.total_bytes, limit);
  return "";
}

// The quick sweep (kcraft bench without --hw, --configs or --full; the README's first table) runs rvv at C1
// only. The RTL simulates about 0.5M cycles per CPU-second on vector code (docs/simulation-speed.md) and
// every cell also simulates its compiler baseline, the clang -O2 scalar reference, which needs millions of
// cycles from C2 on (gqa C2 4.5M, the decoder blocks' 79M and 100M); a tuner run simulates several
// kernels. --full and named configurations run them.
std::string RvvPlatform::default_sweep_exclusion(const tasks::ResolvedConfig& cfg,
                                                 const std::string& /*hw*/) const {
  if (cfg.config == "C1") return "";
  return "rvv's RTL simulates about 0.5M cycles/s and each cell's compiler baseline (the scalar reference) "
         "needs millions to hundreds of millions of cycles from C2 on (the decoder blocks' C2: 79M and "
         "100M): "
         "the quick sweep runs rvv at C1";
}

tasks::DramLayout RvvPlatform::layout(const tasks::ResolvedConfig& cfg) const {
  return task_layout(cfg);
}

namespace {

// The shortest instruction sequences we know for the functions the vector unit lacks, meeting the tasks'
// tolerances, the range-stress inputs included (docs/rvv.md, "Bounds"). exp, as the fastest softmax kernel
// we have computes exp(x - max) (tests/rvv_platform/kernels/softmax_c2_expert.s): x log2 e (1); a rounding
// constant, which also takes off the row maximum's shift, added and subtracted again, giving k and its
// float (2); a clamp (1); f = x log2 e - k (1); a monic cubic for 2^f, its constant factor cancelling in
// the normalisation (3); 2^k added into the exponent bits (1): 9 instructions, at m4, because the cubic's
// coefficient groups fit beside x, f, the polynomial and k only there (eight groups of four registers;
// Horner's rule with scalar coefficients takes two instructions per degree). Other tasks' exponentials
// cannot drop the constant factor; 9 stays a floor for them. 1/d: a seed from the exponent bits (1),
// three Newton steps of two multiply-adds each (6), at m8.
constexpr double kExpInstructionsM4 = 9;
constexpr double kReciprocalInstructions = 7;

struct FunctionCounts {
  double exps = 0;
  double reciprocals = 0;
  double absorbed_flops = 0;  // flops of the formula the exponential's sequence does on the way
};

// Exponentials and reciprocals the task's formula needs (task show states the formulas). softmax's
// sequence also subtracts the row maximum.
FunctionCounts rvv_function_counts(const tasks::ResolvedConfig& cfg) {
  const double outputs = cfg.outputs.empty() ? 0.0 : static_cast<double>(cfg.outputs.front().elements);
  if (cfg.task == "softmax") return {outputs, 0, outputs};
  if (cfg.task == "silu" || cfg.task == "gelu") return {outputs, outputs, 0};
  return {};
}

// Rows the task's formula reduces to one value each, and how many reductions each row needs: softmax its
// maximum and its sum, layer_norm its mean and variance, rms_norm its mean square.
struct RowReductions {
  double rows = 0;
  double per_row = 0;
  double length = 0;  // elements per row
};

RowReductions rvv_row_reductions(const tasks::ResolvedConfig& cfg) {
  if (cfg.outputs.empty() || cfg.outputs.front().shape.empty()) return {};
  const auto& out = cfg.outputs.front();
  const double length = static_cast<double>(out.shape.back());
  const double rows = static_cast<double>(out.elements) / length;
  if (cfg.task == "softmax" || cfg.task == "layer_norm") return {rows, 2, length};
  if (cfg.task == "rms_norm") return {rows, 1, length};
  return {};
}

// Arithmetic-engine cycles one row reduction takes beyond its element-wise share: the row is combined
// element-wise into one register group of g = min(length, VLMAX(e32, m8)) elements, then folded in halves
// (h elements: h / LANES beats + 2 cycles each) down to some h and reduced there by vfredusum / vfredmax
// (one element per cycle: h + 4 cycles), whichever stopping point is shortest (docs/rvv.md measures
// them). The g - 1 flops of the folds and the reduction are in the element-wise count already (at
// `flop_rate` flops per cycle of the engine), so they are taken off.
double rvv_reduction_cycles(const Params& p, double length, double flop_rate) {
  const double g = std::min(length, p.vlen / 4.0);
  double best = g + 4;
  double folds = 0;
  for (double h = g / 2; h >= 1 && h * 2 > p.vlen / 32.0; h /= 2) {
    folds += std::ceil(h / p.lanes) + 2;
    best = std::min(best, folds + h + 4);
  }
  return std::max(0.0, best - (g - 1) / flop_rate);
}

// The memory engine's cycles when the rows are loaded transposed instead, so that no row is reduced
// across a register: every element a request of its own (strided loads and stores: R + 1 + 3 cycles for
// R = VLMAX(e32, m8) elements at best), the input read twice when a block of at least two rows cannot
// stay in half the register file across its reduction (2 · length > VLEN / 2 elements), once otherwise.
double rvv_transposed_memory_cycles(const Params& p, const RowReductions& red, double in_elements,
                                    double out_elements) {
  const double vlmax = p.vlen / 4.0;
  const double reads = 2.0 * red.length > p.vlen / 2.0 ? 2.0 : 1.0;
  return (reads * in_elements + out_elements) * (vlmax + 4.0) / vlmax;
}

}  // namespace

IdealCycles RvvPlatform::ideal_cycles(const tasks::ResolvedConfig& cfg, const std::string& hw) const {
  const Params p = params(hw);
  IdealCycles ideal;
  ideal.dram = io_bytes(cfg) / p.dram_bytes_per_cycle;
  // Everything runs on the vector unit: LANES FP32 lanes, at most two flops each per cycle (vfmacc).
  ideal.vector = cfg.essential_flops / (2.0 * p.lanes);
  // What the ISA allows at best: an FP vector instruction covers at most VLMAX(e32, m8) = VLEN / 4
  // elements, B = VLEN / (4 LANES) beats, and occupies the arithmetic engine at least B + 2 cycles
  // (docs/rvv.md, "Organisation and timing": B + 3, or B + 2 when the next instruction starts in its last
  // cycle); the scalar FPU may add one fused multiply-add per cycle beside it.
  // Each element-wise instruction does at most two flops per element (a multiply-add); the exponential
  // and the reciprocal the task's formula needs are no instruction but a sequence of them (the shortest we
  // know that meets the tolerances: exp 9 at m4, a reciprocal 7 at m8; docs/rvv.md, "Bounds"), of which
  // the flop count holds one each.
  const FunctionCounts fn = rvv_function_counts(cfg);
  const double beats = p.vlen / (4.0 * p.lanes);
  // The exponential in m8-instruction equivalents: an m4 instruction covers half the elements in
  // beats / 2 + 2 cycles.
  const double exp_m8_equivalents = kExpInstructionsM4 * 2.0 * (beats / 2.0 + 2.0) / (beats + 2.0);
  const double instruction_elements = (cfg.essential_flops - fn.absorbed_flops) / 2.0 +
                                      fn.exps * (exp_m8_equivalents - 0.5) +
                                      fn.reciprocals * (kReciprocalInstructions - 0.5);
  // Element-instructions per cycle: the vector unit's, and the scalar FPU's one beside it.
  const double vector_rate = p.lanes * beats / (beats + 2.0);
  double vector_floor = instruction_elements / (vector_rate + 1.0);
  // Row reductions hold the arithmetic engine R cycles in which it does no element-wise work while the
  // scalar FPU may go on: T >= (W + vector_rate R) / (vector_rate + 1). A kernel may avoid them by loading
  // the rows transposed, at the memory engine's cost; the floor is the cheaper of the two.
  const RowReductions red = rvv_row_reductions(cfg);
  double reduction_cycles = 0;
  if (red.rows > 0) {
    reduction_cycles = red.rows * red.per_row * rvv_reduction_cycles(p, red.length, 2.0 * vector_rate);
    double in_elements = 0, out_elements = 0;
    for (const auto& t : cfg.inputs) in_elements += static_cast<double>(t.elements);
    for (const auto& t : cfg.outputs) out_elements += static_cast<double>(t.elements);
    const double transposed =
        std::max(vector_floor, rvv_transposed_memory_cycles(p, red, in_elements, out_elements));
    const double reduced = (instruction_elements + vector_rate * reduction_cycles) / (vector_rate + 1.0);
    if (reduced <= transposed) {
      vector_floor = reduced;
    } else {
      vector_floor = transposed;
      reduction_cycles = 0;
    }
  }
  // What the memory engine allows at best (docs/rvv.md, "Bounds"): every input row crosses from DRAM
  // once, by a vector load that misses the cache (at most 8 rows per instruction, R + L + 3 cycles with L
  // the fill's latency) or by a scalar load missing it beside (L + 2 cycles per row: the core waits);
  // every output row leaves by a vector store (8 rows per 8 + 1 + 3 cycles) on the same engine.
  const double row = p.row_bytes();
  const double miss = p.dram_latency + std::ceil(row / p.dram_bytes_per_cycle);
  double in_rows = 0, out_rows = 0;
  for (const auto& t : cfg.inputs) in_rows += 4.0 * static_cast<double>(t.elements) / row;
  for (const auto& t : cfg.outputs) out_rows += 4.0 * static_cast<double>(t.elements) / row;
  const double memory_floor =
      (in_rows + 12.0 * out_rows / (miss + 11.0)) / (8.0 / (miss + 11.0) + 1.0 / (miss + 2.0));
  const double floor = std::max({ideal.dram, vector_floor, memory_floor});
  ideal.attainable = std::ceil(floor + p.dram_latency);
  ideal.attainable_bound = floor == ideal.dram ? "dram" : floor == memory_floor ? "memory" : "vector";
  ideal.attainable_why = fmt::format(
      "{}-bound: DRAM {:.0f} cycles; the memory engine {:.0f} (8 rows per vector load, {:.0f} + 11 cycles "
      "when they miss, scalar loads beside); the vector unit {:.0f} ({:.0f} element-instructions{}: "
      "{:.0f}-beat e32 m8 instructions take {:.0f} + 2 cycles each, the scalar FPU beside it{}) + one DRAM "
      "latency ({})",
      ideal.attainable_bound, ideal.dram, memory_floor, miss, vector_floor, instruction_elements,
      fn.exps + fn.reciprocals > 0
          ? fmt::format(" with {:.0f} exponentials at {:.1f} m8-instruction equivalents and {:.0f} "
                        "reciprocals at {}",
                        fn.exps, exp_m8_equivalents, fn.reciprocals, kReciprocalInstructions)
          : std::string(),
      beats, beats,
      reduction_cycles > 0 ? fmt::format("; {:.0f} row reductions holding it {:.0f} cycles",
                                         red.rows * red.per_row, reduction_cycles)
                           : std::string(),
      p.dram_latency);
  return ideal;
}

std::unique_ptr<tasks::BaselineCompiler> RvvPlatform::baseline_compiler(const std::string& hw) const {
  const auto p = params(hw);
  return make_baseline_compiler(static_cast<int>(p.vlen), p.dcache_bytes);
}

std::string RvvPlatform::describe_counters(const EvalReport& r) const {
  const tb::CounterView value(r);
  auto pct = [&](const char* name) { return value.percent_of_cycles(name); };
  std::string text =
      fmt::format("instructions {} in {} cycles (IPC {:.2f}); vector instructions {} ({:.1f}%)\n",
                  value("instructions"), r.cycles, value.as_double("instructions") / value.cycles(),
                  value("vector_instructions"), value.percent_of("vector_instructions", "instructions"));
  text += fmt::format("vector unit busy {:.1f}% of cycles\n", pct("vector_busy"));
  text += fmt::format(
      "stalls (of cycles): data {:.1f}%  load-use {:.1f}%  FP divide/sqrt {:.1f}%  vector {:.1f}%  memory "
      "{:.1f}%  branch {:.1f}%\n",
      pct("stall_data"), pct("stall_load_use"), pct("stall_fp_divsqrt"), pct("stall_vector"),
      pct("stall_memory"), pct("stall_branch"));
  text += fmt::format("DRAM bytes read {} written {}; data cache misses {}\n", value("dram_bytes_read"),
                      value("dram_bytes_written"), value("dcache_misses"));
  return text;
}

std::string RvvPlatform::toolchain_identity() const {
  return toolchain_versions();
}

std::string runtime_error_text(const ErrorReport& e, const DescribePc& describe) {
  if (e.code == ErrorCode::kFetch)
    return fmt::format("{}: pc 0x{:08x} is outside the ITCM or not 4-byte aligned", error_name(e.code), e.pc);
  std::string what = fmt::format("{} at pc {}", error_name(e.code), describe(e.pc));
  if (e.code == ErrorCode::kLoad || e.code == ErrorCode::kStore || e.code == ErrorCode::kMisaligned)
    what += fmt::format(": address 0x{:08x}", e.addr);
  return what;
}

HangDiagnosis hang_diagnosis(uint32_t pc, StallCause stall, uint64_t cycle_cap, const DescribePc& describe) {
  const std::string waiting = stall == StallCause::kNone
                                  ? "the core was still issuing instructions (a loop that never ends?)"
                                  : fmt::format("the core was stalled ({})", stall_name(stall));
  HangDiagnosis out;
  out.detail = fmt::format("cycle cap {} reached at pc {}\n{}\n", cycle_cap, describe(pc), waiting);
  out.headline =
      fmt::format("the kernel did not return within {} cycles (pc {}): {}", cycle_cap, describe(pc), waiting);
  return out;
}

EvalReport RvvPlatform::evaluate(const EvalRequest& req, const tasks::TaskRegistry& registry) const {
  const auto t_start = std::chrono::steady_clock::now();
  EvalReport r;
  auto finish = [&](Verdict verdict, std::string headline) {
    return tb::finish(r, verdict, std::move(headline), t_start);
  };
  const auto prepared = tb::prepare_run(*this, req, registry, rvv_hw_configs, 0, r);
  if (!prepared) return r;
  RunJob job = prepared->job;
  // The shared default cap is sized for the vector platforms; a scalar C kernel here takes up to ~12
  // cycles per flop (the baseline matrix products at C2/C3), so the default leaves twice that.
  job.cycle_cap = effective_cycle_cap(req, default_cycle_cap(prepared->cfg));
  const auto built = std::any_cast<std::shared_ptr<const BuiltKernel>>(prepared->program.artifact);
  const Params p = params_from_config(*prepared->hw);
  // The listing of the ITCM words, made when a report first needs an instruction's text (the linked ELF's
  // own disassembly shows vector instructions of assembly kernels as .4byte: it has no vector arch
  // attribute).
  std::optional<std::map<uint32_t, std::string>> listing_cache;
  auto listing = [&]() -> const std::map<uint32_t, std::string>& {
    if (!listing_cache) {
      try {
        listing_cache = parse_objdump(objdump_words(built->itcm));
      } catch (const std::exception&) {
        listing_cache = parse_objdump(built->disassembly);
      }
    }
    return *listing_cache;
  };
  auto word_at = [&](uint32_t pc) { return pc / 4 < job.program.size() ? job.program[pc / 4] : 0u; };
  auto describe = [&](uint32_t pc) {
    return fmt::format("0x{:x}: {}", pc, instruction_text(listing(), pc, word_at(pc)));
  };

  SimResult run;
  try {
    run = simulate(job, built->elf);
  } catch (const std::exception& e) {
    r.cacheable = false;  // the simulator could not run it (e.g. no model in this process): not a result
    return finish(Verdict::kHardwareBug, std::string("the simulation failed: ") + e.what());
  }
  std::vector<CounterValue> counters;
  for (unsigned i = 0; i < kNumCounters; ++i) counters.push_back({counter_name(i), run.counters[i]});
  tb::record_run(r, run, std::move(counters),
                 [&](uint32_t pc, uint32_t word) { return instruction_text(listing(), pc, word); });

  // ---- a hang: QEMU is not run (it has no instruction budget; it would only spin to its timeout)
  if (run.timed_out) {
    r.error_pc = run.pc;
    HangDiagnosis hang = hang_diagnosis(run.pc, run.stall, job.cycle_cap, describe);
    r.hang = std::move(hang.detail);
    r.model_check = "skipped: the RTL reached the cycle cap";
    return finish(Verdict::kTimeout, std::move(hang.headline));
  }

  // ---- the functional reference's twin run: the same ELF and DRAM image under QEMU
  std::optional<RunResult> qemu;
  if (req.check_model) {
    RunOptions o;
    o.vlen = static_cast<int>(p.vlen);
    // After an RTL error QEMU's run only explains it (and may spin where the RTL stopped): a short leash.
    o.timeout = run.error.code != ErrorCode::kNone ? std::chrono::seconds(5) : std::chrono::seconds(60);
    try {
      qemu = run_qemu(*built, job.dram, o);
    } catch (const std::exception& e) {
      return finish(Verdict::kInputError,
                    std::string("QEMU, the functional reference, cannot run: ") + e.what());
    }
    apply_qemu_result_hook(*qemu);
    // QEMU's wall-clock timeout, or a QEMU that did not start, or a test's hook decided its part.
    if (qemu->end == RunEnd::kTimedOut || !qemu->started || qemu_result_hook()) r.cacheable = false;
  } else {
    r.model_check = "skipped";
  }

  // ---- the RTL stopped on the kernel's error: the kernel's fault, whatever QEMU says
  if (run.error.code != ErrorCode::kNone) {
    const ErrorReport& e = run.error;
    r.error_pc = e.pc;
    r.runtime_error = runtime_error_text(e, describe);
    if (qemu) {
      r.model_check = qemu->end == RunEnd::kExited
                          ? "QEMU ran the kernel to the end: the RTL stops where QEMU does not (docs/rvv.md, "
                            "\"Where the RTL stops and QEMU would not\")"
                          : "QEMU stops too: " + end_of_qemu(*qemu);
    }
    return finish(Verdict::kRuntimeError, r.runtime_error);
  }
  // ---- an ecall ended the run, but not crt0's end: the kernel broke the end-of-program protocol
  if (!run.signature) {
    r.error_pc = run.pc;
    if (run.x[17] == RVV_SYS_EXIT && run.x[10] == RVV_EXIT_BAD_SP) {
      r.runtime_error = fmt::format(
          "the kernel returned with sp = 0x{:08x}, not the 0x{:08x} it was called with (crt0 ends the "
          "program "
          "with exit code {})",
          run.x[2], RVV_STACK_TOP, RVV_EXIT_BAD_SP);
    } else {
      r.runtime_error =
          fmt::format("ecall at pc {} ended the program before the kernel returned (an ecall ends the run)",
                      describe(run.pc));
    }
    if (qemu) r.model_check = "QEMU: " + end_of_qemu(*qemu);
    return finish(Verdict::kRuntimeError, r.runtime_error);
  }

  // ---- the RTL ran the kernel to the end: QEMU must have, with the same end state
  if (qemu) {
    std::string diff;
    if (const std::string failure = qemu_own_failure(*qemu); !failure.empty()) {
      // The reference cannot say anything: the outputs are still judged against the golden reference.
      r.model_check = "unavailable: QEMU itself failed on this program (" + failure +
                      "); the RTL's run is not cross-checked";
    } else if (qemu->end != RunEnd::kExited) {
      diff = "the RTL ran the kernel to the end, QEMU did not: " + end_of_qemu(*qemu);
    } else {
      EndStateCompare compare;
      compare.integer_registers = !reads_counter_csr(built->itcm);
      compare.describe_dram = [&](uint64_t offset) -> std::string {
        for (const auto& region : prepared->layout.regions) {
          if (offset >= region.address && offset < region.end())
            return fmt::format("{} '{}' element {}", tasks::region_kind_name(region.kind), region.name,
                               (offset - region.address) / 4);
        }
        return "";
      };
      if (auto d = first_difference(*run.signature, qemu->signature, run.dram, qemu->dram, compare))
        diff = *d;
      r.model_check =
          compare.integer_registers
              ? "agree"
              : "agree (x1..x31 not compared: the kernel reads a counter CSR, whose values differ "
                "under QEMU by nature)";
    }
    if (!diff.empty()) {
      r.model_check = diff;
      return finish(Verdict::kHardwareBug,
                    "the RTL and QEMU disagree (a hardware bug, not the kernel's fault): " + diff);
    }
  }
  return tb::judge_outputs(r, *prepared, run, describe, t_start);
}

}  // namespace kcraft::rvv
