// A vector test program for rvv_vpu, run twice: as an assembly kernel under QEMU (the reference) and
// instruction by instruction on the Verilated vector unit (vpu_sim.h), whose testbench plays the scalar
// core. The program loads all 32 vector registers from DRAM, runs its vector instructions, and after
// each one stores the whole register file (and the instruction's scalar result and fflags) to DRAM, so
// the two DRAM images compare every instruction's effect on every register.
//
// Scalar operands are fixed per instruction: the assembly writes rs1 in t0, rs2 in t1, the .vf scalar in
// ft0 and frm before the instruction, and its scalar result goes to t4; the testbench passes the same
// values on the unit's issue port.
#pragma once

#include <fmt/format.h>

#include <cstdint>
#include <cstring>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

namespace kcraft::rvv_vpu_test {

constexpr uint32_t kDramBase = 0x80000000u;
constexpr uint32_t kInitRegsOff = 0x0;  // initial register file image
constexpr uint32_t kMemOff = 0x1000;    // a data area for loads and stores
constexpr uint32_t kMemBytes = 0xf000;
constexpr uint32_t kResultsOff = 0x10000;  // 8 bytes per instruction: scalar result, fflags
constexpr uint32_t kMaxInsns = 4096;
constexpr uint32_t kDumpOff = kResultsOff + 8 * kMaxInsns;  // one register file image per instruction

// vtype as vsetvli writes it (tu, mu).
inline uint32_t make_vtype(int sew_bits, int lmul_log2) {
  const uint32_t vsew = sew_bits == 8 ? 0 : sew_bits == 16 ? 1 : 2;
  return static_cast<uint32_t>(lmul_log2 & 7) | (vsew << 3);
}

inline std::string lmul_name(int lmul_log2) {
  return lmul_log2 >= 0 ? fmt::format("m{}", 1 << lmul_log2) : fmt::format("mf{}", 1 << -lmul_log2);
}

inline uint32_t vlmax_of(int vlen, int sew_bits, int lmul_log2) {
  const uint32_t bits =
      lmul_log2 >= 0 ? static_cast<uint32_t>(vlen) << lmul_log2 : static_cast<uint32_t>(vlen) >> -lmul_log2;
  return bits / static_cast<uint32_t>(sew_bits);
}

// One vector instruction as the unit sees it.
struct Step {
  std::string text;  // assembly (for reports)
  uint32_t rs1 = 0, rs2 = 0, frs1 = 0;
  uint32_t vl = 0, vtype = 0;
  uint32_t frm = 0;
  bool dumped = false;  // the register file is stored after it (the test's instructions)
  int index = -1;       // its number among the test's instructions (dump and result slot)
};

class Program {
 public:
  // init_registers: load the initial register file first (timing programs leave it out: the loads would
  // overlap the instructions under test).
  explicit Program(int vlen, bool init_registers = true)
      : vlen_(vlen), vlenb_(static_cast<uint32_t>(vlen / 8)) {
    if (!init_registers) return;
    // Load the initial register file (e8, m8: four groups of eight registers).
    set_vtype(8 * vlenb_, 8, 3);
    for (int g = 0; g < 4; g++) {
      raw_op(fmt::format("vle8.v v{}, (t0)", 8 * g), kDramBase + kInitRegsOff + 8 * vlenb_ * g, 0, 0, 0);
    }
  }

  int vlen() const { return vlen_; }
  uint32_t vl() const { return vl_; }
  uint32_t vtype() const { return vtype_; }

  // vsetvli with an AVL; vl = min(avl, VLMAX) as QEMU computes it.
  void vset(uint32_t avl, int sew_bits, int lmul_log2) { set_vtype(avl, sew_bits, lmul_log2); }

  // A test instruction: run, then its scalar result (t4), fflags and the register file are stored.
  void op(const std::string& text, uint32_t rs1 = 0, uint32_t rs2 = 0, uint32_t frs1 = 0, uint32_t frm = 0) {
    if (count_ >= kMaxInsns) throw std::length_error("too many instructions in one vector test program");
    const uint32_t saved_vl = vl_;
    const uint32_t saved_vtype = vtype_;
    const int saved_sew = sew_, saved_lmul = lmul_;
    body_ += "  li t4, 0\n  csrw fflags, zero\n";
    raw_op(text, rs1, rs2, frs1, frm);
    steps_.back().dumped = true;
    steps_.back().index = static_cast<int>(count_);
    body_ += fmt::format("  li t6, {:#x}\n  sw t4, 0(t6)\n  csrr t5, fflags\n  sw t5, 4(t6)\n",
                         kDramBase + kResultsOff + 8 * count_);
    const uint32_t dump = kDramBase + kDumpOff + count_ * 32 * vlenb_;
    set_vtype(8 * vlenb_, 8, 3);
    for (int g = 0; g < 4; g++)
      raw_op(fmt::format("vse8.v v{}, (t0)", 8 * g), dump + 8 * vlenb_ * g, 0, 0, 0);
    // Restore the test's vtype with the same vl (AVL = the old vl).
    set_vtype(saved_vl, saved_sew, saved_lmul);
    if (vl_ != saved_vl || vtype_ != saved_vtype) throw std::logic_error("vtype restore");
    count_++;
  }

