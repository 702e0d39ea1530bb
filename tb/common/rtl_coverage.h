// Verilator line and toggle coverage of a platform's RTL for `kcraft coverage PLATFORM --rtl`
// (docs/coverage.md). The runs go to a coverage build of the configuration: a variant plugin Verilated with
// --coverage-line --coverage-toggle (tb/common/variant_build.h), registered under its own configuration
// name. After each source the platform asks the model for its counts (AcceleratorHw::take_rtl_coverage,
// Verilator's coverage .dat format) and adds them here; the report is a per-module table.
//
// Per module, not per instance: a line or toggle point of a module counts as hit when any instance of the
// module hit it. Lines are the source lines of the module's line and branch coverage points (Verilator's
// `S` key, else the point's line); toggles are its toggle points (one per signal bit).
#pragma once

#include <array>
#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "isa/common/hw_config.h"
#include "tb/common/accelerator_hw.h"
#include "tb/common/coverage.h"

namespace kcraft::tb {

struct RtlModuleCoverage {
  std::string module;
  size_t lines = 0, toggles = 0;                                       // totals
  std::array<size_t, kNumCoverageSources> lines_hit{}, toggles_hit{};  // per source
  size_t lines_hit_any = 0, toggles_hit_any = 0;                       // over all sources
};

class RtlCoverage {
 public:
  // Adds a Verilator coverage file's points and counts under `source`. Throws std::runtime_error naming the
  // file when it cannot be read or a line is not in Verilator's format.
  void absorb_dat(const std::string& dat_path, CoverageSource source);
  // The same from the file's text.
  void absorb_text(const std::string& dat_text, CoverageSource source,
                   const std::string& what = "coverage data");

  // Takes the counts `hw` gathered since the last take (AcceleratorHw::take_rtl_coverage) under `source`.
  // With `keep_dir` the .dat file stays there as <source>.dat (for `verilator_coverage --annotate`).
  // Throws std::logic_error when `hw` is not a coverage build.
  void take(AcceleratorHw& hw, CoverageSource source, const std::string& keep_dir = "");

  // Modules in name order, then a last row "all modules".
  std::vector<RtlModuleCoverage> modules() const;
  bool empty() const { return lines_.empty() && toggles_.empty(); }

  // [{module, lines: {total, directed, random, baselines, combined}, toggles: {...}}]
  nlohmann::json to_json() const;
  std::string text() const;
  std::string html() const;  // an HTML section (a heading and the table)

 private:
  using Hits = std::array<uint64_t, kNumCoverageSources>;
  // module -> (file:line) -> hits; module -> toggle point -> hits.
  std::map<std::string, std::map<std::string, Hits>> lines_, toggles_;
};

// Builds (or finds in the variant cache) the coverage plugin of `config`'s build parameters for `platform`,
// and registers it (tb/common/hw_variants.h) under the returned configuration name "<config>_rtlcov". Call it
// before the platform's first simulation. `note` gets what happened ("built in 80 s", "cached"). Throws
// VariantBuildError when the build fails and std::invalid_argument when this kcraft cannot build variants.
std::string prepare_rtl_coverage_model(const std::string& platform, const HwConfig& config, unsigned jobs,
                                       std::string& note);

}  // namespace kcraft::tb
