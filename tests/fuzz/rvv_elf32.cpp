// Fuzzes the rvv ELF32 reader (isa/rvv/elf32.cpp): it reads what the linker wrote and, later, kernels
// handed in as binaries, so a malformed file must be a clear error, never a crash.
//
// Any bytes must give an image or std::runtime_error. An image that was read must survive a round trip:
// writing it and reading that back gives the same entry point and segments.
#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <vector>

#include "isa/rvv/elf32.h"
#include "tests/fuzz/fuzz_support.h"

using namespace kcraft;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::vector<uint8_t> bytes(data, data + size);
  rvv::ElfImage image;
  try {
    image = rvv::read_elf32(bytes);
  } catch (const std::runtime_error&) {
    return 0;  // malformed: the documented error
  } catch (const std::exception& e) {
    fuzz::fail_unexpected(e, "read_elf32");
  }
  for (const auto& s : image.segments)
    fuzz::check(s.data.size() <= s.mem_bytes, "a segment with more file bytes than memory bytes");
  const rvv::ElfImage again = rvv::read_elf32(rvv::write_elf32(image));
  fuzz::check(again.entry == image.entry, "the entry point changed in a round trip");
  fuzz::check(again.segments.size() == image.segments.size(), "segments lost in a round trip");
  for (size_t i = 0; i < image.segments.size(); ++i) {
    const auto& a = image.segments[i];
    const auto& b = again.segments[i];
    fuzz::check(a.address == b.address && a.mem_bytes == b.mem_bytes && a.data == b.data &&
                    a.readable == b.readable && a.writable == b.writable && a.executable == b.executable,
                "a segment changed in a round trip");
  }
  return 0;
}
