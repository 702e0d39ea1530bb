// The Verilated RTL inside SystemC, against the functional model and against the ISA YAML: parameters,
// every instruction (directed programs), random programs, documented latencies, errors, hangs, traces.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <set>

#include <fmt/format.h>

#include "isa/common/diagnostics.h"
#include "isa/common/disassembler.h"
#include "isa/common/expression.h"
#include "isa/systolic/random_program.h"
#include "isa/systolic/systolic_iss.h"
#include "systolic_isa.h"
#include "tb/systolic/systolic_diff.h"
#include "tb/systolic/systolic_sim.h"
#include "tests/systolic/test_util.h"

namespace kcraft::systolic {
namespace {

using testing::assemble;
namespace sy = isa::systolic;

std::vector<std::string> hw_configs() {
  std::vector<std::string> names;
  for (const auto& c : testing::platform().hw_configs()) names.push_back(c.name);
  return names;
}

double mixed_values(size_t i) {
  switch (i % 23) {
    case 0:
      return 0.0;
    case 5:
      return -0.0;
    case 11:
      return 1e30;  // overflows products into infinity
    case 17:
      return -3.5e-38;
    default:
      return (static_cast<double>(i % 37) - 18.0) * 0.37;
  }
}

// ---------------------------------------------------------------- parameters
TEST(SystolicRtl, ReportedParametersMatchTheHardwareConfigurations) {
  for (const auto& c : testing::platform().hw_configs()) {
    const Params yaml = Params::from_config(c);
    const Params rtl = rtl_params(c.name);
    EXPECT_EQ(rtl.mlen, yaml.mlen) << c.name;
    EXPECT_EQ(rtl.vlen, yaml.vlen) << c.name;
    EXPECT_EQ(rtl.blen, yaml.blen) << c.name;
    EXPECT_EQ(rtl.imem_words, yaml.imem_words) << c.name;
    EXPECT_EQ(rtl.vsram_rows, yaml.vsram_rows) << c.name;
    EXPECT_EQ(rtl.msram_rows, yaml.msram_rows) << c.name;
    EXPECT_EQ(rtl.acc_rows, yaml.acc_rows) << c.name;
    EXPECT_EQ(rtl.fpsram_words, yaml.fpsram_words) << c.name;
    EXPECT_EQ(rtl.loop_depth, yaml.loop_depth) << c.name;
    EXPECT_EQ(rtl.dma_slots, yaml.dma_slots) << c.name;
    EXPECT_EQ(rtl.dma_outstanding, yaml.dma_outstanding) << c.name;
    EXPECT_EQ(rtl.has_v_mul_vfv, yaml.has_v_mul_vfv) << c.name;
  }
  EXPECT_GE(hw_configs().size(), 2u);
}

// ---------------------------------------------------------------- directed programs, every instruction
// Each program loads data (rows with mixed values, including zeros, huge and tiny numbers) and exercises
// one group of instructions, including back-to-back dependences that the interlocks must order.
const std::vector<std::pair<std::string, std::string>>& directed_programs() {
  static const std::vector<std::pair<std::string, std::string>> programs = {
      {"scalar", R"(
        S_LI r1, 123456
        S_LI r2, -77
        S_ADD r3, r1, r2
        S_SUB r4, r3, r1
        S_MUL r5, r4, r2
        S_AND r6, r5, r1
        S_OR r7, r6, r2
        S_XOR r8, r7, r1
        S_SLL r9, r8, r2
        S_SRL r10, r9, r2
        S_ADDI r11, r10, -5
        S_ORI r12, r11, 0x1234
        S_SLLI r13, r12, 7
        S_SRLI r14, r13, 3
        S_LUI r15, 0xBEEF
        C_NOP
        C_FENCE
        C_HALT
      )"},
      {"scalar_fp", R"(
        S_LI_FP f1, 3.25
        S_LI_FP f2, -0.1
        S_ADD_FP f3, f1, f2
        S_SUB_FP f4, f3, f1
        S_MUL_FP f5, f4, f2
        S_MAX_FP f6, f5, f2
        S_MIN_FP f7, f6, f1
        S_EXP_FP f8, f7
        S_RECI_FP f9, f8
        S_SQRT_FP f10, f9
        S_RSQRT_FP f11, f10
        S_EXP_FP f12, f11            ; back to back through the special-function pipeline
        S_RECI_FP f12, f12
        S_ADD_FP f13, f12, f8
        S_LUI_FP f14, 0xC2F7
        S_LLI_FP f14, 0x1234
        S_LI r1, 5
        S_ST_FP f14, r1, 3
        S_LD_FP f15, r1, 3
        S_LI r2, -123456789
        S_ITOF f1, r2
        C_HALT
      )"},
      {"vector", R"(
        S_LI r3, ROW_BYTES
        H_LOAD_V r0, r0, r3, 16
        S_LI r1, 1
        S_LI r2, 2
        S_LI r4, 20
        S_LI_FP f1, 0.75
        S_LI_FP f2, -2.5
        V_ADD_VV r4, r1, r2
        V_SUB_VV r4, r4, r1, 1      ; rows 21 = 21 - 2: the offset applies to all three
        V_MUL_VV r4, r4, r4, 2
        V_MAX_VV r4, r0, r1, 3
        V_MIN_VV r4, r0, r1, 4
        V_ADD_VF r4, r4, f1, 5
        V_SUB_VF r4, r4, f2, 6
        V_MUL_VF r4, r4, f1, 7
        V_MAX_VF r4, r4, f0, 8
        V_MIN_VF r4, r4, f2, 9
        V_EXP_V r4, r0, 10
        V_RECI_V r4, r0, 11
        V_RSQRT_V r4, r0, 12
        V_EXP_VF r4, r0, f2, 13
        V_BCAST_F r4, f2, 14
        V_RED_SUM f3, r4, 10
        V_RED_SUM f3, r4, 11         ; back to back into the same FP register
        V_RED_MAX f4, r0, 3
        V_RED_DOT f5, r0, r1, 2
        S_ADD_FP f6, f3, f4          ; waits for the reductions
        V_MUL_VF r4, r4, f6, 15
        S_LI r5, 4096
        H_STORE_V r4, r5, r3, 16
        C_HALT
      )"},
      {"matrix", R"(
        S_LI r3, ROW_BYTES
        H_LOAD_M r0, r0, r3, 2*MLEN      ; two weight tiles
        S_LI r1, 64
        H_LOAD_V r1, r0, r3, 4*BLEN      ; activations at VSRAM 64
        M_LDW r0
        S_LI r2, 0
        M_MM r2, r1
        M_MMA r2, r1, BLEN               ; the offset moves both the accumulator and the VSRAM rows
        S_LI r4, MLEN
        M_LDWT r4                        ; waits for the array to drain
        M_MMA r2, r1
        M_MM r2, r1, 2*BLEN
        S_LI r5, 200
        M_WO r5, r2                      ; waits for the accumulators
        M_WO r5, r2, BLEN
        V_ADD_VV r5, r5, r5              ; reads what M_WO wrote
        S_LI r6, 8192
        H_STORE_V r5, r6, r3, 2*BLEN
        C_HALT
      )"},
      {"dma_and_loops", R"(
        S_LI r3, ROW_BYTES
        S_LI r4, 2*ROW_BYTES
        S_LI r1, 0
        S_LI r2, 0
        S_LI r7, 3
        C_LOOP r7, outer
        H_LOAD_V r1, r2, r4, 8           ; strided
        S_ADDI r2, r2, 8*2*ROW_BYTES
        C_LOOPI 4, inner
        V_ADD_VV r1, r1, r1
        S_ADDI r1, r1, 2
        inner:
        H_LOAD_M r1, r2, r3, 4
        outer:
        C_LOOPI 0, never
        C_HALT
        never:
        S_LI r5, 12000
        H_STORE_V r0, r5, r0, 7          ; stride 0: the same DRAM row seven times
        H_LOAD_V r0, r5, r3, 1
        C_HALT
      )"},
  };
  return programs;
}

class SystolicRtlConfig : public ::testing::TestWithParam<std::string> {};

TEST_P(SystolicRtlConfig, DirectedProgramsAgreeWithTheModel) {
  const std::string hw = GetParam();
  auto dram = testing::bf16_dram(64 * 1024, mixed_values);
  for (const auto& [name, source] : directed_programs()) {
    auto program = assemble(source, hw);
    auto outcome = compare_rtl_and_model(hw, program, dram);
    EXPECT_FALSE(outcome.divergence.has_value())
        << name << " on " << hw << ": pc " << outcome.divergence->pc << " " << outcome.divergence->instruction
        << ": " << outcome.divergence->what;
    EXPECT_FALSE(outcome.halted_with_error) << name;
    EXPECT_GT(outcome.instructions, 10u) << name;
  }
}

// The optional fused multiply V_MUL_VFV (HAS_V_MUL_VFV): back to back with its producers and consumers,
// with offsets, special values in the rows (mixed_values) and in fs. Row 40 (fused) must hold row 20's
// bits (the unfused pair). Hardware without it stops at the first V_MUL_VFV with illegal_instruction, and
// so does the model.
const char* const kFusedMultiplyProgram = R"(
        S_LI r3, ROW_BYTES
        H_LOAD_V r0, r0, r3, 16
        S_LI r1, 1
        S_LI r2, 2
        S_LI r4, 20
        S_LI r5, 40
        S_LI r7, 60
        S_LI_FP f1, 0.3
        S_LI_FP f2, -1e30
        S_LI_FP f3, inf
        V_MUL_VF r4, r1, f1          ; row 20 = row 1 * f1
        V_MUL_VV r4, r4, r2          ; row 20 = row 20 * row 2
        V_MUL_VFV r5, r1, f1, r2     ; row 40 = (row 1 * f1) * row 2, fused
        V_ADD_VV r7, r5, r0          ; row 60 reads it back to back
        V_MUL_VFV r5, r1, f2, r2, 1  ; row 41 = (row 2 * -1e30) * row 3: overflows
        V_MUL_VFV r5, r0, f3, r1, 2  ; row 42 = (row 2 * inf) * row 3: zero lanes give NaN
        V_MUL_VFV r5, r1, f0, r2, 3  ; fs = f0 = +0
        V_RED_SUM f4, r7
        V_MUL_VFV r7, r7, f4, r0     ; waits for row 60 and for f4
        S_LI r6, 4096
        H_STORE_V r4, r6, r3, 48
        C_HALT
      )";

// The program's words whatever the hardware: assembled without the optional instructions' parameters
// (the assembler rejects V_MUL_VFV where HAS_V_MUL_VFV = 0).
std::vector<uint32_t> assemble_with_every_option(const std::string& source, const std::string& hw) {
  auto symbols = testing::platform().symbols(hw);
  symbols.erase("HAS_V_MUL_VFV");
  auto result = testing::platform().assemble(source, "test.s", symbols);
  if (!result.ok) throw std::runtime_error("does not assemble:\n" + isa::format_diagnostics(result, source));
  return result.words;
}

TEST_P(SystolicRtlConfig, FusedMultiplyAgreesWithTheModelOrIsIllegalOnHardwareWithoutIt) {
  const std::string hw = GetParam();
  const Params p = testing::platform().params(hw);
  const auto dram = testing::bf16_dram(64 * 1024, mixed_values);
  const auto program = assemble_with_every_option(kFusedMultiplyProgram, hw);
  const auto outcome = compare_rtl_and_model(hw, program, dram);
  EXPECT_FALSE(outcome.divergence.has_value())
      << hw << ": pc " << outcome.divergence->pc << " " << outcome.divergence->instruction << ": "
      << outcome.divergence->what;
  EXPECT_EQ(outcome.halted_with_error, !p.has_v_mul_vfv) << hw;
  Iss iss(p);
  iss.reset(program);
  auto image = dram;
  iss.run(image, 1'000'000);
  if (!p.has_v_mul_vfv) {
    EXPECT_EQ(iss.state().error.code, ErrorCode::kIllegalInsn) << hw;
    EXPECT_EQ(sy::op_of(program.at(iss.state().error.pc)), sy::Op::V_MUL_VFV) << hw;
    return;
  }
  ASSERT_TRUE(iss.state().halted) << hw;
  const auto& vs = iss.state().vsram;
  for (unsigned i = 0; i < p.vlen; ++i) EXPECT_EQ(vs[40 * p.vlen + i], vs[20 * p.vlen + i]) << "lane " << i;
  EXPECT_NE(vs[20 * p.vlen], vs[21 * p.vlen]);  // the rows are not trivially equal
}

TEST(SystolicRtl, DirectedProgramsCoverEveryInstruction) {
  std::set<sy::Op> used;
  for (const auto& [name, source] : directed_programs()) {
    for (uint32_t w : assemble(source)) used.insert(sy::op_of(w));
  }
  for (uint32_t w : assemble_with_every_option(kFusedMultiplyProgram, "default")) used.insert(sy::op_of(w));
  for (sy::Op op : sy::kAllOps) {
    EXPECT_TRUE(used.count(op)) << sy::op_name(static_cast<uint8_t>(op)) << " has no directed RTL test";
  }
}

TEST_P(SystolicRtlConfig, RandomProgramsAgreeWithTheModel) {
  const std::string hw = GetParam();
  const Params p = testing::platform().params(hw);
  int faulted = 0;
  for (uint64_t seed = 1; seed <= 40; ++seed) {
    auto prog = random_program(p, seed * 7919);
    auto outcome = compare_rtl_and_model(hw, prog.words, prog.dram);
    ASSERT_FALSE(outcome.divergence.has_value())
        << "seed " << seed * 7919 << " on " << hw << ": pc " << outcome.divergence->pc << " "
        << outcome.divergence->instruction << ": " << outcome.divergence->what;
    faulted += outcome.halted_with_error;
  }
  EXPECT_LT(faulted, 10);
}

TEST_P(SystolicRtlConfig, ErrorsStopAtTheSameInstructionAsTheModel) {
  const std::string hw = GetParam();
  const std::vector<std::string> faulty = {
      "S_ADDI r1, r0, 1\n.word 0x7F\nC_HALT",
      "S_LI r1, VSRAM_ROWS - 1\nV_EXP_V r0, r1, 1\nC_HALT",
      "S_LI r1, MSRAM_ROWS - 1\nM_LDWT r1\nC_HALT",
      "S_LI r1, ACC_ROWS\nM_WO r0, r1\nC_HALT",
      "S_LD_FP f1, r0, FPSRAM_WORDS\nC_HALT",
      "S_LI r1, 1\nH_STORE_V r0, r1, r0, 1\nC_HALT",
      "S_LI r1, 65536\nH_LOAD_V r0, r1, r0, 1\nC_HALT",
      // an error while DMA work is still in flight: the machine drains it before stopping
      "S_LI r3, ROW_BYTES\nH_LOAD_V r0, r0, r3, 64\nS_LI r1, 3\nH_LOAD_V r0, r1, r3, 1\nC_HALT",
  };
  auto dram = testing::bf16_dram(64 * 1024, mixed_values);
  for (const auto& src : faulty) {
    auto outcome = compare_rtl_and_model(hw, assemble(src, hw), dram);
    EXPECT_TRUE(outcome.halted_with_error) << src;
    EXPECT_FALSE(outcome.divergence.has_value()) << src << ": " << outcome.divergence->what;
  }
}

// Every deliberate fault the random generator makes (all of isa/systolic.yaml's error kinds, in the forms it
// draws), asked for one kind at a time: the RTL stops with the same error, pc and values as the model (the
// comparison of `kcraft validate systolic`, whole state included).
TEST_P(SystolicRtlConfig, EveryGeneratedFaultKindAgrees) {
  const std::string hw = GetParam();
  const Params p = testing::platform().params(hw);
  for (ErrorCode kind : fault_kinds()) {
    RandomProgramOptions options;
    options.faults.push_back(kind);
    options.fault_rate = 1;
    options.length = 40;
    for (uint64_t seed = 1; seed <= 12; ++seed) {
      const RandomProgram prog = random_program(p, seed, options);
      const DiffOutcome outcome = compare_rtl_and_model(hw, prog.words, prog.dram);
      ASSERT_FALSE(outcome.divergence.has_value())
          << error_name(kind) << " seed " << seed << " on " << hw << ": pc " << outcome.divergence->pc << " "
          << outcome.divergence->instruction << ": " << outcome.divergence->what;
      EXPECT_TRUE(outcome.halted_with_error) << error_name(kind) << " seed " << seed;
      Iss iss(p);
      iss.reset(prog.words);
      std::vector<uint8_t> dram = prog.dram;
      iss.run(dram, 2'000'000);
      EXPECT_STREQ(error_name(iss.state().error.code), error_name(kind)) << "seed " << seed;
    }
  }
}

// ---------------------------------------------------------------- error codes, counters, stall causes
// One program per error of isa/systolic.yaml (by name), for a hardware configuration. DRAM is 64 KiB.
std::map<std::string, std::string> error_programs(const Params& p) {
  std::string nops;  // fills IMEM without a C_HALT
  for (unsigned i = 0; i < p.imem_words; ++i) nops += "C_NOP\n";
  // LOOP_DEPTH + 1 properly nested C_LOOPI 1 (the assembler rejects them, so they are encoded here): loop
  // k at pc k has a body of 2 * (depth - k) - 1 instructions, so each body ends before the enclosing one.
  const unsigned depth = p.loop_depth + 1;
  std::string loops;
  for (unsigned k = 0; k < depth; ++k) {
    uint32_t w = sy::insert(0, sy::kOpcode, static_cast<uint32_t>(sy::Op::C_LOOPI));
    w = sy::insert(w, sy::kCnt12, 1);
    w = sy::insert(w, sy::kImm13, 2 * (depth - k) - 1);
    loops += fmt::format(".word 0x{:08x}\n", w);
  }
  for (unsigned k = 0; k < depth; ++k) loops += "C_NOP\n";
  return {
      {"illegal_instruction", "S_ADDI r1, r0, 1\n.word 0x7F\nC_HALT"},
      {"pc_out_of_range", nops},
      // C_LOOPI 2 with a body of 2, twice: the inner body ends after the outer one.
      {"loop_nesting", ".word 0x00100105, 0x00100105\nC_NOP\nC_NOP\nC_HALT"},
      {"loop_stack_overflow", loops + "C_HALT"},
      {"vsram_out_of_range", "S_LI r1, VSRAM_ROWS - 1\nV_EXP_V r0, r1, 1\nC_HALT"},
      {"msram_out_of_range", "S_LI r1, MSRAM_ROWS - 1\nM_LDWT r1\nC_HALT"},
      {"acc_out_of_range", "S_LI r1, ACC_ROWS\nM_WO r0, r1\nC_HALT"},
      {"fpsram_out_of_range", "S_LD_FP f1, r0, FPSRAM_WORDS\nC_HALT"},
      {"dram_misaligned", "S_LI r1, 1\nH_STORE_V r0, r1, r0, 1\nC_HALT"},
      {"dram_out_of_range", "S_LI r1, 65536\nH_LOAD_V r0, r1, r0, 1\nC_HALT"},
  };
}

TEST_P(SystolicRtlConfig, EveryErrorOfTheIsaYamlIsRaisedByTheRtlAndTheModel) {
  const std::string hw = GetParam();
  const Params p = testing::platform().params(hw);
  const auto programs = error_programs(p);
  auto dram = testing::bf16_dram(64 * 1024, mixed_values);
  for (const sy::ErrorInfo& e : sy::kErrors) {
    if (e.code == ErrorCode::kNone) continue;
    SCOPED_TRACE(std::string(e.name) + " on " + hw);
    const auto it = programs.find(e.name);
    ASSERT_NE(it, programs.end()) << "no test program raises this error of isa/systolic.yaml";
    RunJob job;
    job.config = hw;
    job.program = assemble(it->second, hw);
    job.dram = dram;
    job.cycle_cap = 100000;
    job.read_state = true;
    const RunResult rtl = run_on_rtl(job);
    ASSERT_EQ(rtl.stop, RunResult::Stop::kError);
    EXPECT_EQ(rtl.error.code, e.code) << "RTL: " << error_name(rtl.error.code);
    EXPECT_STREQ(error_name(rtl.error.code), e.name);

    Iss model(p);
    model.reset(job.program);
    std::vector<uint8_t> model_dram = dram;
    ASSERT_EQ(model.run(model_dram, 1'000'000).stop, Iss::Stop::kError);
    EXPECT_EQ(model.state().error.code, e.code) << "model: " << error_name(model.state().error.code);
    const auto difference = rtl.state.first_difference(model.state(), p);
    EXPECT_FALSE(difference.has_value()) << *difference;
    EXPECT_NE(model.state().error.describe(p), "unknown error");
  }
  EXPECT_EQ(programs.size() + 1, sy::kErrors.size())
      << "a test program names an error the YAML does not have";
}

TEST_P(SystolicRtlConfig, CountersMeanWhatTheIsaYamlSays) {
  const std::string hw = GetParam();
  const Params p = testing::platform().params(hw);
  // Executed: 3 control, 8 scalar (S_LI 200000 is two words), 4 vector, 4 matrix, 3 DMA instructions.
  const std::string source = R"(
    S_LI r3, ROW_BYTES
    S_LI r4, 0x8000
    S_LI r5, 200000
    H_LOAD_V r0, r0, r3, 8
    H_LOAD_M r0, r0, r3, MLEN
    V_ADD_VV r1, r0, r0           ; waits for the loaded rows
    V_RED_SUM f1, r0
    S_ADD_FP f2, f1, f1           ; waits for the reduction
    S_EXP_FP f3, f2
    S_ADD_FP f4, f3, f3           ; waits for the special function
    C_LOOPI 2, body
    V_MUL_VV r2, r0, r0
  body:
    M_LDW r0
    M_MM r0, r0
    M_MMA r0, r0
    M_WO r0, r0
    C_FENCE
    H_STORE_V r0, r4, r3, 3
    S_ADDI r6, r0, 1
    C_HALT
  )";
  RunJob job;
  job.config = hw;
  job.program = assemble(source, hw);
  job.dram = std::vector<uint8_t>(64 * 1024);
  job.cycle_cap = 100000;
  const RunResult r = run_on_rtl(job);
  ASSERT_EQ(r.stop, RunResult::Stop::kHalted);
  const Counters& c = r.counters;
  EXPECT_EQ(c[kCycles], r.cycles);
  EXPECT_EQ(c[kInstrControl], 3u);
  EXPECT_EQ(c[kInstrScalar], 8u);
  EXPECT_EQ(c[kInstrVector], 4u);  // V_MUL_VV runs twice
  EXPECT_EQ(c[kInstrMatrix], 4u);
  EXPECT_EQ(c[kInstrDma], 3u);
  EXPECT_EQ(c[kInstructions], 3u + 8 + 4 + 4 + 3);
  EXPECT_EQ(c[kVectorBusy], 4u);
  EXPECT_EQ(c[kVectorElements], 4u * p.vlen);
  EXPECT_EQ(c[kDramBytesRead], (8u + p.mlen) * p.row_bytes());
  EXPECT_EQ(c[kDramBytesWritten], 3u * p.row_bytes());
  EXPECT_EQ(c[kMacs], 2u * p.blen * p.mlen * p.mlen);
  EXPECT_GT(c[kStallDependency], 0u);
  EXPECT_GT(c[kStallFpPending], 0u);
  EXPECT_GT(c[kSfuBusy], 0u);
  EXPECT_GT(c[kStallDrain], 0u);
  EXPECT_GE(c[kMatrixBusy], c[kArrayActive]);
  EXPECT_GE(c[kArrayActive], 2u * p.blen);
  EXPECT_GE(c[kMatrixBusy], p.mlen);  // M_LDW alone takes MLEN cycles
  const auto dram_latency =
      static_cast<uint64_t>(testing::platform().hw_config(hw).runtime_param("dram_latency_cycles"));
  EXPECT_GT(c[kDmaBusy], dram_latency);
  // A cycle issues an instruction or stalls for one cause (or waits for the first fetch and the end).
  EXPECT_LE(c[kInstructions] + c[kStallDependency] + c[kStallFpPending] + c[kStallUnitBusy] + c[kStallDrain],
            c[kCycles]);
  // The functional model counts the architectural ones identically.
  Iss model(p);
  model.reset(job.program);
  std::vector<uint8_t> dram(64 * 1024);
  ASSERT_EQ(model.run(dram, 1000).stop, Iss::Stop::kHalted);
  for (unsigned k = 0; k < kNumCounters; ++k) {
    if (sy::kCounters[k].architectural) {
      EXPECT_EQ(model.counters()[k], c[k]) << sy::kCounters[k].name;
    }
  }
}

