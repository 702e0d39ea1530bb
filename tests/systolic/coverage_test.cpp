// `kcraft coverage systolic`: the bins come from isa/systolic.yaml, and a program hits exactly the bins of
// what it does (instructions, FP operand classes, DMA forms, errors, stall causes).
#include <gtest/gtest.h>

#include <map>
#include <set>
#include <string>

#include <yaml-cpp/yaml.h>

#include "isa/systolic/random_program.h"
#include "isa/systolic/systolic_iss.h"
#include "tasks/common/task_spec.h"
#include "tb/common/paths.h"
#include "tb/systolic/systolic_coverage.h"
#include "tests/systolic/test_util.h"

namespace kcraft::systolic {
namespace {

using tb::CoverageSource;
using testing::assemble;

tb::DramTiming default_timing() {
  return {40, 32};
}

// The bins of `group` with at least one hit.
std::set<std::string> hit_bins(const tb::Coverage& c, const std::string& group) {
  std::set<std::string> out;
  for (const auto& b : c.bins()) {
    if (b.group == group && b.total_hits() > 0) out.insert(b.name);
  }
  return out;
}

tb::Coverage run(const std::string& source, std::vector<uint8_t> dram = std::vector<uint8_t>(1 << 16, 0)) {
  tb::Coverage c = systolic_coverage_bins();
  record_systolic_coverage("default", assemble(source), dram, default_timing(), CoverageSource::kDirected, c);
  return c;
}

TEST(SystolicCoverage, InstructionBinsAreExactlyTheInstructionsOfTheIsaYaml) {
  const YAML::Node list = YAML::LoadFile((root() / "isa" / "systolic.yaml").string())["instructions"];
  ASSERT_TRUE(list.IsSequence());
  std::set<std::string> yaml_names;
  for (const YAML::Node& insn : list) yaml_names.insert(insn["name"].as<std::string>());
  std::set<std::string> bins;
  const tb::Coverage all = systolic_coverage_bins();
  for (const auto& b : all.bins()) {
    if (b.group == "instruction") bins.insert(b.name);
  }
  EXPECT_EQ(bins, yaml_names);
  EXPECT_EQ(bins.size(), list.size());
}

TEST(SystolicCoverage, ScalarProgramHitsExactlyItsInstructionsAndNoStall) {
  const auto c = run("S_ADDI r1, r0, 5\nS_ADD r2, r1, r1\nS_ADD r3, r2, r1\nC_HALT\n");
  EXPECT_EQ(hit_bins(c, "instruction"), (std::set<std::string>{"S_ADDI", "S_ADD", "C_HALT"}));
  EXPECT_EQ(c.hits("instruction", "S_ADD", CoverageSource::kDirected), 2u);
  EXPECT_EQ(c.hits("instruction", "S_ADD", CoverageSource::kRandom), 0u);
  EXPECT_TRUE(hit_bins(c, "stall cause").empty());
  EXPECT_TRUE(hit_bins(c, "error").empty());
  EXPECT_TRUE(hit_bins(c, "fp operand class").empty());
}

TEST(SystolicCoverage, FpOperandClassesComeFromTheRegisterValues) {
  // f0 is +0.0; f1 = 1.0 (normal); f2 = +inf; f3 = a NaN; f4 = the smallest subnormal.
  const auto c =
      run("S_LI_FP f1, 1.0\nS_LUI_FP f2, 0x7f80\nS_LUI_FP f3, 0x7fc0\nS_LLI_FP f4, 1\n"
          "S_ADD_FP f5, f1, f0\nS_MUL_FP f6, f2, f3\nS_MAX_FP f7, f4, f4\nC_HALT\n");
  EXPECT_EQ(hit_bins(c, "fp operand class"),
            // S_LLI_FP reads the register whose low half it replaces (f4, still zero then).
            (std::set<std::string>{"S_LLI_FP rd=zero", "S_ADD_FP rs1=normal", "S_ADD_FP rs2=zero",
                                   "S_MUL_FP rs1=inf", "S_MUL_FP rs2=nan", "S_MAX_FP rs1=subnormal",
                                   "S_MAX_FP rs2=subnormal"}));
}

TEST(SystolicCoverage, DmaFormsAndTheDependencyStall) {
  // A dense 8-row load, a one-row load, a strided store; the vector add waits for the first load's rows.
  const auto c =
      run("S_LI r1, 0\nS_LI r2, ROW_BYTES\nS_LI r3, 4096\nS_LI r4, 3*ROW_BYTES\n"
          "H_LOAD_V r0, r1, r2, 8\nV_ADD_VV r0, r0, r0\nH_LOAD_V r0, r1, r2, 1\nH_STORE_V r0, r3, r4, "
          "4\nC_HALT\n");
  EXPECT_EQ(hit_bins(c, "dma form"),
            (std::set<std::string>{"H_LOAD_V dense rows", "H_LOAD_V one row", "H_STORE_V strided rows"}));
  EXPECT_GT(c.hits("stall cause", "dependency"), 0u);
}

TEST(SystolicCoverage, AnErrorIsCountedUnderItsCode) {
  const auto c = run("S_LI r1, VSRAM_ROWS\nV_ADD_VV r1, r1, r1\nC_HALT\n");
  EXPECT_EQ(hit_bins(c, "error"), (std::set<std::string>{"vsram_out_of_range"}));
  // The faulting V_ADD_VV issued; the C_HALT behind it never did.
  EXPECT_EQ(hit_bins(c, "instruction"), (std::set<std::string>{"S_ADDI", "V_ADD_VV"}));
}

TEST(SystolicCoverage, CommandReportsEverySourceAndListsUnhitBins) {
  const auto registry = tasks::TaskRegistry::load_directory(task_spec_dir());
  CoverageOptions options;
  options.programs = 3;
  options.configs = {"C1"};
  const auto report = testing::platform().coverage(options, registry);
  const auto& groups = report.json.at("groups");
  ASSERT_FALSE(groups.empty());
  EXPECT_EQ(groups[0].at("group"), "instruction");
  const auto& insn = groups[0];
  EXPECT_EQ(insn.at("total").get<size_t>(), systolic_coverage_bins().summary()[0].total);
  EXPECT_GT(insn.at("covered").at("directed").get<size_t>(), 0u);
  EXPECT_GT(insn.at("covered").at("random").get<size_t>(), 0u);
  EXPECT_GT(insn.at("covered").at("baselines").get<size_t>(), 0u);
  EXPECT_EQ(insn.at("covered").at("combined").get<size_t>() + insn.at("never_hit").size(),
            insn.at("total").get<size_t>());
  EXPECT_NE(report.text.find("never hit"), std::string::npos);
}

size_t covered(const CommandReport& report, const std::string& group) {
  for (const auto& g : report.json.at("groups")) {
    if (g.at("group") == group) return g.at("covered").at("random").get<size_t>();
  }
  ADD_FAILURE() << "no group " << group;
  return 0;
}

TEST(SystolicCoverage, SteeringTowardUnhitBinsRaisesErrorCoverageAtEqualProgramCount) {
  const auto registry = tasks::TaskRegistry::load_directory(task_spec_dir());
  CoverageOptions options;
  options.programs = 40;
  options.configs = {};  // random programs only (and the examples)
  const auto plain = testing::platform().coverage(options, registry);
  options.focus = tb::never_hit_bins(tb::Coverage::from_json(plain.json));
  ASSERT_TRUE(tb::focus_has_group(options.focus, "error"));
  const auto steered = testing::platform().coverage(options, registry);
  EXPECT_GT(covered(steered, "error"), covered(plain, "error"));
  EXPECT_NE(steered.text.find("steered toward"), std::string::npos);
}

// ---------------------------------------------------------------- the random campaign and its steering

// FNV-1a over every word and DRAM byte of the programs of seeds 1..`programs`.
uint64_t programs_hash(const Params& p, const RandomProgramOptions& options, uint64_t programs) {
  uint64_t h = 14695981039346656037ull;
  const auto mix = [&](uint64_t v) {
    h ^= v;
    h *= 1099511628211ull;
  };
  for (uint64_t seed = 1; seed <= programs; ++seed) {
    const RandomProgram prog = random_program(p, seed, options);
    for (uint32_t w : prog.words) mix(w);
    for (uint8_t b : prog.dram) mix(b);
  }
  return h;
}

// Without fault options the generator makes the programs it made before it learnt every fault kind, so
// that seeds, campaigns and their reports keep their meaning. The expected hashes were computed with that
// generator; fault_rate 1 runs its deliberate faults (the original mix) in every program.
TEST(SystolicRandomCampaign, UnsteeredProgramsAreThoseOfTheOriginalGenerator) {
  const Params def = testing::platform().params("default"), small = testing::platform().params("small");
  RandomProgramOptions always_fault;
  always_fault.fault_rate = 1;
  EXPECT_EQ(programs_hash(def, {}, 200), 4028516437100960776u);
  EXPECT_EQ(programs_hash(def, always_fault, 60), 14498965166016706140u);
  // Hardware without the optional V_MUL_VFV gets the programs of the generator before it existed; `small`
  // has it, so its programs draw it too (and differ from their first V_MUL_VFV on).
  Params small_without = small;
  small_without.has_v_mul_vfv = false;
  EXPECT_EQ(programs_hash(small_without, {}, 200), 6558228439794438079u);
  EXPECT_EQ(programs_hash(small_without, always_fault, 60), 15944461092917949274u);
  EXPECT_EQ(programs_hash(small, {}, 200), 6827773620099009977u);
  EXPECT_EQ(programs_hash(small, always_fault, 60), 14198430368106339570u);
  // `kcraft validate systolic` and `kcraft coverage systolic` without --steer: the same programs.
  EXPECT_EQ(programs_hash(def, steered_random_options(ValidationOptions{}.length, {}), 200),
            4028516437100960776u);
  const RandomProgram seed7 = random_program(def, 7);
  EXPECT_EQ(seed7.words.size(), 370u);
  EXPECT_EQ(std::vector<uint32_t>(seed7.words.end() - 4, seed7.words.end()),
            (std::vector<uint32_t>{0x003768E0, 0x5440051C, 0x00073C92, 0x00000002}));
}

// The error the functional model stops a program with (none when it halts).
ErrorCode model_error(const Params& p, const RandomProgram& prog) {
  Iss iss(p);
  iss.reset(prog.words);
  std::vector<uint8_t> dram = prog.dram;
  EXPECT_NE(iss.run(dram, 2'000'000).stop, Iss::Stop::kInstructionCap) << "seed " << prog.seed;
  return iss.state().error.code;
}

// Each kind the generator knows, asked for alone, is the error the model stops with: on both
// configurations, and on the largest IMEM and FPSRAM a configuration may have (pc_out_of_range then first
// skips over 8191-word stretches) with a loop stack as deep as the random loops nest.
TEST(SystolicRandomCampaign, EveryFaultKindIsTheErrorItNames) {
  Params edge = testing::platform().params("default");
  edge.imem_words = 65536;
  edge.fpsram_words = 65536;
  edge.loop_depth = 2;
  EXPECT_EQ(fault_kinds().size(), kErrors.size() - 1);
  for (const Params& p : {testing::platform().params("default"), testing::platform().params("small"), edge}) {
    for (ErrorCode kind : fault_kinds()) {
      RandomProgramOptions o;
      o.faults.push_back(kind);
      o.fault_rate = 1;
      for (uint64_t seed = 1; seed <= 12; ++seed) {
        const RandomProgram prog = random_program(p, seed, o);
        EXPECT_STREQ(error_name(model_error(p, prog)), error_name(kind))
            << "MLEN " << p.mlen << " IMEM_WORDS " << p.imem_words << " seed " << seed;
      }
    }
  }
  RandomProgramOptions none;
  none.faults.push_back(ErrorCode::kNone);
  EXPECT_THROW(random_program(edge, 1, none), std::invalid_argument);
}

// Steering toward unhit error bins makes the deliberate faults those kinds, frequent and late.
TEST(SystolicRandomCampaign, SteeringTowardErrorsMakesThoseFaults) {
  const Params p = testing::platform().params("default");
  const RandomProgramOptions o = steered_random_options(
      160, {{"error", "loop_nesting"}, {"error", "msram_out_of_range"}, {"instruction", "C_NOP"}});
  EXPECT_EQ(o.faults, (std::vector<ErrorCode>{ErrorCode::kLoopNest, ErrorCode::kMsramRange}));
  EXPECT_GT(o.fault_rate, 0.4);
  EXPECT_GE(o.fault_from, 0.5);  // late: the body before the fault still covers the other bins
  std::map<ErrorCode, unsigned> stops;
  for (uint64_t seed = 1; seed <= 40; ++seed) {
    const RandomProgram prog = random_program(p, seed, o);
    EXPECT_EQ(random_program(p, seed, o).words, prog.words) << "deterministic per seed and options";
    ++stops[model_error(p, prog)];
  }
  EXPECT_GT(stops[ErrorCode::kLoopNest], 5u);
  EXPECT_GT(stops[ErrorCode::kMsramRange], 5u);
  EXPECT_EQ(stops[ErrorCode::kLoopNest] + stops[ErrorCode::kMsramRange] + stops[ErrorCode::kNone], 40u)
      << "only the kinds steered to";
  // Bins of another platform's report: an error systolic does not have is refused.
  EXPECT_THROW(steered_random_options(160, {{"error", "dma_empty"}}), std::invalid_argument);
  EXPECT_THROW(steered_random_options(160, {{"error", "none"}}), std::invalid_argument);
}

}  // namespace
}  // namespace kcraft::systolic
