// Fuzzes the myaccel assembler front end (tests/fuzz/assembler_harness.h) with the tables generated from
// isa/myaccel.yaml and the symbols of every task. tests/fuzz/CMakeLists.txt finds this file by its name
// (assembler_<platform>.cpp) and links it with kcraft_tb_myaccel and kcraft_isa_myaccel; its seeds are in
// tests/fuzz/seeds/assembler_myaccel/ (docs/fuzzing.md).
#include "myaccel_isa.h"
#include "tb/myaccel/myaccel_platform.h"
#include "tests/fuzz/assembler_harness.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static const kcraft::isa::SymbolTable symbols =
      kcraft::fuzz::kernel_symbols(kcraft::myaccel::MyaccelPlatform());
  return kcraft::fuzz::fuzz_assembler(kcraft::isa::myaccel::spec(), symbols, data, size);
}
