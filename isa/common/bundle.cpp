#include "isa/common/bundle.h"

#include <map>
#include <utility>

#include <fmt/format.h>

namespace kcraft::isa {

std::vector<BundleRange> split_bundles(const IsaSpec& spec, const std::vector<uint32_t>& words) {
  std::vector<BundleRange> out;
  const bool bundled = spec.bundle.present();
  size_t first = 0;
  for (size_t i = 0; i < words.size(); ++i) {
    if (!bundled || extract(words[i], spec.bundle.end_field) != 0) {
      out.push_back(BundleRange{first, i + 1 - first, true});
      first = i + 1;
    }
  }
  if (first < words.size()) out.push_back(BundleRange{first, words.size() - first, false});
  return out;
}

size_t slots_of_kind(const BundleSpec& bundle, const std::string& kind) {
  size_t n = 0;
  for (const SlotSpec& slot : bundle.slots) n += slot.kind == kind ? 1 : 0;
  return n;
}

std::string count_word(size_t n) {
  static const char* const kWords[] = {"no",  "one",   "two",   "three", "four", "five",
                                       "six", "seven", "eight", "nine",  "ten"};
  return n <= 10 ? kWords[n] : std::to_string(n);
}

std::optional<std::vector<size_t>> slot_positions(const IsaSpec& spec,
                                                  const std::vector<const InstructionSpec*>& ops,
                                                  std::string* reason) {
  const BundleSpec& b = spec.bundle;
  std::vector<size_t> positions;
  size_t next = 0;  // the first slot the next op may take
  for (const InstructionSpec* op : ops) {
    size_t slot = next;
    while (slot < b.slots.size() && b.slots[slot].kind != op->slot) ++slot;
    if (slot >= b.slots.size()) {
      if (reason != nullptr) {
        const size_t of_kind = slots_of_kind(b, op->slot);
        size_t used = 0;
        for (size_t p : positions) used += b.slots[p].kind == op->slot ? 1 : 0;
        *reason = used >= of_kind
                      ? fmt::format("more {} ops than the bundle's {} {} slot{}",
                                    b.find_kind(op->slot) ? b.find_kind(op->slot)->noun : op->slot,
                                    count_word(of_kind),
                                    b.find_kind(op->slot) ? b.find_kind(op->slot)->noun : op->slot,
                                    of_kind == 1 ? "" : "s")
                      : fmt::format("{} after an op of a later slot (ops go in slot order)", op->name);
      }
      return std::nullopt;
    }
    positions.push_back(slot);
    next = slot + 1;
  }
  return positions;
}

std::string bundle_problem(const IsaSpec& spec, const std::vector<const InstructionSpec*>& ops,
                           const std::vector<std::vector<int64_t>>& values) {
  std::string reason;
  if (ops.size() > spec.bundle.slots.size()) {
    return fmt::format("{} ops; a bundle holds at most {}", ops.size(), spec.bundle.slots.size());
  }
  if (!slot_positions(spec, ops, &reason)) return reason;
  std::map<std::pair<int, int64_t>, const InstructionSpec*> written;
  for (size_t k = 0; k < ops.size(); ++k) {
    for (size_t i = 0; i < ops[k]->operands.size(); ++i) {
      const OperandSpec& op = ops[k]->operands[i];
      if (op.kind != OperandKind::kRegister || op.access == Access::kRead) continue;
      const auto [it, inserted] = written.emplace(std::make_pair(op.register_class, values[k][i]), ops[k]);
      if (!inserted) {
        return fmt::format("{} and {} both write {}{}", it->second->name, ops[k]->name,
                           spec.register_classes[static_cast<size_t>(op.register_class)].prefix,
                           values[k][i]);
      }
    }
  }
  return "";
}

}  // namespace kcraft::isa
