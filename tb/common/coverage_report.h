// The report of `kcraft coverage PLATFORM`, apart from tb/common/coverage.h because it is the one place that
// needs both the functional coverage and the RTL coverage (which builds on it).
#pragma once

#include <string>

#include "tb/common/coverage.h"
#include "tb/common/platform.h"
#include "tb/common/rtl_coverage.h"

namespace kcraft::tb {

// The report of `kcraft coverage`: the text table (with `notes`, which say what each source counts),
// the JSON, and the HTML page written to options.html_path when it is set; with `rtl` (--rtl) also the
// per-module RTL line and toggle table (JSON: "rtl").
CommandReport coverage_report(const std::string& platform, const CoverageOptions& options,
                              const Coverage& coverage, const std::string& notes,
                              const RtlCoverage* rtl = nullptr);

}  // namespace kcraft::tb
