# Sample test (kcraft's own) with an instruction outside RV32IMF + Zve32f (amoadd.w, encoded by hand since
# the assembler is told there is no A extension): the RTL must stop on it with its pc.
#include "riscv_test.h"
#include "test_macros.h"

RVTEST_RV32U
RVTEST_CODE_BEGIN

  TEST_RR_OP(2, add, 0x00000003, 0x00000001, 0x00000002);
  la a0, tdat
  li a1, 1
  .word 0x00b5202f  # amoadd.w zero, a1, (a0)
  TEST_RR_OP(3, add, 0x00000003, 0x00000001, 0x00000002);

  TEST_PASSFAIL

RVTEST_CODE_END

  .data
RVTEST_DATA_BEGIN
  TEST_DATA
tdat: .word 0
RVTEST_DATA_END
