# Sample test (kcraft's own) named as riscv-tests' misaligned-access test: a misaligned load, which stops
# this core; the runner must call it not applicable, with the reason and what happened.
#include "riscv_test.h"
#include "test_macros.h"

RVTEST_RV32U
RVTEST_CODE_BEGIN

  la a0, tdat
  TEST_CASE(2, a1, 0x06050403, lw a1, 3(a0))

  TEST_PASSFAIL

RVTEST_CODE_END

  .data
RVTEST_DATA_BEGIN
  TEST_DATA
tdat: .byte 0, 1, 2, 3, 4, 5, 6, 7
RVTEST_DATA_END
