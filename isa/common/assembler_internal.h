// The assembler's internals, private to isa/common/assembler*.cpp: the parsed statements and the Assembler,
// whose member functions are in one file per phase: assembler.cpp (the entry points, diagnostics, symbols
// and expressions), assembler_statements.cpp (pass 1: statements, pseudo-instructions, directives and
// constants), assembler_bundles.cpp (VLIW bundles), assembler_encode.cpp (operands, encoding, pass 2) and
// assembler_checks.cpp (the whole-program checks: loops, hazards and `.reads_old`).
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <tuple>
#include <utility>
#include <vector>

#include "isa/common/assembler.h"
#include "isa/common/bundle.h"
#include "isa/common/expression.h"
#include "isa/common/pipeline_hazards.h"

namespace kcraft::isa::assembler_detail {

constexpr int64_t kWordMin = -2147483648LL;  // .word and int32 operands accept signed or unsigned 32-bit
constexpr int64_t kWordMax = 4294967295LL;

// The tokens of one operand: [begin, end) of the statement's token list.
struct Slice {
  size_t begin = 0;
  size_t end = 0;
  int column = 0;
  int length = 0;
  std::string_view text;
  bool empty() const { return begin == end; }
};

int token_end_column(const Token& t);

// Splits tokens [first, size) at top-level commas. A trailing or doubled comma yields an empty slice that
// points at the place the operand is missing.
std::vector<Slice> split_operands(std::string_view code, const std::vector<Token>& tokens, size_t first);

enum class StatementKind : uint8_t { kInstruction, kPseudo, kWord, kUnknown };

struct Statement {
  StatementKind kind = StatementKind::kUnknown;
  int line = 0;
  std::string_view code;  // the line without its comment
  std::vector<Token> tokens;
  size_t mnemonic = 0;  // token index of the mnemonic or directive
  std::vector<Slice> operands;
  const InstructionSpec* insn = nullptr;
  const PseudoSpec* pseudo = nullptr;
  int64_t pc = 0;
  size_t size = 1;
  size_t form = 0;
  bool hash_comment = false;  // a '#' comment glued to the code: probably a "#5" style immediate
  // VLIW ISAs: the statement's last word ends a bundle; `in_bundle` when it was written inside braces;
  // `bundle_failed` when the bundle rules rejected it (it then occupies one zero word).
  bool end_of_bundle = false;
  bool in_bundle = false;
  bool bundle_failed = false;
};

// A bundle being read (VLIW ISAs): from '{' to '}', possibly over several lines.
struct OpenBundle {
  bool open = false;
  int line = 0;
  int column = 0;
  std::vector<Statement> ops;
  bool rejected_op = false;  // an op had an error that kept it out of `ops`
};

struct SymbolInfo {
  enum class Kind : uint8_t { kPredefined, kLabel, kConstant };
  enum class State : uint8_t { kDefined, kPending, kFailed };
  Kind kind = Kind::kLabel;
  State state = State::kDefined;
  int64_t value = 0;
  int line = 0;
  // A constant waiting for forward references (pass 1): its expression and where it was written.
  std::optional<Expression> expr;
  int64_t location = 0;
  int column = 0;
  int length = 0;
  std::string text;
};

// Where the diagnostics of one encoding go.
struct Site {
  int line = 0;
  bool silent = false;       // trial encodings (choosing a pseudo-instruction form) report nothing
  bool errors_only = false;  // expansions: the pseudo statement already warned about its operands
  // For a pseudo-instruction's expansion: report at the pseudo statement, with this prefix.
  bool redirect = false;
  int column = 0;
  int length = 0;
  std::string text;
  std::string prefix;
};

struct LoopRecord {
  int64_t pc = 0;
  int64_t end = 0;  // index of the first instruction after the body
  int line = 0;
  int column = 0;
  int length = 0;
  std::string text;
};

// `.reads_old [registers]` (the next bundle) or `.reads_old begin [registers]` ... `.reads_old end` (a
// region of words): reads of an old value there are intended (VLIW ISAs; docs/vliw.md §1).
struct OldReadMark {
  bool region = false;
  int64_t first_word = 0;
  int64_t end_word = 0;                // regions: one past the last word
  std::vector<RegisterRef> registers;  // empty: every register
  std::vector<std::string> register_names;
  int line = 0;
  int column = 0;
  int length = 0;
  std::string text;
  bool used = false;
};

// The values a pseudo-instruction's operands substitute into its templates.
struct PseudoArgs {
  bool ok = true;
  bool unresolved = false;
  std::vector<std::string> text;              // per operand, as written into the templates
  std::vector<std::optional<int64_t>> value;  // per operand, for `when`
};

class Assembler {
 public:
  Assembler(const IsaSpec& spec, std::string_view source, const std::string& filename,
            const SymbolTable& predefined);

