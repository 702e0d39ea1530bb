// `kcraft debug rvv`: QEMU's per-instruction register log against the RTL's register file after every
// retirement, aligned at the kernel's entry. A kernel that reads the cycle counter (which differs between
// the RTL and QEMU by nature) must be reported at exactly that instruction and register; stops at a label
// land where both are; a correct kernel agrees to the end.
#include <gtest/gtest.h>

#include <algorithm>
#include <sstream>

#include "tasks/common/task_spec.h"
#include "tb/common/debug_session.h"
#include "tb/common/paths.h"
#include "tb/rvv/rvv_debug.h"
#include "tb/rvv/rvv_platform.h"

namespace kcraft::rvv {
namespace {

const Platform& rvv() {
  static const auto p = make_rvv_platform();
  return *p;
}

const tasks::TaskRegistry& registry() {
  static const auto r = tasks::TaskRegistry::load_directory(task_spec_dir());
  return r;
}

// 2 + 3 x 5 instructions, then the cycle counter into a0 (x10): instruction 18.
const char* const kCycleKernel = R"(  .text
  .globl kernel
kernel:
  li t0, 0
  li t1, 5
1:
  addi t0, t0, 3
  addi t1, t1, -1
  bnez t1, 1b
after_loop:
  rdcycle a0
  li a0, 0
  ret
)";

DebugOptions options(const std::string& source, const std::string& file) {
  DebugOptions o;
  o.task = "relu";
  o.source = source;
  o.filename = file;
  return o;
}

TEST(RvvDebug, QemuLogValuesThatAreNotHexAreSkipped) {
  // A fuzz finding (tests/fuzz/regressions/rvv_qemu_cpu_log): std::stoul threw out of the parser.
  const auto steps = parse_qemu_cpu_log(
      " pc zz\n pc 00000104\n x5/t0 nothex x6/t1 123456789abcdef0123 x7/t2 0000002a"
      " x99999999999999999999/a 1\n pc");
  ASSERT_EQ(steps.size(), 1u);
  EXPECT_EQ(steps[0].pc, 0x104u);
  EXPECT_EQ(steps[0].x[5], 0u);
  EXPECT_EQ(steps[0].x[6], 0u);
  EXPECT_EQ(steps[0].x[7], 42u);
}

TEST(RvvDebug, ParsesQemusRegisterLog) {
  const std::string log =
      " pc       00000104\n"
      " mhartid  00000000\n"
      " x0/zero  00000000 x1/ra    00000010 x2/sp    00020000 x3/gp    00000000\n"
      " x10/a0   0000002a x31/t6   ffffffff\n"
      " f0/ft0   ffffffff3f800000 f31/ft11 ffffffff40000000\n"
      "----------------\n"
      " pc       00000108\n"
      " x10/a0   0000002b\n";
  const auto steps = parse_qemu_cpu_log(log);
  ASSERT_EQ(steps.size(), 2u);
  EXPECT_EQ(steps[0].pc, 0x104u);
  EXPECT_EQ(steps[0].x[1], 0x10u);
  EXPECT_EQ(steps[0].x[2], 0x20000u);
  EXPECT_EQ(steps[0].x[10], 42u);
  EXPECT_EQ(steps[0].x[31], 0xffffffffu);
  EXPECT_EQ(steps[0].f[0], 0x3f800000u);
  EXPECT_EQ(steps[0].f[31], 0x40000000u);
  EXPECT_EQ(steps[1].pc, 0x108u);
  EXPECT_EQ(steps[1].x[10], 43u);
}

TEST(RvvDebug, TheCycleCounterIsTheFirstDivergence) {
  auto o = options(kCycleKernel, "cycles.S");
  o.lockstep = true;
  const CommandReport r = rvv().debug(o, registry());
  ASSERT_FALSE(r.ok) << r.text;
  EXPECT_EQ(r.json["lockstep"]["instruction"].get<uint64_t>(), 18u) << r.text;
  EXPECT_EQ(r.json["lockstep"]["where"], "x10") << r.text;
  EXPECT_NE(r.json["lockstep"]["disassembly"].get<std::string>().find("cycle"), std::string::npos) << r.text;
}

TEST(RvvDebug, StopAtALabelAgrees) {
  auto o = options(kCycleKernel, "cycles.S");
  o.stop_at_pc = "after_loop";
  const CommandReport r = rvv().debug(o, registry());
  ASSERT_TRUE(r.ok) << r.text;
  EXPECT_EQ(r.json["rtl"]["retired"].get<uint64_t>(), 17u);
  EXPECT_EQ(r.json["model"]["retired"].get<uint64_t>(), 17u);
  EXPECT_EQ(r.json["rtl"]["registers"]["x5"], "15 (0xf)");
  EXPECT_EQ(r.json["model"]["registers"]["x5"], "15 (0xf)");
  EXPECT_EQ(r.json["rtl"]["pc"], r.json["model"]["pc"]);
}

TEST(RvvDebug, StopAtCycleCountsTheKernelsRetirements) {
  EvalRequest req;
  req.platform = "rvv";
  req.task = "relu";
  req.source = kCycleKernel;
  req.filename = "cycles.S";
  req.instruction_trace = true;
  const EvalReport full = rvv().evaluate(req, registry());
  ASSERT_FALSE(full.trace.empty()) << full.headline;
  auto at_entry = options(kCycleKernel, "cycles.S");
  at_entry.stop_at_pc = "kernel";
  const uint32_t kernel_pc = rvv().debug(at_entry, registry()).json["stop"]["next_pc"].get<uint32_t>();
  // Trace lines: cycle, pc, word, text. Count the kernel's retirements before the stop cycle.
  std::vector<std::pair<uint64_t, uint32_t>> retired;
  for (const auto& line : full.trace) {
    std::istringstream in(line);
    uint64_t cycle = 0;
    uint32_t pc = 0;
    in >> cycle >> pc;
    retired.emplace_back(cycle, pc);
  }
  const auto entry =
      std::find_if(retired.begin(), retired.end(), [&](const auto& r) { return r.second == kernel_pc; });
  ASSERT_NE(entry, retired.end());
  const uint64_t stop_cycle = (entry + 10)->first + 1;  // just after the kernel's 11th retirement
  uint64_t expected = 0;
  for (auto it = entry; it != retired.end() && it->first < stop_cycle; ++it) ++expected;
  auto o = options(kCycleKernel, "cycles.S");
  o.stop_at_cycle = stop_cycle;
  const CommandReport r = rvv().debug(o, registry());
  ASSERT_TRUE(r.ok) << r.text;
  EXPECT_EQ(expected, 11u);
  EXPECT_EQ(r.json["rtl"]["retired"].get<uint64_t>(), expected) << r.text;
  EXPECT_EQ(r.json["model"]["retired"].get<uint64_t>(), expected);
}

TEST(RvvDebug, BaselineAgreesToTheEndAndAModelFaultIsFoundAtK) {
  const auto cfg = registry().get("relu").resolve("C1", RvvPlatform::kDType);
  const std::string source = rvv().baseline_compiler("default")->generate(cfg, rvv().layout(cfg)).source;
  auto o = options(source, "kernel.c");
  o.lockstep = true;
  const CommandReport agree = rvv().debug(o, registry());
  ASSERT_TRUE(agree.ok) << agree.text;
  EXPECT_NE(agree.text.find("agree to the end of the run"), std::string::npos) << agree.text;
  const uint64_t instructions = agree.json["stop"]["retired"].get<uint64_t>();
  ASSERT_GT(instructions, 40u);
  o.model_fault = ModelFault{instructions / 2, "f7", 0x1};
  const CommandReport r = rvv().debug(o, registry());
  ASSERT_FALSE(r.ok) << r.text;
  EXPECT_EQ(r.json["lockstep"]["instruction"].get<uint64_t>(), instructions / 2) << r.text;
  EXPECT_EQ(r.json["lockstep"]["where"], "f7");
}

EvalRequest eval_request(const std::string& source, const std::string& file) {
  EvalRequest req;
  req.platform = "rvv";
  req.task = "relu";
  req.source = source;
  req.filename = file;
  return req;
}

const nlohmann::json* memory(const CommandReport& r, const std::string& name) {
  for (const auto& m : r.json["memories"]) {
    if (m["name"] == name) return &m;
  }
  return nullptr;
}

// relu that stores only the first half of y (M x N = 16 x 16 at C1); the rest keeps eval's fill (0).
const char* const kHalfStoreKernel = R"(void kernel(void) {
  const float* x = (const float*)ADDR_X;
  float* y = (float*)ADDR_Y;
  for (int i = 0; i < M * N / 2; ++i) y[i] = x[i] > 0.0f ? x[i] : 0.0f;
}
)";

