// Documentation levels (DocsLevel, docs/agents.md "Documentation levels"): what each level serves, and the
// leak test: an agent session through every tool and the prompts, against a scripted server that records
// everything the model is sent, never carries material of a level above the run's. The platform guide's own
// sentences never reach an `isa` agent, library kernels never reach a `guide` (or `isa`) one, and `full`'s
// examples never include the task being solved. Each check has its positive control (the higher level does
// get the material), so a detector that could not see a leak would fail too.
#include <fmt/format.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "agent/common/agent_run.h"
#include "agent/common/environment.h"
#include "agent/common/replay.h"
#include "agent/common/workflow.h"
#include "agent/library/library.h"
#include "tb/common/paths.h"
#include "tests/agent/mock_llm_server.h"

namespace kcraft::agent {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;
using testing::MockLlmServer;
using testing::MockReply;
using testing::MockToolCall;
using testing::Step;
using testing::WireApi;

// Markers in the library's kernels: one of another configuration of the task (a fair example at `full`),
// one of the scored cell itself (never to be shown, at any level).
constexpr const char* kExampleMarker = "docslevel-example-marker-relu-c2";
constexpr const char* kScoredMarker = "docslevel-scored-cell-marker";

TaskContext relu_c1(DocsLevel docs, const std::string& library = "") {
  TaskContext c;
  c.task = "relu";
  c.config = "C1";
  c.docs = docs;
  c.library = library;
  return c;
}

std::string baseline_kernel(const std::string& platform_name, const std::string& config = "C1") {
  const Platform& p = platform(platform_name);
  auto cfg = task_registry().get("relu").resolve(config, p.dtype());
  return p.baseline_compiler("default")->generate(cfg, p.layout(cfg)).source;
}

std::string read_file(const fs::path& path) {
  std::ifstream in(path);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

std::string trim(const std::string& s) {
  const auto begin = s.find_first_not_of(" \t\r");
  if (begin == std::string::npos) return "";
  return s.substr(begin, s.find_last_not_of(" \t\r") - begin + 1);
}

// Every string of a request body, decoded: the system prompt, every message and tool result, the tool
// descriptions. What the model sees is in here, whatever the wire format puts where.
void collect_strings(const json& j, std::string& out) {
  if (j.is_string()) {
    out += j.get<std::string>();
    out += '\n';
  } else if (j.is_structured()) {
    for (const auto& item : j) collect_strings(item, out);
  }
}

std::string everything_sent(const MockLlmServer& server) {
  std::string out;
  for (const auto& r : server.requests()) collect_strings(r.json, out);
  return out;
}

// The platform guide's own sentences: lines of 40 characters or more that are in none of the material an
// `isa` agent may legitimately see (the ISA reference, the task, the hardware summary, the prompt
// templates, the kernel it writes). Any of them in an `isa` run's traffic is a leak.
std::vector<std::string> guide_only_lines(const std::string& platform_name) {
  std::string allowed = isa_reference(platform_name) + task_text(relu_c1(DocsLevel::kIsa)) +
                        hardware_summary(platform_name, "default") + baseline_kernel(platform_name);
  for (const auto& entry : fs::directory_iterator(root() / "agent" / "prompts")) allowed += read_file(entry);
  std::vector<std::string> lines;
  std::istringstream in(platform_guide(platform_name));
  for (std::string line; std::getline(in, line);) {
    line = trim(line);
    if (line.size() >= 40 && allowed.find(line) == std::string::npos) lines.push_back(line);
  }
  return lines;
}

// The guide lines found in `text`.
std::vector<std::string> guide_lines_in(const std::string& text, const std::vector<std::string>& lines) {
  std::vector<std::string> found;
  for (const auto& line : lines) {
    if (text.find(line) != std::string::npos) found.push_back(line);
  }
  return found;
}

MockToolCall call(const std::string& name, json arguments) {
  return MockToolCall{name, arguments.dump(), ""};
}

Step turn(std::vector<MockToolCall> calls) {
  MockReply reply;
  reply.tool_calls = std::move(calls);
  reply.usage = {100, 10, 0, 0};
  return Step::reply(std::move(reply));
}

// A library with an example of another configuration of the task and the scored cell's own kernel.
fs::path make_library(const std::string& platform_name, const std::string& name) {
  const fs::path file = fs::temp_directory_path() / (name + "_" + std::to_string(::getpid()) + ".db");
  fs::remove(file);
  library::KernelLibrary lib(file);
  lib.insert({platform_name, "default", "relu", "C2", 100, "llm:x", "",
              std::string("; ") + kExampleMarker + "\n" + baseline_kernel(platform_name, "C2"), "abc", "",
              ""});
  lib.insert({platform_name, "default", "relu", "C1", 90, "llm:x", "",
              std::string("; ") + kScoredMarker + "\n" + baseline_kernel(platform_name), "abc", "", ""});
  return file;
}

struct Session {
  std::string sent;  // everything the model was sent
  AgentResult result;
  fs::path transcript;
};

// One `single` run that calls every tool: the documentation tools with queries made of the guide's own
// words and the library's markers, then the whole kernel loop to submit.
Session run_every_tool(const std::string& platform_name, DocsLevel docs, const fs::path& library,
                       const std::vector<std::string>& guide_lines) {
  MockLlmServer server(WireApi::kOpenAi);
  const std::string guide_words = guide_lines.empty() ? "memory" : guide_lines.front().substr(0, 30);
  server
      .then(turn({call("grep_docs", {{"query", guide_words}}), call("grep_docs", {{"query", "kernel"}}),
                  call("search_docs", {{"query", guide_words}, {"max_results", 12}}),
                  call("find_examples", {{"query", "relu"}, {"max_results", 5}}),
                  call("find_examples", {{"query", kScoredMarker}, {"max_results", 5}})}))
      .then(turn({call("write_code", {{"code", baseline_kernel(platform_name)}}),
                  call("check_syntax", json::object()), call("get_inst_size", json::object()),
                  call("run_eval", json::object())}))
      .then(turn({call("view_output", json::object()), call("profile", json::object()),
                  call("submit", json::object())}));
  TaskContext ctx = relu_c1(docs, library.string());
  ctx.platform = platform_name;
  Session s;
  s.transcript = fs::temp_directory_path() /
                 fmt::format("kcraft_docs_{}_{}_{}.jsonl", platform_name, docs_level_name(docs), ::getpid());
  auto provider = make_provider(server.settings());
  {
    Transcript transcript(s.transcript);
    s.result = run_llm_agent(*provider, ctx, AgentBudget{}, transcript);
  }
  EXPECT_EQ(server.unscripted_requests(), 0u);
  EXPECT_EQ(server.request_count(), 3u);
  s.sent = everything_sent(server);
  return s;
}

TEST(DocsLevels, NamesParseAndAnUnknownLevelIsAClearError) {
  for (const auto& name : docs_level_names()) EXPECT_EQ(docs_level_name(parse_docs_level(name)), name);
  try {
    parse_docs_level("everything");
    FAIL() << "an unknown level was accepted";
  } catch (const std::invalid_argument& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("unknown documentation level 'everything'"), std::string::npos) << what;
    EXPECT_NE(what.find("isa"), std::string::npos) << what;
    EXPECT_NE(what.find("full"), std::string::npos) << what;
  }
  EXPECT_EQ(TaskContext{}.docs, DocsLevel::kFull);  // what runs served before levels existed
}

// The settings file's `docs:` is the run's; a role may not set one, and a wrong value says what is wrong.
TEST(DocsLevels, TheSettingsFileNamesTheRunsLevel) {
  const std::string base = "provider: openai\nbase_url: http://127.0.0.1:1/v1\nmodel: m\n";
  EXPECT_FALSE(RunProviderSettings::parse(base, "a.yaml").docs.has_value());
  const auto isa = RunProviderSettings::parse(base + "docs: isa\n", "a.yaml");
  ASSERT_TRUE(isa.docs.has_value());
  EXPECT_EQ(*isa.docs, DocsLevel::kIsa);
  EXPECT_EQ(isa.run.model, "m");
  const auto with_roles =
      RunProviderSettings::parse(base + "docs: guide\nroles:\n  designer: {model: d}\n", "a.yaml");
  EXPECT_EQ(with_roles.docs, DocsLevel::kGuide);
  EXPECT_EQ(with_roles.for_role("designer").model, "d");
  const auto refused = [&](const std::string& text, const std::string& expected) {
    try {
      RunProviderSettings::parse(text, "a.yaml");
      ADD_FAILURE() << "accepted: " << text;
    } catch (const std::exception& e) {
      EXPECT_NE(std::string(e.what()).find(expected), std::string::npos) << e.what();
    }
  };
  refused(base + "docs: most\n", "a.yaml: docs: unknown documentation level 'most'");
  refused(base + "roles:\n  designer: {docs: isa}\n",
          "roles.designer.docs: the documentation level is the run's");
}

// The tools serve exactly the level's documents, and say so in their descriptions.
TEST(DocsLevels, TheDocumentationToolsServeExactlyTheLevelsDocuments) {
  const std::string p = default_platform_name();
  const auto lines = guide_only_lines(p);
  ASSERT_GE(lines.size(), 20u) << "the guide has too few sentences of its own to test with";
  const std::string query = lines[lines.size() / 2].substr(0, 30);
  for (DocsLevel docs : {DocsLevel::kIsa, DocsLevel::kGuide}) {
    ToolSession session(relu_c1(docs));
    const auto grep = session.call("grep_docs", {{"query", query}, {"max_results", 50}});
    const auto search = session.call("search_docs", {{"query", query}, {"max_results", 12}});
    const bool guide = docs == DocsLevel::kGuide;
    EXPECT_EQ(grep.text.find("platform guide") != std::string::npos, guide) << grep.text;
    EXPECT_EQ(guide_lines_in(grep.text + search.text, lines).empty(), !guide) << grep.text << search.text;
    EXPECT_EQ(served_documents(p, docs).size(), guide ? 2u : 1u);
    EXPECT_EQ(prompt_platform_guide(p, docs) == platform_guide(p), guide);
  }
  for (const auto& tool : ToolSession::schemas_for(p, DocsLevel::kIsa)) {
    EXPECT_EQ(tool.description.find("platform guide"), std::string::npos) << tool.name;
  }
  // Instruction entries come from the ISA reference at every level.
  const std::string mnemonic = platform(p).instruction_names().front();
  EXPECT_EQ(
      ToolSession(relu_c1(DocsLevel::kIsa)).call("grep_docs", {{"query", mnemonic}}).data.value("matches", 0),
      1);
}

// Every prompt template, rendered at `isa` (with the port prompt from another platform), has none of the
// guide's sentences; at `guide` the templates that embed the guide have all of them.
TEST(DocsLevels, NoPromptTemplateCarriesTheGuideAtIsa) {
  const std::string p = default_platform_name();
  const auto lines = guide_only_lines(p);
  ASSERT_FALSE(lines.empty());
  for (const auto& entry : fs::directory_iterator(root() / "agent" / "prompts")) {
    const std::string name = entry.path().filename().string();
    const std::string template_text = read_file(entry);
    const std::string isa = render_prompt(name, relu_c1(DocsLevel::kIsa), 10, {{"choices", "coder, finish"}});
    EXPECT_EQ(guide_lines_in(isa, lines), std::vector<std::string>{}) << name;
    if (template_text.find("{{platform_guide}}") != std::string::npos) {
      const std::string guide =
          render_prompt(name, relu_c1(DocsLevel::kGuide), 10, {{"choices", "coder, finish"}});
      EXPECT_EQ(guide_lines_in(guide, lines).size(), lines.size()) << name;
      EXPECT_NE(isa.find("Not part of this run's documentation"), std::string::npos) << name;
    }
  }
  // Porting at `isa`: not even the other platform's guide outline.
  for (const auto& other : platform_names()) {
    if (other == p) continue;
    TaskContext ctx = relu_c1(DocsLevel::kIsa);
    ctx.port_from = PortSource{other, "file", "", "; ported kernel\n", 0};
    EXPECT_EQ(port_prompt(ctx).find("platform guide"), std::string::npos) << port_prompt(ctx);
    ctx.docs = DocsLevel::kGuide;
    EXPECT_NE(port_prompt(ctx).find("platform guide"), std::string::npos);
  }
}

// The leak test proper: a whole run at each level through every tool, on every platform.
class DocsLevelLeak : public ::testing::TestWithParam<std::string> {};

TEST_P(DocsLevelLeak, ARunNeverReceivesMaterialOfAHigherLevel) {
  const std::string p = GetParam();
  const auto lines = guide_only_lines(p);
  ASSERT_GE(lines.size(), 10u) << p << ": the guide has too few sentences of its own to test with";
  const fs::path library = make_library(p, "kcraft_docs_library_" + p);

  const Session isa = run_every_tool(p, DocsLevel::kIsa, library, lines);
  const Session guide = run_every_tool(p, DocsLevel::kGuide, library, lines);
  const Session full = run_every_tool(p, DocsLevel::kFull, library, lines);
  for (const Session* s : {&isa, &guide, &full}) {
    EXPECT_EQ(s->result.status, "submitted") << s->result.summary();
    EXPECT_EQ(s->result.score.verdict, Verdict::kPass) << s->result.summary();
  }
  // isa: none of the guide's sentences, anywhere; no library kernel.
  EXPECT_EQ(guide_lines_in(isa.sent, lines), std::vector<std::string>{});
  EXPECT_EQ(isa.sent.find(kExampleMarker), std::string::npos);
  // guide: all of the guide (the positive control of the detector), still no library kernel.
  EXPECT_EQ(guide_lines_in(guide.sent, lines).size(), lines.size());
  EXPECT_EQ(guide.sent.find(kExampleMarker), std::string::npos);
  // full: the example of another configuration, never the task being solved.
  EXPECT_NE(full.sent.find(kExampleMarker), std::string::npos);
  // The scored cell's own kernel never reaches the model, whatever the level.
  for (const Session* s : {&isa, &guide, &full}) {
    // The marker is only ever in the model's own find_examples query (the assistant's tool call), never
    // in anything the tools answered: count its occurrences against the calls that named it.
    size_t count = 0;
    for (size_t at = s->sent.find(kScoredMarker); at != std::string::npos;
         at = s->sent.find(kScoredMarker, at + 1))
      ++count;
    // Sent once per request after the turn that made the call (requests 2 and 3), as the call's arguments.
    EXPECT_EQ(count, 2u) << docs_level_name(s->result.context.docs);
  }

  // The transcript records the level, and replays at it.
  for (const Session* s : {&isa, &guide, &full}) {
    const auto events = read_transcript(s->transcript);
    ASSERT_FALSE(events.empty());
    EXPECT_EQ(events.front()["context"]["docs"], docs_level_name(s->result.context.docs));
    EXPECT_EQ(events.back()["result"]["docs"], docs_level_name(s->result.context.docs));
    const auto replay = replay_transcript(s->transcript);
    EXPECT_TRUE(replay.ok()) << replay.summary();
    EXPECT_EQ(replay.context.docs, s->result.context.docs);
    fs::remove(s->transcript);
  }
  fs::remove(library);
}

INSTANTIATE_TEST_SUITE_P(EveryPlatform, DocsLevelLeak, ::testing::ValuesIn(platform_names()),
                         [](const auto& param_info) { return param_info.param; });

}  // namespace
}  // namespace kcraft::agent
