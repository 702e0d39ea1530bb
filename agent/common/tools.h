// The agent tools: one C++ API behind the LLM agent loop, the MCP server, the offline tuner and replay.
//
// A ToolSession is one agent's workspace on one (platform, hardware configuration, task, configuration):
// the current kernel, the last evaluation, whether it was submitted. Every tool returns compact text an
// LLM can act on (long results are truncated with a note saying so) plus structured data for
// transcripts and scoring. Tools never throw for anything the model did wrong: bad arguments, unknown
// tools and kernels that fail come back as results.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "agent/providers/provider.h"
#include "tb/common/evaluation.h"
#include "tb/common/platform.h"

namespace kcraft::agent {

// A passing kernel of the same task on another platform, given to the agents as a starting point to port
// (`kcraft agent --port-from`, the sweep's `port:` agents). Empty `platform`: no porting.
struct PortSource {
  std::string platform;  // the platform the kernel was written for (not the run's)
  std::string origin;    // where it came from: a file, or the results store's run that wrote it
  std::string language;  // its KernelLanguage::name on `platform` ("" = that platform's default)
  std::string source;
  uint64_t cycles = 0;  // on its own platform, when known (0: unknown)
  bool empty() const { return platform.empty(); }
  nlohmann::json to_json() const;  // without the source (it is in the prompts)
};

// How much documentation an agent is given: the experimental variable of "from what documentation can an
// agent write kernels for an ISA it has never seen" (docs/agents.md, "Documentation levels"). Each level
// serves everything the one below it does, and nothing of the ones above:
//   isa    the generated ISA reference only (prompts, grep_docs, search_docs, read_docs)
//   guide  plus the platform guide
//   full   plus passing kernels of OTHER tasks or configurations from the run's kernel library
//          (find_examples, a search's library seeds), when the run has a library
enum class DocsLevel { kIsa, kGuide, kFull };
const char* docs_level_name(DocsLevel level);
const std::vector<std::string>& docs_level_names();  // isa, guide, full
// Throws std::invalid_argument naming the levels for anything else.
DocsLevel parse_docs_level(const std::string& text);
inline bool serves_guide(DocsLevel level) {
  return level != DocsLevel::kIsa;
}
inline bool serves_examples(DocsLevel level) {
  return level == DocsLevel::kFull;
}

struct TaskContext {
  std::string platform = default_platform_name();
  std::string hw_config = "default";
  std::string task;
  std::string config = "C1";
  uint64_t dev_seed = 1;  // the inputs run_eval uses; scoring uses other seeds (see scoring.h)
  // The kernel library find_examples searches (agent/library/library.h); empty: none in this run.
  std::string library{};  // (an initializer keeps the short aggregate initializations warning-free)
  // The run explicitly allows examples of the scored task+configuration (any hardware configuration);
  // results and reports say so. Off by default: that would hand the model the answer.
  bool library_allows_scored_cell = false;
  PortSource port_from{};  // the kernel to port, if any
  // The documentation the run serves. `full` is what a run got before levels existed: the guide always,
  // library examples when it has a library (none: find_examples says there is no library).
  DocsLevel docs = DocsLevel::kFull;
  // A ceiling on every evaluation's cycle cap (EvalRequest::max_cycles; 0: none), set by a shared server.
  uint64_t max_cycles = 0;
};

// A run's context as transcripts record it in run_start (what replay rebuilds the run from): the cell, the
// development seed, and the library and ported kernel when the run has them.
nlohmann::json transcript_context(const TaskContext& context);

struct ToolResult {
  std::string text;       // what the model sees
  bool is_error = false;  // the call itself was wrong (arguments, unknown tool, nothing to evaluate)
  nlohmann::json data;    // structured: verdicts, cycles, counts (transcripts, replay, MCP, tuner)
};

// Longest tool result text the model gets; longer ones are cut with a note.
inline constexpr size_t kMaxToolText = 6000;

class ToolSession {
 public:
  // Throws std::invalid_argument for an unknown platform/task/config/hardware configuration or a
  // configuration the platform does not support.
  explicit ToolSession(TaskContext context);

