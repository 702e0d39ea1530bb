// The MCP server: the protocol (handshake, version negotiation, errors, batches, notifications) and the
// tools end to end through serve_mcp, and `kcraft mcp` as a process (stdout carries only the protocol).
#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "agent/common/environment.h"
#include "agent/mcp/mcp_server.h"

namespace kcraft::agent::mcp {
namespace {

using nlohmann::json;

std::string request(const json& id, const std::string& method, const json& params = json::object()) {
  return json{{"jsonrpc", "2.0"}, {"id", id}, {"method", method}, {"params", params}}.dump();
}

std::string notification(const std::string& method) {
  return json{{"jsonrpc", "2.0"}, {"method", method}}.dump();
}

std::string initialize(int id, const std::string& version = "2025-11-25") {
  return request(id, "initialize",
                 {{"protocolVersion", version},
                  {"capabilities", json::object()},
                  {"clientInfo", {{"name", "kcraft-test"}, {"version", "1"}}}});
}

std::string call(int id, const std::string& tool, const json& arguments = json::object()) {
  return request(id, "tools/call", {{"name", tool}, {"arguments", arguments}});
}

// Runs serve_mcp over the lines and returns every reply line, parsed. Each reply must be one line.
std::vector<json> serve(const std::vector<std::string>& lines, const McpOptions& options = {}) {
  std::string input;
  for (const auto& l : lines) input += l + "\n";
  std::istringstream in(input);
  std::ostringstream out;
  EXPECT_EQ(serve_mcp(in, out, options), 0);
  std::vector<json> replies;
  std::istringstream reply_lines(out.str());
  for (std::string line; std::getline(reply_lines, line);) replies.push_back(json::parse(line));
  return replies;
}

const json& reply_to(const std::vector<json>& replies, const json& id) {
  for (const auto& r : replies) {
    if (r.is_object() && r.contains("id") && r["id"] == id) return r;
  }
  static const json none;
  ADD_FAILURE() << "no reply with id " << id.dump();
  return none;
}

// The result of a tools/call reply (fails the test on a JSON-RPC error).
const json& tool_result(const std::vector<json>& replies, int id) {
  const json& r = reply_to(replies, id);
  EXPECT_TRUE(r.contains("result")) << r.dump();
  static const json none = json::object();
  return r.contains("result") ? r["result"] : none;
}

std::string text_of(const json& result) {
  if (!result.contains("content") || result["content"].empty()) return "";
  EXPECT_EQ(result["content"][0]["type"], "text");
  return result["content"][0]["text"];
}

std::string baseline_kernel(const std::string& task, const std::string& config) {
  const Platform& p = platform(default_platform_name());
  auto cfg = task_registry().get(task).resolve(config, p.dtype());
  return p.baseline_compiler("default")->generate(cfg, p.layout(cfg)).source;
}

TEST(McpProtocol, InitializeHandshakeAndPing) {
  auto replies =
      serve({initialize(1, "2025-06-18"), notification("notifications/initialized"), request(2, "ping")});
  ASSERT_EQ(replies.size(), 2u);  // the notification gets no reply
  const json& init = reply_to(replies, 1);
  EXPECT_EQ(init["jsonrpc"], "2.0");
  const json& r = init["result"];
  EXPECT_EQ(r["protocolVersion"], "2025-06-18");
  EXPECT_TRUE(r["capabilities"]["tools"].is_object());
  EXPECT_FALSE(r["capabilities"].contains("resources"));
  EXPECT_EQ(r["serverInfo"]["name"], "kcraft");
  EXPECT_FALSE(r["serverInfo"]["version"].get<std::string>().empty());
  const std::string instructions = r["instructions"];
  EXPECT_NE(instructions.find("list_tasks"), std::string::npos);
  EXPECT_NE(instructions.find("select_task"), std::string::npos);
  EXPECT_EQ(reply_to(replies, 2)["result"], json::object());
}

TEST(McpProtocol, NegotiatesTheProtocolVersion) {
  for (const auto& version : supported_protocol_versions()) {
    auto replies = serve({initialize(1, version)});
    EXPECT_EQ(reply_to(replies, 1)["result"]["protocolVersion"], version);
  }
  // A version the server does not know: it answers with its newest.
  auto replies = serve({initialize(7, "1999-01-01")});
  EXPECT_EQ(reply_to(replies, 7)["result"]["protocolVersion"], supported_protocol_versions().front());
  EXPECT_EQ(supported_protocol_versions().front(), "2025-11-25");
  // No version at all is invalid params.
  replies = serve({request(8, "initialize", {{"capabilities", json::object()}})});
  EXPECT_EQ(reply_to(replies, 8)["error"]["code"], -32602);
}

TEST(McpProtocol, ToolsListHasEveryToolWithSchemas) {
  auto replies = serve({initialize(1), request(2, "tools/list")});
  const json& tools = reply_to(replies, 2)["result"]["tools"];
  std::set<std::string> names;
  for (const auto& t : tools) {
    names.insert(t["name"].get<std::string>());
    EXPECT_GT(t["description"].get<std::string>().size(), 40u) << t["name"];
    EXPECT_EQ(t["inputSchema"]["type"], "object") << t["name"];
    EXPECT_TRUE(t["inputSchema"]["properties"].is_object()) << t["name"];
    EXPECT_FALSE(t["title"].get<std::string>().empty()) << t["name"];
    EXPECT_EQ(t["annotations"]["openWorldHint"], false);
  }
  const std::set<std::string> expected = {
      "list_tasks", "select_task",  "show_task",    "read_docs",   "codesign_profile", "codesign_propose",
      "write_code", "check_syntax", "run_eval",     "view_output", "grep_docs",        "get_inst_size",
      "profile",    "submit",       "list_kernels", "load_kernel"};
  EXPECT_EQ(names, expected);
  // The session tools take exactly the arguments ToolSession validates, and write_code the workspace's
  // `name` besides (the toolbox takes it off before ToolSession sees the arguments).
  for (const auto& s : ToolSession::schemas()) {
    for (const auto& t : tools) {
      if (t["name"] != s.name) continue;
      json schema = s.parameters;
      if (schema["properties"].is_null()) schema["properties"] = json::object();
      json served = t["inputSchema"];
      if (s.name == "write_code") {
        EXPECT_EQ(served["properties"]["name"]["type"], "string");
        served["properties"].erase("name");
      }
      EXPECT_EQ(served, schema) << s.name;
    }
  }
  // select_task requires the task; the read-only hints say which tools change nothing.
  std::map<std::string, json> by_name;
  for (const auto& t : tools) by_name[t["name"].get<std::string>()] = t;
  EXPECT_EQ(by_name["select_task"]["inputSchema"]["required"], json::array({"task"}));
  EXPECT_EQ(by_name["grep_docs"]["annotations"]["readOnlyHint"], true);
  EXPECT_EQ(by_name["write_code"]["annotations"]["readOnlyHint"], false);
  EXPECT_NE(by_name["submit"]["description"].get<std::string>().find("speedup"), std::string::npos);
}

TEST(McpProtocol, OlderVersionsGetOnlyTheFieldsTheyDefine) {
  auto replies = serve({initialize(1, "2024-11-05"), request(2, "tools/list"), call(3, "list_tasks")});
  for (const auto& t : reply_to(replies, 2)["result"]["tools"]) {
    EXPECT_FALSE(t.contains("annotations")) << t["name"];
    EXPECT_FALSE(t.contains("title")) << t["name"];
  }
  EXPECT_FALSE(tool_result(replies, 3).contains("structuredContent"));
  EXPECT_FALSE(text_of(tool_result(replies, 3)).empty());
}

TEST(McpProtocol, MalformedJsonIsAParseErrorAndTheServerGoesOn) {
  // The third: a number no double holds (found by fuzzing transcript replay, where the same parser is used).
  auto replies = serve({"{\"jsonrpc\": \"2.0\", \"id\": 1, \"method\": \"ping\"", "not json at all",
                        "{\"jsonrpc\": \"2.0\", \"id\": 7, \"method\": \"ping\", \"params\": {\"x\": 1e999}}",
                        request(2, "ping")});
  ASSERT_EQ(replies.size(), 4u);
  for (int i = 0; i < 3; ++i) {
    EXPECT_EQ(replies[i]["error"]["code"], -32700);
    EXPECT_TRUE(replies[i]["id"].is_null());
  }
  EXPECT_EQ(replies[3]["id"], 2);
  EXPECT_EQ(replies[3]["result"], json::object());
}

TEST(McpProtocol, MessagesNestedTooDeeplyAreRefusedAndTheServerGoesOn) {
  const std::string deep = R"({"jsonrpc":"2.0","id":1,"method":"ping","params":{"x":)" +
                           std::string(100000, '[') + std::string(100000, ']') + "}}";
  auto replies = serve({deep, request(2, "ping")});
  ASSERT_EQ(replies.size(), 2u);
  EXPECT_EQ(replies[0]["error"]["code"], -32600);
  EXPECT_NE(replies[0]["error"]["message"].get<std::string>().find("deeper than 64"), std::string::npos);
  EXPECT_EQ(replies[1]["id"], 2);
}

TEST(McpProtocol, UnknownMethodAndInvalidRequests) {
  auto replies =
      serve({initialize(1), request("abc", "resources/list"), notification("notifications/whatever"),
             R"({"jsonrpc": "1.0", "id": 3, "method": "ping"})",
             R"({"jsonrpc": "2.0", "id": null, "method": "ping"})",
             R"({"jsonrpc": "2.0", "id": 5, "method": 12})", "42", R"({"jsonrpc": "2.0", "id": 6})",
             R"({"jsonrpc": "2.0", "id": 7, "method": "ping", "params": [1, 2]})",
             // A response from the client: nothing to answer.
             R"({"jsonrpc": "2.0", "id": 99, "result": {}})"});
  ASSERT_EQ(replies.size(), 8u);
  EXPECT_EQ(reply_to(replies, "abc")["error"]["code"], -32601);
  EXPECT_NE(reply_to(replies, "abc")["error"]["message"].get<std::string>().find("resources/list"),
            std::string::npos);
  EXPECT_EQ(reply_to(replies, 3)["error"]["code"], -32600);
  EXPECT_EQ(reply_to(replies, 5)["error"]["code"], -32600);
  EXPECT_EQ(reply_to(replies, 6)["error"]["code"], -32600);
  EXPECT_EQ(reply_to(replies, 7)["error"]["code"], -32602);
  // Null id and a bare number: invalid requests answered with a null id.
  size_t null_id = 0;
  for (const auto& r : replies) {
    if (r["id"].is_null()) {
      EXPECT_EQ(r["error"]["code"], -32600);
      ++null_id;
    }
  }
  EXPECT_EQ(null_id, 2u);
}

TEST(McpProtocol, BatchesOnlyIn20250326) {
  const std::string batch = "[" + request(2, "ping") + "," + notification("notifications/initialized") + "," +
                            request(3, "tools/list") + "]";
  auto replies = serve({initialize(1, "2025-03-26"), batch, "[]", "[" + initialize(4, "2025-03-26") + "]"});
  ASSERT_EQ(replies.size(), 4u);
  ASSERT_TRUE(replies[1].is_array());
  const auto batch_replies = replies[1].get<std::vector<json>>();
  ASSERT_EQ(batch_replies.size(), 2u);  // the notification in the batch gets no reply
  EXPECT_EQ(reply_to(batch_replies, 2)["result"], json::object());
  EXPECT_EQ(reply_to(batch_replies, 3)["result"]["tools"].size(), 16u);
  EXPECT_EQ(replies[2]["error"]["code"], -32600);  // empty batch
  ASSERT_TRUE(replies[3].is_array());
  EXPECT_EQ(replies[3][0]["error"]["code"], -32600);  // initialize must not be batched

  // 2025-06-18 removed batches again.
  replies = serve({initialize(1, "2025-06-18"), batch});
  ASSERT_EQ(replies.size(), 2u);
  EXPECT_TRUE(replies[1].is_object());
  EXPECT_EQ(replies[1]["error"]["code"], -32600);
  EXPECT_TRUE(replies[1]["id"].is_null());
}

TEST(McpTools, UnknownToolIsInvalidParams) {
  auto replies =
      serve({initialize(1), call(2, "rm_rf"), request(3, "tools/call", {{"arguments", json::object()}}),
             request(4, "tools/call", {{"name", "write_code"}, {"arguments", json::array({1})}})});
  const json& unknown = reply_to(replies, 2)["error"];
  EXPECT_EQ(unknown["code"], -32602);
  EXPECT_NE(unknown["message"].get<std::string>().find("rm_rf"), std::string::npos);
  EXPECT_NE(unknown["message"].get<std::string>().find("run_eval"), std::string::npos);  // lists the tools
  EXPECT_EQ(reply_to(replies, 3)["error"]["code"], -32602);                              // no name
  EXPECT_EQ(reply_to(replies, 4)["error"]["code"], -32602);  // arguments not an object
}

TEST(McpTools, CallsBeforeSelectTaskSayWhatToDo) {
  auto replies = serve({initialize(1), call(2, "run_eval"), call(3, "write_code", {{"code", "C_HALT\n"}}),
                        call(4, "show_task"), call(5, "list_tasks"), call(6, "show_task", {{"task", "relu"}}),
                        call(7, "submit")});
  for (int id : {2, 3, 4, 7}) {
    const json& r = tool_result(replies, id);
    EXPECT_EQ(r["isError"], true) << id;
    EXPECT_NE(text_of(r).find("select_task"), std::string::npos) << id;
  }
  const json& list = tool_result(replies, 5);
  EXPECT_EQ(list["isError"], false);
  bool relu_found = false;
  for (const auto& t : list["structuredContent"]["tasks"]) {
    if (t["name"] != "relu") continue;
    relu_found = true;
    EXPECT_EQ(t["support"]["C1"], "baseline");
  }
  EXPECT_TRUE(relu_found);
  EXPECT_EQ(list["structuredContent"]["tasks"].size(), task_registry().tasks().size());
  const json& show = tool_result(replies, 6);
  EXPECT_EQ(show["isError"], false);
  EXPECT_NE(text_of(show).find(task_text(TaskContext{"systolic", "default", "relu", "C1", 1})),
            std::string::npos);
}

TEST(McpTools, WrongArgumentsAreToolErrors) {
  auto replies =
      serve({initialize(1), call(2, "select_task", {{"task", 5}}), call(3, "select_task", json::object()),
             call(4, "select_task", {{"task", "relu"}, {"seed", -1}}),
             call(5, "select_task", {{"task", "relu"}, {"colour", "red"}}),
             call(6, "select_task", {{"task", "no_such_task"}}),
             call(7, "select_task", {{"task", "relu"}, {"config", "C9"}}),
             call(8, "select_task", {{"task", "relu"}}), call(9, "write_code", {{"code", 42}}),
             call(10, "grep_docs", json::object()), call(11, "read_docs", {{"document", "novel"}}),
             call(12, "view_output"), call(13, "profile")});
  const std::vector<std::pair<int, std::string>> errors = {
      {2, "must be a string"}, {3, "missing required argument 'task'"},
      {4, "at least 0"},       {5, "unknown argument 'colour'"},
      {6, "no_such_task"},     {7, "C9"},
      {9, "must be a string"}, {10, "missing required argument 'query'"},
      {11, "must be one of"},  {12, "run_eval first"},
      {13, "run_eval first"}};
  for (const auto& [id, words] : errors) {
    const json& r = tool_result(replies, id);
    EXPECT_EQ(r["isError"], true) << id;
    EXPECT_NE(text_of(r).find(words), std::string::npos) << id << ": " << text_of(r);
  }
  EXPECT_EQ(tool_result(replies, 8)["isError"], false);  // the server is fine after all of that
}

TEST(McpTools, FullSessionWithACorrectKernel) {
  const std::string kernel = baseline_kernel("relu", "C1");
  auto replies =
      serve({initialize(1), call(2, "select_task", {{"task", "relu"}, {"config", "C1"}}),
             call(3, "show_task"), call(4, "write_code", {{"code", kernel}}), call(5, "check_syntax"),
             call(6, "get_inst_size"), call(7, "run_eval"), call(8, "view_output"), call(9, "profile"),
             call(10, "grep_docs", {{"query", "C_HALT"}}), call(11, "submit")});
  ASSERT_EQ(replies.size(), 11u);
  for (int id = 2; id <= 11; ++id)
    EXPECT_EQ(tool_result(replies, id)["isError"], false) << id << text_of(tool_result(replies, id));

  const json& selected = tool_result(replies, 2);
  EXPECT_EQ(selected["structuredContent"]["task"], "relu");
  EXPECT_EQ(selected["structuredContent"]["config"], "C1");
  const TaskContext ctx{"systolic", "default", "relu", "C1", 1};
  EXPECT_NE(text_of(selected).find(task_text(ctx)), std::string::npos);
  EXPECT_NE(text_of(tool_result(replies, 3)).find(task_text(ctx)), std::string::npos);

  EXPECT_GT(tool_result(replies, 4)["structuredContent"]["lines"].get<int>(), 3);
  const json& syntax = tool_result(replies, 5)["structuredContent"];
  EXPECT_EQ(syntax["ok"], true);
  EXPECT_EQ(syntax["errors"], 0);
  EXPECT_EQ(tool_result(replies, 6)["structuredContent"]["instructions"], syntax["instructions"]);

  const json& eval = tool_result(replies, 7)["structuredContent"];
  EXPECT_EQ(eval["verdict"], "pass");
  EXPECT_GT(eval["cycles"].get<uint64_t>(), 0u);
  EXPECT_EQ(tool_result(replies, 8)["structuredContent"]["pass"], true);
  EXPECT_EQ(tool_result(replies, 9)["structuredContent"]["cycles"], eval["cycles"]);
  EXPECT_EQ(tool_result(replies, 10)["structuredContent"]["instruction"], "C_HALT");

  // The baseline kernel itself: it passes every hidden seed and is exactly as fast as the baseline.
  const json& submit = tool_result(replies, 11);
  const json& score = submit["structuredContent"]["score"];
  EXPECT_EQ(score["verdict"], "pass");
  ASSERT_EQ(score["seeds"].size(), 2u);
  for (const auto& s : score["seeds"]) EXPECT_NE(s["seed"], 1);  // never run_eval's seed
  EXPECT_GT(score["cycles"].get<uint64_t>(), 0u);
  EXPECT_EQ(score["baseline_cycles"], score["cycles"]);
  EXPECT_DOUBLE_EQ(score["speedup"].get<double>(), 1.0);
  EXPECT_NE(text_of(submit).find("speedup 1.000x"), std::string::npos) << text_of(submit);
}

TEST(McpTools, AWrongKernelFailsEvalAndScore) {
  // Halts without writing the output: runs, but the output is wrong.
  auto replies =
      serve({initialize(1), call(2, "select_task", {{"task", "relu"}}),
             call(3, "write_code", {{"code", "C_HALT\n"}}), call(4, "run_eval"), call(5, "view_output"),
             call(6, "submit"), call(7, "write_code", {{"code", "NOT_AN_INSTRUCTION r1\n"}}),
             call(8, "check_syntax")});
  EXPECT_EQ(tool_result(replies, 4)["structuredContent"]["verdict"], "mismatch");
  EXPECT_EQ(tool_result(replies, 5)["structuredContent"]["pass"], false);
  const json& submit = tool_result(replies, 6);
  EXPECT_EQ(submit["isError"], false);  // the tool worked; the kernel did not
  EXPECT_EQ(submit["structuredContent"]["score"]["verdict"], "mismatch");
  EXPECT_EQ(submit["structuredContent"]["score"]["speedup"], 0.0);
  const json& syntax = tool_result(replies, 8);
  EXPECT_EQ(syntax["structuredContent"]["ok"], false);
  EXPECT_NE(text_of(syntax).find("1:"), std::string::npos);  // line:column
}

TEST(McpTools, ReadDocsPagesThroughTheWholeDocument) {
  auto replies = serve({initialize(1), call(2, "read_docs", {{"document", "isa_reference"}})});
  const json& first = tool_result(replies, 2);
  ASSERT_EQ(first["isError"], false);
  const std::string reference = isa_reference("systolic");
  ASSERT_GT(reference.size(), kDocsPageChars) << "the test needs a document longer than a page";
  std::string joined;
  size_t offset = 0;
  for (int id = 2; offset < reference.size(); ++id) {
    auto r =
        serve({initialize(1), call(id, "read_docs", {{"document", "isa_reference"}, {"offset", offset}})});
    const json& page = tool_result(r, id);
    ASSERT_EQ(page["isError"], false);
    std::string text = text_of(page);
    const json& data = page["structuredContent"];
    EXPECT_EQ(data["total_chars"], reference.size());
    if (!data.contains("next_offset")) {
      joined += text;
      break;
    }
    const size_t next = data["next_offset"];
    ASSERT_GT(next, offset);
    joined += text.substr(0, next - offset);  // the page, without the note naming the next offset
    EXPECT_NE(text.find("offset " + std::to_string(next)), std::string::npos);
    offset = next;
  }
  EXPECT_EQ(joined, reference);
  auto past =
      serve({initialize(1), call(2, "read_docs", {{"document", "platform_guide"}, {"offset", 100000000}})});
  EXPECT_EQ(tool_result(past, 2)["isError"], true);
  // The guide pages the same way (it outgrew one page with the timing model).
  const std::string guide = platform_guide("systolic");
  std::string guide_joined;
  for (size_t at = 0, id = 2; at < guide.size(); ++id) {
    auto r = serve({initialize(1), call(static_cast<int>(id), "read_docs",
                                        {{"document", "platform_guide"}, {"offset", at}})});
    const json& page = tool_result(r, static_cast<int>(id));
    ASSERT_EQ(page["isError"], false);
    const std::string text = text_of(page);
    const json& data = page["structuredContent"];
    if (!data.contains("next_offset")) {
      guide_joined += text;
      break;
    }
    const size_t next = data["next_offset"];
    ASSERT_GT(next, at);
    guide_joined += text.substr(0, next - at);
    at = next;
  }
  EXPECT_EQ(guide_joined, guide);
}

// `kcraft mcp --docs isa`: the ISA reference alone. read_docs refuses the guide, grep_docs never answers
// from it, the instructions do not send the agent to it; `full` is refused (MCP serves no library).
TEST(McpTools, TheIsaDocumentationLevelServesNoPlatformGuide) {
  McpOptions options;
  options.docs = DocsLevel::kIsa;
  auto replies = serve({initialize(1), call(2, "select_task", {{"task", "relu"}}),
                        call(3, "read_docs", {{"document", "platform_guide"}}),
                        call(4, "read_docs", {{"document", "isa_reference"}}),
                        call(5, "grep_docs", {{"query", "kernel"}, {"max_results", 50}})},
                       options);
  const std::string instructions = reply_to(replies, 1)["result"].value("instructions", "");
  EXPECT_EQ(instructions.find("platform_guide"), std::string::npos) << instructions;
  EXPECT_NE(instructions.find("ISA reference alone"), std::string::npos) << instructions;
  const json& guide = tool_result(replies, 3);
  EXPECT_EQ(guide["isError"], true);
  EXPECT_NE(text_of(guide).find("documentation level is isa"), std::string::npos) << text_of(guide);
  EXPECT_EQ(tool_result(replies, 4)["isError"], false);
  const std::string grep = text_of(tool_result(replies, 5));
  EXPECT_NE(grep.find("ISA reference"), std::string::npos) << grep;
  EXPECT_EQ(grep.find("platform guide"), std::string::npos) << grep;
  // The default (guide) answers the same query from the guide too.
  auto by_default = serve({initialize(1), call(2, "select_task", {{"task", "relu"}}),
                           call(3, "grep_docs", {{"query", "kernel"}, {"max_results", 50}})});
  EXPECT_NE(text_of(tool_result(by_default, 3)).find("platform guide"), std::string::npos);
  EXPECT_THROW(McpToolbox(std::nullopt, true, DocsLevel::kFull), std::invalid_argument);
}

TEST(McpTools, PreselectedTaskIsFixed) {
  McpOptions options;
  options.preselected = TaskContext{"systolic", "default", "relu", "C1", 1};
  const std::string kernel = baseline_kernel("relu", "C1");
  auto replies = serve({initialize(1), call(2, "show_task"), call(3, "write_code", {{"code", kernel}}),
                        call(4, "run_eval"), call(5, "select_task", {{"task", "relu"}, {"config", "C2"}}),
                        call(6, "select_task", {{"task", "relu"}}), call(7, "run_eval")},
                       options);
  EXPECT_NE(reply_to(replies, 1)["result"]["instructions"].get<std::string>().find("fixed to task relu C1"),
            std::string::npos);
  EXPECT_EQ(tool_result(replies, 2)["isError"], false);
  EXPECT_EQ(tool_result(replies, 4)["structuredContent"]["verdict"], "pass");
  EXPECT_EQ(tool_result(replies, 5)["isError"], true);
  EXPECT_NE(text_of(tool_result(replies, 5)).find("fixed to relu C1"), std::string::npos);
  EXPECT_EQ(tool_result(replies, 6)["isError"], false);  // restarting the same task: a fresh workspace
  EXPECT_EQ(tool_result(replies, 7)["isError"], true);   // ... without the kernel
  EXPECT_NE(text_of(tool_result(replies, 7)).find("write_code first"), std::string::npos);

  McpOptions bad;
  bad.preselected = TaskContext{"systolic", "default", "no_such_task", "C1", 1};
  EXPECT_THROW(McpServer{bad}, std::invalid_argument);
}

// ------------------------------------------------------------------ kcraft mcp as a process

class McpProcess : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = std::filesystem::temp_directory_path() /
           ("kcraft_mcp_" + std::string(::testing::UnitTest::GetInstance()->current_test_info()->name()) +
            "_" + std::to_string(::getpid()));
    std::filesystem::create_directories(dir_);
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }

