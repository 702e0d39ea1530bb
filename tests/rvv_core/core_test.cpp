// The rvv core against QEMU: directed programs per instruction group and hazard, the end state (registers,
// fcsr, vl/vtype, DRAM) compared; error stops with their pc, word and address; cycle counts of the timing
// documented in docs/rvv.md.
#include <gtest/gtest.h>

#include <array>
#include <string>

#include "isa/rvv/rvv_memory_map.h"
#include "tests/rvv_core/rvv_core_harness.h"

namespace kcraft::rvv::test {
namespace {

// Every RV32I ALU instruction, with back-to-back dependencies (forwarding from MEM and WB).
TEST(RvvCoreIsa, IntegerAluAndForwarding) {
  check_against_qemu(R"(
  li a0, 0x12345678
  li a1, -0x1234
  add a2, a0, a1
  sub a3, a2, a0
  sll a4, a0, a1
  slt a5, a1, a0
  sltu a6, a1, a0
  xor a7, a0, a1
  srl s2, a1, a0
  sra s3, a1, a0
  or s4, a2, a3
  and s5, s4, a1
  addi s6, a0, -2048
  slti s7, a1, -500
  sltiu s8, a1, 1
  xori s9, a0, -1
  ori s10, a0, 0x7ff
  andi s11, a1, 0x0f0
  slli t0, a0, 31
  srli t1, a1, 17
  srai t2, a1, 7
  lui t3, 0xfffff
  auipc t4, 1
  sub t4, t4, ra
  add t5, t3, t3
  add t5, t5, t5
  add t6, t5, a0
  add gp, t6, t6
  add tp, gp, gp
  add s0, tp, gp
  add s1, s0, s0
  ret
)",
                     random_dram(256, 1));
}

TEST(RvvCoreIsa, BranchesJumpsAndLoops) {
  check_against_qemu(R"(
  li a0, 0
  li a1, 10
1:
  addi a0, a0, 3
  addi a1, a1, -1
  bnez a1, 1b
  li t0, -1
  li t1, 1
  li a2, 0
  blt t0, t1, 2f
  addi a2, a2, 1
2:
  bltu t0, t1, 3f
  addi a2, a2, 2
3:
  bge t1, t0, 4f
  addi a2, a2, 4
4:
  bgeu t1, t0, 5f
  addi a2, a2, 8
5:
  beq t0, t0, 6f
  addi a2, a2, 16
6:
  bne t0, t0, 7f
  addi a2, a2, 32
7:
  mv s0, ra
  jal ra, 8f
  addi a2, a2, 64
  j 9f
8:
  addi a3, ra, 0
  la t2, 10f
  jalr t3, 0(t2)
10:
  sub a4, t3, t2
  ret_from: jr ra
9:
  sub a3, a3, s0
  mv ra, s0
  ret
)",
                     random_dram(256, 2));
}

// Loads and stores of every width to the DTCM and DRAM (through the cache and the write buffer), sign and
// zero extension, load-use hazards, store-to-load through the write buffer, a DRAM row straddled by words.
TEST(RvvCoreIsa, LoadsAndStores) {
  check_against_qemu(R"(
  li s0, 0x80000000
  li s1, 0x00018000
  lw a0, 0(s0)
  lw a1, 4(s0)
  add a2, a0, a1
  lb a3, 5(s0)
  lbu a4, 6(s0)
  lh a5, 10(s0)
  lhu a6, 14(s0)
  sw a2, 0(s1)
  sh a3, 6(s1)
  sb a4, 9(s1)
  lw t0, 0(s1)
  lw t1, 4(s1)
  lw t2, 8(s1)
  lb t3, 6(s1)
  lhu t4, 6(s1)
  add t5, t3, t4
  sw t5, 64(s0)
  sb t5, 70(s0)
  sh t5, 74(s0)
  lw t6, 64(s0)
  lw s2, 68(s0)
  lw s3, 72(s0)
  li a7, 100
1:
  lw s4, 128(s0)
  addi s4, s4, 1
  sw s4, 128(s0)
  addi a7, a7, -1
  bnez a7, 1b
  lw s5, 128(s0)
  sw s5, 200(s0)
  lw s6, 196(s0)
  lw s7, 200(s0)
  lw s8, 2044(s0)
  ret
)",
                     random_dram(4096, 3));
}

