// Builds an rvv kernel (C or assembly) into a bare-metal RV32IMF+Zve32f program with the project's crt0
// and linker script (rvv_memory_map.h), using Debian's clang-16, ld.lld-16 and GNU objdump.
//
// C:        clang-16 --target=riscv32-unknown-elf -march=rv32imf_zve32f_zvl<VLEN>b -mabi=ilp32f -O2
//           -ffreestanding -nostdlib (clang 16 auto-vectorizes for RVV only when it knows a minimum VLEN:
//           with plain -march=rv32imf_zve32f its cost model rejects scalable vectors; Zvl<VLEN>b, or
//           equivalently -mllvm -riscv-v-vector-bits-min=<VLEN>, turns the loop vectorizer on).
// Assembly: the same clang-16 (its integrated assembler reports line:column, GNU as only line), always
//           through the C preprocessor (-x assembler-with-cpp), so .s and .S files both see the symbols;
//           or, with `gnu_assembler`, clang-16's preprocessor then GNU as (riscv64-unknown-elf-as), for
//           sources written for GNU as (riscv-tests' `.float 0f:7fc00000` hex floats, which clang rejects).
// Link:     ld.lld-16 -T <generated linker script> crt0.o kernel.o.
#pragma once

#include <chrono>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "isa/common/diagnostics.h"
#include "isa/rvv/elf32.h"

namespace kcraft::rvv {

// One compiler, assembler or linker message, with the user's file name and line numbers.
struct ToolDiagnostic {
  std::string file;  // the kernel's file name as given; "" for the linker or the tool as a whole
  int line = 0;      // 1-based; 0 = none
  int column = 0;    // 1-based; 0 = none
  isa::Severity severity = isa::Severity::kError;
  std::string message;
};

struct BuildOptions {
  std::string language = "c";            // "c" or "asm"
  std::string file_name = "kernel.c";    // how diagnostics name the source (only its last component is used)
  std::string symbols_header;            // passed with -include when not empty (symbols_header())
  int vlen = 128;                        // bits; a power of two in [128, 1024]
  std::string opt_level = "-O2";         // C only
  bool auto_vectorize = true;            // C only: let clang's loop vectorizer use RVV
  bool gnu_assembler = false;            // assembly only: GNU as after clang's preprocessor
  std::vector<std::string> extra_flags;  // appended to the compile (for GNU as: the preprocessor) command
  // Compile with debug information (-g) and fill BuiltKernel::line_rows. clang's code does not depend on
  // -g, but a caller mapping another build's addresses should compare the words (`kcraft check` does).
  bool debug_lines = false;
  std::chrono::milliseconds timeout{30000};  // per tool invocation
};

// A memory segment the ELF places outside the ITCM (initialised data in DTCM), zero-extended to its size
// in memory.
struct DataSegment {
  uint32_t address = 0;
  std::vector<uint8_t> bytes;
};

struct BuiltKernel {
  bool ok = false;
  std::vector<ToolDiagnostic> diagnostics;  // errors and warnings, compile and link
  std::string log;                          // the tools' raw stderr, in order
  std::vector<uint32_t> itcm;               // code from RVV_ITCM_BASE, one little-endian word each
  std::vector<DataSegment> data;            // everything else loadable (DTCM)
  uint32_t entry = 0;
  std::string disassembly;   // objdump -d of the linked program
  ElfImage elf;              // the linked program's loadable segments
  // With BuildOptions::debug_lines: the rows of the line table, by the address each starts at: the kernel
  // source's line (1-based), or 0 (crt0, another file, the compiler's line-0 code, a sequence's end).
  std::map<uint32_t, int> line_rows;
  bool reproducible = true;  // false when a tool timed out or could not start (not the source's doing)
};

// Throws std::invalid_argument for a bad language or VLEN, std::runtime_error when a tool is missing (the
// message names the Debian package). Compile and link errors are diagnostics, with ok = false.
// The process keeps its last 16 builds the source decided (reproducible), keyed by everything but the
// timeout: the same source and options again return the same program without running the tools (an
// evaluation on several seeds, a compiler baseline asked for twice). crt0.o is assembled once per VLEN.
BuiltKernel build_kernel(const std::string& source, const BuildOptions& options);

// The kernel's line of the instruction at `pc` from BuiltKernel::line_rows: the row it runs under (a row
// covers the addresses up to the next one, as a compiler's rows do), or with `exact` only a row starting at
// `pc` (an assembler writes one per instruction and none for data such as .word). 0 = none.
int source_line_at(const std::map<uint32_t, int>& rows, uint32_t pc, bool exact);

// The path of a tool in PATH; throws std::runtime_error naming the Debian package that installs it.
std::string find_tool(const std::string& name, const std::string& package);

// The first line of `--version` of every external tool a kernel's build and reference run use (clang-16,
// ld.lld-16, GNU as and objdump, qemu-riscv32), one per line, read once per process; a missing tool is
// named as such. Part of the evaluation cache's key: a new tool version gives new results.
const std::string& toolchain_versions();

// The linker script, generated from rvv_memory_map.h.
std::string linker_script();

// gcc-style lines: "kernel.c:3:5: error: ...".
std::string format_diagnostics(const std::vector<ToolDiagnostic>& diagnostics);

// Parses compiler/assembler/linker stderr (exposed for tests). `temp_name` is the source's name in the
// build directory, reported as `user_name`.
std::vector<ToolDiagnostic> parse_diagnostics(const std::string& text, const std::string& temp_name,
                                              const std::string& user_name);

}  // namespace kcraft::rvv
