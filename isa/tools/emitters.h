// The files kcraft_isagen writes from a validated IsaSpec.
#pragma once

#include <string>

#include "isa/common/isa_spec.h"

namespace kcraft::isa::gen {

// `source_name` is the YAML path shown in "generated from" comments (e.g. "isa/systolic.yaml").
std::string emit_cpp_header(const IsaSpec& spec, const std::string& source_name);
std::string emit_cpp_tables(const IsaSpec& spec, const std::string& source_name, const std::string& markdown);
std::string emit_sv_package(const IsaSpec& spec, const std::string& source_name);
std::string emit_markdown(const IsaSpec& spec, const std::string& source_name);

// "kOff9" for field "off9", "OFF9" for the SystemVerilog names.
std::string cpp_field_constant(const std::string& field);
std::string sv_name(const std::string& name);

}  // namespace kcraft::isa::gen
