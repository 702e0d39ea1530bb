// Price tables: parsed from YAML (the provider settings' `prices:` block, `kcraft report --prices`), kept
// as JSON in run records, and applied to a Usage.
#include "agent/providers/prices.h"

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <vector>

#include <fmt/format.h>

#include "isa/common/hw_config.h"

namespace kcraft::agent {

namespace {

// In the unnamed namespace: the files of a unity batch after this one have locals named `json`.
using nlohmann::json;

// Values are not echoed in messages, as in the provider settings: a key pasted into the wrong field must
// not end up in a log.
double price_of(const YAML::Node& node, const std::string& where) {
  if (!node.IsScalar()) throw ConfigError(where + ": expected a number (USD per million tokens)");
  const std::string& text = node.Scalar();
  char* end = nullptr;
  errno = 0;
  const double value = std::strtod(text.c_str(), &end);
  if (text.empty() || end != text.c_str() + text.size() || errno != 0 || !std::isfinite(value)) {
    throw ConfigError(where + ": expected a number (USD per million tokens)");
  }
  if (value < 0 || value > kMaxPricePerMillion) {
    throw ConfigError(
        fmt::format("{}: must be between 0 and {} (USD per million tokens)", where, kMaxPricePerMillion));
  }
  return value;
}

bool valid_price(const json& j) {
  return j.is_number() && std::isfinite(j.get<double>()) && j.get<double>() >= 0;
}

}  // namespace

json TokenPrices::to_json() const {
  return {{"prompt", prompt},
          {"cached_prompt", cached_prompt},
          {"completion", completion},
          {"reasoning", reasoning}};
}

std::optional<TokenPrices> TokenPrices::from_json(const json& j) {
  if (!j.is_object()) return std::nullopt;
  for (const char* key : {"prompt", "cached_prompt", "completion", "reasoning"}) {
    if (!j.contains(key) || !valid_price(j[key])) return std::nullopt;
  }
  TokenPrices p;
  p.prompt = j["prompt"].get<double>();
  p.cached_prompt = j["cached_prompt"].get<double>();
  p.completion = j["completion"].get<double>();
  p.reasoning = j["reasoning"].get<double>();
  return p;
}

double usage_cost_usd(const Usage& usage, const TokenPrices& prices) {
  const uint64_t cached = std::min(usage.cached_prompt_tokens, usage.prompt_tokens);
  const uint64_t reasoning = std::min(usage.reasoning_tokens, usage.completion_tokens);
  const double per_million = static_cast<double>(usage.prompt_tokens - cached) * prices.prompt +
                             static_cast<double>(cached) * prices.cached_prompt +
                             static_cast<double>(usage.completion_tokens - reasoning) * prices.completion +
                             static_cast<double>(reasoning) * prices.reasoning;
  return per_million / 1e6;
}

TokenPrices parse_token_prices(const YAML::Node& node, const std::string& file, const std::string& field) {
  const std::string where = file + ": " + field;
  if (!node.IsMap()) {
    throw ConfigError(where +
                      ": expected a mapping of USD per million tokens (prompt, cached_prompt, completion, "
                      "reasoning)");
  }
  static const std::vector<std::string> known = {"prompt", "cached_prompt", "completion", "reasoning"};
  std::map<std::string, double> given;
  for (const auto& kv : node) {
    const std::string key = kv.first.IsScalar() ? kv.first.Scalar() : std::string("<non-text key>");
    const std::string key_where = where + "." + key;
    if (std::find(known.begin(), known.end(), key) == known.end()) {
      throw ConfigError(
          fmt::format("{}: unknown price (expected one of {})", key_where, fmt::join(known, ", ")));
    }
    if (given.count(key)) throw ConfigError(key_where + ": given twice");
    given[key] = price_of(kv.second, key_where);
  }
  for (const char* required : {"prompt", "completion"}) {
    if (!given.count(required)) throw ConfigError(fmt::format("{}.{}: missing", where, required));
  }
  TokenPrices prices;
  prices.prompt = given["prompt"];
  prices.completion = given["completion"];
  prices.cached_prompt = given.count("cached_prompt") ? given["cached_prompt"] : prices.prompt;
  prices.reasoning = given.count("reasoning") ? given["reasoning"] : prices.completion;
  return prices;
}

PriceTable load_price_table(const std::string& yaml_file) {
  std::ifstream in(yaml_file, std::ios::binary);
  if (!in) throw ConfigError(fmt::format("{}: cannot open the price table", yaml_file));
  std::ostringstream text;
  text << in.rdbuf();
  return parse_price_table(text.str(), yaml_file);
}

PriceTable parse_price_table(const std::string& yaml_text, const std::string& yaml_file) {
  YAML::Node root;
  try {
    root = YAML::Load(yaml_text);
  } catch (const YAML::Exception& e) {
    throw ConfigError(
        fmt::format("{}:{}:{}: YAML syntax error: {}", yaml_file, e.mark.line + 1, e.mark.column + 1, e.msg));
  }
  if (!root.IsMap()) {
    throw ConfigError(yaml_file + ": expected a mapping of model name -> prices (USD per million tokens)");
  }
  PriceTable table;
  for (const auto& kv : root) {
    if (!kv.first.IsScalar() || kv.first.Scalar().empty())
      throw ConfigError(yaml_file + ": expected model names as keys");
    const std::string model = kv.first.Scalar();
    if (table.count(model)) throw ConfigError(fmt::format("{}: {}: given twice", yaml_file, model));
    table[model] = parse_token_prices(kv.second, yaml_file, model);
  }
  return table;
}

}  // namespace kcraft::agent
