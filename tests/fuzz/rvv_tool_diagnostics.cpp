// Fuzzes the rvv toolchain's reading of clang's, GNU as's and ld.lld's messages (isa/rvv/toolchain.cpp,
// parse_diagnostics): what `kcraft check rvv` and the agents will show a kernel writer comes from text the
// tools print for whatever source they were given.
//
// Any text must give diagnostics (never a crash or an exception) that name the user's file or none, with
// lines and columns that are not negative and a message, and that render.
#include <cstddef>
#include <cstdint>
#include <string>

#include "isa/rvv/toolchain.h"
#include "tests/fuzz/fuzz_support.h"

using namespace kcraft;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string text = fuzz::text_of(data, size);
  const auto diagnostics = rvv::parse_diagnostics(text, "/tmp/kcraft-rvv-build/kernel.c", "kernel.c");
  for (const auto& d : diagnostics) {
    fuzz::check(d.file.rfind("/tmp/kcraft-rvv-build/", 0) != 0,
                "a diagnostic names the temporary build directory");
    fuzz::check(d.line >= 0 && d.column >= 0, "negative line or column");
  }
  const std::string rendered = rvv::format_diagnostics(diagnostics);
  fuzz::check(diagnostics.empty() || !rendered.empty(), "diagnostics that render as nothing");
  return 0;
}