TEST(RvvCoreIsa, MultiplyAndDivideWithSpecialCases) {
  check_against_qemu(R"(
  li s0, 0x80000000
  li s1, -1
  li s2, 0
  li s3, 0x7fffffff
  li s4, -7
  li s5, 3
  mul a0, s3, s4
  mulh a1, s3, s4
  mulhsu a2, s4, s3
  mulhu a3, s1, s1
  mulh a4, s0, s0
  div a5, s4, s5
  rem a6, s4, s5
  divu a7, s4, s5
  remu t0, s4, s5
  div t1, s0, s1
  rem t2, s0, s1
  div t3, s4, s2
  rem t4, s4, s2
  divu t5, s4, s2
  remu t6, s4, s2
  div gp, s5, s4
  add tp, gp, t6
  mul s6, a5, a5
  divu s7, s1, s5
  rem s8, s5, s4
  ret
)",
                     random_dram(256, 4));
}

// FP arithmetic in every static rounding mode and through frm, with special values, flags accrued in
// fflags; conversions, compares, classification, sign injection, min/max, FDIV/FSQRT back to back.
TEST(RvvCoreIsa, FloatingPointInEveryRoundingModeWithSpecialValues) {
  std::string body = R"(
  la t0, 1f
  j 2f
  .balign 4
1:
  .word 0x3f800000, 0x40490fdb, 0xbf800001, 0x00000001, 0x7f7fffff, 0xff800000, 0x7fc00000, 0x7f800001
  .word 0x80000000, 0x3eaaaaab, 0x4b000001, 0xcf000000
2:
  la s0, 1b
)";
  // Data lives in ITCM (code) here, which the RTL does not load from: copy through x registers instead.
  body = R"(
  li s0, 0x00018000
  li t0, 0x3f800000
  sw t0, 0(s0)
  li t0, 0x40490fdb
  sw t0, 4(s0)
  li t0, 0xbf800001
  sw t0, 8(s0)
  li t0, 0x00000001
  sw t0, 12(s0)
  li t0, 0x7f7fffff
  sw t0, 16(s0)
  li t0, 0xff800000
  sw t0, 20(s0)
  li t0, 0x7fc00000
  sw t0, 24(s0)
  li t0, 0x7f800001
  sw t0, 28(s0)
  li t0, 0x3eaaaaab
  sw t0, 32(s0)
  li t0, 0xcf000000
  sw t0, 36(s0)
  flw f0, 0(s0)
  flw f1, 4(s0)
  flw f2, 8(s0)
  flw f3, 12(s0)
  flw f4, 16(s0)
  flw f5, 20(s0)
  flw f6, 24(s0)
  flw f7, 28(s0)
  flw f8, 32(s0)
  flw f9, 36(s0)
)";
  const char* modes[] = {"rne", "rtz", "rdn", "rup", "rmm"};
  int reg = 10;
  for (const char* m : modes) {
    body += std::string("  fadd.s f") + std::to_string(reg) + ", f1, f8, " + m + "\n";
    body += std::string("  fmul.s f") + std::to_string(reg + 1) + ", f4, f1, " + m + "\n";
    body += std::string("  fmadd.s f") + std::to_string(reg + 2) + ", f1, f8, f2, " + m + "\n";
    body += std::string("  fdiv.s f") + std::to_string(reg + 3) + ", f0, f1, " + m + "\n";
    body += std::string("  fsw f") + std::to_string(reg) + ", 64(s0)\n";
    body += std::string("  fcvt.w.s a0, f1, ") + m + "\n";
    body += std::string("  sw a0, 68(s0)\n");
    reg += 4;
  }
  body += R"(
  lw a1, 64(s0)
  lw a2, 68(s0)
  frflags a3
  fsflags zero
  fsqrt.s f30, f1
  fsqrt.s f31, f2
  fadd.s f29, f30, f31
  fdiv.s f28, f3, f4
  fmul.s f27, f3, f3
  fsub.s f26, f5, f5
  fmsub.s f25, f1, f1, f0
  fnmsub.s f24, f1, f1, f0
  fnmadd.s f23, f7, f1, f0
  frflags a4
  fsrmi 3
  fadd.s f22, f1, f8
  fcvt.s.w f21, a2
  fcvt.s.wu f20, s0
  fsrmi 4
  fmul.s f19, f8, f8
  fcvt.wu.s a5, f2
  fcvt.w.s a6, f5
  fcvt.wu.s a7, f6
  feq.s s1, f6, f6
  flt.s s2, f7, f1
  fle.s s3, f1, f1
  fclass.s s4, f3
  fclass.s s5, f5
  fclass.s s6, f7
  fmin.s f18, f6, f1
  fmax.s f17, f7, f1
  fmin.s f16, f9, f8
  fsgnj.s f15, f1, f2
  fsgnjn.s f14, f1, f2
  fsgnjx.s f13, f2, f2
  fmv.x.w s7, f13
  fmv.w.x f12, s7
  fadd.s f11, f12, f12
  frrm s8
  frcsr s9
  ret
)";
  check_against_qemu(body, random_dram(256, 5));
}

