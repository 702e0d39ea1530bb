#include "agent/common/agent_run.h"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <fstream>
#include <sstream>

#include "agent/common/environment.h"
#include "agent/library/library.h"
#include "tb/common/paths.h"

namespace kcraft::agent {

namespace {

using nlohmann::json;

std::string read_template(const std::string& name) {
  const auto path = root() / "agent" / "prompts" / name;
  std::ifstream in(path);
  if (!in) throw std::runtime_error("cannot read prompt template " + path.string());
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

std::string fill(std::string text, const std::vector<std::pair<std::string, std::string>>& values) {
  for (const auto& [key, value] : values) {
    const std::string placeholder = "{{" + key + "}}";
    for (size_t at = text.find(placeholder); at != std::string::npos;
         at = text.find(placeholder, at + value.size())) {
      text.replace(at, placeholder.size(), value);
    }
  }
  return text;
}

// The language's name as recorded: "" means the platform's default, whose name is recorded.
std::string language_name(const std::string& platform_name, const std::string& language) {
  const Platform* p = find_platform(platform_name);
  if (p == nullptr || !language.empty()) return language;
  return p->language("").name;
}

// The platform's kernel languages as prompt bullets.
std::string languages_list(const std::string& platform_name) {
  std::string out;
  std::istringstream lines(platform(platform_name).languages_text());
  for (std::string line; std::getline(lines, line);) out += (out.empty() ? "  - " : "\n  - ") + line;
  return out;
}

}  // namespace

json usage_json(const Usage& u) {
  return {{"prompt_tokens", u.prompt_tokens},
          {"completion_tokens", u.completion_tokens},
          {"reasoning_tokens", u.reasoning_tokens},
          {"cached_prompt_tokens", u.cached_prompt_tokens}};
}

unsigned default_iterations(int level) {
  return level <= 1 ? 15 : (level == 2 ? 20 : 25);
}

json AgentResult::to_json() const {
  json j = {{"agent", agent},
            {"platform", context.platform},
            {"hw_config", context.hw_config},
            {"task", context.task},
            {"config", context.config},
            {"status", status},
            {"language", language_name(context.platform, final_language)},
            {"iterations", iterations},
            {"budget", budget},
            {"evaluations", evaluations},
            {"tokens", usage_json(tokens)},
            {"wall_seconds", wall_seconds},
            {"score", score.to_json()},
            {"docs", docs_level_name(context.docs)}};
  if (!workflow.empty()) {
    j["workflow"] = workflow;
    j["steps"] = steps;
    json per_role = json::object();
    for (const auto& [name, use] : roles) {
      per_role[name] = {{"steps", use.steps}, {"calls", use.calls}, {"tokens", usage_json(use.tokens)}};
    }
    j["roles"] = per_role;
  }
  j["first_valid_iteration"] = first_valid_iteration ? json(*first_valid_iteration) : json(nullptr);
  j["first_pass_iteration"] = first_pass_iteration ? json(*first_pass_iteration) : json(nullptr);
  if (!error.empty()) j["error"] = error;
  if (tuned_baseline) j["tuned_baseline"] = tuned_baseline->to_json();
  if (!context.port_from.empty()) j["port_from"] = context.port_from.to_json();
  // The benchmark rule's exception is always visible in the result: a run allowed to see kernels of the
  // very cell it is scored on says so, and how many it was shown.
  if (!context.library.empty()) {
    j["library"] = {{"file", context.library},
                    {"allows_scored_cell", context.library_allows_scored_cell},
                    {"scored_cell_examples", scored_cell_examples}};
  }
  return j;
}

std::string AgentResult::summary() const {
  std::string s = fmt::format("{} on {} {} ({}/{}): {} after {}/{} iterations, {} evaluations, {:.1f} s\n",
                              agent, context.task, context.config, context.platform, context.hw_config,
                              status, iterations, budget, evaluations, wall_seconds);
  if (!error.empty()) s += "  stopped: " + error + "\n";
  if (context.docs != DocsLevel::kFull)
    s += fmt::format("  documentation level: {}\n", docs_level_name(context.docs));
  if (!context.port_from.empty()) {
    s +=
        fmt::format("  ported from a {} kernel ({})\n", context.port_from.platform, context.port_from.origin);
  }
  if (context.library_allows_scored_cell) {
    s += fmt::format("  kernel library: examples of this very task+configuration were ALLOWED ({} shown)\n",
                     scored_cell_examples);
  }
  s += fmt::format("  first valid kernel: {}, first passing kernel: {}\n",
                   first_valid_iteration ? fmt::format("iteration {}", *first_valid_iteration) : "never",
                   first_pass_iteration ? fmt::format("iteration {}", *first_pass_iteration) : "never");
  if (tokens.prompt_tokens + tokens.completion_tokens > 0) {
    s += fmt::format("  tokens: {} prompt, {} completion, {} reasoning\n", tokens.prompt_tokens,
                     tokens.completion_tokens, tokens.reasoning_tokens);
  }
  if (!workflow.empty() && workflow != "single") {
    s += fmt::format("  workflow {}: {} steps;", workflow, steps);
    for (const auto& [name, use] : roles) {
      s += fmt::format(" {} {} steps {} calls {} tokens;", name, use.steps, use.calls,
                       use.tokens.prompt_tokens + use.tokens.completion_tokens);
    }
    s.back() = '\n';
  }
  s += fmt::format("  score on hidden inputs: {}", verdict_name(score.verdict));
  if (score.verdict == Verdict::kPass) {
    s += fmt::format(", {} cycles", score.cycles);
    if (score.baseline_cycles > 0)
      s += fmt::format(" vs baseline {} = speedup {:.3f}x", score.baseline_cycles, score.speedup);
    if (score.compiler_baseline_cycles > 0) {
      s += fmt::format("; vs compiler baseline {} = {:.3f}x", score.compiler_baseline_cycles,
                       score.compiler_speedup);
    }
    // The speedup over the autotuned baseline shows how much of the gain a weak default explains.
    if (score.tuned_baseline_cycles && *score.tuned_baseline_cycles > 0) {
      s += fmt::format("; vs tuned baseline {} = {:.3f}x", *score.tuned_baseline_cycles, score.tuned_speedup);
    }
  } else {
    for (const auto& seed : score.seeds) {
      if (seed.verdict != Verdict::kPass) {
        s += fmt::format(" (seed {}: {})", seed.seed, seed.headline);
        break;
      }
    }
  }
  s += "\n";
  if (tuned_baseline) {
    s += fmt::format("  tuned baseline ({}): {}\n", tuned_baseline->origin, tuned_baseline->detail);
  }
  return s;
}

std::string render_prompt(const std::string& template_name, const TaskContext& ctx, unsigned budget,
                          const std::vector<std::pair<std::string, std::string>>& extra) {
  const std::string text = read_template(template_name);
  auto uses = [&](const char* key) { return text.find(std::string("{{") + key + "}}") != std::string::npos; };
  // Only the documents a template names are rendered (the ISA reference is long).
  std::vector<std::pair<std::string, std::string>> values = {{"platform", ctx.platform},
                                                             {"budget", std::to_string(budget)}};
  if (uses("languages")) values.emplace_back("languages", languages_list(ctx.platform));
  if (uses("hardware")) values.emplace_back("hardware", hardware_summary(ctx.platform, ctx.hw_config));
  if (uses("platform_guide"))
    values.emplace_back("platform_guide", prompt_platform_guide(ctx.platform, ctx.docs));
  if (uses("isa_reference")) values.emplace_back("isa_reference", isa_reference(ctx.platform));
  if (uses("task")) values.emplace_back("task", task_text(ctx));
  if (uses("composition")) values.emplace_back("composition", composition_hint(ctx));
  values.insert(values.end(), extra.begin(), extra.end());
  return fill(text, values);
}

std::string system_prompt(const TaskContext& ctx, unsigned budget) {
  return render_prompt("system.md", ctx, budget);
}

// For a composite task (its spec's composed_of): where the agent finds help for the parts, the docs always
// and the kernel library's passing kernels of those tasks when the run has one. Empty otherwise.
std::string composition_hint(const TaskContext& ctx) {
  const tasks::TaskSpec& spec = task_registry().get(ctx.task);
  if (spec.composed_of.empty()) return "";
  std::string parts;
  for (const auto& part : spec.composed_of) parts += (parts.empty() ? "" : ", ") + part;
  std::string hint = fmt::format(
      "This is a level-{} task built from the tasks {}. `search_docs` with their names finds how each is "
      "done "
      "on {}; build the kernel from those pieces first, then make it fast.",
      spec.level, parts, ctx.platform);
  if (!ctx.library.empty() && serves_examples(ctx.docs)) {
    hint += fmt::format(
        " `find_examples` with a part's name (e.g. \"{}\") returns passing kernels of it on this platform "
        "from "
        "the kernel library, earlier runs' own kernels among them.",
        spec.composed_of.front());
  }
  return hint + "\n";
}

std::string user_prompt(const TaskContext& ctx) {
  return fill(read_template("user.md"),
              {{"platform", ctx.platform}, {"task", task_text(ctx)}, {"composition", composition_hint(ctx)}});
}

json PortSource::to_json() const {
  return {{"platform", platform}, {"origin", origin}, {"language", language}, {"cycles", cycles}};
}

PortSource load_port_source(const std::string& from, const std::string& file,
                            const std::string& run_platform) {
  const Platform* p = find_platform(from);
  if (p == nullptr) {
    std::string known;
    for (const auto& name : platform_names()) known += (known.empty() ? "" : ", ") + name;
    throw std::invalid_argument(
        fmt::format("--port-from: unknown platform '{}' (available: {})", from, known));
  }
  if (from == run_platform) {
    throw std::invalid_argument(fmt::format(
        "--port-from: the kernel must come from another platform than the run's ({}): porting is across "
        "instruction sets",
        run_platform));
  }
  PortSource port;
  port.platform = from;
  port.origin = file;
  try {
    port.language = p->language_of_file(file).name;
  } catch (const std::invalid_argument& e) {
    throw std::invalid_argument(fmt::format("--port-from {}: {}", file, e.what()));
  }
  std::ifstream in(file);
  if (!in) throw std::invalid_argument(fmt::format("--port-from: cannot read the kernel file {}", file));
  std::ostringstream ss;
  ss << in.rdbuf();
  port.source = ss.str();
  if (port.source.find_first_not_of(" \t\r\n") == std::string::npos)
    throw std::invalid_argument(fmt::format("--port-from: the kernel file {} is empty", file));
  return port;
}

PortSource parse_port_from(const std::string& text, const std::string& run_platform) {
  const auto colon = text.find(':');
  if (colon == std::string::npos || colon == 0 || colon + 1 == text.size()) {
    throw std::invalid_argument("--port-from expects PLATFORM:KERNEL_FILE, got '" + text + "'");
  }
  return load_port_source(text.substr(0, colon), text.substr(colon + 1), run_platform);
}

std::string port_prompt(const TaskContext& ctx) {
  const PortSource& port = ctx.port_from;
  if (port.empty()) return "";
  // The other platform's guide outline (two heading levels under its title) names the concepts its kernel
  // relies on.
  std::string outline;
  try {
    std::vector<std::vector<std::string>> paths;
    for (const auto& section : library::split_sections("", platform_guide(port.platform))) {
      std::vector<std::string> parts;
      for (size_t at = 0; (at = section.path.find(" > ", at)) != std::string::npos;) {
        at += 3;
        parts.push_back(section.path.substr(at, section.path.find(" > ", at) - at));
      }
      if (!parts.empty()) paths.push_back(std::move(parts));
    }
    const bool one_title = !paths.empty() && std::all_of(paths.begin(), paths.end(), [&](const auto& p) {
      return p.front() == paths.front().front();
    });
    for (auto& parts : paths) {
      if (one_title) parts.erase(parts.begin());
      if (parts.empty() || parts.size() > 2) continue;
      outline += "- " + parts.front() + (parts.size() == 2 ? " > " + parts.back() : "") + "\n";
    }
  } catch (const std::exception&) {
    outline = "(its guide could not be read)\n";
  }
  const std::string language = language_name(port.platform, port.language);
  std::string text = fmt::format(
      "# Starting point: a kernel of this task for another platform\n\n"
      "The kernel below solves this same task ({} {}) on the platform `{}`, written in its language `{}`, "
      "and passes there on hidden inputs{}. It is not {} code: `{}` has another instruction set, other units "
      "and memories, and its own DRAM layout. Port its approach (the tiling, the data movement, the loop "
      "structure, the numerics) to {}, using {}'s instructions, and the DRAM addresses and symbols given "
      "above for this task.\n\n",
      ctx.task, ctx.config, port.platform, language,
      port.cycles > 0 ? fmt::format(" in {} cycles", port.cycles) : "", ctx.platform, port.platform,
      ctx.platform, ctx.platform);
  // A platform guide (even another platform's) is above the `isa` level.
  if (serves_guide(ctx.docs)) {
    text += fmt::format("The sections of the `{}` platform guide, for the names its kernel uses:\n{}\n",
                        port.platform, outline);
  }
  text += fmt::format("```{}\n{}{}```\n", language, port.source,
                      port.source.empty() || port.source.back() == '\n' ? "" : "\n");
  return text;
}

void record_progress(AgentResult& result, unsigned iteration, const std::string& tool, const ToolResult& r) {
  if (r.is_error) return;
  const bool assembled = (tool == "check_syntax" && r.data.value("ok", false)) ||
                         (tool == "run_eval" && r.data.value("verdict", "") != "build_error") ||
                         (tool == "get_inst_size" && r.data.value("ok", false));
  if (assembled && !result.first_valid_iteration) result.first_valid_iteration = iteration;
  if (tool == "run_eval" && r.data.value("verdict", "") == "pass" && !result.first_pass_iteration) {
    result.first_pass_iteration = iteration;
  }
}

void finish_run(AgentResult& result, Transcript& transcript) {
  if (result.final_code.empty()) {
    result.status = result.status == "submitted" ? "no_kernel" : result.status;
    result.score.verdict = Verdict::kBuildError;
  } else {
    result.score = score_kernel(result.context, result.final_code, result.final_language);
  }
  transcript.write({{"type", "score"},
                    {"score", result.score.to_json()},
                    {"code", result.final_code},
                    {"language", language_name(result.context.platform, result.final_language)}});
  transcript.write({{"type", "run_end"}, {"result", result.to_json()}});
}

}  // namespace kcraft::agent
