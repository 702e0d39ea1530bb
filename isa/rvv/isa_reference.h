// The rvv platform's ISA reference (`kcraft isa rvv`, the agents' grep_docs), generated from the table of
// the implemented subset, isa/rvv/rvv_isa.yaml (embedded in the library at build time).
#pragma once

#include <string>
#include <vector>

namespace kcraft::rvv {

// The reference in Markdown for a vector length, one "#### MNEMONIC" entry per instruction. Throws
// std::runtime_error if the embedded table is malformed (a build that passed its tests never is).
std::string isa_markdown(int vlen);

// The mnemonics with an entry, upper case ("VFMACC.VF"), in table order.
std::vector<std::string> instruction_names();

}  // namespace kcraft::rvv
