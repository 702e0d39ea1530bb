#include "tb/common/evaluation.h"

#include <fmt/format.h>

#include <algorithm>
#include <regex>
#include <sstream>

#include "tasks/common/task_spec.h"

namespace kcraft {

const char* verdict_name(Verdict v) {
  switch (v) {
    case Verdict::kPass:
      return "pass";
    case Verdict::kMismatch:
      return "mismatch";
    case Verdict::kBuildError:
      return "build_error";
    case Verdict::kRuntimeError:
      return "runtime_error";
    case Verdict::kTimeout:
      return "timeout";
    case Verdict::kHardwareBug:
      return "hardware_bug";
    case Verdict::kInputError:
      return "input_error";
  }
  return "unknown";
}

Verdict verdict_from_name(const std::string& name) {
  for (Verdict v : {Verdict::kPass, Verdict::kMismatch, Verdict::kBuildError, Verdict::kRuntimeError,
                    Verdict::kTimeout, Verdict::kHardwareBug, Verdict::kInputError}) {
    if (name == verdict_name(v)) return v;
  }
  throw std::invalid_argument("unknown verdict '" + name + "'");
}

int verdict_exit_code(Verdict v) {
  switch (v) {
    case Verdict::kPass:
      return 0;
    case Verdict::kInputError:
      return 2;
    case Verdict::kHardwareBug:
      return 3;
    default:
      return 1;
  }
}

double IdealCycles::total() const {
  return std::max({dram, matrix, vector});
}

const char* IdealCycles::bound() const {
  if (dram >= matrix && dram >= vector) return "dram";
  return matrix >= vector ? "matrix" : "vector";
}

std::string share_of_cycles(const char* what, double bound_cycles, uint64_t cycles) {
  const double share = cycles > 0 ? 100.0 * bound_cycles / static_cast<double>(cycles) : 0.0;
  return fmt::format("{} {:.0f} cycles = {:.1f}% of the {} taken", what, bound_cycles, share, cycles);
}

void split_cycles_by_phase(std::vector<PhaseCycles>& phases, const std::vector<tb::PhaseMark>& marks,
                           uint64_t total_cycles, uint64_t& unmarked) {
  for (auto& p : phases) p = PhaseCycles{p.name, 0, 0};
  std::vector<tb::PhaseMark> sorted = marks;
  std::stable_sort(sorted.begin(), sorted.end(),
                   [](const tb::PhaseMark& a, const tb::PhaseMark& b) { return a.cycle < b.cycle; });
  uint64_t since = 0;
  uint64_t* current = &unmarked;
  unmarked = 0;
  for (const auto& m : sorted) {
    if (m.phase >= phases.size()) continue;
    const uint64_t at = std::min(m.cycle, total_cycles);
    *current += at - since;
    since = at;
    current = &phases[m.phase].cycles;
    ++phases[m.phase].marks;
  }
  *current += total_cycles - since;
}

nlohmann::json EvalReport::to_json() const {
  nlohmann::json j;
  j["verdict"] = verdict_name(verdict);
  j["headline"] = headline;
  j["platform"] = platform;
  j["hw_config"] = hw_config;
  j["task"] = task;
  j["config"] = config;
  j["seed"] = seed;
  j["range_stress"] = tasks::is_range_stress_seed(seed);  // bit 50: the task's range-stress inputs
  j["build"] = {{"errors", errors},
                {"warnings", warnings},
                {"instructions", instruction_count},
                {"diagnostics", diagnostics}};
  if (verdict != Verdict::kBuildError && verdict != Verdict::kInputError) {
    nlohmann::json c = nlohmann::json::object();
    for (const auto& cv : counters) c[cv.name] = cv.value;
    j["cycles"] = cycles;
    j["counters"] = c;
    j["ideal"] = {{"cycles", ideal.total()},
                  {"bound", ideal.bound()},
                  {"dram", ideal.dram},
                  {"matrix", ideal.matrix},
                  {"vector", ideal.vector}};
    j["utilization"] = utilization;
    if (ideal.attainable > 0) {
      j["attainable"] = {{"cycles", ideal.attainable},
                         {"bound", ideal.attainable_bound},
                         {"why", ideal.attainable_why},
                         {"utilization", attainable_utilization}};
    }
    j["model_check"] = model_check;
    if (!phases.empty()) {
      nlohmann::json list = nlohmann::json::array();
      for (const auto& p : phases) {
        list.push_back(
            {{"name", p.name},
             {"cycles", p.cycles},
             {"share", cycles > 0 ? static_cast<double>(p.cycles) / static_cast<double>(cycles) : 0.0},
             {"marks", p.marks}});
      }
      j["phases"] = std::move(list);
      j["unmarked_cycles"] = unmarked_cycles;
    }
  }
  if (!runtime_error.empty()) {
    j["runtime_error"] = runtime_error;
    if (error_pc) j["error_pc"] = *error_pc;
  }
  if (!hang.empty()) j["hang"] = hang;
  if (compare) j["compare"] = tasks::to_json(*compare, 64);
  if (!trace.empty()) j["trace"] = trace;
  j["wall_seconds"] = wall_seconds;
  if (!cache.empty()) j["cache"] = cache;
  return j;
}

namespace {

// The assembler's diagnostics with the warnings after the first few counted instead of shown: a software
// pipeline that reuses registers on purpose draws dozens of hazard warnings, which `kcraft check` lists in
// full, and they should not bury the verdict and the numbers. Errors are always shown.
std::string abridged_diagnostics(const std::string& diagnostics, size_t warnings_shown) {
  static const std::regex start(R"(^\S.*:\d+:\d+: (error|warning|note): )");
  std::vector<std::string> blocks;
  std::vector<bool> is_warning;
  std::string tail;  // the summary line(s) after the last diagnostic ("1 error, 3 warnings")
  std::istringstream in(diagnostics);
  for (std::string line; std::getline(in, line);) {
    std::smatch m;
    if (std::regex_search(line, m, start)) {
      blocks.push_back(line + "\n");
      is_warning.push_back(m[1] == "warning");
    } else if (!blocks.empty() && (line.rfind(" ", 0) == 0 || line.rfind("hint:", 0) == 0)) {
      blocks.back() += line + "\n";
    } else {
      tail += line + "\n";
    }
  }
  std::string out;
  size_t warnings = 0, hidden = 0;
  for (size_t i = 0; i < blocks.size(); ++i) {
    if (is_warning[i] && ++warnings > warnings_shown) {
      ++hidden;
      continue;
    }
    out += blocks[i];
  }
  if (hidden > 0) {
    out += fmt::format("[{} more warning{}: `kcraft check` with the same --task lists them all]\n", hidden,
                       hidden == 1 ? "" : "s");
  }
  return out + tail;
}

}  // namespace

std::string EvalReport::to_text() const {
  std::string out = fmt::format("{}: {}\n", verdict_name(verdict), headline);
  out += fmt::format("task {} {} on {}/{} (seed {}{})\n", task, config, platform, hw_config, seed,
                     tasks::is_range_stress_seed(seed) ? ", range-stress inputs" : "");
  if (!diagnostics.empty()) out += abridged_diagnostics(diagnostics, 3);
  if (!runtime_error.empty()) out += "runtime error: " + runtime_error + "\n";
  if (!hang.empty()) out += hang;
  if (verdict != Verdict::kBuildError && verdict != Verdict::kInputError) {
    out += fmt::format("cycles {}  program {} words\n", cycles, instruction_count);
    // Shares of the bounds only mean something for a kernel that computed the right answer.
    if (verdict == Verdict::kPass) {
      out += fmt::format("utilization: {} ({}-bound roofline)\n",
                         share_of_cycles("ideal", ideal.total(), cycles), ideal.bound());
      if (ideal.attainable > 0) {
        out += fmt::format("attainable: {} ({})\n", share_of_cycles("bound", ideal.attainable, cycles),
                           ideal.attainable_why);
      }
    } else {
      out +=
          fmt::format("ideal {:.0f} cycles ({}-bound){}\n", ideal.total(), ideal.bound(),
                      ideal.attainable > 0 ? fmt::format(", attainable bound {:.0f}", ideal.attainable) : "");
    }
    std::string line;
    for (const auto& cv : counters) {
      if (cv.name == "cycles") continue;
      std::string item = fmt::format("{}={}", cv.name, cv.value);
      if (line.size() + item.size() + 1 > 100) {
        out += "  " + line + "\n";
        line.clear();
      }
      line += (line.empty() ? "" : " ") + item;
    }
    if (!line.empty()) out += "  " + line + "\n";
    if (!model_check.empty()) out += "functional model: " + model_check + "\n";
    if (!phases.empty()) out += format_phases();
  }
  if (compare) out += tasks::format_compare(*compare);
  for (const auto& t : trace) out += t + "\n";
  if (cache == "hit") {
    out +=
        fmt::format("(from the evaluation cache: simulated earlier in {:.2f} s; --no-cache runs it again)\n",
                    wall_seconds);
  }
  return out;
}

std::string EvalReport::format_phases() const {
  unsigned marked = 0;
  for (const auto& p : phases) marked += p.marks;
  if (marked == 0) {
    return "phases: the kernel wrote no phase markers (ADDR_PHASE_<NAME>; see `kcraft task show`)\n";
  }
  constexpr const char* kUnmarked = "(before the first marker)";
  size_t width = unmarked_cycles > 0 ? std::string(kUnmarked).size() : 8;
  for (const auto& p : phases) width = std::max(width, p.name.size());
  auto share = [&](uint64_t c) {
    return cycles > 0 ? 100.0 * static_cast<double>(c) / static_cast<double>(cycles) : 0.0;
  };
  std::string out = "phases (from the kernel's markers):\n";
  for (const auto& p : phases) {
    out += fmt::format("  {:<{}} {:>12} cycles {:>5.1f}%", p.name, width, p.cycles, share(p.cycles));
    if (p.marks != 1) out += fmt::format("  ({} marks)", p.marks);
    out += "\n";
  }
  if (unmarked_cycles > 0) {
    out += fmt::format("  {:<{}} {:>12} cycles {:>5.1f}%\n", "(before the first marker)", width,
                       unmarked_cycles, share(unmarked_cycles));
  }
  return out;
}

}  // namespace kcraft
