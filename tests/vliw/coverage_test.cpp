// `kcraft coverage vliw`: the bins come from isa/vliw.yaml, and a program hits exactly the bins of what it
// does (instructions, load/store slots, bundle widths, lane classes, exposed hazards, stalls).
#include <gtest/gtest.h>

#include <set>
#include <string>

#include <yaml-cpp/yaml.h>

#include "isa/common/assembler.h"
#include "isa/common/hw_config.h"
#include "tb/vliw/vliw_coverage.h"
#include "vliw_isa.h"

namespace kcraft::vliw {
namespace {

using tb::CoverageSource;

Params default_params() {
  return Params::from_config(
      load_hw_config(std::string(KCRAFT_SOURCE_DIR) + "/rtl/vliw/configs/default.yaml"));
}

tb::Coverage run(const std::string& source) {
  const Params p = default_params();
  const isa::AssembleResult a = isa::assemble(isa::vliw::spec(), source, "test.s", p.symbols());
  EXPECT_TRUE(a.ok);
  tb::Coverage c = vliw_coverage_bins();
  record_vliw_coverage(p, a.words, std::vector<uint8_t>(65536, 0), CoverageSource::kRandom, c);
  return c;
}

std::set<std::string> hit_bins(const tb::Coverage& c, const std::string& group) {
  std::set<std::string> out;
  for (const auto& b : c.bins()) {
    if (b.group == group && b.total_hits() > 0) out.insert(b.name);
  }
  return out;
}

TEST(VliwCoverage, InstructionBinsAreExactlyTheInstructionsOfTheIsaYaml) {
  const YAML::Node list = YAML::LoadFile(std::string(KCRAFT_SOURCE_DIR) + "/isa/vliw.yaml")["instructions"];
  ASSERT_TRUE(list.IsSequence());
  std::set<std::string> yaml_names, bins;
  for (const YAML::Node& insn : list) yaml_names.insert(insn["name"].as<std::string>());
  const tb::Coverage all = vliw_coverage_bins();
  for (const auto& b : all.bins()) {
    if (b.group == "instruction") bins.insert(b.name);
  }
  EXPECT_EQ(bins, yaml_names);
  EXPECT_EQ(bins.size(), list.size());
}

TEST(VliwCoverage, EarlyAndLandingReadsSlotsWidthsAndABankConflict) {
  // V_ADD's latency is 2: the next bundle reads the old v2, the one after reads the new value. Both loads
  // use DM bank 0 (p0 = p1 = 0): a bank conflict.
  const auto c =
      run("V_ADD v2, v1, v1\n"
          "{ V_ADD v3, v2, v2 ; L_VLD v5, p0 ; L_VLD v6, p1 }\n"
          "V_ADD v4, v2, v2\n"
          "C_HALT\n");
  EXPECT_EQ(hit_bins(c, "instruction"), (std::set<std::string>{"V_ADD", "L_VLD", "C_HALT"}));
  EXPECT_EQ(c.hits("instruction", "V_ADD", CoverageSource::kRandom), 3u);
  EXPECT_EQ(hit_bins(c, "ls slot"), (std::set<std::string>{"L_VLD in ls0", "L_VLD in ls1"}));
  EXPECT_EQ(hit_bins(c, "bundle width"), (std::set<std::string>{"1 op", "3 ops"}));
  EXPECT_EQ(hit_bins(c, "exposed hazard"),
            (std::set<std::string>{"vreg read before the result landed (old value)",
                                   "vreg read in the bundle the result lands"}));
  EXPECT_EQ(hit_bins(c, "fp lane class"), (std::set<std::string>{"V_ADD va=zero", "V_ADD vb=zero"}));
  // C_HALT drains the last V_ADD's result in flight.
  EXPECT_EQ(hit_bins(c, "stall cause"), (std::set<std::string>{"bank_conflict", "drain"}));
  EXPECT_TRUE(hit_bins(c, "error").empty());
}

TEST(VliwCoverage, ReadsAfterTheLatencyAreNoHazard) {
  const auto c = run("V_ADD v2, v1, v1\nC_NOP\nC_NOP\nV_ADD v4, v2, v2\nC_HALT\n");
  EXPECT_TRUE(hit_bins(c, "exposed hazard").empty());
  EXPECT_EQ(hit_bins(c, "instruction"), (std::set<std::string>{"V_ADD", "C_NOP", "C_HALT"}));
  EXPECT_EQ(hit_bins(c, "stall cause"), std::set<std::string>{"drain"});
}

TEST(VliwCoverage, AnErrorIsCountedUnderItsCode) {
  const auto c = run("S_LI r1, 16\nS_PMOV p0, r1\nL_VLD v1, p0\nC_HALT\n");
  EXPECT_EQ(hit_bins(c, "error"), (std::set<std::string>{"dm_misaligned"}));
}

}  // namespace
}  // namespace kcraft::vliw
