// Disassembly of rvv programs with GNU objdump (binutils-riscv64-unknown-elf), which knows the whole
// RV32IMF + Zicsr + Zve32f encoding space: listings for `kcraft check`, and the text of one instruction
// for error reports, traces and timelines.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace kcraft::rvv {

// objdump -d of `words` placed at byte address `base`: one line per word, "   1c:\t00052503  \tlw\ta0,0(a0)".
// `canonical`: the instructions' own names, never the pseudo-instructions they also stand for (objdump's
// -M no-aliases: "addi a0,zero,1", not "li a0,1"). Throws std::runtime_error when a tool is missing or fails.
std::string objdump_words(const std::vector<uint32_t>& words, uint32_t base = 0, bool canonical = false);

// The instructions of an objdump -d listing by byte address, as "lw a0,0(a0)" (tabs made spaces, symbolic
// targets kept: "jal ra,40 <kernel>").
std::map<uint32_t, std::string> parse_objdump(const std::string& listing);

// The instruction at `pc` of a parsed listing, or the raw word when the listing has none.
std::string instruction_text(const std::map<uint32_t, std::string>& listing, uint32_t pc, uint32_t word);

}  // namespace kcraft::rvv
