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

// The relu baseline, storing only the first half of y's 16 rows.
std::string half_store_kernel() {
  std::string source = baseline("relu", "C1");
  const std::string store = "C_DMAST 0, r5, r2, r3, r4";
  const auto at = source.find(store);
  EXPECT_NE(at, std::string::npos) << source;
  if (at == std::string::npos) return source;
  source.replace(at, store.size(), "C_DMAST 0, r5, r2, r3, r9");
  return "    S_ADDI r9, r0, 8\n" + source;
}

EvalRequest eval_request(const std::string& task, const std::string& source) {
  EvalRequest req;
  req.platform = "vliw";
  req.task = task;
  req.source = source;
  req.filename = "kernel.s";
  return req;
}

TEST(VliwDebug, DramTensorsByNameNextToTheGolden) {
  auto o = options("relu", half_store_kernel());
  const CommandReport r = platform().debug(o, registry());
  ASSERT_TRUE(r.ok) << r.text;  // the RTL and the model agree: the kernel is wrong, not the hardware
  const nlohmann::json* y = nullptr;
  for (const auto& m : r.json["memories"]) {
    if (m["name"] == "y") y = &m;
  }
  ASSERT_NE(y, nullptr) << r.text;
  EXPECT_TRUE((*y)["dram"].get<bool>());
  EXPECT_EQ((*y)["rows"].get<size_t>(), 16u);
  EXPECT_EQ((*y)["rows_outside_golden"].get<size_t>(), 8u) << r.text;
  // By default (the end of the run) the rows outside the golden's tolerance are dumped.
  ASSERT_FALSE((*y)["dumped"].empty()) << r.text;
  EXPECT_EQ((*y)["dumped"][0]["row"].get<size_t>(), 8u);

  o.rows = {tb::parse_row_range("y:6-9"), tb::parse_row_range("x:0")};
  const CommandReport rows = platform().debug(o, registry());
  ASSERT_TRUE(rows.ok) << rows.text;
  for (const auto& m : rows.json["memories"]) {
    if (m["name"] == "x") {
      ASSERT_EQ(m["dumped"].size(), 1u);
      EXPECT_EQ(m["dumped"][0]["rtl"], m["dumped"][0]["model"]);
    }
    if (m["name"] != "y") continue;
    ASSERT_EQ(m["dumped"].size(), 4u) << rows.text;
    for (const auto& row : m["dumped"]) {
      const size_t index = row["row"].get<size_t>();
      EXPECT_EQ(row["outside_golden"].get<bool>(), index >= 8) << index;
      EXPECT_EQ(row["rtl"], row["model"]);
      EXPECT_EQ(row["rtl"] == row["golden"], index < 8) << index;
    }
  }
  EXPECT_NE(rows.text.find("y[9] golden"), std::string::npos) << rows.text;
  EXPECT_NE(rows.text.find("!y[9] RTL"), std::string::npos) << rows.text;

  o.rows = {tb::parse_row_range("nonesuch")};
  try {
    (void)platform().debug(o, registry());
    ADD_FAILURE() << "an unknown memory was accepted";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("DRAM tensors: x, y"), std::string::npos) << e.what();
  }
}

TEST(VliwDebug, AnIllegalWordNamesTheErrorPcAndBothCounts) {
  const std::string source = "  S_ADDI r1, r0, 1\n  S_ADDI r2, r0, 2\n  .word 0xffffffff\n  C_HALT\n";
  const EvalReport eval = platform().evaluate(eval_request("relu", source), registry());
  ASSERT_EQ(eval.verdict, Verdict::kRuntimeError) << eval.headline;
  const CommandReport r = platform().debug(options("relu", source), registry());
  EXPECT_TRUE(r.ok) << r.text;  // both sides stop the same way
  for (const char* side : {"rtl", "model"}) {
    EXPECT_EQ(r.json[side]["status"], "error") << r.text;
    EXPECT_EQ(r.json[side]["why"], eval.runtime_error) << r.text;
    EXPECT_EQ(r.json[side]["retired"].get<uint64_t>(), 2u) << side << "\n" << r.text;
    EXPECT_EQ(r.json[side]["pc"].get<uint32_t>(), 2u) << side;
  }
  EXPECT_NE(r.text.find("RTL stopped: " + eval.runtime_error), std::string::npos) << r.text;
  EXPECT_NE(eval.runtime_error.find("at pc 2 (kernel.s:3: "), std::string::npos) << eval.runtime_error;
}

// C_ACQ waits for lock 0, which only the DMA load placed after it would release.
const char* const kDeadlockKernel = R"(
  S_ADDI r1, r0, ADDR_X
  S_ADDI r3, r0, 32
  S_ADDI r4, r0, 16
  C_ACQ 0
  C_DMALD 0, r0, r1, r3, r4, 0
  C_HALT
)";

TEST(VliwDebug, ALockDeadlockStopsAtTheCycleCapWithEvalsDiagnosis) {
  auto req = eval_request("relu", kDeadlockKernel);
  req.cycle_cap = 3000;
  const EvalReport eval = platform().evaluate(req, registry());
  ASSERT_EQ(eval.verdict, Verdict::kTimeout) << eval.headline;
  ASSERT_NE(eval.hang.find("lock deadlock"), std::string::npos) << eval.hang;
  auto o = options("relu", kDeadlockKernel);
  o.cycle_cap = 3000;
  const CommandReport r = platform().debug(o, registry());
  EXPECT_TRUE(r.ok) << r.text;
  for (const char* side : {"rtl", "model"}) {
    EXPECT_EQ(r.json[side]["status"], "cycle cap") << r.text;
    EXPECT_EQ(r.json[side]["why"], eval.hang) << side << "\n" << r.text;
    EXPECT_EQ(r.json[side]["retired"].get<uint64_t>(), 3u) << side;
  }
  // --stop-at-cycle without a cap: the default cap (millions of cycles) is not waited for.
  auto at = options("relu", kDeadlockKernel);
  at.stop_at_cycle = 500;
  const CommandReport stopped = platform().debug(at, registry());
  EXPECT_TRUE(stopped.ok) << stopped.text;
  EXPECT_EQ(stopped.json["rtl"]["cycle"].get<uint64_t>(), 500u) << stopped.text;
  EXPECT_NE(stopped.json["rtl"]["why"].get<std::string>().find("lock deadlock"), std::string::npos)
      << stopped.text;
}

TEST(VliwDebug, CyclesAreEvalsCycles) {
  const std::string source = baseline("relu", "C1");
  const EvalReport eval = platform().evaluate(eval_request("relu", source), registry());
  ASSERT_EQ(eval.verdict, Verdict::kPass) << eval.headline;
  const CommandReport r = platform().debug(options("relu", source), registry());
  ASSERT_TRUE(r.ok) << r.text;
  EXPECT_EQ(r.json["rtl"]["cycle"].get<uint64_t>(), eval.cycles) << r.text;
  EXPECT_EQ(r.json["model"]["cycle"].get<uint64_t>(), eval.cycles) << r.text;
}

}  // namespace
}  // namespace kcraft::vliw
