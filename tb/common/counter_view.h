// An evaluation's counters by name, for a platform's describe_counters(): the lookups and percentages every
// platform's summary is written in.
#pragma once

#include <algorithm>
#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <string_view>

#include "tb/common/evaluation.h"

namespace kcraft::tb {

class CounterView {
 public:
  explicit CounterView(const EvalReport& report)
      : cycles_(std::max<double>(1.0, static_cast<double>(report.cycles))) {
    for (const auto& c : report.counters) values_[c.name] = c.value;
  }

  // The counter's value; a counter the run did not report reads 0 (a summary line stays printable for a
  // platform variant without it).
  uint64_t operator()(std::string_view name) const {
    const auto it = values_.find(name);
    return it == values_.end() ? uint64_t{0} : it->second;
  }
  // As a percentage of the run's cycles.
  double percent_of_cycles(std::string_view name) const { return 100.0 * as_double(name) / cycles_; }
  // As a percentage of another counter (0 when that one is 0).
  double percent_of(std::string_view name, std::string_view whole) const {
    const double w = as_double(whole);
    return w > 0 ? 100.0 * as_double(name) / w : 0.0;
  }
  double as_double(std::string_view name) const { return static_cast<double>((*this)(name)); }
  double cycles() const { return cycles_; }  // at least 1

 private:
  std::map<std::string, uint64_t, std::less<>> values_;
  double cycles_;
};

}  // namespace kcraft::tb
