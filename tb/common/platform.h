// The platform interface: everything above tb/ (agent tools, scoring, tuner, MCP, benchmark sweeps, the
// CLI) knows a platform only through this class and the registry below.
//
// Each platform implements Platform in its own tb/<platform>/ folder and registers a factory there
// (kcraft_register_platform in tb/<platform>/CMakeLists.txt; cmake/KcraftPlatforms.cmake). The registry's
// list is generated at configure time from those registrations. docs/platforms.md §6 lists what a new
// platform provides, file by file.
#pragma once

#include <cstdint>
#include <filesystem>
#include <functional>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "isa/common/assembler.h"
#include "isa/common/hw_config.h"
#include "tasks/common/baseline_compiler.h"
#include "tasks/common/dtype.h"
#include "tasks/common/layout.h"
#include "tasks/common/task_spec.h"
#include "tb/common/evaluation.h"
#include "tb/common/scheduling_table.h"

namespace kcraft {

// One parameter of a hardware configuration, as tools show it to kernel writers.
struct HwParameter {
  enum class Kind {
    kBuild,    // fixed in the RTL build (a Verilog parameter)
    kRuntime,  // a testbench setting (DRAM timing, ...) that needs no rebuild
  };
  std::string name;         // as the assembler predefines it ("MLEN", "DRAM_LATENCY")
  std::string value;        // as text ("16", "40")
  std::string unit;         // "" or e.g. "cycles"
  std::string description;  // what it means for a kernel
  Kind kind = Kind::kBuild;
};

// A language kernels for a platform are written in. Tools pick it by name (`language`), commands by the
// kernel file's extension.
struct KernelLanguage {
  std::string name;                     // "asm", "c": what the tools' `language` argument takes
  std::vector<std::string> extensions;  // with the dot, case-sensitive; the first names kernels ("kernel.s")
  std::string description;              // one line for prompts and help: what it is, how a kernel ends
};

// A coverage bin (tb/common/coverage.h) a steered random campaign aims at: `--steer COVERAGE.json` passes
// the bins that report never hit.
struct CoverageBinName {
  std::string group;
  std::string name;
};

// `kcraft validate <platform>`: a random differential campaign, the RTL against the functional model.
struct ValidationOptions {
  std::string hw_config = "default";
  uint64_t programs = 200;  // random programs, seeds seed .. seed + programs - 1
  uint64_t seed = 1;
  unsigned length = 160;  // instructions per program
  // Bins to aim the generator at; the platform biases it toward those it can reach and ignores the rest.
  std::vector<CoverageBinName> focus;
};

// `kcraft speed <platform>`: simulated cycles per CPU-second through the SystemC testbench and bare
// Verilator, one workload (a task's baseline kernel at one configuration) per call.
struct SpeedOptions {
  std::string hw_config = "default";
  std::string task = "gemm";  // workload: this task's baseline kernel
  std::string config = "C4";
  unsigned repeats = 3;  // runs of each; the median is reported
};

// One workload of the platform's fixed set (`kcraft speed <platform>` without --task).
struct SpeedWorkload {
  std::string task;
  std::string config;
};

// `kcraft debug`: rows of one on-chip memory to dump ("vsram:0-7").
struct DebugRowRange {
  std::string memory;  // the name the platform's dump gives it
  uint64_t first = 0;
  uint64_t last = UINT64_MAX;  // inclusive; UINT64_MAX: to the memory's end
};

// A test hook of `kcraft debug`: after `after_instruction` retired instructions, the functional model's
// register `register_name` has its bits XORed with `xor_mask`. Lockstep must then report exactly that
// instruction and that register; it checks the tool, not the hardware.
struct ModelFault {
  uint64_t after_instruction = 0;
  std::string register_name;
  uint64_t xor_mask = 1;
};

// `kcraft debug`: a kernel loaded the way `kcraft eval` loads it (the task's inputs in DRAM), run on the RTL
// and the functional model to a stop point, their states dumped side by side; with `lockstep`, the first
// retired instruction after which they differ.
struct DebugOptions {
  std::string hw_config = "default";
  std::string task;
  std::string config = "C1";
  uint64_t seed = 1;
  std::string source;  // kernel text
  std::string filename = "kernel.s";
  std::string stop_at_pc;                 // a number (decimal or 0x..) or a label of the kernel; "" = none
  std::optional<uint64_t> stop_at_cycle;  // stop after the instructions the RTL issued before this cycle
  bool lockstep = false;
  std::vector<DebugRowRange> rows;  // memory rows to dump; empty = the rows that differ or are non-zero
  std::optional<ModelFault> model_fault;
  uint64_t cycle_cap = 0;  // 0: the evaluation's default
};

// `kcraft coverage <platform>`: what the directed programs, the random campaign and the task baselines
// exercise (tb/common/coverage.h).
struct CoverageOptions {
  std::string hw_config = "default";
  uint64_t programs =
      50;  // random programs of `kcraft validate`'s generator, seeds seed .. seed + programs - 1
  uint64_t seed = 1;
  unsigned length = 160;                      // instructions per random program
  std::vector<std::string> configs = {"C1"};  // task configurations whose baseline kernels run
  std::string html_path;                      // "": no HTML page
  std::vector<CoverageBinName> focus;         // the random programs steered as `kcraft validate --steer`
  bool rtl = false;         // also Verilator line and toggle coverage of the RTL (tb/common/rtl_coverage.h)
  std::string rtl_dat_dir;  // --rtl-dat: keep the Verilator .dat file of each source here
  unsigned jobs = 2;        // parallel compiles of the RTL coverage build
};

// `kcraft conformance <platform>`: an external test suite of the platform's ISA, run on the RTL. Only a
// platform with a standard ISA has one (rvv: riscv-tests); the custom ISAs are checked against their
// functional models by `kcraft validate`.
struct ConformanceOptions {
  std::string hw_config = "default";
  std::string suite_dir;          // a checkout of the suite
  std::vector<std::string> only;  // test names to run ("add", "rv32uf-fadd"); empty: every test
};

// ---- co-design (`kcraft codesign`, agent/bench/codesign.h): what the platform knows about its own timing
// model that the platform-neutral profiler and proposer need.

// A place an instruction reads or writes: a register ("f3", "v2") or a memory location. A location whose
// address comes from a register names it in `base` ("VSRAM[r5+0]" with base "r5"): writing that register
// ends the location's tracking. A name ending in "[*]" stands for every location of that memory (an
// access of a range the dataflow cannot name row by row).
struct DataflowPlace {
  std::string name;
  std::string base;  // "" = none
};

// One instruction's dataflow, from its disassembly: its unit, what it reads and what it writes.
struct DataflowOp {
  std::string mnemonic;  // upper or lower case as the ISA writes it
  std::string unit;      // the unit that executes it ("vector", "matrix", "dma", "scalar", ...)
  std::vector<DataflowPlace> reads, writes;
};

// A hardware parameter a stall cause is bound by: when the cause costs cycles in the workload, changing the
// parameter to `values` is proposed (handed to `kcraft explore --set NAME=values`).
struct BindingParameter {
  std::string cause;                // the stall cause's name, as the timeline writes it ("unit_busy")
  std::string waiting_unit;         // only stalls of an instruction of this unit ("" = any)
  std::string parameter;            // a build: or runtime: key of the hardware configuration
  std::vector<std::string> values;  // the current value first, then the proposed ones
  std::string why;                  // one line: how the parameter relieves the cause
};

struct CodesignRules {
  // The timeline track whose "instruction" slices are the issued (or retired) instructions, one per cycle.
  std::string issue_track;
  // A bundle's cycle is charged to its op on the first unit of this list that it has (VLIW); units not
  // listed come after, in bundle order.
  std::vector<std::string> unit_priority;
  // The unit a stall cause charges (its cycles belong to that unit's profile); causes not listed charge
  // the unit of the instruction that waits.
  std::vector<std::pair<std::string, std::string>> cause_units;
  // Units on which a fused instruction is worth proposing (fully pipelined units with a register or
  // SRAM-row dataflow).
  std::vector<std::string> fusion_units;
  // Stall causes a fused instruction saves when they delay one of its later parts (waiting for the earlier
  // part's result); its later parts' issue cycles are always saved, other stalls never (the fused
  // instruction would wait for a busy unit, DMA or a lock all the same).
  std::vector<std::string> fusion_saved_causes;
  // How the timing model makes a fused instruction save cycles, one or two sentences for the output.
  std::string fusion_rule;
  std::vector<BindingParameter> parameters;
  // Instructions every kernel needs whatever their counts (a halt); never proposed as unused.
  std::vector<std::string> essential;
};

// A parameter's value and its double, as BindingParameter::values lists them (a build: or runtime: key).
std::vector<std::string> doubled_build_param(const HwConfig& config, const std::string& key);
std::vector<std::string> doubled_runtime_param(const HwConfig& config, const std::string& key);

// What a hardware-team command prints: text for people, JSON for --json.
struct CommandReport {
  bool ok = true;  // false: the campaign found a hardware bug
  std::string text;
  nlohmann::json json;
};

class Platform {
 public:
  virtual ~Platform() = default;

