# Sample test (kcraft's own) whose case 3 expects a wrong sum: the runner must report it failing case 3.
#include "riscv_test.h"
#include "test_macros.h"

RVTEST_RV32U
RVTEST_CODE_BEGIN

  TEST_RR_OP(2, add, 0x00000003, 0x00000001, 0x00000002);
  TEST_RR_OP(3, add, 0x00000005, 0x00000001, 0x00000002);
  TEST_RR_OP(4, add, 0x00000004, 0x00000002, 0x00000002);

  TEST_PASSFAIL

RVTEST_CODE_END

  .data
RVTEST_DATA_BEGIN
  TEST_DATA
RVTEST_DATA_END
