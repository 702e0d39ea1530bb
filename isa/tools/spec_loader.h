// Reads isa/<platform>.yaml into an IsaSpec, validating it thoroughly. Every problem is reported (not
// just the first) as "file:line:col: error: <instruction/format/...>: field '<field>': <message>".
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "isa/common/isa_spec.h"

namespace kcraft::isa::gen {

struct SpecLoadResult {
  std::optional<IsaSpec> spec;      // set only when there are no errors
  std::vector<std::string> errors;  // formatted messages
};

SpecLoadResult load_isa_spec(const std::string& path);
SpecLoadResult load_isa_spec_text(std::string_view yaml, const std::string& filename);

}  // namespace kcraft::isa::gen
