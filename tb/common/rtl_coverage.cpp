#include "tb/common/rtl_coverage.h"

#include <fmt/format.h>

#include <unistd.h>

#include <charconv>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>

#include "tb/common/hw_variants.h"
#include "tb/common/text.h"
#include "tb/common/variant_build.h"

namespace kcraft::tb {

namespace {

// A .dat line's key: "\1k1\2v1\1k2\2v2..." (Verilator's coverage format, verilated_cov.cpp).
std::map<std::string, std::string> parse_key(const std::string& key) {
  std::map<std::string, std::string> fields;
  size_t pos = 0;
  while (pos < key.size()) {
    if (key[pos] != '\1') throw std::invalid_argument("field does not start with \\001");
    const size_t sep = key.find('\2', pos + 1);
    if (sep == std::string::npos) throw std::invalid_argument("field without \\002");
    size_t end = key.find('\1', sep + 1);
    if (end == std::string::npos) end = key.size();
    fields[key.substr(pos + 1, sep - pos - 1)] = key.substr(sep + 1, end - sep - 1);
    pos = end;
  }
  return fields;
}

// A whole decimal number of type T; std::invalid_argument naming `what` otherwise (stoul would take "-5",
// "12abc" or throw out_of_range).
template <typename T>
T whole_decimal(const std::string& text, const char* what) {
  T value{};
  const char* end = text.data() + text.size();
  const auto [ptr, ec] = std::from_chars(text.data(), end, value);
  if (text.empty() || ec != std::errc() || ptr != end)
    throw std::invalid_argument(fmt::format("{} '{}' is not a whole number", what, text));
  return value;
}

// "12-14,17" -> {12, 13, 14, 17}. A range is one block's source lines: a longer one than any source file
// has is malformed data, not a reason to allocate billions of entries.
std::vector<unsigned> parse_lines(const std::string& spec) {
  constexpr unsigned kLongestRange = 1u << 16;
  std::vector<unsigned> lines;
  std::istringstream in(spec);
  std::string part;
  while (std::getline(in, part, ',')) {
    if (part.empty()) continue;
    const size_t dash = part.find('-');
    const auto first = whole_decimal<unsigned>(part.substr(0, dash), "line");
    const auto last =
        dash == std::string::npos ? first : whole_decimal<unsigned>(part.substr(dash + 1), "line");
    if (last < first || last - first >= kLongestRange)
      throw std::invalid_argument(fmt::format("line range '{}' is not a block's lines", part));
    for (unsigned l = first;; ++l) {
      lines.push_back(l);
      if (l == last) break;
    }
  }
  return lines;
}

std::string share_text(size_t hit, size_t total) {
  return total == 0 ? "-"
                    : fmt::format("{:.0f}%", 100.0 * static_cast<double>(hit) / static_cast<double>(total));
}

}  // namespace

void RtlCoverage::absorb_dat(const std::string& dat_path, CoverageSource source) {
  std::ifstream in(dat_path, std::ios::binary);
  if (!in) throw std::runtime_error("cannot read the RTL coverage file " + dat_path);
  std::ostringstream s;
  s << in.rdbuf();
  absorb_text(s.str(), source, dat_path);
}

void RtlCoverage::absorb_text(const std::string& text, CoverageSource source, const std::string& what) {
  const auto src = static_cast<unsigned>(source);
  std::istringstream in(text);
  std::string line;
  unsigned number = 0;
  while (std::getline(in, line)) {
    ++number;
    if (line.empty() || line[0] == '#') continue;
    // C '<key>' <count>
    const size_t open = line.find('\''), close = line.rfind('\'');
    if (line.rfind("C ", 0) != 0 || open == std::string::npos || close <= open)
      throw std::runtime_error(fmt::format("{}:{}: not a Verilator coverage line", what, number));
    std::map<std::string, std::string> f;
    uint64_t count = 0;
    std::vector<unsigned> point_lines;
    std::string kind, module;
    try {
      f = parse_key(line.substr(open + 1, close - open - 1));
      std::string count_text = line.substr(close + 1);
      count_text.erase(0, count_text.find_first_not_of(" \t"));
      count_text.erase(count_text.find_last_not_of(" \t\r") + 1);
      count = whole_decimal<uint64_t>(count_text, "count");
      const std::string& page = f["page"];
      const size_t slash = page.find('/');
      if (slash == std::string::npos) continue;  // a user cover point: neither line nor toggle
      kind = page.substr(0, slash);
      module = page.substr(slash + 1);
      if (kind == "v_line" || kind == "v_branch") point_lines = parse_lines(f["S"].empty() ? f["l"] : f["S"]);
    } catch (const std::exception& e) {
      throw std::runtime_error(
          fmt::format("{}:{}: not a Verilator coverage line ({})", what, number, e.what()));
    }
    if (kind == "v_toggle") {
      // The same point in every instance of the module: file, line, column and the signal bit.
      auto& hits = toggles_[module][fmt::format("{}:{}:{}:{}", f["f"], f["l"], f["n"], f["o"])];
      hits[src] += count;
    } else {
      for (unsigned l : point_lines) lines_[module][fmt::format("{}:{}", f["f"], l)][src] += count;
    }
  }
}

void RtlCoverage::take(AcceleratorHw& hw, CoverageSource source, const std::string& keep_dir) {
  if (!keep_dir.empty()) std::filesystem::create_directories(keep_dir);
  const auto dat =
      keep_dir.empty()
          ? std::filesystem::temp_directory_path() /
                fmt::format("kcraft-rtlcov-{}-{}.dat", ::getpid(), coverage_source_name(source))
          : std::filesystem::path(keep_dir) / fmt::format("{}.dat", coverage_source_name(source));
  if (!hw.take_rtl_coverage(dat.string()))
    throw std::logic_error("configuration " + hw.config_name() + " is not a coverage build of the RTL");
  absorb_dat(dat.string(), source);
  if (keep_dir.empty()) std::filesystem::remove(dat);
}

std::vector<RtlModuleCoverage> RtlCoverage::modules() const {
  std::set<std::string> names;
  for (const auto& [m, _] : lines_) names.insert(m);
  for (const auto& [m, _] : toggles_) names.insert(m);
  std::vector<RtlModuleCoverage> out;
  RtlModuleCoverage all;
  all.module = "all modules";
  const auto count = [](const std::map<std::string, Hits>& points, size_t& total,
                        std::array<size_t, kNumCoverageSources>& hit, size_t& hit_any) {
    for (const auto& [_, hits] : points) {
      ++total;
      bool any = false;
      for (unsigned s = 0; s < kNumCoverageSources; ++s) {
        if (hits[s] > 0) ++hit[s], any = true;
      }
      if (any) ++hit_any;
    }
  };
  for (const auto& name : names) {
    RtlModuleCoverage m;
    m.module = name;
    if (auto it = lines_.find(name); it != lines_.end())
      count(it->second, m.lines, m.lines_hit, m.lines_hit_any);
    if (auto it = toggles_.find(name); it != toggles_.end())
      count(it->second, m.toggles, m.toggles_hit, m.toggles_hit_any);
    all.lines += m.lines;
    all.toggles += m.toggles;
    all.lines_hit_any += m.lines_hit_any;
    all.toggles_hit_any += m.toggles_hit_any;
    for (unsigned s = 0; s < kNumCoverageSources; ++s) {
      all.lines_hit[s] += m.lines_hit[s];
      all.toggles_hit[s] += m.toggles_hit[s];
    }
    out.push_back(m);
  }
  out.push_back(all);
  return out;
}

nlohmann::json RtlCoverage::to_json() const {
  nlohmann::json rows = nlohmann::json::array();
  for (const auto& m : modules()) {
    const auto part = [](size_t total, const std::array<size_t, kNumCoverageSources>& hit, size_t any) {
      nlohmann::json j{{"total", total}, {"combined", any}};
      for (unsigned s = 0; s < kNumCoverageSources; ++s)
        j[coverage_source_name(static_cast<CoverageSource>(s))] = hit[s];
      return j;
    };
    rows.push_back({{"module", m.module},
                    {"lines", part(m.lines, m.lines_hit, m.lines_hit_any)},
                    {"toggles", part(m.toggles, m.toggles_hit, m.toggles_hit_any)}});
  }
  return rows;
}

std::string RtlCoverage::text() const {
  const auto rows = modules();
  size_t width = 6;
  for (const auto& m : rows) width = std::max(width, m.module.size());
  std::string out = fmt::format("{:<{}}  {:>17}  {:>17}  {:>28}\n", "module", width, "lines hit/total",
                                "toggles hit/total", "lines by source (d/r/b)");
  for (const auto& m : rows) {
    out += fmt::format("{:<{}}  {:>12} {:>4}  {:>12} {:>4}  {:>28}\n", m.module, width,
                       fmt::format("{}/{}", m.lines_hit_any, m.lines), share_text(m.lines_hit_any, m.lines),
                       fmt::format("{}/{}", m.toggles_hit_any, m.toggles),
                       share_text(m.toggles_hit_any, m.toggles),
                       fmt::format("{}/{}/{}", m.lines_hit[0], m.lines_hit[1], m.lines_hit[2]));
  }
  return out;
}

std::string RtlCoverage::html() const {
  // Lines and toggles under one heading each, so that the per-source columns say which they count; the
  // combined cells never wrap (hit/total and share read as one value).
  std::string out =
      "<h2 id=\"rtl\">RTL coverage (Verilator line and toggle, per module over its instances)</h2>\n"
      "<table id=\"rtl-table\"><tr><th rowspan=\"2\">module</th><th colspan=\"4\" "
      "style=\"text-align:center\">lines hit</th>"
      "<th colspan=\"4\" style=\"text-align:center\">toggles hit</th></tr>\n<tr>";
  for (int part = 0; part < 2; ++part) {
    for (unsigned s = 0; s < kNumCoverageSources; ++s)
      out += fmt::format("<th>{}</th>", coverage_source_name(static_cast<CoverageSource>(s)));
    out += "<th>combined</th>";
  }
  out += "</tr>\n";
  const auto combined = [](size_t hit, size_t total) {
    return fmt::format("<td style=\"white-space:nowrap\">{}/{} ({})</td>", hit, total,
                       share_text(hit, total));
  };
  const auto rows = modules();
  for (const auto& m : rows) {
    const bool last = &m == &rows.back();
    out += fmt::format("<tr{}><td>{}</td>", last ? " style=\"font-weight:bold\"" : "", html_escape(m.module));
    for (unsigned s = 0; s < kNumCoverageSources; ++s) out += fmt::format("<td>{}</td>", m.lines_hit[s]);
    out += combined(m.lines_hit_any, m.lines);
    for (unsigned s = 0; s < kNumCoverageSources; ++s) out += fmt::format("<td>{}</td>", m.toggles_hit[s]);
    out += combined(m.toggles_hit_any, m.toggles) + "</tr>\n";
  }
  return out + "</table>\n";
}

std::string prepare_rtl_coverage_model(const std::string& platform, const HwConfig& config, unsigned jobs,
                                       std::string& note) {
  VariantPluginRequest request;
  request.platform = platform;
  request.build = config.build;
  std::string params;
  for (const auto& [key, value] : config.build) params += fmt::format("{}={};", key, value);
  request.model = fmt::format("c{:012x}", variant_hash(params) & 0xFFFFFFFFFFFFull);
  request.rtl_coverage = true;
  request.jobs = jobs;
  request.label = fmt::format("the coverage build of {}/{}", platform, config.name);
  const auto built = build_variant_plugin(request, variant_build_info(platform));
  note = built.rebuilt ? fmt::format("built in {:.0f} s", built.seconds) : "cached";
  note += " (" + built.plugin.string() + ")";
  const std::string name = config.name + "_rtlcov";
  register_variant_plugin(platform, name, built.plugin);
  return name;
}

}  // namespace kcraft::tb
