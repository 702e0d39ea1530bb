#include "tb/common/platform.h"

#include <fmt/format.h>

#include <stdexcept>

#include "tb/common/paths.h"

namespace kcraft {

const HwConfig& Platform::hw_config(const std::string& hw) const {
  for (const auto& c : hw_configs()) {
    if (c.name == hw) return c;
  }
  std::string known;
  for (const auto& c : hw_configs()) known += (known.empty() ? "" : ", ") + c.name;
  throw std::invalid_argument(
      fmt::format("unknown {} hardware configuration '{}' (known: {})", name(), hw, known));
}

std::filesystem::path Platform::guide_path() const {
  return root() / "docs" / (name() + ".md");
}

bool Platform::has_baseline(const std::string& task) const {
  // The templates a baseline compiler has do not depend on the hardware configuration.
  if (hw_configs().empty()) return false;
  const auto compiler = baseline_compiler(hw_configs().front().name);
  return compiler != nullptr && compiler->supports(task);
}

}  // namespace kcraft
