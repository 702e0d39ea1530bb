#include "isa/rvv/random_program.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cstring>
#include <random>

#include "isa/rvv/rvv_memory_map.h"

namespace kcraft::rvv {

namespace {

// DRAM: [0, 4 KiB) data the program loads and stores, [4 KiB, 12 KiB) the vector register dump (32 * VLEN/8
// bytes at most 4 KiB for VLEN <= 1024), [12 KiB, 16 KiB) the copy of the DTCM buffer.
constexpr uint32_t kDramData = 4096;
constexpr uint32_t kDramVregDump = 4096;
constexpr uint32_t kDramDtcmCopy = 12288;
constexpr uint32_t kDtcmBufBytes = 2048;
static_assert(kRandomProgramDramBytes >= kDramDtcmCopy + kDtcmBufBytes, "the DRAM image holds every area");

// Registers the program never writes: ra and sp (crt0 needs them back), s0 = DRAM base, s1 = DTCM buffer.
constexpr std::array<unsigned, 27> kPool = {3,  4,  5,  6,  7,  10, 11, 12, 13, 14, 15, 16, 17, 18,
                                            19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31};

constexpr std::array<uint32_t, 24> kSpecialFloats = {
    0x00000000, 0x80000000, 0x7f800000, 0xff800000, 0x7fc00000, 0x7f800001, 0xffc00001, 0x00000001,
    0x807fffff, 0x00800000, 0x7f7fffff, 0xff7fffff, 0x3f800000, 0xbf800000, 0x40490fdb, 0x3effffff,
    0x4b000000, 0x4f000000, 0xcf000000, 0x4f800000, 0x3f000000, 0x3fc00000, 0x40200000, 0xbfc00000};

// kSpecialFloats' first entries: +0, -0, +inf, -inf, qNaN, sNaN, -qNaN, two subnormals.
constexpr unsigned kSpecialClassEntries = 9;

constexpr std::array<uint32_t, 10> kSpecialInts = {
    0, 1, 0xffffffff, 0x80000000, 0x7fffffff, 0x00000002, 0xfffffffe, 0x0000ffff, 0xffff8000, 0x00000080};

const char* const kRoundingModes[] = {"rne", "rtz", "rdn", "rup", "rmm", "dyn"};

class Generator {
 public:
  Generator(uint64_t seed, const RandomProgramOptions& o) : rng_(seed), o_(o) {}

  RandomProgram run();

 private:
  uint32_t u32() { return static_cast<uint32_t>(rng_()); }
  unsigned pick(unsigned n) { return static_cast<unsigned>(rng_() % n); }
  bool chance(unsigned percent) { return pick(100) < percent; }
  std::string x() { return fmt::format("x{}", kPool[pick(kPool.size())]); }
  std::string f() { return fmt::format("f{}", pick(32)); }
  std::string rm() {
    if (!o_.rounding_modes.empty() && chance(75)) {
      // A favoured mode, static or (a third of the time) through frm, whose writes favour the same modes.
      return chance(67) ? kRoundingModes[o_.rounding_modes[pick(o_.rounding_modes.size())]] : "dyn";
    }
    return kRoundingModes[pick(6)];
  }
  unsigned frm_value() {
    if (!o_.rounding_modes.empty() && chance(75)) return o_.rounding_modes[pick(o_.rounding_modes.size())];
    return pick(5);  // frm 5..7 are reserved: dyn ops would trap
  }
  // An f register an F instruction reads; with steering sometimes first reloaded with a special value
  // (the fpvals table below x9: its first entries are the special classes).
  std::string fs() {
    const unsigned r = pick(32);
    if (o_.special_reload_percent > 0 && chance(o_.special_reload_percent))
      emit(fmt::format("flw f{}, {}(x9)", r, 4 * static_cast<int>(pick(kSpecialClassEntries)) - 128));
    return fmt::format("f{}", r);
  }
  uint32_t int_value() { return chance(50) ? kSpecialInts[pick(kSpecialInts.size())] : u32(); }
  void emit(const std::string& line) {
    out_ += "  " + line + "\n";
    ++emitted_;
  }

