// `kcraft coverage rvv`: the instruction bins are the rows of isa/rvv/rvv_isa.yaml, and hits come from the
// RTL's retired instructions: adding exactly one masked vfadd.vv under e32,m2 to a kernel adds exactly its
// instruction and vector-form bins. The FP bins follow the run: the rounding mode a program uses, the
// classes of the values its F instructions read, the flags they raise; steering favours unhit ones.
#include <gtest/gtest.h>

#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "isa/rvv/isa_reference.h"
#include "isa/rvv/random_program.h"
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

// The hit bins of `group` whose names start with `prefix`.
std::set<std::string> hit_bins(const tb::Coverage& c, const std::string& group, const std::string& prefix) {
  std::set<std::string> out;
  for (const auto& n : hit_bins(c, group)) {
    if (n.rfind(prefix, 0) == 0) out.insert(n);
  }
  return out;
}

size_t declared_bins(const tb::Coverage& c, const std::string& group) {
  size_t n = 0;
  for (const auto& b : c.bins()) n += b.group == group ? 1 : 0;
  return n;
}

TEST(RvvCoverage, FpBinsCoverEveryGroupModeClassAndFlag) {
  const tb::Coverage all = rvv_coverage_bins();
  // Scalar arithmetic, FMA, conversion: 5 static modes + dyn under 5 frm values; vector FP: dyn only.
  EXPECT_EQ(declared_bins(all, "rounding mode"), 3u * 10 + 5);
  EXPECT_TRUE(all.declared("rounding mode", "F conversion rmm"));
  EXPECT_TRUE(all.declared("rounding mode", "vector FP dyn=rdn"));
  EXPECT_FALSE(all.declared("rounding mode", "vector FP rdn"));  // no rm field
  // 22 rows read 42 f operands, 8 classes each; every row is an instruction bin.
  EXPECT_EQ(declared_bins(all, "fp operand class"), 42u * 8);
  for (const auto& b : all.bins()) {
    if (b.group == "fp operand class") {
      EXPECT_TRUE(all.declared("instruction", b.name.substr(0, b.name.find(' ')))) << b.name;
    }
  }
  EXPECT_TRUE(all.declared("fp operand class", "FMADD.S fs3=-zero"));
  // NV DZ OF UF NX where a group can raise them: no DZ from an FMA, only NV from a compare.
  EXPECT_EQ(declared_bins(all, "fp exception flag"), 5u + 4 + 2 + 1 + 5);
  EXPECT_FALSE(all.declared("fp exception flag", "F fused multiply-add DZ"));
  EXPECT_TRUE(all.declared("fp exception flag", "F compare/min/max NV"));
}

TEST(RvvCoverage, OneRoundingModeHitsThatBinAndNoOther) {
  // crt0 runs no rounding instruction: the kernel's are the only ones.
  EXPECT_EQ(hit_bins(run("  fadd.s f1, f2, f3, rup\n"), "rounding mode"),
            std::set<std::string>{"F arithmetic rup"});
  // dyn is binned by the frm it ran under (the assembler's default rm is dyn).
  EXPECT_EQ(hit_bins(run("  csrwi frm, 4\n  fmadd.s f1, f2, f3, f4\n  fmadd.s f5, f2, f3, f4, dyn\n"),
                     "rounding mode"),
            std::set<std::string>{"F fused multiply-add dyn=rmm"});
  const auto vector =
      run("  csrwi frm, 2\n  li a0, 4\n  vsetvli a1, a0, e32, m1, ta, ma\n  vfadd.vv v1, v2, v3\n"
          "  vfsgnj.vv v4, v2, v3\n");
  EXPECT_EQ(hit_bins(vector, "rounding mode"), std::set<std::string>{"vector FP dyn=rdn"});
  EXPECT_EQ(vector.hits("rounding mode", "vector FP dyn=rdn"), 1u);  // vfsgnj does not round
}