  int run(const std::string& args, const std::vector<std::string>& input) {
    std::ofstream(dir_ / "in.jsonl") << [&] {
      std::string s;
      for (const auto& l : input) s += l + "\n";
      return s;
    }();
    const std::string cmd = std::string(KCRAFT_BIN) + " mcp " + args + " < " + (dir_ / "in.jsonl").string() +
                            " > " + (dir_ / "out").string() + " 2> " + (dir_ / "err").string();
    const int status = std::system(cmd.c_str());
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  }
  std::string read(const std::string& name) const {
    std::ifstream in(dir_ / name);
    std::ostringstream ss;
    ss << in.rdbuf();
    return ss.str();
  }

  std::filesystem::path dir_;
};

TEST_F(McpProcess, StdoutCarriesOnlyTheProtocol) {
  const std::string kernel = baseline_kernel("relu", "C1");
  // run_eval elaborates SystemC, which prints to stdout: none of it may reach the protocol stream.
  ASSERT_EQ(run("", {initialize(1), notification("notifications/initialized"),
                     call(2, "select_task", {{"task", "relu"}}), call(3, "write_code", {{"code", kernel}}),
                     call(4, "run_eval")}),
            0);
  std::vector<json> replies;
  std::istringstream out(read("out"));
  for (std::string line; std::getline(out, line);) {
    ASSERT_NO_THROW(replies.push_back(json::parse(line))) << "not JSON on stdout: " << line;
  }
  ASSERT_EQ(replies.size(), 4u);
  EXPECT_EQ(tool_result(replies, 4)["structuredContent"]["verdict"], "pass");
  const std::string err = read("err");
  EXPECT_NE(err.find("tools/call run_eval"), std::string::npos) << err;  // the log is on stderr
}

