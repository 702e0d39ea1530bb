// Fuzzes the ISA YAML loader (isa/tools/spec_loader*.cpp), the front of kcraft_isagen: isa/<platform>.yaml
// is the single source of truth, and a new ISA starts as someone's hand-written file.
//
// Any text must come back as a list of "file:line:col: error: ..." messages or a spec, never a crash or an
// exception. A spec that loads must be usable: every generator (C++ tables, SystemVerilog package,
// Markdown reference, which assembles the examples) runs on it, and its instructions encode and decode.
#include <cstddef>
#include <cstdint>
#include <string>

#include "isa/common/assembler.h"
#include "isa/common/disassembler.h"
#include "isa/tools/emitters.h"
#include "isa/tools/spec_loader.h"
#include "tests/fuzz/fuzz_support.h"

using namespace kcraft;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  isa::gen::SpecLoadResult loaded;
  try {
    loaded = isa::gen::load_isa_spec_text(fuzz::text_of(data, size), "fuzz.yaml");
  } catch (const std::exception& e) {
    fuzz::fail_unexpected(e, "load_isa_spec_text");  // it reports problems as messages, never by throwing
  }
  fuzz::check(loaded.spec.has_value() == loaded.errors.empty(), "a spec and errors at once (or neither)");
  for (const auto& message : loaded.errors) {
    fuzz::check(message.rfind("fuzz.yaml", 0) == 0, "an error that does not name the file: " + message);
  }
  if (!loaded.spec) return 0;
  const isa::IsaSpec& spec = *loaded.spec;

  try {
    const std::string markdown = isa::gen::emit_markdown(spec, "fuzz.yaml");
    (void)isa::gen::emit_cpp_header(spec, "fuzz.yaml");
    (void)isa::gen::emit_cpp_tables(spec, "fuzz.yaml", markdown);
    (void)isa::gen::emit_sv_package(spec, "fuzz.yaml");
  } catch (const std::exception& e) {
    fuzz::fail_unexpected(e, "the generators on a spec that loaded");
  }

  // Every opcode decodes to its instruction, and the disassembly of its all-zero-operand word (when legal)
  // assembles back.
  for (const auto& insn : spec.instructions) {
    const uint32_t word = isa::insert(0, spec.opcode_field, insn.opcode);
    fuzz::check(spec.find_opcode(insn.opcode) == &insn, "opcode lookup of " + insn.name);
    const auto decoded = isa::decode(spec, word);
    if (!decoded) continue;
    const std::string text = isa::disassemble(spec, word);
    bool has_body = false;
    for (const auto& op : insn.operands) has_body = has_body || op.kind == isa::OperandKind::kBody;
    if (has_body) continue;
    const auto again = isa::assemble(spec, text + "\n", "word.s");
    // In a VLIW ISA an op written alone is a bundle of its own: its word ends the bundle.
    const uint32_t end_of_bundle = spec.bundle.present() ? isa::field_mask(spec.bundle.end_field) : 0u;
    if (!again.ok || again.words != std::vector<uint32_t>{word | end_of_bundle}) {
      fuzz::fail("'" + text + "' does not assemble back to its word\n" +
                 isa::format_diagnostics(again, text));
    }
  }
  return 0;
}
