#include "tb/common/coverage_report.h"

#include <fstream>
#include <stdexcept>

#include <fmt/format.h>

namespace kcraft::tb {

CommandReport coverage_report(const std::string& platform, const CoverageOptions& options,
                              const Coverage& coverage, const std::string& notes, const RtlCoverage* rtl) {
  CommandReport report;
  const std::string title = fmt::format("kcraft coverage {} --hw {}", platform, options.hw_config);
  report.text = title + "\n" + notes + "\n" + coverage.text();
  report.json = coverage.to_json();
  report.json["platform"] = platform;
  report.json["hw_config"] = options.hw_config;
  report.json["programs"] = options.programs;
  report.json["seed"] = options.seed;
  report.json["configs"] = options.configs;
  report.json["notes"] = notes;
  if (rtl) {
    report.text +=
        "\nRTL coverage (Verilator line and toggle, per module over its instances):\n" + rtl->text();
    report.json["rtl"] = rtl->to_json();
  }
  if (!options.html_path.empty()) {
    std::ofstream out(options.html_path);
    if (!out) throw std::runtime_error("cannot write " + options.html_path);
    out << coverage.html(title, notes, rtl ? rtl->html() : "");
    report.text += "HTML page: " + options.html_path + "\n";
  }
  return report;
}

}  // namespace kcraft::tb
