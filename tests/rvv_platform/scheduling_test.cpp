// rvv's scheduling table (`kcraft isa rvv --json`): every implemented instruction is in exactly one timing
// class, and the formulas give the numbers docs/rvv.md's timing tables state (which RvvCoreTiming.* and
// VpuTiming.* measure on the RTL).
#include <gtest/gtest.h>

#include <map>
#include <set>
#include <string>

#include "isa/rvv/isa_reference.h"
#include "tb/common/scheduling_table.h"
#include "tests/rvv_platform/rvv_test_support.h"

namespace kcraft::rvv::test {
namespace {

TEST(RvvScheduling, EveryImplementedInstructionIsInExactlyOneTimingClass) {
  std::map<std::string, std::string> class_of;
  std::set<std::string> units;
  for (const auto& [name, description] : timing_units()) units.insert(name);
  for (const TimingClass& c : timing_classes()) {
    bool known_unit = false;
    for (const std::string& u : units) known_unit |= c.unit.rfind(u, 0) == 0;
    EXPECT_TRUE(known_unit) << c.name << ": unit '" << c.unit << "' is not in timing_units";
    for (const std::string& m : c.mnemonics) {
      EXPECT_TRUE(class_of.emplace(m, c.name).second) << m << " is in " << class_of[m] << " and " << c.name;
      EXPECT_EQ(implemented_mnemonics().count(m), 1u) << m << " (" << c.name << ") is not implemented";
    }
  }
  for (const std::string& m : implemented_mnemonics())
    EXPECT_EQ(class_of.count(m), 1u) << m << " has no class";
  const SchedulingTable t = rvv().scheduling_table("default");
  EXPECT_EQ(t.instructions.size(), implemented_mnemonics().size());
}

// The guide's numbers: docs/rvv.md "Latencies and stalls" (default) and the vector table's e32 m8, vl 32
// column (B = 8 beats, R = 8 rows, L = 1).
TEST(RvvScheduling, TheFormulasGiveTheGuidesNumbers) {
  const SchedulingTable t = rvv().scheduling_table("default");
  std::map<std::string, const InstructionTiming*> row;
  for (const InstructionTiming& i : t.instructions) row[i.name] = &i;
  ASSERT_EQ(row.count("div"), 1u);
  EXPECT_EQ(row["div"]->occupancy_value, 18);
  EXPECT_EQ(row["fdiv.s"]->occupancy_value, 15);
  EXPECT_EQ(row["fdiv.s"]->latency_value, 16);  // "fdiv.s 15 and with a dependent fadd.s 17"
  EXPECT_EQ(row["lw"]->latency_value, 2);       // "lw a0; addi a1, a0, 1 takes 3"
  EXPECT_EQ(row["add"]->latency_value, 1);
  EXPECT_FALSE(row["vadd.vv"]->occupancy_value.has_value());  // depends on vl

  isa::SymbolTable at_vl32 = rvv().symbols("default");
  at_vl32["vl"] = 32;
  at_vl32["B"] = 8;
  at_vl32["R"] = 8;
  at_vl32["L"] = 1;
  const std::map<std::string, int64_t> expected = {
      {"vadd.vv", 10},      {"vdiv.vv", 10}, {"vfadd.vv", 11}, {"vfdiv.vv", 123}, {"vfredosum.vs", 36},
      {"vcompress.vm", 35}, {"vmand.mm", 2}, {"vcpop.m", 1},   {"vle32.v", 12},   {"vredsum.vs", 10}};
  for (const auto& [name, cycles] : expected) {
    ASSERT_EQ(row.count(name), 1u) << name;
    EXPECT_EQ(formula_value(row[name]->occupancy, at_vl32), cycles) << name << ": " << row[name]->occupancy;
  }
  at_vl32["n"] = 8;
  EXPECT_EQ(formula_value(row["vmv8r.v"]->occupancy, at_vl32), 8 * 128 / (32 * 4) + 2);
}

TEST(RvvScheduling, RegistersFollowRiscVNaming) {
  const SchedulingTable t = rvv().scheduling_table("default");
  std::map<std::string, const InstructionTiming*> row;
  for (const InstructionTiming& i : t.instructions) row[i.name] = &i;
  EXPECT_EQ(row["vfmacc.vv"]->writes, std::vector<std::string>{"vd"});
  EXPECT_EQ(row["vfmacc.vv"]->reads, (std::vector<std::string>{"vd", "vs1", "vs2"}));
  EXPECT_EQ(row["add"]->reads, (std::vector<std::string>{"rs1", "rs2"}));
  EXPECT_EQ(row["sw"]->writes, std::vector<std::string>{});
  // The scalar fused multiply-add writes fd from three sources; only the vector ones accumulate into vd.
  EXPECT_EQ(row["fmadd.s"]->reads, (std::vector<std::string>{"fs1", "fs2", "fs3"}));
  EXPECT_EQ(row["fmadd.s"]->writes, std::vector<std::string>{"fd"});
}

}  // namespace
}  // namespace kcraft::rvv::test
