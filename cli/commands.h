// The `kcraft` subcommands. Each returns the process exit code: 0 success/pass, 1 the kernel failed,
// 2 usage or input error, 3 hardware bug (the RTL and the functional model disagree).
#pragma once

#include <CLI/CLI.hpp>

#include <memory>
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

// Registers every subcommand on `app`; `run` is set to the chosen subcommand's action.
void register_commands(CLI::App& app, GlobalOptions& global, std::function<int()>& run);

}  // namespace kcraft::cli
