// Hardware configurations: one YAML file per (platform, configuration), e.g.
// rtl/systolic/configs/default.yaml.
//
//   platform: systolic
//   name: default
//   description: ...
//   build:   {MLEN: 16, ...}          compile-time RTL parameters (one Verilator build per configuration)
//   runtime: {dram_latency_cycles: 40, ...}   testbench settings that need no rebuild
#pragma once

#include <cstdint>
#include <filesystem>
#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace kcraft {

// An input file is wrong: the message names the file and the field.
class ConfigError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Runtime settings are non-negative and below 2^53 (integers up to there are exact in a double).
inline constexpr double kMaxRuntimeValue = 9007199254740992.0;

struct HwConfig {
  std::string platform;
  std::string name;
  std::string description;
  std::filesystem::path source;
  std::map<std::string, int64_t> build;
  std::map<std::string, double> runtime;  // each in [0, kMaxRuntimeValue)

  // Throws ConfigError("<file>: build.<key>: ...") when missing.
  int64_t build_param(const std::string& key) const;
  double runtime_param(const std::string& key) const;
  double runtime_param(const std::string& key, double fallback) const;
};

// `build:` keys become Verilog parameters (-G<KEY>=<value>), so they must be Verilog identifiers and
// their values integers in one grammar that kcraft and kcraft_isagen share: decimal or 0x hexadecimal,
// optionally signed, in int64 range ("010" is ten, as Verilog reads it; there is no octal).
bool is_parameter_name(std::string_view name);
std::optional<int64_t> parse_config_integer(std::string_view text);

// Both throw ConfigError naming the file (and the field, or the line of a YAML syntax error).
HwConfig load_hw_config(const std::filesystem::path& file);
// The same from text; `file` names it in messages and becomes HwConfig::source.
HwConfig parse_hw_config(const std::string& yaml_text, const std::filesystem::path& file);
// Every *.yaml in dir, sorted by name.
std::vector<HwConfig> load_hw_configs(const std::filesystem::path& dir);

}  // namespace kcraft