// A run that hits its cycle cap while the issue stage waits: the hang report's stall cause is the
// YAML's, and the counter the YAML names for that cause has counted the wait.
TEST_P(SystolicRtlConfig, HangReportsNameTheStallCauseOfTheIsaYaml) {
  const std::string hw = GetParam();
  const Params p = testing::platform().params(hw);
  std::string unit_busy = "S_LI r3, ROW_BYTES\n";
  for (unsigned s = 0; s <= p.dma_slots; ++s) {
    unit_busy += fmt::format("S_LI r1, {}\nH_LOAD_V r1, r0, r3, 1024\n", s * 1024);
  }
  const std::vector<std::pair<StallCause, std::string>> cases = {
      {StallCause::kDependency, "S_LI r3, ROW_BYTES\nH_LOAD_V r0, r0, r3, 1024\nV_ADD_VV r1, r0, r0\nC_HALT"},
      {StallCause::kDrain, "S_LI r3, ROW_BYTES\nH_LOAD_V r0, r0, r3, 1024\nC_FENCE\nC_HALT"},
      {StallCause::kUnitBusy, unit_busy + "C_HALT"},
  };
  for (const auto& [cause, source] : cases) {
    const sy::StallCauseInfo* info = sy::find_stall_cause(static_cast<unsigned>(cause));
    ASSERT_NE(info, nullptr);
    SCOPED_TRACE(std::string(info->name) + " on " + hw);
    RunJob job;
    job.config = hw;
    job.program = assemble(source, hw);
    job.dram = std::vector<uint8_t>(1 << 20);
    job.cycle_cap = 300;
    const RunResult r = run_on_rtl(job);
    ASSERT_EQ(r.stop, RunResult::Stop::kTimeout);
    EXPECT_EQ(r.hang.stall_cause, static_cast<unsigned>(cause));
    EXPECT_STREQ(stall_cause_name(r.hang.stall_cause), info->description);
    ASSERT_GE(info->counter, 0);
    EXPECT_GT(r.counters[static_cast<unsigned>(info->counter)], 100u) << sy::kCounters[info->counter].name;
  }
}

