// The RTL's end state against QEMU's (the rvv platform's functional reference): crt0's end-state
// signature and the DRAM image. One comparison for evaluate(), the validation campaign and the core's
// tests (tests/rvv_core).
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "isa/rvv/qemu_runner.h"

namespace kcraft::rvv {

struct EndStateCompare {
  // x1..x31: off when the program reads cycle/time/instret (or their high halves), whose values differ
  // between the RTL and QEMU by nature (QEMU counts host time and its own instructions).
  bool integer_registers = true;
  // Names a DRAM byte offset for messages ("output 'y' element 3"); "" or unset: just the address.
  std::function<std::string(uint64_t offset)> describe_dram;
};

// The first item that differs, in the order x1..x31, f0..f31, fcsr, vl, vtype, vstart, vlenb, then DRAM
// bytes (sizes first): "f3: RTL 0x3f800000, QEMU 0x3f800001". nullopt when everything agrees.
std::optional<std::string> first_difference(const Signature& rtl, const Signature& qemu,
                                            const std::vector<uint8_t>& rtl_dram,
                                            const std::vector<uint8_t>& qemu_dram,
                                            const EndStateCompare& options = {});

// Whether the ITCM words hold a CSR instruction that reads cycle, time, instret or their high halves
// (a data word that happens to look like one only turns the integer comparison off).
bool reads_counter_csr(const std::vector<uint32_t>& itcm);

}  // namespace kcraft::rvv
