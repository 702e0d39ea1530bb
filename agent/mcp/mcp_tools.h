// The tools kcraft serves over MCP: the agent tools of ToolSession plus the context an external agent
// needs because nobody chose a task for it (list_tasks, select_task, show_task, read_docs).
//
// An external agent (Claude Code, Cursor, Codex, ...) runs its own loop, so `submit` here also scores
// the kernel on the hidden seeds and returns the verdict and the speedup over the baseline kernel.
// Like ToolSession, nothing the agent does wrong throws: bad arguments, a missing task and failing
// kernels come back as results with is_error set (the MCP `isError`).
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "agent/common/tools.h"
#include "agent/mcp/workspace.h"

namespace kcraft::agent::mcp {

struct McpTool {
  std::string name;
  std::string title;
  std::string description;
  nlohmann::json input_schema;  // JSON Schema of the arguments object
  // MCP tool annotations (hints for clients deciding what to confirm with the user).
  bool read_only = false;
  bool destructive = false;
  bool idempotent = false;
  // Runs simulations (seconds to minutes): kcraft serve gives each call a place in its job queue.
  bool simulates = false;
};

class McpToolbox {
 public:
  // `preselected`: the task `kcraft mcp --task T --config C` fixed. It is selected at once and
  // select_task may then only restart it (a harness chose the task; the agent may not pick another).
  // Throws std::invalid_argument (or the registry's errors) when the preselected task is invalid.
  // `docs`: the documentation level its sessions serve (isa or guide; std::invalid_argument for full: an
  // MCP session has no kernel library).
  explicit McpToolbox(std::optional<TaskContext> preselected = std::nullopt, bool score_on_submit = true,
                      DocsLevel docs = DocsLevel::kGuide);

  // Every tool, in the order tools/list shows them.
  static const std::vector<McpTool>& tools();
  static const McpTool* find(const std::string& name);

  // Runs a tool. `arguments` must be a JSON object (the MCP layer rejects anything else); its fields
  // are validated here and wrong ones give is_error results. The tool must exist (see find()).
  ToolResult call(const std::string& name, const nlohmann::json& arguments);

  // Where write_code's `name`, list_kernels and load_kernel keep kernels (none: those tools say how to get
  // one). Throws std::runtime_error when the directory cannot be made.
  void set_workspace(const std::filesystem::path& dir);
  // A ceiling on every evaluation's cycle cap (kcraft serve --max-cycles; 0: none).
  void set_max_cycles(uint64_t max_cycles);
  // A file every scored submission is appended to as one JSON line (kcraft serve's results), with
  // `session` naming whose it is; "" for none.
  void set_submissions_log(const std::string& path, const std::string& session);

  // The current session (nullptr until a task is selected).
  const ToolSession* session() const { return session_.get(); }
  unsigned submissions() const { return submissions_; }

 private:
  ToolResult list_tasks(const nlohmann::json& args) const;
  ToolResult select_task(const nlohmann::json& args);
  ToolResult show_task(const nlohmann::json& args) const;
  ToolResult read_docs(const nlohmann::json& args) const;
  // codesign_profile and codesign_propose (agent/bench/codesign.h).
  ToolResult codesign(const nlohmann::json& args, bool propose) const;
  ToolResult submit(const nlohmann::json& args);
  ToolResult write_code(const nlohmann::json& args);
  ToolResult list_kernels() const;
  ToolResult load_kernel(const nlohmann::json& args);
  void record_submission(const nlohmann::json& score) const;

  std::optional<TaskContext> locked_;  // the preselected task, when there is one
  bool score_on_submit_;
  DocsLevel docs_;
  std::unique_ptr<ToolSession> session_;
  unsigned submissions_ = 0;
  std::optional<KernelWorkspace> workspace_;
  uint64_t max_cycles_ = 0;
  std::string submissions_log_, session_name_;
};

// Characters of a document read_docs returns per call (cut at a line boundary).
inline constexpr size_t kDocsPageChars = 20000;

}  // namespace kcraft::agent::mcp
