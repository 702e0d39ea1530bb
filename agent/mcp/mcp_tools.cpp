#include "agent/mcp/mcp_tools.h"

#include <fmt/format.h>

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <sstream>
#include <stdexcept>

#include "agent/bench/codesign.h"
#include "agent/bench/codesign_run.h"
#include "agent/common/environment.h"
#include "agent/common/scoring.h"
#include "tasks/common/render.h"

namespace kcraft::agent::mcp {

namespace {

using nlohmann::json;

const char* const kNoWorkspaceHint =
    "this server keeps no workspace of kernels (kcraft mcp --workspace DIR, or kcraft serve, gives one)";

const char* const kNoTaskHint =
    "no task selected yet: call list_tasks to see the tasks, then select_task, e.g. "
    "{\"task\": \"relu\", \"config\": \"C1\"}";

ToolResult error(std::string text) {
  return ToolResult{std::move(text), true, json{{"error", true}}};
}

json object_schema(json properties, std::vector<std::string> required = {}) {
  json s = {{"type", "object"}, {"properties", std::move(properties)}, {"additionalProperties", false}};
  if (!required.empty()) s["required"] = required;
  return s;
}

// Validates the arguments of the context tools against their schema (types, enums, minimum, required,
// unknown fields). The session tools validate their own. Returns an error message or "".
std::string check_arguments(const McpTool& tool, const json& args) {
  const json& props = tool.input_schema["properties"];
  for (const auto& [key, value] : args.items()) {
    if (!props.contains(key)) {
      std::string known;
      for (const auto& [k, v] : props.items()) known += (known.empty() ? "" : ", ") + k;
      return fmt::format("unknown argument '{}' (arguments of {}: {})", key, tool.name,
                         known.empty() ? "none" : known);
    }
    const json& prop = props[key];
    const std::string type = prop["type"];
    const bool ok = (type == "string" && value.is_string()) ||
                    (type == "integer" && value.is_number_integer()) ||
                    (type == "boolean" && value.is_boolean());
    if (!ok) return fmt::format("argument '{}' must be a {}, got {}", key, type, value.type_name());
    if (prop.contains("enum") &&
        std::find(prop["enum"].begin(), prop["enum"].end(), value) == prop["enum"].end()) {
      return fmt::format("argument '{}' must be one of {}, got {}", key, prop["enum"].dump(), value.dump());
    }
    if (prop.contains("minimum") && value.is_number_integer() && !value.is_number_unsigned() &&
        value.get<int64_t>() < prop["minimum"].get<int64_t>()) {
      return fmt::format("argument '{}' must be at least {}, got {}", key, prop["minimum"].get<int64_t>(),
                         value.dump());
    }
  }
  if (tool.input_schema.contains("required")) {
    for (const auto& r : tool.input_schema["required"]) {
      if (!args.contains(r.get<std::string>()))
        return fmt::format("missing required argument '{}'", r.get<std::string>());
    }
  }
  return "";
}

// Cuts `text` into pages of at most kDocsPageChars, before a Markdown heading when there is one in the
// page's second half, else at a line boundary; returns the page at `offset` and sets *next (0: last page).
std::string page_of(const std::string& text, size_t offset, size_t* next) {
  *next = 0;
  if (offset >= text.size()) return "";
  size_t end = offset + kDocsPageChars;
  if (end >= text.size()) return text.substr(offset);
  const size_t half = offset + kDocsPageChars / 2;
  const size_t heading = text.rfind("\n#", end - 1);
  const size_t line_end = text.rfind('\n', end - 1);
  if (heading != std::string::npos && heading > half) {
    end = heading + 1;
  } else if (line_end != std::string::npos && line_end > half) {
    end = line_end + 1;
  }
  *next = end;
  return text.substr(offset, end - offset);
}

// How the platform argument's description names the choices: "only \"a\"" or "one of \"a\", \"b\"".
std::string platform_choices() {
  const auto names = platform_names();
  std::string quoted;
  for (const auto& n : names) quoted += (quoted.empty() ? "\"" : ", \"") + n + "\"";
  return names.size() == 1 ? "only " + quoted : "one of " + quoted;
}

std::string context_name(const TaskContext& c) {
  return fmt::format("{} {} on {}/{} (run_eval seed {})", c.task, c.config, c.platform, c.hw_config,
                     c.dev_seed);
}

const std::vector<McpTool>& build_tools() {
  static const std::vector<McpTool> tools = [] {
    std::vector<McpTool> t;
    t.push_back(
        {"list_tasks", "List tasks",
         "List the kernel tasks: name, level (1 simple ... 4 composite), title, configurations C1..C5 "
         "(problem sizes) and whether each runs on the hardware configuration (B = runs and has a baseline "
         "kernel to beat, s = runs, - = not supported), plus the hardware configurations. Start here, then "
         "call select_task.",
         object_schema(
             {{"hw_config",
               {{"type", "string"},
                {"description",
                 "hardware configuration to report support for (default: the "
                 "selected one, else \"default\")"}}},
              {"platform", {{"type", "string"}, {"description", "platform (" + platform_choices() + ")"}}}}),
         true, false, true});
    t.push_back(
        {"select_task", "Select a task",
         "Choose the task to work on and start a fresh workspace for it (the saved kernel and last "
         "evaluation are "
         "discarded). Returns the task: what to compute, tensor shapes and DRAM addresses, tolerance and the "
         "predefined symbols (assembler symbols, C macros). All other tools except list_tasks, show_task and "
         "read_docs need a "
         "selected "
         "task.",
         object_schema(
             {{"task", {{"type", "string"}, {"description", "task name from list_tasks, e.g. \"relu\""}}},
              {"config",
               {{"type", "string"}, {"description", "problem size C1..C5 (default C1, the smallest)"}}},
              {"hw_config",
               {{"type", "string"}, {"description", "hardware configuration (default \"default\")"}}},
              {"platform",
               {{"type", "string"},
                {"description", platform_names().size() == 1
                                    ? "platform (default and only: \"" + default_platform_name() + "\")"
                                    : "platform (default \"" + default_platform_name() + "\"; " +
                                          platform_choices() + ")"}}},
              {"seed",
               {{"type", "integer"},
                {"minimum", 0},
                {"description",
                 "seed of the inputs run_eval uses (default 1); submit scores on other, "
                 "hidden inputs"}}}},
             {"task"}),
         false, true, false});
    t.push_back(
        {"show_task", "Show the task",
         "The task as the agent sees it: what to compute, tensor shapes, dtypes and DRAM addresses, "
         "tolerance and the predefined symbols (assembler symbols, C macros), followed by the hardware "
         "configuration. Without "
         "arguments: the selected task; with `task` (and optionally `config`, `hw_config`): any task, "
         "without selecting it.",
         object_schema(
             {{"task", {{"type", "string"}, {"description", "task to show instead of the selected one"}}},
              {"config", {{"type", "string"}, {"description", "configuration C1..C5 (default C1)"}}},
              {"hw_config",
               {{"type", "string"}, {"description", "hardware configuration (default \"default\")"}}}}),
         true, false, true});
    t.push_back(
        {"read_docs", "Read the documentation",
         "Read a whole document, page by page: \"platform_guide\" (execution model, memories, data formats, "
         "instructions by unit, a worked ReLU kernel, how to read evaluations; read it first), "
         "\"isa_reference\" (every "
         "instruction: syntax, encoding, semantics, latency) or \"hardware\" (the parameters and DRAM timing "
         "of the "
         "selected hardware configuration). Long documents come in pages; pass the `offset` the previous "
         "page names "
         "to continue. For one instruction or concept, grep_docs is quicker.",
         object_schema(
             {{"document",
               {{"type", "string"},
                {"enum", {"platform_guide", "isa_reference", "hardware"}},
                {"description", "which document"}}},
              {"offset",
               {{"type", "integer"}, {"minimum", 0}, {"description", "character offset (default 0)"}}}},
             {"document"}),
         true, false, true});
    t.push_back(
        {"list_kernels", "List the saved kernels",
         "The kernels saved in this session's workspace (write_code with a `name`), with their sizes. "
         "load_kernel makes one the current kernel again.",
         object_schema(json::object()), true, false, true});
    t.push_back(
        {"load_kernel", "Load a saved kernel",
         "Make a kernel saved in this session's workspace (list_kernels) the current kernel, as "
         "write_code would: check_syntax, run_eval and submit then use it. Needs a selected task.",
         object_schema(
             {{"name", {{"type", "string"}, {"description", "the kernel's name, e.g. \"relu_v2.s\""}}},
              {"language",
               {{"type", "string"}, {"description", "its language (default: the platform's first)"}}}},
             {"name"}),
         false, true, true});
    const json codesign_properties = {
        {"platform", {{"type", "string"}, {"description", "platform (" + platform_choices() + ")"}}},
        {"hw_config", {{"type", "string"}, {"description", "hardware configuration (default \"default\")"}}},
        {"tasks",
         {{"type", "string"},
          {"description", "comma-separated tasks, weight 1 each (default: the level-3 blocks)"}}},
        {"configs", {{"type", "string"}, {"description", "comma-separated configurations (default \"C1\")"}}},
        {"workload",
         {{"type", "string"},
          {"description",
           "instead of tasks: YAML of task (or task@C2) to weight, e.g. \"{rms_norm: 2, gemm: 1}\""}}},
        {"db",
         {{"type", "string"},
          {"description",
           "results store whose best passing kernels run (default results/kcraft.db when it exists; not "
           "in kcraft serve sessions)"}}}};
    t.push_back(
        {"codesign_profile", "Profile a workload for ISA co-design",
         "Run the best passing kernel of every task of a workload on the RTL and charge every cycle once "
         "to an instruction and a stall cause: weighted cycles per instruction, unit, stall cause and "
         "task (JSON in the structured result). Simulates: seconds per task.",
         object_schema(codesign_properties, {"platform"}), true, false, true});
    t.push_back({"codesign_propose", "Propose ISA and hardware changes",
                 "Ranked ISA co-design candidates from a workload profile, each with its evidence: fused "
                 "instructions (dependent sequences on one unit, their occurrences, cycles and estimated "
                 "savings), binding parameters (stall cycles and a ready `kcraft explore` command line) and "
                 "unused instructions. Simulates like codesign_profile.",
                 object_schema(codesign_properties, {"platform"}), true, false, true});
    // The session tools, with the descriptions the embedded LLM agent sees.
    for (const auto& s : ToolSession::schemas()) {
      // Not (yet) served over MCP: an MCP session has no kernel library, and its clients page through the
      // documents with read_docs and grep_docs.
      if (s.name == "find_examples" || s.name == "search_docs") continue;
      McpTool tool{s.name, "", s.description, s.parameters};
      // JSON Schema wants an object here; ToolSession leaves it null for tools without arguments, which
      // strict clients (the MCP SDK's schema check) reject.
      if (!tool.input_schema["properties"].is_object()) tool.input_schema["properties"] = json::object();
      if (s.name == "write_code") {
        tool.title = "Write the kernel";
        tool.description +=
            " Kernels are in one of the platform's languages (`language`; select_task and show_task list "
            "them, read_docs explains them); they may use the task's predefined symbols.";
        tool.input_schema["properties"]["name"] = {
            {"type", "string"},
            {"description",
             "also save it in the session's workspace under this name (letters, digits, '.', '_', '-'; "
             "list_kernels, load_kernel)"}};
        tool.destructive = true;
        tool.idempotent = true;
      } else if (s.name == "check_syntax") {
        tool.title = "Check the kernel's syntax";
        tool.read_only = tool.idempotent = true;
      } else if (s.name == "run_eval") {
        tool.title = "Run the kernel";
        tool.idempotent = true;
      } else if (s.name == "view_output") {
        tool.title = "Where the output is wrong";
        tool.read_only = tool.idempotent = true;
      } else if (s.name == "grep_docs") {
        tool.title = "Search the documentation";
        tool.read_only = tool.idempotent = true;
      } else if (s.name == "get_inst_size") {
        tool.title = "Count instructions";
        tool.read_only = tool.idempotent = true;
      } else if (s.name == "profile") {
        tool.title = "Profile the last run";
        tool.read_only = tool.idempotent = true;
      } else if (s.name == "submit") {
        tool.title = "Submit and score";
        tool.description =
            "Submit the saved kernel as the answer and score it: it runs on hidden inputs (seeds run_eval "
            "never "
            "uses) and must pass on every one; the result gives the verdict per seed, the cycles, and the "
            "speedup "
            "over the template compiler's baseline kernel (> 1 is faster). You may improve the kernel and "
            "submit "
            "again; the last submission counts.";
      }
      t.push_back(std::move(tool));
    }
    for (auto& tool : t) {
      tool.simulates = tool.name == "run_eval" || tool.name == "profile" || tool.name == "submit" ||
                       tool.name == "codesign_profile" || tool.name == "codesign_propose";
    }
    return t;
  }();
  return tools;
}

std::string format_score(const Score& score, unsigned submission) {
  const size_t passed =
      static_cast<size_t>(std::count_if(score.seeds.begin(), score.seeds.end(),
                                        [](const SeedVerdict& s) { return s.verdict == Verdict::kPass; }));
  std::string text = fmt::format("submission {} scored on hidden inputs: {} ({}/{} seeds pass)\n", submission,
                                 verdict_name(score.verdict), passed, score.seeds.size());
  for (const auto& s : score.seeds)
    text += fmt::format("  seed {}: {}: {}\n", s.seed, verdict_name(s.verdict), s.headline);
  if (score.verdict == Verdict::kPass) {
    text += fmt::format("cycles {}, utilization {:.1f}%", score.cycles, 100 * score.utilization);
    if (score.baseline_cycles > 0) {
      text +=
          fmt::format(", baseline kernel {} cycles: speedup {:.3f}x", score.baseline_cycles, score.speedup);
      if (score.compiler_baseline_cycles > 0) {
        text += fmt::format("; the compiler's build of the plain reference {} cycles: speedup {:.3f}x",
                            score.compiler_baseline_cycles, score.compiler_speedup);
      }
      text += "\n";
    } else {
      text += " (no baseline kernel for this task to compare with)\n";
    }
  } else {
    text +=
        "the kernel must pass on inputs it has not seen: it has to read its inputs, not rely on run_eval's "
        "data\n";
  }
  return text;
}

}  // namespace

McpToolbox::McpToolbox(std::optional<TaskContext> preselected, bool score_on_submit, DocsLevel docs)
    : locked_(std::move(preselected)), score_on_submit_(score_on_submit), docs_(docs) {
  if (serves_examples(docs_)) {
    throw std::invalid_argument(
        "documentation level full: kcraft mcp serves no kernel library (find_examples); use isa or guide");
  }
  if (locked_) {
    locked_->docs = docs_;
    session_ = std::make_unique<ToolSession>(*locked_);
  }
}

const std::vector<McpTool>& McpToolbox::tools() {
  return build_tools();
}

const McpTool* McpToolbox::find(const std::string& name) {
  const auto& all = tools();
  auto it = std::find_if(all.begin(), all.end(), [&](const McpTool& t) { return t.name == name; });
  return it == all.end() ? nullptr : &*it;
}

ToolResult McpToolbox::call(const std::string& name, const json& args) {
  const McpTool* tool = find(name);
  if (tool == nullptr) return error(fmt::format("unknown tool '{}'", name));
  if (!args.is_object()) return error(name + ": arguments must be a JSON object");
  if (name == "list_kernels") {
    if (auto why = check_arguments(*tool, args); !why.empty()) return error(name + ": " + why);
    return list_kernels();
  }
  const bool codesign_tool = name == "codesign_profile" || name == "codesign_propose";
  const bool context_tool = codesign_tool || name == "list_tasks" || name == "select_task" ||
                            name == "show_task" || name == "read_docs";
  if (context_tool) {
    if (auto why = check_arguments(*tool, args); !why.empty()) return error(name + ": " + why);
    try {
      if (name == "list_tasks") return list_tasks(args);
      if (name == "select_task") return select_task(args);
      if (name == "show_task") return show_task(args);
      if (codesign_tool) return codesign(args, name == "codesign_propose");
      return read_docs(args);
    } catch (const std::exception& e) {
      // Unknown task, configuration or hardware configuration: the registry's message names it.
      return error(fmt::format("{}: {}", name, e.what()));
    }
  }
  if (!session_) return error(name + ": " + kNoTaskHint);
  if (name == "submit") return submit(args);
  if (name == "write_code") return write_code(args);
  if (name == "load_kernel") {
    if (auto why = check_arguments(*tool, args); !why.empty()) return error(name + ": " + why);
    return load_kernel(args);
  }
  return session_->call(name, args);
}

void McpToolbox::set_workspace(const std::filesystem::path& dir) {
  workspace_.emplace(dir);
}

void McpToolbox::set_max_cycles(uint64_t max_cycles) {
  max_cycles_ = max_cycles;
  if (locked_) {
    locked_->max_cycles = max_cycles;
    session_ = std::make_unique<ToolSession>(*locked_);
  }
}

void McpToolbox::set_submissions_log(const std::string& path, const std::string& session) {
  submissions_log_ = path;
  session_name_ = session;
}

ToolResult McpToolbox::write_code(const json& args) {
  json session_args = args;
  std::string name;
  if (args.contains("name")) {
    if (!args["name"].is_string()) return error("write_code: argument 'name' must be a string");
    name = args["name"];
    session_args.erase("name");
    if (!workspace_) return error(std::string("write_code: ") + kNoWorkspaceHint);
    if (auto why = KernelWorkspace::name_problem(name); !why.empty()) return error("write_code: " + why);
  }
  ToolResult r = session_->call("write_code", session_args);
  if (r.is_error || name.empty()) return r;
  try {
    workspace_->save(name, session_->code());
  } catch (const std::exception& e) {
    return error(fmt::format("write_code: the kernel is the current one, but was not saved as '{}': {}", name,
                             e.what()));
  }
  if (!r.text.empty() && r.text.back() != '\n') r.text += '\n';
  r.text += fmt::format("saved in the workspace as '{}'\n", name);
  r.data["saved_as"] = name;
  return r;
}

ToolResult McpToolbox::list_kernels() const {
  if (!workspace_) return error(std::string("list_kernels: ") + kNoWorkspaceHint);
  json kernels = json::array();
  std::string text;
  for (const auto& e : workspace_->list()) {
    kernels.push_back({{"name", e.name}, {"bytes", e.bytes}});
    text += fmt::format("{}  {} bytes\n", e.name, e.bytes);
  }
  if (text.empty()) text = "no kernels saved yet (write_code with a `name` saves one)\n";
  return ToolResult{text, false, json{{"kernels", kernels}}};
}

ToolResult McpToolbox::load_kernel(const json& args) {
  if (!workspace_) return error(std::string("load_kernel: ") + kNoWorkspaceHint);
  const std::string name = args["name"];
  std::string code;
  try {
    code = workspace_->load(name);
  } catch (const std::exception& e) {
    return error(std::string("load_kernel: ") + e.what());
  }
  json write_args = {{"code", code}};
  if (args.contains("language")) write_args["language"] = args["language"];
  ToolResult r = session_->call("write_code", write_args);
  if (r.is_error) return r;
  r.text = fmt::format("loaded '{}' as the current kernel\n", name) + r.text;
  r.data["loaded"] = name;
  return r;
}

void McpToolbox::record_submission(const json& score) const {
  if (submissions_log_.empty()) return;
  const TaskContext& c = session_->context();
  const json line = {
      {"time", std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch()).count()},
      {"session", session_name_},
      {"submission", submissions_},
      {"platform", c.platform},
      {"hw_config", c.hw_config},
      {"task", c.task},
      {"config", c.config},
      {"language", session_->language()},
      {"score", score},
      {"source", session_->code()}};
  const std::string text = line.dump(-1, ' ', false, json::error_handler_t::replace) + "\n";
  // One write() on an O_APPEND descriptor: the lines of concurrent sessions do not interleave, and the line
  // is on disk (fsync) before the client hears that its submission was scored.
  const int fd = ::open(submissions_log_.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0600);
  if (fd < 0) return;
  [[maybe_unused]] const ssize_t n = ::write(fd, text.data(), text.size());
  ::fsync(fd);
  ::close(fd);
}

