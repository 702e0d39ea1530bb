// Runs a vpu_program.h Program under QEMU and on a Verilated rvv_vpu and compares, instruction by
// instruction, the register file images, scalar results and fflags, then the data area.
#pragma once

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <chrono>
#include <cstdint>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "isa/rvv/qemu_runner.h"
#include "isa/rvv/toolchain.h"
#include "tests/rvv_vpu/vpu_program.h"
#include "tests/rvv_vpu/vpu_sim.h"

namespace kcraft::rvv_vpu_test {

// Interesting binary32 values for FP tests (signed zeros, subnormals, extremes, ones, halves, integer
// boundaries, infinities, quiet and signalling NaNs).
inline const std::vector<uint32_t>& fp_specials() {
  static const std::vector<uint32_t> kValues = {
      0x00000000, 0x80000000, 0x00000001, 0x80000001, 0x007fffff, 0x807fffff, 0x00800000, 0x80800000,
      0x7f7fffff, 0xff7fffff, 0x3f800000, 0xbf800000, 0x3f800001, 0x3f7fffff, 0x3f000000, 0xbf000000,
      0x3fc00000, 0x40200000, 0xc0200000, 0x4b000000, 0x4b7fffff, 0x4effffff, 0x4f000000, 0xcf000000,
      0xcf000001, 0x4f7fffff, 0x4f800000, 0x46fffe00, 0x47000000, 0xc7000100, 0x477fff00, 0x47800000,
      0x7f800000, 0xff800000, 0x7fc00000, 0xffc00000, 0x7f800001, 0xffa00000, 0x40400000, 0x33800000};
  return kValues;
}

class DataGen {
 public:
  explicit DataGen(uint64_t seed) : rng_(seed) {}
  uint32_t bits() { return static_cast<uint32_t>(rng_()); }
  uint32_t below(uint32_t n) { return static_cast<uint32_t>(rng_() % n); }
  bool chance(int percent) { return static_cast<int>(below(100)) < percent; }
  // A float: a special value, one near 1, or random bits.
  uint32_t fp() {
    switch (below(4)) {
      case 0:
        return fp_specials()[below(static_cast<uint32_t>(fp_specials().size()))];
      case 1:
        return (bits() & 0x807fffffu) | ((120u + below(16)) << 23);
      case 2:
        return (bits() & 0x807fffffu) | ((100u + below(60)) << 23);
      default:
        return bits();
    }
  }
  // An integer word with small, boundary and random values mixed.
  uint32_t word() {
    switch (below(6)) {
      case 0:
        return below(4);
      case 1:
        return 0xffffffffu - below(3);
      case 2:
        return 0x80000000u ^ below(3);
      case 3:
        return 0x00800080u ^ (bits() & 0x00ff00ffu);
      default:
        return bits();
    }
  }

