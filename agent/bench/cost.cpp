#include "agent/bench/cost.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstdint>
#include <set>
#include <string>

namespace kcraft::bench {

using nlohmann::json;

namespace {

// A token count from a stored role's usage; 0 for anything that is not a non-negative whole number (a
// record edited by hand is priced on what it does say, and never throws in a report).
uint64_t count_of(const json& use, const char* key) {
  if (!use.is_object() || !use.contains(key)) return 0;
  const auto& v = use[key];
  if (v.is_number_unsigned()) return v.get<uint64_t>();
  if (v.is_number_integer() && v.get<int64_t>() >= 0) return static_cast<uint64_t>(v.get<int64_t>());
  return 0;
}

agent::Usage usage_of_role(const json& use) {
  agent::Usage u;
  u.prompt_tokens = count_of(use, "prompt_tokens");
  u.completion_tokens = count_of(use, "completion_tokens");
  u.reasoning_tokens = count_of(use, "reasoning_tokens");
  u.cached_prompt_tokens = count_of(use, "cached_prompt_tokens");
  return u;
}

bool no_tokens(const agent::Usage& u) {
  return u.prompt_tokens == 0 && u.completion_tokens == 0 && u.reasoning_tokens == 0 &&
         u.cached_prompt_tokens == 0;
}

// `total` minus `part`, per count, never below 0.
agent::Usage minus(const agent::Usage& total, const agent::Usage& part) {
  const auto sub = [](uint64_t a, uint64_t b) { return a > b ? a - b : uint64_t{0}; };
  agent::Usage u;
  u.prompt_tokens = sub(total.prompt_tokens, part.prompt_tokens);
  u.completion_tokens = sub(total.completion_tokens, part.completion_tokens);
  u.reasoning_tokens = sub(total.reasoning_tokens, part.reasoning_tokens);
  u.cached_prompt_tokens = sub(total.cached_prompt_tokens, part.cached_prompt_tokens);
  return u;
}

// Prices one part of a run (a role, or the run's own settings) and records a model without prices.
class RunPricer {
 public:
  RunPricer(const agent::PriceTable& overrides, RunCost& cost) : overrides_(overrides), cost_(cost) {}

  std::optional<double> price(const json& settings, const agent::Usage& usage) {
    if (no_tokens(usage)) return 0.0;
    const std::string model =
        settings.is_object() && settings.contains("model") && settings["model"].is_string()
            ? settings["model"].get<std::string>()
            : std::string();
    if (const auto it = overrides_.find(model); !model.empty() && it != overrides_.end())
      return agent::usage_cost_usd(usage, it->second);
    if (settings.is_object() && settings.contains("prices")) {
      if (const auto prices = agent::TokenPrices::from_json(settings["prices"]))
        return agent::usage_cost_usd(usage, *prices);
    }
    const std::string name = model.empty() ? std::string("(model not recorded)") : model;
    auto& missing = cost_.unpriced_models;
    if (std::find(missing.begin(), missing.end(), name) == missing.end()) missing.push_back(name);
    return std::nullopt;
  }

 private:
  const agent::PriceTable& overrides_;
  RunCost& cost_;
};

}  // namespace

RunCost run_cost(const RunRecord& run, const agent::PriceTable& overrides) {
  RunCost cost;
  if (run.failed_job() || run.agent_settings.value("kind", "") != "llm") return cost;
  cost.applies = true;
  const json& settings = run.agent_settings;
  const json* role_settings =
      settings.contains("roles") && settings["roles"].is_object() ? &settings["roles"] : nullptr;
  agent::Usage rest;
  rest.prompt_tokens = run.prompt_tokens;
  rest.completion_tokens = run.completion_tokens;
  rest.reasoning_tokens = run.reasoning_tokens;
  rest.cached_prompt_tokens = run.cached_prompt_tokens;

  RunPricer pricer(overrides, cost);
  double total = 0;
  bool priced = true;
  std::map<std::string, double> roles;
  for (const auto& [role, use] : run.roles.items()) {
    const agent::Usage usage = usage_of_role(use);
    rest = minus(rest, usage);
    if (no_tokens(usage)) continue;  // the verifier, or a role that never ran
    // A role without settings of its own ran on the run's.
    const json& own =
        role_settings != nullptr && role_settings->contains(role) ? (*role_settings)[role] : settings;
    if (const auto usd = pricer.price(own, usage)) {
      roles[role] = *usd;
      total += *usd;
    } else {
      priced = false;
    }
  }
  // Tokens no role accounts for (a single-role agent, a search): the run's own settings.
  if (const auto usd = pricer.price(settings, rest)) {
    total += *usd;
  } else {
    priced = false;
  }
  if (priced) {
    cost.usd = total;
    cost.roles = std::move(roles);
  }
  return cost;
}

void price_runs(std::vector<RunRecord>& runs, const agent::PriceTable& overrides) {
  for (auto& r : runs) r.cost = run_cost(r, overrides);
}

std::string usd_text(double usd) {
  if (usd >= 1 || usd == 0) return fmt::format("${:.2f}", usd);
  if (usd >= 0.01) return fmt::format("${:.4f}", usd);
  return fmt::format("${:.6f}", usd);
}

}  // namespace kcraft::bench
