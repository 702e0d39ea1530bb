// rvv's timing-model knowledge for `kcraft codesign` (agent/bench/codesign.h, docs/codesign.md), and the
// dataflow of RISC-V instructions as objdump writes them.
#include <algorithm>
#include <regex>

#include "tb/rvv/rvv_platform.h"

namespace kcraft::rvv {

namespace {

std::vector<std::string> operands_of(const std::string& text) {
  std::vector<std::string> out;
  std::string current;
  for (char ch : text) {
    if (ch == ',') {
      out.push_back(current);
      current.clear();
    } else if (ch != ' ' && ch != '\t') {
      current += ch;
    }
  }
  if (!current.empty()) out.push_back(current);
  return out;
}

// "0(a0)" reads a0; "(a0)" too; a register name is itself; anything else (immediates, labels, vtype
// fields like e32 and m1, the mask operand v0.t) is "".
std::string register_of(const std::string& operand) {
  const size_t open = operand.find('(');
  const std::string reg =
      open == std::string::npos ? operand : operand.substr(open + 1, operand.find(')') - open - 1);
  static const std::regex kRegister(R"(x[0-9]+|zero|ra|sp|gp|tp|[ast][0-9]+|f[ast]?[0-9]+|v[0-9]+)");
  return std::regex_match(reg, kRegister) ? reg : "";
}

}  // namespace

std::vector<DataflowOp> RvvPlatform::dataflow(const std::string& instruction_text) const {
  DataflowOp op;
  const size_t begin = instruction_text.find_first_not_of(" \t");
  if (begin == std::string::npos) return {op};
  const size_t end = instruction_text.find_first_of(" \t", begin);
  op.mnemonic = instruction_text.substr(begin, end == std::string::npos ? std::string::npos : end - begin);
  const auto operands = operands_of(end == std::string::npos ? "" : instruction_text.substr(end));
  const std::string& m = op.mnemonic;
  auto starts = [&](const char* prefix) { return m.rfind(prefix, 0) == 0; };
  const bool memory_operand = std::any_of(operands.begin(), operands.end(),
                                          [](const std::string& o) { return o.find('(') != o.npos; });
  const bool branch = starts("b") || starts("j") || m == "ret" || m == "ecall" || m == "ebreak";
  const bool store = memory_operand && (starts("s") || starts("fs") || starts("vs"));
  if (memory_operand) {
    op.unit = starts("v") ? "vector_memory" : "memory";
  } else if (starts("vset")) {
    op.unit = "scalar";
  } else if (starts("v")) {
    op.unit = "vector";
  } else if (starts("f")) {
    op.unit = "fp";
  } else if (branch) {
    op.unit = "control";
  } else {
    op.unit = "scalar";
  }
  // The destination is the first operand, except for stores and branches (jal/jalr write their link).
  const bool writes_first = !operands.empty() && !store && (!branch || starts("jal"));
  const bool accumulates = starts("v") && (m.find("macc") != m.npos || m.find("nmsac") != m.npos ||
                                           m.find("madd") != m.npos || m.find("msub") != m.npos);
  for (size_t i = 0; i < operands.size(); ++i) {
    const std::string reg = register_of(operands[i]);
    if (reg.empty() || reg == "zero" || reg == "x0") continue;
    if (i == 0 && writes_first) {
      op.writes.push_back({reg, ""});
      if (accumulates) op.reads.push_back({reg, ""});
    } else {
      op.reads.push_back({reg, ""});
    }
  }
  return {op};
}

CodesignRules RvvPlatform::codesign_rules(const std::string& hw) const {
  const HwConfig& c = hw_config(hw);
  auto doubled = [&](const std::string& key) { return doubled_build_param(c, key); };
  const auto bandwidth = doubled_runtime_param(c, "dram_bytes_per_cycle");
  CodesignRules rules;
  rules.issue_track = "retire (WB)";
  rules.cause_units = {
      {"fp_divsqrt", "fp"}, {"vector", "vector"}, {"memory", "memory"}, {"branch", "control"}};
  rules.fusion_units = {"vector", "fp"};
  // Waiting for a source register; waiting for the vector unit is its occupancy, which a fused
  // instruction keeps (it does the same work there).
  rules.fusion_saved_causes = {"data"};
  rules.fusion_rule =
      "one instruction retires per cycle at most; a dependent instruction waits in decode for its "
      "source (a data stall) and the vector unit takes VLEN / (32 x LANES) cycles per register: a fused "
      "instruction retires once, so the later parts' retire cycles and their data stalls are saved (not the "
      "stalls waiting for the vector unit: the fused instruction does the same work there)";
  rules.parameters = {
      {"vector", "", "LANES", doubled("LANES"),
       "instructions wait for the vector unit: more lanes per cycle"},
      {"vector", "", "VECTOR_QUEUE", doubled("VECTOR_QUEUE"),
       "the vector queue is full: a deeper queue lets scalar work run ahead"},
      {"memory", "", "DCACHE_BYTES", doubled("DCACHE_BYTES"), "loads miss in the data cache"},
      {"memory", "", "dram_bytes_per_cycle", bandwidth, "cache misses and write-backs wait for DRAM"},
      {"fp_divsqrt", "", "FDIV_BITS_PER_CYCLE", doubled("FDIV_BITS_PER_CYCLE"),
       "FDIV/FSQRT occupy the FP divider: more bits per cycle"},
  };
  rules.essential = {"ebreak", "ecall", "ret"};
  return rules;
}

}  // namespace kcraft::rvv
