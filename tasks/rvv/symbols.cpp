#include "tasks/rvv/symbols.h"

#include <fmt/format.h>

#include <cctype>
#include <cmath>
#include <cstring>
#include <stdexcept>

#include "isa/rvv/rvv_memory_map.h"

namespace kcraft::rvv {
namespace {

constexpr const char* kF32Suffix = "_F32";

std::string upper(std::string s) {
  for (char& c : s) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return s;
}

bool is_identifier(const std::string& s) {
  if (s.empty() || std::isdigit(static_cast<unsigned char>(s[0]))) return false;
  for (char c : s) {
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_') return false;
  }
  return true;
}

bool starts_with(const std::string& s, const char* prefix) {
  return s.rfind(prefix, 0) == 0;
}

bool ends_with(const std::string& s, const char* suffix) {
  const size_t n = std::strlen(suffix);
  return s.size() >= n && s.compare(s.size() - n, n, suffix) == 0;
}

// A PARAM_<NAME>_F32 entry: the parameter's float.
bool is_float_bits(const std::string& name) {
  return starts_with(name, "PARAM_") && ends_with(name, kF32Suffix);
}

std::string int_literal(const std::string& name, int64_t v) {
  if (starts_with(name, "ADDR_") || name == "DRAM_BASE" || is_float_bits(name))
    return fmt::format("0x{:08x}", static_cast<uint64_t>(v));
  // Negative values in parentheses so `-N` and `x-N` expand safely.
  return v < 0 ? fmt::format("({})", v) : fmt::format("{}", v);
}

// The shortest text that reads back as the same float, as a C float literal.
std::string float_literal(float f) {
  std::string s = fmt::format("{}", f);
  if (s.find_first_of(".e") == std::string::npos) s += ".0";  // "2f" is not a C literal, "2.0f" is
  s += "f";
  return f < 0 ? "(" + s + ")" : s;
}

}  // namespace

isa::SymbolTable task_symbols(const tasks::ResolvedConfig& config, const tasks::DramLayout& layout,
                              const isa::SymbolTable& hw) {
  if (layout.total_bytes > RVV_DRAM_MAX_BYTES) {
    throw std::invalid_argument(fmt::format("the {} {} layout needs {} bytes of DRAM; rvv has at most {}",
                                            layout.task, layout.config, layout.total_bytes,
                                            RVV_DRAM_MAX_BYTES));
  }
  isa::SymbolTable s;
  auto define = [&](const std::string& name, int64_t value) {
    if (!is_identifier(name)) throw std::invalid_argument("symbol name '" + name + "' is not a C identifier");
    if (!s.emplace(name, value).second) throw std::invalid_argument("symbol '" + name + "' is defined twice");
  };
  define("DRAM_BASE", RVV_DRAM_BASE);
  define("DRAM_BYTES", static_cast<int64_t>(layout.total_bytes));
  for (const auto& r : layout.regions) {
    define("ADDR_" + upper(r.name), static_cast<int64_t>(RVV_DRAM_BASE + r.address));
    define("BYTES_" + upper(r.name), static_cast<int64_t>(r.bytes));
  }
  for (const auto& [name, value] : config.dims) define(name, value);
  for (const auto& [name, value] : config.params) {
    const auto f = static_cast<float>(value);
    if (!std::isfinite(f)) throw std::invalid_argument("parameter '" + name + "' is not a finite float");
    uint32_t bits = 0;
    std::memcpy(&bits, &f, 4);
    define("PARAM_" + upper(name) + kF32Suffix, bits);
  }
  for (const auto& [name, value] : hw) define(name, value);
  return s;
}

std::string symbols_header(const isa::SymbolTable& symbols, const std::string& title) {
  std::string out = fmt::format(
      "/* kcraft rvv symbols{}{}. Generated; addresses are absolute. */\n"
      "#ifndef KCRAFT_RVV_SYMBOLS_H\n#define KCRAFT_RVV_SYMBOLS_H\n",
      title.empty() ? "" : ": ", title);
  for (const auto& [name, value] : symbols) {
    if (!is_identifier(name)) throw std::invalid_argument("symbol name '" + name + "' is not a C identifier");
    out += fmt::format("#define {} {}\n", name, int_literal(name, value));
    if (!is_float_bits(name)) continue;
    const std::string c_name = name.substr(0, name.size() - std::strlen(kF32Suffix));
    if (symbols.count(c_name) != 0)
      throw std::invalid_argument("symbol '" + c_name + "' is defined besides " + name);
    const auto bits = static_cast<uint32_t>(value);
    float f = 0;
    std::memcpy(&f, &bits, 4);
    if (!std::isfinite(f)) throw std::invalid_argument(name + " is not the bit pattern of a finite float");
    out += fmt::format("#define {} {}\n", c_name, float_literal(f));
  }
  out += "#endif\n";
  return out;
}

std::string symbols_header(const tasks::ResolvedConfig& config, const tasks::DramLayout& layout,
                           const isa::SymbolTable& hw) {
  return symbols_header(task_symbols(config, layout, hw),
                        fmt::format("task {}, configuration {}", config.task, config.config));
}

}  // namespace kcraft::rvv