ToolResult McpToolbox::list_tasks(const json& args) const {
  const std::string platform_name =
      args.value("platform", session_ ? session_->context().platform : default_platform_name());
  const Platform& platform = kcraft::platform(platform_name);  // throws naming the available ones
  const std::string hw =
      args.value("hw_config", session_ ? session_->context().hw_config : std::string("default"));
  platform.hw_config(hw);  // throws for an unknown name, listing the known ones
  json tasks_json = json::array();
  std::string text = fmt::format("{:<14} {:>5}  {:<40} support C1..C5 on {}/{}\n", "task", "level", "title",
                                 platform_name, hw);
  for (const auto& spec : task_registry().tasks()) {
    json support = json::object();
    std::string cells;
    const bool baseline = platform.has_baseline(spec.name);
    for (const auto& config : spec.config_names()) {
      auto cfg = spec.resolve(config, platform.dtype());
      const std::string why = platform.unsupported_reason(cfg, hw);
      support[config] = why.empty() ? (baseline ? "baseline" : "supported") : why;
      cells += why.empty() ? (baseline ? "B " : "s ") : "- ";
    }
    json j = tasks::task_summary_json(spec);
    j["support"] = support;
    tasks_json.push_back(std::move(j));
    text += fmt::format("{:<14} {:>5}  {:<40} {}\n", spec.name, spec.level, spec.title, cells);
  }
  text += "B = runs, with a baseline kernel to beat; s = runs; - = not supported on this hardware\n";
  json hw_json = json::array();
  text += "hardware configurations:\n";
  for (const auto& c : platform.hw_configs()) {
    hw_json.push_back({{"name", c.name}, {"description", c.description}});
    text += fmt::format("  {:<12} {}\n", c.name, c.description);
  }
  if (locked_) text += fmt::format("this server is fixed to {}\n", context_name(*locked_));
  return ToolResult{
      text, false,
      json{{"platform", platform_name}, {"hw_config", hw}, {"tasks", tasks_json}, {"hw_configs", hw_json}}};
}

