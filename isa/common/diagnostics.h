// Compiler-style diagnostics and "did you mean" suggestions.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace kcraft::isa {

enum class Severity : uint8_t { kError, kWarning, kNote };
std::string_view severity_name(Severity s);  // "error", "warning", "note"

struct Diagnostic {
  Severity severity = Severity::kError;
  int line = 0;    // 1-based; 0 = the file as a whole
  int column = 0;  // 1-based; 0 = the line as a whole
  int length = 0;  // characters to underline from `column`
  std::string message;
  std::string text;  // the offending source text
  std::string hint;  // how to fix it ("" if nothing useful to say)
};

// Renders diagnostics the way gcc/clang do:
//   kernel.s:12:18: error: immediate 70000 does not fit the 17-bit signed field (-65536..65535)
//      12 |     S_ADDI r1, r0, 70000
//         |                    ^~~~~
//   hint: S_LI rd, value loads any 32-bit constant
// followed by a summary line ("2 errors, 1 warning").
std::string format_diagnostics(const std::vector<Diagnostic>& diagnostics, std::string_view source,
                               std::string_view filename);

// Optimal string alignment distance (Levenshtein plus adjacent transpositions), case-insensitive.
size_t edit_distance(std::string_view a, std::string_view b);

// The candidates closest to `word` (at most `max_results`, best first), or none if nothing is close.
std::vector<std::string> closest_matches(std::string_view word, const std::vector<std::string>& candidates,
                                         size_t max_results = 3);
// The same over names the caller does not want to copy (a symbol table's keys).
std::vector<std::string> closest_matches(std::string_view word,
                                         const std::vector<std::string_view>& candidates,
                                         size_t max_results = 3);

// "did you mean X?" / "did you mean X or Y?" / "" when there are no suggestions.
std::string did_you_mean(const std::vector<std::string>& suggestions);

}  // namespace kcraft::isa
