// Design-space exploration (`kcraft explore`, docs/explore.md): hardware variants of one platform, made
// from a base configuration with some `build:` or `runtime:` parameters replaced, each run through the
// sweep (agents × tasks × configurations) and compared by cycles, utilisation and synthesis size.
//
// A variant whose build parameters are those of a configuration this binary has a Verilated build of runs
// on that build; any other is built on demand as a plugin (tb/common/variant_plugin/, loaded by
// tb/common/hw_variants.h) in the variant cache and reused by every later exploration that asks for it.
// The variants reach the sweep's workers through a data root whose rtl/<platform>/configs/ holds their
// configuration files and rtl/<platform>/models/ their plugins.
#pragma once

#include <cstdint>
#include <filesystem>
#include <map>
#include <optional>
#include <ostream>
#include <stdexcept>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "agent/bench/progress.h"
#include "agent/bench/run_record.h"
#include "isa/common/hw_config.h"
#include "tasks/common/task_spec.h"
#include "tb/common/variant_build.h"

namespace kcraft::bench {

// What the user asked for is wrong (unknown parameter, bad value, unknown base): exit 2.
class ExploreError : public std::invalid_argument {
 public:
  using std::invalid_argument::invalid_argument;
};

// A variant's Verilator or C++ build failed: the message names the variant's parameters and the first
// error line (the plugin builder lives in tb/common/variant_build.h).
using tb::VariantBuildError;

// One --set: a parameter (a key of the base's build: or runtime: section) and the values to try. Several
// names take each value together (parameters the RTL ties, e.g. an array's MLEN and the vector VLEN).
struct ParameterValues {
  std::vector<std::string> names;
  std::vector<std::string> values;
  std::string text() const;  // "MLEN,VLEN"
};
// "NAME=v1,v2,..." or "NAME1,NAME2=v1,v2,..."; throws ExploreError.
ParameterValues parse_parameter_values(const std::string& text);

struct Variant {
  std::string name;  // readable part from the settings, then 8 hex digits of the parameter set's hash
  std::vector<std::pair<std::string, std::string>> settings;  // the --set values it takes, in --set order
  HwConfig config;                                            // the whole configuration
  std::string yaml;                                           // its configuration file
  std::string build_hash;    // 16 hex digits of the build parameters alone (what synthesis depends on)
  bool needs_build = false;  // no built-in configuration has its build parameters
  std::string settings_text() const;  // "MLEN=8, dram_latency_cycles=90"
};

// The cartesian product of the sets over `base` (in --set order, the first varying slowest). `builtin`:
// the configurations this binary has Verilated builds of. Throws ExploreError naming the parameter when it
// is in neither section, given twice, or has a value the configuration loader rejects.
std::vector<Variant> make_variants(const std::string& platform, const HwConfig& base,
                                   const std::string& base_yaml, const std::vector<ParameterValues>& sets,
                                   const std::vector<HwConfig>& builtin);

// Minimising both coordinates: true for the points no other point is at least as good as in both and
// better in one.
std::vector<bool> pareto_front(const std::vector<std::pair<double, double>>& points);

// Where variant builds and synthesis results are kept (tb/common/variant_build.h).
using tb::variant_cache_root;

// How this kcraft builds variants of a platform (written by kcraft_add_testbench into
// <build>/variants/<platform>.json). Throws ExploreError when the binary has none for the platform.
nlohmann::json variant_build_info(const std::string& platform);

struct VariantBuild {
  std::filesystem::path plugin;
  bool rebuilt = false;  // false: the cached plugin was up to date
  double seconds = 0;
};
// Builds (or brings up to date) a variant's plugin in its cache folder. Throws VariantBuildError.
VariantBuild build_variant(const std::string& platform, const Variant& v, const nlohmann::json& info,
                           unsigned jobs);

struct SynthesisSize {
  uint64_t cells = 0, memories = 0;
  double seconds = 0;
  bool cached = false;
};
// yosys cells of the variant's build parameters (scripts/synth.sh, coarse), cached by the build hash.
// nullopt with `error` set when yosys failed.
std::optional<SynthesisSize> synthesize_variant(const std::string& platform, const Variant& v,
                                                const nlohmann::json& info, std::string& error);

// The yosys cells of each variant of one --set over the platform's configuration `base`, from the synthesis
// cache only (nullopt for a variant not synthesized yet): nothing is built or synthesized. Throws
// ExploreError like make_variants and variant_build_info.
// ... and where that cache keeps them, whether they are there or not.
std::vector<std::filesystem::path> synthesis_cache_files(const std::string& platform, const std::string& base,
                                                         const ParameterValues& set);
std::vector<std::optional<uint64_t>> cached_cells(const std::string& platform, const std::string& base,
                                                  const ParameterValues& set);
// The same sizes, synthesizing (scripts/synth.sh, minutes each on the larger RTL) the variants the cache does
// not hold yet; nullopt for a variant yosys failed on, its message in `error`.
std::vector<std::optional<uint64_t>> synthesized_cells(const std::string& platform, const std::string& base,
                                                       const ParameterValues& set, std::string& error);

struct ExploreOptions {
  std::string platform;
  std::string base = "default";
  std::vector<ParameterValues> sets;
  std::vector<std::string> tasks;  // empty: every task
  std::vector<std::string> configs{"C1"};
  std::vector<std::string> agents{"baseline"};  // as --agents of kcraft bench
  std::filesystem::path results;                // the exploration's results store
  unsigned jobs = 1;
  double job_timeout_seconds = 3600;
  bool synthesis = true;
  Progress::Mode progress = Progress::Mode::kAuto;
  std::string command_line;
};

struct VariantResult {
  Variant variant;
  std::optional<VariantBuild> build;  // only for variants that needed one
  std::optional<SynthesisSize> size;  // nullopt: --no-synth or synthesis failed (synth_error)
  std::string synth_error;
  std::vector<RunRecord> runs;               // every run of the variant (failed ones included)
  std::vector<UnsupportedCell> unsupported;  // cells the platform refuses on this variant, with the reason
  // task/config -> the fewest cycles of a correct run (over the agents)
  std::map<std::string, uint64_t> best_cycles;
  std::map<std::string, double> best_utilization;
  std::optional<double> geomean_cycles;  // over the cells correct on every variant
  std::optional<double> mean_utilization;
  size_t passed = 0, failed = 0;  // cells with a correct run, runs that were not correct
  bool pareto = false;            // on the front of (cells, geomean cycles)
};

struct Exploration {
  std::string platform, base;
  std::vector<std::string> parameters;  // the --set names
  std::vector<std::string> cells;       // "task/config" the geomean is over (correct on every variant)
  std::vector<VariantResult> variants;
  std::filesystem::path results, data_root;
  double wall_seconds = 0;
  bool interrupted = false;
};

// Builds what is missing, runs the sweep, synthesizes and fills the comparison. Throws ExploreError and
// VariantBuildError.
Exploration run_exploration(const ExploreOptions& options, const tasks::TaskRegistry& registry,
                            std::ostream& progress_out);

std::string exploration_text(const Exploration& e);
nlohmann::json exploration_json(const Exploration& e);
void write_exploration_csv(const Exploration& e, const std::filesystem::path& file);
// A self-contained page: the table and a cycles-versus-cells chart (inline SVG) with the Pareto front.
std::string exploration_html(const Exploration& e);

}  // namespace kcraft::bench
