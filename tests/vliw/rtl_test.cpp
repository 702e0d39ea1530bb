// The vliw RTL against its functional model, on every Verilated configuration: directed programs (one or
// more per instruction, every error, every stall cause, DMA and locks, loops, the exposed pipeline) and
// random programs, compared on the whole architectural state, DRAM and every counter, cycle for cycle;
// decoding of arbitrary words; the parameters the RTL reports. Each disagreement found while bringing the
// RTL up stays here as a directed regression.
#include <map>
#include <random>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <gtest/gtest.h>

#include "isa/common/assembler.h"
#include "isa/common/hw_config.h"
#include "isa/vliw/random_program.h"
#include "isa/vliw/vliw_iss.h"
#include "tb/vliw/vliw_diff.h"
#include "tb/vliw/vliw_hw.h"

namespace kcraft::vliw {
namespace {

struct Hw {
  std::unique_ptr<VliwHw> hw;
  Params params;
};

// One driver per configuration for the whole test binary (constructing a model costs more than a run).
Hw& hw(const std::string& config) {
  static std::map<std::string, Hw> cache;
  auto it = cache.find(config);
  if (it == cache.end()) {
    Hw h;
    h.hw = make_vliw_hw(config);
    h.params = rtl_params_with_timing(*h.hw);
    it = cache.emplace(config, std::move(h)).first;
  }
  return it->second;
}

std::vector<uint8_t> test_dram(size_t bytes = 65536, uint64_t seed = 7) {
  std::mt19937_64 rng(seed);
  std::vector<uint8_t> dram(bytes);
  for (size_t i = 0; i + 1 < bytes; i += 2) {
    // Moderate BF16 values with random sign.
    const uint16_t v =
        static_cast<uint16_t>(((rng() & 1) << 15) | ((0x7A + rng() % 10) << 7) | (rng() % 128));
    dram[i] = static_cast<uint8_t>(v);
    dram[i + 1] = static_cast<uint8_t>(v >> 8);
  }
  return dram;
}

// Assembles `source` for the configuration, runs it on the RTL and the model, expects agreement.
DiffOutcome expect_agree(const std::string& config, const std::string& source,
                         std::vector<uint8_t> dram = test_dram()) {
  Hw& h = hw(config);
  const isa::AssembleResult a = isa::assemble(isa::vliw::spec(), source, "test.s", h.params.symbols());
  EXPECT_TRUE(a.ok) << isa::format_diagnostics(a, source);
  const DiffOutcome out = compare_rtl_and_model(*h.hw, h.params, a.words, dram, 200000);
  EXPECT_FALSE(out.divergence) << config << ": " << out.divergence->what << "\nfirst diverging bundle at "
                               << out.divergence->pc << ": " << out.divergence->bundle << "\n"
                               << source;
  return out;
}

class VliwRtl : public ::testing::TestWithParam<std::string> {};

TEST_P(VliwRtl, ReportsTheParametersOfItsConfiguration) {
  Hw& h = hw(GetParam());
  const Params file = Params::from_config(
      load_hw_config(std::string(KCRAFT_SOURCE_DIR) + "/rtl/vliw/configs/" + GetParam() + ".yaml"));
  EXPECT_EQ(h.params.vlen, file.vlen);
  EXPECT_EQ(h.params.imem_words, file.imem_words);
  EXPECT_EQ(h.params.dm_bytes, file.dm_bytes);
  EXPECT_EQ(h.params.dm_banks, file.dm_banks);
  EXPECT_EQ(h.params.loop_depth, file.loop_depth);
  EXPECT_EQ(h.params.dma_channels, file.dma_channels);
  EXPECT_EQ(h.params.dma_queue, file.dma_queue);
  EXPECT_EQ(h.params.dma_outstanding, file.dma_outstanding);
}

// Rows 0..7 of DRAM into DM rows 0..7 (lock 15), then v1..v6 and a1..a4 loaded with data from them.
const char* const kPrologue = R"(
        S_LI    r10, ROW_BYTES
        S_LI    r11, 8
        C_DMALD 0, r0, r0, r10, r11, 15
        C_ACQ   15
        S_PMOV  p0, r0
        S_PMOV  p1, r10
        { L_VLD v1, p0, ROW_BYTES*2 ; L_VLD v2, p1, ROW_BYTES*2 }
        { L_VLD v3, p0, ROW_BYTES*2 ; L_VLD v4, p1, ROW_BYTES*2 }
        { L_VLD v5, p0, ROW_BYTES*2 ; L_VLD v6, p1, ROW_BYTES*2 }
        C_NOP
        C_NOP
        A_UPS a1, v1
        A_UPS a2, v2
        A_VMUL a3, v3, v4
        A_VMUL a4, v5, v6
        C_NOP
        C_NOP
        C_NOP
)";

// Each op (or group) with its results read both before and after they land.
const std::vector<std::pair<std::string, std::string>>& directed_programs() {
  static const std::vector<std::pair<std::string, std::string>> programs = {
      {"V_ADD_SUB_MUL_MAX_MIN",
       "V_ADD v7, v1, v2\n{ V_SUB v8, v1, v2 ; S_ADDI r1, r0, 1 }\n{ V_MUL v9, v7, v2 }\nV_MAX v10, v3, v4\n"
       "V_MIN v11, v10, v9\nV_ADD v12, v11, v11\nC_NOP\nC_NOP\n"},
      {"V_BCST_BCL_SHUF_ALIGN",
       "S_LI_FP r3, 1.5\nV_BCST v7, r3\nV_BCL v8, v1, 37\n{ V_SHUF v9, v1, v2, 0 }\nV_SHUF v10, v1, v2, 1\n"
       "V_SHUF v11, v1, v2, 2\nV_SHUF v12, v1, v2, 3\nV_ALIGN v13, v1, v2, 3\nV_ALIGN v14, v1, v2, 0\n"
       "V_ALIGN v15, v13, v14, 63\nV_BCST v0, r0\n"},
      {"V_RMAX_SRS_A_UPS", "V_RMAX v7, v1\nV_SRS v8, a3\nA_UPS a5, v7\nV_RMAX v9, v8\nC_NOP\nC_NOP\nC_NOP\n"},
      {"A_VMUL_VMAC",
       "A_VMUL a5, v1, v2\nA_VMAC a5, v3, v4\nA_VMAC a5, v3, v4\nA_VMAC a5, v5, v6\nC_NOP\nC_NOP\n"},
      {"A_MMUL_MMAC", "A_MMUL a5, v1, v2\nA_MMAC a6, v3, v4\nA_MMAC a5, v5, v6\nA_MMUL a1, v1, v1\nC_NOP\n"},
      {"A_ADD_SUB_MUL_MAX",
       "A_ADD a5, a1, a2\nA_SUB a6, a1, a3\nA_MUL a7, a5, a2\nA_MAX a0, a6, a4\nA_ADD a1, a7, a0\n"},
      {"A_EXP_RECI_RSQRT",
       "A_EXP a5, a1\nA_RECI a6, a2\nA_RSQRT a7, a3\nA_EXP a0, a4\nA_RECI a1, a5\nC_NOP\nC_NOP\nC_NOP\n"
       "A_RSQRT a2, a6\n"},
      {"A_RSUM_RMAX_BCST", "A_RSUM a5, a3\nA_RMAX a6, a4\nS_LI_FP r2, -2.25\nA_BCST a7, r2\nA_RSUM a0, a7\n"},
      {"scalar_ops",
       "S_LI r1, 100000\nS_LI r2, -7\n{ S_ADD r3, r1, r2 }\nS_SUB r4, r1, r2\nS_MUL r5, r1, r2\nS_AND r6, "
       "r1, r2\n"
       "S_OR r7, r1, r2\nS_XOR r8, r1, r2\nS_LI r9, 35\nS_SLL r12, r1, r9\nS_SRL r13, r2, r9\nS_ORI r14, r1, "
       "0xF00F\n"
       "S_SLLI r15, r2, 31\nS_SRLI r1, r2, 3\nS_LUI r0, 0x1234\nS_ADD r0, r1, r1\n"},
      {"pointer_ops",
       "S_LI r1, 96\nS_PMOV p2, r1\nS_PADD p2, r1\nS_PADDI p3, -64\nS_PGET r2, p2\nS_PGET r3, p3\n"
       "{ S_PADDI p3, 4 ; L_SST r1, p2, 8 }\nS_PGET r4, p2\nS_PGET r5, p3\n"},
      {"loads_and_stores",
       "S_LI r1, 1024\nS_PMOV p2, r1\nS_PMOV p3, r1\n{ L_VST v1, p2, ROW_BYTES ; L_VLD v7, p3 }\n"
       "{ L_VLD v8, p3, 2 ; L_SST r11, p2, 4 }\n{ L_VLDB v9, p3, 2 ; L_SLD r5, p2 }\nL_VLDB v10, p3, -2\n"
       "S_PMOV p4, r1\n{ L_SLD r6, p2, -4 ; L_SLD r7, p4 }\n{ L_VST v2, p2 ; L_VST v3, p4 }\nC_NOP\nC_NOP\n"},
      {"exposed_pipeline_results_land_after_their_latency",
       "A_EXP a5, a1\nA_UPS a5, v1\nA_ADD a6, a5, a5\nA_ADD a7, a5, a5\nA_ADD a0, a5, a5\nA_ADD a1, a5, a5\n"
       "L_VLD v7, p0\nV_ADD v7, v1, v1\nV_BCL v7, v2, 1\n{ V_ADD v8, v7, v7 ; L_VLD v9, p0 }\nV_ADD v9, v7, "
       "v9\n"},
      {"loops",
       "S_LI r1, 3\nC_LOOP r1, outer\n  S_ADDI r2, r2, 1\n  C_LOOPI 4, inner\n    S_ADDI r3, r3, 1\n"
       "    { V_ADD v7, v7, v1 ; S_ADDI r4, r4, 2 }\n  inner:\n  S_ADDI r5, r5, 1\nouter:\n"
       "C_LOOPI 0, skipped\n  S_ADDI r6, r6, 1\nskipped:\nC_LOOP r0, skipped2\n  S_ADDI r6, r6, "
       "1\nskipped2:\n"},
      {"dma_store_load_locks",
       "S_LI r1, 4096\nS_LI r2, 3\nS_LI r3, 100\nC_DMAST 1, r0, r1, r3, r2, 2\nC_ACQ 2\nS_LI r4, 2048\n"
       "C_DMALD 0, r4, r1, r3, r2, 3\nC_REL 5\nC_ACQ 5\nC_ACQ 3\nS_PMOV p4, r4\nL_VLD v7, "
       "p4\nC_NOP\nC_NOP\n"},
      {"dma_queue_full",
       "S_LI r1, 1\nC_DMALD 0, r0, r0, r0, r1\nC_DMALD 0, r0, r0, r0, r1\nC_DMALD 0, r0, r0, r0, r1\n"
       "C_DMALD 0, r0, r0, r0, r1\nC_DMALD 0, r0, r0, r0, r1\nC_DMAST 1, r0, r0, r0, r1\n"},
      // Found by a mutation of the RTL (round robin restarting at the channel that launched): every channel
      // gets its turn on the DRAM port, so the lock of the short transfer comes first.
      {"dma_channels_take_turns",
       "S_LI r1, 6\nS_LI r2, 1\nS_LI r3, 512\nC_DMALD 0, r0, r0, r10, r1, 4\nC_DMALD 1, r3, r3, r10, r2, 5\n"
       "C_ACQ 5\nS_PGET r4, p0\nC_ACQ 4\n"},
      {"bank_conflict",
       "S_LI r1, ROW_BYTES*DM_BANKS\nS_PMOV p2, r1\n{ L_VLD v7, p0 ; L_VLD v8, p2 }\n"
       "{ L_SST r1, p0 ; L_SLD r2, p2, 4 }\n{ L_VLD v9, p0 ; L_VLD v10, p1 }\n"},
      // Both slots storing into one row at one edge (after the bank conflict's cycle): different words
      // merge, the same word keeps ls1's, a word over a whole row lands on it and a row over a word
      // replaces it. The data memory writes whole rows, ls1's built on ls0's.
      {"two_stores_into_one_row",
       "S_LI r1, 2048\nS_PMOV p2, r1\nS_LI r1, 2052\nS_PMOV p3, r1\nS_LI r2, 0x1234567\nS_LI r3, -99\n"
       "{ L_SST r2, p2 ; L_SST r3, p3 }\nS_LI r1, 2056\nS_PMOV p2, r1\nS_PMOV p3, r1\n"
       "{ L_SST r2, p2 ; L_SST r3, p3 }\nS_LI r1, 2048+ROW_BYTES\nS_PMOV p2, r1\nS_LI r1, 2048+ROW_BYTES+12\n"
       "S_PMOV p3, r1\n{ L_VST v1, p2 ; L_SST r3, p3 }\nS_LI r1, 2048+2*ROW_BYTES+4\nS_PMOV p2, r1\n"
       "S_LI r1, 2048+2*ROW_BYTES\nS_PMOV p3, r1\n{ L_SST r2, p2 ; L_VST v2, p3 }\nS_LI r1, 2048\n"
       "S_PMOV p4, r1\nL_VLD v7, p4, ROW_BYTES\nL_VLD v8, p4, ROW_BYTES\nL_VLD v9, "
       "p4\nC_NOP\nC_NOP\nC_NOP\n"},
      {"halt_inside_a_loop_with_results_in_flight",
       "C_LOOPI 5, end\n  A_EXP a5, a1\n  { A_RSUM a6, a5 ; C_HALT }\nend:\n"},
  };
  return programs;
}

TEST_P(VliwRtl, DirectedProgramsAgreeCycleForCycle) {
  for (const auto& [name, body] : directed_programs()) {
    SCOPED_TRACE(name);
    expect_agree(GetParam(), std::string(kPrologue) + body + "C_HALT\n");
  }
}

// A C_LOOPI word (the assembler refuses loops that nest wrongly; the hardware must still report them).
uint32_t loopi(uint32_t count, uint32_t body) {
  return 0x80000000u | (body << 19) | (count << 7) | static_cast<uint32_t>(isa::vliw::Op::C_LOOPI);
}

TEST_P(VliwRtl, EveryErrorAgreesWithItsPcAndValues) {
  const std::vector<std::string> faults = {
      ".word 0x8000007F\n",                                      // illegal_instruction
      ".word 0x00000001\n.word 0x80000010\n",                    // illegal_bundle: ctl before scl
      ".word 0x00000030\n.word 0x00000030\n.word 0x80000030\n",  // illegal_bundle: three ls ops
      // loop_nesting: the inner body (words 2..4) ends after the outer one (1..3); the assembler rejects it
      fmt::format(".word {}\n.word {}\nC_NOP\nC_NOP\nC_NOP\nC_NOP\n", loopi(2, 3), loopi(2, 3)),
      // loop_stack_overflow: five nested loops (LOOP_DEPTH is 4)
      fmt::format(".word {}\n.word {}\n.word {}\n.word {}\n.word {}\nC_NOP\nC_NOP\nC_NOP\nC_NOP\nC_NOP\n",
                  loopi(1, 9), loopi(1, 7), loopi(1, 5), loopi(1, 3), loopi(1, 1)),
      "S_LI r1, DM_BYTES-4\nS_PMOV p1, r1\nL_VLD v1, p1\n",            // dm_out_of_range
      "S_LI r1, 2\nS_PMOV p1, r1\nL_SLD r2, p1\n",                     // dm_misaligned
      "S_LI r1, 1\nS_LI r2, 0x7FFFFFFE\nC_DMALD 0, r0, r2, r0, r1\n",  // dram_out_of_range
      "S_LI r1, 1\nS_LI r2, 3\nC_DMALD 0, r0, r2, r0, r1\n",           // dram_misaligned
      "C_DMAST 0, r0, r0, r0, r0\n",                                   // dma_empty
      "S_LI r1, 1\nC_LOOPI 255, full\nC_REL 9\nfull:\nC_REL 9\n",      // lock_overflow
      "S_LI r1, 1\nC_LOOPI 255, full\nC_REL 9\nfull:\nC_DMALD 0, r0, r0, r0, r1, 9\nC_NOP\n",  // from a DMA
      "S_LI r1, 1\nC_DMALD 0, r0, r0, r0, r1\n.word 0x00000000\n",  // a fault while DMA is in flight
  };
  for (const std::string& f : faults) {
    SCOPED_TRACE(f);
    const DiffOutcome out = expect_agree(GetParam(), f + "C_HALT\n");
    EXPECT_TRUE(out.faulted);
  }
}

// Every deliberate fault the random generator makes (all of isa/vliw.yaml's error kinds, in every form
// it draws), steered to one kind at a time: the RTL stops with the same error, pc and values as the model.
TEST_P(VliwRtl, EveryGeneratedFaultKindAgrees) {
  Hw& h = hw(GetParam());
  for (ErrorCode kind : fault_kinds()) {
    RandomProgramOptions options;
    options.faults.push_back(kind);
    options.fault_rate = 1;
    options.bundles = 40;
    for (uint64_t seed = 1; seed <= 6; ++seed) {
      const RandomProgram prog = random_program(h.params, seed, options);
      const DiffOutcome out = compare_rtl_and_model(*h.hw, h.params, prog.words, prog.dram);
      ASSERT_FALSE(out.divergence) << error_name(kind) << " seed " << seed << ": " << out.divergence->what
                                   << "\nat pc " << out.divergence->pc << ": " << out.divergence->bundle
                                   << "\n"
                                   << prog.source;
      Iss iss(h.params);
      iss.reset(prog.words);
      std::vector<uint8_t> dram = prog.dram;
      iss.run(dram, 2'000'000);
      EXPECT_TRUE(out.faulted);
      EXPECT_EQ(std::string(error_name(iss.state().error.code)), error_name(kind)) << "seed " << seed;
    }
  }
}

// Words the assembler never writes: unknown opcodes, reserved bits, operands out of range (p8, a9, a
// V_SHUF mode of 4, a lock of 17, a channel the configuration lacks, a loop body of 0) must be the same
// illegal_instruction on the RTL as in the model.
TEST_P(VliwRtl, ArbitraryWordsDecodeAlike) {
  Hw& h = hw(GetParam());
  std::mt19937_64 rng(11);
  const std::vector<uint8_t> dram(4096, 0);
  unsigned legal = 0;
  for (unsigned n = 0; n < 300; ++n) {
    uint32_t word = static_cast<uint32_t>(rng());
    // Mostly known opcodes so that the operand checks are reached.
    const auto& insns = isa::vliw::spec().instructions;
    if (n % 4 != 0) {
      const isa::InstructionSpec& insn = insns[rng() % insns.size()];
      word = (word & ~0x7Fu) | insn.opcode;
      if (n % 2 != 0) word &= ~insn.reserved_mask;  // legal but for operand ranges
    }
    const std::vector<uint32_t> program = {word | 0x80000000u, 0x80000002u};  // then C_HALT
    Iss iss(h.params);
    iss.reset(program);
    std::vector<uint8_t> model_dram = dram;
    iss.run(model_dram, 5000);
    legal += iss.state().error.code != ErrorCode::kIllegalInsn ? 1 : 0;
    const RtlRun rtl = run_on_rtl(*h.hw, h.params, program, dram, 5000);
    ASSERT_EQ(rtl.state.error.code, iss.state().error.code) << fmt::format("word 0x{:08x}", word);
    EXPECT_EQ(rtl.state.error.lo, iss.state().error.lo) << fmt::format("word 0x{:08x}", word);
  }
  EXPECT_GT(legal, 50u);
}

TEST_P(VliwRtl, RandomProgramsAgreeCycleForCycle) {
  Hw& h = hw(GetParam());
  uint64_t cycles = 0;
  unsigned faulted = 0;
  const uint64_t seed0 = GetParam() == "default" ? 1000 : 2000;
  for (uint64_t seed = seed0; seed < seed0 + 200; ++seed) {
    const RandomProgram prog = random_program(h.params, seed);
    const DiffOutcome out = compare_rtl_and_model(*h.hw, h.params, prog.words, prog.dram);
    ASSERT_FALSE(out.divergence) << "seed " << seed << ": " << out.divergence->what << "\nat pc "
                                 << out.divergence->pc << ": " << out.divergence->bundle << "\n"
                                 << prog.source;
    cycles += out.cycles;
    faulted += out.faulted ? 1 : 0;
  }
  EXPECT_GT(cycles, 200u * 150u);
  EXPECT_GT(faulted, 0u);
}

INSTANTIATE_TEST_SUITE_P(Configs, VliwRtl, ::testing::ValuesIn(vliw_hw_configs()),
                         [](const ::testing::TestParamInfo<std::string>& p) { return p.param; });

}  // namespace
}  // namespace kcraft::vliw
