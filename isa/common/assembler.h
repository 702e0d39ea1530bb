// Table-driven two-pass assembler for any ISA described by an IsaSpec.
//
// Source syntax (the ISA reference's "Assembly language" section is the user documentation):
//   [label:]... [MNEMONIC operand, operand, ...]   ; comment   (also # comment and // comment)
//   .equ NAME, expr    .set NAME, expr    .word expr[, expr...]
// Mnemonics and register names are case-insensitive; symbols (labels, constants) are case-sensitive.
// Labels take the index of the next instruction word; "." is the index of the current statement.
//
// Everything ISA-specific comes from the IsaSpec (mnemonics, operand kinds and fields, registers, pseudo-
// instruction forms, halt/loop checks), so every ISA uses this file. A VLIW ISA (IsaSpec::bundle) adds
// bundles: "{ op ; op ; op }", possibly over several lines, where ';' separates ops (it starts a comment
// outside braces; '#' and '//' comments work everywhere). The assembler puts a bundle's ops in slot order,
// rejects a bundle with more ops of a kind than slots or two ops writing one register, and sets the end-of-
// bundle flag in its last word; an op written alone is a bundle of one op. "." is the index of the op's own
// word, and a loop's end label must start a bundle.
//
// Pass 1 assigns addresses (a pseudo-instruction whose size depends on a value that is not yet known uses
// its longest form), pass 2 encodes. Every error is reported (up to kMaxErrors), each with line:column,
// the offending text and a hint.
#pragma once

#include <any>
#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "isa/common/diagnostics.h"
#include "isa/common/isa_spec.h"

namespace kcraft::isa {

using SymbolTable = std::map<std::string, int64_t, std::less<>>;

inline constexpr size_t kMaxErrors = 100;

struct AssembleResult {
  bool ok = false;                      // no errors (warnings allowed)
  std::vector<uint32_t> words;          // the program image, one entry per instruction word
  std::vector<int> word_lines;          // source line (1-based) of each word
  SymbolTable labels;                   // label -> instruction index
  SymbolTable constants;                // .equ/.set name -> value
  std::vector<Diagnostic> diagnostics;  // sorted by line, then column
  std::string filename;
  // A platform toolchain's own product when `words` are not all of it (a linked ELF with data segments),
  // for that platform's evaluate(); empty from the table-driven assembler.
  std::any artifact;
  // False when a tool's wall-clock timeout or failure to start decided the result, not the source: such a
  // result is not kept by the evaluation cache.
  bool reproducible = true;

  size_t instruction_count() const { return words.size(); }
  size_t error_count() const;
  size_t warning_count() const;
};

// `predefined` supplies symbols such as the hardware parameters (MLEN, VLEN, ...) and a task's tensor
// addresses (ADDR_X, ...); a program may not redefine them.
AssembleResult assemble(const IsaSpec& spec, std::string_view source, const std::string& filename,
                        const SymbolTable& predefined = {});

// format_diagnostics() for an assembly result (uses its filename).
std::string format_diagnostics(const AssembleResult& result, std::string_view source);

// A register named in source: class index into IsaSpec::register_classes and number (may be out of range).
struct RegisterRef {
  int register_class = -1;
  int64_t number = 0;
};
// Parses "r3", "F12", ... (prefix case-insensitive, then decimal digits); nullopt if it is not a register.
std::optional<RegisterRef> parse_register(const IsaSpec& spec, std::string_view text);

}  // namespace kcraft::isa
