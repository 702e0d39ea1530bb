#include "isa/common/diagnostics.h"

#include <algorithm>
#include <cstdint>
#include <utility>

#include <fmt/format.h>

namespace kcraft::isa {
namespace {

// Where each line of `source` starts, so that rendering many diagnostics does not rescan the source for
// each one.
class LineIndex {
 public:
  explicit LineIndex(std::string_view source) : source_(source) {}

  // Line `line` (1-based) without its newline and carriage return; empty past the end.
  std::string_view line(int line) {
    if (starts_.empty()) {
      starts_.push_back(0);
      for (size_t i = source_.find('\n'); i != std::string_view::npos; i = source_.find('\n', i + 1)) {
        starts_.push_back(i + 1);
      }
    }
    if (line <= 0 || static_cast<size_t>(line) > starts_.size()) return {};
    const size_t start = starts_[static_cast<size_t>(line) - 1];
    size_t end =
        static_cast<size_t>(line) < starts_.size() ? starts_[static_cast<size_t>(line)] - 1 : source_.size();
    std::string_view text = source_.substr(start, end - start);
    if (!text.empty() && text.back() == '\r') text.remove_suffix(1);
    return text;
  }

 private:
  std::string_view source_;
  std::vector<size_t> starts_;  // built on first use
};

// ASCII upper case: what std::toupper does in the "C" locale kcraft runs in, without a library call per
// character (the edit distances of "did you mean" compare many characters).
char fold(char c) {
  return c >= 'a' && c <= 'z' ? static_cast<char>(c - 'a' + 'A') : c;
}

// Optimal string alignment distance, or `bound + 1` as soon as it is certain to exceed `bound` (pass
// SIZE_MAX for the exact distance). Three rolling rows (a transposition looks two rows back), on the
// stack for words of up to 63 characters.
size_t bounded_edit_distance(std::string_view a, std::string_view b, size_t bound) {
  const size_t m = b.size();
  constexpr size_t kStackRow = 64;
  size_t stack_rows[3][kStackRow];
  std::vector<size_t> heap_rows;
  size_t* before = stack_rows[0];
  size_t* previous = stack_rows[1];
  size_t* current = stack_rows[2];
  if (m + 1 > kStackRow) {
    heap_rows.assign(3 * (m + 1), 0);
    before = heap_rows.data();
    previous = before + (m + 1);
    current = previous + (m + 1);
  }
  for (size_t j = 0; j <= m; ++j) previous[j] = j;
  for (size_t i = 1; i <= a.size(); ++i) {
    current[0] = i;
    size_t row_min = i;
    const char ai = fold(a[i - 1]);
    for (size_t j = 1; j <= m; ++j) {
      const char bj = fold(b[j - 1]);
      const size_t cost = ai == bj ? 0 : 1;
      current[j] = std::min({previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost});
      if (i > 1 && j > 1 && ai == fold(b[j - 2]) && fold(a[i - 2]) == bj) {
        current[j] = std::min(current[j], before[j - 2] + 1);
      }
      row_min = std::min(row_min, current[j]);
    }
    // Every later cell comes from this row or the one before it (a transposition adds 1): once both
    // exceed the bound, so does the distance.
    if (bound != SIZE_MAX && row_min > bound && *std::min_element(previous, previous + m + 1) + 1 > bound) {
      return bound + 1;
    }
    std::swap(before, previous);
    std::swap(previous, current);
  }
  return bound != SIZE_MAX && previous[m] > bound ? bound + 1 : previous[m];
}

// Case-insensitive equality (edit distance 0) without the matrix.
bool equal_folded(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    if (fold(a[i]) != fold(b[i])) return false;
  }
  return true;
}

}  // namespace

std::string_view severity_name(Severity s) {
  switch (s) {
    case Severity::kError:
      return "error";
    case Severity::kWarning:
      return "warning";
    case Severity::kNote:
      return "note";
  }
  return "error";
}

