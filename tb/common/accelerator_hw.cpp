#include "tb/common/accelerator_hw.h"

#include <algorithm>
#include <stdexcept>

#include <fmt/format.h>

#include "tb/common/dram_model.h"

namespace kcraft::tb {

uint64_t DramModelPort::access(bool write, uint64_t addr, uint8_t* data, unsigned len, uint64_t cycle,
                               uint32_t pc, const uint8_t* byte_enable) {
  if (!dram_.in_range(addr, len, byte_enable)) {
    throw std::runtime_error(fmt::format("DMA request for DRAM bytes [0x{:x}, 0x{:x}) beyond its {} bytes",
                                         addr, addr + len, dram_.size()));
  }
  return dram_.access(write, addr, data, len, cycle, pc, byte_enable);
}

uint32_t AcceleratorHw::status(unsigned word) {
  return dbg_word(regs::kDbgStatus, word);
}

uint64_t AcceleratorHw::status64(unsigned word) {
  uint64_t v = 0;
  dbg_read(regs::kDbgStatus, word, &v, sizeof v);
  return v;
}

uint32_t AcceleratorHw::dbg_word(unsigned sel, uint32_t addr) {
  uint32_t v = 0;
  dbg_read(sel, addr, &v, sizeof v);
  return v;
}

uint64_t AcceleratorHw::counter(unsigned index) {
  uint64_t v = 0;
  dbg_read(regs::kDbgCounter, index, &v, sizeof v);
  return v;
}

void AcceleratorHw::load_program(const std::vector<uint32_t>& words) {
  if (words.size() > imem_words()) {
    throw std::invalid_argument(
        fmt::format("program of {} words does not fit IMEM_WORDS={}", words.size(), imem_words()));
  }
  for (size_t i = 0; i < words.size(); ++i) ctl_write(regs::kCtlImem + static_cast<uint32_t>(i), words[i]);
}

void AcceleratorHw::start(const std::vector<uint32_t>& program, uint64_t dram_bytes) {
  reset_and_clear();
  load_program(program);
  ctl_write(regs::kCtlDramBytes, static_cast<uint32_t>(std::min<uint64_t>(dram_bytes, 0xFFFFFFFFu)));
  ctl_write(regs::kCtlStart, 1);
}

}  // namespace kcraft::tb
