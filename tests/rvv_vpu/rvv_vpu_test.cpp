// rtl/rvv/rvv_vpu.sv against QEMU 7.2 (qemu-riscv32, the rvv platform's functional reference): directed
// programs for every implemented vector instruction over SEW, LMUL, vl, masking and register overlap,
// with random operands, on each Verilated configuration; every instruction's effect on the whole register
// file, its scalar result and its fflags are compared (vpu_check.h). Illegal encodings must trap on both.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <map>
#include <regex>
#include <string>
#include <vector>

#include "Vrvv_vpu_v128.h"
#include "Vrvv_vpu_v256.h"
#include "Vrvv_vpu_v256_l4.h"
#include "isa/rvv/isa_reference.h"
#include "tests/rvv_vpu/vpu_check.h"

namespace kcraft::rvv_vpu_test {
namespace {

struct V128 {
  static constexpr int kVlen = 128;
  using Sim = VpuSim<Vrvv_vpu_v128, 16>;
};
struct V256 {
  static constexpr int kVlen = 256;
  using Sim = VpuSim<Vrvv_vpu_v256, 32>;
};
// Two beats per register and rows half a register: the multi-beat and multi-row paths.
struct V256L4 {
  static constexpr int kVlen = 256;
  using Sim = VpuSim<Vrvv_vpu_v256_l4, 16>;
};

template <class C>
class VpuTest : public ::testing::Test {};
using Configs = ::testing::Types<V128, V256, V256L4>;
TYPED_TEST_SUITE(VpuTest, Configs);

// A vtype shape: SEW and log2 LMUL.
struct Shape {
  int sew;
  int lmul;
};

// The vtypes QEMU accepts (LMUL >= SEW / ELEN with ELEN = 32, otherwise vill), from mf4 to m8.
std::vector<Shape> shapes(int vlen, int max_sew = 32, int max_lmul = 3, int min_sew = 8) {
  std::vector<Shape> out;
  for (int sew = min_sew; sew <= max_sew; sew *= 2) {
    for (int lmul = -3; lmul <= max_lmul; lmul++) {
      if (vlmax_of(32, sew, lmul) >= 1 && vlmax_of(vlen, sew, lmul) >= 1) out.push_back({sew, lmul});
    }
  }
  return out;
}

int group(int lmul) {
  return lmul > 0 ? 1 << lmul : 1;
}

// A register aligned to a group of `g` (g = 1..8), not v0 when `masked`.
int pick_reg(DataGen& gen, int g, bool masked) {
  while (true) {
    const int r = static_cast<int>(gen.below(32 / static_cast<uint32_t>(g))) * g;
    if (!(masked && r == 0)) return r;
  }
}

// vl choices: VLMAX, 1, and a random one below VLMAX.
uint32_t pick_avl(DataGen& gen, uint32_t vlmax) {
  switch (gen.below(4)) {
    case 0:
      return vlmax;
    case 1:
      return 1 + gen.below(vlmax);
    case 2:
      return vlmax + gen.below(9);  // above VLMAX: vl = VLMAX
    default:
      return vlmax > 2 ? vlmax - 1 - gen.below(2) : vlmax;
  }
}

std::string vm_suffix(bool masked) {
  return masked ? ", v0.t" : "";
}

uint32_t scalar_for(DataGen& gen) {
  return gen.word();
}

// Single-width integer operations in their .vv/.vx/.vi forms.
template <class C>
void run_single_width_int(const std::vector<std::string>& vv, const std::vector<std::string>& vx,
                          const std::vector<std::string>& vi, uint64_t seed, int reps = 1) {
  DataGen gen(seed);
  Runner<typename C::Sim> p(C::kVlen, Fill::kIntegers, seed);
  for (const Shape& s : shapes(C::kVlen)) {
    for (int rep = 0; rep < reps; rep++) {
      p.vset(pick_avl(gen, vlmax_of(C::kVlen, s.sew, s.lmul)), s.sew, s.lmul);
      const int g = group(s.lmul);
      for (const auto& name : vv) {
        const bool m = gen.chance(50);
        p.op(fmt::format("{}.vv v{}, v{}, v{}{}", name, pick_reg(gen, g, m), pick_reg(gen, g, false),
                         pick_reg(gen, g, false), vm_suffix(m)));
      }
      for (const auto& name : vx) {
        const bool m = gen.chance(50);
        // The multiply-adds take the scalar first: vmacc.vx vd, rs1, vs2.
        const bool fma = name == "vmacc" || name == "vnmsac" || name == "vmadd" || name == "vnmsub";
        const std::string vs2 = fmt::format("v{}", pick_reg(gen, g, false));
        p.op(fmt::format("{}.vx v{}, {}, {}{}", name, pick_reg(gen, g, m), fma ? "t0" : vs2, fma ? vs2 : "t0",
                         vm_suffix(m)),
             scalar_for(gen));
      }
      for (const auto& name : vi) {
        const bool m = gen.chance(50);
        const int imm = static_cast<int>(gen.below(32)) - 16;
        const bool uimm = name == "vsll" || name == "vsrl" || name == "vsra" || name == "vrgather";
        p.op(fmt::format("{}.vi v{}, v{}, {}{}", name, pick_reg(gen, g, m), pick_reg(gen, g, false),
                         uimm ? imm + 16 : imm, vm_suffix(m)));
      }
    }
  }
  p.flush();
}

TYPED_TEST(VpuTest, AddSubLogic) {
  run_single_width_int<TypeParam>({"vadd", "vsub", "vand", "vor", "vxor"},
                                  {"vadd", "vsub", "vrsub", "vand", "vor", "vxor"},
                                  {"vadd", "vrsub", "vand", "vor", "vxor"}, 11, 2);
}

TYPED_TEST(VpuTest, MinMaxShifts) {
  run_single_width_int<TypeParam>({"vminu", "vmin", "vmaxu", "vmax", "vsll", "vsrl", "vsra"},
                                  {"vminu", "vmin", "vmaxu", "vmax", "vsll", "vsrl", "vsra"},
                                  {"vsll", "vsrl", "vsra"}, 12, 2);
}

TYPED_TEST(VpuTest, MultiplyDivide) {
  run_single_width_int<TypeParam>({"vmul", "vmulh", "vmulhu", "vmulhsu", "vdiv", "vdivu", "vrem", "vremu"},
                                  {"vmul", "vmulh", "vmulhu", "vmulhsu", "vdiv", "vdivu", "vrem", "vremu"},
                                  {}, 13, 2);
}

TYPED_TEST(VpuTest, MultiplyAdd) {
  run_single_width_int<TypeParam>({"vmacc", "vnmsac", "vmadd", "vnmsub"},
                                  {"vmacc", "vnmsac", "vmadd", "vnmsub"}, {}, 14, 2);
}

TYPED_TEST(VpuTest, Compares) {
  run_single_width_int<TypeParam>({"vmseq", "vmsne", "vmsltu", "vmslt", "vmsleu", "vmsle"},
                                  {"vmseq", "vmsne", "vmsltu", "vmslt", "vmsleu", "vmsle", "vmsgtu", "vmsgt"},
                                  {"vmseq", "vmsne", "vmsleu", "vmsle", "vmsgtu", "vmsgt"}, 15, 2);
}

TYPED_TEST(VpuTest, MergeMoveGather) {
  DataGen gen(16);
  Runner<typename TypeParam::Sim> p(TypeParam::kVlen, Fill::kIntegers, 16);
  for (const Shape& s : shapes(TypeParam::kVlen)) {
    for (int rep = 0; rep < 2; rep++) {
      const uint32_t vlmax = vlmax_of(TypeParam::kVlen, s.sew, s.lmul);
      p.vset(pick_avl(gen, vlmax), s.sew, s.lmul);
      const int g = group(s.lmul);
      p.op(fmt::format("vmerge.vvm v{}, v{}, v{}, v0", pick_reg(gen, g, true), pick_reg(gen, g, false),
                       pick_reg(gen, g, false)));
      p.op(fmt::format("vmerge.vxm v{}, v{}, t0, v0", pick_reg(gen, g, true), pick_reg(gen, g, false)),
           gen.word());
      p.op(fmt::format("vmerge.vim v{}, v{}, {}, v0", pick_reg(gen, g, true), pick_reg(gen, g, false),
                       static_cast<int>(gen.below(32)) - 16));
      p.op(fmt::format("vmv.v.v v{}, v{}", pick_reg(gen, g, false), pick_reg(gen, g, false)));
      p.op(fmt::format("vmv.v.x v{}, t0", pick_reg(gen, g, false)), gen.word());
      p.op(fmt::format("vmv.v.i v{}, {}", pick_reg(gen, g, false), static_cast<int>(gen.below(32)) - 16));
      // vrgather: destination distinct from the sources; indices from a register with small values.
      int vd = pick_reg(gen, g, true), vs2, vs1;
      do vs2 = pick_reg(gen, g, false);
      while (vs2 == vd);
      do vs1 = pick_reg(gen, g, false);
      while (vs1 == vd);
      const bool m = gen.chance(50);
      if (!m && vd == 0) vd = g;  // keep v0 as the mask register intact for the other tests
      if (vs1 != vd) p.op(fmt::format("vand.vx v{}, v{}, t0", vs1, vs1), 2 * vlmax - 1);
      if (vs1 != vd && vs2 != vd)
        p.op(fmt::format("vrgather.vv v{}, v{}, v{}{}", vd, vs2, vs1, vm_suffix(m)));
      if (vs2 != vd) {
        p.op(fmt::format("vrgather.vx v{}, v{}, t0{}", vd, vs2, vm_suffix(m)), gen.below(vlmax + 2));
        p.op(fmt::format("vrgather.vi v{}, v{}, {}{}", vd, vs2, gen.below(32), vm_suffix(m)));
        p.op(fmt::format("vrgather.vx v{}, v{}, t0{}", vd, vs2, vm_suffix(m)), 0xfffffff0u + gen.below(16));
      }
      p.op(fmt::format("vmv.s.x v{}, t0", pick_reg(gen, 1, false)), gen.word());
      p.op(fmt::format("vmv.x.s t4, v{}", pick_reg(gen, 1, false)));
    }
  }
  // Whole-register moves ignore vtype.
  for (int n : {1, 2, 4, 8}) {
    p.op(fmt::format("vmv{}r.v v{}, v{}", n, pick_reg(gen, n, false), pick_reg(gen, n, false)));
  }
  p.flush();
}

TYPED_TEST(VpuTest, Slides) {
  DataGen gen(17);
  Runner<typename TypeParam::Sim> p(TypeParam::kVlen, Fill::kIntegers, 17);
  for (const Shape& s : shapes(TypeParam::kVlen)) {
    for (int rep = 0; rep < 3; rep++) {
      const uint32_t vlmax = vlmax_of(TypeParam::kVlen, s.sew, s.lmul);
      p.vset(pick_avl(gen, vlmax), s.sew, s.lmul);
      const int g = group(s.lmul);
      const bool m = gen.chance(50);
      int vd = pick_reg(gen, g, m), vs2;
      do vs2 = pick_reg(gen, g, false);
      while (vs2 == vd);
      const uint32_t off = gen.chance(20) ? vlmax + gen.below(4) : gen.below(vlmax + 1);
      p.op(fmt::format("vslideup.vx v{}, v{}, t0{}", vd, vs2, vm_suffix(m)), off);
      p.op(fmt::format("vslideup.vi v{}, v{}, {}{}", vd, vs2, gen.below(32), vm_suffix(m)));
      p.op(fmt::format("vslidedown.vx v{}, v{}, t0{}", vd, vs2, vm_suffix(m)), off);
      p.op(fmt::format("vslidedown.vi v{}, v{}, {}{}", vd, vs2, gen.below(32), vm_suffix(m)));
      // Offsets near 2^32: i + offset must not wrap around to a valid element.
      p.op(fmt::format("vslidedown.vx v{}, v{}, t0{}", vd, vs2, vm_suffix(m)), 0xffffffffu - gen.below(2));
      p.op(fmt::format("vslideup.vx v{}, v{}, t0{}", vd, vs2, vm_suffix(m)), 0xffffffffu - gen.below(2));
      p.op(fmt::format("vslidedown.vx v{}, v{}, t0{}", vs2, vs2, vm_suffix(m && vs2 != 0)), gen.below(4));
      p.op(fmt::format("vslide1up.vx v{}, v{}, t0{}", vd, vs2, vm_suffix(m)), gen.word());
      p.op(fmt::format("vslide1down.vx v{}, v{}, t0{}", vd, vs2, vm_suffix(m)), gen.word());
      p.op(fmt::format("vslide1down.vx v{}, v{}, t0{}", vs2, vs2, vm_suffix(m && vs2 != 0)), gen.word());
    }
  }
  p.flush();
}

TYPED_TEST(VpuTest, WideningNarrowing) {
  DataGen gen(18);
  Runner<typename TypeParam::Sim> p(TypeParam::kVlen, Fill::kIntegers, 18);
  for (const Shape& s : shapes(TypeParam::kVlen, 16, 2)) {
    for (int rep = 0; rep < 2; rep++) {
      p.vset(pick_avl(gen, vlmax_of(TypeParam::kVlen, s.sew, s.lmul)), s.sew, s.lmul);
      const int g = group(s.lmul), g2 = group(s.lmul + 1);
      // Destination in v8..v15 (or v16 for m8 groups), sources from v16 up: no overlap.
      auto dst = [&](bool) { return 8 + static_cast<int>(gen.below(8 / static_cast<uint32_t>(g2))) * g2; };
      auto low = [&](bool m) {
        const int r = pick_reg(gen, g, m) % 16;
        return (m && r == 0) ? g : r;
      };
      auto src = [&]() { return 16 + static_cast<int>(gen.below(16 / static_cast<uint32_t>(g2))) * g2; };
      for (const char* name : {"vwaddu", "vwadd", "vwsubu", "vwsub", "vwmulu", "vwmulsu", "vwmul", "vwmaccu",
                               "vwmacc", "vwmaccsu"}) {
        const bool m = gen.chance(50);
        p.op(fmt::format("{}.vv v{}, v{}, v{}{}", name, dst(m), src(), src(), vm_suffix(m)));
        p.op(fmt::format(
                 "{}.vx v{}, {}, {}{}", name, dst(m),
                 std::string(name).find("macc") != std::string::npos ? "t0" : fmt::format("v{}", src()),
                 std::string(name).find("macc") != std::string::npos ? fmt::format("v{}", src()) : "t0",
                 vm_suffix(m)),
             gen.word());
      }
      {
        const bool m = gen.chance(50);
        p.op(fmt::format("vwmaccus.vx v{}, t0, v{}{}", dst(m), src(), vm_suffix(m)), gen.word());
      }
      for (const char* name : {"vwaddu", "vwadd", "vwsubu", "vwsub"}) {
        const bool m = gen.chance(50);
        p.op(fmt::format("{}.wv v{}, v{}, v{}{}", name, dst(m), src(), src(), vm_suffix(m)));
        p.op(fmt::format("{}.wx v{}, v{}, t0{}", name, dst(m), src(), vm_suffix(m)), gen.word());
      }
      // Narrowing shifts: vs2 is the wide group; vd may be its lowest part.
      for (const char* name : {"vnsrl", "vnsra"}) {
        const bool m = gen.chance(50);
        const int ws = src();
        p.op(fmt::format("{}.wv v{}, v{}, v{}{}", name, low(m), ws, src(), vm_suffix(m)));
        p.op(fmt::format("{}.wx v{}, v{}, t0{}", name, ws, ws, vm_suffix(m)), gen.below(64));
        p.op(fmt::format("{}.wi v{}, v{}, {}{}", name, 8, src(), gen.below(32), vm_suffix(m)));
      }
      // Integer widening reductions.
      for (const char* name : {"vwredsumu", "vwredsum"}) {
        const bool m = gen.chance(50);
        p.op(fmt::format("{}.vs v{}, v{}, v{}{}", name, pick_reg(gen, 1, false), src(),
                         pick_reg(gen, 1, false), vm_suffix(m)));
      }
    }
  }
  // Extensions: vzext/vsext .vf2 (SEW >= 16) and .vf4 (SEW = 32).
  for (const Shape& s : shapes(TypeParam::kVlen, 32, 3, 16)) {
    p.vset(pick_avl(gen, vlmax_of(TypeParam::kVlen, s.sew, s.lmul)), s.sew, s.lmul);
    const int g = group(s.lmul);
    for (const char* name : {"vzext.vf2", "vsext.vf2", "vzext.vf4", "vsext.vf4"}) {
      if (s.sew == 16 && std::string(name).find("vf4") != std::string::npos) continue;
      const int factor = name[8] - '0';  // "vzext.vf2": the 2
      if (vlmax_of(TypeParam::kVlen, s.sew / factor, s.lmul - (factor == 2 ? 1 : 2)) < 1) continue;
      const bool m = gen.chance(50);
      const int vd = g == 8 ? 8 : 8 + static_cast<int>(gen.below(8 / static_cast<uint32_t>(g))) * g;
      p.op(fmt::format("{} v{}, v{}{}", name, vd,
                       16 + static_cast<int>(gen.below(8)) * (g > 1 ? g / 2 : 1) % 16, vm_suffix(m)));
    }
  }
  p.flush();
}

TYPED_TEST(VpuTest, Reductions) {
  DataGen gen(19);
  Runner<typename TypeParam::Sim> p(TypeParam::kVlen, Fill::kIntegers, 19);
  for (const Shape& s : shapes(TypeParam::kVlen)) {
    for (int rep = 0; rep < 2; rep++) {
      p.vset(pick_avl(gen, vlmax_of(TypeParam::kVlen, s.sew, s.lmul)), s.sew, s.lmul);
      const int g = group(s.lmul);
      for (const char* name :
           {"vredsum", "vredand", "vredor", "vredxor", "vredminu", "vredmin", "vredmaxu", "vredmax"}) {
        const bool m = gen.chance(50);
        p.op(fmt::format("{}.vs v{}, v{}, v{}{}", name, pick_reg(gen, 1, false), pick_reg(gen, g, false),
                         pick_reg(gen, 1, false), vm_suffix(m)));
      }
    }
  }
  p.flush();
}

TYPED_TEST(VpuTest, MaskOperations) {
  DataGen gen(20);
  Runner<typename TypeParam::Sim> p(TypeParam::kVlen, Fill::kIntegers, 20);
  for (const Shape& s : shapes(TypeParam::kVlen)) {
    for (int rep = 0; rep < 2; rep++) {
      const uint32_t vlmax = vlmax_of(TypeParam::kVlen, s.sew, s.lmul);
      p.vset(gen.chance(15) ? 0 : pick_avl(gen, vlmax), s.sew, s.lmul);
      const int g = group(s.lmul);
      for (const char* name : {"vmandn", "vmand", "vmor", "vmxor", "vmorn", "vmnand", "vmnor", "vmxnor"}) {
        p.op(fmt::format("{}.mm v{}, v{}, v{}", name, pick_reg(gen, 1, false), pick_reg(gen, 1, false),
                         pick_reg(gen, 1, false)));
      }
      for (const bool m : {false, true}) {
        p.op(fmt::format("vcpop.m t4, v{}{}", pick_reg(gen, 1, false), vm_suffix(m)));
        p.op(fmt::format("vfirst.m t4, v{}{}", pick_reg(gen, 1, false), vm_suffix(m)));
        for (const char* name : {"vmsbf.m", "vmsif.m", "vmsof.m"}) {
          const int vd = pick_reg(gen, 1, m);
          int vs2;
          do vs2 = pick_reg(gen, 1, false);
          while (vs2 == vd);
          p.op(fmt::format("{} v{}, v{}{}", name, vd, vs2, vm_suffix(m)));
        }
        int vd = pick_reg(gen, g, true);
        int vs2;
        do vs2 = pick_reg(gen, 1, false);
        while (vs2 >= vd && vs2 < vd + g);
        p.op(fmt::format("viota.m v{}, v{}{}", vd, vs2, vm_suffix(m)));
        p.op(fmt::format("vid.v v{}{}", pick_reg(gen, g, true), vm_suffix(m)));
      }
      // vcompress: vd distinct from vs2 and from the mask register vs1.
      int vd = pick_reg(gen, g, false), vs2, vs1;
      do vs2 = pick_reg(gen, g, false);
      while (vs2 == vd);
      do vs1 = pick_reg(gen, 1, false);
      while (vs1 >= vd && vs1 < vd + g);
      if (vd != 0) p.op(fmt::format("vcompress.vm v{}, v{}, v{}", vd, vs2, vs1));
    }
  }
  p.flush();
}

// FP32 arithmetic in every rounding mode, with special values.
TYPED_TEST(VpuTest, FloatArithmetic) {
  DataGen gen(21);
  Runner<typename TypeParam::Sim> p(TypeParam::kVlen, Fill::kFloats, 21);
  for (const Shape& s : shapes(TypeParam::kVlen, 32, 3, 32)) {
    for (uint32_t frm = 0; frm <= 4; frm++) {
      p.vset(pick_avl(gen, vlmax_of(TypeParam::kVlen, 32, s.lmul)), 32, s.lmul);
      const int g = group(s.lmul);
      for (const char* name : {"vfadd",   "vfsub",   "vfmul",   "vfdiv",   "vfmin",  "vfmax",   "vfsgnj",
                               "vfsgnjn", "vfsgnjx", "vfmacc",  "vfnmacc", "vfmsac", "vfnmsac", "vfmadd",
                               "vfnmadd", "vfmsub",  "vfnmsub", "vmfeq",   "vmfne",  "vmflt",   "vmfle"}) {
        const bool m = gen.chance(50);
        p.op(fmt::format("{}.vv v{}, v{}, v{}{}", name, pick_reg(gen, g, m), pick_reg(gen, g, false),
                         pick_reg(gen, g, false), vm_suffix(m)),
             0, 0, 0, frm);
      }
      for (const char* name :
           {"vfadd", "vfsub", "vfrsub", "vfmul", "vfdiv", "vfrdiv", "vfmin", "vfmax", "vfsgnj", "vfsgnjn",
            "vfsgnjx", "vmfeq", "vmfne", "vmflt", "vmfle", "vmfgt", "vmfge"}) {
        const bool m = gen.chance(50);
        p.op(fmt::format("{}.vf v{}, v{}, ft0{}", name, pick_reg(gen, g, m), pick_reg(gen, g, false),
                         vm_suffix(m)),
             0, 0, gen.fp(), frm);
      }
      for (const char* name :
           {"vfmacc", "vfnmacc", "vfmsac", "vfnmsac", "vfmadd", "vfnmadd", "vfmsub", "vfnmsub"}) {
        const bool m = gen.chance(50);
        p.op(fmt::format("{}.vf v{}, ft0, v{}{}", name, pick_reg(gen, g, m), pick_reg(gen, g, false),
                         vm_suffix(m)),
             0, 0, gen.fp(), frm);
      }
      for (const char* name : {"vfsqrt.v", "vfclass.v", "vfcvt.xu.f.v", "vfcvt.x.f.v", "vfcvt.f.xu.v",
                               "vfcvt.f.x.v", "vfcvt.rtz.xu.f.v", "vfcvt.rtz.x.f.v"}) {
        const bool m = gen.chance(50);
        p.op(fmt::format("{} v{}, v{}{}", name, pick_reg(gen, g, m), pick_reg(gen, g, false), vm_suffix(m)),
             0, 0, 0, frm);
      }
      {
        const bool m = gen.chance(50);
        p.op(fmt::format("vfmerge.vfm v{}, v{}, ft0, v0", pick_reg(gen, g, true), pick_reg(gen, g, false)), 0,
             0, gen.fp());
        p.op(fmt::format("vfmv.v.f v{}, ft0", pick_reg(gen, g, false)), 0, 0, gen.fp());
        p.op(fmt::format("vfmv.s.f v{}, ft0", pick_reg(gen, 1, false)), 0, 0, gen.fp());
        p.op(fmt::format("vfmv.f.s ft1, v{}\n  fmv.x.w t4, ft1", pick_reg(gen, 1, false)));
        int vd = pick_reg(gen, g, m), vs2;
        do vs2 = pick_reg(gen, g, false);
        while (vs2 == vd);
        p.op(fmt::format("vfslide1up.vf v{}, v{}, ft0{}", vd, vs2, vm_suffix(m)), 0, 0, gen.fp());
        p.op(fmt::format("vfslide1down.vf v{}, v{}, ft0{}", vd, vs2, vm_suffix(m)), 0, 0, gen.fp());
      }
      for (const char* name : {"vfredusum", "vfredosum", "vfredmin", "vfredmax"}) {
        const bool m = gen.chance(50);
        p.op(fmt::format("{}.vs v{}, v{}, v{}{}", name, pick_reg(gen, 1, false), pick_reg(gen, g, false),
                         pick_reg(gen, 1, false), vm_suffix(m)),
             0, 0, 0, frm);
      }
    }
  }
  // Conversions between FP32 and 16-bit integers (SEW = 16).
  for (const Shape& s : shapes(TypeParam::kVlen, 16, 2, 16)) {
    for (uint32_t frm = 0; frm <= 4; frm++) {
      p.vset(pick_avl(gen, vlmax_of(TypeParam::kVlen, 16, s.lmul)), 16, s.lmul);
      const int g2 = group(s.lmul + 1);
      for (const char* name : {"vfwcvt.f.xu.v", "vfwcvt.f.x.v"}) {
        const bool m = gen.chance(50);
        p.op(fmt::format("{} v{}, v{}{}", name,
                         g2 == 8 ? 8 : 8 + static_cast<int>(gen.below(8 / static_cast<uint32_t>(g2))) * g2,
                         16 + static_cast<int>(gen.below(8)) * (g2 / 2 > 0 ? g2 / 2 : 1) % 16, vm_suffix(m)),
             0, 0, 0, frm);
      }
      for (const char* name : {"vfncvt.xu.f.w", "vfncvt.x.f.w", "vfncvt.rtz.xu.f.w", "vfncvt.rtz.x.f.w"}) {
        const bool m = gen.chance(50);
        p.op(fmt::format("{} v{}, v{}{}", name, 8 + (m ? 1 : 0) * group(s.lmul),
                         16 + static_cast<int>(gen.below(16 / static_cast<uint32_t>(g2))) * g2, vm_suffix(m)),
             0, 0, 0, frm);
      }
    }
  }
  p.flush();
}

// Unit-stride, strided and indexed loads and stores, mask and whole-register ones; misaligned bases.
TYPED_TEST(VpuTest, LoadsStores) {
  DataGen gen(22);
  Runner<typename TypeParam::Sim> p(TypeParam::kVlen, Fill::kIntegers, 22);
  const uint32_t area = kDramBase + kMemOff + 0x5000;
  for (const Shape& s : shapes(TypeParam::kVlen)) {
    for (int rep = 0; rep < 2; rep++) {
      p.vset(pick_avl(gen, vlmax_of(TypeParam::kVlen, s.sew, s.lmul)), s.sew, s.lmul);
      for (int eew : {8, 16, 32}) {
        const int emul = s.lmul + (eew == 8 ? 0 : eew == 16 ? 1 : 2) - (s.sew == 8 ? 0 : s.sew == 16 ? 1 : 2);
        if (emul < -3 || emul > 3) continue;
        const int ge = group(emul);
        const bool m = gen.chance(50);
        const uint32_t eb = static_cast<uint32_t>(eew / 8);
        const uint32_t base = ((area + gen.below(0x2000)) & ~(eb - 1)) + (gen.chance(25) ? gen.below(eb) : 0);
        p.op(fmt::format("vle{}.v v{}, (t0){}", eew, pick_reg(gen, ge, m), vm_suffix(m)), base);
        p.op(fmt::format("vse{}.v v{}, (t0){}", eew, pick_reg(gen, ge, false), vm_suffix(gen.chance(50))),
             area + gen.below(0x2000));
        const int32_t stride = static_cast<int32_t>(gen.below(16)) - 6;
        p.op(fmt::format("vlse{}.v v{}, (t0), t1{}", eew, pick_reg(gen, ge, m), vm_suffix(m)), base,
             static_cast<uint32_t>(stride * (gen.chance(80) ? eew / 8 : 1)));
        p.op(
            fmt::format("vsse{}.v v{}, (t0), t1{}", eew, pick_reg(gen, ge, false), vm_suffix(gen.chance(50))),
            area + gen.below(0x2000), static_cast<uint32_t>(stride * eew / 8));
      }
    }
  }
  // Indexed: the index register is first bounded to the area (vand), then used by all four forms.
  for (const Shape& s : shapes(TypeParam::kVlen)) {
    for (int ieew : {8, 16, 32}) {
      const int iemul = s.lmul +
                        (ieew == 8    ? 0
                         : ieew == 16 ? 1
                                      : 2) -
                        (s.sew == 8    ? 0
                         : s.sew == 16 ? 1
                                       : 2);
      if (iemul < -3 || iemul > 3) continue;
      const uint32_t avl = pick_avl(gen, vlmax_of(TypeParam::kVlen, s.sew, s.lmul));
      const int gi = group(iemul), g = group(s.lmul);
      const int vidx = 24;
      // Bound the indices with the index EEW as SEW.
      p.vset(8 * static_cast<uint32_t>(TypeParam::kVlen), ieew, 3);
      p.op(fmt::format("vand.vx v{}, v{}, t0", vidx, vidx), ieew == 8 ? 0xff : 0xfff);
      p.vset(avl, s.sew, s.lmul);
      (void)gi;
      for (const char* name : {"vluxei", "vloxei"}) {
        const bool m = gen.chance(50);
        p.op(fmt::format("{}{}.v v{}, (t0), v{}{}", name, ieew, 8 + (m ? g : 0) % 16, vidx, vm_suffix(m)),
             area + gen.below(0x1000));
      }
      for (const char* name : {"vsuxei", "vsoxei"}) {
        const bool m = gen.chance(50);
        p.op(fmt::format("{}{}.v v{}, (t0), v{}{}", name, ieew, 8, vidx, vm_suffix(m)),
             area + gen.below(0x1000));
      }
    }
  }
  // Mask and whole-register accesses.
  for (const Shape& s : shapes(TypeParam::kVlen)) {
    p.vset(pick_avl(gen, vlmax_of(TypeParam::kVlen, s.sew, s.lmul)), s.sew, s.lmul);
    p.op(fmt::format("vlm.v v{}, (t0)", pick_reg(gen, 1, false)), area + gen.below(0x2000));
    p.op(fmt::format("vsm.v v{}, (t0)", pick_reg(gen, 1, false)), area + gen.below(0x2000));
  }
  for (int n : {1, 2, 4, 8}) {
    for (int eew : {8, 16, 32}) {
      p.op(fmt::format("vl{}re{}.v v{}, (t0)", n, eew, pick_reg(gen, n, false)), area + gen.below(0x2000));
    }
    p.op(fmt::format("vs{}r.v v{}, (t0)", n, pick_reg(gen, n, false)), area + gen.below(0x2000));
  }
  p.flush();
}

// vl = 0 leaves everything as it was (QEMU skips such instructions), scalar results are still defined.
TYPED_TEST(VpuTest, VlZero) {
  Runner<typename TypeParam::Sim> p(TypeParam::kVlen, Fill::kIntegers, 23);
  p.vset(0, 32, 0);
  p.op("vadd.vv v1, v2, v3");
  p.op("vfadd.vv v1, v2, v3");
  p.op("vmseq.vv v1, v2, v3");
  p.op("vredsum.vs v1, v2, v3");
  p.op("vfredosum.vs v1, v2, v3");
  p.op("vcpop.m t4, v2");
  p.op("vfirst.m t4, v2");
  p.op("vmv.x.s t4, v2");
  p.op("vmv.s.x v1, t0", 5);
  p.op("vle32.v v1, (t0)", kDramBase + kMemOff);
  p.op("vmand.mm v1, v2, v3");
  p.op("vmv2r.v v2, v4");
  p.flush();
}

// An OP-V instruction word (for encodings the assembler refuses) as an assembler directive.
std::string opv(uint32_t f6, uint32_t vm, uint32_t vs2, uint32_t vs1, uint32_t f3, uint32_t vd) {
  return fmt::format(".4byte {:#010x}",
                     f6 << 26 | vm << 25 | vs2 << 20 | vs1 << 15 | f3 << 12 | vd << 7 | 0x57);
}

// Illegal encodings and register constraints trap on both (QEMU SIGILL, RTL issue_illegal_o).
TYPED_TEST(VpuTest, IllegalOnBoth) {
  using Sim = typename TypeParam::Sim;
  constexpr int v = TypeParam::kVlen;
  check_illegal<Sim>(v, 4, 32, 1, "vadd.vv v1, v2, v4");           // vd not aligned to LMUL=2
  check_illegal<Sim>(v, 4, 32, 0, opv(0b000000, 0, 2, 4, 0, 0));   // vadd.vv v0, v2, v4, v0.t
  check_illegal<Sim>(v, 4, 32, 0, "vwadd.vv v2, v4, v6");          // widening at SEW=32
  check_illegal<Sim>(v, 4, 16, 0, opv(0b110001, 1, 2, 6, 2, 2));   // vwadd.vv v2, v2, v6: overlap
  check_illegal<Sim>(v, 4, 16, 0, opv(0b101100, 1, 2, 6, 0, 3));   // vnsrl.wv v3, v2, v6: high part
  check_illegal<Sim>(v, 4, 32, 0, opv(0b001100, 1, 2, 4, 0, 2));   // vrgather.vv v2, v2, v4
  check_illegal<Sim>(v, 4, 32, 0, opv(0b001110, 1, 2, 5, 4, 2));   // vslideup.vx v2, v2, t0
  check_illegal<Sim>(v, 4, 32, 3, opv(0b011000, 1, 8, 16, 0, 9));  // vmseq.vv v9, v8, v16 (m8)
  check_illegal<Sim>(v, 4, 32, 0, opv(0b010111, 1, 2, 0, 2, 2));   // vcompress.vm v2, v2, v0
  check_illegal<Sim>(v, 4, 32, 0, opv(0b100111, 1, 2, 1, 3, 1));   // vmv2r.v v1, v2
  check_illegal<Sim>(v, 4, 8, 3, "vle32.v v8, (t0)");              // EMUL = 32
  check_illegal<Sim>(v, 4, 32, 0, "vfadd.vv v1, v2, v3", 5);       // reserved frm
  check_illegal<Sim>(v, 4, 32, 0, "vfsqrt.v v1, v2", 7);
  check_illegal<Sim>(v, 4, 32, 0, "vzext.vf8 v1, v2");  // needs SEW=64
}

// Outside the subset but run by QEMU 7.2: the RTL stops with illegal (docs/rvv.md lists them).
TYPED_TEST(VpuTest, IllegalOnRtlOnly) {
  using Sim = typename TypeParam::Sim;
  constexpr int v = TypeParam::kVlen;
  check_illegal<Sim>(v, 4, 16, 0, "vfadd.vv v1, v2, v3", 0, false);   // FP16 arithmetic
  check_illegal<Sim>(v, 4, 32, 0, "vsaddu.vv v1, v2, v3", 0, false);  // fixed-point
  check_illegal<Sim>(v, 4, 32, 0, "vadc.vvm v1, v2, v3, v0", 0, false);
  check_illegal<Sim>(v, 4, 32, 0, "vfrec7.v v1, v2", 0, false);
  check_illegal<Sim>(v, 4, 32, 0, "vlseg2e32.v v2, (t0)", 0, false);
  check_illegal<Sim>(v, 4, 32, 0, "vle32ff.v v2, (t0)", 0, false);
}

}  // namespace
}  // namespace kcraft::rvv_vpu_test

