#include "tb/common/paths.h"

#include <cstdlib>
#include <string>

#ifndef KCRAFT_SOURCE_ROOT
#error "KCRAFT_SOURCE_ROOT must be defined by the build"
#endif

namespace kcraft {

namespace {
std::filesystem::path& override_root() {
  static std::filesystem::path root;
  return root;
}
}  // namespace

void set_root(const std::filesystem::path& root) {
  override_root() = root;
}

std::filesystem::path root() {
  if (!override_root().empty()) return override_root();
  if (const char* env = std::getenv("KCRAFT_ROOT"); env != nullptr && *env != '\0') return env;
  return KCRAFT_SOURCE_ROOT;
}

std::filesystem::path task_spec_dir() {
  return root() / "tasks" / "specs";
}

std::filesystem::path hw_config_dir(const std::string& platform) {
  return root() / "rtl" / platform / "configs";
}

}  // namespace kcraft
