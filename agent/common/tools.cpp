#include "agent/common/tools.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <fstream>
#include <sstream>
#include <stdexcept>

#include "agent/common/environment.h"
#include "agent/common/eval_cache.h"
#include "agent/library/library.h"
#include "tasks/common/render.h"
#include "tb/common/paths.h"

namespace kcraft::agent {

namespace {

using nlohmann::json;

constexpr size_t kMaxCodeBytes = 512 * 1024;

json object_schema(json properties, std::vector<std::string> required = {}) {
  // `{}` arrives as null: a schema needs an (empty) object, or strict clients reject the tool list.
  if (properties.is_null()) properties = json::object();
  json s = {{"type", "object"}, {"properties", std::move(properties)}, {"additionalProperties", false}};
  if (!required.empty()) s["required"] = required;
  return s;
}

ToolResult error(std::string text) {
  return ToolResult{std::move(text), true, json{{"error", true}}};
}

std::string lower(std::string s) {
  for (auto& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

// Validates arguments against the tool's schema: required fields present, types right, no unknown
// fields. Returns an error message or "".
std::string check_arguments(const ToolSchema& schema, const json& args) {
  if (!args.is_object()) return "arguments must be a JSON object";
  const json& props = schema.parameters["properties"];
  for (const auto& [key, value] : args.items()) {
    if (!props.contains(key)) {
      std::string known;
      for (const auto& [k, v] : props.items()) known += (known.empty() ? "" : ", ") + k;
      return fmt::format("unknown argument '{}' (arguments of {}: {})", key, schema.name,
                         known.empty() ? "none" : known);
    }
    const std::string type = props[key]["type"];
    const bool ok = (type == "string" && value.is_string()) ||
                    (type == "integer" && value.is_number_integer()) ||
                    (type == "boolean" && value.is_boolean());
    if (!ok) return fmt::format("argument '{}' must be a {}, got {}", key, type, value.type_name());
  }
  if (schema.parameters.contains("required")) {
    for (const auto& r : schema.parameters["required"]) {
      if (!args.contains(r.get<std::string>()))
        return fmt::format("missing required argument '{}'", r.get<std::string>());
    }
  }
  return "";
}

std::string read_text(const std::filesystem::path& p) {
  std::ifstream in(p);
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

}  // namespace

std::string truncate_for_model(const std::string& text, size_t limit) {
  if (text.size() <= limit) return text;
  size_t cut = text.rfind('\n', limit);
  if (cut == std::string::npos || cut < limit / 2) cut = limit;
  return text.substr(0, cut) +
         fmt::format("\n[... truncated: {} more characters not shown; ask a narrower question]\n",
                     text.size() - cut);
}

std::string isa_reference(const std::string& platform_name) {
  return platform(platform_name).isa_reference();
}

std::string platform_guide(const std::string& platform_name) {
  return read_text(platform(platform_name).guide_path());
}

const char* docs_level_name(DocsLevel level) {
  switch (level) {
    case DocsLevel::kIsa:
      return "isa";
    case DocsLevel::kGuide:
      return "guide";
    case DocsLevel::kFull:
      return "full";
  }
  return "full";
}

const std::vector<std::string>& docs_level_names() {
  static const std::vector<std::string> names = {"isa", "guide", "full"};
  return names;
}

DocsLevel parse_docs_level(const std::string& text) {
  for (DocsLevel level : {DocsLevel::kIsa, DocsLevel::kGuide, DocsLevel::kFull}) {
    if (text == docs_level_name(level)) return level;
  }
  throw std::invalid_argument(fmt::format(
      "unknown documentation level '{}' (the levels: isa = the ISA reference only, guide = plus the platform "
      "guide, full = plus example kernels of other tasks from the kernel library)",
      text));
}

std::vector<NamedDocument> served_documents(const std::string& platform_name, DocsLevel docs) {
  std::vector<NamedDocument> out = {{"ISA reference", isa_reference(platform_name)}};
  if (serves_guide(docs)) out.push_back({"platform guide", platform_guide(platform_name)});
  return out;
}

std::string prompt_platform_guide(const std::string& platform_name, DocsLevel docs) {
  if (serves_guide(docs)) return platform_guide(platform_name);
  // The templates keep their heading; the model learns why nothing follows it.
  return "(Not part of this run's documentation: you have the ISA reference below and nothing else.)";
}

namespace {

// The documents a run serves, as the tools name them in their messages.
std::string documents_phrase(DocsLevel docs) {
  return serves_guide(docs) ? "the ISA reference or the platform guide" : "the ISA reference";
}

}  // namespace

std::string hardware_summary(const std::string& platform_name, const std::string& hw) {
  const Platform& p = platform(platform_name);
  const HwConfig& c = p.hw_config(hw);
  std::string out = fmt::format("Hardware configuration {}/{}: {}\n", p.name(), c.name, c.description);
  // Build parameters one per line, then the runtime settings together on one line.
  std::string runtime;
  for (const auto& row : p.hw_parameters(hw)) {
    const std::string item =
        fmt::format("{} = {}{}", row.name, row.value, row.unit.empty() ? "" : " " + row.unit);
    if (row.kind == HwParameter::Kind::kBuild) {
      out += "  " + item + "\n";
    } else {
      runtime += (runtime.empty() ? "" : ", ") + item;
    }
  }
  if (!runtime.empty()) out += "  " + runtime + "\n";
  return out;
}

std::string task_text(const TaskContext& ctx) {
  const Platform& platform = kcraft::platform(ctx.platform);
  const auto& spec = task_registry().get(ctx.task);
  auto cfg = spec.resolve(ctx.config, platform.dtype());
  auto layout = platform.layout(cfg);
  std::string out = tasks::render_task(spec, ctx.config, platform.dtype(), layout);
  // Each of the platform's languages sees the symbols: assembler symbols, or macros for C.
  std::string kinds;
  for (const auto& language : platform.languages()) {
    const std::string kind = language.name == "c" ? "C macros" : "assembler symbols";
    if (kinds.find(kind) == std::string::npos) kinds += (kinds.empty() ? "" : " and ") + kind;
  }
  out += fmt::format("\nPredefined symbols, as {} ({}/{}):\n", kinds, platform.name(), ctx.hw_config);
  std::string line;
  for (const auto& [name, value] : platform.symbols(ctx.hw_config, &cfg, &layout)) {
    // Addresses in hex, as memory maps and disassembly show them.
    std::string item = name.rfind("ADDR_", 0) == 0 ? fmt::format("{}=0x{:x}", name, value)
                                                   : fmt::format("{}={}", name, value);
    if (line.size() + item.size() > 96) {
      out += "  " + line + "\n";
      line.clear();
    }
    line += (line.empty() ? "" : "  ") + item;
  }
  if (!line.empty()) out += "  " + line + "\n";
  out += platform.symbols_note(cfg);
  return out;
}

ToolSession::ToolSession(TaskContext context) : context_(std::move(context)) {
  const Platform& p = platform(context_.platform);
  const auto& spec = task_registry().get(context_.task);
  auto cfg = spec.resolve(context_.config, p.dtype());
  if (auto why = p.unsupported_reason(cfg, context_.hw_config); !why.empty()) {
    throw std::invalid_argument(fmt::format("{} {} is not supported on {}/{}: {}", context_.task,
                                            context_.config, p.name(), context_.hw_config, why));
  }
  language_ = p.language("").name;
}

namespace {

const char* const kLanguageDescription =
    "kernel language, one of the platform's (the system prompt lists them); default: its first";

}  // namespace

const std::vector<ToolSchema>& ToolSession::schemas() {
  static const std::vector<ToolSchema> tools = {
      {"write_code",
       "Save the kernel source (the whole file, in one of the platform's languages). It replaces the "
       "previous version; the other tools work on the saved kernel.",
       object_schema({{"code", {{"type", "string"}, {"description", "complete kernel source"}}},
                      {"language", {{"type", "string"}, {"description", kLanguageDescription}}}},
                     {"code"})},
      {"check_syntax",
       "Build the saved kernel (or `code` if given, without saving it) and report errors and warnings "
       "with "
       "line:column and hints. Does not run anything.",
       object_schema({{"code", {{"type", "string"}, {"description", "optional source to check instead"}}},
                      {"language",
                       {{"type", "string"},
                        {"description",
                         "language of `code` (default: the saved kernel's, else the platform's first)"}}}})},
      {"run_eval",
       "Run the saved kernel on the cycle-accurate RTL with the task's inputs and compare with the "
       "reference: "
       "pass/fail, share of output elements within tolerance, cycles, utilisation; runtime errors and hangs "
       "with the PC and instruction.",
       object_schema({})},
      {"view_output",
       "After run_eval: where the output is wrong. Per-row error statistics and the worst elements with "
       "their "
       "indices, output value and reference.",
       object_schema({{"output", {{"type", "string"}, {"description", "output tensor name (default: all)"}}},
                      {"max_rows", {{"type", "integer"}, {"description", "rows to list (default 16)"}}}})},
      {"grep_docs",
       "Search the ISA reference and the platform guide. An instruction mnemonic returns its full entry "
       "(syntax, encoding, semantics, latency, example); other words return matching lines with context.",
       object_schema({{"query", {{"type", "string"}, {"description", "mnemonic, word or phrase"}}},
                      {"max_results", {{"type", "integer"}, {"description", "default 8"}}}},
                     {"query"})},
      {"search_docs",
       "Find the sections of the ISA reference and the platform guide most relevant to a question (full-text "
       "ranking). Returns whole sections, each with its heading path.",
       object_schema(
           {{"query", {{"type", "string"}, {"description", "words describing what you look for"}}},
            {"max_results", {{"type", "integer"}, {"description", "sections to return (default 4)"}}}},
           {"query"})},
      {"find_examples",
       "Passing kernels of OTHER tasks or configurations on this platform from the kernel library, most "
       "relevant first, with their cycles. Never the task and configuration you are solving.",
       object_schema(
           {{"query",
             {{"type", "string"},
              {"description",
               "words to search task names, descriptions and sources for (default: "
               "the task you are solving)"}}},
            {"max_results", {{"type", "integer"}, {"description", "kernels to return (default 2)"}}}})},
      {"get_inst_size", "Number of instruction words of the saved kernel and the instruction memory size.",
       object_schema({})},
      {"profile",
       "After run_eval: where the cycles of the last run went. Counters (busy and stall cycles per unit and "
       "cause, DRAM bytes, MACs), utilisation against the ideal and the attainable bound, and a timeline "
       "summary: busy windows per unit, how much DMA overlapped compute, the longest stalls with their cause "
       "and instruction.",
       object_schema({})},
      {"submit",
       "Submit the saved kernel as your final answer. It is then scored on inputs you have not seen.",
       object_schema({})},
  };
  return tools;
}

std::vector<ToolSchema> ToolSession::schemas_for(const std::string& platform_name, DocsLevel docs) {
  const Platform& p = platform(platform_name);
  const auto languages = p.languages();
  std::string choices;
  for (const auto& l : languages) {
    std::string extensions;
    for (const auto& e : l.extensions) extensions += (extensions.empty() ? "" : ", ") + e;
    choices +=
        fmt::format("{}\"{}\" ({}: {})", choices.empty() ? "" : "; ", l.name, extensions, l.description);
  }
  std::vector<ToolSchema> tools = schemas();
  for (auto& t : tools) {
    auto& props = t.parameters["properties"];
    if (!props.is_object() || !props.contains("language")) continue;
    props["language"]["description"] = (t.name == "write_code" ? "kernel language (default \""
                                                               : "language of `code` (default: the saved "
                                                                 "kernel's, else \"") +
                                       languages.front().name + "\"): " + choices;
    json names = json::array();
    for (const auto& l : languages) names.push_back(l.name);
    props["language"]["enum"] = names;
  }
  // At `isa` there is no guide to search, and below `full` no examples: the descriptions say so.
  for (auto& t : tools) {
    if (!serves_guide(docs) && t.name == "grep_docs") {
      t.description =
          "Search the ISA reference. An instruction mnemonic returns its full entry (syntax, encoding, "
          "semantics, latency, example); other words return matching lines with context.";
    } else if (!serves_guide(docs) && t.name == "search_docs") {
      t.description =
          "Find the sections of the ISA reference most relevant to a question (full-text ranking). Returns "
          "whole sections, each with its heading path.";
    } else if (!serves_examples(docs) && t.name == "find_examples") {
      t.description = "Not available in this run: its documentation has no example kernels.";
    }
  }
  return tools;
}

bool ToolSession::has_tool(const std::string& name) {
  const auto& s = schemas();
  return std::any_of(s.begin(), s.end(), [&](const ToolSchema& t) { return t.name == name; });
}

ToolResult ToolSession::call_text(const std::string& name, const std::string& arguments) {
  json args = json::object();
  const bool blank = std::all_of(arguments.begin(), arguments.end(),
                                 [](char c) { return std::isspace(static_cast<unsigned char>(c)); });
  if (!blank) {
    try {
      args = json::parse(arguments);
    } catch (const json::exception& e) {  // parse_error, and out_of_range for a number like 1e999
      return error(
          fmt::format("the arguments of {} are not valid JSON ({}); send a JSON object such as "
                      "{{\"code\": \"...\"}}",
                      name, e.what()));
    }
  }
  return call(name, args);
}

ToolResult ToolSession::call(const std::string& name, const json& args) {
  const auto& all = schemas();
  auto it = std::find_if(all.begin(), all.end(), [&](const ToolSchema& t) { return t.name == name; });
  if (it == all.end()) {
    std::string known;
    for (const auto& t : all) known += (known.empty() ? "" : ", ") + t.name;
    return error(fmt::format("unknown tool '{}'; the tools are: {}", name, known));
  }
  if (auto why = check_arguments(*it, args); !why.empty()) return error(name + ": " + why);
  if (name == "write_code") return write_code(args);
  if (name == "check_syntax") return check_syntax(args);
  if (name == "run_eval") return run_eval(args);
  if (name == "view_output") return view_output(args);
  if (name == "grep_docs") return grep_docs(args);
  if (name == "search_docs") return search_docs(args);
  if (name == "find_examples") return find_examples(args);
  if (name == "get_inst_size") return get_inst_size(args);
  if (name == "profile") return profile(args);
  return submit(args);
}

namespace {

// The language a tool call names (its `language` argument, else `fallback`), or the error to return.
std::optional<ToolResult> check_language(const std::string& tool, const std::string& platform_name,
                                         const json& args, std::string& language) {
  if (!args.contains("language")) return std::nullopt;
  try {
    language = platform(platform_name).language(args["language"].get<std::string>()).name;
  } catch (const std::invalid_argument& e) {
    return error(tool + ": " + e.what());
  }
  return std::nullopt;
}

}  // namespace

ToolResult ToolSession::write_code(const json& args) {
  std::string code = args["code"];
  std::string language = platform(context_.platform).language("").name;
  if (auto bad = check_language("write_code", context_.platform, args, language)) return *bad;
  if (code.empty()) return error("write_code: the code is empty");
  if (code.size() > kMaxCodeBytes)
    return error(fmt::format("write_code: {} bytes is more than the {} allowed", code.size(), kMaxCodeBytes));
  code_ = std::move(code);
  language_ = std::move(language);
  const auto lines = std::count(code_.begin(), code_.end(), '\n') + (code_.back() == '\n' ? 0 : 1);
  return ToolResult{
      fmt::format("saved {} ({} lines)", platform(context_.platform).kernel_file_name(language_), lines),
      false, json{{"lines", lines}}};
}

namespace {

struct Assembled {
  isa::AssembleResult result;
  std::string text;
};

// `check`: the platform's check (check_syntax: everything a build can tell, instructions the hardware does
// not run included); otherwise the build alone (get_inst_size).
Assembled assemble_for(const TaskContext& ctx, const std::string& code, const std::string& language,
                       bool check = false) {
  const Platform& platform = kcraft::platform(ctx.platform);
  auto cfg = task_registry().get(ctx.task).resolve(ctx.config, platform.dtype());
  auto layout = platform.layout(cfg);
  const auto symbols = platform.symbols(ctx.hw_config, &cfg, &layout);
  const std::string file = platform.kernel_file_name(language);
  Assembled a;
  a.result = check ? platform.check(code, file, symbols) : platform.assemble(code, file, symbols);
  a.text = isa::format_diagnostics(a.result, code);
  return a;
}

}  // namespace

ToolResult ToolSession::check_syntax(const json& args) {
  const std::string& code = args.contains("code") ? args["code"].get_ref<const std::string&>() : code_;
  std::string language = language_;
  if (auto bad = check_language("check_syntax", context_.platform, args, language)) return *bad;
  if (code.empty()) return error("check_syntax: no kernel yet; call write_code first (or pass `code`)");
  auto a = assemble_for(context_, code, language, /*check=*/true);
  const auto imem = platform(context_.platform).program_capacity(context_.hw_config);
  json data = {{"ok", a.result.ok},
               {"errors", a.result.error_count()},
               {"warnings", a.result.warning_count()},
               {"instructions", a.result.instruction_count()}};
  std::string text = a.result.ok ? fmt::format("OK: {} instruction words (IMEM holds {}), {} warning(s)\n",
                                               a.result.instruction_count(), imem, a.result.warning_count())
                                 : fmt::format("FAILED: {} error(s), {} warning(s)\n", a.result.error_count(),
                                               a.result.warning_count());
  text += a.text;
  return ToolResult{truncate_for_model(text), false, data};
}

ToolResult ToolSession::run_eval(const json&) {
  if (code_.empty()) return error("run_eval: no kernel yet; call write_code first");
  EvalRequest req;
  req.platform = context_.platform;
  req.hw_config = context_.hw_config;
  req.task = context_.task;
  req.config = context_.config;
  req.seed = context_.dev_seed;
  req.max_cycles = context_.max_cycles;
  req.source = code_;
  req.filename = platform(context_.platform).kernel_file_name(language_);
  EvalReport report = agent::evaluate(req, task_registry());  // through the evaluation cache, if any
  ++evaluations_;
  last_request_ = req;
  last_timeline_summary_.clear();
  json data = {{"verdict", verdict_name(report.verdict)},
               {"cycles", report.cycles},
               {"utilization", report.utilization},
               {"instructions", report.instruction_count}};
  std::string text = fmt::format("{}: {}\n", verdict_name(report.verdict), report.headline);
  switch (report.verdict) {
    case Verdict::kPass:
      text +=
          fmt::format("utilization: {} ({}-bound roofline)\n",
                      share_of_cycles("ideal", report.ideal.total(), report.cycles), report.ideal.bound());
      if (report.ideal.attainable > 0) {
        text += fmt::format("attainable: {} ({})\n",
                            share_of_cycles("bound", report.ideal.attainable, report.cycles),
                            report.ideal.attainable_why);
      }
      text += "(profile shows where the cycles go)\n";
      break;
    case Verdict::kMismatch:
      if (report.compare) {
        for (const auto& o : report.compare->outputs) {
          text += fmt::format(
              "{}: {}/{} elements within tolerance ({:.2f}%), max abs error {:.3g}, rel L2 {:.3g}\n", o.name,
              o.within, o.count, o.percent_within, o.max_abs_error, o.rel_l2);
          data["percent_within"] = o.percent_within;
        }
      }
      text += "view_output shows which rows and elements are wrong\n";
      break;
    case Verdict::kBuildError:
      text += report.diagnostics;
      break;
    case Verdict::kTimeout:
      text += report.hang;
      break;
    default:
      break;
  }
  if (report.verdict == Verdict::kPass) data["percent_within"] = 100.0;
  last_eval_ = std::move(report);
  return ToolResult{truncate_for_model(text), false, data};
}

ToolResult ToolSession::view_output(const json& args) {
  if (!last_eval_) return error("view_output: nothing evaluated yet; call run_eval first");
  if (!last_eval_->compare) {
    return error(fmt::format("view_output: the last run_eval produced no outputs to compare ({}: {})",
                             verdict_name(last_eval_->verdict), last_eval_->headline));
  }
  tasks::FormatOptions options;
  if (args.contains("max_rows"))
    options.max_rows = static_cast<size_t>(std::clamp<int64_t>(args["max_rows"], 1, 200));
  std::string text;
  bool found = false;
  for (const auto& o : last_eval_->compare->outputs) {
    if (args.contains("output") && o.name != args["output"].get<std::string>()) continue;
    found = true;
    text += tasks::format_compare(o, options);
  }
  if (!found) return error("view_output: no output named '" + args["output"].get<std::string>() + "'");
  return ToolResult{truncate_for_model(text), false, json{{"pass", last_eval_->compare->pass}}};
}

ToolResult ToolSession::grep_docs(const json& args) {
  const std::string query = args["query"];
  if (query.empty()) return error("grep_docs: empty query");
  const size_t max_results =
      args.contains("max_results") ? static_cast<size_t>(std::clamp<int64_t>(args["max_results"], 1, 50)) : 8;
  const std::vector<NamedDocument> docs = served_documents(context_.platform, context_.docs);
  const std::string q = lower(query);
  std::string out;
  size_t results = 0;
  // An instruction mnemonic: return its whole entry from the ISA reference.
  const std::string upper_query = [&] {
    std::string u = query;
    for (auto& c : u) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    return u;
  }();
  for (const auto& mnemonic : platform(context_.platform).instruction_names()) {
    if (mnemonic != upper_query) continue;
    // The reference has one "#### <MNEMONIC>" heading per instruction.
    const std::string& ref = docs[0].text;
    const std::string heading = "\n#### " + mnemonic + "\n";
    auto at = ref.find(heading);
    if (at == std::string::npos) break;
    auto end = ref.find("\n#", at + heading.size());
    out = ref.substr(at + 1, end == std::string::npos ? std::string::npos : end - at - 1);
    return ToolResult{truncate_for_model(out), false, json{{"matches", 1}, {"instruction", mnemonic}}};
  }
  for (const auto& doc : docs) {
    std::vector<std::string> lines;
    std::istringstream in(doc.text);
    for (std::string l; std::getline(in, l);) lines.push_back(l);
    std::string heading;
    for (size_t i = 0; i < lines.size() && results < max_results; ++i) {
      if (!lines[i].empty() && lines[i][0] == '#') heading = lines[i];
      if (lower(lines[i]).find(q) == std::string::npos) continue;
      ++results;
      out += fmt::format("--- {} ({}), line {}\n", doc.name, heading.empty() ? "top" : heading, i + 1);
      for (size_t j = (i >= 2 ? i - 2 : 0); j <= std::min(lines.size() - 1, i + 2); ++j)
        out += lines[j] + "\n";
    }
  }
  if (results == 0) {
    return ToolResult{fmt::format("no match for '{}' in {}", query, documents_phrase(context_.docs)), false,
                      json{{"matches", 0}}};
  }
  if (results == max_results) out += fmt::format("[showing the first {} matches]\n", max_results);
  return ToolResult{truncate_for_model(out), false, json{{"matches", results}}};
}

ToolResult ToolSession::search_docs(const json& args) {
  const std::string query = args["query"];
  const size_t max_results =
      args.contains("max_results") ? static_cast<size_t>(std::clamp<int64_t>(args["max_results"], 1, 12)) : 4;
  std::vector<library::DocSection> sections;
  for (const auto& doc : served_documents(context_.platform, context_.docs)) {
    for (auto& s : library::split_sections(doc.name, doc.text)) sections.push_back(std::move(s));
  }
  const auto found = library::search_sections(sections, query, max_results);
  if (found.empty()) {
    return ToolResult{fmt::format("no section of {} matches '{}'", documents_phrase(context_.docs), query),
                      false, json{{"sections", json::array()}}};
  }
  std::string out;
  json paths = json::array();
  // Each section is capped so one long section cannot crowd out the others.
  const size_t per_section = kMaxToolText / found.size();
  for (const auto& s : found) {
    out += "--- " + s.path + "\n" + truncate_for_model(s.text, per_section);
    paths.push_back(s.path);
  }
  return ToolResult{truncate_for_model(out), false, json{{"sections", paths}}};
}

ToolResult ToolSession::find_examples(const json& args) {
  // Below `full` the library stays closed even when the run has one (it still records passing kernels).
  if (!serves_examples(context_.docs) && !context_.library.empty()) {
    return ToolResult{fmt::format("no example kernels at this run's documentation level ({}): find_examples "
                                  "returns nothing",
                                  docs_level_name(context_.docs)),
                      false, json{{"examples", json::array()}, {"library", false}}};
  }
  if (context_.library.empty()) {
    return ToolResult{"no kernel library in this run: there are no examples to retrieve", false,
                      json{{"examples", json::array()}, {"library", false}}};
  }
  library::SearchRequest request;
  request.platform = context_.platform;
  request.task = context_.task;
  request.config = context_.config;
  request.query = args.contains("query") ? args["query"].get<std::string>() : "";
  request.limit =
      args.contains("max_results") ? static_cast<size_t>(std::clamp<int64_t>(args["max_results"], 1, 5)) : 2;
  request.allow_scored_cell = context_.library_allows_scored_cell;
  std::vector<library::KernelEntry> found;
  try {
    found = library::KernelLibrary(context_.library).search(request);
  } catch (const library::LibraryError& e) {
    return ToolResult{std::string("find_examples: the kernel library cannot be read: ") + e.what(), false,
                      json{{"examples", json::array()}, {"library", true}}};
  }
  if (found.empty()) {
    return ToolResult{"no passing kernel of another task or configuration on this platform matches", false,
                      json{{"examples", json::array()}, {"library", true}}};
  }
  std::string out;
  json examples = json::array();
  const size_t per_example = kMaxToolText / found.size();
  for (const auto& k : found) {
    if (k.scored_cell) ++scored_cell_examples_;
    const std::string header =
        fmt::format("--- {} {} (hardware {}), {} cycles, language {}, by {}{}\n", k.task, k.config,
                    k.hw_config, k.cycles, k.language.empty() ? "default" : k.language, k.agent,
                    k.scored_cell ? " [the task+configuration being solved: allowed by this run]" : "");
    out +=
        header + truncate_for_model(k.source, per_example > header.size() ? per_example - header.size() : 0);
    if (!out.empty() && out.back() != '\n') out += '\n';
    examples.push_back({{"task", k.task},
                        {"config", k.config},
                        {"hw_config", k.hw_config},
                        {"cycles", k.cycles},
                        {"scored_cell", k.scored_cell}});
  }
  return ToolResult{truncate_for_model(out), false, json{{"examples", examples}, {"library", true}}};
}

ToolResult ToolSession::get_inst_size(const json&) {
  if (code_.empty()) return error("get_inst_size: no kernel yet; call write_code first");
  auto a = assemble_for(context_, code_, language_);
  const auto imem = platform(context_.platform).program_capacity(context_.hw_config);
  if (!a.result.ok) {
    return ToolResult{
        fmt::format("the kernel does not assemble ({} errors); run check_syntax", a.result.error_count()),
        false, json{{"ok", false}}};
  }
  return ToolResult{fmt::format("{} instruction words; the instruction memory holds {}",
                                a.result.instruction_count(), imem),
                    false,
                    json{{"ok", true}, {"instructions", a.result.instruction_count()}, {"imem_words", imem}}};
}

ToolResult ToolSession::profile(const json&) {
  if (!last_eval_) return error("profile: nothing evaluated yet; call run_eval first");
  const EvalReport& r = *last_eval_;
  if (r.verdict == Verdict::kBuildError || r.verdict == Verdict::kInputError) {
    return error("profile: the last run_eval did not run (" + std::string(verdict_name(r.verdict)) + ")");
  }
  ProfileReport report = profile_report(r, *last_request_, &last_timeline_summary_);
  return ToolResult{truncate_for_model(report.text), false, std::move(report.data)};
}

ProfileReport profile_report(const EvalReport& r, const EvalRequest& request, std::string* timeline_summary) {
  const Platform& p = platform(request.platform);
  json counters = json::object();
  for (const auto& c : r.counters) counters[c.name] = c.value;
  std::string text = fmt::format(
      "cycles {} ({}), ideal {:.0f} cycles ({}-bound roofline: dram {:.0f}, matrix {:.0f}, vector "
      "{:.0f}), attainable bound {:.0f} ({})\n",
      r.cycles, verdict_name(r.verdict), r.ideal.total(), r.ideal.bound(), r.ideal.dram, r.ideal.matrix,
      r.ideal.vector, r.ideal.attainable, r.ideal.attainable_why);
  if (r.verdict == Verdict::kPass) {
    text +=
        fmt::format("utilization: {}; attainable: {}\n", share_of_cycles("ideal", r.ideal.total(), r.cycles),
                    share_of_cycles("bound", r.ideal.attainable, r.cycles));
  }
  text += p.describe_counters(r);
  if (!r.phases.empty()) text += r.format_phases();
  // The timeline: the same run again with the per-cycle recorder on (evaluations leave it off to stay fast;
  // runs are deterministic, so it is the same run). Kept in *timeline_summary for the next call.
  std::string local_summary;
  std::string& summary = timeline_summary ? *timeline_summary : local_summary;
  if (summary.empty() && r.cycles > 0) {
    EvalRequest again = request;
    again.timeline = true;
    again.check_model = false;
    const EvalReport traced = p.evaluate(again, task_registry());
    if (traced.timeline && traced.cycles == r.cycles) {
      summary = traced.timeline->summary(40);
    } else {
      summary = "(no timeline: the run could not be repeated)\n";
    }
  }
  text += summary;
  json data{{"cycles", r.cycles},
            {"counters", counters},
            {"utilization", r.utilization},
            {"attainable_utilization", r.attainable_utilization}};
  if (!r.phases.empty()) data["phases"] = r.to_json()["phases"];
  return ProfileReport{std::move(text), std::move(data)};
}

ToolResult ToolSession::submit(const json&) {
  if (code_.empty()) return error("submit: no kernel yet; call write_code first");
  submitted_ = true;
  return ToolResult{"submitted. The kernel will be scored on inputs you have not seen.", false,
                    json{{"submitted", true}}};
}

nlohmann::json transcript_context(const TaskContext& ctx) {
  nlohmann::json j = {{"platform", ctx.platform}, {"hw_config", ctx.hw_config},
                      {"task", ctx.task},         {"config", ctx.config},
                      {"dev_seed", ctx.dev_seed}, {"docs", docs_level_name(ctx.docs)}};
  // Replay needs the library find_examples searched (and whether the scored cell was allowed).
  if (!ctx.library.empty()) {
    j["library"] = ctx.library;
    j["library_allows_scored_cell"] = ctx.library_allows_scored_cell;
  }
  // Which kernel the run ported (its source is in the prompts).
  if (!ctx.port_from.empty()) j["port_from"] = ctx.port_from.to_json();
  return j;
}

}  // namespace kcraft::agent