TEST(RvvDebug, DramTensorsByNameNextToTheGolden) {
  auto o = options(kHalfStoreKernel, "kernel.c");
  const CommandReport r = rvv().debug(o, registry());
  ASSERT_TRUE(r.ok) << r.text;
  const nlohmann::json* y = memory(r, "y");
  ASSERT_NE(y, nullptr) << r.text;
  EXPECT_TRUE((*y)["dram"].get<bool>());
  EXPECT_EQ((*y)["rows_outside_golden"].get<size_t>(), 8u) << r.text;
  o.rows = {tb::parse_row_range("y:7-8"), tb::parse_row_range("x:0")};
  const CommandReport rows = rvv().debug(o, registry());
  ASSERT_TRUE(rows.ok) << rows.text;
  y = memory(rows, "y");
  ASSERT_NE(y, nullptr) << rows.text;
  ASSERT_EQ((*y)["dumped"].size(), 2u) << rows.text;
  EXPECT_FALSE((*y)["dumped"][0]["outside_golden"].get<bool>()) << rows.text;
  EXPECT_TRUE((*y)["dumped"][1]["outside_golden"].get<bool>()) << rows.text;
  EXPECT_EQ((*y)["dumped"][1]["rtl"], (*y)["dumped"][1]["model"]) << rows.text;
  EXPECT_NE(rows.text.find("y[8] golden"), std::string::npos) << rows.text;
  ASSERT_NE(memory(rows, "x"), nullptr);
}

