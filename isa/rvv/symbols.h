// The per-task symbol header of rvv kernels: plain #defines that C and assembly (.S, through the C
// preprocessor) both read. The toolchain passes it with -include, so kernels need no #include and line
// numbers in diagnostics stay those of the kernel's own file.
#pragma once

#include <string>

#include "isa/common/assembler.h"
#include "tasks/common/layout.h"
#include "tasks/common/task_spec.h"

namespace kcraft::rvv {

// ADDR_<T>/BYTES_<T> per DRAM region (absolute addresses: RVV_DRAM_BASE + layout offset), DRAM_BASE and
// DRAM_BYTES, the task's dimensions (M, N, K...), its numeric parameters as C float literals PARAM_<NAME>
// (for C only), and the hardware parameters `hw` (VLEN...). Throws std::invalid_argument for a name that
// is not a C identifier, a name defined twice, or a layout past RVV_DRAM_MAX_BYTES.
std::string symbols_header(const tasks::ResolvedConfig& config, const tasks::DramLayout& layout,
                           const isa::SymbolTable& hw);

}  // namespace kcraft::rvv