TEST(RvvCoreIsa, CsrsAndVsetvl) {
  check_against_qemu(R"(
  csrr a0, vlenb
  vsetvli a1, zero, e32, m1, ta, ma
  vsetvli a2, zero, e8, m8, tu, mu
  vsetvli a3, zero, e16, mf2, ta, ma
  vsetvli a4, zero, e32, mf2, ta, ma
  csrr a5, vtype
  vsetvli zero, zero, e32, m2, ta, ma
  csrr a6, vl
  li t0, 3
  vsetvli a7, t0, e32, m4, ta, ma
  li t0, 1000
  vsetvli s0, t0, e8, m1, ta, ma
  vsetivli s1, 17, e16, m2, ta, ma
  vsetivli s2, 31, e64, m1, ta, ma
  csrr s3, vtype
  csrr s4, vl
  li t1, 0x10
  vsetvl s5, t0, t1
  li t1, 0x100
  vsetvl s6, t0, t1
  csrr s7, vtype
  li t1, 0x80000008
  vsetvl s8, t0, t1
  li t1, 0x0d
  vsetvl s9, t0, t1
  li t1, 0x05
  vsetvl s10, t0, t1
  li t1, 0xc6
  vsetvl s11, t0, t1
  csrr t2, vtype
  csrr t3, vstart
  csrw vstart, zero
  li t4, 0xe5
  csrrw t5, fcsr, t4
  csrrs t6, frm, zero
  csrrci gp, fflags, 5
  csrrsi tp, fflags, 2
  csrr t4, fcsr
  vsetivli zero, 4, e32, m1, ta, ma
  ret
)",
                     random_dram(256, 6));
}

// The scalar DRAM path against tight DRAM sizes: a word in the last bytes of the image (its row reaches
// past the end), and loads right after stores to the same row.
TEST(RvvCoreIsa, DramEndAndCacheCoherence) {
  const auto dram = random_dram(1000, 7);  // not a multiple of the 16- or 32-byte row
  check_against_qemu(R"(
  li s0, 0x80000000
  lw a0, 996(s0)
  lbu a1, 999(s0)
  sw a0, 992(s0)
  lw a2, 992(s0)
  sb a1, 998(s0)
  lw a3, 996(s0)
  lw a4, 0(s0)
  sw a4, 16(s0)
  lw a5, 16(s0)
  ret
)",
                     dram);
}

struct ErrorCase {
  const char* name;
  const char* body;
  ErrorCode code;
  const char* faulting_label;  // the instruction's label
  uint32_t addr;               // expected faulting address (loads, stores); 0 = not checked
};

