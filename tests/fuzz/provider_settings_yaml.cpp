// Fuzzes the LLM provider settings loader (agent/providers/settings.cpp): `kcraft agent --provider-config`
// and `kcraft bench --agents llm:FILE.yaml` read these files, which users copy from examples and edit.
//
// Any text must load or throw ConfigError. Settings that load must be accepted by make_provider (load's
// checks include make_provider's; only a missing key variable may fail there, with ProviderError), must
// serialise for transcripts without the key, and must build both request bodies. Prices that load are
// numbers in [0, kMaxPricePerMillion] and come back unchanged from the JSON the run records keep.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>

#include "agent/providers/provider.h"
#include "agent/providers/wire_format.h"
#include "isa/common/hw_config.h"
#include "tests/fuzz/fuzz_support.h"

using namespace kcraft;

namespace {

// A key that settings may name through api_key_env; it must never show in what settings serialise to.
constexpr const char* kKeyVariable = "KCRAFT_FUZZ_API_KEY";
constexpr const char* kKey = "sk-fuzz-0123456789abcdefghij";

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  setenv(kKeyVariable, kKey, 1);
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  agent::ProviderSettings settings;
  if (!fuzz::expect_errors<ConfigError>("ProviderSettings::parse", [&] {
        settings = agent::ProviderSettings::parse(fuzz::text_of(data, size), "fuzz.yaml");
      })) {
    return 0;
  }
  try {
    const std::string stored =
        settings.to_json().dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
    if (settings.api_key_env == kKeyVariable) {
      fuzz::check(stored.find(kKey) == std::string::npos, "the API key is in the transcript's settings");
    }
    agent::ChatRequest request;
    request.system = "system";
    request.messages.push_back({agent::ChatMessage::Role::kUser, "write a kernel", {}, "", "", false});
    (void)agent::dump_body(agent::openai_request_body(settings, request));
    (void)agent::dump_body(agent::anthropic_request_body(settings, request));
    if (settings.prices) {
      const auto& p = *settings.prices;
      for (double price : {p.prompt, p.cached_prompt, p.completion, p.reasoning}) {
        fuzz::check(price >= 0 && price <= agent::kMaxPricePerMillion, "a price out of range loaded");
      }
      const auto stored_prices = agent::TokenPrices::from_json(nlohmann::json::parse(stored)["prices"]);
      fuzz::check(stored_prices && *stored_prices == p, "the stored prices are not the prices loaded");
    }
  } catch (const std::exception& e) {
    fuzz::fail_unexpected(e, "settings that loaded");
  }
  fuzz::expect_errors<agent::ProviderError>("make_provider", [&] { (void)agent::make_provider(settings); });
  return 0;
}
