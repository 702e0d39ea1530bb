#include "tb/common/coverage.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <fstream>
#include <stdexcept>

#include <fmt/format.h>

#include "tasks/common/inputs.h"
#include "tb/common/text.h"

namespace kcraft::tb {

namespace {

constexpr std::array<CoverageSource, kNumCoverageSources> kSources{
    CoverageSource::kDirected, CoverageSource::kRandom, CoverageSource::kBaselines};

unsigned index_of(CoverageSource source) {
  return static_cast<unsigned>(source);
}

std::string covered_percent(size_t covered, size_t total) {
  return total == 0 ? "-" : fmt::format("{:.0f}%", 100.0 * static_cast<double>(covered) / total);
}

}  // namespace

const char* coverage_source_name(CoverageSource source) {
  switch (source) {
    case CoverageSource::kDirected:
      return "directed";
    case CoverageSource::kRandom:
      return "random";
    case CoverageSource::kBaselines:
      return "baselines";
  }
  return "unknown";
}

uint64_t CoverageBin::total_hits() const {
  uint64_t sum = 0;
  for (uint64_t h : hits) sum += h;
  return sum;
}

void Coverage::declare(const std::string& group, const std::string& name) {
  const auto key = std::make_pair(group, name);
  if (index_.count(key) != 0) return;
  index_.emplace(key, bins_.size());
  bins_.push_back(CoverageBin{group, name, {}});
}

bool Coverage::declared(const std::string& group, const std::string& name) const {
  return index_.count(std::make_pair(group, name)) != 0;
}

CoverageBin& Coverage::find(const std::string& group, const std::string& name) {
  const auto it = index_.find(std::make_pair(group, name));
  if (it == index_.end())
    throw std::logic_error(fmt::format("coverage bin '{}' of group '{}' was never declared", name, group));
  return bins_[it->second];
}

const CoverageBin& Coverage::find(const std::string& group, const std::string& name) const {
  return const_cast<Coverage*>(this)->find(group, name);
}

void Coverage::hit(const std::string& group, const std::string& name, CoverageSource source, uint64_t count) {
  find(group, name).hits[index_of(source)] += count;
}

uint64_t Coverage::hits(const std::string& group, const std::string& name, CoverageSource source) const {
  return find(group, name).hits[index_of(source)];
}

uint64_t Coverage::hits(const std::string& group, const std::string& name) const {
  return find(group, name).total_hits();
}

void Coverage::merge(const Coverage& other) {
  for (const CoverageBin& b : other.bins_) {
    declare(b.group, b.name);
    CoverageBin& mine = find(b.group, b.name);
    for (unsigned s = 0; s < kNumCoverageSources; ++s) mine.hits[s] += b.hits[s];
  }
}

std::vector<std::string> Coverage::groups() const {
  std::vector<std::string> out;
  for (const CoverageBin& b : bins_) {
    if (std::find(out.begin(), out.end(), b.group) == out.end()) out.push_back(b.group);
  }
  return out;
}

std::vector<CoverageGroupSummary> Coverage::summary() const {
  std::vector<CoverageGroupSummary> out;
  for (const std::string& g : groups()) {
    CoverageGroupSummary s;
    s.group = g;
    for (const CoverageBin& b : bins_) {
      if (b.group != g) continue;
      ++s.total;
      for (unsigned i = 0; i < kNumCoverageSources; ++i) s.covered[i] += b.hits[i] > 0 ? 1 : 0;
      if (b.total_hits() > 0) {
        ++s.covered_any;
      } else {
        s.never_hit.push_back(b.name);
      }
    }
    out.push_back(std::move(s));
  }
  return out;
}

nlohmann::json Coverage::to_json() const {
  nlohmann::json groups = nlohmann::json::array();
  for (const CoverageGroupSummary& s : summary()) {
    nlohmann::json covered;
    for (CoverageSource src : kSources) covered[coverage_source_name(src)] = s.covered[index_of(src)];
    covered["combined"] = s.covered_any;
    groups.push_back(
        {{"group", s.group}, {"total", s.total}, {"covered", covered}, {"never_hit", s.never_hit}});
  }
  nlohmann::json bins = nlohmann::json::array();
  for (const CoverageBin& b : bins_) {
    nlohmann::json hits;
    for (CoverageSource src : kSources) hits[coverage_source_name(src)] = b.hits[index_of(src)];
    bins.push_back({{"group", b.group}, {"name", b.name}, {"hits", hits}});
  }
  return {{"groups", groups}, {"bins", bins}};
}

Coverage Coverage::from_json(const nlohmann::json& json) {
  if (!json.is_object() || !json.contains("bins") || !json["bins"].is_array())
    throw std::invalid_argument(
        "coverage JSON: expected an object with a \"bins\" array (kcraft coverage --json)");
  Coverage c;
  for (const auto& b : json["bins"]) {
    if (!b.is_object() || !b.contains("group") || !b.contains("name") || !b["group"].is_string() ||
        !b["name"].is_string())
      throw std::invalid_argument("coverage JSON: every bin needs string \"group\" and \"name\"");
    const std::string group = b["group"], name = b["name"];
    c.declare(group, name);
    if (!b.contains("hits")) continue;
    for (CoverageSource src : kSources) {
      const auto it = b["hits"].find(coverage_source_name(src));
      if (it == b["hits"].end()) continue;
      if (!it->is_number_unsigned())
        throw std::invalid_argument(fmt::format("coverage JSON: bin '{}' of '{}': hits.{} is not a count",
                                                name, group, coverage_source_name(src)));
      c.hit(group, name, src, it->get<uint64_t>());
    }
  }
  return c;
}

std::string Coverage::text() const {
  const auto groups = summary();
  size_t width = 5;
  for (const auto& s : groups) width = std::max(width, s.group.size());
  std::string out = fmt::format("{:<{}}  {:>11}  {:>11}  {:>11}  {:>15}\n", "group", width, "directed",
                                "random", "baselines", "combined");
  size_t total = 0, covered = 0;
  for (const auto& s : groups) {
    out += fmt::format("{:<{}}", s.group, width);
    for (unsigned i = 0; i < kNumCoverageSources; ++i)
      out += fmt::format("  {:>11}", fmt::format("{}/{}", s.covered[i], s.total));
    out += fmt::format("  {:>15}\n", fmt::format("{}/{} {}", s.covered_any, s.total,
                                                 covered_percent(s.covered_any, s.total)));
    total += s.total;
    covered += s.covered_any;
  }
  out += fmt::format("{:<{}}  {:>11}  {:>11}  {:>11}  {:>15}\n", "all bins", width, "", "", "",
                     fmt::format("{}/{} {}", covered, total, covered_percent(covered, total)));
  for (const auto& s : groups) {
    if (s.never_hit.empty()) continue;
    out += fmt::format("never hit in {} ({}):", s.group, s.never_hit.size());
    for (const auto& n : s.never_hit) out += " " + n;
    out += "\n";
  }
  return out;
}

std::string Coverage::html(const std::string& title, const std::string& notes,
                           const std::string& after_summary) const {
  std::string out = fmt::format(
      "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>{0}</title>\n<style>\n"
      "body{{font-family:sans-serif;margin:2em;max-width:80em}} table{{border-collapse:collapse;margin:1em "
      "0}}\n"
      "td,th{{border:1px solid #ccc;padding:2px 8px;text-align:right}} "
      "td:first-child,th:first-child{{text-align:left}}\n"
      ".bar{{display:inline-block;height:0.8em;background:#4a8}} "
      ".barbg{{display:inline-block;width:10em;text-align:left;"
      "background:#eee}}\n.miss{{background:#fdd}} pre{{white-space:pre-wrap}}\n</style></head><body>\n"
      "<h1>{0}</h1>\n<pre>{1}</pre>\n<h2>Summary</h2>\n<table id=\"summary\"><tr><th>group</th><th>bins</th>"
      "<th>directed</th><th>random</th><th>baselines</th><th>combined</th><th></th></tr>\n",
      html_escape(title), html_escape(notes));
  const auto groups = summary();
  for (const auto& s : groups) {
    const double share = s.total == 0 ? 0 : static_cast<double>(s.covered_any) / s.total;
    out += fmt::format("<tr><td><a href=\"#g{}\">{}</a></td><td>{}</td>", &s - groups.data(),
                       html_escape(s.group), s.total);
    for (unsigned i = 0; i < kNumCoverageSources; ++i) out += fmt::format("<td>{}</td>", s.covered[i]);
    out += fmt::format(
        "<td>{} ({})</td><td><span class=\"barbg\"><span class=\"bar\" "
        "style=\"width:{:.1f}em\"></span></span>"
        "</td></tr>\n",
        s.covered_any, covered_percent(s.covered_any, s.total), 10 * share);
  }
  out += "</table>\n" + after_summary;
  for (const auto& s : groups) {
    out += fmt::format("<h2 id=\"g{}\">{}: {}/{} covered</h2>\n", &s - groups.data(), html_escape(s.group),
                       s.covered_any, s.total);
    if (!s.never_hit.empty()) {
      out += "<p>Never hit:";
      for (const auto& n : s.never_hit) out += " <code>" + html_escape(n) + "</code>";
      out += "</p>\n";
    }
    out += "<table><tr><th>bin</th><th>directed</th><th>random</th><th>baselines</th></tr>\n";
    for (const CoverageBin& b : bins_) {
      if (b.group != s.group) continue;
      out +=
          fmt::format("<tr{}><td>{}</td>", b.total_hits() == 0 ? " class=\"miss\"" : "", html_escape(b.name));
      for (uint64_t h : b.hits) out += fmt::format("<td>{}</td>", h);
      out += "</tr>\n";
    }
    out += "</table>\n";
  }
  return out + "</body></html>\n";
}

std::vector<CoverageBinName> never_hit_bins(const Coverage& coverage) {
  std::vector<CoverageBinName> out;
  for (const CoverageBin& b : coverage.bins()) {
    if (b.total_hits() == 0) out.push_back({b.group, b.name});
  }
  return out;
}

Coverage load_coverage_json(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw std::invalid_argument("cannot read coverage file " + path);
  try {
    return Coverage::from_json(nlohmann::json::parse(in));
  } catch (const nlohmann::json::exception& e) {
    throw std::invalid_argument(path + ": not JSON (kcraft coverage --json writes it): " + e.what());
  } catch (const std::invalid_argument& e) {
    throw std::invalid_argument(path + ": " + e.what());
  }
}

bool focus_has_group(const std::vector<CoverageBinName>& focus, const std::string& group) {
  return std::any_of(focus.begin(), focus.end(), [&](const CoverageBinName& b) { return b.group == group; });
}

void declare_isa_bins(Coverage& coverage, const isa::IsaSpec& spec) {
  for (const auto& insn : spec.instructions) coverage.declare("instruction", insn.name);
  for (const auto& e : spec.errors.codes) {
    if (e.code != 0) coverage.declare("error", e.name);
  }
  for (const auto& s : spec.stall_causes.codes) {
    if (s.code != 0) coverage.declare("stall cause", s.name);
  }
}

const char* fp32_class(uint32_t bits) {
  const uint32_t exponent = (bits >> 23) & 0xFF, mantissa = bits & 0x7FFFFF;
  if (exponent == 0) return mantissa == 0 ? "zero" : "subnormal";
  if (exponent == 0xFF) return mantissa == 0 ? "inf" : "nan";
  return "normal";
}

const char* fp32_signed_class(uint32_t bits) {
  const bool negative = (bits >> 31) != 0;
  const std::string cls = fp32_class(bits);
  if (cls == "zero") return negative ? "-zero" : "+zero";
  if (cls == "inf") return negative ? "-inf" : "+inf";
  // IEEE 754-2008: the mantissa's top bit set is a quiet NaN, clear a signalling one.
  if (cls == "nan") return (bits & 0x400000u) != 0 ? "qnan" : "snan";
  return cls == "subnormal" ? "subnormal" : "normal";
}

std::string fp_operand_class_bin(const std::string& instruction, const std::string& operand,
                                 const std::string& cls) {
  return fmt::format("{} {}={}", instruction, operand, cls);
}

std::vector<CoverageProgram> isa_example_programs(const Platform& platform, const isa::IsaSpec& spec,
                                                  size_t dram_bytes) {
  std::vector<CoverageProgram> out;
  for (const isa::ExampleProgram& ex : spec.examples) {
    // Only the example's own symbols, as the ISA generator assembles it (examples define the rest).
    isa::SymbolTable symbols;
    for (const auto& [name, value] : ex.symbols) symbols[name] = value;
    CoverageProgram prog;
    prog.label = "example '" + ex.title + "'";
    prog.assembled = platform.assemble(ex.source, "example.s", symbols);
    if (!prog.assembled.ok)
      throw std::runtime_error("the ISA reference's " + prog.label + " does not assemble");
    prog.dram.assign(dram_bytes, 0);
    out.push_back(std::move(prog));
  }
  return out;
}

BaselinePrograms baseline_programs(const Platform& platform, const CoverageOptions& options,
                                   const tasks::TaskRegistry& tasks) {
  BaselinePrograms out;
  const auto compiler = platform.baseline_compiler(options.hw_config);
  if (!compiler) return out;
  for (const std::string& task : tasks.names()) {
    if (!compiler->supports(task)) continue;
    const tasks::TaskSpec& spec = tasks.get(task);
    for (const std::string& config : options.configs) {
      const std::string cell = task + " " + config;
      if (!spec.has_config(config))
        throw std::invalid_argument("task " + task + " has no configuration " + config);
      const auto cfg = spec.resolve(config, platform.dtype());
      std::string why = platform.unsupported_reason(cfg, options.hw_config);
      if (why.empty()) why = compiler->unsupported_reason(cfg);
      if (!why.empty()) {
        out.skipped.push_back(cell + ": " + why);
        continue;
      }
      const auto layout = platform.layout(cfg);
      const auto kernel = compiler->generate(cfg, layout);
      CoverageProgram prog;
      prog.label = cell + " baseline";
      prog.assembled = platform.assemble(kernel.source, platform.kernel_file_name(kernel.language),
                                         platform.symbols(options.hw_config, &cfg, &layout));
      if (!prog.assembled.ok) throw std::runtime_error("the " + prog.label + " kernel does not assemble");
      prog.dram = tasks::make_dram_image(layout, tasks::make_inputs(cfg, 1));
      prog.dram.resize(layout.total_bytes, 0xFF);
      out.programs.push_back(std::move(prog));
    }
  }
  return out;
}

}  // namespace kcraft::tb