TEST_F(McpProcess, WhateverElseGoesToStdoutEndsUpOnStderr) {
  std::ofstream(dir_ / "in.jsonl") << initialize(1) << "\n"
                                   << request(2, "ping") << "\n"
                                   << call(3, "list_tasks") << "\n";
  const pid_t pid = ::fork();
  ASSERT_GE(pid, 0);
  if (pid == 0) {
    // The child serves on files; its log goes to std::cout, as stray prints from libraries would.
    const int in = ::open((dir_ / "in.jsonl").c_str(), O_RDONLY);
    const int out = ::open((dir_ / "out").c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    const int err = ::open((dir_ / "err").c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (in < 0 || out < 0 || err < 0 || ::dup2(in, 0) < 0 || ::dup2(out, 1) < 0 || ::dup2(err, 2) < 0)
      ::_exit(90);
    McpOptions options;
    options.log = &std::cout;
    const int code = serve_mcp_stdio(options);
    std::cout.flush();
    ::_exit(code);
  }
  int status = 0;
  ASSERT_EQ(::waitpid(pid, &status, 0), pid);
  ASSERT_TRUE(WIFEXITED(status));
  ASSERT_EQ(WEXITSTATUS(status), 0);
  std::vector<json> replies;
  std::istringstream out(read("out"));
  for (std::string line; std::getline(out, line);) {
    ASSERT_NO_THROW(replies.push_back(json::parse(line))) << "not JSON on stdout: " << line;
  }
  ASSERT_EQ(replies.size(), 3u);
  EXPECT_EQ(tool_result(replies, 3)["isError"], false);
  EXPECT_NE(read("err").find("kcraft mcp: tools/call list_tasks"), std::string::npos) << read("err");
}

TEST_F(McpProcess, QuietAndPreselectedAndUsageErrors) {
  ASSERT_EQ(run("--quiet --task relu --config C1", {initialize(1), call(2, "show_task")}), 0);
  EXPECT_NE(read("out").find("relu"), std::string::npos);
  EXPECT_EQ(read("err"), "");
  EXPECT_EQ(run("--task no_such_task", {initialize(1)}), 2);
  EXPECT_NE(read("err").find("no_such_task"), std::string::npos);
  EXPECT_EQ(read("out"), "");
  EXPECT_EQ(run("--config C2", {initialize(1)}), 2);
  EXPECT_NE(read("err").find("--task"), std::string::npos);
}

}  // namespace
}  // namespace kcraft::agent::mcp
