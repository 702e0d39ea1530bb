// What every `kcraft` subcommand shares: its exit codes, the usage error, the global options and the
// platform it works on. Each subcommand returns the process exit code: 0 success/pass, 1 the kernel failed,
// 2 usage or input error, 3 hardware bug (the RTL and the functional model disagree). Apart from
// cli/commands.h, which registers every subcommand, so that a subcommand's files need no other's.
#pragma once

#include <CLI/CLI.hpp>

#include <stdexcept>
#include <string>

namespace kcraft {
class Platform;
}

namespace kcraft::cli {

inline constexpr int kExitOk = 0;
inline constexpr int kExitFail = 1;
inline constexpr int kExitUsage = 2;
inline constexpr int kExitHardwareBug = 3;

// An error in what the user asked for: printed as "kcraft: <message>", exit code 2.
class UsageError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

struct GlobalOptions {
  bool json = false;
  std::string root;  // --root: data directory (tasks/specs, rtl/<platform>/configs)
};

// The registered platform of that name; a usage error naming the available ones otherwise.
const Platform& require_platform(const std::string& name);

// ---- the platform a subcommand works on: on its command line, else KCRAFT_PLATFORM, else (for the commands
// whose --platform has one) the default platform.
inline constexpr const char* kPlatformVariable = "KCRAFT_PLATFORM";

// Where a subcommand's platform came from (`task show` says so in its first line).
enum class PlatformFrom { kCommandLine, kEnvironment, kDefault };

// A positional `platform` argument (`kcraft check PLATFORM KERNEL`). With KCRAFT_PLATFORM set it may be left
// out: a first argument that is not a platform name is then the next positional (`check kernel.c`).
CLI::Option* add_platform_argument(CLI::App* command, std::string& platform,
                                   const std::string& help = "platform (default: $KCRAFT_PLATFORM)");
// A `--platform NAME` option; `platform` holds its default (the default platform, or "" for none).
CLI::Option* add_platform_option(CLI::App* command, std::string& platform, PlatformFrom* from = nullptr,
                                 const std::string& help =
                                     "platform (default: $KCRAFT_PLATFORM, else the "
                                     "default platform)");
// After parsing, before the chosen subcommand runs: fills the platform of every parsed subcommand that was
// not given one from KCRAFT_PLATFORM. Throws UsageError when the variable names no platform, or when a
// positional platform is missing and the variable is not set.
void resolve_platforms();

}  // namespace kcraft::cli