namespace kcraft::rvv_vpu_test {
namespace {

// The documented timing (docs/rvv.md, "The vector unit"): an instruction's occupancy of its engine, the
// cycles from its start to the start of the next instruction of the same engine, with a memory that takes
// every request and answers the next cycle: the run with the instruction twice back to back, less the run
// with it once. B = beats = ceil(vl / (4 * LANES >> log2(widest element bytes))).
template <class Sim>
uint64_t run_cycles(int vlen, const std::vector<std::string>& texts, const Shape& s, uint32_t avl) {
  Program p(vlen, /*init_registers=*/false);
  p.vset(avl, s.sew, s.lmul);
  for (const auto& text : texts) p.plain(text, kDramBase + kMemOff + 0x2000, 4, 0x3f800000);
  SimOptions o;
  o.max_latency = 1;
  o.ready_percent = 100;
  const std::vector<uint8_t> dram = initial_dram(p, Fill::kFloats, 3);
  const rvv::BuiltKernel k = build(p);
  Sim sim;
  return sim.run(p, kernel_vector_words(k.disassembly), dram, o).cycles;
}

template <class Sim>
std::vector<uint64_t> occupancy(int vlen, const std::vector<std::pair<std::string, Shape>>& ops,
                                uint32_t avl) {
  std::vector<uint64_t> out;
  for (const auto& [text, s] : ops)
    out.push_back(run_cycles<Sim>(vlen, {text, text}, s, avl) - run_cycles<Sim>(vlen, {text}, s, avl));
  return out;
}

TEST(VpuTiming, CyclesPerInstruction) {
  using Sim = V128::Sim;    // VLEN 128, 4 lanes: 16 bytes per beat, 16-byte rows
  const uint32_t avl = 32;  // vl = min(32, VLMAX); Shape is {SEW, log2 LMUL}
  const auto c =
      occupancy<Sim>(128,
                     {{"vadd.vv v8, v16, v24", {32, 3}},       // 0: 8 beats
                      {"vadd.vv v8, v16, v24", {8, 1}},        // 1: e8 m2, vl 32: 2 beats
                      {"vwadd.vv v8, v16, v20", {16, 1}},      // 2: e16 m2, vl 16, 32-bit results: 4 beats
                      {"vdiv.vv v8, v16, v24", {8, 1}},        // 3: vl 32, one element per lane: 8 beats
                      {"vfadd.vv v8, v16, v24", {32, 3}},      // 4: FPU, 8 beats
                      {"vfdiv.vv v8, v16, v24", {32, 3}},      // 5: iterative, 8 beats
                      {"vredsum.vs v1, v16, v2", {32, 3}},     // 6: 8 beats
                      {"vfredosum.vs v1, v16, v2", {32, 3}},   // 7: serial, 32 elements
                      {"vcompress.vm v8, v16, v2", {32, 3}},   // 8: serial
                      {"vmand.mm v1, v2, v3", {32, 3}},        // 9: one step
                      {"vcpop.m t4, v2", {32, 3}},             // 10
                      {"vle32.v v8, (t0)", {32, 3}},           // 11: 8 rows (aligned base)
                      {"vse32.v v8, (t0)", {32, 3}},           // 12
                      {"vlse32.v v8, (t0), t1", {32, 3}},      // 13: 32 element requests
                      {"vrgather.vv v8, v16, v24", {32, 3}}},  // 14: 8 beats
                     avl);
  EXPECT_EQ(c[0], 8u + 2);
  EXPECT_EQ(c[1], 2u + 2);
  EXPECT_EQ(c[2], 4u + 2);
  EXPECT_EQ(c[3], 8u + 2);
  EXPECT_EQ(c[4], 8u + 3);
  EXPECT_EQ(c[5], 15u * 8 + 3);
  EXPECT_EQ(c[6], 8u + 2);
  EXPECT_EQ(c[7], 32u + 4);
  EXPECT_EQ(c[8], 32u + 3);
  EXPECT_EQ(c[9], 2u);
  EXPECT_EQ(c[10], 1u);  // writes no vector register: the second starts in the first's last cycle (below)
  // Memory: requests + latency (1 here) + 3.
  EXPECT_EQ(c[11], 8u + 1 + 3);
  EXPECT_EQ(c[12], 8u + 1 + 3);
  EXPECT_EQ(c[13], 32u + 1 + 3);
  EXPECT_EQ(c[14], 8u + 2);
  // Each pair above shares its destination, so the second waits for the first to finish. An instruction
  // that shares no register with what the one before writes starts in that one's last cycle, one cycle
  // sooner; reading its destination still waits.
  const auto after = [&](const std::string& first, const std::string& second) {
    return run_cycles<Sim>(128, {first, second}, {32, 3}, avl) - run_cycles<Sim>(128, {first}, {32, 3}, avl);
  };
  EXPECT_EQ(after("vfadd.vv v0, v16, v24", "vfadd.vv v8, v16, v24"), 8u + 2);
  EXPECT_EQ(after("vadd.vv v0, v16, v24", "vadd.vv v8, v16, v24"), 8u + 1);
  EXPECT_EQ(after("vfadd.vv v0, v16, v24", "vfadd.vv v8, v0, v24"), 8u + 3);
  EXPECT_EQ(after("vadd.vv v0, v16, v24", "vadd.vv v8, v16, v0"), 8u + 2);
}

// The two engines: a load or store runs beside arithmetic that shares no register with it that either
// writes, and waits for it otherwise (the start condition in rtl/rvv/rvv_vpu.sv; docs/rvv.md).
TEST(VpuTiming, MemoryOverlapsArithmeticOnOtherRegisters) {
  using Sim = V128::Sim;
  const Shape m8{32, 3};
  auto cycles = [&](const std::vector<std::string>& texts) { return run_cycles<Sim>(128, texts, m8, 32); };
  const std::string load = "vle32.v v16, (t0)";
  const std::string add = "vfadd.vv v8, v8, v24";
  const uint64_t load_alone = cycles({load}), add_alone = cycles({add});
  const uint64_t load_occupancy = cycles({load, load}) - load_alone;
  const uint64_t add_occupancy = cycles({add, add}) - add_alone;
  // Independent: the add starts the cycle after the load (the testbench issues one per cycle).
  EXPECT_EQ(cycles({load, add}), std::max(load_alone, 1 + add_alone));
  EXPECT_EQ(cycles({add, load}), std::max(add_alone, 1 + load_alone));
  // Read after write, both ways, and write after write / after read: the second waits for the first.
  EXPECT_EQ(cycles({load, "vfadd.vv v8, v16, v24"}), load_occupancy + add_alone);
  EXPECT_EQ(cycles({add, "vse32.v v8, (t0)"}), add_occupancy + cycles({"vse32.v v8, (t0)"}));
  EXPECT_EQ(cycles({load, "vfadd.vv v16, v8, v24"}), load_occupancy + add_alone);
  EXPECT_EQ(cycles({"vfadd.vv v8, v16, v24", load}), add_occupancy + load_alone);
  // A masked load waits for the instruction that writes v0 (the same mask in both runs: one compare
  // more before the load delays it by the compare's occupancy).
  const std::string cmp = "vmseq.vv v0, v8, v24", masked = "vle32.v v16, (t0), v0.t";
  EXPECT_EQ(cycles({cmp, cmp, masked}) - cycles({cmp, masked}), cycles({cmp, cmp}) - cycles({cmp}));
  // Only a masked instruction reads v0: a load into the v0 group runs beside an unmasked add on other
  // registers, and waits for a masked one (a masked add is no slower alone).
  const std::string load_v0 = "vle32.v v0, (t0)";
  const std::string masked_add = "vfadd.vv v8, v8, v24, v0.t";
  ASSERT_EQ(cycles({masked_add}), add_alone);
  EXPECT_EQ(cycles({add, load_v0}), std::max(add_alone, 1 + load_alone));
  EXPECT_EQ(cycles({masked_add, load_v0}), add_occupancy + load_alone);
}

}  // namespace
}  // namespace kcraft::rvv_vpu_test

