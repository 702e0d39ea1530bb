// kcraft: one binary, many subcommands (see `kcraft --help`).
#include <CLI/CLI.hpp>

#include <cstdlib>
#include <iostream>

#include "cli/commands.h"
#include "isa/common/hw_config.h"
#include "tasks/common/task_spec.h"
#include "tb/common/paths.h"

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
  } catch (const CLI::ParseError& e) {
    const int code = app.exit(e);
    const char* variable = std::getenv(kcraft::cli::kPlatformVariable);
    if (code != 0 && variable != nullptr && *variable != '\0') {
      // With the variable set, a first argument that names no platform is the next positional: a misspelt
      // platform shows up as one argument too many.
      std::cerr << "kcraft: " << kcraft::cli::kPlatformVariable << "=" << variable
                << " is set, so a platform argument may be left out; a first argument that is not a platform "
                   "name is taken as the next one\n";
    }
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
