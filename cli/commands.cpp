#include "cli/commands.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <optional>
#include <set>
#include <sstream>
#include <string_view>
#include <vector>

#include "agent/common/eval_cache.h"
#include "agent/common/tools.h"
#include "cli/agent_cmd.h"
#include "cli/codesign_cmd.h"
#include "cli/compare_cmd.h"
#include "cli/explore_cmd.h"
#include "cli/mcp_cmd.h"
#include "cli/report_cmd.h"
#include "cli/sweep.h"
#include "cli/validate.h"
#include "isa/common/disassembler.h"
#include "tasks/common/dump.h"
#include "tasks/common/render.h"
#include "tb/common/debug_session.h"
#include "tb/common/hw_variants.h"
#include "tb/common/paths.h"
#include "tb/common/platform.h"

namespace kcraft::cli {

namespace {

using nlohmann::json;

void print_json(const json& j) {
  std::cout << j.dump(2) << "\n";
}

std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw UsageError("cannot read " + path);
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

tasks::TaskRegistry load_tasks() {
  return tasks::TaskRegistry::load_directory(task_spec_dir());
}

// ---------------------------------------------------------------- platforms
int cmd_platforms(const GlobalOptions& g) {
  json out = json::array();
  for (const Platform* platform : platforms()) {
    json languages = json::array();
    for (const auto& l : platform->languages())
      languages.push_back({{"name", l.name}, {"extensions", l.extensions}, {"description", l.description}});
    for (const auto& c : platform->hw_configs()) {
      out.push_back({{"platform", c.platform},
                     {"config", c.name},
                     {"description", c.description},
                     {"build", c.build},
                     {"runtime", c.runtime},
                     {"file", c.source.string()},
                     {"model", tb::hw_model_status(c.platform, c.name)},
                     {"languages", languages}});
    }
  }
  if (g.json) {
    print_json(out);
    return kExitOk;
  }
  for (const Platform* platform : platforms()) {
    std::cout << fmt::format("{}  {}\n", platform->name(), platform->summary());
    std::string languages;
    for (const auto& l : platform->languages()) {
      std::string extensions;
      for (const auto& e : l.extensions) extensions += (extensions.empty() ? "" : " ") + e;
      languages += fmt::format("{}{} ({})", languages.empty() ? "" : ", ", l.name, extensions);
    }
    std::cout << "  kernels in: " << languages << "\n";
    for (const auto& c : platform->hw_configs()) {
      std::cout << fmt::format("  {:<10} {}\n", c.name, c.description);
      std::string params;
      for (const auto& [k, v] : c.build) params += fmt::format(" {}={}", k, v);
      std::cout << "             build:" << params << "\n";
      std::string rt;
      for (const auto& [k, v] : c.runtime) rt += fmt::format(" {}={}", k, v);
      std::cout << "             runtime:" << rt << "\n";
      if (const auto model = tb::hw_model_status(platform->name(), c.name); !model.empty())
        std::cout << "             model: " << model << "\n";
    }
  }
  return kExitOk;
}

// ---------------------------------------------------------------- isa
int cmd_isa(const GlobalOptions& g, const std::string& platform_name, const std::string& hw) {
  const Platform& platform = require_platform(platform_name);
  if (g.json) {
    // The reference and the scheduling table (per instruction its unit, latency, occupancy, hazards).
    print_json({{"platform", platform_name},
                {"hw", platform.hw_config(hw).name},
                {"markdown", platform.isa_reference()},
                {"scheduling", to_json(platform.scheduling_table(hw))}});
  } else {
    std::cout << platform.isa_reference();
  }
  return kExitOk;
}

// ---------------------------------------------------------------- tasks
int cmd_tasks(const GlobalOptions& g, const std::string& platform_filter) {
  std::vector<const Platform*> shown;
  if (platform_filter.empty()) {
    shown = platforms();
  } else {
    shown.push_back(&require_platform(platform_filter));
  }
  auto registry = load_tasks();
  json out = json::array();
  // One column per platform and hardware configuration: the whole matrix, so a configuration that does
  // not fit a smaller hardware configuration shows up (with its reason listed below the table).
  struct Column {
    const Platform* platform;
    std::string hw;
  };
  std::vector<Column> column_keys;
  std::vector<std::string> headers;
  for (const Platform* p : shown) {
    for (const auto& hw : p->hw_configs()) {
      column_keys.push_back({p, hw.name});
      headers.push_back(p->name() + "/" + hw.name);
    }
  }
  // Reasons for '-' cells, in order of first appearance, with the cells they explain.
  std::vector<std::pair<std::string, std::vector<std::string>>> reasons;
  auto note_reason = [&](const std::string& why, const std::string& cell) {
    for (auto& [text, cells] : reasons) {
      if (text == why) {
        cells.push_back(cell);
        return;
      }
    }
    reasons.push_back({why, {cell}});
  };
  auto row = [&](const std::vector<std::string>& cells) {
    std::string line;
    for (size_t i = 0; i < cells.size(); ++i) {
      line += i + 1 < cells.size() ? fmt::format("{:<{}}  ", cells[i], headers[i].size()) : cells[i];
    }
    return line;
  };
  // The name column fits the longest task name (flash_attention, depthwise_conv).
  size_t name_width = 12;
  for (const auto& spec : registry.tasks()) name_width = std::max(name_width, spec.name.size());
  if (!g.json) {
    std::cout << fmt::format("{:<{}} {:>5}  {:<38}  {}\n", "task", name_width, "level", "title",
                             row(headers));
  }
  for (const auto& spec : registry.tasks()) {
    json support_by_platform = json::object();
    json support_by_hw = json::object();
    std::vector<std::string> columns;
    for (const Column& column : column_keys) {
      const Platform* p = column.platform;
      json support = json::object();
      std::string cells;
      const bool baseline = p->has_baseline(spec.name);
      for (const auto& config : spec.config_names()) {
        auto cfg = spec.resolve(config, p->dtype());
        std::string why = p->unsupported_reason(cfg, column.hw);
        support[config] = why.empty() ? (baseline ? "baseline" : "supported") : why;
        cells += why.empty() ? (baseline ? "B " : "s ") : "- ";
        if (!why.empty())
          note_reason(why, fmt::format("{}/{} {} {}", p->name(), column.hw, spec.name, config));
      }
      // JSON keeps its shape per platform (the default configuration, as before) and adds every
      // hardware configuration under support_by_hw.
      if (column.hw == p->hw_configs().front().name) support_by_platform[p->name()] = support;
      support_by_hw[p->name() + "/" + column.hw] = support;
      columns.push_back(cells);
    }
    json j = tasks::task_summary_json(spec);
    j["support"] = support_by_platform;
    j["support_by_hw"] = support_by_hw;
    out.push_back(j);
    if (!g.json)
      std::cout << fmt::format("{:<{}} {:>5}  {:<38}  {}\n", spec.name, name_width, spec.level, spec.title,
                               row(columns));
  }
  if (g.json) {
    print_json(out);
  } else {
    std::cout << "\nsupport per configuration C1..C5: B = runs, with a baseline kernel; s = runs; - = not "
                 "supported\n";
    if (reasons.empty()) {
      std::cout << "every configuration runs on every hardware configuration shown\n";
    } else {
      std::cout << "not supported:\n";
      for (const auto& [why, cells] : reasons) {
        std::string where = cells.front();
        if (cells.size() > 1) where += fmt::format(" (and {} more)", cells.size() - 1);
        std::cout << fmt::format("  {}: {}\n", where, why);
      }
    }
  }
  return kExitOk;
}

// ---------------------------------------------------------------- task show / dump
// Where the platform of `task show` came from, for its first line and --json.
const char* platform_from_name(PlatformFrom from) {
  switch (from) {
    case PlatformFrom::kCommandLine:
      return "command line";
    case PlatformFrom::kEnvironment:
      return "environment";
    case PlatformFrom::kDefault:
      break;
  }
  return "default";
}

int cmd_task_show(const GlobalOptions& g, const std::string& task, const std::string& platform_name,
                  const std::string& config, const std::string& hw, PlatformFrom from) {
  const Platform& platform = require_platform(platform_name);
  auto registry = load_tasks();
  const auto& spec = registry.get(task);
  auto cfg = spec.resolve(config, platform.dtype());
  auto layout = platform.layout(cfg);
  auto symbols = platform.symbols(hw, &cfg, &layout);
  if (g.json) {
    json j = tasks::task_to_json(spec, config, platform.dtype(), layout);
    j["platform"] = platform_name;
    j["platform_from"] = platform_from_name(from);
    j["hw_config"] = hw;
    j["symbols"] = symbols;
    j["unsupported"] = platform.unsupported_reason(cfg, hw);
    print_json(j);
    return kExitOk;
  }
  // The layout, the symbols and the data type are the platform's: the first line says whose, and why this
  // one (a kernel writer who left --platform out must not read another platform's addresses unawares).
  std::string why;
  switch (from) {
    case PlatformFrom::kCommandLine:
      why = "--platform";
      break;
    case PlatformFrom::kEnvironment:
      why = std::string("from ") + kPlatformVariable;
      break;
    case PlatformFrom::kDefault:
      why = fmt::format("the default platform; --platform NAME or {}=NAME for another: {}", kPlatformVariable,
                        platform_list_text());
      break;
  }
  std::cout << fmt::format(
      "Platform {} ({}), hardware configuration {}: the layout and symbols below are {}'s.\n\n",
      platform_name, why, hw, platform_name);
  std::cout << agent::task_text(agent::TaskContext{platform_name, hw, task, config, 1});
  if (auto why_not = platform.unsupported_reason(cfg, hw); !why_not.empty())
    std::cout << "\nNOT SUPPORTED: " << why_not << "\n";
  return kExitOk;
}

int cmd_task_dump(const GlobalOptions& g, const std::string& task, const std::string& platform_name,
                  const std::string& config, uint64_t seed, const std::string& out_dir, bool raw_bits) {
  const Platform& platform = require_platform(platform_name);
  auto registry = load_tasks();
  tasks::DumpOptions options;
  options.raw_bits = raw_bits;
  auto result = tasks::dump_task(registry.get(task), config, seed, platform.dtype(), out_dir, options);
  if (g.json) {
    json files = json::array();
    for (const auto& f : result.files) files.push_back(f.string());
    print_json({{"files", files}, {"manifest", result.manifest}});
  } else {
    for (const auto& f : result.files) std::cout << f.string() << "\n";
  }
  return kExitOk;
}

// ---------------------------------------------------------------- check
// The kernel's language comes from its file's extension: an unknown one is a usage error listing the
// platform's languages.
void require_language(const Platform& platform, const std::string& file) {
  try {
    (void)platform.language_of_file(file);
  } catch (const std::invalid_argument& e) {
    throw UsageError(e.what());
  }
}

// The identifiers in a line of source text, in order.
std::vector<std::string> identifiers_in(std::string_view text) {
  std::vector<std::string> names;
  for (size_t i = 0; i < text.size();) {
    const auto is_start = [](char c) { return std::isalpha(static_cast<unsigned char>(c)) || c == '_'; };
    const auto is_rest = [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; };
    if (!is_start(text[i])) {
      // skip the rest of a number or of a word so "0x1F" or "a0" yields no name from its tail
      const bool word = is_rest(text[i]);
      ++i;
      while (word && i < text.size() && is_rest(text[i])) ++i;
      continue;
    }
    size_t end = i;
    while (end < text.size() && is_rest(text[end])) ++end;
    names.emplace_back(text.substr(i, end - i));
    i = end;
  }
  return names;
}

// Line `line` (1-based) of `source`, or "" past its end.
std::string_view source_line(std::string_view source, int line) {
  size_t begin = 0;
  for (int n = 1; n < line; ++n) {
    begin = source.find('\n', begin);
    if (begin == std::string_view::npos) return {};
    ++begin;
  }
  return source.substr(begin, source.find('\n', begin) - begin);
}

// Without --task, a task's symbols (ADDR_X, M, ...) are unknown: say so instead of suggesting a .equ.
// A C compiler names the undeclared identifier; an assembler may not (clang's "immediate must be an
// integer ..." for `li a0, ADDR_X`), so for any other error the task symbols on its source line count.
void hint_task_symbols(const Platform& platform, const std::string& hw, std::string_view source,
                       isa::AssembleResult& result) {
  std::set<std::string, std::less<>> task_symbols;
  bool loaded = false;
  const auto load = [&] {
    if (loaded) return;
    loaded = true;
    const auto hardware = platform.symbols(hw);
    const auto registry = load_tasks();
    for (const auto& name : registry.names()) {
      try {
        const auto cfg = registry.get(name).resolve("C1", platform.dtype());
        const auto layout = platform.layout(cfg);
        for (const auto& [symbol, value] : platform.symbols(hw, &cfg, &layout))
          if (!hardware.count(symbol)) task_symbols.insert(symbol);
      } catch (const std::exception&) {
        // a task this platform cannot lay out defines nothing here
      }
    }
  };
  // The assemblers' wording, and C compilers' (clang) for an undeclared name.
  const std::string prefixes[] = {"unknown symbol '", "use of undeclared identifier '"};
  for (auto& d : result.diagnostics) {
    if (d.severity != isa::Severity::kError) continue;
    const auto prefix = std::find_if(std::begin(prefixes), std::end(prefixes),
                                     [&](const std::string& p) { return d.message.rfind(p, 0) == 0; });
    std::vector<std::string> candidates;
    if (prefix != std::end(prefixes)) {
      candidates.push_back(
          d.message.substr(prefix->size(), d.message.find('\'', prefix->size()) - prefix->size()));
    } else if (d.line > 0) {
      candidates = identifiers_in(source_line(source, d.line));
    }
    if (candidates.empty()) continue;
    load();
    const auto known = std::find_if(candidates.begin(), candidates.end(),
                                    [&](const std::string& name) { return task_symbols.count(name) > 0; });
    if (known != candidates.end()) {
      d.hint = fmt::format(
          "{} is a task symbol: add --task NAME [--config CN] (kcraft task show NAME --platform {} "
          "lists them)",
          *known, platform.name());
    }
  }
}

int cmd_check(const GlobalOptions& g, const std::string& platform_name, const std::string& file,
              const std::string& task, const std::string& config, const std::string& hw) {
  const Platform& platform = require_platform(platform_name);
  std::string source = read_file(file);
  require_language(platform, file);
  isa::SymbolTable symbols;
  if (!task.empty()) {
    auto registry = load_tasks();
    auto cfg = registry.get(task).resolve(config, platform.dtype());
    auto layout = platform.layout(cfg);
    symbols = platform.symbols(hw, &cfg, &layout);
  } else {
    symbols = platform.symbols(hw);
  }
  auto result = platform.check(source, file, symbols);
  if (task.empty() && !result.ok) hint_task_symbols(platform, hw, source, result);
  const std::string diags = isa::format_diagnostics(result, source);
  if (g.json) {
    json d = json::array();
    for (const auto& diag : result.diagnostics) {
      d.push_back({{"severity", isa::severity_name(diag.severity)},
                   {"line", diag.line},
                   {"column", diag.column},
                   {"message", diag.message},
                   {"text", diag.text},
                   {"hint", diag.hint}});
    }
    print_json({{"ok", result.ok},
                {"errors", result.error_count()},
                {"warnings", result.warning_count()},
                {"instructions", result.instruction_count()},
                {"diagnostics", d},
                {"text", diags}});
  } else {
    std::cout << diags;
    if (result.ok) {
      std::cout << fmt::format("{}: ok, {} instructions, {} warning(s)\n", file, result.instruction_count(),
                               result.warning_count());
    }
  }
  return result.ok ? kExitOk : kExitFail;
}

// ---------------------------------------------------------------- debug
struct DebugArgs {
  std::string platform, file;
  DebugOptions options;
  std::optional<uint64_t> stop_at_cycle;
  std::vector<std::string> rows;
  std::string model_fault;  // K:REGISTER[:MASK]
};

ModelFault parse_model_fault(const std::string& text) {
  const auto first = text.find(':');
  const auto second = first == std::string::npos ? first : text.find(':', first + 1);
  ModelFault f;
  try {
    if (first == std::string::npos) throw std::invalid_argument("");
    f.after_instruction = std::stoull(text.substr(0, first), nullptr, 0);
    f.register_name =
        text.substr(first + 1, second == std::string::npos ? std::string::npos : second - first - 1);
    if (second != std::string::npos) f.xor_mask = std::stoull(text.substr(second + 1), nullptr, 0);
  } catch (const std::exception&) {
    throw UsageError("--inject-model-fault '" + text + "': expected INSTRUCTIONS:REGISTER[:XOR_MASK]");
  }
  if (f.register_name.empty() || f.xor_mask == 0) {
    throw UsageError("--inject-model-fault '" + text + "': needs a register and a non-zero mask");
  }
  return f;
}

int cmd_debug(const GlobalOptions& g, DebugArgs& a) {
  const Platform& platform = require_platform(a.platform);
  auto registry = load_tasks();
  DebugOptions& o = a.options;
  o.source = read_file(a.file);
  require_language(platform, a.file);
  o.filename = a.file;
  o.stop_at_cycle = a.stop_at_cycle;
  for (const auto& r : a.rows) o.rows.push_back(tb::parse_row_range(r));
  if (!a.model_fault.empty()) o.model_fault = parse_model_fault(a.model_fault);
  const CommandReport report = platform.debug(o, registry);
  if (g.json) {
    std::cout << report.json.dump(2) << "\n";
  } else {
    std::cout << report.text;
  }
  if (report.json.contains("verdict")) return kExitFail;  // the kernel did not build
  return report.ok ? kExitOk : kExitHardwareBug;
}

// ---------------------------------------------------------------- eval
struct EvalArgs {
  std::string platform, task, file, config = "C1", hw = "default", waveform, itrace, timeline;
  uint64_t seed = 1;
  uint64_t cycle_cap = 0;
  bool no_model = false;
  std::string db = "results/kcraft.db";  // the results store whose evaluation cache is used
  bool no_cache = false;
};

// The evaluation through the results store's evaluation cache, unless `no_cache` (or the store cannot be
// opened: then it simulates, saying so).
EvalReport evaluate_through_cache(const Platform& platform, const EvalRequest& req,
                                  const tasks::TaskRegistry& registry, const std::string& db, bool no_cache) {
  std::unique_ptr<agent::EvalCache> cache;
  if (!no_cache) {
    try {
      cache = std::make_unique<agent::EvalCache>(db);
    } catch (const std::exception& e) {
      std::cerr << "kcraft: " << e.what() << "; simulating without the evaluation cache\n";
    }
  }
  return cache ? cache->evaluate(req, registry) : platform.evaluate(req, registry);
}

int cmd_eval(const GlobalOptions& g, const EvalArgs& a) {
  const Platform& platform = require_platform(a.platform);
  auto registry = load_tasks();
  EvalRequest req;
  req.platform = a.platform;
  req.hw_config = a.hw;
  req.task = a.task;
  req.config = a.config;
  req.seed = a.seed;
  req.source = read_file(a.file);
  require_language(platform, a.file);
  req.filename = a.file;
  req.cycle_cap = a.cycle_cap;
  req.waveform_path = a.waveform;
  req.instruction_trace = !a.itrace.empty();
  req.timeline = !a.timeline.empty();
  req.check_model = !a.no_model;
  std::ofstream timeline_out;
  if (!a.timeline.empty()) {
    timeline_out.open(a.timeline);  // before the run: a bad path is a usage error, not a lost run
    if (!timeline_out) throw UsageError("cannot write " + a.timeline);
  }
  // Through the evaluation cache (agent/common/eval_cache.h): a run asked for before is not simulated again.
  // A waveform, trace or timeline always simulates.
  EvalReport report = evaluate_through_cache(platform, req, registry, a.db, a.no_cache);
  if (timeline_out.is_open() && report.timeline) {
    report.timeline->write_chrome_json(timeline_out);
    timeline_out.close();
    if (!timeline_out) throw UsageError("could not write the timeline to " + a.timeline);
  } else if (timeline_out.is_open()) {
    // Not an empty file that looks like a broken trace: say why there is none.
    timeline_out.close();
    std::error_code ignored;
    std::filesystem::remove(a.timeline, ignored);
    if (report.cycles > 0) {
      std::cerr << fmt::format("kcraft: {}'s testbench records no timeline; {} not written\n",
                               platform.name(), a.timeline);
    }
  }
  if (!a.itrace.empty()) {
    std::ofstream out(a.itrace);
    if (!out) throw UsageError("cannot write " + a.itrace);
    out << "#    cycle     pc  word      instruction\n";
    for (const auto& line : report.trace) out << line << "\n";
    report.trace.clear();  // written to the file, not to the terminal
  }
  if (g.json) {
    print_json(report.to_json());
  } else {
    std::cout << report.to_text();
    if (report.timeline && !a.timeline.empty()) {
      std::cout << fmt::format("timeline written to {} (open it in ui.perfetto.dev or chrome://tracing)\n",
                               a.timeline)
                << report.timeline->summary();
    }
  }
  return verdict_exit_code(report.verdict);
}

// ---------------------------------------------------------------- profile
struct ProfileArgs {
  std::string platform, task, file, config = "C1", hw = "default";
  uint64_t seed = 1;
  std::string db = "results/kcraft.db";
  bool no_cache = false;
};

// The agents' profile tool on a kernel file: the run as run_eval makes it, then exactly the tool's text
// (agent::profile_report, whole: the tool cuts it for the model only).
int cmd_profile(const GlobalOptions& g, const ProfileArgs& a) {
  const Platform& platform = require_platform(a.platform);
  auto registry = load_tasks();
  EvalRequest req;
  req.platform = a.platform;
  req.hw_config = a.hw;
  req.task = a.task;
  req.config = a.config;
  req.seed = a.seed;
  req.source = read_file(a.file);
  require_language(platform, a.file);
  req.filename = a.file;
  const EvalReport report = evaluate_through_cache(platform, req, registry, a.db, a.no_cache);
  if (report.verdict == Verdict::kBuildError || report.verdict == Verdict::kInputError) {
    // Nothing ran: what eval says instead (the diagnostics).
    if (g.json) {
      print_json(report.to_json());
    } else {
      std::cout << report.to_text();
    }
    return verdict_exit_code(report.verdict);
  }
  const agent::ProfileReport profile = agent::profile_report(report, req);
  if (g.json) {
    json j = profile.data;
    j["verdict"] = verdict_name(report.verdict);
    j["text"] = profile.text;
    print_json(j);
  } else {
    std::cout << profile.text;
  }
  return verdict_exit_code(report.verdict);
}

// ---------------------------------------------------------------- baseline
int cmd_baseline(const GlobalOptions& g, const std::string& platform_name, const std::string& task,
                 const std::string& config, const std::string& hw, const std::vector<std::string>& knob_args,
                 bool compiler_baseline) {
  const Platform& platform = require_platform(platform_name);
  auto registry = load_tasks();
  const auto& spec = registry.get(task);
  if (!platform.has_baseline(task)) throw UsageError("no baseline template for task '" + task + "'");
  auto cfg = spec.resolve(config, platform.dtype());
  if (auto why = platform.unsupported_reason(cfg, hw); !why.empty()) throw UsageError(why);
  const auto compiler_ptr = platform.baseline_compiler(hw);
  const tasks::BaselineCompiler& compiler = *compiler_ptr;
  if (compiler_baseline) {
    const std::string name = compiler.compiler_baseline_name();
    if (name.empty()) throw UsageError("platform " + platform_name + " has no compiler baseline");
    if (!knob_args.empty()) throw UsageError("the compiler baseline has no knobs (--knob with --compiler)");
    const auto kernel = compiler.compiler_baseline(cfg, platform.layout(cfg));
    if (kernel.source.empty()) throw UsageError("no compiler baseline for " + task + " " + config);
    if (g.json) {
      print_json({{"task", task},
                  {"config", config},
                  {"hw_config", hw},
                  {"compiler_baseline", name},
                  {"summary", kernel.summary},
                  {"file_name", platform.kernel_file_name(kernel.language)},
                  {"source", kernel.source}});
    } else {
      std::cout << kernel.source;
    }
    return kExitOk;
  }
  tasks::KnobValues knobs;
  for (const auto& kv : knob_args) {
    auto eq = kv.find('=');
    if (eq == std::string::npos) throw UsageError("--knob expects name=value, got '" + kv + "'");
    try {
      knobs[kv.substr(0, eq)] = std::stoll(kv.substr(eq + 1));
    } catch (const std::exception&) {
      throw UsageError("--knob " + kv + ": the value is not an integer");
    }
  }
  for (const auto& [name, value] : knobs) {
    bool known = false;
    for (const auto& k : compiler.knobs(cfg)) known = known || k.name == name;
    if (!known) throw UsageError("template for " + task + " has no knob '" + name + "'");
  }
  auto kernel = compiler.generate(cfg, platform.layout(cfg), knobs);
  if (g.json) {
    json kj = json::array();
    for (const auto& k : compiler.knobs(cfg)) {
      kj.push_back({{"name", k.name},
                    {"description", k.description},
                    {"baseline", k.baseline},
                    {"candidates", k.candidates},
                    {"value", kernel.knobs.at(k.name)}});
    }
    print_json({{"task", task},
                {"config", config},
                {"hw_config", hw},
                {"summary", kernel.summary},
                {"knobs", kj},
                {"file_name", platform.kernel_file_name(kernel.language)},
                {"source", kernel.source}});
  } else {
    std::cout << kernel.source;
  }
  return kExitOk;
}

constexpr const char* kRangeStressHelp =
    "draw the task's range-stress input set (as one hidden scoring seed does; `kcraft task show` states "
    "it): sets bit 50 of the seed";

uint64_t with_stress(uint64_t seed, bool stress) {
  return stress ? tasks::range_stress_seed(seed) : seed;
}

}  // namespace

void register_commands(CLI::App& app, GlobalOptions& g, std::function<int()>& run) {
  app.add_flag("--json", g.json, "machine-readable JSON output");
  app.add_option("--root", g.root, "data directory holding tasks/ and rtl/ (default: the source tree)");

  auto* platforms = app.add_subcommand("platforms", "list platforms and their hardware configurations");
  platforms->callback([&] { run = [&] { return cmd_platforms(g); }; });

  auto* isa = app.add_subcommand(
      "isa",
      "print a platform's ISA reference (Markdown, generated from its YAML); with --json also "
      "the scheduling table: per instruction its unit, latency, occupancy and hazards");
  static std::string isa_platform, isa_hw = "default";
  add_platform_argument(isa, isa_platform);
  isa->add_option("--hw", isa_hw, "hardware configuration of --json's scheduling table")
      ->capture_default_str();
  isa->callback([&] { run = [&] { return cmd_isa(g, isa_platform, isa_hw); }; });

  auto* tasks_cmd = app.add_subcommand("tasks", "list tasks: level, configurations, support per platform");
  static std::string tasks_platform;
  add_platform_option(tasks_cmd, tasks_platform, nullptr,
                      "only this platform (default: $KCRAFT_PLATFORM, else all)");
  tasks_cmd->callback([&] { run = [&] { return cmd_tasks(g, tasks_platform); }; });

  auto* task = app.add_subcommand("task", "one task: show it or dump its data");
  task->require_subcommand(1);
  static std::string t_name, t_platform = default_platform_name(), t_config = "C1", t_hw = "default", t_out;
  static uint64_t t_seed = 1;
  static bool t_raw = false;
  auto* show = task->add_subcommand("show", "the task exactly as an agent sees it");
  show->add_option("task", t_name, "task name")->required();
  static PlatformFrom t_platform_from = PlatformFrom::kDefault;
  add_platform_option(show, t_platform, &t_platform_from);
  show->add_option("--config", t_config, "configuration C1..C5")->capture_default_str();
  show->add_option("--hw", t_hw, "hardware configuration")->capture_default_str();
  show->callback(
      [&] { run = [&] { return cmd_task_show(g, t_name, t_platform, t_config, t_hw, t_platform_from); }; });
  auto* dump = task->add_subcommand("dump", "inputs and reference outputs as .npy files");
  dump->add_option("task", t_name, "task name")->required();
  add_platform_option(dump, t_platform);
  dump->add_option("--config", t_config, "configuration C1..C5")->capture_default_str();
  dump->add_option("--seed", t_seed, "input seed")->capture_default_str();
  dump->add_option("--out", t_out, "output directory")->required();
  dump->add_flag("--raw-bits", t_raw, "also write the stored bit patterns (<input>.bits.npy)");
  static bool t_stress = false;
  dump->add_flag("--range-stress", t_stress, kRangeStressHelp);
  dump->callback([&] {
    run = [&] {
      return cmd_task_dump(g, t_name, t_platform, t_config, with_stress(t_seed, t_stress), t_out, t_raw);
    };
  });

  auto* check =
      app.add_subcommand("check", "build a kernel (assembly or C, by extension) and print diagnostics");
  static std::string c_platform, c_file, c_task, c_config = "C1", c_hw = "default";
  add_platform_argument(check, c_platform);
  check->add_option("kernel", c_file, "kernel source file; its extension gives the language")->required();
  check->add_option("--task", c_task, "define the task's symbols (ADDR_*, dimensions)");
  check->add_option("--config", c_config, "configuration for --task")->capture_default_str();
  check->add_option("--hw", c_hw, "hardware configuration")->capture_default_str();
  check->callback([&] { run = [&] { return cmd_check(g, c_platform, c_file, c_task, c_config, c_hw); }; });

  auto* eval = app.add_subcommand("eval", "run a kernel on the RTL: verdict, cycles, counters, diffs");
  static EvalArgs e;
  add_platform_argument(eval, e.platform);
  eval->add_option("task", e.task, "task name")->required();
  eval->add_option("kernel", e.file, "kernel source file; its extension gives the language")->required();
  eval->add_option("--config", e.config, "configuration C1..C5")->capture_default_str();
  eval->add_option("--seed", e.seed, "input seed")->capture_default_str();
  eval->add_option("--hw", e.hw, "hardware configuration")->capture_default_str();
  eval->add_option("--trace", e.waveform, "write an FST waveform of the run to FILE");
  eval->add_option("--itrace", e.itrace, "write the instruction trace (cycle, pc, instruction) to FILE");
  eval->add_option(
      "--timeline", e.timeline,
      "write what every unit did per cycle to FILE (Chrome/Perfetto trace-event JSON: open it in "
      "ui.perfetto.dev or chrome://tracing)");
  eval->add_option("--cycle-cap", e.cycle_cap, "stop after this many cycles (default: from the task's size)");
  eval->add_flag("--no-model-check", e.no_model, "skip the functional-model comparison");
  eval->add_option("--db", e.db, "results store holding the evaluation cache")->capture_default_str();
  eval->add_flag("--no-cache", e.no_cache,
                 "simulate even when the evaluation cache has this run's result (and do not store it)");
  static bool e_stress = false;
  eval->add_flag("--range-stress", e_stress, kRangeStressHelp);
  eval->callback([&] {
    run = [&] {
      e.seed = with_stress(e.seed, e_stress);
      return cmd_eval(g, e);
    };
  });

  auto* debug = app.add_subcommand(
      "debug",
      "bring-up: run a kernel on the RTL and the functional model to a stop point, dump both states side by "
      "side, and with --lockstep find the first instruction after which they differ");
  static DebugArgs d;
  add_platform_argument(debug, d.platform);
  debug->add_option("task", d.options.task, "task name (its inputs are loaded in DRAM as `kcraft eval` does)")
      ->required();
  debug->add_option("kernel", d.file, "kernel source file; its extension gives the language")->required();
  debug->add_option("--config", d.options.config, "configuration C1..C5")->capture_default_str();
  debug->add_option("--seed", d.options.seed, "input seed")->capture_default_str();
  debug->add_option("--hw", d.options.hw_config, "hardware configuration")->capture_default_str();
  debug->add_option("--stop-at-pc", d.options.stop_at_pc,
                    "stop the first time the pc reaches ADDR (a number, or a label of the kernel), before "
                    "executing it");
  debug->add_option("--stop-at-cycle", d.stop_at_cycle,
                    "stop after the instructions the RTL retired in its first N cycles");
  debug->add_flag(
      "--lockstep", d.options.lockstep,
      "find the first retired instruction after which the RTL and the model differ (up to the stop "
      "point, or the end)");
  debug->add_option(
      "--rows", d.rows,
      "rows to dump: MEMORY, MEMORY:ROW or MEMORY:FIRST-LAST, where MEMORY is an on-chip memory "
      "or a DRAM tensor of the task by name (an input, an output, scratch); outputs are shown "
      "next to the golden reference (repeatable; default: rows that differ, the first non-zero "
      "on-chip ones and, at the end of the run, output rows outside the golden's tolerance)");
  debug->add_option("--cycle-cap", d.options.cycle_cap,
                    "cycle cap of each RTL run (default: from the task's size); a kernel that has not halted "
                    "by then is shown there, with eval's diagnosis of the hang");
  debug->add_option(
      "--inject-model-fault", d.model_fault,
      "test hook, checks the tool itself: K:REGISTER[:XOR_MASK] flips bits of a register of the "
      "functional model after K retired instructions");
  static bool d_stress = false;
  debug->add_flag("--range-stress", d_stress, kRangeStressHelp);
  debug->callback([&] {
    run = [&] {
      d.options.seed = with_stress(d.options.seed, d_stress);
      return cmd_debug(g, d);
    };
  });

  auto* profile = app.add_subcommand(
      "profile",
      "run a kernel as eval does and print where its cycles went: exactly the agents' profile tool "
      "(counters, "
      "stalls, utilisation against the ideal and the attainable bound, phases, a timeline summary)");
  static ProfileArgs pa;
  add_platform_argument(profile, pa.platform);
  profile->add_option("task", pa.task, "task name")->required();
  profile->add_option("kernel", pa.file, "kernel source file; its extension gives the language")->required();
  profile->add_option("--config", pa.config, "configuration C1..C5")->capture_default_str();
  profile->add_option("--seed", pa.seed, "input seed")->capture_default_str();
  profile->add_option("--hw", pa.hw, "hardware configuration")->capture_default_str();
  profile->add_option("--db", pa.db, "results store holding the evaluation cache")->capture_default_str();
  profile->add_flag("--no-cache", pa.no_cache,
                    "simulate even when the evaluation cache has this run's result (and do not store it)");
  static bool pa_stress = false;
  profile->add_flag("--range-stress", pa_stress, kRangeStressHelp);
  profile->callback([&] {
    run = [&] {
      pa.seed = with_stress(pa.seed, pa_stress);
      return cmd_profile(g, pa);
    };
  });

  auto* baseline = app.add_subcommand("baseline", "print the template compiler's kernel for a task");
  static std::string b_platform, b_task, b_config = "C1", b_hw = "default";
  static std::vector<std::string> b_knobs;
  static bool b_compiler = false;
  add_platform_argument(baseline, b_platform);
  baseline->add_option("task", b_task, "task name")->required();
  baseline->add_option("--config", b_config, "configuration C1..C5")->capture_default_str();
  baseline->add_option("--hw", b_hw, "hardware configuration")->capture_default_str();
  baseline->add_option("--knob", b_knobs, "override a template knob: name=value (repeatable)");
  baseline->add_flag("--compiler", b_compiler,
                     "print the platform's compiler baseline instead (the plain reference its compiler "
                     "builds, where the platform has one)");
  baseline->callback([&] {
    run = [&] { return cmd_baseline(g, b_platform, b_task, b_config, b_hw, b_knobs, b_compiler); };
  });

  register_sweep_command(app, g, run);
  register_agent_commands(app, g, run);
  register_report_command(app, g, run);
  register_compare_command(app, g, run);
  register_explore_command(app, g, run);
  register_codesign_command(app, g, run);
  register_validate_commands(app, g, run);
  register_mcp_command(app, g, run);
  register_serve_command(app, g, run);
}

}  // namespace kcraft::cli
