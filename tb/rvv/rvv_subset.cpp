#include "tb/rvv/rvv_subset.h"

#include <fmt/format.h>

#include <cctype>
#include <set>
#include <string_view>
#include <utility>

#include "isa/rvv/isa_reference.h"
#include "tb/rvv/rvv_disasm.h"

namespace kcraft::rvv {

namespace {

std::string lowercase_name(std::string s) {
  for (auto& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

// Line `line` (1-based) of `source`, or "" past its end.
std::string_view line_of_source(std::string_view source, int line) {
  size_t begin = 0;
  for (int n = 1; n < line; ++n) {
    begin = source.find('\n', begin);
    if (begin == std::string_view::npos) return {};
    ++begin;
  }
  return source.substr(begin, source.find('\n', begin) - begin);
}

// Where `mnemonic` is written on an assembly line, as a whole word (case-insensitive): 1-based, 0 = not.
int column_of(std::string_view line, const std::string& mnemonic) {
  const std::string text = lowercase_name(std::string(line));
  const auto is_word = [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '.' || c == '_';
  };
  for (size_t at = text.find(mnemonic); at != std::string::npos; at = text.find(mnemonic, at + 1)) {
    const size_t end = at + mnemonic.size();
    if ((at == 0 || !is_word(text[at - 1])) && (end == text.size() || !is_word(text[end])))
      return static_cast<int>(at) + 1;
  }
  return 0;
}

}  // namespace

std::vector<OutsideInstruction> instructions_outside_subset(const std::vector<uint32_t>& itcm) {
  std::vector<OutsideInstruction> found;
  if (itcm.empty()) return found;
  const auto listing = parse_objdump(objdump_words(itcm, 0, /*canonical=*/true));
  for (size_t i = 0; i < itcm.size(); ++i) {
    if (itcm[i] == 0) continue;  // padding between sections; a jump into it stops the run anyway
    const auto pc = static_cast<uint32_t>(4 * i);
    const std::string text = instruction_text(listing, pc, itcm[i]);
    const std::string mnemonic = lowercase_name(text.substr(0, text.find(' ')));
    if (!mnemonic.empty() && mnemonic[0] == '.') {
      // objdump's ".4byte 0x..": no instruction of RV32IMF + Zicsr + Zve32f (data in .text, or .insn).
      found.push_back(
          {pc, mnemonic, text,
           fmt::format("0x{:08x} is not an instruction of RV32IMF + Zicsr + Zve32f (data in .text? "
                       "put tables in .rodata)",
                       itcm[i])});
      continue;
    }
    if (std::string reason = outside_reason(mnemonic); !reason.empty())
      found.push_back({pc, mnemonic, text, std::move(reason)});
  }
  return found;
}

std::vector<isa::Diagnostic> outside_subset_diagnostics(const std::vector<OutsideInstruction>& found,
                                                        const std::map<uint32_t, int>& lines,
                                                        const std::string& source, size_t limit) {
  std::vector<isa::Diagnostic> out;
  std::set<std::pair<int, std::string>> reported;  // an unrolled loop repeats one line's instruction
  size_t left = 0;
  for (const auto& f : found) {
    const auto it = lines.find(f.pc);
    const int line = it == lines.end() ? 0 : it->second;
    if (!reported.insert({line, f.mnemonic}).second) continue;
    if (out.size() >= limit) {
      ++left;
      continue;
    }
    isa::Diagnostic d;
    d.severity = isa::Severity::kError;
    d.line = line;
    if (line > 0) {
      d.column = column_of(line_of_source(source, line), f.mnemonic);
      if (d.column > 0) d.length = static_cast<int>(f.mnemonic.size());
    }
    const bool word = f.mnemonic[0] == '.';
    d.message = word ? fmt::format("the word at pc 0x{:x}: {}", f.pc, f.reason)
                     : fmt::format("`{}` (pc 0x{:x}{}) is outside the implemented subset: {}", f.text, f.pc,
                                   line > 0 ? "" : ", no source line known", f.reason);
    d.hint =
        word ? "the core stops with an illegal-instruction error if it runs it"
             : "the RTL stops on it with ERR_ILLEGAL; `kcraft isa rvv` lists the instructions the core runs";
    out.push_back(std::move(d));
  }
  if (left > 0) {
    out.push_back({isa::Severity::kError, 0, 0, 0,
                   fmt::format("and {} more instruction(s) outside the implemented subset", left), "", ""});
  }
  return out;
}

std::string outside_class_of_line(const std::string& source, int line) {
  const std::string text = lowercase_name(std::string(line_of_source(source, line)));
  const auto begin = text.find_first_not_of(" \t");
  if (begin == std::string::npos) return "";
  const std::string word = text.substr(begin, text.find_first_of(" \t", begin) - begin);
  for (const auto& c : outside_classes()) {
    if (c.mnemonics.count(word) != 0) return c.what;
  }
  return "";
}

}  // namespace kcraft::rvv
