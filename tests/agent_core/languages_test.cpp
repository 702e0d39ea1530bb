// Kernel languages (tb/common/platform.h KernelLanguage): a test-only platform that takes C and assembly
// goes through the tools, scoring, the tuner, transcripts, replay, the prompts and the MCP tools, each
// kernel built in the language it was written in; the built-in platforms take their assembly only.
#include <gtest/gtest.h>

#include <algorithm>
#include <mutex>
#include <sstream>

#include "agent/common/agent_run.h"
#include "agent/common/environment.h"
#include "agent/common/replay.h"
#include "agent/common/scoring.h"
#include "agent/common/tools.h"
#include "agent/common/transcript.h"
#include "agent/mcp/mcp_tools.h"
#include "agent/tuner/tuner.h"
#include "tests/agent_core/fake_platform.h"

namespace kcraft::agent {
namespace {

using nlohmann::json;

constexpr const char* kBilingual = "bilingual";

// What the platform saw: the file names of every build and evaluation, in order.
std::mutex seen_mutex;
std::vector<std::string> seen_files;

void saw(const std::string& file) {
  std::lock_guard<std::mutex> lock(seen_mutex);
  seen_files.push_back(file);
}
std::vector<std::string> take_seen() {
  std::lock_guard<std::mutex> lock(seen_mutex);
  return std::exchange(seen_files, {});
}

bool is_c(const std::string& filename) {
  return std::filesystem::path(filename).extension() == ".c";
}

// "C" for the fake ISA: one `fake_op();` per FAKE_OP. Assembly may not contain C, nor C assembly, so a
// kernel built in the wrong language fails.
std::string lower_c(const std::string& source, std::string* error) {
  std::istringstream in(source);
  std::string out;
  for (std::string line; std::getline(in, line);) {
    if (line == "fake_op();") {
      out += "FAKE_OP\n";
    } else if (line.rfind("//", 0) == 0 || line.empty()) {
      out += "\n";
    } else {
      *error = "not C: " + line;
      out += "BAD " + line + "\n";
    }
  }
  return out;
}

std::string checked_asm(const std::string& source) {
  std::istringstream in(source);
  std::string out;
  for (std::string line; std::getline(in, line);)
    out += (line.find("();") != std::string::npos ? "BAD " : "") + line + "\n";
  return out;
}

std::string as_fake(const std::string& source, const std::string& filename) {
  std::string error;
  return is_c(filename) ? lower_c(source, &error) : checked_asm(source);
}

// The fake's baseline compiler, emitting C.
class CBaseline : public tasks::BaselineCompiler {
 public:
  explicit CBaseline(std::unique_ptr<tasks::BaselineCompiler> inner) : inner_(std::move(inner)) {}
  std::vector<std::string> supported_tasks() const override { return inner_->supported_tasks(); }
  std::string unsupported_reason(const tasks::ResolvedConfig& cfg) const override {
    return inner_->unsupported_reason(cfg);
  }
  std::vector<tasks::Knob> knobs(const tasks::ResolvedConfig& cfg) const override {
    return inner_->knobs(cfg);
  }
  using BaselineCompiler::generate;
  tasks::GeneratedKernel generate(const tasks::ResolvedConfig& cfg, const tasks::DramLayout& layout,
                                  const tasks::KnobValues& knobs) const override {
    auto k = inner_->generate(cfg, layout, knobs);
    std::string c = "// C baseline\n";
    for (int64_t i = 0; i < k.knobs["unroll"]; ++i) c += "fake_op();\n";
    k.source = c;
    k.language = "c";
    return k;
  }

 private:
  std::unique_ptr<tasks::BaselineCompiler> inner_;
};

// The fake platform under another name, taking C (the default) and assembly.
class BilingualPlatform : public Platform {
 public:
  BilingualPlatform() : inner_(testing::make_fake_platform()) {}

  std::vector<KernelLanguage> languages() const override {
    return {{"c", {".c"}, "C with fake_op() calls"},
            {"asm", {".s", ".S"}, "fake assembly; end with FAKE_HALT"}};
  }

