#include "tb/common/isa_spec_platform.h"

#include <fmt/format.h>

#include "isa/common/assembler.h"
#include "isa/common/disassembler.h"
#include "tb/common/paths.h"

namespace kcraft::tb {

IsaSpecPlatform::IsaSpecPlatform(std::string name, const isa::IsaSpec& spec, std::string markdown)
    : name_(std::move(name)),
      spec_(spec),
      markdown_(std::move(markdown)),
      configs_(load_hw_configs(hw_config_dir(name_))) {
  if (configs_.empty()) {
    throw ConfigError(fmt::format("{}: no hardware configurations found", hw_config_dir(name_).string()));
  }
}

std::vector<HwParameter> IsaSpecPlatform::hw_parameters(const std::string& hw) const {
  const HwConfig& c = hw_config(hw);
  auto description = [&](const std::string& name) {
    for (const auto& p : spec_.parameters) {
      if (p.name == name) return p.description;
    }
    return std::string();
  };
  std::vector<HwParameter> rows;
  for (const auto& [key, value] : c.build) {
    rows.push_back({key, std::to_string(value), "", description(key), HwParameter::Kind::kBuild});
  }
  rows.push_back({"DRAM_LATENCY", fmt::format("{}", c.runtime_param("dram_latency_cycles")), "cycles",
                  description("DRAM_LATENCY"), HwParameter::Kind::kRuntime});
  rows.push_back({"DRAM_BYTES_PER_CYCLE", fmt::format("{}", c.runtime_param("dram_bytes_per_cycle")), "",
                  description("DRAM_BYTES_PER_CYCLE"), HwParameter::Kind::kRuntime});
  return rows;
}

std::vector<KernelLanguage> IsaSpecPlatform::languages() const {
  std::string description = name_ + " assembly (the ISA reference)";
  if (!spec_.halt_mnemonic.empty()) description += "; a kernel ends with " + spec_.halt_mnemonic;
  return {KernelLanguage{"asm", {".s", ".S"}, description}};
}

std::vector<std::string> IsaSpecPlatform::instruction_names() const {
  std::vector<std::string> names;
  for (const auto& insn : spec_.instructions) names.push_back(insn.name);
  return names;
}

isa::AssembleResult IsaSpecPlatform::assemble(const std::string& source, const std::string& filename,
                                              const isa::SymbolTable& symbols) const {
  return isa::assemble(spec_, source, filename, symbols);
}

std::string IsaSpecPlatform::disassemble(const std::vector<uint32_t>& words) const {
  return isa::disassemble_program(spec_, words, {true});
}

}  // namespace kcraft::tb
