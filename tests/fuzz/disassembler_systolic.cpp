// Fuzzes the systolic disassembler (isa/common/disassembler.cpp), which reads machine words that come from
// outside the assembler: instruction traces, RTL error reports (the faulting word), hand-made images.
//
// The input is a program image, four bytes per word, little-endian. Every word must decode or be rejected
// with a reason, and its disassembly must assemble back to the same word (words the assembler cannot
// write come out as ".word"; isa/common/disassembler.h). Loop instructions are checked as part of the
// whole program: assembling the program's disassembly, when the assembler accepts it (loop bodies that
// overlap or run past the end are rejected), must give the same words.
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "isa/common/assembler.h"
#include "isa/common/disassembler.h"
#include "systolic_isa.h"
#include "tests/fuzz/fuzz_support.h"

namespace {

using namespace kcraft;

bool has_body_operand(const isa::InstructionSpec& insn) {
  for (const auto& op : insn.operands) {
    if (op.kind == isa::OperandKind::kBody) return true;
  }
  return false;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const isa::IsaSpec& spec = isa::systolic::spec();
  std::vector<uint32_t> words(size / 4);
  for (size_t i = 0; i < words.size(); ++i) {
    words[i] = static_cast<uint32_t>(data[4 * i]) | static_cast<uint32_t>(data[4 * i + 1]) << 8 |
               static_cast<uint32_t>(data[4 * i + 2]) << 16 | static_cast<uint32_t>(data[4 * i + 3]) << 24;
  }

  // Word by word for the first kWordChecks words; the whole-program round trip below covers the rest.
  // The check is per word, but one assembler run does it when every word passes: the words' disassemblies
  // one per line make a program whose line i must give exactly word i. The lines name no label or symbol
  // (loops, whose ".+N" needs N more words, are left out), so a line assembles in that program as it does
  // alone. Only when the program does not give the words does each word go through the assembler on its
  // own, which finds the word and reports it as before.
  constexpr size_t kWordChecks = 64;
  std::string batch;
  std::vector<uint32_t> batch_words;
  for (size_t i = 0; i < words.size() && i < kWordChecks; ++i) {
    const uint32_t word = words[i];
    std::string reason;
    const auto decoded = isa::decode(spec, word, &reason);
    fuzz::check(decoded.has_value() || !reason.empty(), "a word rejected without a reason");
    if (decoded && has_body_operand(*decoded->insn)) continue;
    batch += isa::disassemble(spec, word) + "\n";
    batch_words.push_back(word);
  }
  const isa::AssembleResult batched = isa::assemble(spec, batch, "words.s");
  bool each_line_its_word = batched.ok && batched.words == batch_words;
  for (size_t i = 0; each_line_its_word && i < batched.word_lines.size(); ++i) {
    each_line_its_word = batched.word_lines[i] == static_cast<int>(i) + 1;
  }
  if (!each_line_its_word) {
    for (const uint32_t word : batch_words) {
      const std::string text = isa::disassemble(spec, word);
      const isa::AssembleResult again = isa::assemble(spec, text + "\n", "word.s");
      if (!again.ok || again.words != std::vector<uint32_t>{word}) {
        fuzz::fail("'" + text + "' does not assemble back to the word it came from\n" +
                   isa::format_diagnostics(again, text));
      }
    }
  }

  const std::string program = isa::disassemble_program(spec, words, {size % 2 == 1});
  const isa::AssembleResult again = isa::assemble(spec, program, "program.s");
  if (again.ok && again.words != words) {
    fuzz::fail("the disassembly assembles to other words:\n" + program);
  }
  return 0;
}
