// Fuzzes the reader of QEMU's `-d cpu,fpu` log (tb/rvv/rvv_debug.cpp), which `kcraft debug rvv` compares
// with the RTL instruction by instruction: the output of another program, i.e. outside input.
//
// It documents no error: lines it does not know are skipped, so any text must give steps without throwing.
#include <cstddef>
#include <cstdint>
#include <string>

#include "tb/rvv/rvv_debug.h"
#include "tests/fuzz/fuzz_support.h"

using namespace kcraft;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  try {
    const auto steps = rvv::parse_qemu_cpu_log(fuzz::text_of(data, size));
    fuzz::check(steps.size() <= size, "more steps than bytes");
  } catch (const std::exception& e) {
    fuzz::fail_unexpected(e, "parse_qemu_cpu_log");
  }
  return 0;
}