INSTANTIATE_TEST_SUITE_P(Configs, SystolicRtlConfig, ::testing::ValuesIn(hw_configs()),
                         [](const auto& param_info) { return param_info.param; });

// ---------------------------------------------------------------- latencies documented in the YAML
struct Timed {
  RunResult result;
  std::vector<uint32_t> words;
};

Timed run_traced(const std::string& source, const std::string& hw = "default") {
  RunJob job;
  job.config = hw;
  const HwConfig& c = testing::platform().hw_config(hw);
  job.timing.latency_cycles = static_cast<uint64_t>(c.runtime_param("dram_latency_cycles"));
  job.timing.bytes_per_cycle = static_cast<uint64_t>(c.runtime_param("dram_bytes_per_cycle"));
  job.program = assemble(source, hw);
  job.dram = std::vector<uint8_t>(64 * 1024);
  job.instruction_trace = true;
  job.cycle_cap = 100000;
  return {run_on_rtl(job), job.program};
}

// Issue cycle of the n-th issued instruction with this pc.
uint64_t issue_cycle(const RunResult& r, uint32_t pc) {
  for (const auto& t : r.trace) {
    if (t.pc == pc) return t.cycle;
  }
  ADD_FAILURE() << "pc " << pc << " never issued";
  return 0;
}

