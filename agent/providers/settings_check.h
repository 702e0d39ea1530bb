// Checks shared by ProviderSettings::load and make_provider (settings may also be built in code).
#pragma once

#include <string_view>

#include "agent/providers/provider.h"
#include "agent/providers/redaction.h"

namespace kcraft::agent {

bool is_environment_variable_name(std::string_view name);
bool is_header_name(std::string_view name);
bool is_header_value(std::string_view value);

// Redacts the key named by settings.api_key_env (when set in the environment) and credential-looking
// extra_headers values.
SecretRedactor settings_redactor(const ProviderSettings& settings);

}  // namespace kcraft::agent
