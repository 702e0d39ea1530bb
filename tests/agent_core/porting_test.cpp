// Porting (`kcraft agent --port-from`): a passing kernel of the same task on another platform is the
// starting point of every workflow. Runs on the test-only `fake` platform (fast), porting a kernel of the
// default platform, against scripted servers; the ported kernel must be visible in the prompts the roles
// get and in the transcript.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "agent/common/agent_run.h"
#include "agent/common/environment.h"
#include "agent/common/replay.h"
#include "agent/common/workflow.h"
#include "agent/library/library.h"
#include "tests/agent/mock_llm_server.h"
#include "tests/agent_core/fake_platform.h"

namespace kcraft::agent {
namespace {

namespace fs = std::filesystem;
using kcraft::testing::kFakePlatform;
using nlohmann::json;
using testing::MockLlmServer;
using testing::MockUsage;
using testing::Step;
using testing::WireApi;

class FakePlatformRegistered : public ::testing::Environment {
 public:
  void SetUp() override { register_platform(kFakePlatform, kcraft::testing::make_fake_platform); }
};
const auto* const kRegistered = ::testing::AddGlobalTestEnvironment(new FakePlatformRegistered);

// The default platform's baseline kernel of relu C1, written to a file with its language's extension.
fs::path source_kernel_file(const fs::path& dir, std::string* source) {
  const Platform& p = platform(default_platform_name());
  const auto cfg = task_registry().get("relu").resolve("C1", p.dtype());
  *source = p.baseline_compiler("default")->generate(cfg, p.layout(cfg)).source;
  fs::create_directories(dir);
  const fs::path file = dir / p.kernel_file_name();
  std::ofstream(file) << *source;
  return file;
}

fs::path fresh_dir(const std::string& name) {
  const auto dir = fs::temp_directory_path() / ("kcraft_porting_" + name);
  fs::remove_all(dir);
  fs::create_directories(dir);
  return dir;
}

TaskContext fake_relu(PortSource port) {
  TaskContext c;
  c.platform = kFakePlatform;
  c.task = "relu";
  c.config = "C1";
  c.port_from = std::move(port);
  return c;
}

// A second-level section heading of the source platform's guide (under its title), as the port prompt
// lists it.
std::string a_guide_section(const std::string& platform_name) {
  for (const auto& s : library::split_sections("", platform_guide(platform_name))) {
    const auto second = s.path.find(" > ", 3);
    if (second != std::string::npos && s.path.find(" > ", second + 3) == std::string::npos)
      return s.path.substr(second + 3);
  }
  return "";
}

class PortingOverWire : public ::testing::TestWithParam<WireApi> {};

TEST_P(PortingOverWire, SingleGetsTheKernelItsPlatformAndGuideSectionsInItsUserPrompt) {
  const auto dir = fresh_dir(std::string("single_") + testing::wire_api_name(GetParam()));
  std::string source;
  const auto file = source_kernel_file(dir, &source);
  const PortSource port = parse_port_from(default_platform_name() + ":" + file.string(), kFakePlatform);
  EXPECT_EQ(port.platform, default_platform_name());
  EXPECT_EQ(port.source, source);
  EXPECT_EQ(port.origin, file.string());

  MockLlmServer server(WireApi::kOpenAi);
  server
      .then(Step::tool_call("write_code", json{{"code", "FAKE_OP\nFAKE_OP\n"}}.dump(),
                            MockUsage{100, 10, 0, 0}))
      .then(Step::tool_call("submit", "{}", MockUsage{100, 10, 0, 0}));
  auto provider = make_provider(server.settings());
  const auto path = dir / "t.jsonl";
  AgentResult r;
  {
    Transcript transcript(path);
    r = run_llm_agent(*provider, fake_relu(port), AgentBudget{}, transcript);
  }
  EXPECT_EQ(r.score.verdict, Verdict::kPass) << r.summary();
  ASSERT_EQ(server.request_count(), 2u);
  const std::string user = server.request(0).messages[0].content;
  EXPECT_NE(user.find(source), std::string::npos) << "the ported kernel is not in the user prompt";
  EXPECT_NE(user.find("on the platform `" + default_platform_name() + "`"), std::string::npos) << user;
  const std::string section = a_guide_section(default_platform_name());
  ASSERT_FALSE(section.empty());
  EXPECT_NE(user.find("- " + section + "\n"), std::string::npos) << user;
  EXPECT_EQ(user.find(port_prompt(fake_relu(port))), user.size() - port_prompt(fake_relu(port)).size());
  // The transcript records the prompt with the kernel and which kernel was ported; replay still works.
  const auto events = read_transcript(path);
  ASSERT_FALSE(events.empty());
  EXPECT_NE(events.front()["user"].get<std::string>().find(source), std::string::npos);
  EXPECT_EQ(events.front()["context"]["port_from"]["platform"], default_platform_name());
  EXPECT_EQ(r.to_json()["port_from"]["origin"], file.string());
  EXPECT_NE(r.summary().find("ported from a " + default_platform_name() + " kernel"), std::string::npos);
  EXPECT_TRUE(replay_transcript(path).ok());
  fs::remove_all(dir);
}

TEST_P(PortingOverWire, DefaultGivesTheKernelToTheDesignerAndTheCoder) {
  const auto dir = fresh_dir(std::string("default_") + testing::wire_api_name(GetParam()));
  std::string source;
  const auto file = source_kernel_file(dir, &source);
  const PortSource port = load_port_source(default_platform_name(), file.string(), kFakePlatform);
  MockLlmServer designer(GetParam()), coder(GetParam()), conductor(GetParam());
  designer.then(Step::text("<plan>\nPort the loop: one FAKE_OP per row.\n</plan>", MockUsage{10, 1, 0, 0}));
  coder.then(Step::tool_call("write_code", json{{"code", "FAKE_OP\n"}}.dump(), MockUsage{10, 1, 0, 0}))
      .then(Step::tool_call("submit", "{}", MockUsage{10, 1, 0, 0}));
  conductor.then(Step::text(R"({"next": "finish"})", MockUsage{10, 1, 0, 0}));
  auto pd = make_provider(designer.settings()), pc = make_provider(coder.settings()),
       pk = make_provider(conductor.settings());
  RoleProviders providers{pc.get(), {{"designer", pd.get()}, {"conductor", pk.get()}}};
  AgentResult r;
  {
    Transcript transcript(dir / "t.jsonl");
    r = run_workflow(Workflow::load("default"), providers, fake_relu(port), AgentBudget{}, transcript);
  }
  EXPECT_EQ(r.status, "submitted") << r.summary();
  ASSERT_EQ(designer.request_count(), 1u);
  ASSERT_GE(coder.request_count(), 1u);
  EXPECT_NE(designer.request(0).messages[0].content.find(source), std::string::npos);
  const std::string coder_first = coder.request(0).messages[0].content;
  EXPECT_NE(coder_first.find(source), std::string::npos);
  EXPECT_NE(coder_first.find("# The designer's plan"), std::string::npos);  // both: the port and the plan
  // The conductor decides on verdicts: it needs no kernel of another platform.
  EXPECT_EQ(conductor.request(0).messages[0].content.find(source), std::string::npos);
  fs::remove_all(dir);
}

TEST(Porting, WithoutAPortThePromptsAreUnchanged) {
  EXPECT_EQ(port_prompt(fake_relu({})), "");
}

TEST(Porting, BadPortFromValuesAreRefusedClearly) {
  const auto dir = fresh_dir("errors");
  std::string source;
  const auto file = source_kernel_file(dir, &source);
  const auto error = [](const std::string& value, const std::string& run_platform) -> std::string {
    try {
      parse_port_from(value, run_platform);
    } catch (const std::invalid_argument& e) {
      return e.what();
    }
    return "no error";
  };
  EXPECT_NE(error("nosuch:" + file.string(), kFakePlatform).find("unknown platform 'nosuch' (available: "),
            std::string::npos);
  EXPECT_NE(error(file.string(), kFakePlatform).find("expects PLATFORM:KERNEL_FILE"), std::string::npos);
  EXPECT_NE(error(default_platform_name() + ":", kFakePlatform).find("expects PLATFORM:KERNEL_FILE"),
            std::string::npos);
  EXPECT_NE(error(default_platform_name() + ":" + (dir / "missing.s").string(), kFakePlatform)
                .find("cannot read the kernel file"),
            std::string::npos);
  // Porting is across platforms.
  EXPECT_NE(error(default_platform_name() + ":" + file.string(), default_platform_name())
                .find("from another platform than the run's"),
            std::string::npos);
  // An extension none of the source platform's languages has.
  std::ofstream(dir / "kernel.txt") << source;
  EXPECT_NE(
      error(default_platform_name() + ":" + (dir / "kernel.txt").string(), kFakePlatform).find("kernel.txt"),
      std::string::npos);
  // An empty file is no kernel.
  const fs::path empty = dir / ("empty" + fs::path(file).extension().string());
  std::ofstream(empty) << "\n";
  EXPECT_NE(error(default_platform_name() + ":" + empty.string(), kFakePlatform).find("is empty"),
            std::string::npos);
  fs::remove_all(dir);
}

INSTANTIATE_TEST_SUITE_P(Wire, PortingOverWire, ::testing::Values(WireApi::kOpenAi, WireApi::kAnthropic),
                         [](const auto& param_info) {
                           return std::string(testing::wire_api_name(param_info.param));
                         });

}  // namespace
}  // namespace kcraft::agent
