#include "isa/common/disassembler.h"

#include <map>

#include "isa/common/bundle.h"

#include <fmt/format.h>

namespace kcraft::isa {
namespace {

int64_t operand_value(uint32_t word, const OperandSpec& op) {
  if (op.kind == OperandKind::kSimm) return extract_signed(word, op.field);
  return extract(word, op.field);
}

std::string raw_word(uint32_t word, const std::string& reason) {
  return fmt::format(".word 0x{:08X} ; {}", word, reason);
}

// `end_label(pc, length)` names the end of a loop body, or returns "" to write it relative to ".".
template <typename EndLabel>
std::string render(const IsaSpec& spec, const DecodedInstruction& d, int64_t pc, const EndLabel& end_label) {
  const InstructionSpec& insn = *d.insn;
  size_t shown = insn.operands.size();
  while (shown > 0 && insn.operands[shown - 1].default_value &&
         *insn.operands[shown - 1].default_value == d.values[shown - 1]) {
    --shown;
  }
  std::string out = insn.name;
  for (size_t i = 0; i < shown; ++i) {
    const OperandSpec& op = insn.operands[i];
    out += i == 0 ? " " : ", ";
    switch (op.kind) {
      case OperandKind::kRegister:
        out += fmt::format("{}{}", spec.register_classes[static_cast<size_t>(op.register_class)].prefix,
                           d.values[i]);
        break;
      case OperandKind::kBody: {
        const std::string label = end_label(pc, d.values[i]);
        out += label.empty() ? fmt::format(".+{}", d.values[i] + 1) : label;
        break;
      }
      default:
        out += format_immediate(op, d.values[i]);
        break;
    }
  }
  return out;
}

}  // namespace

std::optional<DecodedInstruction> decode(const IsaSpec& spec, uint32_t word, std::string* reason) {
  const uint32_t opcode = extract(word, spec.opcode_field);
  const InstructionSpec* insn = spec.find_opcode(opcode);
  if (insn == nullptr) {
    if (reason != nullptr) *reason = fmt::format("illegal: unknown opcode 0x{:02X}", opcode);
    return std::nullopt;
  }
  if ((word & insn->reserved_mask) != 0) {
    if (reason != nullptr) {
      *reason =
          fmt::format("illegal: reserved bits 0x{:08X} set in {}", word & insn->reserved_mask, insn->name);
    }
    return std::nullopt;
  }
  DecodedInstruction d;
  d.insn = insn;
  for (const OperandSpec& op : insn->operands) {
    const int64_t value = operand_value(word, op);
    int64_t low = op.min;
    int64_t high = op.max;
    if (op.kind == OperandKind::kRegister) {
      low = 0;
      high = spec.register_classes[static_cast<size_t>(op.register_class)].count - 1;
    }
    if (value < low || value > high) {
      if (reason != nullptr) {
        *reason = fmt::format("{} with {} = {} outside {}..{}; not expressible in assembly", insn->name,
                              op.name, value, low, high);
      }
      return std::nullopt;
    }
    d.values.push_back(value);
  }
  return d;
}

std::string disassemble(const IsaSpec& spec, uint32_t word) {
  std::string reason;
  const auto d = decode(spec, word, &reason);
  if (!d) return raw_word(word, reason);
  return render(spec, *d, 0, [](int64_t, int64_t) { return std::string(); });
}

namespace {

// A VLIW program: one line per bundle, `{ op ; op }` for several ops. A word run that the assembler could
// not have produced (no end-of-bundle flag at the end of the program, ops out of slot order, two ops writing
// one register, a loop ending inside a bundle, an illegal word) is printed as `.word`s, so the output still
// assembles to the same words.
std::string disassemble_bundles(const IsaSpec& spec, const std::vector<uint32_t>& words,
                                const DisassemblyOptions& options) {
  const std::vector<BundleRange> bundles = split_bundles(spec, words);
  std::vector<bool> starts(words.size() + 1, false);
  for (const BundleRange& r : bundles) starts[r.first] = true;
  starts[words.size()] = true;
  std::vector<std::optional<DecodedInstruction>> decoded;
  std::vector<std::string> reasons(words.size());
  for (size_t i = 0; i < words.size(); ++i) decoded.push_back(decode(spec, words[i], &reasons[i]));

  std::map<int64_t, std::string> labels;
  std::vector<bool> raw(bundles.size(), false);
  std::vector<std::string> why(bundles.size());
  for (size_t b = 0; b < bundles.size(); ++b) {
    const BundleRange& r = bundles[b];
    std::vector<const InstructionSpec*> ops;
    std::vector<std::vector<int64_t>> values;
    for (size_t i = r.first; i < r.first + r.count; ++i) {
      if (!decoded[i]) {
        why[b] = reasons[i];
        break;
      }
      ops.push_back(decoded[i]->insn);
      values.push_back(decoded[i]->values);
    }
    if (why[b].empty() && !r.terminated)
      why[b] = "the program ends inside this bundle (no end-of-bundle flag)";
    if (why[b].empty()) why[b] = bundle_problem(spec, ops, values);
    for (size_t i = r.first; i < r.first + r.count && why[b].empty(); ++i) {
      for (size_t k = 0; k < ops[i - r.first]->operands.size(); ++k) {
        if (ops[i - r.first]->operands[k].kind != OperandKind::kBody) continue;
        const int64_t end = static_cast<int64_t>(i) + 1 + decoded[i]->values[k];
        if (end <= static_cast<int64_t>(words.size()) && !starts[static_cast<size_t>(end)]) {
          why[b] = fmt::format("{} ends its loop inside a bundle (word {})", ops[i - r.first]->name, end);
        }
      }
    }
    raw[b] = !why[b].empty();
  }
  for (size_t b = 0; b < bundles.size(); ++b) {
    if (raw[b]) continue;
    for (size_t i = bundles[b].first; i < bundles[b].first + bundles[b].count; ++i) {
      for (size_t k = 0; k < decoded[i]->insn->operands.size(); ++k) {
        if (decoded[i]->insn->operands[k].kind != OperandKind::kBody) continue;
        const int64_t end = static_cast<int64_t>(i) + 1 + decoded[i]->values[k];
        if (end <= static_cast<int64_t>(words.size())) labels.emplace(end, fmt::format("L{}", end));
      }
    }
  }
  auto end_label = [&](int64_t pc, int64_t length) {
    auto it = labels.find(pc + 1 + length);
    return it == labels.end() ? std::string() : it->second;
  };
  std::string out;
  auto label_at = [&](size_t index) {
    if (auto it = labels.find(static_cast<int64_t>(index)); it != labels.end()) out += it->second + ":\n";
  };
  for (size_t b = 0; b < bundles.size(); ++b) {
    const BundleRange& r = bundles[b];
    if (raw[b]) {
      for (size_t i = r.first; i < r.first + r.count; ++i) {
        label_at(i);
        std::string line = fmt::format(".word 0x{:08X} ; ", words[i]);
        line += decoded[i]
                    ? fmt::format("{} in an invalid bundle: {}",
                                  render(spec, *decoded[i], static_cast<int64_t>(i), end_label), why[b])
                    : reasons[i];
        if (options.annotate) line += fmt::format(" ({}: 0x{:08X})", i, words[i]);
        out += "    " + line + "\n";
      }
      continue;
    }
    label_at(r.first);
    std::vector<std::string> ops;
    for (size_t i = r.first; i < r.first + r.count; ++i) {
      ops.push_back(render(spec, *decoded[i], static_cast<int64_t>(i), end_label));
    }
    std::string line = ops.size() == 1 ? ops[0] : fmt::format("{{ {} }}", fmt::join(ops, " ; "));
    if (options.annotate) {
      std::vector<std::string> hex;
      for (size_t i = r.first; i < r.first + r.count; ++i) hex.push_back(fmt::format("0x{:08X}", words[i]));
      line = fmt::format("{:<40}; {}: {}", line, r.first, fmt::join(hex, " "));
    }
    out += "    " + line + "\n";
  }
  label_at(words.size());
  return out;
}

}  // namespace

std::string disassemble_program(const IsaSpec& spec, const std::vector<uint32_t>& words,
                                const DisassemblyOptions& options) {
  if (spec.bundle.present()) return disassemble_bundles(spec, words, options);
  const int64_t size = static_cast<int64_t>(words.size());
  std::vector<std::optional<DecodedInstruction>> decoded;
  std::vector<std::string> reasons(words.size());
  std::map<int64_t, std::string> labels;  // instruction index -> label
  for (size_t i = 0; i < words.size(); ++i) {
    decoded.push_back(decode(spec, words[i], &reasons[i]));
    if (!decoded.back()) continue;
    for (size_t k = 0; k < decoded.back()->insn->operands.size(); ++k) {
      if (decoded.back()->insn->operands[k].kind != OperandKind::kBody) continue;
      const int64_t end = static_cast<int64_t>(i) + 1 + decoded.back()->values[k];
      if (end <= size) labels.emplace(end, fmt::format("L{}", end));
    }
  }
  auto end_label = [&](int64_t pc, int64_t length) {
    auto it = labels.find(pc + 1 + length);
    return it == labels.end() ? std::string() : it->second;
  };
  std::string out;
  for (size_t i = 0; i < words.size(); ++i) {
    if (auto it = labels.find(static_cast<int64_t>(i)); it != labels.end()) out += it->second + ":\n";
    std::string line = decoded[i] ? render(spec, *decoded[i], static_cast<int64_t>(i), end_label)
                                  : raw_word(words[i], reasons[i]);
    if (options.annotate) {
      line = fmt::format("{:<40}{} {}: 0x{:08X}", line, decoded[i] ? ";" : "", i, words[i]);
    }
    out += "    " + line + "\n";
  }
  if (auto it = labels.find(size); it != labels.end()) out += it->second + ":\n";
  return out;
}

}  // namespace kcraft::isa
