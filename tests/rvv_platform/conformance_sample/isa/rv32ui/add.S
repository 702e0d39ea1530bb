# Sample wrapper (kcraft's own), in the form of riscv-tests' rv32ui files.
#include "riscv_test.h"
#undef RVTEST_RV64U
#define RVTEST_RV64U RVTEST_RV32U

#include "../rv64ui/add.S"
