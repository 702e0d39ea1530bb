// The systolic NPU as a platform: assemble a kernel for a task, run it on the Verilated RTL inside
// SystemC and on the functional model, compare with the golden reference, and report.
#pragma once

#include <string>
#include <vector>

#include "isa/common/assembler.h"
#include "isa/common/hw_config.h"
#include "isa/systolic/systolic_machine.h"
#include "tasks/common/layout.h"
#include "tasks/common/task_spec.h"
#include "tb/common/evaluation.h"

namespace kcraft::systolic {

class SystolicPlatform {
 public:
  // Loads the hardware configurations from the data root (rtl/systolic/configs).
  SystolicPlatform();

  static constexpr const char* kName = "systolic";
  static constexpr tasks::DType kDType = tasks::DType::bf16;

  const std::vector<HwConfig>& hw_configs() const { return configs_; }
  // Throws std::invalid_argument listing the known names.
  const HwConfig& hw_config(const std::string& name) const;
  Params params(const std::string& hw_config) const;

  // Empty when the task/config can run here, otherwise why not.
  std::string unsupported_reason(const tasks::ResolvedConfig& cfg, const std::string& hw_config) const;

  // The layout kernels see: the task's layout, DRAM sized to its end (rounded up to 4 KiB).
  tasks::DramLayout layout(const tasks::ResolvedConfig& cfg) const;

  // Symbols every kernel may use: the hardware parameters, and with a task its dimensions, tensor
  // addresses (ADDR_<TENSOR>), sizes (BYTES_<TENSOR>) and the scratch region.
  isa::SymbolTable symbols(const std::string& hw_config, const tasks::ResolvedConfig* cfg = nullptr,
                           const tasks::DramLayout* layout = nullptr) const;

  // Assembles `source` (for `kcraft check` and the agent's syntax check).
  isa::AssembleResult assemble(const std::string& source, const std::string& filename,
                               const isa::SymbolTable& symbols) const;

  IdealCycles ideal_cycles(const tasks::ResolvedConfig& cfg, const std::string& hw_config) const;

  // The whole evaluation. Never throws for kernel problems; input problems give Verdict::kInputError.
  EvalReport evaluate(const EvalRequest& request, const tasks::TaskRegistry& tasks) const;

 private:
  std::vector<HwConfig> configs_;
};

// Default cycle cap of a run: generous for any correct kernel of the configuration's size.
uint64_t default_cycle_cap(const tasks::ResolvedConfig& cfg);

}  // namespace kcraft::systolic
