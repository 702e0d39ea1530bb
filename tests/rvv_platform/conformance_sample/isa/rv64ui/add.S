# Sample test (kcraft's own): add, the way riscv-tests writes an rv64ui test that rv32ui wraps.
#include "riscv_test.h"
#include "test_macros.h"

RVTEST_RV64U
RVTEST_CODE_BEGIN

  TEST_RR_OP(2, add, 0x00000000, 0x00000000, 0x00000000);
  TEST_RR_OP(3, add, 0x00000002, 0x00000001, 0x00000001);
  TEST_RR_OP(4, add, 0x80000000, 0x7fffffff, 0x00000001);
  TEST_RR_OP(5, add, 0x00000000, 0xffffffff, 0x00000001);
  # ra and sp as scratch registers, as the suite's tests use them
  TEST_CASE(6, x1, 7, li x1, 3; li x2, 4; add x1, x1, x2)

  TEST_PASSFAIL

RVTEST_CODE_END

  .data
RVTEST_DATA_BEGIN
  TEST_DATA
RVTEST_DATA_END
