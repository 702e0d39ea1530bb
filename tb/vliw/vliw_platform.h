// The vliw tile as a platform (tb/common/platform.h): assemble a kernel for a task, run it on the Verilated
// RTL inside SystemC and on the functional model, compare with the golden reference, and report.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "isa/common/assembler.h"
#include "isa/common/hw_config.h"
#include "isa/vliw/vliw_machine.h"
#include "tb/common/isa_spec_platform.h"

namespace kcraft::vliw {

class VliwPlatform : public tb::IsaSpecPlatform {
 public:
  // Loads the hardware configurations from the data root (rtl/vliw/configs).
  VliwPlatform();

  static constexpr const char* kName = "vliw";
  static constexpr tasks::DType kDType = tasks::DType::bf16;

  std::string summary() const override;
  tasks::DType dtype() const override { return kDType; }

  uint64_t program_capacity(const std::string& hw) const override;
  // The configuration's parameters, DRAM timing included.
  Params params(const std::string& hw) const;

  isa::SymbolTable symbols(const std::string& hw, const tasks::ResolvedConfig* cfg = nullptr,
                           const tasks::DramLayout* layout = nullptr) const override;

  // Dimensions must be whole rows of VLEN elements and the task must fit in DRAM.
  std::string unsupported_reason(const tasks::ResolvedConfig& cfg, const std::string& hw) const override;
  tasks::DramLayout layout(const tasks::ResolvedConfig& cfg) const override;
  IdealCycles ideal_cycles(const tasks::ResolvedConfig& cfg, const std::string& hw) const override;
  EvalReport evaluate(const EvalRequest& request, const tasks::TaskRegistry& tasks) const override;
  std::string describe_counters(const EvalReport& report) const override;
  // `kcraft codesign` (vliw_codesign.cpp): units, stall causes and the parameters that bind them.
  CodesignRules codesign_rules(const std::string& hw) const override;

  // The template compiler (tasks/vliw/template_compiler.h).
  std::unique_ptr<tasks::BaselineCompiler> baseline_compiler(const std::string& hw) const override;

  // tb/vliw/vliw_campaigns.cpp
  CommandReport validate(const ValidationOptions& options) const override;
  CommandReport speed(const SpeedOptions& options, const tasks::TaskRegistry& tasks) const override;
  // tb/vliw/vliw_debug.cpp
  CommandReport debug(const DebugOptions& options, const tasks::TaskRegistry& tasks) const override;
  // tb/vliw/vliw_coverage.cpp
  CommandReport coverage(const CoverageOptions& options, const tasks::TaskRegistry& tasks) const override;
};

// The registry's factory (the registration is in tb/vliw/CMakeLists.txt).
std::unique_ptr<Platform> make_vliw_platform();

// "{ C_ACQ 3 ; S_ADDI r1, r1, 1 }": the bundle that starts at word `pc` ("" past the end).
std::string bundle_text(const std::vector<uint32_t>& words, uint32_t pc);

// How a run ended, in `kcraft eval`'s words; `kcraft debug` prints the same for the RTL and the model.
// "ILLEGAL_BUNDLE at pc 3 (kernel.s:5: ...): ...": the runtime error of a run stopped by `e`.
std::string runtime_error_text(const MachineError& e, const Params& p, const std::string& filename,
                               const isa::AssembleResult& program);
struct HangReport;
struct HangDiagnosis {
  std::string headline;  // "no C_HALT within N cycles (pc P): <what the issue stage waits for>"
  std::string detail;    // the report's hang section: the pc and bundle, the wait, the locks and loops
};
HangDiagnosis hang_diagnosis(const HangReport& h, uint64_t cycle_cap, const std::string& filename,
                             const isa::AssembleResult& program);

}  // namespace kcraft::vliw
