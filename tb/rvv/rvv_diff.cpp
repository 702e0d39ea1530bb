#include "tb/rvv/rvv_diff.h"

#include <fmt/format.h>

#include "isa/rvv/rvv_memory_map.h"
#include "tb/rvv/rvv_regs.h"

namespace kcraft::rvv {

std::optional<std::string> first_difference(const Signature& rtl, const Signature& qemu,
                                            const std::vector<uint8_t>& rtl_dram,
                                            const std::vector<uint8_t>& qemu_dram,
                                            const EndStateCompare& options) {
  auto differ = [](const std::string& item, uint32_t r, uint32_t q) -> std::optional<std::string> {
    if (r == q) return std::nullopt;
    return fmt::format("{}: RTL 0x{:08x}, QEMU 0x{:08x}", item, r, q);
  };
  if (options.integer_registers) {
    for (unsigned i = 1; i < 32; ++i) {
      if (auto d = differ(fmt::format("x{}", i), rtl.x[i], qemu.x[i])) return d;
    }
  }
  for (unsigned i = 0; i < 32; ++i) {
    if (auto d = differ(fmt::format("f{}", i), rtl.f[i], qemu.f[i])) return d;
  }
  const std::pair<const char*, std::pair<uint32_t, uint32_t>> csrs[] = {
      {"fcsr", {rtl.fcsr, qemu.fcsr}},    {"vl", {rtl.vl, qemu.vl}},
      {"vtype", {rtl.vtype, qemu.vtype}}, {"vstart", {rtl.vstart, qemu.vstart}},
      {"vlenb", {rtl.vlenb, qemu.vlenb}},
  };
  for (const auto& [name, values] : csrs) {
    if (auto d = differ(name, values.first, values.second)) return d;
  }
  if (rtl_dram.size() != qemu_dram.size()) {
    return fmt::format("DRAM size: RTL {} bytes, QEMU {} bytes", rtl_dram.size(), qemu_dram.size());
  }
  for (size_t i = 0; i < rtl_dram.size(); ++i) {
    if (rtl_dram[i] == qemu_dram[i]) continue;
    const std::string what = options.describe_dram ? options.describe_dram(i) : std::string();
    return fmt::format("DRAM byte 0x{:08x}{}: RTL 0x{:02x}, QEMU 0x{:02x}", uint64_t{RVV_DRAM_BASE} + i,
                       what.empty() ? "" : " (" + what + ")", rtl_dram[i], qemu_dram[i]);
  }
  return std::nullopt;
}

bool reads_counter_csr(const std::vector<uint32_t>& itcm) {
  for (uint32_t w : itcm) {
    const uint32_t opcode = w & 0x7Fu;
    const uint32_t funct3 = (w >> 12) & 7u;
    if (opcode != 0x73u || funct3 == 0 || funct3 == 4) continue;  // SYSTEM, a CSR instruction
    const uint32_t csr = w >> 20;
    switch (csr) {
      case kCsrCycle:
      case kCsrTime:
      case kCsrInstret:
      case kCsrCycleh:
      case kCsrTimeh:
      case kCsrInstreth:
        return true;
      default:
        break;
    }
  }
  return false;
}

}  // namespace kcraft::rvv
