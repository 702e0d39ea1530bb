// `kcraft profile`: exactly the agents' profile tool's text, on every registered platform (one code path,
// agent::profile_report).
#include <gtest/gtest.h>

#include <sys/wait.h>

#include <array>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>

#include <fmt/format.h>

#include "agent/common/environment.h"
#include "agent/common/tools.h"
#include "tb/common/platform.h"

namespace kcraft {
namespace {

namespace fs = std::filesystem;

struct CliRun {
  int code = -1;
  std::string out;  // stdout only
};

CliRun kcraft_stdout(const std::string& args) {
  const std::string cmd = "env -u KCRAFT_PLATFORM " + std::string(KCRAFT_BIN) + " " + args + " 2>/dev/null";
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

TEST(CliProfile, PrintsTheAgentsProfileOnEveryPlatform) {
  const fs::path dir = fs::temp_directory_path() / "kcraft_cli_profile";
  fs::remove_all(dir);
  fs::create_directories(dir);
  for (const std::string& name : platform_names()) {
    SCOPED_TRACE(name);
    const Platform& p = platform(name);
    const auto cfg = agent::task_registry().get("relu").resolve("C1", p.dtype());
    const auto kernel = p.baseline_compiler("default")->generate(cfg, p.layout(cfg), {});
    const KernelLanguage language = p.language(kernel.language);
    const fs::path file = dir / ("relu_" + name + language.extensions.front());
    std::ofstream(file) << kernel.source;

    agent::ToolSession session(agent::TaskContext{name, "default", "relu", "C1", 1});
    ASSERT_FALSE(session.call("write_code", {{"code", kernel.source}, {"language", language.name}}).is_error);
    ASSERT_EQ(session.call("run_eval", nlohmann::json::object()).data.value("verdict", ""), "pass");
    const auto tool = session.call("profile", nlohmann::json::object());
    ASSERT_FALSE(tool.is_error) << tool.text;
    ASSERT_LT(tool.text.size(), agent::kMaxToolText) << "the tool cut its text: compare a shorter run";

    const CliRun cli = kcraft_stdout(fmt::format("profile {} relu {} --no-cache", name, file.string()));
    EXPECT_EQ(cli.code, 0) << cli.out;
    EXPECT_EQ(cli.out, tool.text);
    EXPECT_NE(cli.out.find("attainable bound"), std::string::npos) << cli.out;
  }
  // Nothing to profile: the build's diagnostics, exit 1.
  const fs::path broken = dir / "broken.s";
  std::ofstream(broken) << "NOT_AN_INSTRUCTION\n";
  const CliRun r =
      kcraft_stdout("profile " + default_platform_name() + " relu " + broken.string() + " --no-cache");
  EXPECT_EQ(r.code, 1) << r.out;
  EXPECT_NE(r.out.find("build_error"), std::string::npos) << r.out;
}

}  // namespace
}  // namespace kcraft
