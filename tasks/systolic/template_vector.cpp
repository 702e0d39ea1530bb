#include "tasks/systolic/templates.h"

#include <algorithm>
#include <cmath>
#include <tuple>

#include <fmt/format.h>

namespace kcraft::systolic::template_detail {

// ---------------------------------------------------------------- element-wise: relu, silu
//
// Rows of VLEN elements stream DRAM -> VSRAM -> vector unit -> VSRAM -> DRAM in tiles of `tile` rows.
// With double buffering, tile t+1 loads while tile t computes and tile t-1 stores.

ElementwiseOp gelu_op() {
  // gelu(x) = 0.5 x (1 + tanh(z)) = x / (1 + exp(-2z)), z = sqrt(2/pi) (x + 0.044715 x^3), and
  // -2z = x (c1 x^2 + c0): square, scale, shift, times x, exp, +1, reciprocal, times x.
  const double c = std::sqrt(2.0 / 3.14159265358979323846);
  return {{fmt::format("S_LI_FP f1, {:.9g}", -2.0 * c * 0.044715),
           fmt::format("S_LI_FP f2, {:.9g}", -2.0 * c), "S_LI_FP f3, 1.0"},
          {"V_MUL_VV {d}, {a}, {a}, {u}", "V_MUL_VF {d}, {d}, f1, {u}", "V_ADD_VF {d}, {d}, f2, {u}",
           "V_MUL_VV {d}, {d}, {a}, {u}", "V_EXP_V {d}, {d}, {u}", "V_ADD_VF {d}, {d}, f3, {u}",
           "V_RECI_V {d}, {d}, {u}", "V_MUL_VV {d}, {a}, {d}, {u}"}};
}

ElementwiseOp elementwise_op(const std::string& task) {
  if (task == "relu") return {{}, {"V_MAX_VF {d}, {a}, f0, {u}"}};
  if (task == "gelu") return gelu_op();
  if (task == "silu") {
    // silu(x) = x * sigmoid(x) = x / (1 + exp(-x)): five vector ops, each rounded once to BF16.
    return {{"S_LI_FP f1, -1.0", "S_LI_FP f2, 1.0"},
            {"V_MUL_VF {d}, {a}, f1, {u}", "V_EXP_V {d}, {d}, {u}", "V_ADD_VF {d}, {d}, f2, {u}",
             "V_RECI_V {d}, {d}, {u}", "V_MUL_VV {d}, {a}, {d}, {u}"}};
  }
  throw std::invalid_argument("no element-wise template for " + task);
}

std::string fill(const std::string& pattern, const std::string& d, const std::string& a, int64_t u) {
  return fmt::format(fmt::runtime(pattern), fmt::arg("d", d), fmt::arg("a", a), fmt::arg("u", u));
}

// ---------------------------------------------------------------------------------- element-wise binary pass

void emit_binary(Asm& a, const Params& p, const std::string& op, const Src& src1, const Src& src2,
                 const Src& dst, int64_t rows, int64_t vbase) {
  const int64_t vlen = p.vlen, row_bytes = 2 * vlen;
  const int64_t tile = pow2_divisor(rows, std::min<int64_t>(512, p.vsram_rows / 4));
  const int64_t u = pow2_divisor(tile, 4);
  a.comment(fmt::format("{} rows: {}", rows, op));
  set_addr(a, "r1", src1);
  set_addr(a, "r2", src2);
  set_addr(a, "r4", dst);
  a.op("S_LI r3, {}", row_bytes);
  a.op("S_LI r7, {}", vbase);
  a.op("S_LI r8, {}", vbase + tile);
  a.loop(rows / tile, "bin", [&] {
    a.op("H_LOAD_V r7, r1, r3, {}", tile);
    a.op("H_LOAD_V r8, r2, r3, {}", tile);
    a.op("S_MV r5, r7");
    a.op("S_MV r6, r8");
    a.loop(tile / u, "binrow", [&] {
      for (int64_t i = 0; i < u; ++i) a.op("{} r5, r5, r6, {}", op, i);
      a.op("S_ADDI r5, r5, {}", u);
      a.op("S_ADDI r6, r6, {}", u);
    });
    a.op("H_STORE_V r7, r4, r3, {}", tile);
    a.add_const("r1", tile * row_bytes, "r15");
    a.add_const("r2", tile * row_bytes, "r15");
    a.add_const("r4", tile * row_bytes, "r15");
  });
}

// ------------------------------------------------------------------------------------------- RoPE, row norms

std::pair<KnobValues, std::string> emit_rope(Asm& a, const Params& p, const RopeJob& j) {
  const int64_t vlen = p.vlen, row_bytes = 2 * vlen;
  const int64_t heads = j.heads, s = j.s, d = j.d;
  const int64_t ch = d / vlen, half = ch / 2;
  const bool dbl = j.dbl;
  const int64_t max_tile = std::min<int64_t>(8191, (p.vsram_rows - 2 * ch) / 7);
  const int64_t positions = pow2_divisor(s, std::max<int64_t>(1, std::min(j.tile_rows, max_tile) / ch));
  const int64_t tile = positions * ch;
  KnobValues used = {{"tile_rows", tile}, {"double_buffer", dbl}};
  std::string summary = fmt::format("{} tiles of {} positions x {} heads, {} buffering", s / positions,
                                    positions, heads, dbl ? "double" : "single");
  // VSRAM: cos, sin, x0, x1, y0, y1, temp; x buffers start at least `half` rows in (x - H is a row).
  const int64_t cos_row = 0, sin_row = tile, xb[2] = {2 * tile + half, 3 * tile + half},
                yb[2] = {4 * tile + half, 5 * tile + half}, tmp_row = 6 * tile + half;
  a.op("S_LI r3, {}", row_bytes);
  a.op("S_LI r13, {}", j.cos);
  a.op("S_LI r14, {}", j.sin);
  set_addr(a, "r11", j.x);
  set_addr(a, "r12", j.y);
  const std::string xr[2] = {"r1", "r2"};  // r1/r2 walk x and y of the current head inside the tile
  a.loop(s / positions, "ptile", [&] {
    a.op("S_LI r4, {}", cos_row);
    a.op("H_LOAD_V r4, r13, r3, {}", tile);
    a.op("S_LI r4, {}", sin_row);
    a.op("H_LOAD_V r4, r14, r3, {}", tile);
    a.add_const("r13", tile * row_bytes, "r15");
    a.add_const("r14", tile * row_bytes, "r15");
    a.op("S_MV r1, r11");
    a.op("S_MV r2, r12");
    auto load = [&](int b) {
      a.op("S_LI r4, {}", xb[b]);
      a.op("H_LOAD_V r4, r1, r3, {}", tile);
      a.add_const("r1", s * d * 2, "r15");
    };
    auto compute_store = [&](int b) {
      // r5 x, r6 x + H, r7 x - H, r8 cos, r9 sin, r10 y, r4 temp: one offset c for all of them.
      a.op("S_LI r5, {}", xb[b]);
      a.op("S_LI r6, {}", xb[b] + half);
      a.op("S_LI r7, {}", xb[b] - half);
      a.op("S_LI r8, {}", cos_row);
      a.op("S_LI r9, {}", sin_row);
      a.op("S_LI r10, {}", yb[b]);
      a.op("S_LI r4, {}", tmp_row);
      a.loop(positions, "pos", [&] {
        for (int64_t c = 0; c < ch; ++c) a.op("V_MUL_VV r10, r5, r8, {}", c);
        for (int64_t c = 0; c < half; ++c) a.op("V_MUL_VV r4, r6, r9, {}", c);
        for (int64_t c = half; c < ch; ++c) a.op("V_MUL_VV r4, r7, r9, {}", c);
        for (int64_t c = 0; c < half; ++c) a.op("V_SUB_VV r10, r10, r4, {}", c);
        for (int64_t c = half; c < ch; ++c) a.op("V_ADD_VV r10, r10, r4, {}", c);
        for (const char* r : {"r5", "r6", "r7", "r8", "r9", "r10", "r4"}) a.op("S_ADDI {}, {}, {}", r, r, ch);
      });
      a.op("S_LI r10, {}", yb[b]);
      a.op("H_STORE_V r10, r2, r3, {}", tile);
      a.add_const("r2", s * d * 2, "r15");
    };
    stream_tiles(a, heads, dbl, load, compute_store);
    a.add_const("r11", tile * row_bytes, "r15");
    a.add_const("r12", tile * row_bytes, "r15");
  });
  return {used, summary};
}

std::pair<KnobValues, std::string> emit_row_norm(Asm& a, const Params& p, const RowNormJob& j) {
  const int64_t vlen = p.vlen, row_bytes = 2 * vlen;
  const bool softmax = j.kind == "softmax";
  const bool layer_norm = j.kind == "layer_norm";
  const int64_t m = j.m, n = j.n;
  const int64_t chunks = n / vlen;  // VSRAM rows per tensor row
  const bool dbl = j.dbl;
  const int64_t max_rows =
      std::max<int64_t>(1, std::min<int64_t>((p.vsram_rows - 2 * chunks) / (4 * chunks), 8191 / chunks));
  const int64_t rows = pow2_divisor(m, std::min(j.tile_rows, max_rows));
  const int64_t unroll = pow2_divisor(chunks, j.unroll);
  const int64_t accs = std::min<int64_t>(pow2_divisor(unroll, j.accumulators), 4);
  const int64_t tile = rows * chunks;  // VSRAM rows per tile
  const int64_t tiles = m / rows;
  KnobValues used = {{"tile_rows", rows}, {"unroll", unroll}, {"accumulators", accs}, {"double_buffer", dbl}};
  std::string summary = fmt::format(
      "{} tiles of {} rows ({} VSRAM rows each), {} chunks per loop iteration, {} "
      "reduction accumulators, {} buffering",
      tiles, rows, tile, unroll, accs, dbl ? "double" : "single");
  const int64_t gamma_row = 4 * tile;
  // f1..f4 max accumulators (softmax), f5..f8 sum accumulators, f9 scale, f10 1/N, f11 eps.
  stream_setup(a, j.x, j.y, row_bytes, tile);
  if (!softmax) {
    a.op("S_LI_FP f10, 1.0/{}", n);
    a.op("S_LI_FP f11, {}", fmt::format("{:.9g}", j.eps));
    a.op("S_LI r11, {}", gamma_row);
    a.op("S_LI r4, {}", j.gamma);
    a.op("H_LOAD_V r11, r4, r3, {}", chunks);
    if (layer_norm) {
      a.comment("beta right after gamma; r13 walks it");
      a.op("S_LI r13, {}", gamma_row + chunks);
      a.op("S_LI r4, {}", j.beta);
      a.op("H_LOAD_V r13, r4, r3, {}", chunks);
    }
  }
  const std::string xr[2] = {"r7", "r8"}, wr[2] = {"r9", "r10"};
  auto load = [&](int b) {
    a.op("H_LOAD_V {}, r1, r3, {}", xr[b], tile);
    a.add_const("r1", tile * row_bytes, "r15");
  };
  auto facc = [&](int base, int64_t u) { return fmt::format("f{}", base + static_cast<int>(u % accs)); };
  auto combine = [&](const char* opname, int base) {
    for (int64_t i = 1; i < accs; ++i) a.op("{} f{}, f{}, f{}", opname, base, base, base + i);
  };
  auto per_row = [&] {
    if (softmax) {
      for (int64_t i = 0; i < accs; ++i) a.op("S_LI_FP f{}, -inf", 1 + i);
      a.loop(chunks / unroll, "max", [&] {
        for (int64_t u = 0; u < unroll; ++u) a.op("V_RED_MAX {}, r5, {}", facc(1, u), u);
        a.op("S_ADDI r5, r5, {}", unroll);
      });
      combine("S_MAX_FP", 1);
      a.op("S_ADDI r5, r5, {}", -chunks);
      for (int64_t i = 0; i < accs; ++i) a.op("S_LI_FP f{}, 0.0", 5 + i);
      a.loop(chunks / unroll, "exp", [&] {
        for (int64_t u = 0; u < unroll; ++u) a.op("V_EXP_VF r6, r5, f1, {}", u);
        for (int64_t u = 0; u < unroll; ++u) a.op("V_RED_SUM {}, r6, {}", facc(5, u), u);
        a.op("S_ADDI r5, r5, {}", unroll);
        a.op("S_ADDI r6, r6, {}", unroll);
      });
      combine("S_ADD_FP", 5);
      a.op("S_RECI_FP f9, f5");
      a.op("S_ADDI r6, r6, {}", -chunks);
      a.loop_last(chunks / unroll, "scale", [&] {
        for (int64_t u = 0; u < unroll; ++u) a.op("V_MUL_VF r6, r6, f9, {}", u);
        a.op("S_ADDI r6, r6, {}", unroll);
      });
    } else if (layer_norm) {
      // mean, then the centred row into the work buffer and its sum of squares, then scale and shift.
      for (int64_t i = 0; i < accs; ++i) a.op("S_LI_FP f{}, 0.0", 5 + i);
      a.loop(chunks / unroll, "sum", [&] {
        for (int64_t u = 0; u < unroll; ++u) a.op("V_RED_SUM {}, r5, {}", facc(5, u), u);
        a.op("S_ADDI r5, r5, {}", unroll);
      });
      combine("S_ADD_FP", 5);
      a.op("S_MUL_FP f12, f5, f10");
      a.op("S_ADDI r5, r5, {}", -chunks);
      for (int64_t i = 0; i < accs; ++i) a.op("S_LI_FP f{}, 0.0", 5 + i);
      a.loop(chunks / unroll, "centre", [&] {
        for (int64_t u = 0; u < unroll; ++u) a.op("V_SUB_VF r6, r5, f12, {}", u);
        for (int64_t u = 0; u < unroll; ++u) a.op("V_RED_DOT {}, r6, r6, {}", facc(5, u), u);
        a.op("S_ADDI r5, r5, {}", unroll);
        a.op("S_ADDI r6, r6, {}", unroll);
      });
      combine("S_ADD_FP", 5);
      a.op("S_MUL_FP f5, f5, f10");
      a.op("S_ADD_FP f5, f5, f11");
      a.op("S_RSQRT_FP f9, f5");
      a.op("S_ADDI r6, r6, {}", -chunks);
      a.op("S_MV r12, r11");
      a.op("S_LI r14, {}", gamma_row + chunks);
      a.loop_last(chunks / unroll, "scale", [&] {
        if (p.has_v_mul_vfv) {  // (x - mean) * (1/sigma) * gamma in one instruction, bit for bit the pair
          for (int64_t u = 0; u < unroll; ++u) a.op("V_MUL_VFV r6, r6, f9, r12, {}", u);
        } else {
          for (int64_t u = 0; u < unroll; ++u) a.op("V_MUL_VF r6, r6, f9, {}", u);
          for (int64_t u = 0; u < unroll; ++u) a.op("V_MUL_VV r6, r6, r12, {}", u);
        }
        for (int64_t u = 0; u < unroll; ++u) a.op("V_ADD_VV r6, r6, r14, {}", u);
        a.op("S_ADDI r6, r6, {}", unroll);
        a.op("S_ADDI r12, r12, {}", unroll);
        a.op("S_ADDI r14, r14, {}", unroll);
      });
    } else {
      for (int64_t i = 0; i < accs; ++i) a.op("S_LI_FP f{}, 0.0", 5 + i);
      a.loop(chunks / unroll, "sumsq", [&] {
        for (int64_t u = 0; u < unroll; ++u) a.op("V_RED_DOT {}, r5, r5, {}", facc(5, u), u);
        a.op("S_ADDI r5, r5, {}", unroll);
      });
      combine("S_ADD_FP", 5);
      a.op("S_MUL_FP f5, f5, f10");
      a.op("S_ADD_FP f5, f5, f11");
      a.op("S_RSQRT_FP f9, f5");
      a.op("S_ADDI r5, r5, {}", -chunks);
      a.op("S_MV r12, r11");
      a.loop_last(chunks / unroll, "scale", [&] {
        if (p.has_v_mul_vfv) {  // x * (1/rms) * gamma in one instruction, bit for bit the pair
          for (int64_t u = 0; u < unroll; ++u) a.op("V_MUL_VFV r6, r5, f9, r12, {}", u);
        } else {
          for (int64_t u = 0; u < unroll; ++u) a.op("V_MUL_VF r6, r5, f9, {}", u);
          for (int64_t u = 0; u < unroll; ++u) a.op("V_MUL_VV r6, r6, r12, {}", u);
        }
        a.op("S_ADDI r5, r5, {}", unroll);
        a.op("S_ADDI r6, r6, {}", unroll);
        a.op("S_ADDI r12, r12, {}", unroll);
      });
    }
  };
  auto compute_store = [&](int b) {
    a.op("S_MV r5, {}", xr[b]);
    a.op("S_MV r6, {}", wr[b]);
    a.loop(rows, "row", per_row);
    a.op("H_STORE_V {}, r2, r3, {}", wr[b], tile);
    a.add_const("r2", tile * row_bytes, "r15");
  };
  a.blank();
  stream_tiles(a, tiles, dbl, load, compute_store);
  return {used, summary};
}

// ------------------------------------- task templates: relu, silu, gelu, rope, softmax, rms_norm, layer_norm

GeneratedKernel Generator::elementwise() {
  const auto op = elementwise_op(cfg.task);
  const int64_t rows = cfg.dim("M") * cfg.dim("N") / vlen;
  const bool dbl = knob(values, all_knobs, "double_buffer") != 0;
  const int64_t max_tile = std::min<int64_t>({8191, p_.vsram_rows / 4, rows});
  const int64_t tile = pow2_divisor(rows, std::min(knob(values, all_knobs, "tile_rows"), max_tile));
  const int64_t unroll = pow2_divisor(tile, std::min<int64_t>(knob(values, all_knobs, "unroll"), 256));
  const int64_t tiles = rows / tile;
  out.knobs = {{"tile_rows", tile}, {"unroll", unroll}, {"double_buffer", dbl}};
  out.summary = fmt::format("{} tiles of {} rows, {} rows per loop iteration, {} buffering", tiles, tile,
                            unroll, dbl ? "double" : "single");
  stream_setup(a, {addr(cfg.inputs[0].name), 0}, {addr(cfg.outputs[0].name), 0}, row_bytes, tile);
  for (const auto& line : op.setup) a.op("{}", line);
  const std::string xr[2] = {"r7", "r8"}, wr[2] = {"r9", "r10"};
  auto load = [&](int b) {
    a.op("H_LOAD_V {}, r1, r3, {}", xr[b], tile);
    a.add_const("r1", tile * row_bytes, "r15");
  };
  auto compute_store = [&](int b) {
    a.op("S_MV r5, {}", xr[b]);
    a.op("S_MV r6, {}", wr[b]);
    a.loop(tile / unroll, "rows", [&] {
      for (const auto& stage : op.stages) {
        for (int64_t u = 0; u < unroll; ++u) a.op("{}", fill(stage, "r6", "r5", u));
      }
      a.op("S_ADDI r5, r5, {}", unroll);
      a.op("S_ADDI r6, r6, {}", unroll);
    });
    a.op("H_STORE_V {}, r2, r3, {}", wr[b], tile);
    a.add_const("r2", tile * row_bytes, "r15");
  };
  a.blank();
  stream_tiles(a, tiles, dbl, load, compute_store);
  a.op("C_HALT");
  out.source = header(out.summary) + a.text();
  return out;
}

GeneratedKernel Generator::rope() {
  RopeJob j;
  j.x = {addr("x"), 0};
  j.y = {addr("y"), 0};
  j.cos = addr("cos");
  j.sin = addr("sin");
  j.heads = cfg.dim("HEADS"), j.s = cfg.dim("S"), j.d = cfg.dim("D");
  j.tile_rows = knob(values, all_knobs, "tile_rows");
  j.dbl = knob(values, all_knobs, "double_buffer") != 0;
  std::tie(out.knobs, out.summary) = emit_rope(a, p_, j);
  return finish();
}

GeneratedKernel Generator::row_norm() {
  RowNormJob j;
  j.kind = cfg.task;
  j.x = {addr("x"), 0};
  j.y = {addr("y"), 0};
  if (cfg.task != "softmax") {
    j.gamma = addr("gamma");
    j.eps = cfg.param("eps");
  }
  if (cfg.task == "layer_norm") j.beta = addr("beta");
  j.m = cfg.dim("M"), j.n = cfg.dim("N");
  j.tile_rows = knob(values, all_knobs, "tile_rows");
  j.unroll = knob(values, all_knobs, "unroll");
  j.accumulators = knob(values, all_knobs, "accumulators");
  j.dbl = knob(values, all_knobs, "double_buffer") != 0;
  std::tie(out.knobs, out.summary) = emit_row_norm(a, p_, j);
  return finish();
}
}  // namespace kcraft::systolic::template_detail
