// `kcraft agent --workflow NAME` end to end on every registered platform: the binary talks to scripted
// servers in this process (one for the coder, one for the designer and the conductor, each role with its
// own model from the provider config), prints per-role budgets, and its transcript replays.
#include <gtest/gtest.h>

#include <sys/wait.h>

#include <array>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>

#include <nlohmann/json.hpp>

#include "tests/agent/mock_llm_server.h"

namespace {

namespace fs = std::filesystem;
using kcraft::agent::testing::MockLlmServer;
using kcraft::agent::testing::ReceivedRequest;
using kcraft::agent::testing::Step;
using kcraft::agent::testing::WireApi;
using nlohmann::json;

struct Run {
  int code = -1;
  std::string out;
};

// `stderr_too`: merge stderr into the output (for messages); off for --json.
Run kcraft(const std::string& args, bool stderr_too = true) {
  const std::string cmd = std::string(KCRAFT_BIN) + " " + args + (stderr_too ? " 2>&1" : " 2>/dev/null");
  Run r;
  FILE* pipe = popen(cmd.c_str(), "r");
  if (pipe == nullptr) return r;
  std::array<char, 4096> buf{};
  size_t n = 0;
  while ((n = fread(buf.data(), 1, buf.size(), pipe)) > 0) r.out.append(buf.data(), n);
  const int status = pclose(pipe);
  r.code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return r;
}

fs::path temp_dir(const std::string& name) {
  auto d = fs::temp_directory_path() / ("kcraft_cli_workflow_" + name);
  fs::remove_all(d);
  fs::create_directories(d);
  return d;
}

// Every registered platform (`kcraft platforms` lists one entry per hardware configuration).
std::vector<std::string> platforms() {
  const auto r = kcraft("platforms --json", false);
  EXPECT_EQ(r.code, 0) << r.out;
  std::vector<std::string> names;
  for (const auto& p : json::parse(r.out)) {
    if (p["config"] == "default") names.push_back(p["platform"].get<std::string>());
  }
  return names;
}

TEST(CliWorkflow, DefaultRunsEndToEndOnEveryPlatformWithPerRoleModelsAndReplays) {
  const auto names = platforms();
  ASSERT_FALSE(names.empty());
  for (const auto& platform : names) {
    SCOPED_TRACE(platform);
    const auto dir = temp_dir(platform);
    const auto kernel = kcraft("baseline " + platform + " relu --config C1", false);
    ASSERT_EQ(kernel.code, 0) << kernel.out;
    MockLlmServer coder(WireApi::kOpenAi), lead(WireApi::kOpenAi);
    lead.then(
            Step::text("<plan>Stream the rows through the vector unit: y = max(x, 0). Memory bound.</plan>"))
        .then(Step::dynamic([](const ReceivedRequest& r) {
          EXPECT_NE(r.messages[0].content.find("pass"), std::string::npos);
          return Step::text(R"({"next": "finish", "suggestion": ""})");
        }));
    coder.then(Step::tool_call("write_code", json{{"code", kernel.out}}.dump()))
        .then(Step::tool_call("submit", "{}"));
    std::ofstream(dir / "roles.yaml")
        << "provider: openai\nbase_url: " << coder.base_url()
        << "\nmodel: cheap-coder\nmax_retries: 0\nroles:\n  designer: {base_url: " << lead.base_url()
        << ", model: strong-lead}\n  conductor: {base_url: " << lead.base_url() << ", model: strong-lead}\n";
    const auto transcript = (dir / "run.jsonl").string();
    const auto run =
        kcraft("agent --platform " + platform + " --task relu --config C1 --workflow default --json " +
                   "--no-tuned-baseline --provider-config " + (dir / "roles.yaml").string() +
                   " --transcript " + transcript,
               false);
    ASSERT_EQ(run.code, 0) << run.out;
    const json j = json::parse(run.out);
    EXPECT_EQ(j["status"], "submitted");
    EXPECT_EQ(j["workflow"], "default");
    EXPECT_EQ(j["score"]["verdict"], "pass");
    EXPECT_EQ(j["iterations"], 4);
    EXPECT_EQ(j["roles"]["designer"]["calls"], 1);
    EXPECT_EQ(j["roles"]["coder"]["calls"], 2);
    EXPECT_EQ(j["roles"]["conductor"]["calls"], 1);
    EXPECT_EQ(j["roles"]["verifier"]["steps"], 1);
    ASSERT_EQ(coder.request_count(), 2u);
    ASSERT_EQ(lead.request_count(), 2u);
    EXPECT_EQ(coder.request(0).model, "cheap-coder");
    EXPECT_EQ(lead.request(0).model, "strong-lead");
    EXPECT_EQ(lead.request(1).model, "strong-lead");
    const auto replay = kcraft("agent replay " + transcript);
    EXPECT_EQ(replay.code, 0) << replay.out;
    EXPECT_NE(replay.out.find("every result reproduced"), std::string::npos) << replay.out;
  }
}

TEST(CliWorkflow, UnknownWorkflowsAndWorkflowsWithoutAModelAreUsageErrors) {
  const auto unknown =
      kcraft("agent --task relu --model m --base-url http://127.0.0.1:9/v1 --workflow nonesuch");
  EXPECT_EQ(unknown.code, 2) << unknown.out;
  EXPECT_NE(unknown.out.find("unknown workflow 'nonesuch' (available: coder_only, default, single)"),
            std::string::npos)
      << unknown.out;
  const auto tuner = kcraft("agent --task relu --agent tuner --workflow default");
  EXPECT_EQ(tuner.code, 2) << tuner.out;
  EXPECT_NE(tuner.out.find("--workflow needs an LLM agent"), std::string::npos) << tuner.out;
}

}  // namespace
