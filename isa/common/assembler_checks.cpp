#include "isa/common/assembler_internal.h"

#include <algorithm>
#include <cctype>
#include <climits>
#include <cmath>
#include <deque>
#include <optional>
#include <set>
#include <tuple>

#include <fmt/format.h>

#include "isa/common/disassembler.h"

namespace kcraft::isa::assembler_detail {

// The assembler's whole-program checks (assembler_internal.h): `.reads_old` marks, hardware loops, the
// exposed pipeline's hazards and the halt.

void Assembler::reads_old(const Statement& st, const Token& head, int64_t pc) {
  const int head_length = static_cast<int>(head.text.size());
  if (!spec_.bundle.present()) {
    report(Severity::kError, st.line, head.column, head_length, head.text,
           fmt::format("the {} ISA has no exposed pipeline, so no read sees an old value", spec_.name),
           ".reads_old marks intended reads of an old value in VLIW ISAs; remove it");
    return;
  }
  // An optional keyword, `begin` or `end`, then the registers, comma-separated.
  size_t first_register = st.mnemonic + 1;
  std::string keyword;
  const Token* keyword_token = nullptr;
  if (first_register < st.tokens.size() && st.tokens[first_register].kind == TokenKind::kIdentifier) {
    const std::string word = to_upper(st.tokens[first_register].text);
    if (word == "BEGIN" || word == "END") {
      keyword = word;
      keyword_token = &st.tokens[first_register];
      ++first_register;
    }
  }
  const std::vector<Slice> operands = split_operands(st.code, st.tokens, first_register);
  Site site;
  site.line = st.line;
  OldReadMark mark;
  mark.line = st.line;
  mark.column = head.column;
  mark.length = head_length;
  mark.text = std::string(head.text);
  mark.first_word = pc;
  const auto keyword_error = [&](std::string message, std::string hint) {
    report(Severity::kError, st.line, keyword_token->column, static_cast<int>(keyword_token->text.size()),
           keyword_token->text, std::move(message), std::move(hint));
  };
  if (keyword == "END") {
    if (!operands.empty()) {
      error_at(site, operands[0], "'.reads_old end' takes nothing after 'end'",
               "list the registers on the '.reads_old begin' line");
    }
    if (!open_old_region_) {
      keyword_error("'.reads_old end' without a '.reads_old begin'",
                    "open the region with '.reads_old begin' before its first bundle");
      return;
    }
    open_old_region_->end_word = pc;
    old_read_marks_.push_back(std::move(*open_old_region_));
    open_old_region_.reset();
    return;
  }
  if (keyword == "BEGIN") {
    if (open_old_region_) {
      keyword_error(fmt::format("a .reads_old region is already open (line {})", open_old_region_->line),
                    "regions do not nest: close the first with '.reads_old end'");
      return;
    }
    mark.region = true;
  }
  for (const Slice& s : operands) {
    const std::optional<RegisterRef> r = parse_register(spec_, s.text);
    const RegisterClass* rc = r ? &spec_.register_classes[static_cast<size_t>(r->register_class)] : nullptr;
    if (rc == nullptr || r->number >= static_cast<int64_t>(rc->count) || !spec_.bundle.is_exposed(rc->name)) {
      error_at(site, s, fmt::format("'{}' is not a register whose results land late", s.text),
               fmt::format("list registers of the exposed classes ({}), or none for every register; a "
                           "region is '.reads_old begin' ... '.reads_old end'",
                           fmt::join(spec_.bundle.exposed_classes, ", ")));
      return;
    }
    mark.registers.push_back(*r);
    mark.register_names.emplace_back(s.text);
  }
  if (mark.region) {
    open_old_region_ = std::move(mark);
  } else {
    old_read_marks_.push_back(std::move(mark));
  }
}

void Assembler::check_loops() {
  std::sort(loops_.begin(), loops_.end(),
            [](const LoopRecord& a, const LoopRecord& b) { return a.pc < b.pc; });
  std::optional<int64_t> max_depth;
  if (!spec_.loop_depth_symbol.empty()) {
    auto it = symbols_.find(spec_.loop_depth_symbol);
    if (it != symbols_.end() && it->second.kind == SymbolInfo::Kind::kPredefined)
      max_depth = it->second.value;
  }
  std::vector<const LoopRecord*> open;  // enclosing loops, innermost last
  for (const LoopRecord& loop : loops_) {
    while (!open.empty() && open.back()->end <= loop.pc) open.pop_back();
    if (!open.empty() && loop.end >= open.back()->end) {
      const LoopRecord& outer = *open.back();
      const bool same_end = loop.end == outer.end;
      report(Severity::kError, loop.line, loop.column, loop.length, loop.text,
             same_end
                 ? fmt::format("this loop's body ends where the body of the enclosing {} (line {}) ends; an "
                               "inner body must end strictly before its enclosing body",
                               outer.text, outer.line)
                 : fmt::format("this loop's body (to instruction {}) extends past the end of the enclosing "
                               "{} body (line {}, to instruction {})",
                               loop.end, outer.text, outer.line, outer.end),
             same_end
                 ? fmt::format("put at least one instruction{} between the two end labels", filler_example())
                 : "an inner loop must lie completely inside the enclosing loop's body");
      continue;
    }
    open.push_back(&loop);
    if (max_depth && static_cast<int64_t>(open.size()) > *max_depth) {
      report(Severity::kError, loop.line, loop.column, loop.length, loop.text,
             fmt::format("loops nested {} deep; the hardware supports {} ({})", open.size(), *max_depth,
                         spec_.loop_depth_symbol),
             "flatten the innermost loop or merge two loop levels");
    }
    if (loop.end > program_size_) {
      report(Severity::kWarning, loop.line, loop.column, loop.length, loop.text,
             fmt::format("loop body extends past the end of the program (instruction {} of {})", loop.end,
                         program_size_),
             "the end label should follow the last instruction of the body, inside the program");
    }
  }
}

void Assembler::check_bundle_loops() {
  if (!spec_.bundle.present()) return;
  std::vector<bool> starts(result_.words.size() + 1, false);
  for (const BundleRange& r : split_bundles(spec_, result_.words)) starts[r.first] = true;
  starts[result_.words.size()] = true;
  for (const LoopRecord& loop : loops_) {
    if (loop.end < 0 || loop.end > static_cast<int64_t>(result_.words.size())) continue;
    if (starts[static_cast<size_t>(loop.end)]) continue;
    report(Severity::kError, loop.line, loop.column, loop.length, loop.text,
           fmt::format("the loop's end (word {}) is inside a bundle; a loop body is whole bundles", loop.end),
           "put the end label before a bundle, not an expression pointing into one");
  }
}

void Assembler::check_hazards() {
  if (!spec_.bundle.present() || result_.words.empty()) return;
  const PipelineHazards hazards = find_pipeline_hazards(spec_, result_.words);
  const std::vector<BundleRange> bundles = split_bundles(spec_, result_.words);
  for (const ReadBeforeReady& h : hazards.reads) {
    if (OldReadMark* mark = mark_covering(h.read, bundles)) {
      mark->used = true;
      continue;
    }
    report_read_before_ready(h);
  }
  for (const LandingOutOfOrder& h : hazards.overwrites) report_landing_out_of_order(h);
  for (const OldReadMark& mark : old_read_marks_) {
    if (mark.used) continue;
    report(Severity::kWarning, mark.line, mark.column, mark.length, mark.text,
           mark.registers.empty()
               ? std::string(mark.region ? "no read in this .reads_old region sees an old value"
                                         : "the bundle after this .reads_old reads no old value")
               : fmt::format("{} reads no old value of {}",
                             mark.region ? "this .reads_old region" : "the bundle after this .reads_old",
                             fmt::join(mark.register_names, ", ")),
           "remove the mark, or move it to the read it means (the next bundle, or a region around it)");
  }
}

OldReadMark* Assembler::mark_covering(const RegisterUse& read, const std::vector<BundleRange>& bundles) {
  const auto word = static_cast<int64_t>(read.word);
  for (OldReadMark& mark : old_read_marks_) {
    bool covers = false;
    if (mark.region) {
      covers = word >= mark.first_word && word < mark.end_word;
    } else {
      for (const BundleRange& b : bundles) {
        if (static_cast<int64_t>(b.first) == mark.first_word)
          covers = word >= mark.first_word && word < static_cast<int64_t>(b.first + b.count);
      }
    }
    if (!covers) continue;
    if (mark.registers.empty()) return &mark;
    for (const RegisterRef& r : mark.registers) {
      if (r.register_class == read.register_class && static_cast<int64_t>(r.number) == read.number)
        return &mark;
    }
  }
  return nullptr;
}

std::string Assembler::register_name(const RegisterUse& use) const {
  return fmt::format("{}{}", spec_.register_classes[static_cast<size_t>(use.register_class)].prefix,
                     use.number);
}

std::tuple<int, int, std::string_view> Assembler::operand_site(const RegisterUse& use) const {
  const Statement* st = word_statements_[use.word];
  if (st != nullptr && st->kind == StatementKind::kInstruction && use.operand < st->operands.size()) {
    const Slice& s = st->operands[use.operand];
    return {s.column, s.length, s.text};
  }
  return {0, 0, std::string_view()};
}

void Assembler::report_read_before_ready(const ReadBeforeReady& h) {
  const std::string reg = register_name(h.write);
  const InstructionSpec& producer = *decode(spec_, result_.words[h.write.word])->insn;
  const auto [column, length, text] = operand_site(h.read);
  const int64_t missing = h.latency - h.distance;
  report(Severity::kWarning, result_.word_lines[h.read.word], column, length, text,
         fmt::format(
             "{} is read {} bundle{} after {} (line {}) writes it{}, but that result lands {} bundles "
             "after its issue: this reads the old value",
             reg, h.distance, h.distance == 1 ? "" : "s", producer.name, result_.word_lines[h.write.word],
             h.crossed_back_edge ? " (counting across the loop's back edge)" : "", h.latency),
         fmt::format("put {} more bundle{} between them (independent work, or C_NOP), or use another "
                     "register; if the old value is meant, write `.reads_old {}` on the line before",
                     missing, missing == 1 ? "" : "s", reg));
}

void Assembler::report_landing_out_of_order(const LandingOutOfOrder& h) {
  const std::string reg = register_name(h.later);
  const InstructionSpec& earlier = *decode(spec_, result_.words[h.earlier.word])->insn;
  const InstructionSpec& later = *decode(spec_, result_.words[h.later.word])->insn;
  const auto [column, length, text] = operand_site(h.later);
  const int64_t gap = h.earlier_latency - (h.distance + h.later_latency);
  report(Severity::kWarning, result_.word_lines[h.later.word], column, length, text,
         fmt::format("{} writes {} {} bundle{} after {} (line {}) does{}, but lands {} bundle{} before it: "
                     "when {}'s result lands, {} holds the older result",
                     later.name, reg, h.distance, h.distance == 1 ? "" : "s", earlier.name,
                     result_.word_lines[h.earlier.word],
                     h.crossed_back_edge ? " (counting across the loop's back edge)" : "", gap,
                     gap == 1 ? "" : "s", earlier.name, reg),
         fmt::format("write {} again only once {}'s result has landed ({} more bundle{}), or use another "
                     "register",
                     reg, earlier.name, gap, gap == 1 ? "" : "s"));
}

std::string Assembler::filler_example() const {
  for (const InstructionSpec& insn : spec_.instructions) {
    if (insn.operands.empty() && insn.name != spec_.halt_mnemonic)
      return fmt::format(" (e.g. {})", insn.name);
  }
  return "";
}

void Assembler::check_program() {
  if (!spec_.program_size_symbol.empty()) {
    auto it = symbols_.find(spec_.program_size_symbol);
    if (it != symbols_.end() && it->second.kind == SymbolInfo::Kind::kPredefined &&
        static_cast<int64_t>(result_.words.size()) > it->second.value) {
      report(Severity::kError, 0, 0, 0, "",
             fmt::format("the program has {} instruction words; the instruction memory holds {} ({})",
                         result_.words.size(), it->second.value, spec_.program_size_symbol),
             "use hardware loops instead of unrolled code");
    }
  }
  if (!spec_.halt_mnemonic.empty()) {
    const InstructionSpec* halt = spec_.find_instruction(spec_.halt_mnemonic);
    const bool has_halt =
        halt != nullptr && std::any_of(result_.words.begin(), result_.words.end(), [&](uint32_t w) {
          return extract(w, spec_.opcode_field) == halt->opcode && (w & halt->reserved_mask) == 0;
        });
    if (halt != nullptr && !has_halt) {
      report(Severity::kWarning, 0, 0, 0, "",
             fmt::format("the program has no {}; the machine will run past its end", halt->name),
             fmt::format("end the kernel with {}", halt->name));
    }
  }
}

}  // namespace kcraft::isa::assembler_detail