namespace kcraft::rvv_vpu_test {
namespace {

// A vector access outside memory: QEMU raises SIGSEGV at the instruction; the unit stops with ERR_LOAD /
// ERR_STORE, the instruction's word and the row's first faulting byte. Masked-off elements do not fault.
TEST(VpuErrors, BadAccessStopsWithCodeAndAddress) {
  using Sim = V128::Sim;
  struct Case {
    std::string text;
    uint32_t rs1, rs2;
    uint32_t code;  // rvv_pkg::ERR_LOAD = 3, ERR_STORE = 4
    uint32_t addr;
  };
  const uint32_t past = kDramBase + 0x200000;  // past the test image
  const std::vector<Case> cases = {
      {"vle32.v v8, (t0)", past, 0, 3, past},
      {"vse8.v v8, (t0)", past + 3, 0, 4, past + 3},
      {"vlse16.v v8, (t0), t1", kDramBase + kMemOff, 0x100000, 3,
       kDramBase + kMemOff + 0x100000},                  // element 1
      {"vsuxei32.v v8, (t0), v0", 0x00001000, 0, 4, 0},  // the ITCM and below: outside the unit's memory
  };
  for (const Case& c : cases) {
    Program p(128);
    p.vset(4, 32, 0);
    if (c.text.find("vsuxei") != std::string::npos) p.op("vmv.v.i v0, 0");  // indices 0: the base itself
    p.op(c.text, c.rs1, c.rs2);
    const std::vector<uint8_t> dram = initial_dram(p, Fill::kIntegers, 1);
    const rvv::BuiltKernel k = build(p);
    ASSERT_TRUE(k.ok);
    const rvv::RunResult q = rvv::run_qemu(k, dram, {128, std::chrono::milliseconds(60000), {}});
    EXPECT_EQ(q.end, rvv::RunEnd::kTrapped) << c.text;
    EXPECT_EQ(q.signal_name, "SIGSEGV") << c.text;
    Sim sim;
    const SimResult r = sim.run(p, kernel_vector_words(k.disassembly), dram);
    ASSERT_TRUE(r.error) << c.text;
    EXPECT_EQ(r.error_code, c.code) << c.text;
    const uint32_t want_addr = c.addr ? c.addr : c.rs1;
    EXPECT_EQ(r.error_addr, want_addr) << c.text;
  }
  // All elements masked off: no access, no fault (QEMU agrees: check_program runs both).
  Program p(128);
  p.vset(4, 32, 0);
  p.op("vmv.v.i v0, 0");
  p.op("vle32.v v8, (t0), v0.t", past);
  check_program<Sim>(p, Fill::kIntegers, 2);
}

}  // namespace
}  // namespace kcraft::rvv_vpu_test

