// The rvv core as a platform (tb/common/platform.h): build a kernel in C or assembly with clang/lld, run it
// on the Verilated RTL inside SystemC and, as the functional reference, under QEMU user mode
// (qemu-riscv32); compare the two end states, then the outputs with the golden reference, and report.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "isa/common/hw_config.h"
#include "isa/rvv/qemu_runner.h"
#include "isa/rvv/toolchain.h"
#include "tb/common/platform.h"
#include "tb/rvv/rvv_hw.h"

namespace kcraft::rvv {

class RvvPlatform : public Platform {
 public:
  // Loads the hardware configurations from the data root (rtl/rvv/configs).
  RvvPlatform();

  static constexpr const char* kName = "rvv";
  static constexpr tasks::DType kDType = tasks::DType::fp32;

  std::string name() const override { return kName; }
  std::string summary() const override;
  tasks::DType dtype() const override { return kDType; }

  const std::vector<HwConfig>& hw_configs() const override { return configs_; }
  std::vector<HwParameter> hw_parameters(const std::string& hw) const override;
  uint64_t program_capacity(const std::string& hw) const override;
  // The configuration file's parameters (the RTL reports the same ones; tests check it).
  Params params(const std::string& hw) const;

  // C first (.c), then assembly (.S, .s; both through the C preprocessor).
  std::vector<KernelLanguage> languages() const override;

  // Generated from isa/rvv/rvv_isa.yaml for the default configuration's VLEN.
  std::string isa_reference() const override;
  std::vector<std::string> instruction_names() const override;
  // Every implemented instruction with its timing class (isa/rvv/rvv_isa.yaml `timing:`; rvv_scheduling.cpp).
  SchedulingTable scheduling_table(const std::string& hw) const override;

  // The hardware parameters, and with a task its layout's symbols (tasks/rvv/symbols.h: ADDR_<T>, BYTES_<T>,
  // dimensions, PARAM_<NAME>_F32); the toolchain's header adds PARAM_<NAME> as a C float literal.
  std::string symbols_note(const tasks::ResolvedConfig& cfg) const override;
  isa::SymbolTable symbols(const std::string& hw, const tasks::ResolvedConfig* cfg = nullptr,
                           const tasks::DramLayout* layout = nullptr) const override;
  // Compiles or assembles (by the file's extension) and links with crt0 (isa/rvv/toolchain.h) for the VLEN
  // in `symbols`: words are the ITCM image, `artifact` the BuiltKernel (a std::shared_ptr<const
  // BuiltKernel>); diagnostics of the kernel's file keep its line:column.
  isa::AssembleResult assemble(const std::string& source, const std::string& filename,
                               const isa::SymbolTable& symbols) const override;
  // assemble(), then every instruction of the program outside the implemented subset is an error
  // (tb/rvv/rvv_subset.h), at the kernel's line when the build's line table gives one (C kernels too).
  isa::AssembleResult check(const std::string& source, const std::string& filename,
                            const isa::SymbolTable& symbols) const override;
  // objdump's listing of the words placed from address 0.
  std::string disassemble(const std::vector<uint32_t>& words) const override;

  std::string unsupported_reason(const tasks::ResolvedConfig& cfg, const std::string& hw) const override;
  std::string default_sweep_exclusion(const tasks::ResolvedConfig& cfg, const std::string& hw) const override;
  tasks::DramLayout layout(const tasks::ResolvedConfig& cfg) const override;
  IdealCycles ideal_cycles(const tasks::ResolvedConfig& cfg, const std::string& hw) const override;
  std::string toolchain_identity() const override;
  EvalReport evaluate(const EvalRequest& request, const tasks::TaskRegistry& tasks) const override;
  std::string describe_counters(const EvalReport& report) const override;
  // `kcraft codesign` (rvv_codesign.cpp): units, stall causes and the parameters that bind them.
  CodesignRules codesign_rules(const std::string& hw) const override;
  // RISC-V assembly as objdump writes it: the destination first, stores and branches only read.
  std::vector<DataflowOp> dataflow(const std::string& instruction_text) const override;

  // tasks/rvv: the intrinsics templates (the baseline) and the scalar C references (the compiler baseline).
  std::unique_ptr<tasks::BaselineCompiler> baseline_compiler(const std::string& hw) const override;

  // tb/rvv/rvv_campaigns.cpp
  CommandReport validate(const ValidationOptions& options) const override;
  CommandReport speed(const SpeedOptions& options, const tasks::TaskRegistry& tasks) const override;
  std::vector<SpeedWorkload> speed_workloads() const override;
  // tb/rvv/rvv_debug.cpp
  CommandReport debug(const DebugOptions& options, const tasks::TaskRegistry& tasks) const override;
  // tb/rvv/rvv_coverage.cpp
  CommandReport coverage(const CoverageOptions& options, const tasks::TaskRegistry& tasks) const override;
  // tb/rvv/rvv_conformance.cpp: riscv-tests (rv32ui, rv32um, rv32uf) on the RTL, QEMU beside it
  CommandReport conformance(const ConformanceOptions& options) const override;

 private:
  // The toolchain's options for a kernel file (its language by extension) and symbols (VLEN among them).
  BuildOptions build_options(const std::string& filename, const isa::SymbolTable& symbols) const;

  std::vector<HwConfig> configs_;
};

// The registry's factory (the registration is in tb/rvv/CMakeLists.txt).
std::unique_ptr<Platform> make_rvv_platform();

// The configuration file's parameters.
Params params_from_config(const HwConfig& config);

// How a run ended, in `kcraft eval`'s words; `kcraft debug rvv` prints the same. `describe(pc)` is an
// instruction as eval shows it ("0x104: addi a0, a0, 1").
using DescribePc = std::function<std::string(uint32_t pc)>;
// "ILLEGAL at pc 0x104: ...[: address 0x...]": the runtime error of a run the core stopped with `e`.
std::string runtime_error_text(const ErrorReport& e, const DescribePc& describe);
struct HangDiagnosis {
  std::string headline;  // "the kernel did not return within N cycles (pc ...): <what the core did>"
  std::string detail;    // the report's hang section
};
HangDiagnosis hang_diagnosis(uint32_t pc, StallCause stall, uint64_t cycle_cap, const DescribePc& describe);

// evaluate()'s cycle cap when the request gives none: the shared default (tb/common/evaluation_steps.h)
// plus 20 cycles per flop, room for scalar C kernels (the baselines' matrix products take ~12 per flop).
uint64_t default_cycle_cap(const tasks::ResolvedConfig& cfg);

// A test seam: when set, evaluate() and conformance() hand it QEMU's result of every twin run before
// comparing (tests inject a wrong reference to see hardware_bug). Not for the product; nullptr removes it.
void set_qemu_result_hook(std::function<void(RunResult&)> hook);
// Hands `result` to the seam, if one is set (every twin run calls it).
void apply_qemu_result_hook(RunResult& result);

}  // namespace kcraft::rvv
