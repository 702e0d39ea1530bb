// The part of a Platform that follows from an ISA described as data (isa/<platform>.yaml, through the
// shared generator) and from the hardware configuration files: the configurations themselves, their
// parameter table, the ISA reference, the assembler and the disassembler. A platform with such an ISA
// derives from this and implements the rest of tb/common/platform.h.
#pragma once

#include <string>
#include <vector>

#include "isa/common/isa_spec.h"
#include "tb/common/platform.h"

namespace kcraft::tb {

class IsaSpecPlatform : public Platform {
 public:
  // Loads rtl/<name>/configs/*.yaml from the data root (a ConfigError when there are none). `markdown`
  // is the generated reference (isa::<name>::isa_markdown()).
  IsaSpecPlatform(std::string name, const isa::IsaSpec& spec, std::string markdown);

  std::string name() const override { return name_; }
  const std::vector<HwConfig>& hw_configs() const override { return configs_; }
  // The build parameters with the ISA's descriptions, then the DRAM timing of `runtime:`.
  std::vector<HwParameter> hw_parameters(const std::string& hw) const override;

  // The ISA's assembly, in .s/.S files.
  std::vector<KernelLanguage> languages() const override;

  std::string isa_reference() const override { return markdown_; }
  std::vector<std::string> instruction_names() const override;
  // From the YAML: latency and occupancy formulas (evaluated on `hw` where they use only its parameters),
  // register operands, the memory ranges of `memory:` (when the YAML states them), and the hazard rule of
  // the ISA's kind (interlocked, or an exposed pipeline).
  SchedulingTable scheduling_table(const std::string& hw) const override;

  isa::AssembleResult assemble(const std::string& source, const std::string& filename,
                               const isa::SymbolTable& symbols) const override;
  // Annotated: every line (bundle) ends with "; <index>: <hex word>".
  std::string disassemble(const std::vector<uint32_t>& words) const override;
  // From the YAML: each op's unit, its register operands by their access, and the memory rows of
  // `memory:` (one row by an address over registers and immediates: "VSRAM[r1+4]"; anything else: the
  // whole memory, "VSRAM[*]").
  std::vector<DataflowOp> dataflow(const std::string& instruction_text) const override;

 protected:
  const isa::IsaSpec& spec() const { return spec_; }

 private:
  std::string name_;
  const isa::IsaSpec& spec_;
  std::string markdown_;
  std::vector<HwConfig> configs_;
};

}  // namespace kcraft::tb
