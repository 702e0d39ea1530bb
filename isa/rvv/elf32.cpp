#include "isa/rvv/elf32.h"

#include <algorithm>
#include <stdexcept>

namespace kcraft::rvv {
namespace {

constexpr uint16_t kEtExec = 2;
constexpr uint16_t kEmRiscv = 243;
constexpr uint32_t kPtLoad = 1;
constexpr uint32_t kPfX = 1, kPfW = 2, kPfR = 4;
constexpr uint32_t kEfRiscvFloatAbiSingle = 0x2;
constexpr size_t kEhdrSize = 52, kPhdrSize = 32;

uint32_t get(const std::vector<uint8_t>& b, size_t at, size_t n) {
  if (at + n > b.size()) throw std::runtime_error("ELF file truncated");
  uint32_t v = 0;
  for (size_t i = 0; i < n; ++i) v |= static_cast<uint32_t>(b[at + i]) << (8 * i);
  return v;
}

void put(std::vector<uint8_t>& b, size_t at, uint32_t v, size_t n) {
  for (size_t i = 0; i < n; ++i) b[at + i] = static_cast<uint8_t>(v >> (8 * i));
}

}  // namespace

ElfImage read_elf32(const std::vector<uint8_t>& b) {
  if (b.size() < kEhdrSize || b[0] != 0x7f || b[1] != 'E' || b[2] != 'L' || b[3] != 'F') {
    throw std::runtime_error("not an ELF file");
  }
  if (b[4] != 1 || b[5] != 1) throw std::runtime_error("not a little-endian ELF32 file");
  if (get(b, 18, 2) != kEmRiscv) throw std::runtime_error("not a RISC-V ELF file");
  ElfImage image;
  image.entry = get(b, 24, 4);
  const uint32_t phoff = get(b, 28, 4);
  const uint32_t phentsize = get(b, 42, 2);
  const uint32_t phnum = get(b, 44, 2);
  if (phnum > 0 && phentsize != 32) throw std::runtime_error("ELF program headers are not 32 bytes each");
  for (uint32_t i = 0; i < phnum; ++i) {
    const size_t ph = phoff + static_cast<size_t>(i) * phentsize;
    if (get(b, ph, 4) != kPtLoad) continue;
    const uint32_t offset = get(b, ph + 4, 4);
    const uint32_t filesz = get(b, ph + 16, 4);
    const uint32_t flags = get(b, ph + 24, 4);
    if (static_cast<uint64_t>(offset) + filesz > b.size())
      throw std::runtime_error("ELF segment past the file end");
    ElfSegment s;
    s.address = get(b, ph + 8, 4);
    s.mem_bytes = get(b, ph + 20, 4);
    if (filesz > s.mem_bytes) throw std::runtime_error("ELF segment with more file bytes than memory bytes");
    if (static_cast<uint64_t>(s.address) + s.mem_bytes > (uint64_t{1} << 32))
      throw std::runtime_error("ELF segment past the end of the 32-bit address space");
    s.data.assign(b.begin() + offset, b.begin() + offset + filesz);
    s.readable = flags & kPfR;
    s.writable = flags & kPfW;
    s.executable = flags & kPfX;
    image.segments.push_back(std::move(s));
  }
  return image;
}

std::vector<uint8_t> write_elf32(const ElfImage& image) {
  const size_t n = image.segments.size();
  // Each segment's file offset is congruent to its address modulo the page size, as loaders require.
  constexpr uint32_t kPage = 4096;
  std::vector<uint8_t> b(kEhdrSize + n * kPhdrSize, 0);
  std::vector<uint32_t> offsets;
  for (const auto& s : image.segments) {
    size_t at = b.size();
    at += (s.address % kPage + kPage - at % kPage) % kPage;
    offsets.push_back(static_cast<uint32_t>(at));
    b.resize(at, 0);
    b.insert(b.end(), s.data.begin(), s.data.end());
  }
  const uint8_t ident[16] = {0x7f, 'E', 'L', 'F', 1, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0};
  for (size_t i = 0; i < 16; ++i) b[i] = ident[i];
  put(b, 16, kEtExec, 2);
  put(b, 18, kEmRiscv, 2);
  put(b, 20, 1, 4);  // EV_CURRENT
  put(b, 24, image.entry, 4);
  put(b, 28, kEhdrSize, 4);  // e_phoff
  put(b, 32, 0, 4);          // e_shoff: no sections
  put(b, 36, kEfRiscvFloatAbiSingle, 4);
  put(b, 40, kEhdrSize, 2);
  put(b, 42, kPhdrSize, 2);
  put(b, 44, static_cast<uint32_t>(n), 2);
  put(b, 46, 40, 2);  // e_shentsize
  put(b, 48, 0, 2);
  put(b, 50, 0, 2);
  for (size_t i = 0; i < n; ++i) {
    const auto& s = image.segments[i];
    const size_t ph = kEhdrSize + i * kPhdrSize;
    put(b, ph, kPtLoad, 4);
    put(b, ph + 4, offsets[i], 4);
    put(b, ph + 8, s.address, 4);
    put(b, ph + 12, s.address, 4);
    put(b, ph + 16, static_cast<uint32_t>(s.data.size()), 4);
    put(b, ph + 20, std::max<uint32_t>(s.mem_bytes, static_cast<uint32_t>(s.data.size())), 4);
    put(b, ph + 24, (s.readable ? kPfR : 0) | (s.writable ? kPfW : 0) | (s.executable ? kPfX : 0), 4);
    put(b, ph + 28, kPage, 4);
  }
  return b;
}

}  // namespace kcraft::rvv
