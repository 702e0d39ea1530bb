# Sample test (kcraft's own): fadd.s and fmul.s results and flags, a quiet NaN written in GNU as's hex float
# syntax.
#include "riscv_test.h"
#include "test_macros.h"

RVTEST_RV32UF
RVTEST_CODE_BEGIN

  TEST_FP_OP2_S(2, fadd.s, 0, 3.5, 2.5, 1.0);
  TEST_FP_OP2_S(3, fadd.s, 1, 1.0, 1.0, 9.3132257461547852e-10);  # 1 + 2^-30 rounds to 1: inexact
  TEST_FP_OP2_S(4, fmul.s, 0, -6.0, 2.0, -3.0);
  TEST_FP_OP2_S(5, fadd.s, 0x10, qNaNf, Inf, -Inf);

  TEST_PASSFAIL

RVTEST_CODE_END

  .data
RVTEST_DATA_BEGIN
  TEST_DATA
RVTEST_DATA_END
