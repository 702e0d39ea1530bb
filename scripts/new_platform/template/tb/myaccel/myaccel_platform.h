// myaccel as a platform (tb/common/platform.h): assemble a kernel for a task, run it on the Verilated RTL
// inside SystemC and on the functional model, compare with the golden reference, and report.
#pragma once

#include <memory>
#include <string>

#include "isa/myaccel/myaccel_machine.h"
#include "tb/common/isa_spec_platform.h"

namespace kcraft::myaccel {

class MyaccelPlatform : public tb::IsaSpecPlatform {
 public:
  // Loads the hardware configurations from the data root (rtl/myaccel/configs).
  MyaccelPlatform();

  static constexpr const char* kName = "myaccel";
  static constexpr tasks::DType kDType = tasks::DType::fp32;

  std::string summary() const override;
  tasks::DType dtype() const override { return kDType; }

  uint64_t program_capacity(const std::string& hw) const override;
  // The configuration's parameters, DRAM timing included.
  Params params(const std::string& hw) const;

  isa::SymbolTable symbols(const std::string& hw, const tasks::ResolvedConfig* cfg = nullptr,
                           const tasks::DramLayout* layout = nullptr) const override;

  // relu and gemm at C1-C2, with whole rows of LANES elements (the baseline compiler's limits).
  std::string unsupported_reason(const tasks::ResolvedConfig& cfg, const std::string& hw) const override;
  tasks::DramLayout layout(const tasks::ResolvedConfig& cfg) const override;
  IdealCycles ideal_cycles(const tasks::ResolvedConfig& cfg, const std::string& hw) const override;
  EvalReport evaluate(const EvalRequest& request, const tasks::TaskRegistry& tasks) const override;
  std::string describe_counters(const EvalReport& report) const override;

  std::unique_ptr<tasks::BaselineCompiler> baseline_compiler(const std::string& hw) const override;

  // tb/myaccel/myaccel_campaigns.cpp
  CommandReport validate(const ValidationOptions& options) const override;
  CommandReport speed(const SpeedOptions& options, const tasks::TaskRegistry& tasks) const override;
  // gemm C2, relu C2: the largest cells the scaffold supports.
  std::vector<SpeedWorkload> speed_workloads() const override;
};

// The registry's factory (the registration is in tb/myaccel/CMakeLists.txt).
std::unique_ptr<Platform> make_myaccel_platform();

// "VLD v1, x2" for the instruction at `pc` ("" past the end).
std::string instruction_text(const std::vector<uint32_t>& words, uint32_t pc);

}  // namespace kcraft::myaccel