ToolResult McpToolbox::select_task(const json& args) {
  TaskContext ctx;
  ctx.task = args["task"];
  ctx.config = args.value("config", "C1");
  ctx.hw_config = args.value("hw_config", "default");
  ctx.platform = args.value("platform", default_platform_name());
  ctx.dev_seed = args.value("seed", uint64_t{1});
  ctx.docs = docs_;
  ctx.max_cycles = max_cycles_;
  if (locked_) {
    const TaskContext& l = *locked_;
    const bool same = ctx.task == l.task && ctx.config == l.config && ctx.hw_config == l.hw_config &&
                      ctx.platform == l.platform && (!args.contains("seed") || ctx.dev_seed == l.dev_seed);
    if (!same) {
      return error(
          fmt::format("select_task: this server is fixed to {} (kcraft mcp --task); select that task to "
                      "start over, or just keep working on it",
                      context_name(l)));
    }
    ctx = l;
  }
  auto session = std::make_unique<ToolSession>(ctx);  // throws for an unknown or unsupported task
  std::string text = fmt::format(
      "selected {}. Next: write_code, check_syntax, run_eval; submit when it passes "
      "and is fast.\n\n",
      context_name(ctx));
  text += task_text(ctx);
  session_ = std::move(session);
  return ToolResult{text, false,
                    json{{"task", ctx.task},
                         {"config", ctx.config},
                         {"hw_config", ctx.hw_config},
                         {"platform", ctx.platform},
                         {"seed", ctx.dev_seed}}};
}