  // An instruction with nothing stored after it (timing programs).
  void plain(const std::string& text, uint32_t rs1 = 0, uint32_t rs2 = 0, uint32_t frs1 = 0,
             uint32_t frm = 0) {
    raw_op(text, rs1, rs2, frs1, frm);
  }

  uint32_t count() const { return count_; }
  // The ITCM (64 KiB) holds about 400 instructions with their set-up and dumps.
  bool full() const { return count_ >= 300; }
  int sew() const { return sew_; }
  int lmul() const { return lmul_; }
  const std::vector<Step>& steps() const { return steps_; }

  uint32_t dram_bytes() const {
    const uint32_t end = kDumpOff + count_ * 32 * vlenb_;
    return (end + 0xfffu) & ~0xfffu;
  }

  std::string source() const { return ".text\n.globl kernel\nkernel:\n" + body(); }
  // The kernel's text after its label.
  std::string body() const { return body_ + "  ret\n"; }

 private:
  void set_vtype(uint32_t avl, int sew_bits, int lmul_log2) {
    const uint32_t vlmax = vlmax_of(vlen_, sew_bits, lmul_log2);
    // QEMU 7.2 sets vill when LMUL < SEW / ELEN (ELEN = 32).
    if (vlmax == 0 || vlmax_of(32, sew_bits, lmul_log2) == 0)
      throw std::invalid_argument("vtype that sets vill");
    sew_ = sew_bits;
    lmul_ = lmul_log2;
    vl_ = avl < vlmax ? avl : vlmax;
    vtype_ = make_vtype(sew_bits, lmul_log2);
    body_ += fmt::format("  li t3, {}\n  vsetvli zero, t3, e{}, {}, tu, mu\n", avl, sew_bits,
                         lmul_name(lmul_log2));
  }

  void raw_op(const std::string& text, uint32_t rs1, uint32_t rs2, uint32_t frs1, uint32_t frm) {
    // QEMU 7.2 aborts (decode_save_opc assertion, QEMU issue 1441) on a vfcvt.rtz/vfwcvt.rtz/vfncvt.rtz that
    // starts a translation block's FP rounding-mode tracking; a dynamic-rounding scalar FP operation in the
    // same block first (f31 + f31 = 0: no flags) avoids it. fsrmi ends the block, so it goes after.
    const std::string rtz_workaround =
        text.find(".rtz.") != std::string::npos ? "  fadd.s f31, f31, f31\n" : "";
    body_ +=
        fmt::format("  li t0, {:#x}\n  li t1, {:#x}\n  li t2, {:#x}\n  fmv.w.x ft0, t2\n  fsrmi {}\n{}  {}\n",
                    rs1, rs2, frs1, frm, rtz_workaround, text);
    Step s;
    s.text = text;
    s.rs1 = rs1;
    s.rs2 = rs2;
    s.frs1 = frs1;
    s.vl = vl_;
    s.vtype = vtype_;
    s.frm = frm;
    steps_.push_back(s);
  }

  int vlen_;
  uint32_t vlenb_;
  std::string body_;
  std::vector<Step> steps_;
  uint32_t count_ = 0;
  uint32_t vl_ = 0, vtype_ = 0;
  int sew_ = 32, lmul_ = 0;
};

// Whether a 32-bit instruction word is one the vector unit executes (OP-V except vset*, vector loads
// and stores).
inline bool is_vector_unit_insn(uint32_t w) {
  const uint32_t opcode = w & 0x7f;
  const uint32_t f3 = (w >> 12) & 7;
  if (opcode == 0x57) return f3 != 7;
  if (opcode == 0x07 || opcode == 0x27) return f3 == 0 || f3 == 5 || f3 == 6 || f3 == 7;
  return false;
}

}  // namespace kcraft::rvv_vpu_test
