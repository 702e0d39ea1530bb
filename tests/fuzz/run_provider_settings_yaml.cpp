// Fuzzes the run's provider settings with per-role overrides (agent/common/workflow.cpp,
// RunProviderSettings): the `roles:` mapping of a provider config YAML that `kcraft agent --workflow`
// and the sweep's workflow agents read.
//
// Any text must load or throw ConfigError. Settings that load name only known roles, and each role's
// settings are the run's with exactly the fields the role gave over them; prices follow the model.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>

#include "agent/common/workflow.h"
#include "isa/common/hw_config.h"
#include "tests/fuzz/fuzz_support.h"

using namespace kcraft;

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  setenv("KCRAFT_FUZZ_API_KEY", "sk-fuzz-0123456789abcdefghij", 1);
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  agent::RunProviderSettings settings;
  if (!fuzz::expect_errors<ConfigError>("RunProviderSettings::parse", [&] {
        settings = agent::RunProviderSettings::parse(fuzz::text_of(data, size), "fuzz.yaml");
      })) {
    return 0;
  }
  try {
    for (const auto& [role, override_settings] : settings.roles) {
      fuzz::check(agent::role_from_name(role).has_value(), "settings for a role the engine does not know");
      const auto resolved = settings.for_role(role);
      if (std::find(override_settings.given.begin(), override_settings.given.end(), "model") ==
          override_settings.given.end()) {
        fuzz::check(resolved.model == settings.run.model, "a role that gave no model has another model");
      } else {
        fuzz::check(resolved.model == override_settings.settings.model, "a role's own model is not used");
      }
      // Prices belong to a model: a role's own, the run's when it keeps the run's model, else none.
      const auto& given = override_settings.given;
      if (std::find(given.begin(), given.end(), "prices") != given.end()) {
        fuzz::check(resolved.prices == override_settings.settings.prices, "a role's own prices are not used");
      } else if (resolved.model != settings.run.model) {
        fuzz::check(!resolved.prices.has_value(), "a role of another model has the run's model's prices");
      } else {
        fuzz::check(resolved.prices == settings.run.prices, "a role of the run's model lost its prices");
      }
    }
    (void)settings.for_role("coder");
  } catch (const std::exception& e) {
    fuzz::fail_unexpected(e, "settings that loaded");
  }
  return 0;
}
