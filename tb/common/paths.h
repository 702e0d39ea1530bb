// Where kcraft finds its data at run time: task specs, ISA YAML, hardware configurations.
//
// The root is, in order: set_root() (the CLI's --root), the KCRAFT_ROOT environment variable, or the
// source tree the binary was built from.
#pragma once

#include <filesystem>

namespace kcraft {

void set_root(const std::filesystem::path& root);
std::filesystem::path root();
std::filesystem::path task_spec_dir();
std::filesystem::path hw_config_dir(const std::string& platform);

}  // namespace kcraft