  AssembleResult run();

 private:
  // ------------------------------------------------------------------ diagnostics
  void report(Severity severity, int line, int column, int length, std::string_view text, std::string message,
              std::string hint);

  // Whether report_at(site, severity, ...) would drop the diagnostic (a trial encoding, a warning of an
  // expansion, an error past kMaxErrors): its message and hint need not be built. Dropping it this way
  // must still count as reporting it, so callers that skip the work call report_at all the same.
  bool dropped(const Site& site, Severity severity) const;

  void report_at(const Site& site, Severity severity, int column, int length, std::string_view text,
                 std::string message, std::string hint);
  void error_at(const Site& site, const Slice& s, std::string message, std::string hint);

  // ------------------------------------------------------------------ symbols
  std::optional<int64_t> resolve(std::string_view name);
  SymbolResolver resolver();

  std::string describe_symbol(const SymbolInfo& info) const;

  // Checks that `name` may be defined; reports and returns false otherwise.
  bool check_new_symbol(const Token& name, int line, std::string_view what);

  std::string unknown_symbol_hint(std::string_view name) const;

  // ------------------------------------------------------------------ expressions
  std::optional<Expression> parse_slice(const std::vector<Token>& tokens, const Slice& s, const Site& site);

  void report_eval_error(const Site& site, const Slice& s, const ExprError& err);

  // Evaluates an integer operand; nullopt after reporting an error (or silently if it hit a failed symbol).
  std::optional<int64_t> eval_int(const std::vector<Token>& tokens, const Slice& s, int64_t pc,
                                  const Site& site);

  // ------------------------------------------------------------------ operands
  std::string register_noun(int register_class) const;
  std::string register_range(int register_class) const;
  static std::string article(const std::string& noun);

  // The register an operand names, if it is exactly one register token.
  std::optional<RegisterRef> operand_register(const std::vector<Token>& tokens, const Slice& s) const;

  bool is_register_token(const std::vector<Token>& tokens, size_t index) const;

  // Another instruction whose operand types match what was written ("did you mean V_ADD_VF?").
  std::string suggest_alternative(const std::string& mnemonic, const std::vector<Token>& tokens,
                                  const std::vector<Slice>& ops) const;

  std::string range_message(const OperandSpec& op, int64_t value) const;

  std::string range_hint(const InstructionSpec& insn, const OperandSpec& op) const;

  // Encodes one instruction; nullopt after reporting errors through `site`.
  std::optional<uint32_t> encode(const InstructionSpec& insn, const std::vector<Token>& tokens,
                                 const std::vector<Slice>& ops, const Token& mnemonic, int64_t pc,
                                 const Site& site, bool hash_comment, std::vector<LoopRecord>* loops);

  // ------------------------------------------------------------------ pseudo-instructions
  PseudoArgs pseudo_args(const PseudoSpec& p, const Statement& st, bool pass1, const Site& site);

  // A template line with the pseudo-instruction's operands substituted.
  static std::string expand_line(const PseudoSpec& p, const std::string& line, const PseudoArgs& args);

  // Encodes one expanded template line; nullopt after reporting through `site`.
  std::optional<uint32_t> encode_line(const std::string& text, int64_t pc, const Site& site);

  bool form_applies(const PseudoSpec& p, const PseudoForm& form, const PseudoArgs& args, int64_t pc);

  static size_t longest_form(const PseudoSpec& p);

  // ------------------------------------------------------------------ pass 1: addresses
  void pass1();

  size_t comment_start(std::string_view line) const;

  // One statement that is not part of a bundle: an instruction, pseudo-instruction or directive starting at
  // token `i` (labels already taken). In a VLIW ISA an instruction written alone is a bundle of one op.
  void single_statement(Statement st, size_t i, int64_t& pc);

