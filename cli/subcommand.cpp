#include "cli/subcommand.h"

#include <fmt/format.h>

#include <cstdlib>
#include <vector>

#include "tb/common/platform.h"

namespace kcraft::cli {

const Platform& require_platform(const std::string& name) {
  if (const Platform* p = find_platform(name)) return *p;
  throw UsageError(fmt::format("unknown platform '{}' (available: {})", name, platform_list_text()));
}

namespace {

// A platform argument or option registered by add_platform_*, resolved by resolve_platforms().
struct PlatformSlot {
  CLI::App* command;
  CLI::Option* option;
  std::string* platform;
  PlatformFrom* from;
  bool positional;
};

std::vector<PlatformSlot>& platform_slots() {
  static std::vector<PlatformSlot> slots;
  return slots;
}

// KCRAFT_PLATFORM, "" when unset or empty.
std::string platform_variable() {
  const char* value = std::getenv(kPlatformVariable);
  return value == nullptr ? std::string() : std::string(value);
}

}  // namespace

CLI::Option* add_platform_argument(CLI::App* command, std::string& platform, const std::string& help) {
  // With the variable set, a positional that names no platform goes on to the next positional (CLI11's
  // validate_positionals skips an option whose check fails); without it, every first argument is the
  // platform, as before, and an unknown one gets require_platform's error.
  command->validate_positionals();
  auto* option = command->add_option("platform", platform, help)
                     ->check(CLI::Validator(
                         [](std::string& value) -> std::string {
                           if (platform_variable().empty() || find_platform(value) != nullptr) return "";
                           return "not a platform";
                         },
                         "PLATFORM"));
  platform_slots().push_back({command, option, &platform, nullptr, true});
  return option;
}

CLI::Option* add_platform_option(CLI::App* command, std::string& platform, PlatformFrom* from,
                                 const std::string& help) {
  auto* option = command->add_option("--platform", platform, help);
  if (!platform.empty()) option->capture_default_str();
  platform_slots().push_back({command, option, &platform, from, false});
  return option;
}

void resolve_platforms() {
  for (const PlatformSlot& slot : platform_slots()) {
    if (!slot.command->parsed()) continue;
    if (slot.option->count() > 0) {
      if (slot.from) *slot.from = PlatformFrom::kCommandLine;
      continue;
    }
    const std::string variable = platform_variable();
    if (!variable.empty()) {
      if (find_platform(variable) == nullptr) {
        throw UsageError(fmt::format("{}={} names no platform (available: {}); set it to one or unset it",
                                     kPlatformVariable, variable, platform_list_text()));
      }
      *slot.platform = variable;
      if (slot.from) *slot.from = PlatformFrom::kEnvironment;
    } else if (slot.positional) {
      throw UsageError(fmt::format("{}: no platform: name one first ({}) or set {}", slot.command->get_name(),
                                   platform_list_text(), kPlatformVariable));
    } else if (slot.from) {
      *slot.from = PlatformFrom::kDefault;
    }
  }
}

}  // namespace kcraft::cli