int64_t yaml_latency(const std::string& mnemonic, const isa::SymbolTable& symbols) {
  for (const auto& insn : sy::spec().instructions) {
    if (insn.name != mnemonic) continue;
    auto tokens = isa::tokenize(insn.latency);
    isa::ExprError error;
    auto expr = isa::parse_expression(tokens, 0, tokens.size(), &error);
    EXPECT_TRUE(expr.has_value()) << insn.latency << ": " << error.message;
    auto value = isa::evaluate_int(
        *expr,
        [&](std::string_view name) -> std::optional<int64_t> {
          auto it = symbols.find(name);
          return it == symbols.end() ? std::nullopt : std::optional<int64_t>(it->second);
        },
        std::nullopt, false);
    EXPECT_EQ(value.status, isa::EvalStatus::kOk)
        << mnemonic << ": " << insn.latency << ": " << value.error.message;
    return value.value;
  }
  ADD_FAILURE() << "no instruction " << mnemonic;
  return -1;
}

// The program's marked producer is at pc `producer`, its first dependent consumer at pc `consumer`.
struct LatencyCase {
  std::string mnemonic;
  std::string source;
  uint32_t producer, consumer;
  int64_t count = 0;  // the `count` operand for DMA latency formulas
};

class SystolicRtlLatency : public ::testing::TestWithParam<std::string> {};