class RvvCoreErrors : public ::testing::TestWithParam<ErrorCase> {};

TEST_P(RvvCoreErrors, StopWithCodePcWordAndAddress) {
  const ErrorCase& c = GetParam();
  // A nop first, so that `bad` is not also `kernel` (objdump names an address once).
  const BuiltKernel k = build_asm(std::string("  nop\n") + c.body);
  const BareRun r = run_rtl(k, random_dram(512, 8));
  ASSERT_TRUE(r.stopped);
  EXPECT_EQ(r.error.code, c.code) << r.error.describe();
  const uint32_t pc = symbol_address(k, c.faulting_label);
  if (c.code == ErrorCode::kFetch) {
    EXPECT_EQ(r.error.pc, c.addr);
    EXPECT_EQ(r.error.addr, c.addr);
  } else {
    EXPECT_EQ(r.error.pc, pc) << r.error.describe();
    EXPECT_EQ(r.error.insn, hw().itcm_word(pc / 4)) << r.error.describe();
    if (c.addr != 0) {
      EXPECT_EQ(r.error.addr, c.addr) << r.error.describe();
    }
  }
  EXPECT_EQ(r.pc, r.error.pc);
  // QEMU traps too, except where the RTL is stricter (documented): it allows misaligned accesses and
  // loads from the code, and maps the DRAM image by whole 4 KiB pages.
  const std::string name = c.name;
  if (c.code != ErrorCode::kMisaligned && name != "load_from_itcm" &&
      name.find("past_dram") == std::string::npos) {
    RunOptions o;
    const RunResult q = run_qemu(k, random_dram(512, 8), o);
    EXPECT_EQ(q.end, RunEnd::kTrapped) << q.message;
  }
}

INSTANTIATE_TEST_SUITE_P(
    All, RvvCoreErrors,
    ::testing::Values(
        ErrorCase{"illegal", "  li a0, 1\n  .globl bad\nbad:\n  .word 0xffffffff\n  ret\n",
                  ErrorCode::kIllegal, "bad", 0},
        ErrorCase{"double_precision", "  .globl bad\nbad:\n  .word 0x02000053\n  ret\n", ErrorCode::kIllegal,
                  "bad", 0},
        ErrorCase{"unknown_csr", "  .globl bad\nbad:\n  csrr a0, 0x7c0\n  ret\n", ErrorCode::kIllegal, "bad",
                  0},
        ErrorCase{"write_read_only_csr", "  .globl bad\nbad:\n  csrw cycle, a0\n  ret\n", ErrorCode::kIllegal,
                  "bad", 0},
        ErrorCase{"ebreak", "  nop\n  .globl bad\nbad:\n  ebreak\n  ret\n", ErrorCode::kEbreak, "bad", 0},
        ErrorCase{"load_unmapped", "  li a0, 0x40000000\n  .globl bad\nbad:\n  lw a1, 4(a0)\n  ret\n",
                  ErrorCode::kLoad, "bad", 0x40000004},
        ErrorCase{"load_from_itcm", "  .globl bad\nbad:\n  lw a1, 16(zero)\n  ret\n", ErrorCode::kLoad, "bad",
                  16},
        ErrorCase{"load_past_dram", "  li a0, 0x80000200\n  .globl bad\nbad:\n  lw a1, 0(a0)\n  ret\n",
                  ErrorCode::kLoad, "bad", 0x80000200},
        ErrorCase{"store_to_itcm", "  .globl bad\nbad:\n  sw a0, 64(zero)\n  ret\n", ErrorCode::kStore, "bad",
                  64},
        ErrorCase{"store_past_dram", "  li a0, 0x800001fe\n  .globl bad\nbad:\n  sh a1, 2(a0)\n  ret\n",
                  ErrorCode::kStore, "bad", 0x80000200},
        ErrorCase{"misaligned_load", "  li a0, 0x80000000\n  .globl bad\nbad:\n  lw a1, 2(a0)\n  ret\n",
                  ErrorCode::kMisaligned, "bad", 0x80000002},
        ErrorCase{"misaligned_store", "  li a0, 0x00018000\n  .globl bad\nbad:\n  sh a1, 1(a0)\n  ret\n",
                  ErrorCode::kMisaligned, "bad", 0x00018001},
        ErrorCase{"fetch_outside_itcm", "  li a0, 0x00020000\n  .globl bad\nbad:\n  jr a0\n  ret\n",
                  ErrorCode::kFetch, "bad", 0x00020000}),
    [](const ::testing::TestParamInfo<ErrorCase>& i) { return std::string(i.param.name); });

