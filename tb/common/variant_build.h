// Building a hardware variant plugin (tb/common/hw_variants.h, docs/explore.md): the Verilated model of one
// set of build parameters and the platform's driver, compiled by the CMake project in
// tb/common/variant_plugin/ into a cache folder. `kcraft explore` builds its variants with it, and
// `kcraft coverage --rtl` a variant of a built-in configuration with Verilator's line and toggle coverage.
#pragma once

#include <cstdint>
#include <filesystem>
#include <map>
#include <stdexcept>
#include <string>

#include <nlohmann/json.hpp>

namespace kcraft::tb {

// A variant's Verilator or C++ build failed: the message names the variant and the first error line.
class VariantBuildError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Where variant builds and synthesis results are kept: $KCRAFT_VARIANT_CACHE, else
// $XDG_CACHE_HOME/kcraft/variants, else ~/.cache/kcraft/variants.
std::filesystem::path variant_cache_root();

// How this kcraft builds variants of a platform (written by kcraft_add_testbench into
// <build>/variants/<platform>.json). Throws std::invalid_argument when the binary has none for it.
nlohmann::json variant_build_info(const std::string& platform);

// 64-bit FNV-1a: the hashes in cache folder names, stable across runs and machines.
uint64_t variant_hash(const std::string& text);

// The model (and plugin) name of a set of build parameters, "b" and 12 hex digits of their hash: variants
// with the same build parameters share one plugin, whether `kcraft explore` or a first use built it.
std::string variant_model_name(const std::map<std::string, int64_t>& build);

struct VariantPluginRequest {
  std::string platform;
  std::string model;                     // the plugin's name and model prefix, e.g. "b<build hash>"
  std::map<std::string, int64_t> build;  // the configuration's build: parameters
  bool rtl_coverage = false;             // Verilate with --coverage-line --coverage-toggle
  unsigned jobs = 2;                     // parallel compiles
  std::string label;                     // what error messages call it: "hardware variant x (MLEN=8)"
};

struct VariantPluginBuild {
  std::filesystem::path plugin;
  bool rebuilt = false;  // false: the cached plugin was up to date
  double seconds = 0;
};

// Builds (or brings up to date) the plugin in <cache>/<platform>/<model>[-cov]-<hash of `info`>/: one
// folder per model name, coverage setting and kcraft build (a plugin binds to the binary whose headers it
// was compiled with); within it, make rebuilds what the RTL or headers changed. Processes that build the
// same plugin at once take turns (a lock file in the folder). Throws VariantBuildError.
VariantPluginBuild build_variant_plugin(const VariantPluginRequest& request, const nlohmann::json& info);
// Where build_variant_plugin puts that plugin (whether or not it exists yet).
std::filesystem::path variant_plugin_file(const VariantPluginRequest& request, const nlohmann::json& info);

}  // namespace kcraft::tb
