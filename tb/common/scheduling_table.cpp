#include "tb/common/scheduling_table.h"

#include "isa/common/expression.h"

namespace kcraft {

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
    row["latency_value"] = i.latency_value ? nlohmann::json(*i.latency_value) : nlohmann::json();
    row["occupancy_value"] = i.occupancy_value ? nlohmann::json(*i.occupancy_value) : nlohmann::json();
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