TEST_P(SystolicRtlLatency, LatenciesMatchTheIsaYaml) {
  const std::string hw = GetParam();
  const std::vector<LatencyCase> cases = {
      {"S_ADDI", "S_ADDI r1, r0, 3\nS_ADD r2, r1, r1\nC_HALT", 0, 1},
      {"S_ADD_FP", "S_ADD_FP f1, f0, f0\nS_ADD_FP f2, f1, f1\nC_HALT", 0, 1},
      {"S_EXP_FP", "S_EXP_FP f1, f0\nS_ADD_FP f2, f1, f1\nC_HALT", 0, 1},
      {"S_RSQRT_FP", "S_LI_FP f2, 4.0\nS_RSQRT_FP f1, f2\nS_ADD_FP f2, f1, f1\nC_HALT", 1, 2},
      {"V_ADD_VV", "S_LI r1, 5\nV_ADD_VV r1, r0, r0\nV_ADD_VV r2, r1, r0\nC_HALT", 1, 2},
      {"V_EXP_VF", "S_LI r1, 5\nV_EXP_VF r1, r0, f0\nV_RED_SUM f1, r1\nC_HALT", 1, 2},
      {"V_RED_SUM", "V_RED_SUM f1, r0\nS_ADD_FP f2, f1, f1\nC_HALT", 0, 1},
      {"M_LDW", "M_LDW r0\nM_MM r0, r0\nC_HALT", 0, 1},
      {"M_MM", "M_LDW r0\nM_MM r0, r0\nM_WO r0, r0\nC_HALT", 1, 2},
      {"M_WO", "S_LI r1, 100\nM_WO r1, r0\nS_LI r2, 100 + BLEN - 1\nV_ADD_VV r3, r2, r2\nC_HALT", 1, 3},
      {"H_LOAD_V", "S_LI r3, ROW_BYTES\nH_LOAD_V r0, r0, r3, 8\nS_LI r1, 7\nV_ADD_VV r2, r1, r1\nC_HALT", 1,
       3, 8},
      {"H_LOAD_M", "S_LI r3, ROW_BYTES\nH_LOAD_M r0, r0, r3, 16\nM_LDW r0\nC_HALT", 1, 2, 16},
      {"H_STORE_V", "S_LI r3, ROW_BYTES\nH_STORE_V r0, r0, r3, 8\nS_LI r1, 7\nV_ADD_VV r1, r1, r1\nC_HALT", 1,
       3, 8},
  };
  for (const auto& c : cases) {
    auto t = run_traced(c.source, hw);
    ASSERT_EQ(t.result.stop, RunResult::Stop::kHalted) << c.mnemonic;
    // Instructions between producer and consumer issue back to back and do not delay the consumer.
    const auto gap =
        static_cast<int64_t>(issue_cycle(t.result, c.consumer) - issue_cycle(t.result, c.producer));
    auto symbols = testing::platform().symbols(hw);  // hardware parameters, DRAM_LATENCY, ...
    symbols["count"] = c.count;
    EXPECT_EQ(gap, yaml_latency(c.mnemonic, symbols))
        << c.mnemonic << " on " << hw << ": measured on the RTL vs isa/systolic.yaml";
  }
}