 private:
  std::mt19937_64 rng_;
};

enum class Fill { kIntegers, kFloats };

// The initial DRAM: register images and the data area filled per `fill`, the rest zero.
inline std::vector<uint8_t> initial_dram(const Program& prog, Fill fill, uint64_t seed) {
  DataGen gen(seed);
  std::vector<uint8_t> dram(prog.dram_bytes(), 0);
  for (uint32_t off = 0; off < kMemOff + kMemBytes; off += 4) {
    const uint32_t w = fill == Fill::kFloats ? gen.fp() : gen.word();
    for (int b = 0; b < 4; b++) dram[off + b] = static_cast<uint8_t>(w >> (8 * b));
  }
  // v0 (the mask) gets random bits either way.
  for (uint32_t k = 0; k < static_cast<uint32_t>(prog.vlen() / 8); k++)
    dram[kInitRegsOff + k] = static_cast<uint8_t>(gen.bits());
  return dram;
}

inline rvv::BuiltKernel build(const Program& prog) {
  rvv::BuildOptions o;
  o.language = "asm";
  o.file_name = "vpu_test.S";
  o.vlen = prog.vlen();
  rvv::BuiltKernel k = rvv::build_kernel(prog.source(), o);
  if (!k.ok) {
    ADD_FAILURE() << "assembly failed:\n" << rvv::format_diagnostics(k.diagnostics);
  }
  return k;
}

// Compares QEMU's and the RTL's final DRAM images; reports the first instruction whose effect differs.
inline void compare_images(const Program& prog, const std::vector<uint8_t>& want,
                           const std::vector<uint8_t>& got) {
  ASSERT_EQ(want.size(), got.size());
  const uint32_t vlenb = static_cast<uint32_t>(prog.vlen() / 8);
  int reported = 0;
  for (const Step& s : prog.steps()) {
    if (!s.dumped || reported >= 3) continue;
    const uint32_t r = kResultsOff + 8 * static_cast<uint32_t>(s.index);
    auto word = [](const std::vector<uint8_t>& d, uint32_t off) {
      return d[off] | d[off + 1] << 8 | d[off + 2] << 16 | static_cast<uint32_t>(d[off + 3]) << 24;
    };
    std::string diff;
    if (word(want, r) != word(got, r))
      diff += fmt::format(" scalar result {:#x} (RTL {:#x});", word(want, r), word(got, r));
    if (word(want, r + 4) != word(got, r + 4))
      diff += fmt::format(" fflags {:#x} (RTL {:#x});", word(want, r + 4), word(got, r + 4));
    const uint32_t dump = kDumpOff + static_cast<uint32_t>(s.index) * 32 * vlenb;
    for (uint32_t v = 0; v < 32; v++) {
      for (uint32_t k = 0; k < vlenb; k++) {
        const uint32_t o = dump + v * vlenb + k;
        if (want[o] != got[o]) {
          std::string w, g;
          for (uint32_t j = vlenb; j-- > 0;) {
            w += fmt::format("{:02x}", want[dump + v * vlenb + j]);
            g += fmt::format("{:02x}", got[dump + v * vlenb + j]);
          }
          diff += fmt::format(" v{} byte {}: QEMU {} RTL {};", v, k, w, g);
          break;
        }
      }
    }
    if (!diff.empty()) {
      ADD_FAILURE() << fmt::format(
          "VLEN {}: '{}' (vl {}, vtype {:#x}, frm {}, rs1 {:#x}, rs2 {:#x}, f {:#x}):{}", prog.vlen(), s.text,
          s.vl, s.vtype, s.frm, s.rs1, s.rs2, s.frs1, diff);
      reported++;
    }
  }
  for (uint32_t o = kMemOff; o < kMemOff + kMemBytes; o++) {
    if (want[o] != got[o]) {
      ADD_FAILURE() << fmt::format("VLEN {}: data area byte {:#x}: QEMU {:#x} RTL {:#x}", prog.vlen(),
                                   kDramBase + o, want[o], got[o]);
      break;
    }
  }
}

// Runs the program on both and compares.
template <class Sim>
SimResult check_program(const Program& prog, Fill fill, uint64_t seed, const SimOptions& opt = {}) {
  const std::vector<uint8_t> dram = initial_dram(prog, fill, seed);
  const rvv::BuiltKernel k = build(prog);
  if (!k.ok) return {};
  const rvv::RunResult q = rvv::run_qemu(k, dram, {prog.vlen(), std::chrono::milliseconds(60000), {}});
  if (q.end != rvv::RunEnd::kExited) {
    std::string at;
    if (q.pc) {
      const std::string key = fmt::format("{:x}:", *q.pc);
      const size_t pos = k.disassembly.find("\n" + std::string(key.size() < 8 ? 0 : 0, ' '));
      (void)pos;
      std::istringstream in(k.disassembly);
      std::string line;
      while (std::getline(in, line)) {
        const size_t c = line.find(key);
        if (c != std::string::npos && line.find_first_not_of(' ') == c) at = line;
      }
    }
    std::string err = q.qemu_stderr;
    if (err.size() > 600) err = err.substr(err.size() - 600);
    ADD_FAILURE() << "QEMU: " << q.message << " at: " << at << "\nQEMU stderr tail: " << err;
    return {};
  }
  Sim sim;
  SimResult r = sim.run(prog, kernel_vector_words(k.disassembly), dram, opt);
  EXPECT_FALSE(r.illegal) << "RTL: illegal " << prog.steps()[r.illegal_step].text << " (vtype "
                          << prog.steps()[r.illegal_step].vtype << ", vl " << prog.steps()[r.illegal_step].vl
                          << ")";
  EXPECT_FALSE(r.error) << "RTL: error " << r.error_code << " at " << r.error_addr;
  if (r.illegal || r.error) return r;
  compare_images(prog, q.dram, r.dram);
  return r;
}

// Feeds instructions to programs of at most Program::full() instructions, checking each when full.
template <class Sim>
class Runner {
 public:
  Runner(int vlen, Fill fill, uint64_t seed) : vlen_(vlen), fill_(fill), seed_(seed), prog_(vlen) {}
  ~Runner() { flush(); }
  void vset(uint32_t avl, int sew, int lmul) {
    avl_ = avl;
    prog_.vset(avl, sew, lmul);
  }
  void op(const std::string& text, uint32_t rs1 = 0, uint32_t rs2 = 0, uint32_t frs1 = 0, uint32_t frm = 0) {
    prog_.op(text, rs1, rs2, frs1, frm);
    if (prog_.full()) {
      const int sew = prog_.sew(), lmul = prog_.lmul();
      flush();
      prog_ = Program(vlen_);
      prog_.vset(avl_, sew, lmul);
    }
  }
  void flush() {
    if (prog_.count() == 0) return;
    results_.push_back(check_program<Sim>(prog_, fill_, seed_ + results_.size()));
    prog_ = Program(vlen_);
  }
  const std::vector<SimResult>& results() const { return results_; }

 private:
  int vlen_;
  Fill fill_;
  uint64_t seed_;
  Program prog_;
  uint32_t avl_ = 0;
  std::vector<SimResult> results_;
};

// An instruction that must be illegal on both (QEMU: SIGILL at it; RTL: issue_illegal_o).
template <class Sim>
void check_illegal(int vlen, uint32_t avl, int sew, int lmul, const std::string& text, uint32_t frm = 0,
                   bool qemu_too = true) {
  Program prog(vlen);
  prog.vset(avl, sew, lmul);
  prog.op(text, kDramBase + kMemOff, 4, 0, frm);
  const std::vector<uint8_t> dram = initial_dram(prog, Fill::kIntegers, 1);
  const rvv::BuiltKernel k = build(prog);
  if (!k.ok) return;
  if (qemu_too) {
    const rvv::RunResult q = rvv::run_qemu(k, dram, {vlen, std::chrono::milliseconds(60000), {}});
    EXPECT_EQ(q.end, rvv::RunEnd::kTrapped) << text << ": QEMU ran it";
    EXPECT_EQ(q.signal_name, "SIGILL") << text;
  }
  Sim sim;
  const SimResult r = sim.run(prog, kernel_vector_words(k.disassembly), dram);
  EXPECT_TRUE(r.illegal) << "VLEN " << vlen << ": " << text << " (e" << sew << ", lmul log2 " << lmul
                         << ") accepted";
  if (r.illegal) {
    EXPECT_EQ(r.illegal_step, 4u) << text;  // after the 4 loads of the prologue
  }
}

}  // namespace kcraft::rvv_vpu_test
