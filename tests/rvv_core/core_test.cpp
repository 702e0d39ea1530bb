// The rvv core against QEMU: directed programs per instruction group, hazards, errors and timing.
#include <gtest/gtest.h>

#include "tests/rvv_core/rvv_core_harness.h"

namespace kcraft::rvv::test {
namespace {

TEST(RvvCoreSmoke, StraightLineIntegerCode) {
  check_against_qemu(R"(
  li a0, 5
  li a1, 7
  add a2, a0, a1
  sub a3, a0, a1
  xor a4, a2, a3
  slli a5, a4, 3
  ret
)",
                     random_dram(256, 1));
}

}  // namespace
}  // namespace kcraft::rvv::test