  // ------------------------------------------------------------------ bundles (VLIW ISAs)
  // A line of a VLIW program: labels, single ops, and bundles `{ op ; op }` that may span lines.
  void bundled_line(const Statement& line, int64_t& pc);

  // The first '{', '}' or ';' at or after `i`.
  static size_t next_separator(const std::vector<Token>& tokens, size_t i);

  // A statement made of tokens [first, stop) of a line.
  static Statement segment(const Statement& line, size_t first, size_t stop);

  // One op inside braces; the bundle's rules are checked when it closes.
  void bundle_op(Statement st);

  // " (S_LUI, S_ORI)": the mnemonics of a pseudo-instruction's chosen form.
  static std::string form_names(const Statement& st);

  // The slot kind of a bundle op ("" when unknown: the op has its own error).
  std::string slot_kind(const Statement& st) const;

  // The registers an op writes, as written: (class, number) with the operand's slice.
  std::vector<std::pair<RegisterRef, Slice>> written_registers(const Statement& st) const;

  // Checks the slot rules, puts the ops in slot order and gives them their words.
  void close_bundle(int64_t& pc);

  void define_label(const Token& name, int line, int64_t pc);

  void unknown_mnemonic(const Statement& st);
  void disabled_instruction(const Statement& st);  // an optional instruction the hardware lacks

  void plan_pseudo(Statement& st);

  void directive(Statement& st, int64_t& pc);

  // `.reads_old [reg, ...]`, `.reads_old begin [reg, ...]`, `.reads_old end`.
  void reads_old(const Statement& st, const Token& head, int64_t pc);

  void define_constant(const Statement& st, const Token& head);

  // Constants that referred to later labels or constants.
  void resolve_pending_constants();

  void report_pending_error(const SymbolInfo& info, const ExprError& err);

  // ------------------------------------------------------------------ pass 2: encoding
  void pass2();

  uint32_t end_of_bundle(bool last) const;

  void emit(uint32_t word, int line);

  void emit_pseudo(const Statement& st, const Site& site);

  // ------------------------------------------------------------------ whole-program checks
  void check_loops();

  // VLIW ISAs: a loop's body is whole bundles, so its end label must start a bundle.
  void check_bundle_loops();

  // VLIW ISAs: the exposed pipeline's hazards (pipeline_hazards.h). A read of an old value that a
  // `.reads_old` mark covers is intended and silent; a mark that covers no such read is itself a warning,
  // so marks cannot go stale unnoticed.
  void check_hazards();

  // The mark, if any, that declares this read of an old value intended: a one-bundle mark on the bundle
  // holding the read, or a region around it; with registers listed, only reads of those.
  OldReadMark* mark_covering(const RegisterUse& read, const std::vector<BundleRange>& bundles);

  std::string register_name(const RegisterUse& use) const;

  // Where an operand of a word was written: column, length and text of the operand, if the word is one
  // instruction statement.
  std::tuple<int, int, std::string_view> operand_site(const RegisterUse& use) const;

  void report_read_before_ready(const ReadBeforeReady& h);

  void report_landing_out_of_order(const LandingOutOfOrder& h);

  // " (e.g. C_NOP)": an instruction without operands that is not the halt, for hints.
  std::string filler_example() const;

  void check_program();

  void finish();

  const IsaSpec& spec_;
  std::string_view source_;
  AssembleResult result_;
  std::map<std::string, SymbolInfo, std::less<>> symbols_;
  std::vector<Statement> statements_;
  std::vector<LoopRecord> loops_;
  OpenBundle bundle_;
  std::vector<OldReadMark> old_read_marks_;
  std::optional<OldReadMark> open_old_region_;  // a `.reads_old begin` not yet ended
  uint32_t end_of_bundle_mask_ = 0;
  const Statement* current_statement_ = nullptr;   // pass 2: the statement being encoded
  std::vector<const Statement*> word_statements_;  // the statement of each word
  std::vector<std::string_view> mnemonic_names_;   // instructions and pseudo-instructions, for hints
  int64_t program_size_ = 0;
  size_t errors_ = 0;
  bool too_many_errors_ = false;
  bool poisoned_ = false;     // the last evaluation used a symbol whose definition failed
  bool site_failed_ = false;  // a silent or poisoned encoding failed
};

}  // namespace kcraft::isa::assembler_detail