// The documented timing (docs/rvv.md, "Timing of the core"): cycles of small programs, the difference
// between a kernel and the same kernel with `extra` inserted.
uint64_t cycles_of(const std::string& body) {
  const BuiltKernel k = build_asm(body);
  const BareRun r = run_rtl(k, random_dram(4096, 9));
  EXPECT_TRUE(r.stopped);
  EXPECT_EQ(r.error.code, ErrorCode::kNone) << r.error.describe();
  EXPECT_EQ(r.cycles, r.counters[kCntCycles]);
  return r.cycles;
}

uint64_t extra_cycles(const std::string& prologue, const std::string& extra) {
  return cycles_of(prologue + extra + "  ret\n") - cycles_of(prologue + "  ret\n");
}

TEST(RvvCoreTiming, OneInstructionPerCycleWithForwarding) {
  EXPECT_EQ(extra_cycles("", "  addi a0, a0, 1\n  addi a0, a0, 1\n  add a1, a0, a0\n  mul a2, a1, a0\n"), 4u);
}

TEST(RvvCoreTiming, LoadUseCostsOneCycle) {
  const std::string p = "  li s0, 0x00018000\n";
  EXPECT_EQ(extra_cycles(p, "  lw a0, 0(s0)\n  addi a1, a0, 1\n"), 3u);
  EXPECT_EQ(extra_cycles(p, "  lw a0, 0(s0)\n  nop\n  addi a1, a0, 1\n"), 3u);
}

TEST(RvvCoreTiming, TakenBranchCostsOneBubble) {
  EXPECT_EQ(extra_cycles("", "  j 1f\n1:\n"), 2u);
  EXPECT_EQ(extra_cycles("", "  bnez zero, 1f\n1:\n"), 1u);
}

TEST(RvvCoreTiming, DivideAndFdivLatencies) {
  // DIV: EX starts the divider, waits 32 / DIV_BITS_PER_CYCLE (16) cycles, and moves on the cycle after.
  EXPECT_EQ(extra_cycles("  li a1, 3\n", "  div a0, a1, a1\n"), 18u);
  // FDIV: ceil(28 / 2) + 1 = 15 cycles from issue to result: MEM waits 14; a dependent op one more.
  EXPECT_EQ(extra_cycles("", "  fdiv.s f0, f1, f2\n"), 15u);
  EXPECT_EQ(extra_cycles("", "  fdiv.s f0, f1, f2\n  fadd.s f3, f0, f0\n"), 17u);
}

TEST(RvvCoreTiming, CacheMissAndHit) {
  // A miss: the fill request leaves the request register a cycle after MEM asks, DRAM answers
  // latency + row / bytes-per-cycle cycles later; a hit costs nothing more than a DTCM load.
  const std::string p = "  li s0, 0x80000000\n";
  const uint64_t miss = extra_cycles(p, "  lw a0, 0(s0)\n");
  const uint64_t two = extra_cycles(p, "  lw a0, 0(s0)\n  lw a1, 4(s0)\n");
  EXPECT_EQ(two - miss, 1u);
  const auto& prm = hw().params();
  EXPECT_EQ(miss, 1u + 1u + prm.dram_latency + prm.row_bytes() / prm.dram_bytes_per_cycle);
}

