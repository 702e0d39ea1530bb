// An LLM agent takes part in ISA co-design through the MCP tools: a scripted model (tests/agent's mock
// server) calls codesign_propose, reads the candidates in the tool result and answers with the fusion.
#include <gtest/gtest.h>

#include <algorithm>

#include "agent/mcp/mcp_tools.h"
#include "agent/providers/provider.h"
#include "tests/agent/mock_llm_server.h"

namespace kcraft::agent {
namespace {

using testing::MockLlmServer;
using testing::Step;
using testing::WireApi;

// A minimal tool loop: the model's tool calls go to the MCP toolbox until it answers with text.
std::string run_agent(Provider& provider, mcp::McpToolbox& toolbox, const std::string& prompt,
                      int max_turns) {
  ChatRequest request;
  request.system = "You advise a hardware team which instruction to add to their accelerator.";
  for (const auto& t : mcp::McpToolbox::tools())
    request.tools.push_back({t.name, t.description, t.input_schema});
  request.messages.push_back({ChatMessage::Role::kUser, prompt, {}, "", "", false});
  for (int turn = 0; turn < max_turns; ++turn) {
    const ChatResponse response = provider.complete(request);
    request.messages.push_back(response.message);
    if (response.message.tool_calls.empty()) return response.message.content;
    for (const auto& call : response.message.tool_calls) {
      const ToolResult result = toolbox.call(call.name, nlohmann::json::parse(call.arguments));
      request.messages.push_back(
          {ChatMessage::Role::kTool, result.text, {}, call.id, call.name, result.is_error});
    }
  }
  return "";
}

TEST(McpCodesign, AScriptedAgentReadsTheCandidatesAndNamesTheTopFusion) {
  for (WireApi api : {WireApi::kOpenAi, WireApi::kAnthropic}) {
    MockLlmServer server(api);
    server
        .then(
            Step::tool_call("codesign_propose",
                            R"({"platform": "systolic", "tasks": "rms_norm", "db": "/nonexistent/none.db"})"))
        .then(Step::branch_on_tool_result("fuse V_MUL_VF -> V_MUL_VV",
                                          Step::text("add V_MUL_VFV: the top fusion of the workload"),
                                          Step::text("no fusion to propose")));
    auto provider = make_provider(server.settings());
    mcp::McpToolbox toolbox;
    const std::string answer = run_agent(*provider, toolbox, "Which instruction should we add?", 4);
    EXPECT_EQ(answer, "add V_MUL_VFV: the top fusion of the workload") << testing::wire_api_name(api);
    const auto requests = server.requests();  // a copy: the pointers below point into it
    ASSERT_GE(requests.size(), 2u);
    const auto* result = requests[1].last_tool_result();
    ASSERT_NE(result, nullptr);
    EXPECT_EQ(result->tool_name, "codesign_propose");
    EXPECT_NE(result->content.find("saves ~"), std::string::npos) << result->content;
    // The tools the model was offered include both co-design tools.
    const auto& offered = requests[0].tool_names;
    EXPECT_NE(std::find(offered.begin(), offered.end(), "codesign_profile"), offered.end());
  }
}

TEST(McpCodesign, BadArgumentsAreToolErrors) {
  mcp::McpToolbox toolbox;
  auto r = toolbox.call("codesign_profile", {{"platform", "systolic"}, {"tasks", "nosuchtask"}});
  EXPECT_TRUE(r.is_error);
  EXPECT_NE(r.text.find("nosuchtask"), std::string::npos) << r.text;
  r = toolbox.call("codesign_propose", {{"tasks", "relu"}});
  EXPECT_TRUE(r.is_error);
  EXPECT_NE(r.text.find("platform"), std::string::npos) << r.text;
  r = toolbox.call("codesign_profile", {{"platform", "systolic"}, {"workload", "relu: -2"}});
  EXPECT_TRUE(r.is_error);
  EXPECT_NE(r.text.find("must be > 0"), std::string::npos) << r.text;
}

}  // namespace
}  // namespace kcraft::agent
