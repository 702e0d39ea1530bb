// Disassembler for any ISA described by an IsaSpec. Its output is valid assembler input:
// assemble(disassemble_program(words)) reproduces `words` for every program the assembler accepts.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "isa/common/isa_spec.h"

namespace kcraft::isa {

// An instruction word split into its operand values (register numbers, immediates, loop body lengths).
struct DecodedInstruction {
  const InstructionSpec* insn = nullptr;
  std::vector<int64_t> values;  // one per InstructionSpec::operands entry
};

// Decodes a word the assembler could have produced. Otherwise returns nullopt and sets `reason`: an
// unknown opcode, non-zero reserved bits (an illegal instruction), or an operand value outside its
// documented range (a legal word the assembler cannot write, e.g. a loop body of length 0).
std::optional<DecodedInstruction> decode(const IsaSpec& spec, uint32_t word, std::string* reason = nullptr);

// One instruction as assembler text, e.g. "V_ADD_VV r3, r1, r2, 1". Trailing operands equal to their
// default are omitted; a loop end is written relative to the instruction (".+5"). Words decode() rejects
// become ".word 0x........ ; illegal: <reason>" (or "; <reason>" for legal but unassemblable words).
std::string disassemble(const IsaSpec& spec, uint32_t word);

struct DisassemblyOptions {
  bool annotate = false;  // append "; <index>: <hex word>" to every line
};

// A whole program, one line per word, with labels ("L12:") invented for the loop ends inside it. For a
// VLIW ISA, one line per bundle ("{ op ; op }" for several ops); words that do not form a bundle the
// assembler accepts are printed as ".word"s with the reason in a comment.
std::string disassemble_program(const IsaSpec& spec, const std::vector<uint32_t>& words,
                                const DisassemblyOptions& options = {});

}  // namespace kcraft::isa