  const TaskContext& context() const { return context_; }

  // The tools, with JSON schemas of their arguments (platform-neutral: `language` names no choices).
  static const std::vector<ToolSchema>& schemas();
  // The same, with `language` described for one platform (its languages and the default), and the
  // documentation tools described as the level serves them.
  static std::vector<ToolSchema> schemas_for(const std::string& platform, DocsLevel docs = DocsLevel::kFull);
  static bool has_tool(const std::string& name);

  // `arguments` is the model's raw JSON text (may be malformed or empty = {}).
  ToolResult call_text(const std::string& name, const std::string& arguments);
  ToolResult call(const std::string& name, const nlohmann::json& arguments);

  const std::string& code() const { return code_; }
  // The saved kernel's language (KernelLanguage::name; the platform's default until write_code says
  // otherwise).
  const std::string& language() const { return language_; }
  bool submitted() const { return submitted_; }
  const std::optional<EvalReport>& last_eval() const { return last_eval_; }

  // Counts, for the agent's statistics.
  unsigned evaluations() const { return evaluations_; }
  // Examples of the scored task+configuration find_examples returned (only ever with
  // library_allows_scored_cell).
  unsigned scored_cell_examples() const { return scored_cell_examples_; }

 private:
  ToolResult write_code(const nlohmann::json& args);
  ToolResult check_syntax(const nlohmann::json& args);
  ToolResult run_eval(const nlohmann::json& args);
  ToolResult view_output(const nlohmann::json& args);
  ToolResult grep_docs(const nlohmann::json& args);
  ToolResult search_docs(const nlohmann::json& args);
  ToolResult find_examples(const nlohmann::json& args);
  ToolResult get_inst_size(const nlohmann::json& args);
  ToolResult profile(const nlohmann::json& args);
  ToolResult submit(const nlohmann::json& args);

  TaskContext context_;
  std::string code_;
  std::string language_;
  bool submitted_ = false;
  std::optional<EvalReport> last_eval_;
  std::optional<EvalRequest> last_request_;  // profile re-runs it with the timeline on
  std::string last_timeline_summary_;
  unsigned evaluations_ = 0;
  unsigned scored_cell_examples_ = 0;
};

// The documentation grep_docs searches and the prompts embed: the ISA reference and the platform guide.
std::string isa_reference(const std::string& platform);
std::string platform_guide(const std::string& platform);
// The documents a level serves, by name ("ISA reference", "platform guide"), in that order.
struct NamedDocument {
  std::string name, text;
};
std::vector<NamedDocument> served_documents(const std::string& platform, DocsLevel docs);
// What the prompts' {{platform_guide}} becomes: the guide, or at `isa` a line saying there is none.
std::string prompt_platform_guide(const std::string& platform, DocsLevel docs);
// Hardware configuration summary for prompts (parameters and DRAM timing).
std::string hardware_summary(const std::string& platform, const std::string& hw_config);
// The task exactly as `kcraft task show` prints it (the user prompt's core).
std::string task_text(const TaskContext& context);

// What the profile tool reports on an evaluated run (one code path for the agents' `profile` and `kcraft
// profile`): cycles against the ideal and the attainable bound, the platform's counters, the phases, and a
// timeline summary, for which `request` (the evaluation's) is run again with the per-cycle recorder on.
// `timeline_summary`, when given, keeps that summary between calls on the same run: a non-empty
// one is used as it is. The text is whole; the tool cuts it for the model (truncate_for_model).
struct ProfileReport {
  std::string text;
  nlohmann::json data;
};
ProfileReport profile_report(const EvalReport& report, const EvalRequest& request,
                             std::string* timeline_summary = nullptr);

// Cuts text to `limit` characters at a line boundary with a note saying how much was left out.
std::string truncate_for_model(const std::string& text, size_t limit = kMaxToolText);

}  // namespace kcraft::agent
