// myaccel's RTL against its functional model, and the platform end to end: directed programs (every
// instruction, every error, the timing of the ISA YAML measured on the RTL), random programs (`kcraft
// validate`), the baseline kernels of relu and gemm at C1-C2 through Platform::evaluate (the RTL in SystemC
// with the model's twin run), what the interface asks of every platform, and the guide's sections.
#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "tasks/common/task_spec.h"
#include "tb/common/paths.h"
#include "tb/myaccel/myaccel_platform.h"
#include "tb/myaccel/myaccel_sim.h"

namespace kcraft::myaccel {
namespace {

const MyaccelPlatform& platform() {
  static const MyaccelPlatform p;
  return p;
}

const tasks::TaskRegistry& registry() {
  static const auto r = tasks::TaskRegistry::load_directory(task_spec_dir());
  return r;
}

MyaccelHw& hw() {
  static auto h = make_myaccel_hw("default");
  return *h;
}

// Runs `source` on the RTL (bare) and the model over a DRAM of 1 KiB of FP32 values; fails on a difference.
RunResult run_both(const std::string& source) {
  const Params p = rtl_params_with_timing(hw());
  const auto a = isa::assemble(isa::myaccel::spec(), source, "test.s", p.symbols());
  EXPECT_TRUE(a.ok) << isa::format_diagnostics(a, source);
  std::vector<uint8_t> dram(1024);
  for (size_t i = 0; i < dram.size(); ++i) dram[i] = static_cast<uint8_t>(i * 37 + 11);
  const RunResult rtl = run_on_rtl(hw(), p, a.words, dram, 100000);
  Iss iss(p);
  iss.reset(a.words);
  std::vector<uint8_t> model_dram = dram;
  const Iss::Result model = iss.run(model_dram, 100000);
  const auto diff = compare_with_model(rtl, iss, model, model_dram, 100000);
  EXPECT_FALSE(diff) << *diff << "\n" << source;
  return rtl;
}

TEST(MyaccelRtl, ReportsTheParametersOfItsConfiguration) {
  const Params file = platform().params("default");
  EXPECT_EQ(hw().params().lanes, file.lanes);
  EXPECT_EQ(hw().params().imem_words, file.imem_words);
}

TEST(MyaccelRtl, DirectedProgramsOfEveryInstructionAgreeWithTheModel) {
  const RunResult r = run_both(
      "LI x1, 64\nADDI x2, x1, -8\nADD x3, x1, x2\nVLD v1, x1\nVBC v2, x2\nVSPLAT v0, x0\n"
      "VADD v3, v1, v2\nVMUL v4, v1, v2\nVMAX v5, v1, v0\nLI x4, 2\nloop:\nVST v5, x3\nADDI x4, x4, -1\n"
      "BNZ x4, loop\nHALT\n");
  EXPECT_TRUE(r.state.halted);
  // Every instruction of the ISA appears above (MV is ADDI).
  EXPECT_EQ(platform().instruction_names().size(), 12u)
      << "the ISA has another instruction: add it to the directed program above, then count it here";
}

TEST(MyaccelRtl, EveryErrorAgreesWithTheModel) {
  for (const char* source : {"LI x1, 2\nVLD v1, x1\nHALT\n", "LI x1, 1000\nVST v1, x1\nHALT\n",
                             ".word 0x3F\n", ".word 0x00010001\n", "LI x1, 1\n"}) {
    const RunResult r = run_both(source);
    EXPECT_NE(r.state.error.code, ErrorCode::kNone) << source;
  }
}

// The latencies of the ISA YAML, as the scheduling table evaluates them on the configuration, are what the
// RTL takes: the difference between one and two of an instruction before a HALT.
TEST(MyaccelRtl, LatenciesMatchTheIsaYaml) {
  const SchedulingTable table = platform().scheduling_table("default");
  ASSERT_EQ(table.instructions.size(), platform().instruction_names().size());
  for (const auto& row : table.instructions) {
    SCOPED_TRACE(row.name);
    ASSERT_TRUE(row.latency_value.has_value());
    std::string one_instruction;
    if (row.name == "HALT") {
      EXPECT_EQ(run_both("HALT\n").cycles, static_cast<uint64_t>(*row.latency_value));
      continue;
    }
    if (row.name == "BNZ") {
      one_instruction = "BNZ x0, 0\n";  // not taken
    } else if (row.name == "LI") {
      one_instruction = "LI x1, 4\n";
    } else if (row.name == "ADDI") {
      one_instruction = "ADDI x1, x1, 4\n";
    } else if (row.name == "ADD") {
      one_instruction = "ADD x1, x2, x3\n";
    } else if (row.unit == "vector" && row.name != "VSPLAT") {
      one_instruction = row.name + " v1, v2, v3\n";
    } else {
      one_instruction = row.name + " v1, x0\n";
    }
    const uint64_t one = run_both(one_instruction + "HALT\n").cycles;
    const uint64_t two = run_both(one_instruction + one_instruction + "HALT\n").cycles;
    EXPECT_EQ(two - one, static_cast<uint64_t>(*row.latency_value));
  }
}

TEST(MyaccelRtl, RandomProgramsAgreeWithTheModel) {
  ValidationOptions options;
  options.programs = 100;
  const CommandReport report = platform().validate(options);
  EXPECT_TRUE(report.ok) << report.text;
}

TEST(MyaccelPlatform, BaselinesOfReluAndGemmPassOnTheRtlWithTheModelAgreeing) {
  for (const char* task : {"relu", "gemm"}) {
    for (const char* config : {"C1", "C2"}) {
      SCOPED_TRACE(std::string(task) + " " + config);
      const auto cfg = registry().get(task).resolve(config, MyaccelPlatform::kDType);
      ASSERT_EQ(platform().unsupported_reason(cfg, "default"), "");
      EvalRequest req;
      req.platform = MyaccelPlatform::kName;
      req.task = task;
      req.config = config;
      req.source = platform().baseline_compiler("default")->generate(cfg, platform().layout(cfg)).source;
      const EvalReport r = platform().evaluate(req, registry());
      EXPECT_EQ(r.verdict, Verdict::kPass) << r.headline;
      EXPECT_EQ(r.model_check, "agree");
      // The attainable bound stays a lower bound.
      EXPECT_LE(platform().ideal_cycles(cfg, "default").attainable, static_cast<double>(r.cycles));
    }
  }
}

TEST(MyaccelPlatform, OtherTasksAndConfigurationsAreRefusedWithAReason) {
  for (const auto& [task, config] : {std::pair{"relu", "C3"}, {"gemm", "C5"}, {"softmax", "C1"}}) {
    const auto cfg = registry().get(task).resolve(config, MyaccelPlatform::kDType);
    EXPECT_NE(platform().unsupported_reason(cfg, "default"), "") << task << " " << config;
  }
}

TEST(MyaccelPlatform, KernelErrorsGetTheirVerdicts) {
  EvalRequest req;
  req.platform = MyaccelPlatform::kName;
  req.task = "relu";
  req.source = "LI x1, 2\nVLD v1, x1\nHALT\n";
  EXPECT_EQ(platform().evaluate(req, registry()).verdict, Verdict::kRuntimeError);
  req.source = "HALT\n";
  EXPECT_EQ(platform().evaluate(req, registry()).verdict, Verdict::kMismatch);
  req.source = "loop:\nBNZ x0, 0\nLI x1, 1\nBNZ x1, loop\n";
  req.cycle_cap = 1000;
  EXPECT_EQ(platform().evaluate(req, registry()).verdict, Verdict::kTimeout);
  req.source = "NOPE\n";
  EXPECT_EQ(platform().evaluate(req, registry()).verdict, Verdict::kBuildError);
}

// What PlatformRegistry.EveryPlatformImplementsTheInterface (tests/agent_core) asks, here too.
TEST(MyaccelPlatform, ImplementsTheInterface) {
  const auto rows = platform().hw_parameters("default");
  for (const auto& [key, value] : platform().hw_config("default").build) {
    const auto row =
        std::find_if(rows.begin(), rows.end(), [&](const HwParameter& r) { return r.name == key; });
    ASSERT_NE(row, rows.end()) << key;
    EXPECT_FALSE(row->description.empty()) << key;
  }
  // Every symbol the assembler predefines has a row in the ISA's parameter table.
  for (const auto& [symbol, value] : platform().params("default").symbols()) {
    EXPECT_NE(platform().isa_reference().find(symbol), std::string::npos) << symbol;
  }
  for (const auto& mnemonic : platform().instruction_names()) {
    EXPECT_NE(platform().isa_reference().find("\n#### " + mnemonic + "\n"), std::string::npos) << mnemonic;
  }
  EXPECT_FALSE(platform().scheduling_table("default").instructions.empty());
}

// The guide has every section docs/platforms.md §1 requires, in order.
TEST(MyaccelGuide, HasEverySectionThePlatformsDocRequires) {
  std::ifstream in(platform().guide_path());
  ASSERT_TRUE(in) << platform().guide_path();
  std::stringstream text;
  text << in.rdbuf();
  size_t at = 0;
  for (const char* section :
       {"Execution model", "Memories", "Data and arithmetic", "Instructions by unit", "A worked kernel",
        "The timing model", "Bounds", "Seeing a run", "Reading `kcraft eval`", "Hardware configurations",
        "Generating kernels with scripts"}) {
    const size_t found = text.str().find(std::string(". ") + section, at);
    EXPECT_NE(found, std::string::npos) << section;
    if (found != std::string::npos) at = found;
  }
}

}  // namespace
}  // namespace kcraft::myaccel
