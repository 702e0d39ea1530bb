#include "tb/common/scheduling_table.h"

#include "isa/common/expression.h"

namespace kcraft {

namespace {

nlohmann::json optional_value(const std::optional<int64_t>& value) {
  return value ? nlohmann::json(*value) : nlohmann::json();
}

nlohmann::json ranges_json(const std::vector<MemoryRange>& ranges) {
  nlohmann::json out = nlohmann::json::array();
  for (const MemoryRange& r : ranges) {
    out.push_back({{"space", r.space},
                   {"first", r.first},
                   {"rows", r.rows},
                   {"rows_value", optional_value(r.rows_value)},
                   {"stride", r.stride},
                   {"size", r.size},
                   {"size_value", optional_value(r.size_value)},
                   {"busy", r.busy}});
  }
  return out;
}

}  // namespace

nlohmann::json to_json(const SchedulingTable& table) {
  nlohmann::json units = nlohmann::json::array();
  for (const auto& [name, description] : table.units)
    units.push_back({{"name", name}, {"description", description}});
  nlohmann::json rules = nlohmann::json::array();
  for (const auto& [title, text] : table.rules) rules.push_back({{"title", title}, {"text", text}});
  nlohmann::json instructions = nlohmann::json::array();
  for (const InstructionTiming& i : table.instructions) {
    nlohmann::json row = {{"name", i.name},       {"syntax", i.syntax},       {"unit", i.unit},
                          {"latency", i.latency}, {"occupancy", i.occupancy}, {"reads", i.reads},
                          {"writes", i.writes},   {"hazards", i.hazards}};
    if (!i.slot.empty()) row["slot"] = i.slot;
    if (i.reads_memory) row["reads_memory"] = ranges_json(*i.reads_memory);
    if (i.writes_memory) row["writes_memory"] = ranges_json(*i.writes_memory);
    row["latency_value"] = optional_value(i.latency_value);
    row["occupancy_value"] = optional_value(i.occupancy_value);
    instructions.push_back(std::move(row));
  }
  return {{"platform", table.platform},  {"hw", table.hw}, {"time_unit", table.time_unit},
          {"issue", table.issue},        {"units", units}, {"rules", rules},
          {"instructions", instructions}};
}

std::optional<int64_t> formula_value(const std::string& formula, const isa::SymbolTable& symbols) {
  if (formula.empty()) return std::nullopt;
  const std::vector<isa::Token> tokens = isa::tokenize(formula);
  isa::ExprError error;
  const std::optional<isa::Expression> expr = isa::parse_expression(tokens, 0, tokens.size(), &error);
  if (!expr) return std::nullopt;
  const isa::IntValue v = isa::evaluate_int(
      *expr,
      [&](std::string_view name) -> std::optional<int64_t> {
        const auto it = symbols.find(name);
        if (it == symbols.end()) return std::nullopt;
        return it->second;
      },
      std::nullopt, /*unresolved_ok=*/true);
  if (v.status != isa::EvalStatus::kOk) return std::nullopt;
  return v.value;
}

}  // namespace kcraft
