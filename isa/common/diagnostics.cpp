#include "isa/common/diagnostics.h"

#include <algorithm>
#include <cctype>
#include <utility>

#include <fmt/format.h>

namespace kcraft::isa {
namespace {

std::string_view line_of(std::string_view source, int line) {
  size_t start = 0;
  for (int current = 1; current < line; ++current) {
    const size_t newline = source.find('\n', start);
    if (newline == std::string_view::npos) return {};
    start = newline + 1;
  }
  size_t end = source.find('\n', start);
  if (end == std::string_view::npos) end = source.size();
  std::string_view text = source.substr(start, end - start);
  if (!text.empty() && text.back() == '\r') text.remove_suffix(1);
  return text;
}


char fold(char c) {
  return static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
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
      const std::string_view text = line_of(source, d.line);
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
  // Three rolling rows (a transposition looks two rows back), so long words cost no large matrix.
  const size_t m = b.size();
  std::vector<size_t> before(m + 1), previous(m + 1), current(m + 1);
  for (size_t j = 0; j <= m; ++j) previous[j] = j;
  for (size_t i = 1; i <= a.size(); ++i) {
    current[0] = i;
    for (size_t j = 1; j <= m; ++j) {
      const size_t cost = fold(a[i - 1]) == fold(b[j - 1]) ? 0 : 1;
      current[j] = std::min({previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost});
      if (i > 1 && j > 1 && fold(a[i - 1]) == fold(b[j - 2]) && fold(a[i - 2]) == fold(b[j - 1])) {
        current[j] = std::min(current[j], before[j - 2] + 1);
      }
    }
    std::swap(before, previous);
    std::swap(previous, current);
  }
  return previous[m];
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

std::vector<std::string> closest_matches(std::string_view word, const std::vector<std::string>& candidates,
                                         size_t max_results) {
  // Allow about one typo per four characters; a candidate that merely adds a prefix such as "S_" to the
  // word ("ADD" -> "S_ADD") is also close.
  const size_t limit = std::max<size_t>(1, (word.size() + 2) / 4);
  std::vector<std::pair<std::pair<size_t, size_t>, std::string>> scored;
  for (const std::string& c : candidates) {
    // The distance is at least the difference in length: skip the work when that already rules c out.
    const size_t gap = word.size() > c.size() ? word.size() - c.size() : c.size() - word.size();
    size_t distance = gap <= limit ? edit_distance(word, c) : limit + 1;
    const size_t underscore = c.find('_');
    if (underscore != std::string::npos && underscore <= 2 && c.size() - underscore - 1 == word.size() &&
        edit_distance(word, std::string_view(c).substr(underscore + 1)) == 0) {
      distance = std::min<size_t>(distance, 1);
    }
    if (distance <= limit) scored.push_back({{distance, multiset_difference(word, c)}, c});
  }
  std::stable_sort(scored.begin(), scored.end(),
                   [](const auto& x, const auto& y) { return x.first < y.first; });
  std::vector<std::string> out;
  for (const auto& [score, name] : scored) {
    if (out.size() >= max_results || score != scored.front().first) break;
    out.push_back(name);
  }
  return out;
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
