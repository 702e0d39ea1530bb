// `kcraft codesign`'s output: text, JSON, an HTML page and an explore spec (agent/bench/codesign.h).
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <sstream>

#include "agent/bench/codesign.h"

namespace kcraft::bench::codesign {

namespace {

using nlohmann::json;

std::vector<std::pair<std::string, double>> ranked(const std::map<std::string, double>& m) {
  std::vector<std::pair<std::string, double>> v(m.begin(), m.end());
  std::stable_sort(v.begin(), v.end(), [](const auto& a, const auto& b) { return a.second > b.second; });
  return v;
}

json ranked_json(const std::map<std::string, double>& m, double total) {
  json out = json::array();
  for (const auto& [name, cycles] : ranked(m))
    out.push_back({{"name", name}, {"cycles", cycles}, {"share", total > 0 ? cycles / total : 0}});
  return out;
}

std::string table(const std::string& title, const std::map<std::string, double>& m, double total,
                  size_t top) {
  std::string out = fmt::format("{}\n", title);
  size_t n = 0;
  for (const auto& [name, cycles] : ranked(m)) {
    if (n++ == top) {
      out += fmt::format("  ... {} more\n", m.size() - top);
      break;
    }
    out += fmt::format("  {:<28} {:>14.0f}  {:5.1f}%\n", name, cycles, total > 0 ? 100 * cycles / total : 0);
  }
  return out;
}

std::string html_escape(const std::string& s) {
  std::string out;
  for (char c : s) {
    if (c == '<') {
      out += "&lt;";
    } else if (c == '>') {
      out += "&gt;";
    } else if (c == '&') {
      out += "&amp;";
    } else {
      out += c;
    }
  }
  return out;
}

std::string html_table(const std::string& title, const std::map<std::string, double>& m, double total) {
  std::string h =
      "<h3>" + html_escape(title) + "</h3><table><tr><th>name</th><th>cycles</th><th>share</th></tr>";
  for (const auto& [name, cycles] : ranked(m)) {
    h += fmt::format("<tr><td>{}</td><td>{:.0f}</td><td>{:.1f}%</td></tr>", html_escape(name), cycles,
                     total > 0 ? 100 * cycles / total : 0);
  }
  return h + "</table>\n";
}

// Estimated speedup against cells added: one point per candidate that saves cycles; unknown sizes at 0.
// Estimated speedup (log scale of speedup - 1, so 0.5 % and 100 % both show) against cells added; each
// point labelled with its rank in the table; unknown sizes at 0.
std::string chart(const std::vector<Candidate>& candidates) {
  std::vector<std::pair<size_t, const Candidate*>> points;
  for (size_t i = 0; i < candidates.size() && points.size() < 20; ++i) {
    if (candidates[i].saved_cycles > 0 && candidates[i].speedup > 1)
      points.emplace_back(i + 1, &candidates[i]);
  }
  if (points.empty()) return "<p>No candidate saves cycles.</p>";
  const double w = 640, h = 320, left = 70, bottom = 40, top = 20;
  double lo = 1e9, hi = -1e9, max_cells = 1;
  for (const auto& [rank, c] : points) {
    lo = std::min(lo, std::log10(c->speedup - 1));
    hi = std::max(hi, std::log10(c->speedup - 1));
    max_cells = std::max(max_cells, static_cast<double>(std::max<int64_t>(c->cells_added, 0)));
  }
  lo = std::floor(lo);
  hi = std::max(std::ceil(hi), lo + 1);
  auto y_of = [&](double v) { return (h - bottom) - (h - bottom - top) * (v - lo) / (hi - lo); };
  std::string svg = fmt::format(R"(<svg xmlns="http://www.w3.org/2000/svg" width="{}" height="{}">)", w, h);
  svg +=
      fmt::format(R"(<line x1="{0}" y1="{1}" x2="{2}" y2="{1}" stroke="black"/>)", left, h - bottom, w - 10);
  svg += fmt::format(R"(<line x1="{0}" y1="{2}" x2="{0}" y2="{1}" stroke="black"/>)", left, h - bottom, top);
  svg += fmt::format(
      R"(<text x="{}" y="{}" font-size="12">cells added (0 = not synthesized, or none; max {:.0f})</text>)",
      left + 100, h - 8, max_cells);
  svg += R"(<text x="4" y="12" font-size="12">workload speedup</text>)";
  for (double e = lo; e <= hi + 1e-9; e += 1) {
    svg += fmt::format(R"(<text x="4" y="{:.1f}" font-size="11">{:.4g}x</text>)", y_of(e) + 4,
                       1 + std::pow(10.0, e));
    svg += fmt::format(R"(<line x1="{}" y1="{:.1f}" x2="{}" y2="{:.1f}" stroke="#ddd"/>)", left, y_of(e),
                       w - 10, y_of(e));
  }
  for (const auto& [rank, c] : points) {
    const double cells = static_cast<double>(std::max<int64_t>(c->cells_added, 0));
    const double x = left + (w - left - 40) * cells / max_cells;
    const double y = y_of(std::log10(c->speedup - 1));
    svg += fmt::format(R"(<circle cx="{:.1f}" cy="{:.1f}" r="4" fill="{}"><title>{}</title></circle>)", x, y,
                       c->kind == "parameter" ? "#1b9e77" : "#d95f02", html_escape(c->title));
    svg += fmt::format(R"(<text x="{:.1f}" y="{:.1f}" font-size="10">{}</text>)", x + 6 + 14 * (rank % 3),
                       y + 3, rank);
  }
  return svg + "</svg><p>Points: the candidates by rank (green: parameters, orange: fusions).</p>\n";
}

}  // namespace

json profile_json(const WeightedProfile& w) {
  json runs = json::array();
  for (const auto& r : w.runs) {
    json by_instruction = json::object(), by_unit = json::object(), by_cause = json::object();
    for (const auto& [k, v] : r.by_instruction) by_instruction[k] = v;
    for (const auto& [k, v] : r.by_unit) by_unit[k] = v;
    for (const auto& [k, v] : r.by_cause) by_cause[k] = v;
    runs.push_back({{"task", r.task},
                    {"config", r.config},
                    {"kernel_from", r.kernel_from},
                    {"weight", r.weight},
                    {"cycles", r.cycles},
                    {"attributed", r.attributed()},
                    {"by_instruction", by_instruction},
                    {"by_unit", by_unit},
                    {"by_cause", by_cause}});
  }
  return {
      {"platform", w.platform},
      {"hw_config", w.hw_config},
      {"attribution_rule",
       "every cycle is charged once: an issue cycle to the instruction issued, any other cycle to the next "
       "instruction that issues, under the stall cause of the cycle (idle when none); after the last "
       "instruction, to the last"},
      {"total_cycles", w.total},
      {"by_instruction", ranked_json(w.by_instruction, w.total)},
      {"by_unit", ranked_json(w.by_unit, w.total)},
      {"by_cause", ranked_json(w.by_cause, w.total)},
      {"runs", runs},
      {"skipped", w.skipped}};
}

std::string profile_text(const WeightedProfile& w, size_t top) {
  std::string out = fmt::format("codesign profile: {}/{}, {} runs, {:.0f} weighted cycles\n", w.platform,
                                w.hw_config, w.runs.size(), w.total);
  out += "per task:\n";
  for (const auto& r : w.runs) {
    out += fmt::format("  {:<22} {:<3} weight {:<5g} {:>10} cycles  kernel: {}\n", r.task, r.config, r.weight,
                       r.cycles, r.kernel_from);
  }
  for (const auto& s : w.skipped) out += "  skipped: " + s + "\n";
  out += table("per instruction (issue cycles and the stalls before it):", w.by_instruction, w.total, top);
  out += table("per unit:", w.by_unit, w.total, top);
  out += table("per cause:", w.by_cause, w.total, top);
  return out;
}

json candidates_json(const WeightedProfile& w, const std::vector<Candidate>& candidates) {
  json list = json::array();
  size_t rank = 0;
  for (const auto& c : candidates) {
    json j = {{"rank", ++rank},
              {"kind", c.kind},
              {"title", c.title},
              {"workload_cycles", c.workload_cycles},
              {"saved_cycles", c.saved_cycles},
              {"speedup", c.speedup},
              {"occurrences", c.occurrences},
              {"estimate_rule", c.estimate_rule},
              {"evidence", c.evidence}};
    if (!c.explore_command.empty()) j["explore_command"] = c.explore_command;
    j["cells_added"] = c.cells_added >= 0 ? json(c.cells_added) : json(nullptr);
    list.push_back(std::move(j));
  }
  return {{"platform", w.platform},
          {"hw_config", w.hw_config},
          {"total_cycles", w.total},
          {"fusion_rule", w.rules.fusion_rule},
          {"candidates", list}};
}

std::string candidates_text(const WeightedProfile& w, const std::vector<Candidate>& candidates) {
  std::string out = fmt::format("codesign propose: {}/{}, {:.0f} weighted cycles in the workload\n",
                                w.platform, w.hw_config, w.total);
  out +=
      "fusion estimate: saved = per occurrence, the later instruction(s)' issue cycles and the stalls spent "
      "waiting for the earlier part; " +
      w.rules.fusion_rule + "\n";
  size_t rank = 0, unused = 0;
  for (const auto& c : candidates) {
    if (c.kind == "unused") {
      ++unused;
      continue;
    }
    out += fmt::format("{:>3}. {:<9} {}\n", ++rank, c.kind, c.title);
    if (c.kind == "fusion" || c.kind == "accumulation") {
      out += fmt::format("     {} occurrences, {:.0f} cycles, saves ~{:.0f} (workload speedup {:.4f}x)\n",
                         c.occurrences, c.workload_cycles, c.saved_cycles, c.speedup);
    } else {
      out += fmt::format("     {:.0f} stall cycles; saves at most {:.0f} (workload speedup <= {:.4f}x)\n",
                         c.workload_cycles, c.saved_cycles, c.speedup);
      out += "     " + c.estimate_rule + "\n     " + c.explore_command + "\n";
    }
  }
  if (unused > 0) {
    out += fmt::format("unused or rarely used instructions ({}):", unused);
    size_t n = 0;
    for (const auto& c : candidates) {
      if (c.kind != "unused") continue;
      out += (n++ % 6 == 0 ? "\n    " : ", ") + c.evidence["instruction"].get<std::string>();
      if (c.occurrences > 0) out += fmt::format(" ({})", c.occurrences);
    }
    out += "\n";
  }
  return out;
}

std::string codesign_html(const WeightedProfile& w, const std::vector<Candidate>* candidates) {
  std::string h =
      "<!DOCTYPE html><html><head><meta charset=\"utf-8\"><title>kcraft codesign</title><style>"
      "body{font-family:sans-serif;margin:2em}table{border-collapse:collapse;margin-bottom:1em}"
      "td,th{border:1px solid #ccc;padding:2px 8px;text-align:right}td:first-child{text-align:left}"
      "code{font-size:80%;white-space:normal}"
      "</style></head><body>\n";
  h += fmt::format("<h1>ISA co-design: {}/{}</h1>\n", w.platform, w.hw_config);
  if (candidates != nullptr) {
    h += "<section id=\"candidates\"><h2>Candidates</h2><p>Fusion estimate: " +
         html_escape(w.rules.fusion_rule) + "</p>" + chart(*candidates) +
         "<table><tr><th>rank</th><th>kind</th><th>candidate</th><th>occurrences</th><th>cycles</th>"
         "<th>saved</th><th>speedup</th><th>cells added</th><th>explore</th></tr>";
    size_t rank = 0;
    for (const auto& c : *candidates) {
      h += fmt::format(
          "<tr><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{:.0f}</td><td>{:.0f}</td><td>{:.4f}</td>"
          "<td>{}</td><td><code>{}</code></td></tr>",
          ++rank, c.kind, html_escape(c.title), c.occurrences, c.workload_cycles, c.saved_cycles, c.speedup,
          c.cells_added >= 0 ? std::to_string(c.cells_added) : "-", html_escape(c.explore_command));
    }
    h += "</table></section>\n";
  }
  h += "<section id=\"profile\"><h2>Workload profile</h2>";
  h += fmt::format(
      "<p>{} runs, {:.0f} weighted cycles. Every cycle is charged once: an issue cycle to the "
      "instruction issued, any other cycle to the next instruction that issues, under its stall "
      "cause.</p><table><tr><th>task</th><th>config</th><th>weight</th><th>cycles</th>"
      "<th>kernel</th></tr>",
      w.runs.size(), w.total);
  for (const auto& r : w.runs) {
    h += fmt::format("<tr><td>{}</td><td>{}</td><td>{:g}</td><td>{}</td><td>{}</td></tr>", r.task, r.config,
                     r.weight, r.cycles, html_escape(r.kernel_from));
  }
  h += "</table>";
  h += html_table("Per instruction", w.by_instruction, w.total);
  h += html_table("Per unit", w.by_unit, w.total);
  h += html_table("Per stall cause", w.by_cause, w.total);
  h += "</section>\n";
  return h + "</body></html>\n";
}

std::string explore_script(const WeightedProfile& w, const std::vector<Candidate>& candidates) {
  std::string out = fmt::format(
      "#!/bin/sh\n# kcraft codesign propose {} --hw {}: the parameter candidates, each an exploration\n"
      "set -e\n",
      w.platform, w.hw_config);
  for (const auto& c : candidates) {
    if (c.kind != "parameter") continue;
    out += fmt::format("# {}: {:.0f} stall cycles, workload speedup <= {:.4f}x\n{}\n", c.title,
                       c.saved_cycles, c.speedup, c.explore_command);
  }
  return out;
}

}  // namespace kcraft::bench::codesign
