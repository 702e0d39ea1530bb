// What surprised kernel writers on rvv (issue 28 item 11), each measured on the RTL of the `default`
// configuration (VLEN 128, 4 lanes) inside the whole core, from the instruction trace (the cycle each
// instruction retired): docs/rvv.md "Things that surprise kernel writers" states these numbers, and the
// tests that quote a number check that the guide says it.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "tests/rvv_core/rvv_core_harness.h"

namespace kcraft::rvv::test {
namespace {

std::string guide() {
  std::ifstream in(std::string(KCRAFT_SOURCE_DIR) + "/docs/rvv.md");
  return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

// The guide's prose with its line breaks (and the indentation after them) as single spaces.
std::string guide_prose() {
  std::string out;
  const std::string doc = guide();
  for (size_t i = 0; i < doc.size(); i++) {
    if (doc[i] != '\n') {
      out += doc[i];
      continue;
    }
    while (i + 1 < doc.size() && doc[i + 1] == ' ') i++;
    out += ' ';
  }
  return out;
}

// A kernel run on the RTL with its instruction trace.
struct Traced {
  BuiltKernel kernel;
  BareRun run;
  std::vector<tb::TraceEntry> trace;

  // The cycle the instruction at `label` (a .globl of the kernel) retired, its first time.
  uint64_t at(const std::string& label) const {
    const uint32_t pc = symbol_address(kernel, label);
    for (const auto& e : trace)
      if (e.pc == pc) return e.cycle;
    ADD_FAILURE() << label << " (pc 0x" << std::hex << pc << ") never retired";
    return 0;
  }
  uint64_t between(const std::string& from, const std::string& to) const { return at(to) - at(from); }
  uint32_t x(int i) const { return run.signature.x[i]; }
  uint32_t f(int i) const { return run.signature.f[i]; }
};

Traced run_traced(const std::string& body) {
  Traced t;
  t.kernel = build_asm(body);
  RvvHw& h = hw();
  h.set_instruction_trace(&t.trace);
  t.run = run_rtl(t.kernel, random_dram(4096, 28));
  h.set_instruction_trace(nullptr);
  EXPECT_TRUE(t.run.stopped);
  EXPECT_EQ(t.run.error.code, ErrorCode::kNone) << t.run.error.describe();
  EXPECT_TRUE(t.run.signature_valid);
  return t;
}

// `.globl name` + `name:` before `insn`.
std::string at(const std::string& name, const std::string& insn) {
  return fmt::format("  .globl {0}\n{0}:\n  {1}\n", name, insn);
}

// vsetvli/vsetivli/vsetvl run in the core's EX stage: they retire one per cycle while the vector unit is
// busy (a vfdiv at m8 runs 123 cycles) and while an instruction waits in its queue; the instructions after
// them take the new vl and vtype with them into the queue.
TEST(RvvGuideFacts, VsetvliRetiresInOneCycleWhileTheUnitIsBusy) {
  // t4: the vtype of e32, m8, ta, ma for vsetvl.
  const Traced t =
      run_traced("  li t4, 0xd3\n  vsetvli t0, zero, e32, m8, ta, ma\n" + at("div", "vfdiv.vv v8, v16, v24") +
                 "  vfadd.vv v0, v8, v16\n" + at("set1", "vsetvli t1, zero, e32, m4, ta, ma") +
                 at("set2", "vsetivli t2, 3, e32, m1, ta, ma") + at("set3", "vsetvl t3, t0, t4") +
                 at("after", "addi a0, t2, 1") + at("result", "vfmv.f.s fa0, v0") + "  ret\n");
  EXPECT_EQ(t.between("div", "set1"), 2u);  // the vfdiv and the vfadd queued, one cycle each
  EXPECT_EQ(t.between("set1", "set2"), 1u);
  EXPECT_EQ(t.between("set2", "set3"), 1u);
  EXPECT_EQ(t.between("set3", "after"), 1u);
  // ... and the unit was busy all that time: vfmv.f.s waits for the vfdiv and the vfadd behind it.
  EXPECT_GT(t.between("after", "result"), 100u);
  EXPECT_EQ(t.x(6), 16u);   // t1: VLMAX at e32 m4
  EXPECT_EQ(t.x(7), 3u);    // t2
  EXPECT_EQ(t.x(28), 32u);  // t3: vsetvl back to e32 m8
  EXPECT_EQ(t.x(10), 4u);   // a0 = t2 + 1: the vsetivli's result forwarded
}

// The rounding mode at kernel entry is RNE (frm = 0: crt0 starts with fcsr = 0, as QEMU does), and
// `fsrm` changes it for every instruction that rounds dynamically: scalar FP without a static rm (the
// assembler's default is dyn), all vector FP arithmetic and conversions (they have no rm field), but not
// scalar instructions with a static rm (`fcvt.w.s a0, fa0, rtz`) nor `vfcvt.rtz.*`, which always
// truncate. Measured in three modes: RNE (entry), RTZ, RDN.
TEST(RvvGuideFacts, RoundingModeAtEntryIsRneAndFsrmChangesScalarVectorAndConversions) {
  // fa1 = 1.0, fa2 = 0.75 ulp of 1.0 (2^-23 * 0.75), fa3 = -1.5.
  // Per mode: fsN = fa1 + fa2 (dyn), a vfadd.vv of the same, the static rne fadd; sN = fcvt.w.s fa3 (dyn),
  // its static rtz form, vfcvt.x.f.v and vfcvt.rtz.x.f.v of -1.5.
  const std::string probe = R"(
  .macro probe fadd_dyn, fadd_vec, fadd_rne, cvt_dyn, cvt_rtz, vcvt, vcvt_rtz
  fadd.s \fadd_dyn, fa1, fa2
  fadd.s \fadd_rne, fa1, fa2, rne
  fcvt.w.s \cvt_dyn, fa3
  fcvt.w.s \cvt_rtz, fa3, rtz
  vfadd.vv v4, v1, v2
  vfcvt.x.f.v v5, v3
  vfcvt.rtz.x.f.v v6, v3
  vfmv.f.s \fadd_vec, v4
  vmv.x.s \vcvt, v5
  vmv.x.s \vcvt_rtz, v6
  .endm
)";
  const std::string body = probe + R"(
  frrm a0
  li t0, 0x3f800000
  fmv.w.x fa1, t0
  li t0, 0x33c00000
  fmv.w.x fa2, t0
  li t0, 0xbfc00000
  fmv.w.x fa3, t0
  vsetivli zero, 4, e32, m1, ta, ma
  vfmv.v.f v1, fa1
  vfmv.v.f v2, fa2
  vfmv.v.f v3, fa3
  probe fs0, fs1, fs2, s0, s1, s2, s3
  li t1, 1
  fsrm a1, t1
  frrm a2
  probe fs3, fs4, fs5, s4, s5, s6, s7
  li t1, 2
  fsrm t1
  frrm a3
  probe fs6, fs7, fs8, s8, s9, s10, s11
  fsrm zero
  ret
)";
  // The RTL and QEMU agree on every register (frrm at entry included) and fcsr.
  const Both b = check_against_qemu(body, random_dram(256, 28));
  const Signature& s = b.rtl.signature;
  EXPECT_EQ(s.x[10], 0u);                                        // a0: frm at entry, RNE
  EXPECT_EQ(s.x[11], 0u);                                        // a1: fsrm returns the old mode
  EXPECT_EQ(s.x[12], 1u);                                        // a2: RTZ
  EXPECT_EQ(s.x[13], 2u);                                        // a3: RDN
  auto fs = [&](int k) { return s.f[k < 2 ? 8 + k : 16 + k]; };  // fs0, fs1 = f8, f9; fs2.. = f18..
  auto sx = [&](int k) { return s.x[k < 2 ? 8 + k : 16 + k]; };  // s0, s1 = x8, x9; s2.. = x18..
  const uint32_t up = 0x3f800001, down = 0x3f800000;             // 1 + 0.75 ulp rounded up / down
  const uint32_t m1 = static_cast<uint32_t>(-1), m2 = static_cast<uint32_t>(-2);
  // RNE: scalar and vector add round up, conversions of -1.5 to even (-2).
  EXPECT_EQ(fs(0), up);
  EXPECT_EQ(fs(1), up);
  EXPECT_EQ(sx(0), m2);
  EXPECT_EQ(sx(2), m2);
  // RTZ: both adds round down, both dynamic conversions truncate (-1).
  EXPECT_EQ(fs(3), down);
  EXPECT_EQ(fs(4), down);
  EXPECT_EQ(sx(4), m1);
  EXPECT_EQ(sx(6), m1);
  // RDN: adds down, conversions towards -inf (-2).
  EXPECT_EQ(fs(6), down);
  EXPECT_EQ(fs(7), down);
  EXPECT_EQ(sx(8), m2);
  EXPECT_EQ(sx(10), m2);
  // The static forms do not follow frm: fadd.s ..., rne rounds up, fcvt.w.s ..., rtz and vfcvt.rtz.x.f.v
  // truncate, in every mode.
  for (int mode = 0; mode < 3; mode++) {
    EXPECT_EQ(fs(3 * mode + 2), up) << "mode " << mode;
    EXPECT_EQ(sx(4 * mode + 1), m1) << "mode " << mode;
    EXPECT_EQ(sx(4 * mode + 3), m1) << "mode " << mode;
  }
}

// vfredusum.vs vd, vs2, vs1 computes vs1[0] + the sum of vs2: the seed is an operand. A register that
// held the last sum (the usual slip: vd = vs1 reused across loop iterations) adds it again; vfmv.s.f (or
// vmv.s.x) sets it.
TEST(RvvGuideFacts, VfredusumAddsItsSeedRegister) {
  const Both b = check_against_qemu(R"(
  li t0, 0x3f800000
  fmv.w.x fa0, t0
  li t1, 32
  vsetvli zero, t1, e32, m8, ta, ma
  vfmv.v.f v8, fa0
  vfredusum.vs v1, v8, v1
  vfmv.f.s fs0, v1
  vfredusum.vs v1, v8, v1
  vfmv.f.s fs1, v1
  fmv.w.x ft0, zero
  vfmv.s.f v1, ft0
  vfredusum.vs v1, v8, v1
  vfmv.f.s fs2, v1
  li t0, 0x42c80000
  fmv.w.x ft1, t0
  vfmv.s.f v2, ft1
  vfredusum.vs v3, v8, v2
  vfmv.f.s fs3, v3
  ret
)",
                                    random_dram(256, 28));
  const Signature& s = b.rtl.signature;
  EXPECT_EQ(s.f[8], 0x42000000u);   // fs0: 32 ones + v1[0] = 0 (crt0 zeroed it)
  EXPECT_EQ(s.f[9], 0x42800000u);   // fs1: 64, the previous sum was the seed
  EXPECT_EQ(s.f[18], 0x42000000u);  // fs2: 32 again after vfmv.s.f v1, 0
  EXPECT_EQ(s.f[19], 0x43040000u);  // fs3: 132 = 100 + 32
}

