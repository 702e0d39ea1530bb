// `kcraft coverage rvv`: the instruction bins are the rows of isa/rvv/rvv_isa.yaml, and hits come from the
// RTL's retired instructions: adding exactly one masked vfadd.vv under e32,m2 to a kernel adds exactly its
// instruction and vector-form bins.
#include <gtest/gtest.h>

#include <set>
#include <string>

#include "isa/rvv/isa_reference.h"
#include "isa/rvv/toolchain.h"
#include "tb/rvv/rvv_coverage.h"

namespace kcraft::rvv {
namespace {

using tb::CoverageSource;

std::set<std::string> hit_bins(const tb::Coverage& c, const std::string& group) {
  std::set<std::string> out;
  for (const auto& b : c.bins()) {
    if (b.group == group && b.total_hits() > 0) out.insert(b.name);
  }
  return out;
}

tb::Coverage run(const std::string& body) {
  BuildOptions o;
  o.language = "asm";
  o.file_name = "k.S";
  const BuiltKernel k = build_kernel("  .text\n  .globl kernel\nkernel:\n" + body + "  ret\n", o);
  EXPECT_TRUE(k.ok) << k.log;
  tb::Coverage c = rvv_coverage_bins();
  RvvCoverageExtras extras;
  record_rvv_coverage("default", k, std::vector<uint8_t>(4096, 0), tb::DramTiming{40, 32},
                      CoverageSource::kRandom, c, extras);
  for (const auto& [mnemonic, n] : extras.unlisted)
    ADD_FAILURE() << "retired, not in the table: " << mnemonic;
  return c;
}

TEST(RvvCoverage, InstructionBinsAreTheRowsOfTheTable) {
  std::set<std::string> bins;
  const tb::Coverage all = rvv_coverage_bins();
  for (const auto& b : all.bins()) {
    if (b.group == "instruction") bins.insert(b.name);
  }
  const auto names = instruction_names();
  EXPECT_EQ(bins, std::set<std::string>(names.begin(), names.end()));
}

TEST(RvvCoverage, VectorFormsAreTheVtypesZve32fAllows) {
  std::set<std::string> forms;
  const tb::Coverage all = rvv_coverage_bins();
  for (const auto& b : all.bins()) {
    if (b.group == "vector form") forms.insert(b.name);
  }
  EXPECT_EQ(forms.size(), 2u * (6 + 5 + 4));  // e8: mf4..m8, e16: mf2..m8, e32: m1..m8; masked or not
  EXPECT_TRUE(forms.count("e8,mf4 masked"));
  EXPECT_FALSE(forms.count("e8,mf8 masked"));
  EXPECT_FALSE(forms.count("e32,mf2 unmasked"));
}

TEST(RvvCoverage, OneMoreInstructionHitsExactlyItsBins) {
  const std::string setup = "  li a0, 8\n  vsetvli a1, a0, e32, m2, ta, ma\n  vmv.v.i v0, 0\n";
  const auto base = run(setup);
  const auto more = run(setup + "  vfadd.vv v8, v8, v8, v0.t\n");
  std::set<std::string> added;
  for (const auto& n : hit_bins(more, "instruction")) {
    if (!hit_bins(base, "instruction").count(n)) added.insert(n);
  }
  EXPECT_EQ(added, std::set<std::string>{"VFADD.VV"});
  EXPECT_EQ(more.hits("instruction", "VSETVLI"), base.hits("instruction", "VSETVLI"));
  // crt0's own vector code adds forms of its own to both runs.
  EXPECT_TRUE(hit_bins(base, "vector form").count("e32,m2 unmasked"));
  std::set<std::string> added_forms;
  for (const auto& n : hit_bins(more, "vector form")) {
    if (!hit_bins(base, "vector form").count(n)) added_forms.insert(n);
  }
  EXPECT_EQ(added_forms, std::set<std::string>{"e32,m2 masked"});
  // vmv.v.i is a variant the VMV.V.V row names ("also vmv.v.x, vmv.v.i"): counted there.
  EXPECT_GT(base.hits("instruction", "VMV.V.V"), 0u);
  // `li a0, 8` is an ADDI: objdump decodes without aliases.
  EXPECT_GT(base.hits("instruction", "ADDI"), 0u);
}

}  // namespace
}  // namespace kcraft::rvv
