// The rvv platform's ISA reference (`kcraft isa rvv`, the agents' grep_docs), generated from the table of
// the implemented subset, isa/rvv/rvv_isa.yaml (embedded in the library at build time).
#pragma once

#include <set>
#include <string>
#include <utility>
#include <vector>

namespace kcraft::rvv {

// The reference in Markdown for a vector length, one "#### MNEMONIC" entry per instruction. Throws
// std::runtime_error if the embedded table is malformed (a build that passed its tests never is).
std::string isa_markdown(int vlen);

// The mnemonics with an entry, upper case ("VFMACC.VF"), in table order.
std::vector<std::string> instruction_names();

// Every instruction the core implements, lower case as GNU objdump -M no-aliases names it ("vfmacc.vf",
// "addi"): the rows of the table and each group's `also` forms. The one definition of the subset.
const std::set<std::string>& implemented_mnemonics();

// A class of instructions assemblers accept that the core does not implement (the RTL stops on them with
// ERR_ILLEGAL), in the wording of the guide ("fixed-point (`vsadd*`, ...)").
struct OutsideClass {
  std::string what;
  std::set<std::string> mnemonics;  // lower case, as implemented_mnemonics()
};
const std::vector<OutsideClass>& outside_classes();

// Why the core does not run an instruction (a lower-case mnemonic): "" for an implemented one, the class's
// `what` for one the table lists as outside, a general sentence for any other.
std::string outside_reason(const std::string& mnemonic);

// The timing of a class of instructions (rvv_isa.yaml `timing:`): formulas over the hardware parameters
// and vl, B (beats), n, R, L as the file's comment defines them.
struct TimingClass {
  std::string name, unit, latency, occupancy, hazards;
  std::vector<std::string> mnemonics;  // lower case, in the file's order
};
// Every class; each implemented instruction is in exactly one.
const std::vector<TimingClass>& timing_classes();
// The issue model, one paragraph; the units (name, what it does; a class's unit starts with one of the
// names); the rules every vector instruction follows (title, text).
const std::string& timing_issue();
const std::vector<std::pair<std::string, std::string>>& timing_units();
const std::vector<std::pair<std::string, std::string>>& timing_rules();
// The assembly syntax of a mnemonic with a row of its own ("vfmacc.vv vd, vs1, vs2"), or "".
std::string row_syntax(const std::string& mnemonic);

// "vadd.{vv,vx}" -> vadd.vv, vadd.vx (nested and repeated braces; an empty alternative is allowed).
std::vector<std::string> expand_braces(const std::string& pattern);

}  // namespace kcraft::rvv