// vxrm is a CSR QEMU implements and this core does not (docs/rvv.md): the RTL stops there, QEMU goes on.
const char* const kUnimplementedKernel = R"(  .text
  .globl kernel
kernel:
  li t0, 1
  csrr t1, vxrm
  li a0, 0
  ret
)";

TEST(RvvDebug, AnUnimplementedInstructionNamesTheErrorPcAndBothCounts) {
  const EvalReport eval = rvv().evaluate(eval_request(kUnimplementedKernel, "k.S"), registry());
  ASSERT_EQ(eval.verdict, Verdict::kRuntimeError) << eval.headline;
  const CommandReport r = rvv().debug(options(kUnimplementedKernel, "k.S"), registry());
  EXPECT_FALSE(r.ok) << r.text;  // QEMU runs the kernel to its end
  EXPECT_EQ(r.json["rtl"]["status"], "error") << r.text;
  EXPECT_EQ(r.json["rtl"]["why"], eval.runtime_error) << r.text;
  EXPECT_NE(eval.runtime_error.find("csr"), std::string::npos) << eval.runtime_error;
  EXPECT_EQ(r.json["rtl"]["retired"].get<uint64_t>(), 1u) << r.text;
  EXPECT_EQ(r.json["rtl"]["pc"], eval.error_pc.value_or(0)) << r.text;
  // QEMU's count goes on through the kernel's return to crt0's ecall.
  EXPECT_GT(r.json["model"]["retired"].get<uint64_t>(), 3u) << r.text;
  EXPECT_EQ(r.json["model"]["status"], "returned") << r.text;
  EXPECT_NE(r.text.find("RTL stopped: " + eval.runtime_error), std::string::npos) << r.text;
}

const char* const kEndlessKernel = R"(  .text
  .globl kernel
kernel:
  addi t0, t0, 1
  j kernel
)";

TEST(RvvDebug, AKernelThatNeverReturnsStopsAtTheCycleCap) {
  auto req = eval_request(kEndlessKernel, "k.S");
  req.cycle_cap = 20000;
  const EvalReport eval = rvv().evaluate(req, registry());
  ASSERT_EQ(eval.verdict, Verdict::kTimeout) << eval.headline;
  auto o = options(kEndlessKernel, "k.S");
  o.cycle_cap = 20000;
  const CommandReport r = rvv().debug(o, registry());
  EXPECT_TRUE(r.ok) << r.text;
  EXPECT_EQ(r.json["rtl"]["status"], "cycle cap") << r.text;
  EXPECT_EQ(r.json["rtl"]["why"], eval.hang) << r.text;
  EXPECT_EQ(r.json["rtl"]["retired"], r.json["model"]["retired"]) << r.text;
  EXPECT_GT(r.json["rtl"]["retired"].get<uint64_t>(), 1000u) << r.text;
  auto at = options(kEndlessKernel, "k.S");
  at.stop_at_cycle = 3000;
  at.cycle_cap = 20000;
  const CommandReport stopped = rvv().debug(at, registry());
  EXPECT_TRUE(stopped.ok) << stopped.text;  // inside the loop, where asked
  EXPECT_EQ(stopped.json["rtl"]["status"], "stopped") << stopped.text;
  EXPECT_LT(stopped.json["rtl"]["retired"].get<uint64_t>(), 3000u) << stopped.text;
}

TEST(RvvDebug, CyclesAreEvalsCycles) {
  const auto cfg = registry().get("relu").resolve("C1", RvvPlatform::kDType);
  const std::string source = rvv().baseline_compiler("default")->generate(cfg, rvv().layout(cfg)).source;
  const EvalReport eval = rvv().evaluate(eval_request(source, "kernel.c"), registry());
  ASSERT_EQ(eval.verdict, Verdict::kPass) << eval.headline;
  const CommandReport r = rvv().debug(options(source, "kernel.c"), registry());
  ASSERT_TRUE(r.ok) << r.text;
  EXPECT_EQ(r.json["rtl"]["cycle"].get<uint64_t>(), eval.cycles) << r.text;
  EXPECT_TRUE(r.json["model"]["cycle"].is_null()) << r.text;
}

}  // namespace
}  // namespace kcraft::rvv
