// `kcraft conformance rvv --suite DIR`: the riscv-tests ISA tests (github.com/riscv-software-src/riscv-tests)
// of the user-level RV32 subsets this core implements (rv32ui, rv32um, rv32uf), built with kcraft's target
// environment (isa/rvv/conformance/riscv_test.h) and GNU as, run on the RTL and under QEMU. The suite is
// not part of kcraft (no Debian package holds it): a user points at a checkout.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

namespace kcraft::rvv {

// One test of the suite.
struct SuiteTest {
  std::string group;  // "rv32ui"
  std::string name;   // "add"
  std::filesystem::path source;
  std::string id() const { return group + "-" + name; }  // "rv32ui-add", as the suite names its binaries
};

// The groups run, in order.
const std::vector<std::string>& conformance_groups();

// The tests `<group>_sc_tests` lists in each group's Makefrag (make's syntax: backslash continuations, `#`
// comments out the rest of the logical line), under `suite` or `suite`/isa. Throws std::invalid_argument
// when neither holds a group's Makefrag, naming what was looked for; a listed test without its source is
// kept (its run reports the missing file).
std::vector<SuiteTest> riscv_tests_list(const std::filesystem::path& suite);

// The names `<group>_sc_tests` lists in a Makefrag's text (exposed for tests).
std::vector<std::string> makefrag_tests(const std::string& text, const std::string& group);

// Why a test cannot pass on this core by design, or "" when it should pass.
std::string conformance_not_applicable(const SuiteTest& test);

}  // namespace kcraft::rvv
