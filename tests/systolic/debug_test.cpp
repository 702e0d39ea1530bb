// `kcraft debug systolic`: stops at a pc, a label or a cycle land exactly where the functional model says the
// run is, the RTL is stopped exactly after the instruction count asked for (also inside hardware loops), and
// lockstep finds a difference put into the model after instruction K at exactly K, naming the register.
#include <gtest/gtest.h>

#include <algorithm>

#include "isa/systolic/systolic_iss.h"
#include "tasks/common/task_spec.h"
#include "tasks/systolic/template_compiler.h"
#include "tb/common/debug_session.h"
#include "tb/common/paths.h"
#include "tests/systolic/test_util.h"

namespace kcraft::systolic {
namespace {

const tasks::TaskRegistry& registry() {
  static const auto r = tasks::TaskRegistry::load_directory(task_spec_dir());
  return r;
}

// Loops with bodies of one and two instructions: a stop inside them must patch IMEM while the run goes on.
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

std::string baseline(const std::string& task, const std::string& config) {
  const auto& p = testing::platform();
  auto cfg = registry().get(task).resolve(config, SystolicPlatform::kDType);
  return TemplateCompiler(p.params("default")).generate(cfg, p.layout(cfg)).source;
}

DebugOptions options(const std::string& task, const std::string& source) {
  DebugOptions o;
  o.task = task;
  o.source = source;
  o.filename = "kernel.s";
  return o;
}

// The pcs the functional model retires, found independently of the debugger.
std::vector<uint32_t> model_pcs(const std::string& source) {
  Iss iss(testing::platform().params("default"));
  iss.reset(testing::assemble(source));
  std::vector<uint32_t> pcs;
  iss.on_issue = [&](uint32_t pc, uint32_t) { pcs.push_back(pc); };
  std::vector<uint8_t> dram(1 << 16, 0);
  iss.run(dram, 100000);
  return pcs;
}

TEST(SystolicDebug, BaselineAgreesToTheEnd) {
  auto o = options("gemm", baseline("gemm", "C1"));
  o.lockstep = true;
  const CommandReport r = testing::platform().debug(o, registry());
  EXPECT_TRUE(r.ok) << r.text;
  EXPECT_TRUE(r.json["agree"].get<bool>());
  EXPECT_TRUE(r.json["lockstep"]["instruction"].is_null());
  EXPECT_NE(r.text.find("agree to the end of the run"), std::string::npos) << r.text;
  // The dump shows both sides: the accumulators the product went through are non-zero.
  bool acc_dumped = false;
  for (const auto& m : r.json["memories"]) {
    if (m["name"] == "acc") acc_dumped = m["nonzero_rows"].get<int>() > 0 && !m["dumped"].empty();
  }
  EXPECT_TRUE(acc_dumped) << r.text;
  EXPECT_GT(r.json["rtl"]["cycle"].get<uint64_t>(), 0u);
}

TEST(SystolicDebug, StopAtLabelAndPcLandWhereTheModelIs) {
  const auto pcs = model_pcs(kLoopKernel);
  const auto label_pc = std::find(pcs.begin(), pcs.end(), 6u);  // after_loops: the 7th word
  ASSERT_NE(label_pc, pcs.end());
  for (const std::string stop : {"after_loops", "6"}) {
    auto o = options("relu", kLoopKernel);
    o.stop_at_pc = stop;
    const CommandReport r = testing::platform().debug(o, registry());
    ASSERT_TRUE(r.ok) << r.text;
    EXPECT_EQ(r.json["rtl"]["pc"], 6u);
    EXPECT_EQ(r.json["rtl"]["retired"].get<uint64_t>(), static_cast<uint64_t>(label_pc - pcs.begin()));
    // r1 counted 5, r3 = 3 + 6 + 9 + 12; r4 is written only after the stop.
    EXPECT_EQ(r.json["rtl"]["registers"]["r1"], "5 (0x5)");
    EXPECT_EQ(r.json["rtl"]["registers"]["r3"], "30 (0x1e)");
    EXPECT_EQ(r.json["rtl"]["registers"]["r4"], "0 (0x0)");
  }
  auto o = options("relu", kLoopKernel);
  o.stop_at_pc = "no_such_label";
  EXPECT_THROW(testing::platform().debug(o, registry()), std::invalid_argument);
}

TEST(SystolicDebug, RtlStopsExactlyAfterEveryInstructionCountInsideLoops) {
  // Every stop point of the loop kernel: each is checked against the model (rtl_after throws when the RTL
  // stops anywhere else) and the states must agree.
  const auto pcs = model_pcs(kLoopKernel);
  ASSERT_GT(pcs.size(), 15u);
  for (size_t k = 1; k < pcs.size(); ++k) {
    // A model fault after k on a register the kernel never touches: lockstep must bisect to exactly k, and
    // every probe stops the RTL after a count the bisection picks (a missed stop shows as a pc difference).
    auto o = options("relu", kLoopKernel);
    o.lockstep = true;
    o.model_fault = ModelFault{k, "r9", 0x40};
    const CommandReport r = testing::platform().debug(o, registry());
    ASSERT_FALSE(r.ok) << "k=" << k << "\n" << r.text;
    EXPECT_EQ(r.json["lockstep"]["instruction"].get<uint64_t>(), k) << r.text;
    EXPECT_EQ(r.json["lockstep"]["pc"].get<uint32_t>(), pcs[k - 1]);
    EXPECT_EQ(r.json["lockstep"]["where"], "r9");
    EXPECT_EQ(r.json["lockstep"]["rtl"], "0 (0x0)");
    EXPECT_EQ(r.json["lockstep"]["model"], "64 (0x40)");
  }
}

TEST(SystolicDebug, LockstepFindsAModelFaultInABaselineKernel) {
  const std::string source = baseline("gemm", "C1");
  const auto pcs = [&] {
    auto o = options("gemm", source);
    return testing::platform().debug(o, registry()).json["stop"]["retired"].get<uint64_t>();
  }();
  ASSERT_GT(pcs, 20u);
  const uint64_t k = pcs / 2;
  auto o = options("gemm", source);
  o.lockstep = true;
  o.model_fault = ModelFault{k, "f13", 0x1};
  const CommandReport r = testing::platform().debug(o, registry());
  ASSERT_FALSE(r.ok) << r.text;
  EXPECT_EQ(r.json["lockstep"]["instruction"].get<uint64_t>(), k) << r.text;
  EXPECT_EQ(r.json["lockstep"]["where"], "f13");
  EXPECT_NE(r.text.find("first divergence at retired instruction " + std::to_string(k)), std::string::npos);
}

TEST(SystolicDebug, StopAtCycleCountsTheRtlsIssues) {
  const std::string source = baseline("relu", "C1");
  EvalRequest req;
  req.task = "relu";
  req.source = source;
  req.instruction_trace = true;
  const EvalReport full = testing::platform().evaluate(req, registry());
  ASSERT_EQ(full.verdict, Verdict::kPass) << full.headline;
  const uint64_t cycle = full.cycles / 2;
  auto o = options("relu", source);
  o.stop_at_cycle = cycle;
  o.rows = {tb::parse_row_range("vsram:0-3")};
  const CommandReport r = testing::platform().debug(o, registry());
  ASSERT_TRUE(r.ok) << r.text;
  // The trace lines start with the issue cycle.
  uint64_t issued = 0;
  for (const auto& line : full.trace) issued += std::stoull(line) < cycle ? 1 : 0;
  EXPECT_EQ(r.json["stop"]["retired"].get<uint64_t>(), issued);
  EXPECT_EQ(r.json["rtl"]["retired"].get<uint64_t>(), issued);
  for (const auto& m : r.json["memories"]) {
    if (m["name"] == "vsram") {
      EXPECT_EQ(m["dumped"].size(), 4u);
    } else {
      EXPECT_TRUE(m["dumped"].empty());
    }
  }
}

TEST(SystolicDebug, BadOptionsAreClearErrors) {
  EXPECT_THROW(tb::parse_row_range("vsram:7-3"), std::invalid_argument);
  EXPECT_THROW(tb::parse_row_range(":3"), std::invalid_argument);
  auto o = options("relu", kLoopKernel);
  o.rows = {tb::parse_row_range("nosuch:0")};
  EXPECT_THROW(testing::platform().debug(o, registry()), std::invalid_argument);
  o.rows.clear();
  o.model_fault = ModelFault{3, "q7", 1};
  o.lockstep = true;
  EXPECT_THROW(testing::platform().debug(o, registry()), std::invalid_argument);
}

EvalRequest eval_request(const std::string& task, const std::string& source) {
  EvalRequest req;
  req.platform = "systolic";
  req.task = task;
  req.source = source;
  req.filename = "kernel.s";
  return req;
}

const nlohmann::json* memory(const CommandReport& r, const std::string& name) {
  for (const auto& m : r.json["memories"]) {
    if (m["name"] == name) return &m;
  }
  return nullptr;
}

TEST(SystolicDebug, DramTensorsByNameNextToTheGolden) {
  // The relu baseline storing only 8 of y's 16 rows: the rest keeps eval's fill (NaN).
  std::string source = baseline("relu", "C1");
  const std::string store = "H_STORE_V r9, r2, r3, 16";
  const auto at = source.find(store);
  ASSERT_NE(at, std::string::npos) << source;
  source.replace(at, store.size(), "H_STORE_V r9, r2, r3, 8");
  auto o = options("relu", source);
  const CommandReport r = testing::platform().debug(o, registry());
  ASSERT_TRUE(r.ok) << r.text;
  const nlohmann::json* y = memory(r, "y");
  ASSERT_NE(y, nullptr) << r.text;
  EXPECT_EQ((*y)["rows_outside_golden"].get<size_t>(), 8u) << r.text;
  o.rows = {tb::parse_row_range("y:7-8")};
  const CommandReport rows = testing::platform().debug(o, registry());
  y = memory(rows, "y");
  ASSERT_NE(y, nullptr) << rows.text;
  ASSERT_EQ((*y)["dumped"].size(), 2u) << rows.text;
  EXPECT_FALSE((*y)["dumped"][0]["outside_golden"].get<bool>()) << rows.text;
  EXPECT_TRUE((*y)["dumped"][1]["outside_golden"].get<bool>()) << rows.text;
  EXPECT_NE((*y)["dumped"][1]["rtl"][0].get<std::string>().find("nan"), std::string::npos) << rows.text;
  EXPECT_NE(rows.text.find("y[8] golden"), std::string::npos) << rows.text;
}

TEST(SystolicDebug, AnIllegalWordNamesTheErrorPcAndBothCounts) {
  const std::string source = "  S_ADDI r1, r0, 1\n  S_ADDI r2, r0, 2\n  .word 0xffffffff\n  C_HALT\n";
  const EvalReport eval = testing::platform().evaluate(eval_request("relu", source), registry());
  ASSERT_EQ(eval.verdict, Verdict::kRuntimeError) << eval.headline;
  const CommandReport r = testing::platform().debug(options("relu", source), registry());
  EXPECT_TRUE(r.ok) << r.text;
  for (const char* side : {"rtl", "model"}) {
    EXPECT_EQ(r.json[side]["status"], "error") << r.text;
    EXPECT_EQ(r.json[side]["why"], eval.runtime_error) << r.text;
    EXPECT_EQ(r.json[side]["pc"].get<uint32_t>(), 2u) << side << "\n" << r.text;
  }
  EXPECT_EQ(r.json["rtl"]["retired"], r.json["model"]["retired"]) << r.text;
  EXPECT_NE(eval.runtime_error.find("at pc 2 (kernel.s:3: "), std::string::npos) << eval.runtime_error;
}

// Nested loops of a million iterations each: no C_HALT within any cycle cap.
const char* const kEndlessKernel = R"(
  S_LI r5, 1000000
  C_LOOP r5, outer_done
  C_LOOP r5, inner_done
  S_ADDI r1, r1, 1
inner_done:
  S_ADDI r2, r2, 1
outer_done:
  C_HALT
)";

TEST(SystolicDebug, AKernelThatNeverHaltsStopsAtTheCycleCap) {
  auto req = eval_request("relu", kEndlessKernel);
  req.cycle_cap = 4000;
  const EvalReport eval = testing::platform().evaluate(req, registry());
  ASSERT_EQ(eval.verdict, Verdict::kTimeout) << eval.headline;
  auto o = options("relu", kEndlessKernel);
  o.cycle_cap = 4000;
  const CommandReport r = testing::platform().debug(o, registry());
  EXPECT_EQ(r.json["rtl"]["status"], "cycle cap") << r.text;
  EXPECT_EQ(r.json["rtl"]["why"], eval.hang) << r.text;
  EXPECT_EQ(r.json["rtl"]["cycle"].get<uint64_t>(), 4000u) << r.text;
  EXPECT_EQ(r.json["model"]["retired"], r.json["stop"]["retired"]) << r.text;
  auto at = options("relu", kEndlessKernel);
  at.stop_at_cycle = 700;
  at.cycle_cap = 20000;
  const CommandReport stopped = testing::platform().debug(at, registry());
  EXPECT_TRUE(stopped.ok) << stopped.text;  // a stop inside the loops, where asked
  EXPECT_EQ(stopped.json["rtl"]["status"], "stopped") << stopped.text;
  EXPECT_GT(stopped.json["rtl"]["retired"].get<uint64_t>(), 600u) << stopped.text;
  EXPECT_LE(stopped.json["rtl"]["retired"].get<uint64_t>(), 700u) << stopped.text;
}

TEST(SystolicDebug, CyclesAreEvalsCycles) {
  const std::string source = baseline("relu", "C1");
  const EvalReport eval = testing::platform().evaluate(eval_request("relu", source), registry());
  ASSERT_EQ(eval.verdict, Verdict::kPass) << eval.headline;
  const CommandReport r = testing::platform().debug(options("relu", source), registry());
  ASSERT_TRUE(r.ok) << r.text;
  EXPECT_EQ(r.json["rtl"]["cycle"].get<uint64_t>(), eval.cycles) << r.text;
  EXPECT_TRUE(r.json["model"]["cycle"].is_null()) << r.text;
}

}  // namespace
}  // namespace kcraft::systolic