std::string format_diagnostics(const std::vector<Diagnostic>& diagnostics, std::string_view source,
                               std::string_view filename) {
  std::string out;
  size_t errors = 0;
  size_t warnings = 0;
  LineIndex lines(source);
  for (const Diagnostic& d : diagnostics) {
    if (d.severity == Severity::kError) ++errors;
    if (d.severity == Severity::kWarning) ++warnings;
    if (d.line <= 0) {
      out += fmt::format("{}: {}: {}\n", filename, severity_name(d.severity), d.message);
    } else if (d.column <= 0) {
      out += fmt::format("{}:{}: {}: {}\n", filename, d.line, severity_name(d.severity), d.message);
    } else {
      out +=
          fmt::format("{}:{}:{}: {}: {}\n", filename, d.line, d.column, severity_name(d.severity), d.message);
    }
    if (d.line > 0) {
      const std::string_view text = lines.line(d.line);
      const std::string gutter = std::to_string(d.line);
      out += fmt::format(" {} | {}\n", gutter, text);
      if (d.column > 0) {
        // Copy tabs from the source so the caret lines up however tabs are displayed.
        std::string marker;
        for (int i = 0; i < d.column - 1; ++i) {
          marker +=
              (static_cast<size_t>(i) < text.size() && text[static_cast<size_t>(i)] == '\t') ? '\t' : ' ';
        }
        marker += '^';
        for (int i = 1; i < d.length; ++i) marker += '~';
        out += fmt::format(" {} | {}\n", std::string(gutter.size(), ' '), marker);
      }
    }
    if (!d.hint.empty()) out += fmt::format("hint: {}\n", d.hint);
  }
  if (errors + warnings > 0) {
    std::vector<std::string> parts;
    if (errors > 0) parts.push_back(fmt::format("{} error{}", errors, errors == 1 ? "" : "s"));
    if (warnings > 0) parts.push_back(fmt::format("{} warning{}", warnings, warnings == 1 ? "" : "s"));
    out += fmt::format("{}\n", fmt::join(parts, ", "));
  }
  return out;
}

size_t edit_distance(std::string_view a, std::string_view b) {
  return bounded_edit_distance(a, b, SIZE_MAX);
}

namespace {

// How many characters one string has that the other lacks (ignoring order): 0 for anagrams, so a
// transposition ("V_ADD_FV" for V_ADD_VF) beats a substitution at the same edit distance.
size_t multiset_difference(std::string_view a, std::string_view b) {
  int counts[256] = {};
  for (char c : a) ++counts[static_cast<unsigned char>(fold(c))];
  for (char c : b) --counts[static_cast<unsigned char>(fold(c))];
  size_t diff = 0;
  for (int n : counts) diff += static_cast<size_t>(n < 0 ? -n : n);
  return diff;
}

}  // namespace

namespace {

template <typename Name>
std::vector<std::string> closest_matches_in(std::string_view word, const std::vector<Name>& candidates,
                                            size_t max_results) {
  // Allow about one typo per four characters; a candidate that merely adds a prefix such as "S_" to the
  // word ("ADD" -> "S_ADD") is also close.
  const size_t limit = std::max<size_t>(1, (word.size() + 2) / 4);
  std::vector<std::pair<std::pair<size_t, size_t>, std::string_view>> scored;
  for (const Name& name : candidates) {
    const std::string_view c(name);
    // The distance is at least the difference in length: skip the work when that already rules c out,
    // and stop computing it once it is past the limit (only distances within it are compared).
    const size_t gap = word.size() > c.size() ? word.size() - c.size() : c.size() - word.size();
    size_t distance = gap <= limit ? bounded_edit_distance(word, c, limit) : limit + 1;
    const size_t underscore = c.find('_');
    if (distance > 1 && underscore != std::string_view::npos && underscore <= 2 &&
        c.size() - underscore - 1 == word.size() && equal_folded(word, c.substr(underscore + 1))) {
      distance = 1;
    }
    if (distance <= limit) scored.push_back({{distance, multiset_difference(word, c)}, c});
  }
  std::stable_sort(scored.begin(), scored.end(),
                   [](const auto& x, const auto& y) { return x.first < y.first; });
  std::vector<std::string> out;
  for (const auto& [score, name] : scored) {
    if (out.size() >= max_results || score != scored.front().first) break;
    out.emplace_back(name);
  }
  return out;
}

}  // namespace

std::vector<std::string> closest_matches(std::string_view word, const std::vector<std::string>& candidates,
                                         size_t max_results) {
  return closest_matches_in(word, candidates, max_results);
}

std::vector<std::string> closest_matches(std::string_view word,
                                         const std::vector<std::string_view>& candidates,
                                         size_t max_results) {
  return closest_matches_in(word, candidates, max_results);
}

std::string did_you_mean(const std::vector<std::string>& suggestions) {
  if (suggestions.empty()) return "";
  std::string out = "did you mean ";
  for (size_t i = 0; i < suggestions.size(); ++i) {
    if (i > 0) out += i + 1 == suggestions.size() ? " or " : ", ";
    out += suggestions[i];
  }
  return out + "?";
}

}  // namespace kcraft::isa