// Reducing 32 floats (e32, m8, vl 32, one register group) to a scalar register: vfredusum over the group
// against folding the group by halves (vfadd.vv of the two m4 halves, then m2, m1) before it. Cycles from
// the retirement of the instruction before the sequence (the unit idle) to that of the vfmv.f.s that reads
// the sum. The fold sums in another order (exact here: the integers 0..31).
struct Reduction {
  const char* name;
  const char* code;
};
const Reduction kReductions[] = {
    {"vfredusum at m8 (vl 32)", "  vfredusum.vs v1, v8, v1\n"},
    {"fold to m4, vfredusum (vl 16)",
     "  vsetivli zero, 16, e32, m4, ta, ma\n  vfadd.vv v8, v8, v12\n  vfredusum.vs v1, v8, v1\n"},
    {"fold to m2, vfredusum (vl 8)",
     "  vsetivli zero, 16, e32, m4, ta, ma\n  vfadd.vv v8, v8, v12\n"
     "  vsetivli zero, 8, e32, m2, ta, ma\n  vfadd.vv v8, v8, v10\n  vfredusum.vs v1, v8, v1\n"},
    {"fold to m1, vfredusum (vl 4)",
     "  vsetivli zero, 16, e32, m4, ta, ma\n  vfadd.vv v8, v8, v12\n"
     "  vsetivli zero, 8, e32, m2, ta, ma\n  vfadd.vv v8, v8, v10\n"
     "  vsetivli zero, 4, e32, m1, ta, ma\n  vfadd.vv v8, v8, v9\n  vfredusum.vs v1, v8, v1\n"},
};
// The measured cycles, as docs/rvv.md's table states them.
const uint64_t kReductionCycles[] = {37, 29, 26, 26};