INSTANTIATE_TEST_SUITE_P(Configs, SystolicRtlLatency, ::testing::ValuesIn(hw_configs()),
                         [](const auto& param_info) { return param_info.param; });

// ---------------------------------------------------------------- hangs, traces, waveforms, reset
TEST(SystolicRtl, CycleCapReportsWhereTheMachineWas) {
  RunJob job;
  job.program = assemble(R"(
    S_LI r1, 0x7FFFFFFF
    S_LI r3, ROW_BYTES
    C_LOOP r1, end
    H_LOAD_V r0, r0, r3, 64
    S_ADDI r2, r2, 1
  end:
    C_HALT
  )");
  job.dram = std::vector<uint8_t>(64 * 1024);
  job.cycle_cap = 5000;
  auto r = run_on_rtl(job);
  EXPECT_EQ(r.stop, RunResult::Stop::kTimeout);
  EXPECT_EQ(r.cycles, 5000u);
  EXPECT_EQ(r.counters[kCycles], 5000u);
  // S_LI 0x7FFFFFFF takes two words, so the loop body is pcs 4 and 5.
  EXPECT_TRUE(r.hang.pc == 4 || r.hang.pc == 5) << r.hang.pc;
  EXPECT_EQ(r.hang.loop_depth, 1u);
  EXPECT_TRUE(r.hang.dma_busy);
  EXPECT_EQ(r.hang.dma_pc, 4u);
  // The next run on the same simulator starts from reset and completes normally.
  job.program = assemble("S_ADDI r1, r0, 1\nC_HALT");
  job.cycle_cap = 1000;
  auto again = run_on_rtl(job);
  EXPECT_EQ(again.stop, RunResult::Stop::kHalted);
}

