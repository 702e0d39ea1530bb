// The kcraft binary with rvv: check in both languages (line:column), eval of a C kernel, validate, isa and
// the listings.
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <array>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>

#include "tests/rvv_platform/rvv_test_support.h"

namespace kcraft::rvv::test {
namespace {

namespace fs = std::filesystem;

struct CliRun {
  int code = -1;
  std::string out;  // stdout and stderr
};

CliRun kcraft(const std::string& args) {
  const std::string cmd = std::string(KCRAFT_BIN) + " " + args + " 2>&1";
  CliRun r;
  FILE* pipe = popen(cmd.c_str(), "r");
  if (pipe == nullptr) return r;
  std::array<char, 4096> buf{};
  size_t n = 0;
  while ((n = fread(buf.data(), 1, buf.size(), pipe)) > 0) r.out.append(buf.data(), n);
  const int status = pclose(pipe);
  r.code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return r;
}

fs::path write(const std::string& name, const std::string& text) {
  const fs::path dir = fs::temp_directory_path() / "kcraft_rvv_cli";
  fs::create_directories(dir);
  std::ofstream(dir / name) << text;
  return dir / name;
}

const char* const kRelu = R"(void kernel(void) {
  const float *x = (const float *)ADDR_X;
  float *y = (float *)ADDR_Y;
  for (int i = 0; i < M * N; ++i) y[i] = x[i] > 0.0f ? x[i] : 0.0f;
}
)";

TEST(RvvCli, ListsThePlatformItsLanguagesAndReference) {
  const CliRun p = kcraft("platforms");
  EXPECT_EQ(p.code, 0);
  EXPECT_NE(p.out.find("rvv "), std::string::npos) << p.out;
  EXPECT_NE(p.out.find("kernels in: c (.c), asm (.S .s)"), std::string::npos) << p.out;
  const CliRun isa = kcraft("isa rvv");
  EXPECT_EQ(isa.code, 0);
  EXPECT_NE(isa.out.find("\n#### VFMACC.VV\n"), std::string::npos);
  const CliRun tasks = kcraft("tasks --platform rvv");
  EXPECT_EQ(tasks.code, 0) << tasks.out;
  EXPECT_NE(tasks.out.find("relu"), std::string::npos) << tasks.out;
  // Float parameters: C's float macro and assembly's bit pattern both named.
  const CliRun show = kcraft("task show layer_norm --platform rvv");
  EXPECT_EQ(show.code, 0) << show.out;
  EXPECT_NE(show.out.find("PARAM_EPS_F32=925353388"), std::string::npos) << show.out;
  EXPECT_NE(show.out.find("PARAM_EPS=1e-05f"), std::string::npos) << show.out;
}

TEST(RvvCli, CheckBuildsCAndAssemblyWithLineAndColumn) {
  const CliRun ok_s =
      kcraft("check rvv " + write("k.S", "  .globl kernel\nkernel:\n  li a0, VLEN\n  ret\n").string());
  EXPECT_EQ(ok_s.code, 0) << ok_s.out;
  const CliRun ok_c = kcraft("check rvv " + write("relu.c", kRelu).string() + " --task relu");
  EXPECT_EQ(ok_c.code, 0) << ok_c.out;
  const CliRun bad_c =
      kcraft("check rvv " + write("bad.c", "void kernel(void) {\n  int v = missing;\n}\n").string());
  EXPECT_EQ(bad_c.code, 1) << bad_c.out;
  EXPECT_NE(bad_c.out.find("bad.c:2:11: error: use of undeclared identifier 'missing'"), std::string::npos)
      << bad_c.out;
  const CliRun bad_s =
      kcraft("check rvv " + write("bad.S", "  .globl kernel\nkernel:\n  vfoo v1, v2\n  ret\n").string());
  EXPECT_EQ(bad_s.code, 1) << bad_s.out;
  EXPECT_NE(bad_s.out.find("bad.S:3:3: error:"), std::string::npos) << bad_s.out;
  const CliRun unknown = kcraft("check rvv " + write("k.f90", "x").string());
  EXPECT_EQ(unknown.code, 2) << unknown.out;
  EXPECT_NE(unknown.out.find("c (.c)"), std::string::npos) << unknown.out;
}

TEST(RvvCli, EvalOfACKernelPasses) {
  const CliRun r = kcraft("eval rvv relu " + write("relu.c", kRelu).string() + " --config C1");
  EXPECT_EQ(r.code, 0) << r.out;
  EXPECT_NE(r.out.find("functional model: agree"), std::string::npos) << r.out;
}

TEST(RvvCli, ValidateRunsAShortCampaign) {
  const CliRun r = kcraft("validate rvv --programs 3");
  EXPECT_EQ(r.code, 0) << r.out;
}

}  // namespace
}  // namespace kcraft::rvv::test
