// kcraft_isagen host-regs: the host register maps (rtl/common/host_regs.yaml, rtl/<p>/<p>_host_regs.yaml)
// load cleanly, a map becomes the SystemVerilog package and C++ header it describes, broken maps are
// reported with their location, and the build tree's generated files are what the generator produces.
#include <filesystem>
#include <string>
#include <vector>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "isa/tools/host_regs.h"
#include "test_util.h"

namespace kcraft::isa::test {
namespace {

using ::testing::AllOf;
using ::testing::HasSubstr;
using ::testing::Not;

const std::string kSource = KCRAFT_SOURCE_DIR;

std::vector<std::string> real_maps() {
  std::vector<std::string> maps = {kSource + "/rtl/common/host_regs.yaml"};
  for (const auto& dir : std::filesystem::directory_iterator(kSource + "/rtl")) {
    const auto yaml = dir.path() / (dir.path().filename().string() + "_host_regs.yaml");
    if (std::filesystem::exists(yaml)) maps.push_back(yaml.string());
  }
  return maps;
}

TEST(HostRegs, TheRealMapsAreValid) {
  const auto maps = real_maps();
  EXPECT_GE(maps.size(), 2u);
  for (const std::string& yaml : maps) {
    SCOPED_TRACE(yaml);
    const auto loaded = gen::load_host_regs(yaml, yaml, "pkg");
    EXPECT_TRUE(loaded.errors.empty()) << ::testing::PrintToString(loaded.errors);
    EXPECT_FALSE(loaded.regs.groups.empty());
  }
}

TEST(HostRegs, PackageAndHeaderCarryTheSameValues) {
  ScratchDir scratch;
  const std::string yaml =
      scratch.write("x_host_regs.yaml",
                    "doc: the x top\n"
                    "cpp_namespace: kcraft::x::regs\n"
                    "cpp_includes: [tb/common/host_regs.h]\n"
                    "cpp_using: [kcraft::tb::regs]\n"
                    "control:\n"
                    "  register_space: REG\n"
                    "  spaces:\n"
                    "    - {name: IMEM, value: 0}\n"
                    "    - {name: REG, value: 1}\n"
                    "  registers:\n"
                    "    - {name: START, value: 0, doc: go}\n"
                    "groups:\n"
                    "  - name: DbgSel\n"
                    "    sv_prefix: DBG_\n"
                    "    sv_type: logic [3:0]\n"
                    "    cpp_prefix: kDbg\n"
                    "    values:\n"
                    "      - {name: XREG, value: 2, doc: a register}\n"
                    "      - {name: PARAM_DMA_OUT, value: 3, cpp_name: kDbgDmaOutstanding}\n"
                    "  - name: Flag\n"
                    "    bits: true\n"
                    "    sv_prefix: FLAG_\n"
                    "    cpp_prefix: kFlag\n"
                    "    values: [{name: RUNNING, bit: 3}]\n"
                    "  - name: ErrorCode\n"
                    "    sv_prefix: ERR_\n"
                    "    cpp_namespace: kcraft::x\n"
                    "    enum_class: true\n"
                    "    cpp_type: uint32_t\n"
                    "    count_sv: NUM_ERRORS\n"
                    "    values: [{name: NONE, value: 0}, {name: BAD, value: 1}]\n"
                    "  - name: Csr\n"
                    "    sv: false\n"
                    "    hex: true\n"
                    "    values: [{name: VL, value: 0xC20}]\n");
  const auto loaded = gen::load_host_regs(yaml, "rtl/x/x_host_regs.yaml", "x_pkg");
  ASSERT_TRUE(loaded.errors.empty()) << ::testing::PrintToString(loaded.errors);
  const std::string sv = gen::emit_host_regs_sv(loaded.regs);
  const std::string cpp = gen::emit_host_regs_cpp(loaded.regs);
  EXPECT_THAT(sv, AllOf(HasSubstr("// Generated from rtl/x/x_host_regs.yaml by kcraft_isagen host-regs."),
                        HasSubstr("package x_pkg;"), HasSubstr("localparam int unsigned CTL_SPACE_BITS = 4;"),
                        HasSubstr("localparam logic [3:0] CTL_SPACE_REG = 4'd1;"),
                        HasSubstr("localparam logic [27:0] CTL_START = 28'd0;  // go"),
                        HasSubstr("localparam logic [3:0] DBG_XREG = 4'd2;  // a register"),
                        HasSubstr("localparam logic [3:0] DBG_PARAM_DMA_OUT = 4'd3;"),
                        HasSubstr("localparam int unsigned FLAG_RUNNING = 3;"),
                        HasSubstr("localparam int unsigned ERR_BAD = 1;"),
                        HasSubstr("localparam int unsigned NUM_ERRORS = 2;"), Not(HasSubstr("VL")),
                        HasSubstr("endpackage")));
  EXPECT_THAT(cpp, AllOf(HasSubstr("#include \"tb/common/host_regs.h\""),
                         HasSubstr("namespace kcraft::x::regs {\n\nusing namespace kcraft::tb::regs;"),
                         HasSubstr("inline constexpr uint32_t kCtlImem = 0x00000000u;"),
                         HasSubstr("inline constexpr uint32_t kCtlStart = 0x10000000u;  // go"),
                         HasSubstr("enum DbgSel : unsigned {\n  kDbgXreg = 2,"),
                         HasSubstr("kDbgDmaOutstanding = 3,"), HasSubstr("kFlagRunning = 1u << 3,"),
                         HasSubstr("}  // namespace kcraft::x::regs\n\nnamespace kcraft::x {"),
                         HasSubstr("enum class ErrorCode : uint32_t {\n  kNone = 0,\n  kBad = 1,\n};"),
                         HasSubstr("kVl = 0xC20,")));
}

TEST(HostRegs, BrokenMapsAreReportedWithTheirLocation) {
  ScratchDir scratch;
  const std::string yaml = scratch.write("bad.yaml",
                                         "cpp_namespace: kcraft::x::regs\n"
                                         "groups:\n"
                                         "  - name: DbgSel\n"
                                         "    values:\n"
                                         "      - {name: XREG, value: 2}\n"
                                         "      - {name: YREG, value: 2}\n"
                                         "      - {name: lower, value: 3}\n"
                                         "      - {name: XREG, value: 4}\n"
                                         "  - name: Flag\n"
                                         "    bits: true\n"
                                         "    values: [{name: BIG, bit: 64}]\n");
  const auto loaded = gen::load_host_regs(yaml, "bad.yaml", "x_pkg");
  EXPECT_THAT(loaded.errors,
              AllOf(::testing::Contains(AllOf(HasSubstr(yaml + ":6:"), HasSubstr("value 2 is used twice"))),
                    ::testing::Contains(HasSubstr("`lower` is not an UPPER_SNAKE name")),
                    ::testing::Contains(HasSubstr("`XREG` appears twice")),
                    ::testing::Contains(HasSubstr("a bit position must be below 64"))));
  const CommandResult r =
      run_command(std::string(KCRAFT_ISAGEN) + " host-regs " + yaml + " --sv " +
                  (scratch.dir / "x_pkg.sv").string() + " --cpp " + (scratch.dir / "x_regs.h").string());
  EXPECT_EQ(r.status, 2);
  EXPECT_FALSE(std::filesystem::exists(scratch.dir / "x_pkg.sv"));
}

TEST(HostRegs, BuildTreeOutputsAreWhatTheGeneratorProduces) {
  ScratchDir scratch;
  const std::string built = KCRAFT_GENERATED_DIR;
  const std::string sv = (scratch.dir / "vliw_pkg.sv").string();
  const std::string cpp = (scratch.dir / "vliw_regs.h").string();
  const CommandResult r = run_command(std::string(KCRAFT_ISAGEN) + " host-regs " + kSource +
                                      "/rtl/vliw/vliw_host_regs.yaml --sv " + sv + " --cpp " + cpp +
                                      " --source-name rtl/vliw/vliw_host_regs.yaml");
  ASSERT_EQ(r.status, 0) << r.output;
  EXPECT_EQ(read_file(sv), read_file(built + "/rtl/vliw_pkg.sv"));
  EXPECT_EQ(read_file(cpp), read_file(built + "/tb/vliw/vliw_regs.h"));
}

}  // namespace
}  // namespace kcraft::isa::test