// Vector DRAM accesses share the data cache (docs/rvv.md, "Memories and DRAM"). A memory instruction of R
// row requests occupies the memory engine R + L + 3 cycles from its start to the next one's, with L = 1
// for a load that hits and for a store (posted to the write buffer), and for a load that misses the fill's
// time: the request register, then DRAM's latency and channel time, as a scalar miss. The unit counts as
// busy from the cycle after an instruction that starts at once (R + L + 2) and from the issue of one that
// waits in the queue for the engine (all R + L + 3 of its occupancy). Measured on the busy counter, which the
// end of the program (draining the stores) does not touch, against the same program without the accesses
// (crt0's own vector instructions count too).
uint64_t vector_busy_of(const std::string& body) {
  const BuiltKernel k = build_asm(body);
  const BareRun r = run_rtl(k, random_dram(8192, 13));
  EXPECT_TRUE(r.stopped);
  EXPECT_EQ(r.error.code, ErrorCode::kNone) << r.error.describe();
  return r.counters[kCntVectorBusy];
}

TEST(RvvCoreTiming, VectorAccessesThroughTheDataCache) {
  // One row per instruction: e32, m1, vl = VLMAX is VLEN / 8 bytes, the row size.
  const std::string p = "  li s0, 0x80000000\n  li s1, 0x80001000\n  vsetvli t0, zero, e32, m1, ta, ma\n";
  const auto& prm = hw().params();
  const uint64_t fill = 1u + prm.dram_latency + prm.row_bytes() / prm.dram_bytes_per_cycle;
  const uint64_t base = vector_busy_of(p + "  ret\n");
  const uint64_t miss = vector_busy_of(p + "  vle32.v v1, (s0)\n  ret\n");
  EXPECT_EQ(miss - base, 1u + fill + 2u);
  // The same row again hits.
  EXPECT_EQ(vector_busy_of(p + "  vle32.v v1, (s0)\n  vle32.v v2, (s0)\n  ret\n") - miss, 1u + 1u + 3u);
  // A store is answered once it is in the write buffer; a whole row allocates its line, so the load hits.
  EXPECT_EQ(vector_busy_of(p + "  vle32.v v1, (s0)\n  vse32.v v1, (s1)\n  ret\n") - miss, 1u + 1u + 3u);
  EXPECT_EQ(vector_busy_of(p + "  vle32.v v1, (s0)\n  vse32.v v1, (s1)\n  vle32.v v2, (s1)\n  ret\n") - miss,
            2u * (1u + 1u + 3u));
  // An m8 load of eight rows that all miss: the fills overlap (up to 8 in flight), so it costs the rows
  // plus one fill, not eight.
  const std::string m8 = "  li s0, 0x80000000\n  vsetvli t0, zero, e32, m8, ta, ma\n";
  const uint64_t rows = 8;
  EXPECT_EQ(vector_busy_of(m8 + "  vle32.v v8, (s0)\n  ret\n") - vector_busy_of(m8 + "  ret\n"),
            rows + fill + 2u);
}

}  // namespace
}  // namespace kcraft::rvv::test

namespace kcraft::rvv::test {
namespace {

// Every linked hardware configuration (VLEN 128 and 256: other row, line and DRAM beat sizes) runs the
// memory-system programs like QEMU with that VLEN.
class RvvCoreConfigs : public ::testing::TestWithParam<std::string> {};

TEST_P(RvvCoreConfigs, MemorySystemAndVsetvlMatchQemu) {
  const std::string cfg = GetParam();
  check_against_qemu(R"(
  li s0, 0x80000000
  li s1, 0x00018000
  li a7, 40
1:
  lw t0, 0(s0)
  lh t1, 34(s0)
  lbu t2, 67(s0)
  add t0, t0, t1
  add t0, t0, t2
  sw t0, 0(s1)
  sw t0, 96(s0)
  sb t0, 131(s0)
  sh t1, 800(s0)
  addi s0, s0, 4
  addi s1, s1, 4
  addi a7, a7, -1
  bnez a7, 1b
  lw a0, -4(s1)
  lw a1, 92(s0)
  csrr a2, vlenb
  vsetvli a3, zero, e8, m8, ta, ma
  vsetvli a4, zero, e16, mf2, ta, ma
  li t3, 100
  vsetvli a5, t3, e32, m2, ta, ma
  ret
)",
                     random_dram(1000, 11), cfg);
}

INSTANTIATE_TEST_SUITE_P(Linked, RvvCoreConfigs, ::testing::ValuesIn(rvv_hw_configs()),
                         [](const ::testing::TestParamInfo<std::string>& i) { return i.param; });

}  // namespace
}  // namespace kcraft::rvv::test

