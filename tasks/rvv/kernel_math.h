// The math functions rvv kernels paste in, since the core has no libm: kcraft_math.h's scalar kc_expf and
// kc_sqrtf, and kc_vexpf, the same exponential on a vector register group. The baseline compiler's
// templates (baseline_compiler.cpp), the composite kernels (composite.cpp) and the vectorised pieces
// (vector_kernels.cpp) all take them from here.
#pragma once

#include <string>

namespace kcraft::rvv {

// The text of kcraft_math.h (kc_expf, kc_sqrtf), as the kernels include it.
const std::string& math_header();
// kc_vexpf(x, vl): kc_expf's algorithm on a vfloat32m<lmul>_t, as the intrinsics templates define it: x
// clamped to [-86, 88.7], so results are never 0, subnormal or infinite, and a NaN input is not
// propagated. lmul in {1, 2, 4, 8}; throws std::invalid_argument otherwise.
std::string vector_exp_source(int lmul);

}  // namespace kcraft::rvv
