#include "tests/systolic/test_util.h"

#include <stdexcept>

#include "isa/common/arith/fp_arith.h"

namespace kcraft::systolic::testing {

const SystolicPlatform& platform() {
  static const SystolicPlatform p;
  return p;
}

std::vector<uint32_t> assemble(const std::string& source, const std::string& hw) {
  auto result = platform().assemble(source, "test.s", platform().symbols(hw));
  if (!result.ok)
    throw std::runtime_error("test program does not assemble:\n" + isa::format_diagnostics(result, source));
  return result.words;
}

std::vector<uint8_t> bf16_dram(size_t bytes, double (*value)(size_t)) {
  std::vector<uint8_t> dram(bytes);
  for (size_t i = 0; i + 1 < bytes; i += 2) {
    const uint16_t b = bf16(value(i / 2));
    dram[i] = static_cast<uint8_t>(b & 0xFF);
    dram[i + 1] = static_cast<uint8_t>(b >> 8);
  }
  return dram;
}

uint16_t bf16(double v) {
  return arith::double_to_bf16(v);
}
double from_bf16(uint16_t bits) {
  return arith::bf16_to_double(bits);
}
uint32_t f32(float v) {
  return arith::float_to_f32(v);
}
float from_f32(uint32_t bits) {
  return arith::f32_to_float(bits);
}

}  // namespace kcraft::systolic::testing