namespace kcraft::rvv_vpu_test {
namespace {

// The implemented subset is one definition (isa/rvv/rvv_isa.yaml; `kcraft check` rejects everything else):
// the unit must run every vector instruction it lists, each in a vtype where it is legal.
TEST(VpuSubset, TheUnitRunsEveryInstructionTheTableLists) {
  using Sim = V128::Sim;
  // Operands: v8, v16, v24 never overlap; t0 is the scalar and the memory address, t1 the stride, ft0 the
  // FP scalar, t4 and ft1 scalar results (the program's conventions, vpu_program.h).
  const auto operands = [](const std::string& m) -> std::string {
    static const std::map<std::string, std::string> special = {
        {"vmv.v.v", "v8, v16"}, {"vmv.v.x", "v8, t0"},   {"vmv.v.i", "v8, 3"},     {"vfmv.v.f", "v8, ft0"},
        {"vmv.x.s", "t4, v16"}, {"vmv.s.x", "v8, t0"},   {"vfmv.f.s", "ft1, v16"}, {"vfmv.s.f", "v8, ft0"},
        {"vcpop.m", "t4, v16"}, {"vfirst.m", "t4, v16"}, {"vid.v", "v8"},          {"vlm.v", "v8, (t0)"},
        {"vsm.v", "v8, (t0)"}};
    if (const auto it = special.find(m); it != special.end()) return it->second;
    if (std::regex_match(m, std::regex(R"(^v[ls][uo]xei\d+\.v$)"))) return "v8, (t0), v16";
    if (std::regex_match(m, std::regex(R"(^v[ls]se\d+\.v$)"))) return "v8, (t0), t1";
    if (std::regex_match(m, std::regex(R"(^(v[ls]e\d+\.v|vl\dre\d+\.v|vs\dr\.v)$)"))) return "v8, (t0)";
    const bool multiply_add = std::regex_search(
        m, std::regex(R"(^vf?w?n?(macc|nmsac|madd|nmsub|msac|msub|nmadd|nmacc|maccu|maccsu|maccus)\.)"));
    const std::string form = m.substr(m.rfind('.') + 1);
    if (form == "vv" || form == "wv" || form == "mm" || form == "vs" || form == "vm") return "v8, v16, v24";
    if (form == "vx" || form == "wx") return multiply_add ? "v8, t0, v16" : "v8, v16, t0";
    if (form == "vf" || form == "wf") return multiply_add ? "v8, ft0, v16" : "v8, v16, ft0";
    if (form == "vi" || form == "wi") return "v8, v16, 3";
    if (form == "vvm") return "v8, v16, v24, v0";
    if (form == "vxm") return "v8, v16, t0, v0";
    if (form == "vim") return "v8, v16, 3, v0";
    if (form == "vfm") return "v8, v16, ft0, v0";
    return "v8, v16";
  };
  // SEW 16 for what widens or narrows (2 * SEW <= 32); SEW 32 for the rest (FP is SEW 32 only).
  const auto sixteen = [](const std::string& m) {
    return std::regex_search(m, std::regex(R"(^(vw|vn|vfwcvt|vfncvt))"));
  };
  std::vector<std::string> by_sew[2];
  for (const auto& m : rvv::implemented_mnemonics()) {
    if (m[0] != 'v' || m.rfind("vset", 0) == 0) continue;  // scalar, and the core's own vset*
    by_sew[sixteen(m) ? 0 : 1].push_back(m);
  }
  ASSERT_GT(by_sew[0].size() + by_sew[1].size(), 250u);
  for (int g = 0; g < 2; ++g) {
    const int sew = g == 0 ? 16 : 32;
    Program prog(128);
    prog.vset(4, sew, 0);
    for (const auto& m : by_sew[g]) {
      // Indexed accesses read their offsets from v16: zero, so every element is at t0.
      if (m.find("xei") != std::string::npos) prog.plain("vmv.v.i v16, 0");
      prog.plain(m + " " + operands(m), kDramBase + kMemOff, 4, 0x3f800000);
    }
    const std::vector<uint8_t> dram = initial_dram(prog, Fill::kIntegers, 1);
    const rvv::BuiltKernel k = build(prog);
    ASSERT_TRUE(k.ok) << rvv::format_diagnostics(k.diagnostics);
    Sim sim;
    const SimResult r = sim.run(prog, kernel_vector_words(k.disassembly), dram);
    EXPECT_FALSE(r.illegal) << "e" << sew << ": the unit refuses "
                            << (r.illegal_step < prog.steps().size() ? prog.steps()[r.illegal_step].text
                                                                     : "?")
                            << ", which isa/rvv/rvv_isa.yaml lists as implemented";
    EXPECT_FALSE(r.error) << "e" << sew << ": error " << r.error_code << " at an access";
  }
}

}  // namespace
}  // namespace kcraft::rvv_vpu_test
