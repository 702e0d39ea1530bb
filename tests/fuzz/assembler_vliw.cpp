// Fuzzes the vliw assembler front end (tests/fuzz/assembler_harness.h): bundle syntax, slot rules and the
// read-before-ready analysis, with the tables generated from isa/vliw.yaml and the symbols of every task.
#include "tb/vliw/vliw_platform.h"
#include "tests/fuzz/assembler_harness.h"
#include "vliw_isa.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static const kcraft::isa::SymbolTable symbols = kcraft::fuzz::kernel_symbols(kcraft::vliw::VliwPlatform());
  return kcraft::fuzz::fuzz_assembler(kcraft::isa::vliw::spec(), symbols, data, size);
}