ToolResult McpToolbox::show_task(const json& args) const {
  TaskContext ctx;
  if (args.contains("task")) {
    ctx.task = args["task"];
    ctx.config = args.value("config", "C1");
    ctx.hw_config = args.value("hw_config", "default");
  } else if (args.contains("config") || args.contains("hw_config")) {
    return error(
        "show_task: `config` and `hw_config` need `task` (without arguments it shows the selected task)");
  } else if (session_) {
    ctx = session_->context();
  } else {
    return error(std::string("show_task: ") + kNoTaskHint + " (or pass `task` to look at one)");
  }
  std::string text = task_text(ctx) + "\n" + hardware_summary(ctx.platform, ctx.hw_config);
  const Platform& platform = kcraft::platform(ctx.platform);
  auto cfg = task_registry().get(ctx.task).resolve(ctx.config, platform.dtype());
  const std::string why = platform.unsupported_reason(cfg, ctx.hw_config);
  if (!why.empty()) text += "\nNOT SUPPORTED on this hardware configuration: " + why + "\n";
  return ToolResult{text, false,
                    json{{"task", ctx.task},
                         {"config", ctx.config},
                         {"hw_config", ctx.hw_config},
                         {"supported", why.empty()}}};
}

ToolResult McpToolbox::read_docs(const json& args) const {
  const std::string document = args["document"];
  const TaskContext ctx = session_ ? session_->context() : TaskContext{};
  std::string text;
  if (document == "platform_guide" && !serves_guide(docs_)) {
    return error(fmt::format(
        "read_docs: this server's documentation level is {}: the ISA reference (\"isa_reference\") and the "
        "hardware (\"hardware\") only, no platform guide",
        docs_level_name(docs_)));
  }
  if (document == "platform_guide") {
    text = platform_guide(ctx.platform);
  } else if (document == "isa_reference") {
    text = isa_reference(ctx.platform);
  } else {
    text = hardware_summary(ctx.platform, ctx.hw_config);
  }
  const size_t offset = args.value("offset", size_t{0});
  if (offset >= text.size()) {
    return error(fmt::format("read_docs: offset {} is past the end of {} ({} characters)", offset, document,
                             text.size()));
  }
  size_t next = 0;
  std::string page = page_of(text, offset, &next);
  json data = {{"document", document}, {"offset", offset}, {"total_chars", text.size()}};
  if (next != 0) {
    page += fmt::format("\n[{}: characters {}..{} of {}; call read_docs with offset {} for the rest]\n",
                        document, offset, next, text.size(), next);
    data["next_offset"] = next;
  }
  return ToolResult{page, false, data};
}

