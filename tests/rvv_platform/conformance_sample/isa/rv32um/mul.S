# Sample test (kcraft's own): mul and mulh.
#include "riscv_test.h"
#include "test_macros.h"

RVTEST_RV32U
RVTEST_CODE_BEGIN

  TEST_RR_OP(2, mul, 0x00000006, 0x00000002, 0x00000003);
  TEST_RR_OP(3, mul, 0xfffffffa, 0xfffffffe, 0x00000003);
  TEST_RR_OP(4, mulh, 0xffffffff, 0xfffffffe, 0x00000003);
  TEST_RR_OP(5, mulhu, 0x00000002, 0xfffffffe, 0x00000003);

  TEST_PASSFAIL

RVTEST_CODE_END

  .data
RVTEST_DATA_BEGIN
  TEST_DATA
RVTEST_DATA_END
