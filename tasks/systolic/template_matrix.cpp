#include "tasks/systolic/templates.h"

#include <algorithm>

#include <fmt/format.h>

namespace kcraft::systolic::template_detail {

// ---------------------------------------------------------------- matrix products, composable
//
// C = A B (B stored [K, N]) or C = A B^T (B stored [N, K], nn.Linear weights, loaded with M_LDWT), with an
// optional bias row and an optional element-wise epilogue, the same scheme as the gemm template: a block
// of A rows chunk-major in VSRAM, one output column's weights per MSRAM set (the next one prefetched),
// every K tile streams the whole block, the accumulators are written out and the column stored.
//
// Registers: r1 A, r2 C, r3 A's row stride, r4 next weights, r5..r11 and r15 working, r12 the bias row
// (only with a bias), r13 C's row stride. r14 and, without a bias, r12 belong to the caller (head and
// batch loops keep their base addresses there).

int64_t matmul_block(const Params& p, const MatmulJob& j, int64_t want) {
  const int64_t kt = j.k / p.mlen, nt = j.n / p.mlen;
  const int64_t buffers = j.epilogue.stages.empty() ? 2 : 4;
  const int64_t vs_limit = (static_cast<int64_t>(p.vsram_rows) - nt - 64) / (kt + buffers);
  const int64_t limit = std::min<int64_t>({want, vs_limit, static_cast<int64_t>(p.acc_rows), 8191});
  // The largest multiple of BLEN dividing M (conv2d's 14 x 14 outputs make M = 196).
  for (int64_t b = limit - limit % p.blen; b > p.blen; b -= p.blen) {
    if (j.m % b == 0) return b;
  }
  return p.blen;
}

std::string matmul_unsupported(const Params& p, int64_t m, int64_t k, int64_t n) {
  if (m % p.blen != 0 || k % p.mlen != 0 || n % p.mlen != 0)
    return fmt::format("a {}x{}x{} product needs M a multiple of BLEN and K, N multiples of MLEN", m, k, n);
  if (k > p.msram_rows)
    return fmt::format("K={} needs {} MSRAM rows for a weight column, MSRAM_ROWS={}", k, k, p.msram_rows);
  if (k / p.mlen + 5 > p.vsram_rows / p.blen) return fmt::format("K={} leaves no VSRAM for an A block", k);
  return "";
}

int64_t emit_matmul(Asm& a, const Params& p, const MatmulJob& j, int64_t vbase) {
  const int64_t mlen = p.mlen, blen = p.blen, vlen = p.vlen;
  const int64_t kt = j.k / mlen, nt = j.n / mlen;
  const int64_t block = matmul_block(p, j, j.block);
  const int64_t steps = block / blen;
  const int64_t unroll = pow2_divisor(steps, std::min<int64_t>(j.unroll, 511 / blen + 1));
  const int64_t blocks = j.m / block;
  const bool epi = !j.epilogue.stages.empty();
  const int64_t out_buf[2] = {vbase + kt * block, vbase + kt * block + block};
  const int64_t epi_buf[2] = {vbase + kt * block + 2 * block, vbase + kt * block + 3 * block};
  const int64_t bias_row = vbase + kt * block + (epi ? 4 : 2) * block;
  const int64_t ms_set[2] = {0, j.k};
  // Prefetching the next weight column needs room for two.
  MatmulJob job = j;
  job.dbl = j.dbl && 2 * j.k <= static_cast<int64_t>(p.msram_rows);
  const int64_t rows4 = pow2_divisor(block, 4);  // rows per iteration of the bias and epilogue loops
  a.comment(fmt::format("product: {} x {} x {}{}, {} row blocks of {}", j.m, j.k, j.n,
                        j.b_transposed ? " (B^T)" : "", blocks, block));
  set_addr(a, "r1", j.a);
  set_addr(a, "r2", j.c);
  a.op("S_LI r3, {}", j.lda);
  a.op("S_LI r13, {}", j.ldc);
  for (const auto& line : j.epilogue.setup) a.op("{}", line);
  if (!j.bias.empty()) {
    a.op("S_LI r4, {}", j.bias);
    a.op("S_LI r12, {}", bias_row);
    a.op("S_LI r5, {}", 2 * vlen);
    a.op("H_LOAD_V r12, r4, r5, {}", j.n / vlen);
  }
  // B's row stride: the register that already holds it, or r5 (free whenever weights load).
  const int64_t ldb = j.ldb != 0 ? j.ldb : j.b_transposed ? j.lda : j.ldc;
  const bool own_ldb = ldb != (j.b_transposed ? j.lda : j.ldc);
  const char* ldb_reg = own_ldb ? "r5" : j.b_transposed ? "r3" : "r13";
  auto load_weights = [&](int set) {
    a.op("S_LI r6, {}", ms_set[set]);
    if (own_ldb) a.op("S_LI r5, {}", ldb);
    if (j.b_transposed) {
      a.op("S_MV r15, r4");
      a.loop(kt, "wload", [&] {
        a.op("H_LOAD_M r6, r15, {}, {}", ldb_reg, mlen);
        a.op("S_ADDI r6, r6, {}", mlen);
        a.op("S_ADDI r15, r15, {}", mlen * 2);
      });
      a.add_const("r4", mlen * ldb, "r11");
    } else {
      a.op("H_LOAD_M r6, r4, {}, {}", ldb_reg, j.k);
      a.op("S_ADDI r4, r4, {}", mlen * 2);
    }
  };
  auto matmul_tile = [&](const char* mm) {
    a.op("S_LI r8, 0");
    a.loop_last(steps / unroll, "mm", [&] {
      for (int64_t u = 0; u < unroll; ++u) a.op("{} r8, r9, {}", mm, u * blen);
      a.op("S_ADDI r8, r8, {}", unroll * blen);
      a.op("S_ADDI r9, r9, {}", unroll * blen);
    });
  };
  auto column = [&](int set, int ob, bool prefetch) {
    if (!job.dbl) load_weights(0);
    if (prefetch) load_weights(1 - set);
    a.op("S_LI r7, {}", ms_set[set]);
    a.op("S_LI r9, {}", vbase);
    const char* ldw = j.b_transposed ? "M_LDWT" : "M_LDW";
    a.op("{} r7", ldw);
    matmul_tile("M_MM");
    a.loop(kt - 1, "ktile", [&] {
      a.op("S_ADDI r7, r7, {}", mlen);
      a.op("{} r7", ldw);
      matmul_tile("M_MMA");
    });
    a.op("S_LI r10, {}", out_buf[ob]);
    a.op("S_LI r8, 0");
    a.loop(steps / unroll, "wo", [&] {
      for (int64_t u = 0; u < unroll; ++u) a.op("M_WO r10, r8, {}", u * blen);
      a.op("S_ADDI r8, r8, {}", unroll * blen);
      a.op("S_ADDI r10, r10, {}", unroll * blen);
    });
    a.op("S_LI r10, {}", out_buf[ob]);
    if (!j.bias.empty()) {
      a.op("S_MV r8, r10");
      // One row per iteration: the row offset would move the bias row too.
      a.loop(block, "bias", [&] {
        a.op("V_ADD_VV r8, r8, r12");
        a.op("S_ADDI r8, r8, 1");
      });
      a.op("S_ADDI r12, r12, 1");
    }
    if (epi) {
      a.op("S_MV r5, r10");
      a.op("S_LI r6, {}", epi_buf[ob]);
      a.loop(block / rows4, "epi", [&] {
        for (const auto& stage : j.epilogue.stages) {
          for (int64_t u = 0; u < rows4; ++u) a.op("{}", fill(stage, "r6", "r5", u));
        }
        a.op("S_ADDI r5, r5, {}", rows4);
        a.op("S_ADDI r6, r6, {}", rows4);
      });
      a.op("S_LI r10, {}", epi_buf[ob]);
    }
    a.op("H_STORE_V r10, r2, r13, {}", block);
    a.op("S_ADDI r2, r2, {}", mlen * 2);
  };
  a.loop(blocks, "block", [&] {
    a.op("S_LI r5, {}", vbase);
    a.op("S_MV r4, r1");
    auto aload = [&](int64_t tiles) {
      a.loop(tiles, "aload", [&] {
        a.op("H_LOAD_V r5, r4, r3, {}", block);
        a.op("S_ADDI r5, r5, {}", block);
        a.op("S_ADDI r4, r4, {}", mlen * 2);
      });
    };
    if (j.a_panel_cols == 0) {
      aload(kt);
    } else {
      const int64_t per_panel = j.a_panel_cols / mlen;
      a.loop(j.k / j.a_panel_cols, "panel", [&] {
        aload(per_panel);
        a.add_const("r4", j.a_panel_stride - j.a_panel_cols * 2, "r11");
      });
    }
    a.add_const("r1", block * j.lda, "r11");
    Src b = j.b;
    set_addr(a, "r4", b);
    if (!j.bias.empty()) a.op("S_LI r12, {}", bias_row);
    if (!job.dbl) {
      a.loop(nt, "col", [&] { column(0, 0, false); });
    } else {
      load_weights(0);
      const int64_t pairs = (nt - 1) / 2;
      a.loop(pairs, "cols", [&] {
        column(0, 0, true);
        column(1, 1, true);
      });
      if (nt - 2 * pairs == 2) {
        column(0, 0, true);
        column(1, 1, false);
      } else {
        column(0, 0, false);
      }
    }
    a.add_const("r2", block * j.ldc - nt * mlen * 2, "r11");
  });
  return bias_row + nt;
}

// ------------------------------------------------------------------------------------------------------ FFNs

void emit_ffn(Asm& a, const Params& p, const FfnJob& j) {
  MatmulJob up;
  up.a = j.x;
  up.m = j.m, up.k = j.d, up.n = j.f, up.lda = j.d * 2, up.ldc = j.f * 2, up.b_transposed = true;
  up.block = j.block, up.unroll = j.unroll, up.dbl = j.dbl;
  MatmulJob down = up;
  down.a = j.hidden;
  down.c = j.y;
  down.k = j.f, down.n = j.d, down.lda = j.f * 2, down.ldc = j.d * 2;
  down.b = {j.w_down, 0};
  down.bias = j.b_down;
  up.c = j.hidden;
  if (j.activation == "swiglu") {
    up.b = {j.w_gate, 0};
    up.epilogue = elementwise_op("silu");
    emit_matmul(a, p, up);
    MatmulJob u = up;
    u.epilogue = {};
    u.b = {j.w_up, 0};
    u.c = j.hidden2;
    emit_matmul(a, p, u);
    a.comment("h = silu(g) * u, in place of silu(g)");
    emit_binary(a, p, "V_MUL_VV", j.hidden, j.hidden2, j.hidden, j.m * j.f / p.vlen);
  } else {
    up.b = {j.w_up, 0};
    up.bias = j.b_up;
    up.epilogue = j.activation == "gelu" ? gelu_op() : elementwise_op("relu");
    emit_matmul(a, p, up);
  }
  emit_matmul(a, p, down);
}

// --------------------------------------------- task templates: gemv, batch_matmul, ffn, swiglu, gemm, linear

GeneratedKernel Generator::gemv() {
  // y = A x on the matrix unit: x streams as one row per K chunk, the weights are A's tiles loaded
  // transposed (M_LDWT), so accumulator row 0 of output block ob is y[ob*MLEN ..]. All output blocks
  // accumulate at once (ACC rows ob*BLEN), K chunk after K chunk, the next chunk's column of A tiles
  // prefetched into the other MSRAM set.
  const int64_t m = cfg.dim("M"), k = cfg.dim("K");
  const int64_t kt = k / vlen;
  const bool dbl = knob(values, all_knobs, "double_buffer") != 0;
  // Output blocks per group: MSRAM holds a group's A chunk (twice when double buffered).
  const int64_t group = pow2_divisor(m, std::min<int64_t>(m, p_.msram_rows / (dbl ? 2 : 1)));
  const int64_t groups = m / group, obs = group / mlen;
  out.knobs = {{"double_buffer", dbl}};
  out.summary =
      fmt::format("{} groups of {} outputs, {} K chunks, {} weight tiles", groups, group, kt, m / mlen * kt);
  const int64_t x_row = 0, y_row = kt + p_.blen;  // x chunks, then the outputs (M_WO writes BLEN rows)
  a.comment("x: K/VLEN rows; every M_MM reads BLEN rows from its chunk on, only the first matters");
  a.op("S_LI r1, {}", addr("x"));
  a.op("S_LI r3, {}", row_bytes);
  a.op("S_LI r5, {}", x_row);
  a.op("H_LOAD_V r5, r1, r3, {}", kt);
  a.op("S_LI r1, {}", addr("A"));
  a.op("S_LI r2, {}", addr("y"));
  a.op("S_LI r13, {}", k * 2);
  const int64_t ms_set[2] = {0, dbl ? group : 0};
  // r1: the next chunk's A address; load(b) fills MSRAM set b with A[group rows][chunk].
  auto load = [&](int b) {
    a.op("S_LI r6, {}", ms_set[b]);
    a.op("H_LOAD_M r6, r1, r13, {}", group);
    a.op("S_ADDI r1, r1, {}", mlen * 2);
  };
  auto compute = [&](int b, const char* mm) {
    a.op("S_LI r7, {}", ms_set[b]);
    a.op("S_LI r8, 0");
    a.loop(obs, "ob", [&] {
      a.op("M_LDWT r7");
      a.op("{} r8, r9", mm);
      a.op("S_ADDI r7, r7, {}", mlen);
      a.op("S_ADDI r8, r8, {}", p_.blen);
    });
    a.op("S_ADDI r9, r9, 1");
  };
  a.loop(groups, "group", [&] {
    a.op("S_LI r9, {}", x_row);
    load(0);
    if (kt > 1 && dbl) load(1);
    compute(0, "M_MM");
    // Chunk c (c >= 1) multiplies from set c % 2; with double buffering chunk c+1 loads into the other
    // set first. Pairs of chunks form the loop body; the last chunk loads nothing.
    if (!dbl) {
      a.loop(kt - 1, "chunk", [&] {
        load(0);
        compute(0, "M_MMA");
      });
    } else if (kt > 1) {
      const int64_t loading = kt - 2;  // chunks 1 .. kt-2 load the one after them
      a.loop(loading / 2, "chunks", [&] {
        load(0);
        compute(1, "M_MMA");
        load(1);
        compute(0, "M_MMA");
      });
      if (loading % 2 == 1) {
        load(0);
        compute(1, "M_MMA");
      }
      compute(static_cast<int>((kt - 1) % 2), "M_MMA");
    }
    a.comment("row 0 of each output block's accumulators -> consecutive VSRAM rows");
    a.op("S_LI r10, {}", y_row);
    a.op("S_LI r8, 0");
    a.loop(obs, "wo", [&] {
      a.op("M_WO r10, r8");
      a.op("S_ADDI r10, r10, 1");
      a.op("S_ADDI r8, r8, {}", p_.blen);
    });
    a.op("S_LI r10, {}", y_row);
    a.op("H_STORE_V r10, r2, r3, {}", obs);
    a.add_const("r2", group * 2, "r15");
    a.add_const("r1", group * k * 2 - kt * mlen * 2, "r15");
  });
  return finish();
}

GeneratedKernel Generator::batch_matmul() {
  const int64_t batch = cfg.dim("BATCH"), m = cfg.dim("M"), k = cfg.dim("K"), n = cfg.dim("N");
  MatmulJob j;
  j.a = {"", 0};
  j.c = {"", 0};
  j.b = {"r12", 0};
  j.m = m, j.k = k, j.n = n, j.lda = k * 2, j.ldc = n * 2;
  mm_knobs(j);
  out.summary = fmt::format("{} products of {}x{}x{}, each as the gemm template", batch, m, k, n);
  a.comment("A and C continue from one product to the next; r12 is B[b]");
  a.op("S_LI r1, {}", addr("A"));
  a.op("S_LI r2, {}", addr("C"));
  a.op("S_LI r12, {}", addr("B"));
  a.loop(batch, "batch", [&] {
    emit_matmul(a, p_, j);
    a.add_const("r12", k * n * 2, "r15");
  });
  return finish();
}

GeneratedKernel Generator::ffn() {
  FfnJob j;
  j.m = cfg.dim("M"), j.d = cfg.dim("D"), j.f = cfg.dim("F");
  j.x = {addr("x"), 0};
  j.y = {addr("y"), 0};
  j.hidden = {scratch_sym(), 0};
  MatmulJob probe;
  probe.m = j.m, probe.k = j.d, probe.n = j.f;
  mm_knobs(probe);
  j.block = probe.block, j.unroll = probe.unroll, j.dbl = probe.dbl;
  if (cfg.task == "ffn") {
    out.summary = "h = gelu(x W1^T + b1) into scratch (linear with a GELU epilogue), y = h W2^T + b2";
    j.activation = "gelu";
    j.w_up = addr("W1"), j.b_up = addr("b1"), j.w_down = addr("W2"), j.b_down = addr("b2");
  } else {
    out.summary = "silu(x Wg^T) and x Wu^T into scratch, their product, y = h Wd^T";
    j.activation = "swiglu";
    j.hidden2 = {scratch_sym(), j.m * j.f * 2};
    j.w_gate = addr("Wg"), j.w_up = addr("Wu"), j.w_down = addr("Wd");
  }
  emit_ffn(a, p_, j);
  return finish();
}

GeneratedKernel Generator::gemm() {
  const bool linear = cfg.task == "linear";
  const int64_t m = cfg.dim("M"), k = cfg.dim("K"), n = cfg.dim("N");
  const int64_t kt = k / mlen, nt = n / mlen;
  const bool dbl = knob(values, all_knobs, "double_buffer") != 0;
  // VSRAM holds the A block (kt * block rows, chunk-major), two output buffers and the bias row.
  const int64_t vs_limit = (p_.vsram_rows - nt) / (kt + 2);
  const int64_t acc_limit = p_.acc_rows;
  const int64_t block = std::max<int64_t>(
      blen,
      pow2_divisor(m, std::min({knob(values, all_knobs, "block_rows"), vs_limit, acc_limit, int64_t{8191}})));
  if (block % blen != 0) throw std::invalid_argument("block rows must be a multiple of BLEN");
  const int64_t steps = block / blen;  // M_MM instructions per weight tile
  const int64_t unroll =
      pow2_divisor(steps, std::min<int64_t>(knob(values, all_knobs, "unroll"), 511 / blen + 1));
  const int64_t blocks = m / block;
  out.knobs = {{"block_rows", block}, {"unroll", unroll}, {"double_buffer", dbl}};
  out.summary = fmt::format(
      "{} row blocks of {}, {} weight columns x {} K tiles, {} M_MM per loop iteration, {}", blocks, block,
      nt, kt, unroll, dbl ? "weights prefetched and outputs stored while computing" : "no overlap");
  const std::string a_sym = linear ? addr("x") : addr("A");
  const std::string b_sym = linear ? addr("W") : addr("B");
  const std::string c_sym = linear ? addr("y") : addr("C");
  const int64_t out_buf[2] = {kt * block, kt * block + block};
  const int64_t bias_row = kt * block + 2 * block;
  const int64_t ms_set[2] = {0, k};  // MSRAM: two sets of kt weight tiles (one output column each)

  a.comment("r1 A-block DRAM address, r2 output address, r3 row stride of A (K*2 bytes), r13 row stride of");
  a.comment("B and the output (N*2), r4 next weight column");
  a.op("S_LI r1, {}", a_sym);
  a.op("S_LI r2, {}", c_sym);
  a.op("S_LI r3, {}", k * 2);
  a.op("S_LI r13, {}", n * 2);
  a.op("S_LI r14, {}", row_bytes);
  if (linear) {
    a.comment("bias, N/VLEN rows, kept in VSRAM");
    a.op("S_LI r4, {}", addr("b"));
    a.op("S_LI r11, {}", bias_row);
    a.op("H_LOAD_V r11, r4, r14, {}", n / vlen);
  }
  // Loads the next weight column (kt tiles of MLEN x MLEN, DRAM address in r4) into MSRAM set `set`
  // and advances r4 to the column after it.
  auto load_weights = [&](int set) {
    a.op("S_LI r6, {}", ms_set[set]);
    if (linear) {
      // Tile kc holds W[col*MLEN + i][kc*MLEN ..] in row i; M_LDWT transposes it.
      a.op("S_MV r15, r4");
      a.loop(kt, "wload", [&] {
        a.op("H_LOAD_M r6, r15, r3, {}", mlen);
        a.op("S_ADDI r6, r6, {}", mlen);
        a.op("S_ADDI r15, r15, {}", mlen * 2);
      });
      a.add_const("r4", mlen * k * 2, "r11");
    } else {
      // One DMA: rows 0..K-1 of B restricted to the column block = kt stacked tiles.
      a.op("H_LOAD_M r6, r4, r13, {}", k);
      a.op("S_ADDI r4, r4, {}", mlen * 2);
    }
  };
  // The M_MMs of one weight tile: acc rows 0..block, A rows from r9 on.
  auto matmul_tile = [&](const char* mm) {
    a.op("S_LI r8, 0");
    a.loop_last(steps / unroll, "mm", [&] {
      for (int64_t u = 0; u < unroll; ++u) a.op("{} r8, r9, {}", mm, u * blen);
      a.op("S_ADDI r8, r8, {}", unroll * blen);
      a.op("S_ADDI r9, r9, {}", unroll * blen);
    });
  };
  // One output column block: (prefetch the next weights,) multiply, write out, add bias, store. The
  // output address is r2, the bias row r12; both advance.
  auto column = [&](int set, int ob, bool prefetch) {
    if (!dbl) load_weights(0);
    if (prefetch) load_weights(1 - set);
    a.op("S_LI r7, {}", ms_set[set]);
    a.op("S_LI r9, 0");
    const char* ldw = linear ? "M_LDWT" : "M_LDW";
    a.op("{} r7", ldw);
    matmul_tile("M_MM");
    if (kt > 1) {
      a.loop(kt - 1, "ktile", [&] {
        a.op("S_ADDI r7, r7, {}", mlen);
        a.op("{} r7", ldw);
        matmul_tile("M_MMA");
      });
    }
    a.op("S_LI r10, {}", out_buf[ob]);
    a.op("S_LI r8, 0");
    a.loop(steps / unroll, "wo", [&] {
      for (int64_t u = 0; u < unroll; ++u) a.op("M_WO r10, r8, {}", u * blen);
      a.op("S_ADDI r8, r8, {}", unroll * blen);
      a.op("S_ADDI r10, r10, {}", unroll * blen);
    });
    a.op("S_LI r10, {}", out_buf[ob]);
    if (linear) {
      a.op("S_MV r8, r10");
      a.loop(block, "bias", [&] {
        a.op("V_ADD_VV r8, r8, r12");
        a.op("S_ADDI r8, r8, 1");
      });
      a.op("S_ADDI r12, r12, 1");
    }
    a.op("H_STORE_V r10, r2, r13, {}", block);
    a.op("S_ADDI r2, r2, {}", mlen * 2);
  };

  a.loop(blocks, "block", [&] {
    a.comment("A rows of this block into VSRAM, chunk-major: chunk kc of every row, then chunk kc+1");
    a.op("S_LI r5, 0");
    a.op("S_MV r4, r1");
    a.loop(kt, "aload", [&] {
      a.op("H_LOAD_V r5, r4, r3, {}", block);
      a.op("S_ADDI r5, r5, {}", block);
      a.op("S_ADDI r4, r4, {}", mlen * 2);
    });
    a.add_const("r1", block * k * 2, "r11");
    a.op("S_LI r4, {}", b_sym);
    if (linear) a.op("S_LI r12, {}", bias_row);
    if (!dbl) {
      a.loop(nt, "col", [&] { column(0, 0, false); });
    } else {
      // Column c multiplies with MSRAM set c % 2 while column c+1's weights load into the other set;
      // pairs of columns form the loop body and the last one or two are peeled (nothing is fetched
      // past the weights).
      load_weights(0);
      const int64_t pairs = (nt - 1) / 2;
      a.loop(pairs, "cols", [&] {
        column(0, 0, true);
        column(1, 1, true);
      });
      if (nt - 2 * pairs == 2) {
        column(0, 0, true);
        column(1, 1, false);
      } else {
        column(0, 0, false);
      }
    }
    a.add_const("r2", block * n * 2 - nt * mlen * 2, "r11");
  });
  a.op("C_HALT");
  out.source = header(out.summary) + a.text();
  return out;
}
}  // namespace kcraft::systolic::template_detail
