#include "tests/rvv_core/rvv_core_harness.h"

#include <fmt/format.h>

#include <chrono>
#include <cstring>
#include <map>
#include <random>
#include <regex>
#include <sstream>

#include "isa/rvv/rvv_memory_map.h"
#include "tb/rvv/rvv_diff.h"

namespace kcraft::rvv::test {

namespace {
std::map<std::string, std::unique_ptr<RvvHw>>& drivers() {
  static std::map<std::string, std::unique_ptr<RvvHw>> d;
  return d;
}
}  // namespace

RvvHw& hw(const std::string& config) {
  auto& d = drivers();
  auto it = d.find(config);
  if (it == d.end()) it = d.emplace(config, make_rvv_hw(config)).first;
  return *it->second;
}

BuiltKernel build_asm(const std::string& body, const std::string& config) {
  BuildOptions o;
  o.language = "asm";
  o.file_name = "kernel.S";
  o.vlen = static_cast<int>(hw(config).params().vlen);
  const std::string source = "  .text\n  .globl kernel\n  .type kernel, @function\nkernel:\n" + body;
  BuiltKernel k = build_kernel(source, o);
  if (!k.ok) throw std::runtime_error("build failed:\n" + format_diagnostics(k.diagnostics) + k.log);
  return k;
}

std::vector<uint8_t> random_dram(size_t bytes, uint32_t seed) {
  std::mt19937 rng(seed);
  std::vector<uint8_t> v(bytes);
  for (auto& b : v) b = static_cast<uint8_t>(rng());
  return v;
}

BareRun run_rtl(const BuiltKernel& kernel, const std::vector<uint8_t>& dram, const std::string& config,
                uint64_t max_cycles, std::vector<uint8_t>* dram_out) {
  RvvHw& h = hw(config);
  tb::DramModel model;
  model.configure(tb::DramTiming{h.params().dram_latency, h.params().dram_bytes_per_cycle});
  model.load(dram);
  BareRun r = h.run(kernel.elf, model, max_cycles);
  if (dram_out != nullptr) *dram_out = model.bytes();
  return r;
}

Both run_both(const BuiltKernel& kernel, const std::vector<uint8_t>& dram, const std::string& config,
              uint64_t max_cycles) {
  Both b;
  b.rtl = run_rtl(kernel, dram, config, max_cycles, &b.rtl_dram);
  RunOptions o;
  o.vlen = static_cast<int>(hw(config).params().vlen);
  o.timeout = std::chrono::milliseconds(20000);
  b.qemu = run_qemu(kernel, dram, o);
  return b;
}

void expect_same_end_state(const Both& b) {
  ASSERT_EQ(b.qemu.end, RunEnd::kExited) << b.qemu.message << b.qemu.qemu_stderr;
  ASSERT_TRUE(b.rtl.stopped) << "RTL still running after " << b.rtl.cycles << " cycles, pc 0x" << std::hex
                             << b.rtl.pc;
  ASSERT_EQ(b.rtl.error.code, ErrorCode::kNone) << b.rtl.error.describe();
  ASSERT_TRUE(b.rtl.signature_valid) << "no signature in the DTCM";
  // The platform's comparison (tb/rvv/rvv_diff.h): the first differing item, registers then DRAM.
  EXPECT_EQ(first_difference(b.rtl.signature, b.qemu.signature, b.rtl_dram, b.qemu.dram), std::nullopt);
}

Both check_against_qemu(const std::string& body, const std::vector<uint8_t>& dram,
                        const std::string& config) {
  const BuiltKernel k = build_asm(body, config);
  Both b = run_both(k, dram, config);
  expect_same_end_state(b);
  return b;
}

uint32_t symbol_address(const BuiltKernel& kernel, const std::string& symbol) {
  // objdump -d prints "00000040 <name>:" for every symbol.
  const std::regex re("([0-9a-f]{8}) <" + symbol + ">:");
  std::smatch m;
  if (!std::regex_search(kernel.disassembly, m, re)) throw std::runtime_error("no symbol " + symbol);
  return static_cast<uint32_t>(std::stoul(m[1].str(), nullptr, 16));
}

}  // namespace kcraft::rvv::test
