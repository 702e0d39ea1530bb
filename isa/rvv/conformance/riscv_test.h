/* kcraft's target environment for the riscv-tests ISA tests (github.com/riscv-software-src/riscv-tests,
 * isa/rv32u*) on the rvv platform: what the suite's own env/p/riscv_test.h does on a machine-mode
 * system, done with this platform's crt0 and end-of-program protocol (rvv_memory_map.h) instead, so that
 * the same ELF runs on the RTL and under QEMU user mode (`kcraft conformance rvv`, docs/rvv.md).
 *
 * - The test body is the kernel: RVTEST_CODE_BEGIN defines `kernel`, which crt0 calls with every register
 *   zeroed (as the suite's reset code leaves them). The tests use ra and sp as scratch registers, so the
 *   body first saves both in .bss, and the end restores them and returns to crt0, which stores the end
 *   state (x1..x31, f0..f31, fcsr, ...) and ends the run.
 * - Pass: a0 = 0. Fail: a0 = TESTNUM << 1 | 1, TESTNUM (gp) being the number of the failing test case, as
 *   the suite's own RVTEST_FAIL reports it to its host. The runner reads a0 from the end state.
 * - No privileged set-up: F and V are on from reset (crt0 sets fcsr = 0), there is no trap handler (an
 *   instruction that would trap stops the RTL with its pc, and QEMU with a signal), and the tests of the
 *   privileged architecture (rv32mi, rv32si) are not run.
 */
#ifndef KCRAFT_RVV_RISCV_TEST_H
#define KCRAFT_RVV_RISCV_TEST_H

#define RVTEST_RV32U \
  .macro init;       \
  .endm
#define RVTEST_RV64U RVTEST_RV32U
#define RVTEST_RV32UF RVTEST_RV32U
#define RVTEST_RV64UF RVTEST_RV32U

#define TESTNUM gp

#define RVTEST_CODE_BEGIN          \
  .pushsection .bss;               \
  .balign 4;                       \
  kcraft_rvtest_saved:             \
  .zero 8;                         \
  .popsection;                     \
  .text;                           \
  .balign 4;                       \
  .globl kernel;                   \
  .type kernel, @function;         \
  kernel:                          \
  la t0, kcraft_rvtest_saved;      \
  sw ra, 0(t0);                    \
  sw sp, 4(t0);                    \
  li t0, 0;                        \
  init;                            \
  j kcraft_rvtest_body;            \
  kcraft_rvtest_end:               \
  la t0, kcraft_rvtest_saved;      \
  lw ra, 0(t0);                    \
  lw sp, 4(t0);                    \
  ret;                             \
  kcraft_rvtest_body:

#define RVTEST_CODE_END unimp

#define RVTEST_PASS \
  fence;            \
  li a0, 0;         \
  j kcraft_rvtest_end

/* As the suite's env: a failure with TESTNUM 0 would be indistinguishable from a pass, so it never ends. */
#define RVTEST_FAIL              \
  fence;                         \
  1 : beqz TESTNUM, 1b;          \
  sll a0, TESTNUM, 1;            \
  or a0, a0, 1;                  \
  j kcraft_rvtest_end

#define EXTRA_DATA
#define TEST_DATA
#define RVTEST_DATA_BEGIN \
  EXTRA_DATA;             \
  .balign 4;              \
  .global begin_signature; \
  begin_signature:
#define RVTEST_DATA_END \
  .balign 4;            \
  .global end_signature; \
  end_signature:

#endif /* KCRAFT_RVV_RISCV_TEST_H */