  std::string name() const override { return kBilingual; }
  std::string summary() const override { return "a test-only platform with two kernel languages"; }
  tasks::DType dtype() const override { return inner_->dtype(); }
  const std::vector<HwConfig>& hw_configs() const override { return inner_->hw_configs(); }
  std::vector<HwParameter> hw_parameters(const std::string& hw) const override {
    return inner_->hw_parameters(hw);
  }
  uint64_t program_capacity(const std::string& hw) const override { return inner_->program_capacity(hw); }
  std::string isa_reference() const override { return inner_->isa_reference(); }
  std::filesystem::path guide_path() const override { return inner_->guide_path(); }
  std::vector<std::string> instruction_names() const override { return inner_->instruction_names(); }
  SchedulingTable scheduling_table(const std::string& hw) const override {
    return inner_->scheduling_table(hw);
  }
  isa::SymbolTable symbols(const std::string& hw, const tasks::ResolvedConfig* cfg,
                           const tasks::DramLayout* layout) const override {
    return inner_->symbols(hw, cfg, layout);
  }
  isa::AssembleResult assemble(const std::string& source, const std::string& filename,
                               const isa::SymbolTable& symbols) const override {
    saw(filename);
    return inner_->assemble(as_fake(source, filename), filename, symbols);
  }
  std::string disassemble(const std::vector<uint32_t>& words) const override {
    return inner_->disassemble(words);
  }
  std::string unsupported_reason(const tasks::ResolvedConfig& cfg, const std::string& hw) const override {
    return inner_->unsupported_reason(cfg, hw);
  }
  tasks::DramLayout layout(const tasks::ResolvedConfig& cfg) const override { return inner_->layout(cfg); }
  IdealCycles ideal_cycles(const tasks::ResolvedConfig& cfg, const std::string& hw) const override {
    return inner_->ideal_cycles(cfg, hw);
  }
  EvalReport evaluate(const EvalRequest& request, const tasks::TaskRegistry& tasks) const override {
    saw(request.filename);
    EvalRequest fake = request;
    fake.source = as_fake(request.source, request.filename);
    EvalReport r = inner_->evaluate(fake, tasks);
    r.platform = kBilingual;
    return r;
  }
  std::string describe_counters(const EvalReport& report) const override {
    return inner_->describe_counters(report);
  }
  std::unique_ptr<tasks::BaselineCompiler> baseline_compiler(const std::string& hw) const override {
    return std::make_unique<CBaseline>(inner_->baseline_compiler(hw));
  }
  CommandReport validate(const ValidationOptions& options) const override {
    return inner_->validate(options);
  }
  CommandReport speed(const SpeedOptions& options, const tasks::TaskRegistry& tasks) const override {
    return inner_->speed(options, tasks);
  }

