// Just enough ELF32 (little-endian, RISC-V) to read a linked kernel's loadable segments and entry point,
// and to write an executable from segments (the QEMU runner adds the DRAM image as one more segment).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace kcraft::rvv {

struct ElfSegment {
  uint32_t address = 0;
  uint32_t mem_bytes = 0;     // the segment's size in memory; bytes past data.size() are zero
  std::vector<uint8_t> data;  // the file contents (p_filesz bytes)
  bool readable = true;
  bool writable = false;
  bool executable = false;
};

struct ElfImage {
  uint32_t entry = 0;
  std::vector<ElfSegment> segments;  // PT_LOAD, in file order
};

// Throws std::runtime_error naming what is wrong when `bytes` is not a little-endian ELF32 RISC-V file.
ElfImage read_elf32(const std::vector<uint8_t>& bytes);
// An ET_EXEC file with one PT_LOAD per segment (no section headers), e_flags = single-float ABI.
std::vector<uint8_t> write_elf32(const ElfImage& image);

}  // namespace kcraft::rvv
