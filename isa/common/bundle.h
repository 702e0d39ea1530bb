// Bundles of a VLIW ISA (IsaSpec::bundle): how words group into bundles and which groups are legal. The
// assembler, the disassembler and the functional models apply the same rules through these functions.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "isa/common/isa_spec.h"

namespace kcraft::isa {

// Words [first, first + count): one bundle. `terminated` is false for a trailing run of words without the
// end-of-bundle flag (the program ends inside a bundle).
struct BundleRange {
  size_t first = 0;
  size_t count = 0;
  bool terminated = true;
};

// Splits a program at the end-of-bundle flags. For an ISA without bundles, every word is a bundle.
std::vector<BundleRange> split_bundles(const IsaSpec& spec, const std::vector<uint32_t>& words);

// The slot position (index into BundleSpec::slots) of each op, given in word order: each op takes the
// first slot of its kind after the previous op's slot. nullopt, with the reason, when the ops are out of
// slot order or a kind has more ops than slots.
std::optional<std::vector<size_t>> slot_positions(const IsaSpec& spec,
                                                  const std::vector<const InstructionSpec*>& ops,
                                                  std::string* reason = nullptr);

// The number of slots of a kind.
size_t slots_of_kind(const BundleSpec& bundle, const std::string& kind);

// "two", "three", ... for messages ("two vector ops in one bundle"); digits above ten.
std::string count_word(size_t n);

// Why a decoded bundle (ops in word order, with their operand values) is one the assembler rejects, or ""
// when it is legal: ops out of slot order, too many ops of a kind, two ops writing one register.
std::string bundle_problem(const IsaSpec& spec, const std::vector<const InstructionSpec*>& ops,
                           const std::vector<std::vector<int64_t>>& values);

}  // namespace kcraft::isa