TEST(RvvGuideFacts, FoldingByHalvesBeforeTheReductionIsFaster) {
  const std::string doc = guide();
  for (size_t k = 0; k < std::size(kReductions); k++) {
    const std::string body = R"(
  li t1, 32
  vsetvli zero, t1, e32, m8, ta, ma
  vid.v v8
  vfcvt.f.xu.v v8, v8
  vmv.s.x v1, zero
)" + at("idle", "vfmv.f.s ft0, v8") +
                             kReductions[k].code + at("sum", "vfmv.f.s fa0, v1") + "  ret\n";
    check_against_qemu(body, random_dram(256, 28));  // the same sum and end state under QEMU
    const Traced t = run_traced(body);
    EXPECT_EQ(t.f(10), 0x43f80000u) << kReductions[k].name;  // 496 = 0 + 1 + ... + 31
    const uint64_t cycles = t.between("idle", "sum");
    EXPECT_EQ(cycles, kReductionCycles[k]) << kReductions[k].name;
    EXPECT_NE(doc.find(fmt::format("| {} | {} |", kReductions[k].name, cycles)), std::string::npos)
        << "docs/rvv.md should have the row | " << kReductions[k].name << " | " << cycles << " |";
  }
}

// A scalar store waits while a vector load is queued or running; the core stops issuing meanwhile, so the
// vector instruction after the store is handed over only when the load has finished (a scalar load does
// not wait). Cycles from the load's retirement to the next vector instruction's, with a DTCM and a DRAM
// (missing the cache) source, e32 m8 (8 rows).
TEST(RvvGuideFacts, AScalarStoreAfterAVectorLoadWaitsForIt) {
  const std::string doc = guide_prose();
  auto gap = [](const std::string& base, const std::string& between) {
    const Traced t = run_traced("  li s0, " + base +
                                "\n  li s1, 0x00018800\n  li t1, 32\n  vsetvli zero, t1, e32, m8, ta, ma\n" +
                                at("load", "vle32.v v8, (s0)") + between +
                                at("next", "vfadd.vv v16, v24, v24") + "  vfmv.f.s fa0, v16\n  ret\n");
    return t.between("load", "next");
  };
  const uint64_t dtcm_none = gap("0x00018000", "  addi t2, t2, 1\n");
  const uint64_t dtcm_lw = gap("0x00018000", "  lw t2, 0(s1)\n");
  const uint64_t dtcm_sw = gap("0x00018000", "  sw t2, 0(s1)\n");
  const uint64_t dram_sw = gap("0x80000000", "  sw t2, 0(s1)\n");
  EXPECT_EQ(dtcm_none, 2u);
  EXPECT_EQ(dtcm_lw, 2u);
  EXPECT_EQ(dtcm_sw, 13u);
  EXPECT_EQ(dram_sw, 34u);
  EXPECT_NE(
      doc.find(fmt::format("the next vector instruction is handed over {} cycles after the load instead "
                           "of {} (DTCM source), {} when the load misses the cache",
                           dtcm_sw, dtcm_none, dram_sw)),
      std::string::npos);
  // "Writing fast kernels" quotes the difference.
  EXPECT_NE(doc.find(fmt::format("holds the next vector instruction {} cycles (DTCM) to {} (a miss) longer",
                                 dtcm_sw - dtcm_none, dram_sw - dtcm_none)),
            std::string::npos);
}

