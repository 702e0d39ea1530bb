// The facts docs/vliw.md states about the tile, measured on the RTL (in SystemC, as `kcraft eval` runs it)
// with the cycle-exact functional model agreeing: the worked timelines of §6 (fenced ```timeline blocks,
// one bundle per line, issued at exactly the cycles shown), how DMA channels share DRAM, that a stalled
// C_ACQ holds every slot, that every run starts with DM, registers and accumulators at zero, and the
// layout idioms of §11.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <cstring>
#include <fstream>
#include <string>
#include <vector>

#include "isa/common/assembler.h"
#include "isa/vliw/vliw_iss.h"
#include "tb/common/paths.h"
#include "tb/vliw/vliw_hw.h"
#include "tb/vliw/vliw_platform.h"
#include "tb/vliw/vliw_sim.h"
#include "tests/guide_timelines.h"
#include "vliw_isa.h"

namespace kcraft::vliw {
namespace {

const VliwPlatform& platform() {
  static const VliwPlatform p;
  return p;
}

struct GuideRun {
  std::vector<uint64_t> issue;  // the cycle each bundle issued, in issue order (RTL)
  RunResult rtl;
  MachineState model;
  std::vector<uint8_t> model_dram;
};

// Runs `source` on the RTL and the model from the same DRAM image; expects a clean halt and the model's
// issue cycles, state and DRAM to be the RTL's.
GuideRun run(const std::string& source, const std::string& hw = "default",
             std::vector<uint8_t> dram = std::vector<uint8_t>(1 << 16)) {
  const Params p = platform().params(hw);
  const isa::AssembleResult a = isa::assemble(isa::vliw::spec(), source, "guide.s", p.symbols());
  EXPECT_TRUE(a.ok) << isa::format_diagnostics(a, source);
  GuideRun out;
  RunJob job;
  job.config = hw;
  job.program = a.words;
  job.dram = dram;
  job.timing = tb::DramTiming{p.dram_latency, p.dram_bytes_per_cycle};
  job.cycle_cap = 100000;
  job.instruction_trace = true;
  job.read_state = true;
  out.rtl = simulate(job);
  EXPECT_EQ(out.rtl.stop, RunResult::Stop::kStopped) << source;
  EXPECT_EQ(out.rtl.state.error.code, ErrorCode::kNone) << source;
  for (const auto& t : out.rtl.trace) out.issue.push_back(t.cycle);

  Iss iss(p);
  iss.reset(a.words);
  std::vector<uint64_t> model_issue;
  iss.on_issue = [&](uint32_t, const std::vector<uint32_t>&, uint64_t cycle) {
    model_issue.push_back(cycle);
  };
  out.model_dram = dram;
  const Iss::Result m = iss.run(out.model_dram, 100000);
  EXPECT_EQ(m.stop, Iss::Stop::kHalted) << source;
  EXPECT_EQ(model_issue, out.issue) << "the model issues at other cycles than the RTL\n" << source;
  EXPECT_EQ(m.cycles, out.rtl.cycles);
  out.model = iss.state();
  EXPECT_EQ(out.model.first_difference(out.rtl.state, p), std::nullopt);
  EXPECT_EQ(out.model_dram, out.rtl.dram);
  return out;
}

// ---------------------------------------------------------------- §6's worked timelines
TEST(VliwGuide, WorkedTimelinesInTheGuideAreWhatTheRtlDoes) {
  const std::vector<kcraft::test::GuideTimeline> blocks =
      kcraft::test::guide_timelines(root() / "docs" / "vliw.md");
  ASSERT_GE(blocks.size(), 4u) << "docs/vliw.md lost its worked timelines";
  for (const auto& block : blocks) {
    std::string source;
    for (const auto& [cycle, bundle] : block) source += bundle + "\n";
    SCOPED_TRACE(source);
    const GuideRun r = run(source + "C_HALT");
    // One line, one bundle (no loops, no two-bundle S_LI): the i-th issue is line i.
    ASSERT_GE(r.issue.size(), block.size());
    for (size_t i = 0; i < block.size(); ++i) EXPECT_EQ(r.issue[i], block[i].first) << block[i].second;
  }
}

// ---------------------------------------------------------------- DMA channels sharing DRAM
// A one-row transfer queued right after a 128-row one: on another channel it launches between the big
// one's rows and lands as if DRAM were idle, plus at most what the rows launched before it still occupy
// DRAM (nothing on `default`; on `small`, where DRAM serves a row in two cycles, the backlog); on the same
// channel it waits for every row of the big one to launch.
TEST(VliwGuide, ASmallTransferOnAnotherChannelOvertakesALargeOne) {
  for (const std::string& hw : vliw_hw_configs()) {
    SCOPED_TRACE(hw);
    const Params p = platform().params(hw);
    const std::string prologue = "S_LI r1, ROW_BYTES\nS_LI r2, 128\nS_LI r3, 1\nS_LI r4, 4096\n";
    // Bundle 4 queues the big load; bundle 5 the urgent one; bundle 6 waits for the urgent one.
    const GuideRun other = run(prologue +
                                   "C_DMALD 0, r0, r0, r1, r2, 0\nC_DMALD 1, r4, r0, r1, r3, 1\nC_ACQ 1\n"
                                   "C_ACQ 0\nC_HALT",
                               hw);
    const GuideRun same = run(prologue +
                                  "C_DMALD 0, r0, r0, r1, r2, 0\nC_DMALD 0, r4, r0, r1, r3, 1\nC_ACQ 1\n"
                                  "C_ACQ 0\nC_HALT",
                              hw);
    const GuideRun alone = run(prologue + "C_NOP\nC_DMALD 1, r4, r0, r1, r3, 1\nC_ACQ 1\nC_HALT", hw);
    const uint64_t idle = alone.issue[6] - alone.issue[5];  // the urgent row on an idle DRAM
    const uint64_t row_cycles = (p.row_bytes() + p.dram_bytes_per_cycle - 1) / p.dram_bytes_per_cycle;
    EXPECT_EQ(idle, 3 + row_cycles + p.dram_latency);
    const uint64_t beside = other.issue[6] - other.issue[5];
    // It launches in the cycle after its bundle (the channels alternate), behind the one row the big
    // transfer launched in that cycle: it waits for what DRAM still owes the rows launched before it.
    EXPECT_EQ(beside, idle + row_cycles - 1) << "it waits for the one row launched just before it";
    // Queued 40 bundles into the big transfer: on a DRAM that serves a row per cycle nothing has piled
    // up; where it takes longer (`small`: 2 cycles a row) the rows launched before it have.
    std::string nops;
    for (int i = 0; i < 40; ++i) nops += "C_NOP\n";
    const GuideRun later = run(prologue + "C_DMALD 0, r0, r0, r1, r2, 0\n" + nops +
                                   "C_DMALD 1, r4, r0, r1, r3, 1\nC_ACQ 1\nC_ACQ 0\nC_HALT",
                               hw);
    const uint64_t backlog = later.issue[46] - later.issue[45] - idle;
    // docs/vliw.md §6 quotes these: on `small` DMA_OUTSTANDING rows in flight fill up
    // and the urgent row cannot launch until the first of them is answered.
    if (hw == "default") {
      EXPECT_EQ(backlog, 0u);
    } else if (hw == "small") {
      EXPECT_EQ(backlog, 23u);
    }
    // Behind it on one channel: after all 128 rows.
    EXPECT_GE(same.issue[6] - same.issue[5], 127 * row_cycles + idle - row_cycles);
    EXPECT_GT(same.issue[6], other.issue[6] + 100);
    // The big transfer lost only the urgent row's DRAM time: one row-time.
    const GuideRun big = run(prologue + "C_DMALD 0, r0, r0, r1, r2, 0\nC_NOP\nC_NOP\nC_ACQ 0\nC_HALT", hw);
    EXPECT_EQ(other.issue[7], big.issue[7] + row_cycles);
    EXPECT_LE(other.issue[7], same.issue[7] + row_cycles);
  }
}

// ---------------------------------------------------------------- C_ACQ freezes every slot
TEST(VliwGuide, AStalledAcquireHoldsEverySlotOfItsBundleAndEveryBundleBehind) {
  const std::string prologue = "S_LI r1, ROW_BYTES\nS_LI r3, 1\nC_DMALD 0, r0, r0, r1, r3, 0\n";
  const GuideRun early = run(prologue +
                             "{ L_VLD v1, p0, 0 ; V_ADD v2, v3, v3 ; S_ADDI r5, r5, 1 ; C_ACQ 0 }\n"
                             "S_ADDI r6, r6, 1\nS_ADDI r7, r7, 1\nC_HALT");
  const GuideRun late = run(prologue +
                            "S_ADDI r6, r6, 1\nS_ADDI r7, r7, 1\n"
                            "{ L_VLD v1, p0, 0 ; V_ADD v2, v3, v3 ; S_ADDI r5, r5, 1 ; C_ACQ 0 }\nC_HALT");
  // Early: the bundle with the acquire (and its load, vector and scalar ops) issues when the row has
  // landed, 44 cycles after the DMA's bundle; the independent bundles behind it wait too.
  EXPECT_EQ(early.issue[3], early.issue[2] + 44);
  EXPECT_EQ(early.issue[4], early.issue[3] + 1);
  EXPECT_EQ(early.rtl.counters[isa::vliw::kStallLockWait], 43u);
  // Late: the independent bundles run in the wait; the acquire issues at the same cycle.
  EXPECT_EQ(late.issue[3], late.issue[2] + 1);
  EXPECT_EQ(late.issue[5], early.issue[3]);
  EXPECT_EQ(late.issue[6] + 2, early.issue[6]);  // the C_HALTs: two bundles sooner
  // The load in the acquire's bundle read the DMA'd row (it issued after it landed).
  EXPECT_EQ(early.rtl.state.r[5], 1u);
}

// ---------------------------------------------------------------- §11's layout idioms
// The fenced asm blocks of docs/vliw.md whose first line is "; idiom: NAME".
std::string idiom(const std::string& name) {
  std::ifstream in(root() / "docs" / "vliw.md");
  std::string line, block;
  bool inside = false, found = false;
  while (std::getline(in, line)) {
    const auto start = line.find_first_not_of(' ');
    const std::string t = start == std::string::npos ? "" : line.substr(start);
    if (!inside && t.rfind("```asm", 0) == 0) {
      inside = true;
      block.clear();
      continue;
    }
    if (inside && t.rfind("```", 0) == 0) {
      inside = false;
      if (found) return block;
      continue;
    }
    if (inside && block.empty() && t.rfind("; idiom: " + name, 0) == 0) found = true;
    if (inside) block += t + "\n";
  }
  ADD_FAILURE() << "docs/vliw.md has no idiom '" << name << "'";
  return "";
}

TEST(VliwGuide, TheLayoutIdiomsOfTheGuideDoWhatTheySay) {
  const Params p = platform().params("default");
  ASSERT_EQ(p.vlen, 16u);
  ASSERT_EQ(p.mmul_m(), 4u);
  ASSERT_EQ(p.mmul_k(), 4u);
  // A [4, 16] (k = 0..15) and B [4, 16] (k = 0..3, n = 0..15): small integers, every sum exact in BF16.
  auto a_val = [](int m, int k) { return static_cast<float>((m * 3 + k * 5) % 7 - 3); };
  auto b_val = [](int k, int n) { return static_cast<float>((k * 5 + n * 3) % 5 - 2); };
  auto bf16 = [](float f) {
    uint32_t u;
    std::memcpy(&u, &f, 4);
    return static_cast<uint16_t>(u >> 16);  // exact for these values
  };
  std::vector<uint8_t> dram(1 << 16);
  auto put = [&](size_t element, float f) {
    dram[2 * element] = static_cast<uint8_t>(bf16(f));
    dram[2 * element + 1] = static_cast<uint8_t>(bf16(f) >> 8);
  };
  for (int r = 0; r < 4; ++r) {
    for (int c = 0; c < 16; ++c) {
      put(r * 16 + c, a_val(r, c));       // A rows at DRAM 0 -> DM rows 0..3
      put(64 + r * 16 + c, b_val(r, c));  // B rows at DRAM 128 -> DM rows 4..7
    }
  }
  const std::string load = R"(
    S_LI r1, ROW_BYTES
    S_LI r2, 8
    C_DMALD 0, r0, r0, r1, r2, 0
    C_ACQ 0
    S_PMOV p0, r0
)";
  auto v = [](const GuideRun& r, unsigned reg, unsigned lane) {
    uint32_t u = uint32_t{r.rtl.state.v[reg * 16 + lane]} << 16;
    float f;
    std::memcpy(&f, &u, 4);
    return f;
  };
  // Transpose alone: A's rows into A^T tiles.
  const GuideRun t = run(load +
                             "L_VLD v0, p0, ROW_BYTES\nL_VLD v1, p0, ROW_BYTES\nL_VLD v2, p0, ROW_BYTES\n"
                             "L_VLD v3, p0, ROW_BYTES\nC_NOP\nC_NOP\n" +
                             idiom("transpose") + "C_NOP\nC_HALT",
                         "default", dram);
  for (unsigned q = 0; q < 4; ++q) {
    for (unsigned k = 0; k < 4; ++k) {
      for (unsigned m = 0; m < 4; ++m) {
        EXPECT_EQ(v(t, 8 + q, k * 4 + m), a_val(m, 4 * q + k)) << "tile " << q << " k " << k << " m " << m;
      }
    }
  }
  // The product: B^T tiles (the transpose on B's rows, kept in v12..v15), the A^T tile of k = 0..3, then
  // the mmul idiom: rows 0, 2, 1, 3 of C = A[:, 0:4] B in v8..v11.
  const GuideRun mm =
      run(load +
              "S_LI r3, 4 * ROW_BYTES\nS_PMOV p1, r3\n"
              "L_VLD v0, p1, ROW_BYTES\nL_VLD v1, p1, ROW_BYTES\nL_VLD v2, p1, ROW_BYTES\n"
              "L_VLD v3, p1, ROW_BYTES\nC_NOP\nC_NOP\n" +
              idiom("transpose") +
              "V_MAX v12, v8, v8\nV_MAX v13, v9, v9\nV_MAX v14, v10, v10\nV_MAX v15, v11, v11\n"
              "L_VLD v0, p0, ROW_BYTES\nL_VLD v1, p0, ROW_BYTES\nL_VLD v2, p0, ROW_BYTES\n"
              "L_VLD v3, p0, ROW_BYTES\nC_NOP\nC_NOP\n" +
              idiom("transpose") + "C_NOP\nC_NOP\n" + idiom("mmul rows") + "C_NOP\nC_HALT",
          "default", dram);
  const unsigned row_reg[4] = {8, 10, 9, 11};  // rows 0, 1, 2, 3 of C
  for (int m = 0; m < 4; ++m) {
    for (int n = 0; n < 16; ++n) {
      float c = 0;
      for (int k = 0; k < 4; ++k) c += a_val(m, k) * b_val(k, n);
      EXPECT_EQ(v(mm, row_reg[m], static_cast<unsigned>(n)), c) << "C[" << m << "][" << n << "]";
    }
  }
  // Row-major blocks from rows along k (the second factor given transposed, as K in Q K^T): A's rows
  // into its 4x4 blocks, then a product with A^T tile 0 as the idiom says: lane n*4 + m of the result is
  // sum over k < 4 of A[m][k] A[n][k].
  const std::string rows =
      "L_VLD v0, p0, ROW_BYTES\nL_VLD v1, p0, ROW_BYTES\nL_VLD v2, p0, ROW_BYTES\n"
      "L_VLD v3, p0, ROW_BYTES\nC_NOP\nC_NOP\n";
  const GuideRun blocks =
      run(load + rows + idiom("row-major blocks") +
              "V_MAX v12, v8, v8\nV_MAX v13, v9, v9\nV_MAX v14, v10, v10\nV_MAX v15, v11, v11\nC_NOP\n"
              "S_PMOV p0, r0\n" +
              rows + idiom("transpose") +
              "C_NOP\nA_MMUL a0, v12, v8\nC_NOP\nC_NOP\nC_NOP\nC_NOP\nV_SRS v4, a0\nC_NOP\nC_NOP\nC_HALT",
          "default", dram);
  const unsigned block_reg[4] = {12, 14, 13, 15};  // blocks g = 0, 1, 2, 3 (the idiom leaves 0, 2, 1, 3)
  for (unsigned g = 0; g < 4; ++g) {
    for (unsigned n = 0; n < 4; ++n) {
      for (unsigned k = 0; k < 4; ++k) {
        EXPECT_EQ(v(blocks, block_reg[g], n * 4 + k), a_val(static_cast<int>(n), static_cast<int>(4 * g + k)))
            << "block " << g << " n " << n << " k " << k;
      }
    }
  }
  for (int m = 0; m < 4; ++m) {
    for (int n = 0; n < 4; ++n) {
      float c = 0;
      for (int k = 0; k < 4; ++k) c += a_val(m, k) * a_val(n, k);
      EXPECT_EQ(v(blocks, 4, static_cast<unsigned>(n * 4 + m)), c) << "S[" << m << "][" << n << "]";
    }
  }
}

// ---------------------------------------------------------------- the state a run starts from
// Every run starts with DM, every register, accumulator and lock at zero, even right after a run that
// left them non-zero in the same process (the RTL is reset and its memories cleared between runs).
TEST(VliwGuide, EveryRunStartsWithZeroedDmRegistersAndAccumulators) {
  std::vector<uint8_t> dram(1 << 16);
  for (size_t i = 0; i < dram.size(); ++i) dram[i] = static_cast<uint8_t>(0x3F + i % 7);
  // Dirty everything: DM rows 0..1023 from DRAM, v1, a1, r5, p1.
  run(R"(
    S_LI r1, ROW_BYTES
    S_LI r2, 1024
    C_DMALD 0, r0, r0, r1, r2, 0
    C_ACQ 0
    S_LI r5, 77
    S_PMOV p1, r1
    L_VLD v1, p1, 0
    C_NOP
    C_NOP
    A_UPS a1, v1
    C_NOP
    C_HALT)",
      "default", dram);
  // Read them without writing: DM row 1, v1, a1 (through V_SRS) and r5, stored to DM at 1024.. and
  // then to DRAM at 8192 (whose bytes are not zero before).
  const GuideRun r = run(R"(
    S_LI r1, ROW_BYTES
    S_PMOV p2, r1
    L_VLD v2, p2, 0
    V_SRS v3, a1
    S_LI r8, 1024
    S_PMOV p3, r8
    { L_VST v1, p3, ROW_BYTES ; V_ADD v4, v1, v1 }
    L_VST v2, p3, ROW_BYTES
    L_VST v3, p3, ROW_BYTES
    L_VST v4, p3, ROW_BYTES
    L_SST r5, p3
    S_LI r2, 5
    S_LI r7, 8192
    C_DMAST 0, r8, r7, r1, r2, 0
    C_ACQ 0
    C_HALT)",
                         "default", dram);
  const Params p = platform().params("default");
  for (size_t i = 0; i < 5 * p.row_bytes(); ++i) EXPECT_EQ(r.rtl.dram[8192 + i], 0) << "byte " << i;
  for (size_t i = 0; i < r.rtl.state.dm.size(); ++i) ASSERT_EQ(r.rtl.state.dm[i], 0) << "DM byte " << i;
  EXPECT_EQ(r.rtl.state.p[1], 0u);
  for (uint32_t a : r.rtl.state.a) EXPECT_EQ(a, 0u);
  for (unsigned l = 0; l < 16; ++l) EXPECT_EQ(r.rtl.state.locks[l], 0u);
}

}  // namespace
}  // namespace kcraft::vliw
