// rvv's scheduling table (`kcraft isa rvv --json`): every implemented instruction with its timing class
// from isa/rvv/rvv_isa.yaml (`timing:`), the formulas evaluated on the hardware configuration where they
// use only its parameters.
#include <set>
#include <string>
#include <vector>

#include "isa/rvv/isa_reference.h"
#include "tb/rvv/rvv_platform.h"

namespace kcraft::rvv {

namespace {

// Register operands of a row's syntax, by RISC-V's naming: rd, fd and vd are written, the others read; the
// multiply-adds (vd = vd + ...) read vd too; a `v0.t` operand reads the mask.
void register_operands(const std::string& mnemonic, const std::string& syntax, InstructionTiming& row) {
  static const std::set<std::string> kRegisters = {"rd",  "rs1", "rs2", "rs3", "fd",  "fs1",
                                                   "fs2", "fs3", "vd",  "vs1", "vs2", "vs3"};
  const bool accumulates =
      mnemonic.find("macc") != std::string::npos || mnemonic.find("madd") != std::string::npos ||
      mnemonic.find("msac") != std::string::npos || mnemonic.find("msub") != std::string::npos;
  const bool vector = !mnemonic.empty() && mnemonic[0] == 'v';
  std::string name;
  auto flush = [&] {
    if (name == "v0.t") {
      row.reads.push_back("v0");
    } else if (kRegisters.count(name) != 0) {
      const bool dest = name == "rd" || name == "fd" || name == "vd";
      if (dest) row.writes.push_back(name);
      if (!dest || (accumulates && vector)) row.reads.push_back(name);
    }
    name.clear();
  };
  const size_t space = syntax.find(' ');
  if (space == std::string::npos) return;
  for (size_t i = space + 1; i < syntax.size(); ++i) {
    const char c = syntax[i];
    if (c == ',' || c == ' ' || c == '(' || c == ')' || c == '[' || c == ']') {
      flush();
    } else {
      name += c;
    }
  }
  flush();
}

}  // namespace

SchedulingTable RvvPlatform::scheduling_table(const std::string& hw) const {
  const isa::SymbolTable params = symbols(hw);
  SchedulingTable t;
  t.platform = name();
  t.hw = hw_config(hw).name;
  t.time_unit = "cycles";
  t.issue = timing_issue();
  t.units = timing_units();
  t.rules = timing_rules();
  for (const TimingClass& c : timing_classes()) {
    for (const std::string& mnemonic : c.mnemonics) {
      InstructionTiming row;
      row.name = mnemonic;
      row.syntax = row_syntax(mnemonic);
      row.unit = c.unit;
      row.latency = c.latency;
      row.occupancy = c.occupancy;
      row.latency_value = formula_value(c.latency, params);
      row.occupancy_value = formula_value(c.occupancy, params);
      row.hazards = c.hazards;
      register_operands(mnemonic, row.syntax, row);
      t.instructions.push_back(std::move(row));
    }
  }
  return t;
}

}  // namespace kcraft::rvv
