// The myaccel functional model (isa/myaccel/myaccel_iss.h) on directed programs: each instruction's
// result, x0, the timing of the ISA YAML, every error, and the baseline kernels against the golden
// reference.
#include <gtest/gtest.h>

#include <cctype>
#include <cstring>
#include <string>
#include <vector>

#include "isa/myaccel/myaccel_iss.h"
#include "tasks/common/compare.h"
#include "tasks/common/inputs.h"
#include "tasks/common/layout.h"
#include "tasks/golden/golden.h"
#include "tasks/myaccel/baseline_compiler.h"

namespace kcraft::myaccel {
namespace {

Params params() {
  Params p;  // the default configuration's values
  p.lanes = 8;
  p.imem_words = 1024;
  p.dram_latency = 20;
  p.dram_bytes_per_cycle = 32;
  return p;
}

std::vector<uint32_t> assemble(const std::string& source, const isa::SymbolTable& extra = {}) {
  isa::SymbolTable symbols = params().symbols();
  for (const auto& [k, v] : extra) symbols[k] = v;
  const auto a = isa::assemble(isa::myaccel::spec(), source, "test.s", symbols);
  EXPECT_TRUE(a.ok) << isa::format_diagnostics(a, source);
  return a.words;
}

struct ModelRun {
  Iss iss{params()};
  Iss::Result result;
  std::vector<uint8_t> dram;
};

// Runs `source` on a DRAM of 1 KiB whose FP32 word i holds float(i).
ModelRun run(const std::string& source) {
  ModelRun r;
  r.dram.resize(1024);
  for (uint32_t i = 0; i < 256; ++i) {
    const float f = static_cast<float>(i);
    std::memcpy(&r.dram[4 * i], &f, 4);
  }
  r.iss.reset(assemble(source));
  r.result = r.iss.run(r.dram, 100000);
  return r;
}

float lane(const ModelRun& r, unsigned reg, unsigned i) {
  float f;
  std::memcpy(&f, &r.iss.state().v[reg * params().lanes + i], 4);
  return f;
}

TEST(MyaccelModel, ScalarInstructionsAndX0) {
  const ModelRun r = run("LI x1, -5\nADDI x2, x1, 100\nADD x3, x2, x2\nLI x0, 7\nADDI x0, x1, 1\nHALT\n");
  ASSERT_EQ(r.result.stop, Iss::Stop::kHalted);
  EXPECT_EQ(r.iss.state().x[1], static_cast<uint32_t>(-5));
  EXPECT_EQ(r.iss.state().x[2], 95u);
  EXPECT_EQ(r.iss.state().x[3], 190u);
  EXPECT_EQ(r.iss.state().x[0], 0u);  // x0 reads as 0 whatever is written to it
  EXPECT_EQ(r.result.cycles, 6u);     // one cycle each, HALT included
  EXPECT_EQ(r.iss.counters()[kInstructions], 6u);
}

TEST(MyaccelModel, VectorLoadsBroadcastsArithmeticAndStores) {
  const ModelRun s =
      run("LI x1, 32\nVLD v1, x1\nLI x2, 12\nVBC v2, x2\nVADD v3, v1, v2\nVMUL v4, v1, v2\n"
          "VSPLAT v5, x0\nVMAX v6, v2, v5\nLI x4, 512\nVST v4, x4\nHALT\n");
  ASSERT_EQ(s.result.stop, Iss::Stop::kHalted);
  for (unsigned i = 0; i < 8; ++i) {
    EXPECT_EQ(lane(s, 1, i), 8.0f + i);
    EXPECT_EQ(lane(s, 2, i), 3.0f);
    EXPECT_EQ(lane(s, 3, i), 11.0f + i);
    EXPECT_EQ(lane(s, 4, i), 3.0f * (8 + i));
    EXPECT_EQ(lane(s, 5, i), 0.0f);
    EXPECT_EQ(lane(s, 6, i), 3.0f);
    float stored;
    std::memcpy(&stored, &s.dram[512 + 4 * i], 4);
    EXPECT_EQ(stored, 3.0f * (8 + i));
  }
  EXPECT_EQ(s.iss.counters()[kDramBytesRead], 64u);
  EXPECT_EQ(s.iss.counters()[kDramBytesWritten], 32u);
  EXPECT_EQ(s.iss.counters()[kLaneOps], 24u);
}

TEST(MyaccelModel, ReluOfNegativeZeroAndSubnormalsFlushes) {
  // VMAX(-0, +0) = +0; a subnormal input counts as zero (DAZ), as the RTL's kc_fp_pkg does.
  ModelRun r;
  r.dram.assign(1024, 0);
  const uint32_t neg_zero = 0x80000000u, subnormal = 0x00000001u;
  std::memcpy(&r.dram[0], &neg_zero, 4);
  std::memcpy(&r.dram[4], &subnormal, 4);
  r.iss.reset(assemble("VLD v1, x0\nVSPLAT v0, x0\nVMAX v2, v1, v0\nVADD v3, v1, v1\nHALT\n"));
  ASSERT_EQ(r.iss.run(r.dram, 1000).stop, Iss::Stop::kHalted);
  EXPECT_EQ(r.iss.state().v[2 * 8 + 0], 0u);
  EXPECT_EQ(r.iss.state().v[3 * 8 + 1], 0u);
}

TEST(MyaccelModel, BranchesLoopAndMemoryTimingFollowsTheYaml) {
  const ModelRun r = run("LI x1, 3\nloop:\nVLD v1, x0\nADDI x1, x1, -1\nBNZ x1, loop\nHALT\n");
  ASSERT_EQ(r.result.stop, Iss::Stop::kHalted);
  const uint64_t memory = 2 + 20 + 1;  // 2 + DRAM_LATENCY + ceil(ROW_BYTES / DRAM_BYTES_PER_CYCLE)
  EXPECT_EQ(params().memory_cycles(), memory);
  EXPECT_EQ(r.result.cycles, 1 + 3 * (memory + 2) + 1);
  EXPECT_EQ(r.iss.counters()[kStallDram], 3 * (memory - 1));
  EXPECT_EQ(r.iss.counters()[kInstructions], 1u + 3 * 3 + 1);
}

TEST(MyaccelModel, EveryErrorStopsTheMachineWithItsDetails) {
  struct Case {
    const char* source;
    ErrorCode code;
    uint32_t pc;
    uint64_t lo, hi;
  };
  for (const Case& c :
       {Case{"LI x1, 2\nVLD v1, x1\nHALT\n", ErrorCode::kDramAlign, 1, 2, 0},
        Case{"LI x1, 1000\nVST v1, x1\nHALT\n", ErrorCode::kDramRange, 1, 1000, 1032},
        Case{"LI x1, 1020\nVBC v1, x1\nHALT\n", ErrorCode::kNone, 0, 0, 0},
        Case{".word 0x3F\n", ErrorCode::kIllegalInsn, 0, 0x3F, 0},
        Case{".word 0x00010001\n", ErrorCode::kIllegalInsn, 0, 0x00010001, 0},  // HALT, bit 16
        Case{"LI x1, 1\n", ErrorCode::kIllegalInsn, 1, 0, 0}}) {                // past the program: word 0
    SCOPED_TRACE(c.source);
    const ModelRun r = run(c.source);
    EXPECT_EQ(r.iss.state().error.code, c.code);
    if (c.code == ErrorCode::kNone) {
      EXPECT_EQ(r.result.stop, Iss::Stop::kHalted);  // VBC of the last word reads the last whole row
      continue;
    }
    EXPECT_EQ(r.result.stop, Iss::Stop::kError);
    EXPECT_EQ(r.iss.state().error.pc, c.pc);
    EXPECT_EQ(r.iss.state().error.lo, c.lo);
    EXPECT_EQ(r.iss.state().error.hi, c.hi);
    EXPECT_EQ(r.iss.counters()[kInstructions], c.pc);  // the faulting instruction does not count
  }
}

TEST(MyaccelModel, BaselineKernelsMatchTheGoldenReference) {
  const auto registry = tasks::TaskRegistry::load_directory(KCRAFT_SOURCE_DIR "/tasks/specs");
  const BaselineCompiler compiler(params());
  for (const char* task : {"relu", "gemm"}) {
    for (const char* config : {"C1", "C2"}) {
      SCOPED_TRACE(std::string(task) + " " + config);
      const auto& spec = registry.get(task);
      const auto cfg = spec.resolve(config, tasks::DType::fp32);
      ASSERT_EQ(compiler.unsupported_reason(cfg), "");
      const auto layout = tasks::compute_layout(cfg, 64);
      isa::SymbolTable symbols;
      for (const auto& [name, value] : cfg.dims) symbols[name] = value;
      for (const auto& region : layout.regions) {
        std::string upper = region.name;
        for (auto& ch : upper) ch = static_cast<char>(std::toupper(static_cast<unsigned char>(ch)));
        symbols["ADDR_" + upper] = static_cast<int64_t>(region.address);
      }
      const auto words = assemble(compiler.generate(cfg, layout).source, symbols);
      const auto inputs = tasks::make_inputs(cfg, 1);
      std::vector<uint8_t> dram = tasks::make_dram_image(layout, inputs);
      dram.resize(layout.total_bytes, 0);
      Iss iss(params());
      iss.reset(words);
      ASSERT_EQ(iss.run(dram, 10'000'000).stop, Iss::Stop::kHalted);
      const auto outputs = tasks::read_outputs(layout, dram);
      const auto refs = tasks::compute_reference(cfg, spec.golden, inputs);
      EXPECT_TRUE(tasks::compare_outputs(cfg, outputs, refs).pass);
    }
  }
  // Anything else is refused with a reason.
  const auto gemv = registry.get("gemv").resolve("C1", tasks::DType::fp32);
  EXPECT_NE(compiler.unsupported_reason(gemv), "");
}

}  // namespace
}  // namespace kcraft::myaccel
