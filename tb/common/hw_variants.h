// Hardware configurations this binary has no Verilated build of: variants that `kcraft explore` (or a
// person) puts into a data root's rtl/<platform>/configs/ (docs/explore.md). A configuration file whose
// name is not a built-in build runs on
//   - rtl/<platform>/models/<name>.so when that exists: a variant plugin, i.e. a shared library holding
//     the Verilated model of its build parameters and the platform's driver, built by the CMake project
//     in tb/common/variant_plugin/ and bound to this binary's Verilator runtime and testbench code; or
//   - a built-in configuration whose file (in the same folder) has exactly the same `build:` parameters:
//     a variant that changes only `runtime:` settings (DRAM timing, clock) needs no build at all.
// The factory generated for each platform (hw_factory.cpp.in) asks here for names it does not know.
#pragma once

#include <filesystem>
#include <iosfwd>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "tb/common/accelerator_hw.h"

namespace kcraft::tb {

// What a variant runs on: a built-in model (`builtin`) or a plugin (`plugin`, then builtin is empty).
struct VariantModel {
  std::string builtin;
  std::filesystem::path plugin;
};

// A plugin this process built for itself (`kcraft coverage --rtl`, tb/common/rtl_coverage.h): configuration
// `config` of `platform` runs on `plugin`, with no file in the data root. Register it before the platform's
// first simulation: the SystemC world makes the models of every configuration once, when it is built.
void register_variant_plugin(const std::string& platform, const std::string& config,
                             const std::filesystem::path& plugin);

// Makes sure this process can simulate configuration `config` of `platform`. A configuration of the data
// root that is neither built into this binary nor a runtime-only variant of a built-in one, and has no
// plugin in the data root, gets its plugin built on first use into the variant cache (one per set of build
// parameters, shared with `kcraft explore`; a later use only checks that it is up to date, in under a
// second) and registered for this process. `progress` gets a line before and after a build. Call it
// before the platform's first simulation in the process. Returns false when the data root has no such
// configuration; throws VariantBuildError when the build fails, and std::invalid_argument when this kcraft
// has no build information for the platform.
bool ensure_hw_model(const std::string& platform, const std::string& config, std::ostream& progress);

// Where the model of a configuration comes from, for people: "compiled in", "compiled in (default's
// build)" for a runtime-only variant, "plugin <file>", "built on first use (ready in <folder>)" or "built on
// first use (not built yet)"; "" when it cannot be said (no build information).
std::string hw_model_status(const std::string& platform, const std::string& config);

// The plugin file a variant of `platform` named `config` would have under the data root.
std::filesystem::path variant_plugin_path(const std::string& platform, const std::string& config);

// The model of a configuration that is not built in; nullopt when the data root has no such configuration,
// or neither a plugin nor a built-in build with its parameters.
std::optional<VariantModel> find_variant_model(const std::string& platform, const std::string& config,
                                               const std::vector<std::string>& builtin);

// The built-in configurations, then every other configuration of the data root that has a model (sorted):
// the configurations this process can simulate.
std::vector<std::string> configs_with_variants(const std::string& platform,
                                               const std::vector<std::string>& builtin);

// Loads a variant plugin (once per process) and makes its driver. Throws std::runtime_error naming the
// plugin when it cannot be loaded (the loader's message) or was built for another platform.
std::unique_ptr<AcceleratorHw> load_variant_plugin(const std::filesystem::path& plugin,
                                                   const std::string& platform, const std::string& config);

// The plugin's entry points (tb/common/variant_plugin/entry.cpp.in).
inline constexpr const char* kVariantPlatformSymbol = "kcraft_variant_platform";
inline constexpr const char* kVariantMakeHwSymbol = "kcraft_variant_make_hw";

}  // namespace kcraft::tb