  // ---- identity
  virtual std::string name() const = 0;     // "systolic": the registry key, rtl/<name>/, docs/<name>.md
  virtual std::string summary() const = 0;  // one line for `kcraft platforms`
  virtual tasks::DType dtype() const = 0;   // element type of tensors in DRAM

  // ---- hardware configurations (rtl/<name>/configs/*.yaml)
  virtual const std::vector<HwConfig>& hw_configs() const = 0;
  // Throws std::invalid_argument listing the known names.
  const HwConfig& hw_config(const std::string& hw) const;
  // Every parameter of a configuration, for prompts and the hardware document of the agent tools.
  virtual std::vector<HwParameter> hw_parameters(const std::string& hw) const = 0;
  // Instruction words the program memory holds (the longest program).
  virtual uint64_t program_capacity(const std::string& hw) const = 0;

  // ---- kernel languages
  // The languages the platform's toolchain takes, the default first. The default: one assembly language
  // in .s/.S files, for platforms whose assemble() takes only their own assembly.
  virtual std::vector<KernelLanguage> languages() const;
  // The language named `name` ("" = the default); throws std::invalid_argument listing the languages.
  KernelLanguage language(const std::string& name) const;
  // The language of a kernel file by its extension; throws std::invalid_argument naming the extension and
  // listing the languages with theirs.
  KernelLanguage language_of_file(const std::string& filename) const;
  // The file name tools give a kernel in language `name` ("" = the default): "kernel" + its first extension.
  std::string kernel_file_name(const std::string& name = "") const;
  // "asm (.s, .S): ...": one line per language, the default marked, for prompts and help.
  std::string languages_text() const;