  void integer_op();
  void memory_op();
  void branch();
  void fp_op();
  void csr_op();
  void vsetvli();
  void vector_op();
  void vector_int_op(bool masked);
  void vector_fp_op(bool masked);
  void vector_memory_op(bool masked);
  void vector_perm_op();
  void vector_widen_op();
  void close_labels();

  // The current vtype: SEW in bits, LMUL in eighths (2 = mf4 ... 64 = m8).
  unsigned group() const { return std::max(1u, lmul8_ / 8); }
  std::string v(bool not_v0 = false) {
    const unsigned g = group();
    const unsigned groups = 32 / g;
    const unsigned k = not_v0 ? 1 + pick(groups - 1) : pick(groups);
    return fmt::format("v{}", k * g);
  }
  // A group other than `a` and `b` (and v0 when not_v0).
  std::string v_except(const std::string& a, const std::string& b = "", bool not_v0 = false) {
    for (;;) {
      std::string r = v(not_v0);
      if (r != a && r != b) return r;
    }
  }
  std::string mask(bool masked) { return masked ? ", v0.t" : ""; }

  std::mt19937_64 rng_;
  RandomProgramOptions o_;
  std::string out_;
  unsigned emitted_ = 0;
  unsigned label_ = 0;
  std::vector<std::pair<unsigned, unsigned>> pending_labels_;  // (label, emit count at which it goes)
  unsigned sew_ = 32, lmul8_ = 8;
  bool vector_ready_ = false;
};

void Generator::integer_op() {
  static const char* const r_ops[] = {"add", "sub", "sll",  "slt",    "sltu",  "xor", "srl",  "sra", "or",
                                      "and", "mul", "mulh", "mulhsu", "mulhu", "div", "divu", "rem", "remu"};
  static const char* const i_ops[] = {"addi", "slti", "sltiu", "xori", "ori", "andi"};
  static const char* const shifts[] = {"slli", "srli", "srai"};
  switch (pick(6)) {
    case 0:
    case 1:
      emit(fmt::format("{} {}, {}, {}", r_ops[pick(std::size(r_ops))], x(), x(), x()));
      break;
    case 2:
      emit(fmt::format("{} {}, {}, {}", i_ops[pick(std::size(i_ops))], x(), x(),
                       static_cast<int>(pick(4096)) - 2048));
      break;
    case 3:
      emit(fmt::format("{} {}, {}, {}", shifts[pick(3)], x(), x(), pick(32)));
      break;
    case 4:
      emit(fmt::format("{} {}, 0x{:x}", chance(50) ? "lui" : "auipc", x(), pick(1u << 20)));
      break;
    default:
      emit(fmt::format("li {}, 0x{:x}", x(), int_value()));
      break;
  }
}

void Generator::memory_op() {
  struct Access {
    const char* op;
    unsigned bytes;
    bool store, fp;
  };
  static const Access kAccesses[] = {
      {"lb", 1, false, false}, {"lbu", 1, false, false}, {"lh", 2, false, false}, {"lhu", 2, false, false},
      {"lw", 4, false, false}, {"sb", 1, true, false},   {"sh", 2, true, false},  {"sw", 4, true, false},
      {"flw", 4, false, true}, {"fsw", 4, true, true}};
  const Access& a = kAccesses[pick(std::size(kAccesses))];
  const bool dram = chance(50);
  const unsigned limit = dram ? kDramData : kDtcmBufBytes;
  const unsigned offset = pick(std::min(limit, 2048u) / a.bytes) * a.bytes;
  emit(fmt::format("{} {}, {}({})", a.op, a.fp ? f() : x(), offset, dram ? "x8" : "x9"));
}

void Generator::branch() {
  static const char* const ops[] = {"beq", "bne", "blt", "bge", "bltu", "bgeu"};
  const unsigned label = label_++;
  emit(fmt::format("{} {}, {}, .Lf{}", ops[pick(6)], x(), x(), label));
  pending_labels_.emplace_back(label, emitted_ + 1 + pick(3));
}

void Generator::close_labels() {
  for (auto it = pending_labels_.begin(); it != pending_labels_.end();) {
    if (it->second <= emitted_) {
      out_ += fmt::format(".Lf{}:\n", it->first);
      it = pending_labels_.erase(it);
    } else {
      ++it;
    }
  }
}

void Generator::fp_op() {
  static const char* const arith[] = {"fadd.s", "fsub.s", "fmul.s", "fdiv.s"};
  static const char* const fused[] = {"fmadd.s", "fmsub.s", "fnmadd.s", "fnmsub.s"};
  static const char* const plain[] = {"fmin.s", "fmax.s", "fsgnj.s", "fsgnjn.s", "fsgnjx.s"};
  static const char* const cmp[] = {"feq.s", "flt.s", "fle.s"};
  switch (pick(9)) {
    case 0:
    case 1:
      emit(fmt::format("{} {}, {}, {}, {}", arith[pick(4)], f(), fs(), fs(), rm()));
      break;
    case 2:
      emit(fmt::format("{} {}, {}, {}, {}, {}", fused[pick(4)], f(), fs(), fs(), fs(), rm()));
      break;
    case 3:
      emit(fmt::format("fsqrt.s {}, {}, {}", f(), fs(), rm()));
      break;
    case 4:
      emit(fmt::format("{} {}, {}, {}", plain[pick(5)], f(), fs(), fs()));
      break;
    case 5:
      emit(fmt::format("{} {}, {}, {}", cmp[pick(3)], x(), fs(), fs()));
      break;
    case 6:
      emit(fmt::format("{} {}, {}, {}", chance(50) ? "fcvt.w.s" : "fcvt.wu.s", x(), fs(), rm()));
      break;
    case 7:
      emit(fmt::format("{} {}, {}, {}", chance(50) ? "fcvt.s.w" : "fcvt.s.wu", f(), x(), rm()));
      break;
    default:
      switch (pick(3)) {
        case 0:
          emit(fmt::format("fmv.x.w {}, {}", x(), fs()));
          break;
        case 1:
          emit(fmt::format("fmv.w.x {}, {}", f(), x()));
          break;
        default:
          emit(fmt::format("fclass.s {}, {}", x(), fs()));
          break;
      }
      break;
  }
}

void Generator::csr_op() {
  switch (pick(5)) {
    case 0:
      emit(fmt::format("csrwi frm, {}", frm_value()));
      break;
    case 1:
      emit(fmt::format("csrrw {}, fflags, {}", x(), x()));
      break;
    case 2:
      emit(fmt::format("csrrsi {}, fflags, {}", x(), pick(32)));
      break;
    case 3:
      emit(fmt::format("csrr {}, fcsr", x()));
      break;
    default:
      if (o_.vector) {
        static const char* const vcsrs[] = {"vl", "vtype", "vlenb"};
        emit(fmt::format("csrr {}, {}", x(), vcsrs[pick(3)]));
      } else {
        emit(fmt::format("csrr {}, frm", x()));
      }
      break;
  }
}

void Generator::vsetvli() {
  // No branch may skip a vsetvli: the instructions after it are generated for its vtype.
  for (const auto& pending : pending_labels_) out_ += fmt::format(".Lf{}:\n", pending.first);
  pending_labels_.clear();
  static const unsigned sews[] = {8, 16, 32};
  sew_ = sews[pick(3)];
  // LMUL >= SEW / ELEN (ELEN = 32): mf4 only for e8, mf2 for e8 and e16.
  std::vector<unsigned> lmuls = {8, 16, 32, 64};
  if (sew_ <= 16) lmuls.push_back(4);
  if (sew_ == 8) lmuls.push_back(2);
  lmul8_ = lmuls[pick(static_cast<unsigned>(lmuls.size()))];
  const std::string lmul = lmul8_ >= 8 ? fmt::format("m{}", lmul8_ / 8) : fmt::format("mf{}", 8 / lmul8_);
  const std::string policy = fmt::format("{}, {}", chance(50) ? "ta" : "tu", chance(50) ? "ma" : "mu");
  switch (pick(3)) {
    case 0:
      emit(fmt::format("vsetivli {}, {}, e{}, {}, {}", x(), pick(32), sew_, lmul, policy));
      break;
    case 1:
      emit(fmt::format("vsetvli {}, x0, e{}, {}, {}", x(), sew_, lmul, policy));  // VLMAX
      break;
    default:
      emit(fmt::format("li x6, {}", pick(49)));
      emit(fmt::format("vsetvli {}, x6, e{}, {}, {}", x(), sew_, lmul, policy));
      break;
  }
  vector_ready_ = true;
}

void Generator::vector_int_op(bool masked) {
  static const char* const vv[] = {"vadd", "vsub",  "vand", "vor",  "vxor",  "vsll",  "vsrl",  "vsra",
                                   "vmul", "vmulh", "vmin", "vmax", "vminu", "vmaxu", "vdivu", "vremu"};
  static const char* const vx[] = {"vadd", "vsub", "vrsub", "vand", "vor",  "vxor",
                                   "vsll", "vsrl", "vmul",  "vmin", "vmaxu"};
  static const char* const vi[] = {"vadd", "vrsub", "vand", "vor", "vxor", "vsll", "vsrl", "vsra"};
  static const char* const cmp[] = {"vmseq", "vmsne", "vmslt", "vmsltu", "vmsle", "vmsleu"};
  switch (pick(6)) {
    case 0:
    case 1:
      emit(fmt::format("{}.vv {}, {}, {}{}", vv[pick(std::size(vv))], v(masked), v(masked), v(masked),
                       mask(masked)));
      break;
    case 2:
      emit(fmt::format("{}.vx {}, {}, {}{}", vx[pick(std::size(vx))], v(masked), v(masked), x(),
                       mask(masked)));
      break;
    case 3:
      emit(fmt::format("{}.vi {}, {}, {}{}", vi[pick(std::size(vi))], v(masked), v(masked),
                       static_cast<int>(pick(16)), mask(masked)));
      break;
    case 4: {
      // A mask into v0 from sources that are not v0.
      emit(fmt::format("{}.vv v0, {}, {}", cmp[pick(std::size(cmp))], v(true), v(true)));
      break;
    }
    default:
      switch (pick(4)) {
        case 0:
          emit(fmt::format("vmerge.vvm {}, {}, {}, v0", v(true), v(true), v(true)));
          break;
        case 1:
          emit(fmt::format("vmv.v.x {}, {}", v(), x()));
          break;
        case 2:
          emit(fmt::format("vmv.v.i {}, {}", v(), static_cast<int>(pick(32)) - 16));
          break;
        default: {
          static const char* const red[] = {"vredsum", "vredmax", "vredminu", "vredxor"};
          emit(fmt::format("{}.vs v{}, {}, v{}{}", red[pick(4)], 1 + pick(31), v(masked), 1 + pick(31),
                           mask(masked)));
          break;
        }
      }
      break;
  }
}

void Generator::vector_fp_op(bool masked) {
  static const char* const vv[] = {"vfadd", "vfsub", "vfmul", "vfdiv", "vfmin", "vfmax", "vfsgnj", "vfsgnjn"};
  static const char* const fma[] = {"vfmacc", "vfnmacc", "vfmsac", "vfnmsac", "vfmadd"};
  switch (pick(7)) {
    case 0:
    case 1:
      emit(fmt::format("{}.vv {}, {}, {}{}", vv[pick(std::size(vv))], v(masked), v(masked), v(masked),
                       mask(masked)));
      break;
    case 2:
      emit(fmt::format("{}.vf {}, {}, {}{}", vv[pick(std::size(vv))], v(masked), v(masked), f(),
                       mask(masked)));
      break;
    case 3:
      if (chance(50)) {
        emit(fmt::format("{}.vv {}, {}, {}{}", fma[pick(std::size(fma))], v(masked), v(masked), v(masked),
                         mask(masked)));
      } else {
        emit(fmt::format("{}.vf {}, {}, {}{}", fma[pick(std::size(fma))], v(masked), f(), v(masked),
                         mask(masked)));
      }
      break;
    case 4: {
      // Not the .rtz conversions: QEMU 7.2 aborts on them (an assertion in its decode_save_opc; docs/rvv.md).
      static const char* const unary[] = {"vfsqrt.v",    "vfcvt.x.f.v",  "vfcvt.xu.f.v",
                                          "vfcvt.f.x.v", "vfcvt.f.xu.v", "vfclass.v"};
      emit(fmt::format("{} {}, {}{}", unary[pick(std::size(unary))], v(masked), v(masked), mask(masked)));
      break;
    }
    case 5: {
      static const char* const cmp[] = {"vmfeq", "vmflt", "vmfle", "vmfne"};
      emit(fmt::format("{}.vv v0, {}, {}", cmp[pick(4)], v(true), v(true)));
      break;
    }
    default:
      switch (pick(5)) {
        case 0:
          emit(fmt::format("vfmv.f.s {}, {}", f(), v()));
          break;
        case 1:
          emit(fmt::format("vfmv.s.f {}, {}", v(), f()));
          break;
        case 2:
          emit(fmt::format("vfmv.v.f {}, {}", v(), f()));
          break;
        case 3:
          emit(fmt::format("vfmerge.vfm {}, {}, {}, v0", v(true), v(true), f()));
          break;
        default: {
          static const char* const red[] = {"vfredosum", "vfredusum", "vfredmax", "vfredmin"};
          emit(fmt::format("{}.vs v{}, {}, v{}{}", red[pick(4)], 1 + pick(31), v(masked), 1 + pick(31),
                           mask(masked)));
          break;
        }
      }
      break;
  }
}

void Generator::vector_memory_op(bool masked) {
  const unsigned bytes = sew_ / 8;
  const bool dram = chance(50);
  emit(fmt::format("addi x7, {}, {}", dram ? "x8" : "x9", pick(256 / bytes) * bytes));
  switch (pick(5)) {
    case 0:
      emit(fmt::format("vle{}.v {}, (x7){}", sew_, v(masked), mask(masked)));
      break;
    case 1:
      emit(fmt::format("vse{}.v {}, (x7){}", sew_, v(masked), mask(masked)));
      break;
    case 2:
      emit(fmt::format("li x28, {}", pick(5) * 4));
      emit(fmt::format("vlse{}.v {}, (x7), x28{}", sew_, v(masked), mask(masked)));
      break;
    case 3:
      emit(fmt::format("li x28, {}", pick(5) * 4));
      emit(fmt::format("vsse{}.v {}, (x7), x28{}", sew_, v(masked), mask(masked)));
      break;
    default: {
      // Indexed: byte offsets i * SEW/8 from vid.v, so every element stays inside the buffer.
      const std::string index = v(true);
      emit(fmt::format("vid.v {}", index));
      if (bytes > 1) emit(fmt::format("vsll.vi {}, {}, {}", index, index, bytes == 2 ? 1 : 2));
      if (chance(50)) {
        emit(
            fmt::format("vluxei{}.v {}, (x7), {}{}", sew_, v_except(index, "", masked), index, mask(masked)));
      } else {
        emit(fmt::format("vsuxei{}.v {}, (x7), {}{}", sew_, v(masked), index, mask(masked)));
      }
      break;
    }
  }
}

void Generator::vector_perm_op() {
  switch (pick(6)) {
    case 0:
      emit(fmt::format("vslidedown.vi {}, {}, {}", v(), v(), pick(32)));
      break;
    case 1: {
      const std::string src = v();
      emit(fmt::format("vslideup.vi {}, {}, {}", v_except(src), src, pick(32)));
      break;
    }
    case 2: {
      const std::string a = v(), b = v();
      emit(fmt::format("vrgather.vv {}, {}, {}", v_except(a, b), a, b));
      break;
    }
    case 3:
      emit(fmt::format("vmv.x.s {}, {}", x(), v()));
      break;
    case 4:
      emit(fmt::format("vmv.s.x {}, {}", v(), x()));
      break;
    default: {
      const std::string a = v();
      emit(fmt::format("vslide1down.vx {}, {}, {}", v_except(a), a, x()));
      break;
    }
  }
}

void Generator::vector_widen_op() {
  // Widening: the destination group is twice the sources' (EEW 2*SEW, EMUL 2*LMUL), separate from them.
  if (sew_ > 16 || lmul8_ > 32) return vector_int_op(false);
  const unsigned wide = std::max(1u, 2 * lmul8_ / 8);
  const unsigned g = group();
  for (;;) {
    const unsigned d = pick(32 / wide) * wide;
    const unsigned a = pick(32 / g) * g, b = pick(32 / g) * g;
    auto overlaps = [&](unsigned s) { return s + g > d && s < d + wide; };
    if (overlaps(a) || overlaps(b)) continue;
    static const char* const ops[] = {"vwaddu.vv", "vwadd.vv", "vwsubu.vv", "vwmulu.vv", "vwmul.vv"};
    if (chance(70)) {
      emit(fmt::format("{} v{}, v{}, v{}", ops[pick(std::size(ops))], d, a, b));
    } else {
      // Narrowing: the wide group d into a narrow one outside it.
      emit(fmt::format("vnsrl.wi v{}, v{}, {}", a, d, pick(2 * sew_)));
    }
    return;
  }
}

void Generator::vector_op() {
  if (!vector_ready_ || chance(8)) return vsetvli();
  const bool masked = chance(25);
  switch (pick(10)) {
    case 0:
    case 1:
    case 2:
      return vector_int_op(masked);
    case 3:
    case 4:
      return sew_ == 32 ? vector_fp_op(masked) : vector_int_op(masked);
    case 5:
    case 6:
      return vector_memory_op(masked);
    case 7:
    case 8:
      return vector_perm_op();
    default:
      return vector_widen_op();
  }
}

RandomProgram Generator::run() {
  RandomProgram p;
  // The DTCM buffer: the FP values, then kDtcmBufBytes of random words.
  out_ = "  .data\n  .balign 64\nfpvals:\n";
  for (unsigned i = 0; i < 32; ++i) {
    uint32_t w = i < kSpecialFloats.size() ? kSpecialFloats[i] : (u32() & 0x8fffffffu) | 0x30000000u;
    out_ += fmt::format("  .word 0x{:08x}\n", w);
  }
  out_ += "buf:\n";
  for (unsigned i = 0; i < kDtcmBufBytes / 4; ++i) out_ += fmt::format("  .word 0x{:08x}\n", u32());
  out_ += "  .text\n  .globl kernel\n  .type kernel, @function\nkernel:\n";
  emit(fmt::format("li x8, 0x{:08x}", RVV_DRAM_BASE));
  emit("la x9, fpvals");
  for (unsigned i = 0; i < 32; ++i) emit(fmt::format("flw f{}, {}(x9)", i, 4 * i));
  emit("addi x9, x9, 128");
  for (unsigned r : kPool) emit(fmt::format("li x{}, 0x{:x}", r, int_value()));
  emit(fmt::format("csrwi frm, {}", frm_value()));
  if (o_.vector) vsetvli();
  const unsigned body_start = emitted_;
  while (emitted_ - body_start < o_.length) {
    const unsigned kind = pick(100);
    if (o_.vector && kind < 35) {
      vector_op();
    } else if (kind < 55) {
      integer_op();
    } else if (kind < 65) {
      memory_op();
    } else if (kind < 70) {
      branch();
    } else if (kind < 93) {
      fp_op();
    } else {
      csr_op();
    }
    close_labels();
  }
  // Branches still open land here.
  emitted_ += 8;
  close_labels();
  // The epilogue: vl and vtype into registers, the vector registers and the DTCM buffer into DRAM.
  if (o_.vector) {
    emit("csrr x30, vl");
    emit("csrr x31, vtype");
    emit("vsetvli x29, x0, e8, m8, ta, ma");
    emit(fmt::format("li x7, 0x{:08x}", RVV_DRAM_BASE + kDramVregDump));
    for (unsigned g = 0; g < 32; g += 8) {
      emit(fmt::format("vse8.v v{}, (x7)", g));
      emit("add x7, x7, x29");
    }
  }
  emit("mv x5, x9");
  emit(fmt::format("li x6, 0x{:08x}", RVV_DRAM_BASE + kDramDtcmCopy));
  emit(fmt::format("li x28, {}", kDtcmBufBytes / 4));
  out_ += ".Lcopy:\n";
  emit("lw x29, 0(x5)");
  emit("sw x29, 0(x6)");
  emit("addi x5, x5, 4");
  emit("addi x6, x6, 4");
  emit("addi x28, x28, -1");
  emit("bnez x28, .Lcopy");
  emit("ret");
  p.source = std::move(out_);
  p.dram.resize(kRandomProgramDramBytes);
  for (size_t i = 0; i < kDramData; i += 4) {
    const uint32_t w = chance(10) ? kSpecialFloats[pick(kSpecialFloats.size())] : u32();
    std::memcpy(&p.dram[i], &w, 4);
  }
  return p;
}

}  // namespace

RandomProgram random_program(uint64_t seed, const RandomProgramOptions& options) {
  return Generator(seed, options).run();
}

}  // namespace kcraft::rvv