TEST(SystolicRtl, EveryRunStartsFromZeroedState) {
  // A run that fills SRAMs, registers and accumulators, then one that reads them back.
  auto dram = testing::bf16_dram(64 * 1024, mixed_values);
  auto dirty = assemble(R"(
    S_LI r3, ROW_BYTES
    H_LOAD_V r0, r0, r3, 64
    H_LOAD_M r0, r0, r3, 64
    M_LDW r0
    M_MM r0, r0
    S_LI_FP f1, 2.0
    S_ST_FP f1, r0, 7
    S_LI r9, 99
    C_HALT
  )");
  auto reader = assemble(R"(
    S_LI r3, ROW_BYTES
    S_LI r4, 32768
    H_STORE_V r0, r4, r3, 64
    M_WO r0, r0
    S_LD_FP f2, r0, 7
    M_MM r0, r0
    C_HALT
  )");
  ASSERT_FALSE(compare_rtl_and_model("default", dirty, dram).divergence);
  auto outcome = compare_rtl_and_model("default", reader, dram);
  EXPECT_FALSE(outcome.divergence.has_value()) << outcome.divergence->what;
}

TEST(SystolicRtl, InstructionTraceFollowsProgramOrder) {
  auto t = run_traced("C_LOOPI 3, e\nS_ADDI r1, r1, 1\ne:\nS_EXP_FP f1, f0\nS_ADD_FP f2, f1, f1\nC_HALT");
  ASSERT_EQ(t.result.stop, RunResult::Stop::kHalted);
  std::vector<uint32_t> pcs;
  for (const auto& e : t.result.trace) pcs.push_back(e.pc);
  EXPECT_EQ(pcs, (std::vector<uint32_t>{0, 1, 1, 1, 2, 3, 4}));
  for (size_t i = 1; i < t.result.trace.size(); ++i)
    EXPECT_GT(t.result.trace[i].cycle, t.result.trace[i - 1].cycle);
  EXPECT_EQ(t.result.trace[1].cycle + 1, t.result.trace[2].cycle);  // zero-overhead loop
}

