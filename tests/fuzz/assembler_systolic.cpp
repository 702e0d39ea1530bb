// Fuzzes the systolic assembler front end: the table-driven assembler (isa/common/assembler.cpp,
// expression.cpp, diagnostics.cpp) with the tables generated from isa/systolic.yaml, as `kcraft check`,
// `kcraft eval` and the agents' check_syntax use it.
//
// Any text must give an AssembleResult (never a crash or an exception) whose diagnostics point into the
// source and render. A program that assembles must survive the disassembler's promise: assembling
// disassemble_program(words) gives the same words.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>

#include "isa/common/assembler.h"
#include "isa/common/disassembler.h"
#include "systolic_isa.h"
#include "tb/common/paths.h"
#include "tb/systolic/systolic_platform.h"
#include "tests/fuzz/fuzz_support.h"

namespace {

using namespace kcraft;

// What kernels may refer to: the default configuration's hardware parameters and, for every task, its
// dimensions and tensor addresses (the seeds are baseline kernels of every task). Where two tasks define
// a name, the first one's value is kept; the assembler only needs some value.
const isa::SymbolTable& predefined_symbols() {
  static const isa::SymbolTable symbols = [] {
    const systolic::SystolicPlatform platform;
    const auto registry = tasks::TaskRegistry::load_directory(task_spec_dir());
    isa::SymbolTable all = platform.symbols("default");
    for (const auto& spec : registry.tasks()) {
      const auto cfg = spec.resolve("C1", systolic::SystolicPlatform::kDType);
      const auto layout = platform.layout(cfg);
      for (const auto& [name, value] : platform.symbols("default", &cfg, &layout)) all.emplace(name, value);
    }
    return all;
  }();
  return symbols;
}

size_t line_count(const std::string& text) {
  return static_cast<size_t>(std::count(text.begin(), text.end(), '\n')) + 1;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const isa::IsaSpec& spec = isa::systolic::spec();
  const std::string source = fuzz::text_of(data, size);

  const isa::AssembleResult result = isa::assemble(spec, source, "fuzz.s", predefined_symbols());
  fuzz::check(result.ok == (result.error_count() == 0), "ok disagrees with the error count");
  fuzz::check(result.error_count() <= isa::kMaxErrors, "more errors than kMaxErrors");
  fuzz::check(result.words.size() == result.word_lines.size(), "one source line per word");
  const size_t lines = line_count(source);
  for (const auto& d : result.diagnostics) {
    fuzz::check(d.line >= 0 && static_cast<size_t>(d.line) <= lines, "diagnostic line outside the source");
    fuzz::check(d.column >= 0 && d.length >= 0, "negative diagnostic column or length");
    fuzz::check(!d.message.empty(), "diagnostic without a message");
  }
  const std::string rendered = isa::format_diagnostics(result, source);
  fuzz::check(result.diagnostics.empty() || !rendered.empty(), "diagnostics that render as nothing");
  if (!result.ok) return 0;

  // The disassembler's promise (isa/common/disassembler.h): its output, plain or annotated with addresses
  // and words, assembles back to the same words. (One of the two per input: they differ only in comments.)
  const bool annotate = size % 2 == 1;
  const std::string text = isa::disassemble_program(spec, result.words, {annotate});
  const isa::AssembleResult again = isa::assemble(spec, text, "disassembly.s");
  if (!again.ok || again.words != result.words) {
    fuzz::fail("disassembly does not assemble to the same words:\n" + text + "\n" +
               isa::format_diagnostics(again, text));
  }
  return 0;
}
