/* A small stand-in for riscv-tests' isa/macros/scalar/test_macros.h, written for kcraft's tests of
 * `kcraft conformance rvv`: the same conventions (a test case sets TESTNUM, computes, and branches to
 * `fail` on a wrong value; TEST_PASSFAIL ends the test), so the sample suite beside it has the real
 * suite's shape without any of its code. */
#ifndef KCRAFT_SAMPLE_TEST_MACROS_H
#define KCRAFT_SAMPLE_TEST_MACROS_H

#define TEST_CASE(testnum, testreg, correctval, code...) \
  test_##testnum:                                        \
  li TESTNUM, testnum;                                   \
  code;                                                  \
  li x7, correctval;                                     \
  bne testreg, x7, fail;

#define TEST_RR_OP(testnum, inst, result, val1, val2) \
  TEST_CASE(testnum, x14, result, li x11, val1; li x12, val2; inst x14, x11, x12;)

/* One single-precision operation on val1 and val2: the result's bits and the exception flags it raised. */
#define TEST_FP_OP2_S(testnum, inst, flags, result, val1, val2) \
  test_##testnum:                                               \
  li TESTNUM, testnum;                                          \
  la a0, test_##testnum##_data;                                 \
  flw f10, 0(a0);                                               \
  flw f11, 4(a0);                                               \
  lw a3, 8(a0);                                                 \
  inst f13, f10, f11;                                           \
  fmv.x.s a0, f13;                                              \
  fsflags a1, x0;                                               \
  li a2, flags;                                                 \
  bne a0, a3, fail;                                             \
  bne a1, a2, fail;                                             \
  .pushsection .data;                                           \
  .balign 4;                                                    \
  test_##testnum##_data:                                        \
  .float val1;                                                  \
  .float val2;                                                  \
  .float result;                                                \
  .popsection

/* GNU as's hexadecimal float syntax, which clang's assembler does not take: the runner must use GNU as. */
#define qNaNf 0f:7fc00000

#define TEST_PASSFAIL      \
  bne x0, TESTNUM, pass;   \
  fail:                    \
  RVTEST_FAIL;             \
  pass:                    \
  RVTEST_PASS;

#endif