TEST(SystolicRtl, WaveformIsWrittenOnlyWhenAsked) {
  const auto path = std::filesystem::temp_directory_path() / "kcraft_rtl_test.fst";
  std::filesystem::remove(path);
  RunJob job;
  job.program = assemble("S_LI r3, ROW_BYTES\nH_LOAD_V r0, r0, r3, 4\nV_ADD_VV r1, r0, r0\nC_HALT");
  job.dram = std::vector<uint8_t>(4096);
  job.waveform_path = path.string();
  auto r = run_on_rtl(job);
  ASSERT_EQ(r.stop, RunResult::Stop::kHalted);
  ASSERT_TRUE(std::filesystem::exists(path));
  EXPECT_GT(std::filesystem::file_size(path), 1000u);
  std::ifstream in(path, std::ios::binary);
  EXPECT_EQ(in.get(), 0);  // FST files start with a header block (type 0)
  // Without a path, nothing is written and the run is the same.
  std::filesystem::remove(path);
  job.waveform_path.clear();
  auto r2 = run_on_rtl(job);
  EXPECT_EQ(r2.cycles, r.cycles);
  EXPECT_FALSE(std::filesystem::exists(path));
}

}  // namespace
}  // namespace kcraft::systolic

namespace kcraft::systolic {
namespace {

TEST(SystolicRtl, CyclesDoNotDependOnWhatRanBefore) {
  // The configurations have different clock periods (1 ns, 2 ns); runs of one must not shift the
  // cycle counts of the other.
  RunJob job;
  job.program = assemble(
      "S_LI r3, ROW_BYTES\nH_LOAD_V r0, r0, r3, 32\nV_EXP_V r1, r0\nH_STORE_V r1, r0, r3, 1\nC_HALT");
  job.dram = std::vector<uint8_t>(4096);
  job.config = "small";
  job.clock_mhz = 500;
  const uint64_t first = run_on_rtl(job).cycles;
  RunJob other = job;
  other.config = "default";
  other.clock_mhz = 1000;
  other.program = assemble("S_ADDI r1, r0, 1\nC_HALT");  // an odd number of 1 ns cycles
  for (int i = 0; i < 3; ++i) {
    (void)run_on_rtl(other);
    EXPECT_EQ(run_on_rtl(job).cycles, first) << "after " << i + 1 << " run(s) of the default configuration";
  }
}

}  // namespace
}  // namespace kcraft::systolic
