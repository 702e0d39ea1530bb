// `kcraft coverage vliw`: the bins come from isa/vliw.yaml, and a program hits exactly the bins of what it
// does (instructions, load/store slots, bundle widths, lane classes, exposed hazards, stalls).
#include <gtest/gtest.h>

#include <map>
#include <set>
#include <stdexcept>
#include <string>

#include <yaml-cpp/yaml.h>

#include "isa/common/assembler.h"
#include "isa/common/hw_config.h"
#include "isa/vliw/vliw_iss.h"
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

// ---------------------------------------------------------------- the random campaign and its steering

// Programs of a `kcraft validate vliw` campaign (its first seed and length): every op they issue, by name.
std::map<std::string, uint64_t> issued_ops(const RandomProgramOptions& options, uint64_t first_seed,
                                           uint64_t programs) {
  const Params p = default_params();
  const isa::IsaSpec& spec = isa::vliw::spec();
  std::map<std::string, uint64_t> issued;
  for (uint64_t seed = first_seed; seed < first_seed + programs; ++seed) {
    const RandomProgram prog = random_program(p, seed, options);
    Iss iss(p);
    iss.on_issue = [&](uint32_t, const std::vector<uint32_t>& bundle, uint64_t) {
      for (uint32_t word : bundle) {
        if (const auto* insn = spec.find_opcode(isa::extract(word, spec.opcode_field))) ++issued[insn->name];
      }
    };
    iss.reset(prog.words);
    std::vector<uint8_t> dram = prog.dram;
    EXPECT_NE(iss.run(dram, 2'000'000).stop, Iss::Stop::kCycleCap) << "seed " << seed;
  }
  return issued;
}

// The first programs of a `kcraft validate vliw` campaign execute every instruction of isa/vliw.yaml, so
// an instruction the random generator never produces fails here by name.
TEST(VliwRandomCampaign, UsesEveryInstruction) {
  constexpr uint64_t kPrograms = 20;
  const ValidationOptions campaign;  // the command's defaults
  const auto issued = issued_ops(steered_random_options(campaign.length, {}), campaign.seed, kPrograms);
  for (const auto& insn : isa::vliw::spec().instructions) {
    EXPECT_GT(issued.count(insn.name) ? issued.at(insn.name) : 0u, 0u)
        << insn.name << " is issued by no program of seeds " << campaign.seed << ".."
        << campaign.seed + kPrograms - 1 << ": teach isa/vliw/random_program.cpp its operands";
  }
}

// Steering toward unhit instruction bins makes those instructions several times as frequent, in each
// slot kind (a control op through its construct).
TEST(VliwRandomCampaign, SteeringTowardInstructionsIssuesThemMoreOften) {
  const std::vector<std::string> names = {"L_VLDB", "V_RMAX", "A_RSQRT", "S_LUI",
                                          "S_PADD", "C_LOOP", "C_DMAST"};
  std::vector<CoverageBinName> focus;
  for (const auto& n : names) focus.push_back({"instruction", n});
  const RandomProgramOptions steered = steered_random_options(120, focus);
  EXPECT_EQ(steered.favoured, names);
  EXPECT_TRUE(steered.faults.empty());
  EXPECT_EQ(steered.fault_rate, RandomProgramOptions{}.fault_rate);  // no error bin named
  const auto plain = issued_ops(steered_random_options(120, {}), 1, 10);
  const auto more = issued_ops(steered, 1, 10);
  for (const auto& n : names) {
    const uint64_t before = plain.count(n) ? plain.at(n) : 0, after = more.count(n) ? more.at(n) : 0;
    EXPECT_GT(after, 3 * before + 10) << n << ": " << before << " unsteered, " << after << " steered";
  }
  // A slot or lane-class bin favours its instruction too.
  EXPECT_EQ(
      steered_random_options(120, {{"ls slot", "L_SST in ls1"}, {"fp lane class", "A_EXP as=nan"}}).favoured,
      (std::vector<std::string>{"L_SST", "A_EXP"}));
}

// Steering toward unhit error bins makes the deliberate faults those kinds, and frequent.
TEST(VliwRandomCampaign, SteeringTowardErrorsMakesThoseFaults) {
  const Params p = default_params();
  const RandomProgramOptions o = steered_random_options(
      120, {{"error", "dma_empty"}, {"error", "loop_nesting"}, {"instruction", "C_NOP"}});
  EXPECT_EQ(o.faults, (std::vector<ErrorCode>{ErrorCode::kDmaEmpty, ErrorCode::kLoopNest}));
  EXPECT_GT(o.fault_rate, 0.4);
  EXPECT_GE(o.fault_from, 0.5);  // late: the body before the fault still covers the other bins
  std::map<ErrorCode, unsigned> stops;
  for (uint64_t seed = 1; seed <= 40; ++seed) {
    const RandomProgram prog = random_program(p, seed, o);
    EXPECT_EQ(random_program(p, seed, o).words, prog.words) << "deterministic per seed and options";
    Iss iss(p);
    iss.reset(prog.words);
    std::vector<uint8_t> dram = prog.dram;
    iss.run(dram, 2'000'000);
    ++stops[iss.state().error.code];
  }
  EXPECT_GT(stops[ErrorCode::kDmaEmpty], 5u);
  EXPECT_GT(stops[ErrorCode::kLoopNest], 5u);
  EXPECT_EQ(stops[ErrorCode::kDmaEmpty] + stops[ErrorCode::kLoopNest] + stops[ErrorCode::kNone], 40u)
      << "only the kinds steered to";
  EXPECT_THROW(steered_random_options(120, {{"error", "msram_out_of_range"}}), std::invalid_argument);
  EXPECT_THROW(steered_random_options(120, {{"instruction", "H_LOAD_V"}}), std::invalid_argument);
}

// Each kind the generator knows, asked for alone, is the error the model stops with, on both
// configurations (the small one has fewer DMA channels: a channel it lacks is an illegal instruction).
TEST(VliwRandomCampaign, EveryFaultKindIsTheErrorItNames) {
  const auto small =
      Params::from_config(load_hw_config(std::string(KCRAFT_SOURCE_DIR) + "/rtl/vliw/configs/small.yaml"));
  EXPECT_EQ(fault_kinds().size(), kErrors.size() - 1);
  for (const Params& p : {default_params(), small}) {
    for (ErrorCode kind : fault_kinds()) {
      RandomProgramOptions o;
      o.faults.push_back(kind);
      o.fault_rate = 1;
      for (uint64_t seed = 1; seed <= 12; ++seed) {
        const RandomProgram prog = random_program(p, seed, o);
        Iss iss(p);
        iss.reset(prog.words);
        std::vector<uint8_t> dram = prog.dram;
        iss.run(dram, 2'000'000);
        EXPECT_EQ(error_name(iss.state().error.code), std::string(error_name(kind)))
            << "vlen " << p.vlen << " seed " << seed << "\n"
            << prog.source;
      }
    }
  }
  RandomProgramOptions none;
  none.faults.push_back(ErrorCode::kNone);
  EXPECT_THROW(random_program(default_params(), 1, none), std::invalid_argument);
  RandomProgramOptions unknown;
  unknown.favoured = {"V_FOO"};
  EXPECT_THROW(random_program(default_params(), 1, unknown), std::invalid_argument);
}

}  // namespace
}  // namespace kcraft::vliw