 private:
  std::unique_ptr<Platform> inner_;
};

class BilingualRegistered : public ::testing::Environment {
 public:
  void SetUp() override {
    register_platform(kBilingual, [] { return std::make_unique<BilingualPlatform>(); });
  }
};
const auto* const kRegistered = ::testing::AddGlobalTestEnvironment(new BilingualRegistered);

TaskContext relu() {
  TaskContext c;
  c.platform = kBilingual;
  c.task = "relu";
  c.config = "C1";
  return c;
}

std::string what(const std::function<void()>& f) {
  try {
    f();
  } catch (const std::exception& e) {
    return e.what();
  }
  return "no exception";
}

TEST(KernelLanguages, ThePlatformNamesThemAndFindsThemByExtension) {
  const Platform& p = platform(kBilingual);
  EXPECT_EQ(p.language("").name, "c");  // the first is the default
  EXPECT_EQ(p.language("asm").extensions.front(), ".s");
  EXPECT_EQ(what([&] { p.language("cobol"); }),
            "bilingual has no kernel language 'cobol' (it takes: c (.c), asm (.s, .S))");
  EXPECT_EQ(p.language_of_file("dir/k.c").name, "c");
  EXPECT_EQ(p.language_of_file("k.S").name, "asm");
  EXPECT_EQ(what([&] { p.language_of_file("dir/k.txt"); }),
            "dir/k.txt: bilingual kernels are c (.c), asm (.s, .S); the extension '.txt' is none of them");
  EXPECT_EQ(what([&] { p.language_of_file("kernel"); }),
            "kernel: bilingual kernels are c (.c), asm (.s, .S); the extension (none) is none of them");
  EXPECT_EQ(p.kernel_file_name(), "kernel.c");
  EXPECT_EQ(p.kernel_file_name("asm"), "kernel.s");
  EXPECT_EQ(p.languages_text(),
            "c (.c), the default: C with fake_op() calls\nasm (.s, .S): fake assembly; end with FAKE_HALT\n");
}

TEST(KernelLanguages, TheBuiltInPlatformsTakeTheirAssemblyOnly) {
  for (const Platform* p : platforms()) {
    if (p->name() == kBilingual || p->name() == testing::kFakePlatform) continue;
    if (p->languages().size() != 1) continue;  // a platform with a compiler states its own
    EXPECT_EQ(p->language("").name, "asm") << p->name();
    EXPECT_EQ(p->kernel_file_name(), "kernel.s") << p->name();
    EXPECT_NE(what([&] { p->language_of_file("k.c"); }).find(p->name() + " kernels are asm (.s, .S)"),
              std::string::npos)
        << p->name();
  }
}

TEST(KernelLanguages, ToolsBuildTheSavedKernelInItsLanguage) {
  take_seen();
  ToolSession s(relu());
  EXPECT_EQ(s.language(), "c");
  auto saved = s.call("write_code", {{"code", "fake_op();\nfake_op();\n"}});
  ASSERT_FALSE(saved.is_error) << saved.text;
  EXPECT_EQ(saved.text, "saved kernel.c (2 lines)");
  auto eval = s.call("run_eval", json::object());
  EXPECT_EQ(eval.data["verdict"], "pass") << eval.text;
  EXPECT_EQ(eval.data["cycles"], 200) << eval.text;

  // The same text as assembly is not assembly.
  saved = s.call("write_code", {{"code", "fake_op();\n"}, {"language", "asm"}});
  EXPECT_EQ(saved.text, "saved kernel.s (1 lines)");
  EXPECT_EQ(s.language(), "asm");
  eval = s.call("run_eval", json::object());
  EXPECT_EQ(eval.data["verdict"], "build_error") << eval.text;
  EXPECT_EQ(s.call("check_syntax", json::object()).data["ok"], false);
  // check_syntax of other code in another language, without saving it.
  const auto c_check = s.call("check_syntax", {{"code", "fake_op();\n"}, {"language", "c"}});
  EXPECT_EQ(c_check.data["ok"], true) << c_check.text;
  EXPECT_EQ(s.language(), "asm");
  const auto size = s.call("get_inst_size", json::object());
  EXPECT_EQ(size.data["ok"], false) << size.text;

  const auto seen = take_seen();
  // run_eval (C), run_eval, check_syntax (assembly), check_syntax (C), get_inst_size (assembly)
  EXPECT_EQ(seen, (std::vector<std::string>{"kernel.c", "kernel.s", "kernel.s", "kernel.c", "kernel.s"}));

  const auto bad = s.call("write_code", {{"code", "fake_op();\n"}, {"language", "cobol"}});
  EXPECT_TRUE(bad.is_error);
  EXPECT_EQ(bad.text,
            "write_code: bilingual has no kernel language 'cobol' (it takes: c (.c), asm (.s, .S))");
  EXPECT_EQ(s.code(), "fake_op();\n");  // nothing saved
  const auto wrong_type = s.call("write_code", {{"code", "x"}, {"language", 1}});
  EXPECT_TRUE(wrong_type.is_error);
  EXPECT_NE(wrong_type.text.find("argument 'language' must be a string"), std::string::npos)
      << wrong_type.text;
}

TEST(KernelLanguages, SchemasAndPromptsSayWhichLanguagesThePlatformTakes) {
  for (const auto& t : ToolSession::schemas()) {
    if (t.name != "write_code" && t.name != "check_syntax") continue;
    EXPECT_EQ(t.parameters["properties"]["language"]["type"], "string") << t.name;
    EXPECT_FALSE(t.parameters["properties"]["language"].contains("enum")) << t.name;
  }
  const auto tools = ToolSession::schemas_for(kBilingual);
  const auto write =
      std::find_if(tools.begin(), tools.end(), [](const ToolSchema& t) { return t.name == "write_code"; });
  ASSERT_NE(write, tools.end());
  const json& language = write->parameters["properties"]["language"];
  EXPECT_EQ(language["enum"], json::array({"c", "asm"}));
  EXPECT_EQ(
      language["description"],
      "kernel language (default \"c\"): \"c\" (.c: C with fake_op() calls); \"asm\" (.s, .S: fake assembly; "
      "end with FAKE_HALT)");
  EXPECT_EQ(write->parameters["required"], json::array({"code"}));  // the language is optional

  const std::string prompt = system_prompt(relu(), 15);
  EXPECT_NE(
      prompt.find("  - c (.c), the default: C with fake_op() calls\n  - asm (.s, .S): fake assembly; end "
                  "with FAKE_HALT\n- A kernel that does not read"),
      std::string::npos)
      << prompt;
  EXPECT_EQ(prompt.find("{{"), std::string::npos) << prompt;
}

// Level-3 tasks name the L1/L2 tasks they are built from; the agents' prompts point at those (the docs
// always, the kernel library's kernels of them when the run has a library). Other tasks get no such line.
TEST(AgentPrompts, CompositeTasksPointAtTheirPartsAndTheLibraryWhenThereIsOne) {
  TaskContext block = relu();
  block.task = "decoder_block_llama";
  const std::string plain = user_prompt(block);
  EXPECT_NE(plain.find("This is a level-3 task built from the tasks rms_norm, linear, rope, gqa, swiglu."),
            std::string::npos)
      << plain;
  EXPECT_EQ(plain.find("find_examples"), std::string::npos) << plain;
  EXPECT_NE(plain.find("Composed of the tasks rms_norm, linear, rope, gqa, swiglu"), std::string::npos);
  EXPECT_EQ(plain.find("{{"), std::string::npos) << plain;
  block.library = "/tmp/kcraft-library.db";
  EXPECT_NE(user_prompt(block).find("`find_examples` with a part's name (e.g. \"rms_norm\")"),
            std::string::npos);
  EXPECT_EQ(user_prompt(relu()).find("level-"), std::string::npos);
  EXPECT_EQ(composition_hint(relu()), "");
  // The paper's budgets by level: 15, 20 and 25 model turns; a level-3 run's prompt states its 25.
  EXPECT_EQ(default_iterations(1), 15u);
  EXPECT_EQ(default_iterations(2), 20u);
  EXPECT_EQ(default_iterations(3), 25u);
  EXPECT_NE(system_prompt(block, default_iterations(task_registry().get(block.task).level))
                .find("at most 25 model turns"),
            std::string::npos);
}

TEST(KernelLanguages, ScoringTheTunerTranscriptsAndReplayKeepTheLanguage) {
  // Scoring builds the kernel in its language; the baseline is C.
  const Score c_score = score_kernel(relu(), "fake_op();\n", "c");
  EXPECT_EQ(c_score.verdict, Verdict::kPass);
  EXPECT_EQ(c_score.cycles, 100u);
  EXPECT_EQ(c_score.baseline_cycles, 300u);
  EXPECT_EQ(score_kernel(relu(), "fake_op();\n").verdict, Verdict::kPass);  // "" = the default, C
  EXPECT_EQ(score_kernel(relu(), "fake_op();\n", "asm").verdict, Verdict::kBuildError);
  EXPECT_EQ(score_kernel(relu(), "FAKE_OP\n", "asm").verdict, Verdict::kPass);

  Transcript transcript;
  const AgentResult result = run_tuner(relu(), AgentBudget{5, 0}, transcript);
  EXPECT_EQ(result.score.verdict, Verdict::kPass) << result.error;
  EXPECT_EQ(result.final_language, "c");
  EXPECT_EQ(result.to_json()["language"], "c");
  size_t writes = 0, writes_in_c = 0;
  bool scored_c = false;
  for (const auto& e : transcript.events()) {
    if (e["type"] == "tool_call" && e["name"] == "write_code") {
      ++writes;
      writes_in_c += json::parse(e["arguments"].get<std::string>())["language"] == "c" ? 1 : 0;
    }
    if (e["type"] == "score") scored_c = e["language"] == "c";
  }
  EXPECT_GT(writes, 1u);
  EXPECT_EQ(writes_in_c, writes);  // every candidate and the final kernel
  EXPECT_TRUE(scored_c);
  const ReplayResult replayed = replay_events(transcript.events(), "tuner transcript");
  EXPECT_TRUE(replayed.ok()) << replayed.summary();
  EXPECT_GT(replayed.tool_calls, 0u);

  // A score event that names another language replays in that language: the same code as assembly fails.
  auto events = transcript.events();
  for (auto& e : events) {
    if (e["type"] == "score") e["language"] = "asm";
  }
  const ReplayResult other = replay_events(events, "edited transcript");
  EXPECT_FALSE(other.score_matches) << other.summary();
  ASSERT_TRUE(other.replayed_score);
  EXPECT_EQ(other.replayed_score->verdict, Verdict::kBuildError);
}

TEST(KernelLanguages, McpToolsTakeTheLanguage) {
  mcp::McpToolbox box;
  ASSERT_FALSE(box.call("select_task", {{"task", "relu"}, {"platform", kBilingual}}).is_error);
  const auto saved = box.call("write_code", {{"code", "FAKE_OP\n"}, {"language", "asm"}});
  ASSERT_FALSE(saved.is_error) << saved.text;
  EXPECT_EQ(saved.text, "saved kernel.s (1 lines)");
  const auto eval = box.call("run_eval", json::object());
  EXPECT_EQ(eval.data["verdict"], "pass") << eval.text;
  const auto submitted = box.call("submit", json::object());
  EXPECT_NE(submitted.text.find("pass"), std::string::npos) << submitted.text;
  const auto& tools = mcp::McpToolbox::tools();
  const auto write =
      std::find_if(tools.begin(), tools.end(), [](const mcp::McpTool& t) { return t.name == "write_code"; });
  ASSERT_NE(write, tools.end());
  EXPECT_TRUE(write->input_schema["properties"].contains("language"));
  EXPECT_EQ(write->description.find("C_HALT"), std::string::npos) << write->description;
}

}  // namespace
}  // namespace kcraft::agent
