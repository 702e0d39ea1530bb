// Exhaustive accuracy sweep of the fixed-point exp/reci/rsqrt and sqrt against libm (double): every finite
// normal input whose exact result is a finite normal FP32. Not a ctest (about two minutes on one core);
// docs/arithmetic.md quotes its output.
//   build/tests/arith/arith_accuracy_sweep
#include <cfloat>
#include <cmath>
#include <cstdint>
#include <cstdio>

#include "isa/common/arith/fp_arith.h"

namespace {

using kcraft::arith::F32;

struct Worst {
  double rel_error = 0.0;
  F32 input = 0;
  uint64_t count = 0;
  uint64_t failures = 0;  // results outside the normal range for a normal exact result
};

template <typename Fn, typename Truth>
Worst sweep(F32 first, F32 last, Fn fn, Truth truth) {
  Worst worst;
  for (uint64_t bits = first; bits <= last; ++bits) {
    const auto x = static_cast<F32>(bits);
    const double exact = truth(static_cast<double>(kcraft::arith::f32_to_float(x)));
    const double magnitude = std::fabs(exact);
    if (!(magnitude >= FLT_MIN && magnitude <= FLT_MAX)) continue;
    const double got = static_cast<double>(kcraft::arith::f32_to_float(fn(x)));
    ++worst.count;
    if (!std::isfinite(got) || got == 0.0) {
      ++worst.failures;
      continue;
    }
    const double rel_error = std::fabs(got - exact) / magnitude;
    if (rel_error > worst.rel_error) {
      worst.rel_error = rel_error;
      worst.input = x;
    }
  }
  return worst;
}

void print(const char* name, const Worst& w, double bound) {
  std::printf(
      "%-6s worst relative error 2^%.3f (%.4g) at 0x%08X (%.9g) over %llu inputs, %llu out of range; "
      "required < 2^%.0f: %s\n",
      name, std::log2(w.rel_error), w.rel_error, w.input,
      static_cast<double>(kcraft::arith::f32_to_float(w.input)), static_cast<unsigned long long>(w.count),
      static_cast<unsigned long long>(w.failures), std::log2(bound),
      w.failures == 0 && w.rel_error < bound ? "ok" : "FAIL");
}

}  // namespace

int main() {
  using namespace kcraft::arith;
  FpEnvGuard guard;
  // exp: |x| < 128 covers every input with a normal result (both signs); reci, rsqrt and sqrt depend on the
  // sign only through the sign bit (reci) or special cases (rsqrt, sqrt), so positive inputs suffice for
  // the magnitude error; reci is swept for both signs anyway.
  const Worst exp_pos = sweep(0x00800000u, 0x42FFFFFFu, fp32_exp, [](double x) { return std::exp(x); });
  const Worst exp_neg = sweep(0x80800000u, 0xC2FFFFFFu, fp32_exp, [](double x) { return std::exp(x); });
  Worst exp_all = exp_pos.rel_error >= exp_neg.rel_error ? exp_pos : exp_neg;
  exp_all.count = exp_pos.count + exp_neg.count;
  exp_all.failures = exp_pos.failures + exp_neg.failures;
  print("exp", exp_all, 0x1p-21);
  const Worst reci_pos = sweep(0x00800000u, 0x7F7FFFFFu, fp32_reci, [](double x) { return 1.0 / x; });
  const Worst reci_neg = sweep(0x80800000u, 0xFF7FFFFFu, fp32_reci, [](double x) { return 1.0 / x; });
  Worst reci_all = reci_pos.rel_error >= reci_neg.rel_error ? reci_pos : reci_neg;
  reci_all.count = reci_pos.count + reci_neg.count;
  reci_all.failures = reci_pos.failures + reci_neg.failures;
  print("reci", reci_all, 0x1p-22);
  print("rsqrt", sweep(0x00800000u, 0x7F7FFFFFu, fp32_rsqrt, [](double x) { return 1.0 / std::sqrt(x); }),
        0x1p-22);
  print("sqrt", sweep(0x00800000u, 0x7F7FFFFFu, fp32_sqrt, [](double x) { return std::sqrt(x); }), 0x1p-22);
  return 0;
}
