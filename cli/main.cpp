// kcraft: one binary, many subcommands (see `kcraft --help`).
#include <CLI/CLI.hpp>

#include <cstdlib>
#include <iostream>
#include <string>
#include <vector>

#include "cli/commands.h"
#include "isa/common/hw_config.h"
#include "tasks/common/task_spec.h"
#include "tb/common/paths.h"

namespace {

// With KCRAFT_PLATFORM set, a first argument that names no platform is the next positional: a misspelt
// platform shows up as one argument too many.
void explain_platform_variable() {
  const char* variable = std::getenv(kcraft::cli::kPlatformVariable);
  if (variable == nullptr || *variable == '\0') return;
  std::cerr << "kcraft: " << kcraft::cli::kPlatformVariable << "=" << variable
            << " is set, so a platform argument may be left out; a first argument that is not a platform "
               "name is taken as the next one\n";
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"kcraft: hardware-accurate testbed for close-to-metal kernel generation on AI accelerators"};
  app.require_subcommand(1);
  app.fallthrough();  // --json and --root work before or after the subcommand
  app.set_help_all_flag("--help-all", "help for every subcommand");
  kcraft::cli::GlobalOptions global;
  std::function<int()> run;
  kcraft::cli::register_commands(app, global, run);
  try {
    app.parse(argc, argv);
  } catch (const CLI::ExtrasError& e) {
    // CLI11 lists the extra arguments last first ("x --db"); name them in the order they were typed, and
    // the subcommand whose --help lists what it takes.
    std::vector<std::string> extras = app.remaining();
    std::string command = "kcraft";
    for (const CLI::App* sub : app.get_subcommands()) {
      command += " " + sub->get_name();
      const auto more = sub->remaining();
      extras.insert(extras.end(), more.begin(), more.end());
    }
    std::string text;
    for (const auto& extra : extras) text += (text.empty() ? "" : " ") + extra;
    std::cerr << "kcraft: `" << command << "` does not take " << (text.empty() ? e.what() : text) << " (`"
              << command << " --help` lists what it takes)\n";
    explain_platform_variable();
    return kcraft::cli::kExitUsage;
  } catch (const CLI::ParseError& e) {
    const int code = app.exit(e);
    if (code != 0) explain_platform_variable();
    return code == 0 ? 0 : kcraft::cli::kExitUsage;
  }
  if (!global.root.empty()) kcraft::set_root(global.root);
  try {
    kcraft::cli::resolve_platforms();  // KCRAFT_PLATFORM where a subcommand was given no platform
    return run ? run() : kcraft::cli::kExitUsage;
  } catch (const kcraft::cli::UsageError& e) {
    std::cerr << "kcraft: " << e.what() << "\n";
  } catch (const kcraft::tasks::TaskSpecError& e) {
    std::cerr << "kcraft: " << e.what() << "\n";
  } catch (const kcraft::ConfigError& e) {
    std::cerr << "kcraft: " << e.what() << "\n";
  } catch (const std::invalid_argument& e) {
    std::cerr << "kcraft: " << e.what() << "\n";
  } catch (const std::exception& e) {
    std::cerr << "kcraft: internal error: " << e.what() << "\n";
    return 4;
  }
  return kcraft::cli::kExitUsage;
}