ToolResult McpToolbox::submit(const json& args) {
  ToolResult r = session_->call("submit", args);
  if (r.is_error || !score_on_submit_) return r;
  ++submissions_;
  const Score score = score_kernel(session_->context(), session_->code(), session_->language());
  r.text = format_score(score, submissions_);
  r.data = {{"submitted", true}, {"submission", submissions_}, {"score", score.to_json()}};
  if (!session_name_.empty()) r.data["session"] = session_name_;  // as the results file names it
  record_submission(r.data["score"]);
  return r;
}

ToolResult McpToolbox::codesign(const json& args, bool propose) const {
  namespace cd = bench::codesign;
  auto list = [](const std::string& text) {
    std::vector<std::string> out;
    std::string part;
    for (char c : text + ",") {
      if (c == ',') {
        if (!part.empty()) out.push_back(part);
        part.clear();
      } else if (c != ' ') {
        part += c;
      }
    }
    return out;
  };
  cd::RunOptions o;
  o.platform = args.at("platform").get<std::string>();
  o.hw = args.value("hw_config", std::string("default"));
  // A client of kcraft serve (a session with a workspace) names no file of the server's: the server's own
  // results store is used.
  if (workspace_ && args.contains("db"))
    throw std::invalid_argument("db: a kcraft serve session cannot name a file; the server's store is used");
  o.db = args.value("db", std::string("results/kcraft.db"));
  const auto configs = list(args.value("configs", std::string("C1")));
  if (args.contains("workload") && args.contains("tasks"))
    throw std::invalid_argument("give workload or tasks, not both");
  if (args.contains("workload")) {
    o.workload = cd::parse_workload(args["workload"].get<std::string>(), "workload", configs);
  } else if (args.contains("tasks")) {
    for (const auto& t : list(args["tasks"].get<std::string>())) {
      for (const auto& c : configs) o.workload.push_back({t, c, 1.0});
    }
  } else {
    o.workload = cd::default_workload(task_registry(), configs);
  }
  std::ostringstream log;
  const cd::WeightedProfile profile = cd::run_workload(o, task_registry(), log);
  if (profile.runs.empty()) {
    std::string why = "no task of the workload has a passing kernel";
    for (const auto& s : profile.skipped) why += "\n  " + s;
    return error(why);
  }
  if (!propose) return ToolResult{cd::profile_text(profile), false, cd::profile_json(profile)};
  auto candidates = cd::propose(profile);
  cd::fill_cells_added(profile, candidates);
  return ToolResult{cd::candidates_text(profile, candidates), false,
                    cd::candidates_json(profile, candidates)};
}

}  // namespace kcraft::agent::mcp
