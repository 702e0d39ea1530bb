// Helpers shared by the systolic test suites.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "isa/systolic/systolic_machine.h"
#include "tb/systolic/systolic_platform.h"

namespace kcraft::systolic::testing {

// The platform (hardware configurations from the source tree), built once per process.
const SystolicPlatform& platform();

// Assembles `source` for a hardware configuration with its predefined symbols; fails the test (throws
// std::runtime_error with the diagnostics) on an error.
std::vector<uint32_t> assemble(const std::string& source, const std::string& hw = "default");

// A DRAM image of `bytes` bytes whose BF16 element i is `value(i)`.
std::vector<uint8_t> bf16_dram(size_t bytes, double (*value)(size_t));

uint16_t bf16(double v);
double from_bf16(uint16_t bits);
uint32_t f32(float v);
float from_f32(uint32_t bits);

}  // namespace kcraft::systolic::testing