namespace kcraft::rvv::test {
namespace {

// stall_o, seen every cycle, adds up to the stall counters; retire_o to instret; DRAM requests to the
// byte counters (enabled bytes only).
struct Tally : tb::CycleObserver {
  std::array<uint64_t, 8> stalls{};
  uint64_t retired = 0, cycles = 0, read_bytes = 0, written_bytes = 0;
  void on_cycle(uint64_t, uint32_t trace_word, bool issued, uint32_t, uint32_t) override {
    ++cycles;
    ++stalls.at(trace_stall(trace_word));
    retired += issued;
  }
  void on_dram_request(uint64_t, bool write, uint64_t, unsigned bytes, uint64_t) override {
    (write ? written_bytes : read_bytes) += bytes;
  }
};

TEST(RvvCoreCounters, StallTraceRetiresAndDramBytesEqualTheCounters) {
  const BuiltKernel k = build_asm(R"(
  li s0, 0x80000000
  li s1, 0x00018000
  li a7, 20
1:
  lw t0, 0(s0)
  addi t0, t0, 1
  sb t0, 1(s0)
  lw t1, 0(s1)
  add t1, t1, t0
  sw t1, 0(s1)
  div t2, t1, a7
  fcvt.s.w f0, t2
  fdiv.s f1, f0, f0
  fadd.s f2, f1, f1
  addi s0, s0, 36
  addi a7, a7, -1
  bnez a7, 1b
  csrr a0, fflags
  ret
)");
  Tally t;
  RvvHw& h = hw();
  h.set_cycle_observer(&t);
  const BareRun r = run_rtl(k, random_dram(4096, 12));
  h.set_cycle_observer(nullptr);
  ASSERT_TRUE(r.stopped);
  ASSERT_EQ(r.error.code, ErrorCode::kNone) << r.error.describe();
  EXPECT_EQ(t.cycles, r.counters[kCntCycles]);
  EXPECT_EQ(t.retired, r.counters[kCntInstret]);
  EXPECT_EQ(t.stalls[1], r.counters[kCntStallData]);
  EXPECT_EQ(t.stalls[2], r.counters[kCntStallLoadUse]);
  EXPECT_EQ(t.stalls[3], r.counters[kCntStallFpDivSqrt]);
  EXPECT_EQ(t.stalls[4], r.counters[kCntStallVector]);
  EXPECT_EQ(t.stalls[5], r.counters[kCntStallMemory]);
  EXPECT_EQ(t.stalls[6], r.counters[kCntStallBranch]);
  EXPECT_EQ(t.read_bytes, r.counters[kCntDramReadBytes]);
  EXPECT_EQ(t.written_bytes, r.counters[kCntDramWriteBytes]);
  // Every cause the program provokes shows up, and the byte stores write one byte each.
  EXPECT_GT(r.counters[kCntStallData], 0u);
  EXPECT_GT(r.counters[kCntStallLoadUse], 0u);
  EXPECT_GT(r.counters[kCntStallFpDivSqrt], 0u);
  EXPECT_GT(r.counters[kCntStallMemory], 0u);
  EXPECT_GT(r.counters[kCntStallBranch], 0u);
  EXPECT_EQ(r.counters[kCntDramWriteBytes], 20u);
  EXPECT_GT(r.counters[kCntDcacheMisses], 0u);
  EXPECT_EQ(r.counters[kCntDramReadBytes], r.counters[kCntDcacheMisses] * h.params().row_bytes());
}

}  // namespace
}  // namespace kcraft::rvv::test
