// What the build registered: the generated platform list (tb/CMakeLists.txt writes it from every
// kcraft_register_platform call). Only the registry (tb/common/platform_registry.cpp) reads it.
#pragma once

#include <string>
#include <vector>

#include "tb/common/platform.h"

namespace kcraft::detail {

struct BuiltinPlatform {
  std::string name;
  bool is_default = false;  // registered with DEFAULT: listed first, what --platform means by default
  PlatformFactory make;
};

// In registration order (the order of the tb/<platform>/ folders).
std::vector<BuiltinPlatform> builtin_platforms();

}  // namespace kcraft::detail
