// The long campaign (not in ctest): random operands for every operation (or one), rounding modes in
// turn, rtl/rvv/rvv_fpu.sv against the host reference. Usage:
//   build/tests/rvv_fpu/rvv_fpu_campaign [cases_per_op=10000000] [seed=1] [op name, e.g. fdiv]
// Prints one line per operation with its case and mismatch counts (and the first mismatches); exits 1 on
// any mismatch.
#include <cstdio>
#include <cstdlib>
#include <string>

#include "Vrvv_fpu.h"
#include "tests/rvv_fpu/rvv_fpu_harness.h"

using namespace kcraft::rvv_fpu;

int main(int argc, char** argv) {
  const long per_op = argc > 1 ? std::atol(argv[1]) : 10000000L;
  const uint64_t seed = argc > 2 ? std::strtoull(argv[2], nullptr, 0) : 1;
  const std::string only = argc > 3 ? argv[3] : "";
  Dut<Vrvv_fpu> dut;
  long total_failures = 0;
  for (int o = 0; o < static_cast<int>(Op::kCount); ++o) {
    const Op op = static_cast<Op>(o);
    if (!only.empty() && only != op_name(op)) continue;
    OperandGenerator gen(seed * 1000003u + static_cast<uint64_t>(o));
    const int modes = uses_rounding_mode(op) ? 5 : 1;
    long failures = 0;
    for (long i = 0; i < per_op; ++i) {
      uint32_t a, b, c;
      random_operands(gen, op, &a, &b, &c);
      const Rm rm = static_cast<Rm>(i % modes);
      const Result got = dut.run(op, rm, a, b, c);
      const Result want = reference(op, rm, a, b, c);
      if (!(got == want) && ++failures <= 10) {
        std::printf("  MISMATCH %s rm=%d a=%08x b=%08x c=%08x: rtl %08x/%02x ref %08x/%02x\n",
                    std::string(op_name(op)).c_str(), static_cast<int>(rm), a, b, c, got.value, got.flags,
                    want.value, want.flags);
      }
    }
    std::printf("%-10s %ld cases, %ld mismatches\n", std::string(op_name(op)).c_str(), per_op, failures);
    std::fflush(stdout);
    total_failures += failures;
  }
  return total_failures == 0 ? 0 : 1;
}