TEST(RvvCoverage, OperandClassesAreTheValuesTheInstructionRead) {
  // f1 = the smallest subnormal, f2 = a signalling NaN; f2 is overwritten by the fadd itself, which must
  // not matter: its operands are read before it writes.
  const auto c =
      run("  li a0, 1\n  fmv.w.x f1, a0\n  li a0, 0x7f800001\n  fmv.w.x f2, a0\n  fadd.s f2, f1, f2\n"
          "  fsqrt.s f3, f2\n");
  EXPECT_EQ(hit_bins(c, "fp operand class", "FADD.S "),
            (std::set<std::string>{"FADD.S fs1=subnormal", "FADD.S fs2=snan"}));
  // The fadd's result is the canonical (quiet) NaN.
  EXPECT_EQ(hit_bins(c, "fp operand class", "FSQRT.S "), std::set<std::string>{"FSQRT.S fs1=qnan"});
  // The sNaN raises NV; the quiet NaN into fsqrt raises nothing.
  EXPECT_EQ(hit_bins(c, "fp exception flag"), std::set<std::string>{"F arithmetic NV"});
  EXPECT_EQ(c.hits("fp exception flag", "F arithmetic NV"), 1u);
}

TEST(RvvCoverage, DivisionByZeroHitsDzEachTime) {
  // Twice: fflags is sticky, but the bins count what each instruction raised.
  const auto c =
      run("  li a0, 1\n  fcvt.s.w f1, a0\n  fmv.w.x f0, zero\n  fdiv.s f2, f1, f0\n  fdiv.s f3, f1, f0\n");
  EXPECT_EQ(hit_bins(c, "fp exception flag"), std::set<std::string>{"F arithmetic DZ"});
  EXPECT_EQ(c.hits("fp exception flag", "F arithmetic DZ"), 2u);
  // The vector unit's flags arrive when the instruction finishes, after it retired.
  const auto v =
      run("  li a0, 4\n  vsetvli a1, a0, e32, m1, ta, ma\n  vmv.v.i v1, 0\n  li a0, 0x3f800000\n"
          "  vmv.v.x v2, a0\n  vfdiv.vv v3, v2, v1\n");
  EXPECT_EQ(hit_bins(v, "fp exception flag"), std::set<std::string>{"vector FP DZ"});
}

TEST(RvvCoverage, SteeringFavoursUnhitRoundingModesAndSpecialValues) {
  // No focus: the generator's own programs, unchanged.
  const auto plain = steered_random_options(160, 128, {});
  RandomProgramOptions defaults;
  EXPECT_EQ(random_program(7, plain).source, random_program(7, defaults).source);
  const auto steered = steered_random_options(160, 128,
                                              {{"rounding mode", "F arithmetic rmm"},
                                               {"rounding mode", "F conversion dyn=rtz"},
                                               {"fp operand class", "FADD.S fs1=snan"}});
  EXPECT_EQ(steered.rounding_modes, (std::vector<unsigned>{1, 4}));
  EXPECT_GT(steered.special_reload_percent, 0u);
  // Over the same seeds the favoured modes appear more often, and special values are reloaded.
  const auto count = [](const std::string& text, const std::string& what) {
    size_t n = 0;
    for (size_t pos = text.find(what); pos != std::string::npos; pos = text.find(what, pos + 1)) ++n;
    return n;
  };
  const auto below_x9 = [](const std::string& text) {
    size_t n = 0;
    std::istringstream lines(text);
    for (std::string line; std::getline(lines, line);)
      n += line.rfind("  flw f", 0) == 0 && line.find(", -") != std::string::npos ? 1 : 0;
    return n;
  };
  size_t rmm_plain = 0, rmm_steered = 0, reloads = 0;
  for (uint64_t seed = 1; seed <= 20; ++seed) {
    const std::string a = random_program(seed, plain).source, b = random_program(seed, steered).source;
    rmm_plain += count(a, ", rmm\n");
    rmm_steered += count(b, ", rmm\n");
    // Only the reloads load below x9 (the special values sit below the buffer it points at).
    EXPECT_EQ(below_x9(a), 0u);
    reloads += below_x9(b);
  }
  EXPECT_GT(rmm_steered, rmm_plain + rmm_plain / 2);
  EXPECT_GT(reloads, 20u);
}

}  // namespace
}  // namespace kcraft::rvv
