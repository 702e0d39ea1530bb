// Fuzzes the vliw assembler front end: the table-driven assembler (isa/common/assembler.cpp with its bundle
// syntax, slot rules and read-before-ready analysis; expression.cpp, diagnostics.cpp, bundle.cpp) with the
// tables generated from isa/vliw.yaml.
//
// Any text must give an AssembleResult (never a crash or an exception) whose diagnostics point into the
// source and render. A program that assembles must survive the disassembler's promise: assembling
// disassemble_program(words), which renders bundles with braces, gives the same words.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>

#include "isa/common/assembler.h"
#include "isa/common/disassembler.h"
#include "tests/fuzz/fuzz_support.h"
#include "vliw_isa.h"

namespace {

using namespace kcraft;

// What kernels may refer to: every hardware parameter of the ISA (with the default configuration's
// values where the fuzzer's seeds need them to fit) and the task symbols of the seeds. The platform is
// not registered yet, so the values are written here; the assembler only needs some value.
const isa::SymbolTable& predefined_symbols() {
  static const isa::SymbolTable symbols = [] {
    isa::SymbolTable all = {{"VLEN", 16},
                            {"ROW_BYTES", 32},
                            {"MMUL_M", 4},
                            {"MMUL_K", 4},
                            {"MMUL_N", 4},
                            {"IMEM_WORDS", 4096},
                            {"DM_BYTES", 65536},
                            {"DM_BANKS", 8},
                            {"LOOP_DEPTH", 4},
                            {"DMA_CHANNELS", 4},
                            {"DMA_QUEUE", 4},
                            {"DRAM_LATENCY", 40},
                            {"DRAM_BYTES_PER_CYCLE", 32},
                            {"ADDR_X", 0},
                            {"ADDR_Y", 4096},
                            {"ROWS", 8},
                            {"M", 16},
                            {"N", 16},
                            {"K", 16},
                            {"DRAM_BYTES", 65536}};
    for (const isa::ParameterSpec& p : isa::vliw::spec().parameters) all.emplace(p.name, 1);
    return all;
  }();
  return symbols;
}

size_t line_count(const std::string& text) {
  return static_cast<size_t>(std::count(text.begin(), text.end(), '\n')) + 1;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const isa::IsaSpec& spec = isa::vliw::spec();
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

  // The disassembler's promise (isa/common/disassembler.h), plain or annotated.
  const bool annotate = size % 2 == 1;
  const std::string text = isa::disassemble_program(spec, result.words, {annotate});
  const isa::AssembleResult again = isa::assemble(spec, text, "disassembly.s");
  if (!again.ok || again.words != result.words) {
    fuzz::fail("disassembly does not assemble to the same words:\n" + text + "\n" +
               isa::format_diagnostics(again, text));
  }
  return 0;
}
