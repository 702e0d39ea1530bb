// The instructions of an rvv program the core does not implement, for `kcraft check` and the agents'
// check_syntax: every word of the ITCM image, decoded by GNU objdump (-M no-aliases: the instructions' own
// names), looked up in the implemented subset of isa/rvv/rvv_isa.yaml. A run would stop on the first one
// reached with ERR_ILLEGAL; a check names them all, with the guide's wording, before anything runs.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "isa/common/diagnostics.h"

namespace kcraft::rvv {

struct OutsideInstruction {
  uint32_t pc = 0;
  std::string mnemonic;  // "vfrec7.v"; ".4byte" for a word objdump cannot decode
  std::string text;      // "vfrec7.v v8,v8"
  std::string reason;    // isa_reference.h's outside_reason(): the guide's wording
};

// Throws std::runtime_error when objdump is missing or fails. Zero words (alignment padding) are skipped.
std::vector<OutsideInstruction> instructions_outside_subset(const std::vector<uint32_t>& itcm);

// One error per instruction and source line (at most `limit`, then one more saying how many were left),
// pointing at the line `lines` gives its pc (a kernel build with debug_lines), or at none.
std::vector<isa::Diagnostic> outside_subset_diagnostics(const std::vector<OutsideInstruction>& found,
                                                        const std::map<uint32_t, int>& lines,
                                                        const std::string& source, size_t limit = 20);

// The class (isa_reference.h's OutsideClass::what) of the instruction an assembly line starts with, when
// the table lists it as outside the subset; "" otherwise.
std::string outside_class_of_line(const std::string& source, int line);

}  // namespace kcraft::rvv
