#include "isa/rvv/symbols.h"

#include <fmt/format.h>

#include <cctype>
#include <cmath>
#include <set>
#include <stdexcept>

#include "isa/rvv/rvv_memory_map.h"

namespace kcraft::rvv {
namespace {

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

std::string int_literal(int64_t v) {
  // Negative values in parentheses so `-N` and `x-N` expand safely; addresses in hex.
  return v < 0 ? fmt::format("({})", v) : fmt::format("{}", v);
}

std::string float_literal(const std::string& name, double v) {
  if (!std::isfinite(v)) throw std::invalid_argument("parameter '" + name + "' is not finite");
  std::string s = fmt::format("{:.9g}", v);
  if (s.find_first_of(".e") == std::string::npos) s += ".0";  // "2f" is not a C literal, "2.0f" is
  return s + "f";
}

}  // namespace

std::string symbols_header(const tasks::ResolvedConfig& config, const tasks::DramLayout& layout,
                           const isa::SymbolTable& hw) {
  if (layout.total_bytes > RVV_DRAM_MAX_BYTES) {
    throw std::invalid_argument(fmt::format("the {} {} layout needs {} bytes of DRAM; rvv has at most {}",
                                            layout.task, layout.config, layout.total_bytes,
                                            RVV_DRAM_MAX_BYTES));
  }
  std::set<std::string> defined;
  std::string out = fmt::format(
      "/* kcraft rvv symbols: task {}, configuration {}. Generated; addresses are absolute. */\n"
      "#ifndef KCRAFT_RVV_SYMBOLS_H\n#define KCRAFT_RVV_SYMBOLS_H\n",
      config.task, config.config);
  auto define = [&](const std::string& name, const std::string& value) {
    if (!is_identifier(name)) throw std::invalid_argument("symbol name '" + name + "' is not a C identifier");
    if (!defined.insert(name).second) throw std::invalid_argument("symbol '" + name + "' is defined twice");
    out += fmt::format("#define {} {}\n", name, value);
  };
  out += "/* DRAM regions */\n";
  define("DRAM_BASE", fmt::format("0x{:08x}", RVV_DRAM_BASE));
  define("DRAM_BYTES", fmt::format("{}", layout.total_bytes));
  for (const auto& r : layout.regions) {
    define("ADDR_" + upper(r.name), fmt::format("0x{:08x}", RVV_DRAM_BASE + r.address));
    define("BYTES_" + upper(r.name), fmt::format("{}", r.bytes));
  }
  out += "/* dimensions */\n";
  for (const auto& [name, value] : config.dims) define(name, int_literal(value));
  if (!config.params.empty()) {
    out += "/* parameters (C float literals) */\n";
    for (const auto& [name, value] : config.params)
      define("PARAM_" + upper(name), float_literal(name, value));
  }
  out += "/* hardware */\n";
  for (const auto& [name, value] : hw) define(name, int_literal(value));
  out += "#endif\n";
  return out;
}

}  // namespace kcraft::rvv
