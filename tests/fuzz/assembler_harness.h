// The body of every assembler front end's harness (assembler_<platform>.cpp): a platform's table-driven
// assembler (isa/common/assembler*.cpp, expression.cpp, diagnostics.cpp, and bundle.cpp for VLIW ISAs) with
// its generated tables, as `kcraft check`, `kcraft eval` and the agents' check_syntax use it.
//
// Any text must give an AssembleResult (never a crash or an exception) whose diagnostics point into the
// source and render. A program that assembles must survive the disassembler's promise: assembling
// disassemble_program(words), plain or annotated, gives the same words.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>

#include "isa/common/assembler.h"
#include "isa/common/disassembler.h"
#include "tb/common/paths.h"
#include "tb/common/platform.h"
#include "tests/fuzz/fuzz_support.h"

namespace kcraft::fuzz {

// What kernels may refer to on the platform's default configuration: its hardware parameters and, for
// every task it can lay out, the task's C1 dimensions and tensor addresses (the seeds are baseline kernels
// of every task). Where two tasks define a name, the first one's value is kept; the assembler only needs
// some value.
inline isa::SymbolTable kernel_symbols(const Platform& platform) {
  const auto registry = tasks::TaskRegistry::load_directory(task_spec_dir());
  isa::SymbolTable all = platform.symbols("default");
  for (const auto& spec : registry.tasks()) {
    const auto cfg = spec.resolve("C1", platform.dtype());
    const auto layout = platform.layout(cfg);
    for (const auto& [name, value] : platform.symbols("default", &cfg, &layout)) all.emplace(name, value);
  }
  return all;
}

inline int fuzz_assembler(const isa::IsaSpec& spec, const isa::SymbolTable& symbols, const uint8_t* data,
                          size_t size) {
  const std::string source = text_of(data, size);
  const isa::AssembleResult result = isa::assemble(spec, source, "fuzz.s", symbols);
  check(result.ok == (result.error_count() == 0), "ok disagrees with the error count");
  check(result.error_count() <= isa::kMaxErrors, "more errors than kMaxErrors");
  check(result.words.size() == result.word_lines.size(), "one source line per word");
  const size_t lines = static_cast<size_t>(std::count(source.begin(), source.end(), '\n')) + 1;
  for (const auto& d : result.diagnostics) {
    check(d.line >= 0 && static_cast<size_t>(d.line) <= lines, "diagnostic line outside the source");
    check(d.column >= 0 && d.length >= 0, "negative diagnostic column or length");
    check(!d.message.empty(), "diagnostic without a message");
  }
  const std::string rendered = isa::format_diagnostics(result, source);
  check(result.diagnostics.empty() || !rendered.empty(), "diagnostics that render as nothing");
  if (!result.ok) return 0;

  // One of plain or annotated per input: they differ only in comments.
  const bool annotate = size % 2 == 1;
  const std::string text = isa::disassemble_program(spec, result.words, {annotate});
  const isa::AssembleResult again = isa::assemble(spec, text, "disassembly.s");
  if (!again.ok || again.words != result.words) {
    fail("disassembly does not assemble to the same words:\n" + text + "\n" +
         isa::format_diagnostics(again, text));
  }
  return 0;
}

}  // namespace kcraft::fuzz
