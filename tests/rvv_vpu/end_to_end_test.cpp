// The vector unit inside the rvv core (rvv_top, every linked hardware configuration) against QEMU: the
// core's harness (tests/rvv_core/rvv_core_harness.h) runs whole kernels and compares the end-state
// signature and DRAM. Random instruction mixes with per-instruction register-file dumps (vpu_program.h),
// and a kernel where scalar and vector code share memory, registers, fcsr and scalar results.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "tests/rvv_core/rvv_core_harness.h"
#include "tests/rvv_vpu/vpu_check.h"

namespace kcraft::rvv_vpu_test {
namespace {

using rvv::test::check_against_qemu;

class EndToEnd : public ::testing::TestWithParam<std::string> {};

int vlen_of(const std::string& cfg) {
  return static_cast<int>(rvv::test::hw(cfg).params().vlen);
}

// Instruction patterns for the mix: {d} an aligned destination (not v0), {a} and {b} aligned sources,
// {m} an optional mask suffix; t0/t1/ft0 carry the scalar operands.
const std::vector<std::string>& patterns() {
  static const std::vector<std::string> kPatterns = {
      "vadd.vv {d}, {a}, {b}{m}",
      "vsub.vx {d}, {a}, t0{m}",
      "vrsub.vi {d}, {a}, 7{m}",
      "vand.vv {d}, {a}, {b}{m}",
      "vor.vx {d}, {a}, t0{m}",
      "vxor.vi {d}, {a}, -3{m}",
      "vsll.vx {d}, {a}, t0{m}",
      "vsra.vv {d}, {a}, {b}{m}",
      "vsrl.vi {d}, {a}, 5{m}",
      "vminu.vv {d}, {a}, {b}{m}",
      "vmax.vx {d}, {a}, t0{m}",
      "vmul.vv {d}, {a}, {b}{m}",
      "vmulh.vx {d}, {a}, t0{m}",
      "vdivu.vv {d}, {a}, {b}{m}",
      "vrem.vx {d}, {a}, t0{m}",
      "vmacc.vv {d}, {a}, {b}{m}",
      "vnmsub.vx {d}, t0, {a}{m}",
      "vmseq.vv v1, {a}, {b}{m}",
      "vmsltu.vx v2, {a}, t0{m}",
      "vmsgt.vi v3, {a}, -2{m}",
      "vmerge.vvm {d}, {a}, {b}, v0",
      "vmv.v.x {d}, t0",
      "vredsum.vs v4, {a}, v5{m}",
      "vredmaxu.vs v5, {a}, v4{m}",
      "vmand.mm v6, v1, v2",
      "vmnor.mm v7, v3, v6",
      "vid.v {d}{m}",
      "vslidedown.vx {d}, {a}, t1{m}",
      "vslide1up.vx v24, {a}, t0{m}",
      "vle8.v {d}, (t0){m}",
      "vse8.v {a}, (t0){m}",
      "vlse8.v {d}, (t0), t1{m}",
      "vsse8.v {a}, (t0), t1{m}",
      "vmv.s.x v4, t1",
  };
  return kPatterns;
}

TEST_P(EndToEnd, RandomMixMatchesQemu) {
  const std::string cfg = GetParam();
  const int vlen = vlen_of(cfg);
  DataGen gen(31);
  for (int prog_i = 0; prog_i < 2; prog_i++) {
    Program p(vlen);
    while (!p.full()) {
      // e8 keeps the byte-granular memory patterns in range; LMUL 1..4 (groups aligned, v8.. for data).
      const int lmul = static_cast<int>(gen.below(3));
      const int g = 1 << lmul;
      const uint32_t vlmax = vlmax_of(vlen, 8, lmul);
      p.vset(1 + gen.below(vlmax), 8, lmul);
      for (int k = 0; k < 8; k++) {
        std::string t = patterns()[gen.below(static_cast<uint32_t>(patterns().size()))];
        auto reg = [&]() {
          return fmt::format("v{}", 8 + static_cast<int>(gen.below(16 / static_cast<uint32_t>(g))) * g);
        };
        auto put = [&](const std::string& key, const std::string& v) {
          for (size_t pos; (pos = t.find(key)) != std::string::npos;) t.replace(pos, key.size(), v);
        };
        put("{d}", reg());
        put("{a}", reg());
        put("{b}", reg());
        put("{m}", gen.chance(40) ? ", v0.t" : "");
        const bool mem = t.find("(t0)") != std::string::npos;
        const uint32_t rs1 = mem ? kDramBase + kMemOff + 0x4000 + gen.below(0x4000) : gen.word();
        const uint32_t rs2 =
            mem ? static_cast<uint32_t>(static_cast<int32_t>(gen.below(9)) - 4) : gen.below(8);
        p.op(t, rs1, rs2);
        if (p.full()) break;
      }
    }
    const std::vector<uint8_t> dram = initial_dram(p, Fill::kIntegers, 31 + prog_i);
    check_against_qemu(p.body(), dram, cfg);
  }
}

// Scalar and vector code on the same data: scalar stores then vector loads of them, vector stores then
// scalar loads, vector scalar results used at once, vector FP flags accrued into fcsr, frm changes.
TEST_P(EndToEnd, ScalarAndVectorInterplayMatchesQemu) {
  const std::string cfg = GetParam();
  check_against_qemu(R"(
  li s0, 0x80000000
  li s1, 0x00018000
  li t0, 37
  li t1, 0
1:
  sw t1, 0(s0)
  sw t1, 0(s1)
  addi t1, t1, 3
  addi s0, s0, 4
  addi s1, s1, 4
  addi t0, t0, -1
  bnez t0, 1b
  li s0, 0x80000000
  li s1, 0x00018000
  li a0, 37
  mv a1, s0
  li a2, 0
2:
  vsetvli t2, a0, e32, m2, ta, ma
  vle32.v v8, (a1)
  vle32.v v10, (s1)
  vadd.vv v8, v8, v10
  vse32.v v8, (a1)
  lw t3, 0(a1)
  add a2, a2, t3
  vredsum.vs v12, v8, v12
  vmv.x.s t4, v12
  add a2, a2, t4
  slli t5, t2, 2
  add a1, a1, t5
  add s1, s1, t5
  sub a0, a0, t2
  bnez a0, 2b
  sw a2, 400(s0)
  vsetivli zero, 8, e32, m1, ta, ma
  li t0, 0x3f800000
  fmv.w.x ft0, t0
  vfmv.v.f v1, ft0
  li t0, 0x40400000
  fmv.w.x ft1, t0
  vfmv.v.f v2, ft1
  fsrmi 2
  vfdiv.vv v3, v1, v2
  frflags a3
  fsrmi 3
  vfdiv.vv v4, v1, v2
  vmflt.vv v0, v3, v4
  vcpop.m a4, v0
  vfirst.m a5, v0
  vfmv.f.s fa0, v4
  fadd.s fa1, fa0, fa0
  vfredosum.vs v5, v3, v4
  frcsr a6
  vse32.v v3, (s0)
  addi s0, s0, 32
  vse32.v v4, (s0)
  lw a7, 0(s0)
  ret
)",
                     rvv::test::random_dram(4096, 5), cfg);
}

INSTANTIATE_TEST_SUITE_P(Linked, EndToEnd, ::testing::ValuesIn(rvv::rvv_hw_configs()),
                         [](const ::testing::TestParamInfo<std::string>& i) { return i.param; });

}  // namespace
}  // namespace kcraft::rvv_vpu_test
