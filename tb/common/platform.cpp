#include "tb/common/platform.h"

#include <fmt/format.h>

#include <stdexcept>

#include "tb/common/paths.h"

namespace kcraft {

std::vector<std::string> doubled_build_param(const HwConfig& config, const std::string& key) {
  const int64_t v = config.build_param(key);
  return {std::to_string(v), std::to_string(2 * v)};
}

std::vector<std::string> doubled_runtime_param(const HwConfig& config, const std::string& key) {
  const auto v = static_cast<int64_t>(config.runtime_param(key));
  return {std::to_string(v), std::to_string(2 * v)};
}

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

std::vector<KernelLanguage> Platform::languages() const {
  return {KernelLanguage{"asm", {".s", ".S"}, name() + " assembly (the ISA reference)"}};
}

namespace {

std::string extensions_text(const KernelLanguage& l) {
  std::string s;
  for (const auto& e : l.extensions) s += (s.empty() ? "" : ", ") + e;
  return s;
}

std::string choices_text(const std::vector<KernelLanguage>& all) {
  std::string s;
  for (const auto& l : all) s += fmt::format("{}{} ({})", s.empty() ? "" : ", ", l.name, extensions_text(l));
  return s;
}

}  // namespace

KernelLanguage Platform::language(const std::string& wanted) const {
  const auto all = languages();
  if (all.empty()) throw std::logic_error(name() + " states no kernel language");
  if (wanted.empty()) return all.front();
  for (const auto& l : all) {
    if (l.name == wanted) return l;
  }
  throw std::invalid_argument(
      fmt::format("{} has no kernel language '{}' (it takes: {})", name(), wanted, choices_text(all)));
}

KernelLanguage Platform::language_of_file(const std::string& filename) const {
  const auto all = languages();
  const std::string ext = std::filesystem::path(filename).extension().string();
  for (const auto& l : all) {
    for (const auto& e : l.extensions) {
      if (e == ext) return l;
    }
  }
  throw std::invalid_argument(fmt::format("{}: {} kernels are {}; the extension {} is none of them", filename,
                                          name(), choices_text(all),
                                          ext.empty() ? "(none)" : "'" + ext + "'"));
}

std::string Platform::kernel_file_name(const std::string& wanted) const {
  const KernelLanguage l = language(wanted);
  return "kernel" + (l.extensions.empty() ? std::string() : l.extensions.front());
}

std::string Platform::languages_text() const {
  const auto all = languages();
  std::string s;
  for (size_t i = 0; i < all.size(); ++i) {
    s += fmt::format("{} ({}){}: {}\n", all[i].name, extensions_text(all[i]),
                     i == 0 && all.size() > 1 ? ", the default" : "", all[i].description);
  }
  return s;
}

bool Platform::has_baseline(const std::string& task) const {
  // The templates a baseline compiler has do not depend on the hardware configuration.
  if (hw_configs().empty()) return false;
  const auto compiler = baseline_compiler(hw_configs().front().name);
  return compiler != nullptr && compiler->supports(task);
}

std::vector<SpeedWorkload> Platform::speed_workloads() const {
  return {{"gemm", "C4"}, {"softmax", "C5"}, {"relu", "C5"}};
}

CommandReport Platform::debug(const DebugOptions& /*options*/, const tasks::TaskRegistry& /*tasks*/) const {
  throw std::invalid_argument(fmt::format("the {} platform has no `kcraft debug` support", name()));
}

CommandReport Platform::coverage(const CoverageOptions& /*options*/,
                                 const tasks::TaskRegistry& /*tasks*/) const {
  throw std::invalid_argument("platform '" + name() + "' has no coverage model (kcraft coverage)");
}

CommandReport Platform::conformance(const ConformanceOptions& /*options*/) const {
  throw std::invalid_argument(fmt::format(
      "the {} platform's ISA is its own: it has no external conformance suite (`kcraft validate {}` checks "
      "its RTL against its functional model)",
      name(), name()));
}

CodesignRules Platform::codesign_rules(const std::string& /*hw*/) const {
  CodesignRules rules;
  rules.fusion_rule = "no timing model for fused instructions is known for this platform";
  return rules;
}

std::vector<DataflowOp> Platform::dataflow(const std::string& instruction_text) const {
  DataflowOp op;
  const size_t begin = instruction_text.find_first_not_of(" \t{");
  if (begin != std::string::npos) {
    const size_t end = instruction_text.find_first_of(" \t;}", begin);
    op.mnemonic = instruction_text.substr(begin, end == std::string::npos ? std::string::npos : end - begin);
  }
  return {op};
}

}  // namespace kcraft
