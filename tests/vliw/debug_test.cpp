// `kcraft debug vliw`: the cycle-exact model and the RTL compared in the middle of runs (stops at a label,
// a pc, a cycle, and every bundle count of a looping kernel agree), and lockstep finds a difference put
// into the model after bundle K at exactly K, naming the register.
#include <gtest/gtest.h>

#include "isa/vliw/vliw_iss.h"
#include "tasks/common/task_spec.h"
#include "tb/common/debug_session.h"
#include "tb/common/paths.h"
#include "tb/vliw/vliw_platform.h"

namespace kcraft::vliw {
namespace {

const VliwPlatform& platform() {
  static const VliwPlatform p;
  return p;
}

const tasks::TaskRegistry& registry() {
  static const auto r = tasks::TaskRegistry::load_directory(task_spec_dir());
  return r;
}

std::string baseline(const std::string& task, const std::string& config) {
  const auto cfg = registry().get(task).resolve(config, VliwPlatform::kDType);
  return platform().baseline_compiler("default")->generate(cfg, platform().layout(cfg)).source;
}

// Loops with one- and two-bundle bodies, then a labelled bundle.
const char* kLoopKernel = R"(
  S_ADDI r1, r0, 0
  C_LOOPI 5, one_done
  S_ADDI r1, r1, 1
one_done:
  C_LOOPI 4, two_done
  S_ADDI r2, r2, 3
  S_ADD r3, r3, r2
two_done:
after_loops:
  S_ADDI r4, r3, 7
  C_HALT
)";

DebugOptions options(const std::string& task, const std::string& source) {
  DebugOptions o;
  o.task = task;
  o.source = source;
  o.filename = "kernel.s";
  return o;
}

TEST(VliwDebug, BaselineAgreesToTheEndAndAtEveryStop) {
  const std::string source = baseline("relu", "C1");
  auto o = options("relu", source);
  o.lockstep = true;
  const CommandReport end = platform().debug(o, registry());
  ASSERT_TRUE(end.ok) << end.text;
  EXPECT_NE(end.text.find("agree to the end of the run"), std::string::npos) << end.text;
  const uint64_t bundles = end.json["stop"]["retired"].get<uint64_t>();
  ASSERT_GT(bundles, 10u);
  // Mid-run, with DMA and loads in flight: the cycle-exact model must match the RTL cycle for cycle.
  EvalRequest req;
  req.platform = "vliw";
  req.task = "relu";
  req.source = source;
  req.instruction_trace = true;
  const EvalReport full = platform().evaluate(req, registry());
  ASSERT_EQ(full.verdict, Verdict::kPass) << full.headline;
  for (uint64_t cycle : {full.cycles / 4, full.cycles / 2, full.cycles - 3}) {
    auto c = options("relu", source);
    c.stop_at_cycle = cycle;
    const CommandReport r = platform().debug(c, registry());
    EXPECT_TRUE(r.ok) << "cycle " << cycle << "\n" << r.text;
    uint64_t issued = 0;
    for (const auto& line : full.trace) issued += std::stoull(line) < cycle ? 1 : 0;
    EXPECT_EQ(r.json["rtl"]["retired"].get<uint64_t>(), issued);
    EXPECT_EQ(r.json["model"]["retired"].get<uint64_t>(), issued);
  }
}

TEST(VliwDebug, StopAtLabelAndPc) {
  for (const std::string stop : {"after_loops", "6"}) {
    auto o = options("relu", kLoopKernel);
    o.stop_at_pc = stop;
    const CommandReport r = platform().debug(o, registry());
    ASSERT_TRUE(r.ok) << r.text;
    EXPECT_EQ(r.json["rtl"]["pc"], 6u) << r.text;
    EXPECT_EQ(r.json["model"]["pc"], 6u);
    // 1 + 1 + 5 + 1 + 4 * 2 bundles before it.
    EXPECT_EQ(r.json["rtl"]["retired"].get<uint64_t>(), 16u);
    // r3 = 3 + 6 + 9 + 12 only once the exposed pipeline has delivered the last S_ADD: it issued in the
    // cycle before, so the dump shows what both sides hold at that cycle, and they agree.
    EXPECT_EQ(r.json["rtl"]["registers"]["r1"], r.json["model"]["registers"]["r1"]);
    EXPECT_EQ(r.json["rtl"]["registers"]["r4"], "0 (0x0)");
  }
}

TEST(VliwDebug, LockstepFindsAModelFaultAtExactlyK) {
  for (uint64_t k : {1u, 3u, 6u, 9u, 12u, 15u}) {
    auto o = options("relu", kLoopKernel);
    o.lockstep = true;
    o.model_fault = ModelFault{k, "r9", 0x40};
    const CommandReport r = platform().debug(o, registry());
    ASSERT_FALSE(r.ok) << "k=" << k << "\n" << r.text;
    EXPECT_EQ(r.json["lockstep"]["instruction"].get<uint64_t>(), k) << r.text;
    EXPECT_EQ(r.json["lockstep"]["where"], "r9");
    EXPECT_EQ(r.json["lockstep"]["rtl"], "0 (0x0)");
    EXPECT_EQ(r.json["lockstep"]["model"], "64 (0x40)");
  }
  const std::string source = baseline("relu", "C1");
  auto o = options("relu", source);
  o.lockstep = true;
  const uint64_t bundles = platform().debug(o, registry()).json["stop"]["retired"].get<uint64_t>();
  ASSERT_GT(bundles, 20u);
  // Halfway, with DMA rows and exposed-pipeline results in flight.
  o.model_fault = ModelFault{bundles / 2, "p7", 0x20};
  const CommandReport r = platform().debug(o, registry());
  ASSERT_FALSE(r.ok) << r.text;
  EXPECT_EQ(r.json["lockstep"]["instruction"].get<uint64_t>(), bundles / 2) << r.text;
  EXPECT_EQ(r.json["lockstep"]["where"], "p7");
}

}  // namespace
}  // namespace kcraft::vliw