// The trace records a vector instruction when it leaves the scalar pipeline, having been handed to the
// unit's queue: the instruction after it retires the next cycle, and an instruction that needs the
// unit's result (vfmv.f.s) retires the vfdiv's run time later (15 B + 3 = 123 cycles at e32 m8, vl 32, plus
// the few cycles of getting the scalar back). The excerpt in docs/rvv.md is this trace.
TEST(RvvGuideFacts, TheTraceShowsVectorInstructionsAtDispatch) {
  const Traced t =
      run_traced("  li t1, 32\n  vsetvli zero, t1, e32, m8, ta, ma\n" + at("div", "vfdiv.vv v8, v16, v24") +
                 at("add", "addi a0, a0, 1") + at("mv", "vfmv.f.s fa0, v8") + "  ret\n");
  EXPECT_EQ(t.between("div", "add"), 1u);
  EXPECT_EQ(t.between("div", "mv"), 15u * 8 + 3);
  const std::string doc = guide();
  // `kcraft eval --itrace`'s format (tb/common/evaluation_steps.cpp): cycle, pc, word, disassembly.
  auto line = [&](const std::string& label) {
    const uint32_t pc = symbol_address(t.kernel, label);
    for (const auto& e : t.trace)
      if (e.pc == pc) return fmt::format("{:>10}  {:>5}  {:08x}", e.cycle, e.pc, e.word);
    return std::string("(not retired)");
  };
  const std::string div_line = line("div"), mv_line = line("mv");
  EXPECT_NE(doc.find(div_line), std::string::npos) << "docs/rvv.md's trace should show `" << div_line << "`";
  EXPECT_NE(doc.find(mv_line), std::string::npos) << "docs/rvv.md's trace should show `" << mv_line << "`";
}

}  // namespace
}  // namespace kcraft::rvv::test
