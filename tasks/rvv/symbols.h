// The per-task symbols of rvv kernels: a table (what Platform::symbols() returns and the agent tools list)
// and the header made from it, plain #defines that C and assembly (.S, through the C preprocessor) both
// read. The toolchain passes the header with -include, so kernels need no #include and line numbers in
// diagnostics stay those of the kernel's own file.
#pragma once

#include <string>

#include "isa/common/assembler.h"
#include "tasks/common/layout.h"
#include "tasks/common/task_spec.h"

namespace kcraft::rvv {

// ADDR_<T>/BYTES_<T> per DRAM region (absolute addresses: RVV_DRAM_BASE + layout offset), DRAM_BASE and
// DRAM_BYTES, the task's dimensions (M, N, K...), its numeric parameters as PARAM_<NAME>_F32 (the IEEE
// binary32 bits of the float nearest the value, for assembly: `li t0, PARAM_EPS_F32; fmv.w.x ft0, t0`),
// and the hardware parameters `hw` (VLEN...). Throws std::invalid_argument for a name that is not a C
// identifier, a name defined twice, a parameter that is not finite, or a layout past RVV_DRAM_MAX_BYTES.
isa::SymbolTable task_symbols(const tasks::ResolvedConfig& config, const tasks::DramLayout& layout,
                              const isa::SymbolTable& hw);

// The header of a symbol table: one #define per entry (ADDR_*, DRAM_BASE and *_F32 in hex, the rest in
// decimal), and for every PARAM_<NAME>_F32 also PARAM_<NAME>, the same float as a C literal ("1e-05f"), for
// C. `title` goes into the first comment. Throws std::invalid_argument for a name that is not a C
// identifier or a PARAM_<NAME> defined besides its _F32 form.
std::string symbols_header(const isa::SymbolTable& symbols, const std::string& title = "");

// symbols_header(task_symbols(config, layout, hw)), titled with the task and configuration.
std::string symbols_header(const tasks::ResolvedConfig& config, const tasks::DramLayout& layout,
                           const isa::SymbolTable& hw);

}  // namespace kcraft::rvv
