// Fuzzes the systolic assembler front end (tests/fuzz/assembler_harness.h) with the tables generated from
// isa/systolic.yaml and the symbols of every task.
#include "systolic_isa.h"
#include "tb/systolic/systolic_platform.h"
#include "tests/fuzz/assembler_harness.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static const kcraft::isa::SymbolTable symbols =
      kcraft::fuzz::kernel_symbols(kcraft::systolic::SystolicPlatform());
  return kcraft::fuzz::fuzz_assembler(kcraft::isa::systolic::spec(), symbols, data, size);
}
