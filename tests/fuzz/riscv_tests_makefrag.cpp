// Fuzzes the reader of riscv-tests' Makefrag files (tb/rvv/rvv_conformance.cpp, makefrag_tests), which
// `kcraft conformance rvv --suite DIR` reads from a checkout the user names: outside input.
//
// It documents no error: a Makefrag without the group's list gives no tests.
#include <algorithm>
#include <cctype>
#include <cstddef>
#include <cstdint>
#include <string>

#include "tb/rvv/rvv_conformance.h"
#include "tests/fuzz/fuzz_support.h"

using namespace kcraft;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string text = fuzz::text_of(data, size);
  try {
    for (const std::string& group : rvv::conformance_groups()) {
      for (const std::string& name : rvv::makefrag_tests(text, group)) {
        fuzz::check(!name.empty() && name.size() <= size, "an empty or impossible test name");
        fuzz::check(
            std::none_of(name.begin(), name.end(),
                         [](char c) { return c == '#' || std::isspace(static_cast<unsigned char>(c)); }),
            "a test name with a comment or a blank in it");
      }
    }
  } catch (const std::exception& e) {
    fuzz::fail_unexpected(e, "makefrag_tests");
  }
  return 0;
}