  // ---- documentation
  // The ISA reference (`kcraft isa <name>`), Markdown.
  virtual std::string isa_reference() const = 0;
  // The programmer's guide: docs/<name>.md under the data root.
  virtual std::filesystem::path guide_path() const;
  // Mnemonics with an entry ("#### MNEMONIC") in the ISA reference: grep_docs returns the whole entry.
  virtual std::vector<std::string> instruction_names() const = 0;
  // Per instruction its unit, latency, occupancy and hazards on a hardware configuration, for writers
  // who schedule kernels with scripts (`kcraft isa PLATFORM --json`, tb/common/scheduling_table.h).
  virtual SchedulingTable scheduling_table(const std::string& hw) const = 0;

  // ---- toolchain
  // Symbols every kernel may use: the hardware parameters, and with a task its dimensions, tensor
  // addresses (ADDR_<TENSOR>), sizes (BYTES_<TENSOR>) and the scratch region.
  virtual isa::SymbolTable symbols(const std::string& hw, const tasks::ResolvedConfig* cfg = nullptr,
                                   const tasks::DramLayout* layout = nullptr) const = 0;
  // What the symbol list alone does not say (e.g. macros of another type a language adds), printed after
  // it by `task show` and the agents' task text; empty by default.
  virtual std::string symbols_note(const tasks::ResolvedConfig& /*cfg*/) const { return ""; }
  // Builds a kernel (`kcraft check`, check_syntax): errors and warnings (e.g. hazards) with line:column.
  // The language is the one of `filename`'s extension (callers check it with language_of_file first).
  virtual isa::AssembleResult assemble(const std::string& source, const std::string& filename,
                                       const isa::SymbolTable& symbols) const = 0;
  // `kcraft check` and the agents' check_syntax: assemble()'s result, with errors for what the build accepts
  // but the hardware does not run (instructions outside the implemented subset), which a run would only
  // find when it reached them. By default assemble(): an assembler that knows only the platform's ISA.
  virtual isa::AssembleResult check(const std::string& source, const std::string& filename,
                                    const isa::SymbolTable& symbols) const {
    return assemble(source, filename, symbols);
  }
  // A program image as assembly text, one instruction per line.
  virtual std::string disassemble(const std::vector<uint32_t>& words) const = 0;

  // ---- tasks
  // Empty when the task configuration can run on the hardware configuration, otherwise why not.
  virtual std::string unsupported_reason(const tasks::ResolvedConfig& cfg, const std::string& hw) const = 0;
  // Empty when a cell of the default hardware configuration at C1-C2 belongs to `kcraft bench`'s quick
  // sweep (the README's first table); otherwise why it is left out of it (e.g. a run takes minutes on this
  // platform's RTL). Left-out cells run with --full or when named with --configs or --hw, and the sweep
  // lists them with the reason, so the gap is never silent.
  virtual std::string default_sweep_exclusion(const tasks::ResolvedConfig& /*cfg*/,
                                              const std::string& /*hw*/) const {
    return {};
  }
  // Where the task's tensors are in DRAM, as kernels see it.
  virtual tasks::DramLayout layout(const tasks::ResolvedConfig& cfg) const = 0;
  // The roofline ideal and the attainable bound (docs/platforms.md §4).
  virtual IdealCycles ideal_cycles(const tasks::ResolvedConfig& cfg, const std::string& hw) const = 0;
  // What, besides this binary and the request, decides a kernel's result: the versions of the external
  // tools evaluate() runs (a compiler, a reference simulator). Part of the evaluation cache's key
  // (agent/common/eval_cache.h). Empty by default: everything is in kcraft (tb/common/eval_identity.h).
  virtual std::string toolchain_identity() const { return {}; }
  // The whole evaluation. Never throws for kernel problems; input problems give Verdict::kInputError.
  virtual EvalReport evaluate(const EvalRequest& request, const tasks::TaskRegistry& tasks) const = 0;
  // The profile tool's lines on a run's counters: busy units, stalls by cause, instruction mix, traffic.
  virtual std::string describe_counters(const EvalReport& report) const = 0;

  // ---- baseline kernels
  // The baseline compiler for a hardware configuration; nullptr when the platform has none.
  virtual std::unique_ptr<tasks::BaselineCompiler> baseline_compiler(const std::string& hw) const = 0;
  // True when the baseline compiler has a template for the task.
  bool has_baseline(const std::string& task) const;

  // ---- hardware teams
  virtual CommandReport validate(const ValidationOptions& options) const = 0;
  virtual CommandReport speed(const SpeedOptions& options, const tasks::TaskRegistry& tasks) const = 0;
  // The fixed workloads whose rates are the platform's simulation-speed figures (docs/simulation-speed.md):
  // what its sweeps simulate most. The default: gemm C4, softmax C5 and relu C5.
  virtual std::vector<SpeedWorkload> speed_workloads() const;
  // `kcraft debug`. The default throws std::invalid_argument: the platform has no bring-up aids.
  // Kernel problems (build errors) are reported with ok = false; bad options throw std::invalid_argument.
  virtual CommandReport debug(const DebugOptions& options, const tasks::TaskRegistry& tasks) const;
  // Functional coverage of the ISA by the directed programs, the random campaign and the task baselines.
  // The default throws std::invalid_argument: the platform has no coverage model.
  virtual CommandReport coverage(const CoverageOptions& options, const tasks::TaskRegistry& tasks) const;
  // An external ISA test suite on the RTL; ok = false when the RTL fails a test that applies. Bad options
  // (no suite there) throw std::invalid_argument; so does the default: the platform has no such suite.
  virtual CommandReport conformance(const ConformanceOptions& options) const;

  // ---- co-design (`kcraft codesign`)
  // The timing-model knowledge the profiler and proposer use on hardware configuration `hw`. The default:
  // the first track is the issue stage, no units ranked, no binding parameters, no fusion units.
  virtual CodesignRules codesign_rules(const std::string& hw) const;
  // The dataflow of an issued instruction (a bundle: one op per slot) from its disassembly as the
  // timeline names it. The default: one op, its mnemonic the first word, no unit, no reads or writes.
  virtual std::vector<DataflowOp> dataflow(const std::string& instruction_text) const;
};

// ---- the registry

using PlatformFactory = std::function<std::unique_ptr<Platform>()>;

// Platform names, the default platform first, then the others in registration order.
std::vector<std::string> platform_names();
// The first of platform_names(): what --platform means when it is not given.
std::string default_platform_name();
// "systolic, vliw": for messages and help texts.
std::string platform_list_text();
// Every platform (each is built on first use, loading its hardware configurations from the data root).
std::vector<const Platform*> platforms();
// nullptr for an unknown name.
const Platform* find_platform(const std::string& name);
// Throws std::invalid_argument("unknown platform 'x' (available: ...)").
const Platform& platform(const std::string& name);

// Adds a platform at run time, after the ones the build registered: for test-only platforms, which a test
// binary registers in its main() or fixture. Throws std::invalid_argument when the name is taken.
void register_platform(const std::string& name, PlatformFactory factory);

}  // namespace kcraft
