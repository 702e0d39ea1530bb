#include "tasks/systolic/templates.h"

#include <array>
#include <functional>

#include <fmt/format.h>

namespace kcraft::systolic::template_detail {

// ---------------------------------------------------------------- attention, composable
//
// One head: scores = Q K^T (linear-style product) into an [S, S] scratch matrix, a row softmax of
// scale * scores in place (causal: whole chunks left of the diagonal, the diagonal chunk plus a mask
// row, zeros right of it), then O = P V (gemm-style). VSRAM rows [0, VLEN) hold the causal mask rows
// (emit_causal_mask), the products and the softmax tile start at AttentionJob::work.

namespace {

// Row softmax of scale * scores (+ the relative bias), in place in the scratch matrix, VLEN rows at a
// time. Uses r1..r11, r13, r15, f1, f5, f9, f10.
void emit_attention_softmax(Asm& a, const Params& p, const AttentionJob& j) {
  const int64_t vlen = p.vlen, row_bytes = 2 * vlen, s = j.s;
  const int64_t chunks = s / vlen;
  const bool causal = j.causal;
  const int64_t mask_row = 0, work = j.work;
  const int64_t tile = vlen * chunks;
  const int64_t bias_buf = work + tile;  // relative bias: VSRAM row c*VLEN + VLEN-1-r for query r, chunk c
  const bool scale = j.scale != 1.0;
  a.comment("row softmax of scale * scores, in place in scratch, VLEN rows at a time");
  if (scale) a.op("S_LI_FP f10, {}", fmt::format("{:.9g}", j.scale));
  set_addr(a, "r1", j.scores);
  a.op("S_MV r2, r1");
  a.op("S_LI r3, {}", row_bytes);
  if (causal) {
    a.op("S_LI r8, 0");               // whole chunks left of the diagonal
    a.op("S_LI r9, {}", chunks - 1);  // chunks right of it (probability 0)
  }
  if (j.rel_bias) {
    a.comment("r10: T + (S - VLEN - first query of the block) elements; r7 = 2 (a stride of one element)");
    Src first = j.rel_table;
    first.offset += (s - vlen) * 2;
    set_addr(a, "r10", first);
    a.op("S_LI r7, 2");
  }
  a.loop(s / vlen, "sblock", [&] {
    a.op("S_LI r4, {}", work);
    a.op("H_LOAD_V r4, r1, r3, {}", tile);
    a.add_const("r1", tile * row_bytes, "r15");
    if (j.rel_bias) {
      // Row r' of chunk c's load is T[S - VLEN - i0 + c VLEN + r' ..], the bias of query i0+VLEN-1-r'.
      a.op("S_LI r11, {}", bias_buf);
      a.op("S_MV r13, r10");
      a.loop(chunks, "bload", [&] {
        a.op("H_LOAD_V r11, r13, r7, {}", vlen);
        a.op("S_ADDI r11, r11, {}", vlen);
        a.op("S_ADDI r13, r13, {}", vlen * 2);
      });
      a.op("S_ADDI r10, r10, {}", -vlen * 2);
      a.op("S_LI r13, {}", bias_buf + vlen - 1);
    }
    a.op("S_MV r5, r4");
    if (causal && !j.rel_bias) a.op("S_LI r7, {}", mask_row + vlen - 1);
    // Causal rows need two loop levels inside; unroll the row loop when the heads leave only one.
    auto rows_loop = [&](const std::function<void()>& body) {
      if (causal && a.free_depth() < 2) {
        for (int64_t r = 0; r < vlen; ++r) body();
      } else {
        a.loop(vlen, "srow", body);
      }
    };
    rows_loop([&] {
      if (!causal) {
        const int64_t u = pow2_divisor(chunks, 4);
        auto pass = [&](const std::string& stem, const std::function<void(int64_t)>& op) {
          a.op("S_MV r6, r5");
          a.loop(chunks / u, stem, [&] {
            for (int64_t i = 0; i < u; ++i) op(i);
            a.op("S_ADDI r6, r6, {}", u);
          });
        };
        if (scale) pass("scale", [&](int64_t i) { a.op("V_MUL_VF r6, r6, f10, {}", i); });
        a.op("S_LI_FP f1, -inf");
        pass("max", [&](int64_t i) { a.op("V_RED_MAX f1, r6, {}", i); });
        a.op("S_LI_FP f5, 0.0");
        pass("exp", [&](int64_t i) {
          a.op("V_EXP_VF r6, r6, f1, {}", i);
          a.op("V_RED_SUM f5, r6, {}", i);
        });
        a.op("S_RECI_FP f9, f5");
        pass("norm", [&](int64_t i) { a.op("V_MUL_VF r6, r6, f9, {}", i); });
      } else {
        // r8 whole chunks, then the diagonal chunk (masked), then r9 chunks set to 0.
        auto pass = [&](const std::string& stem, const std::function<void()>& op) {
          a.op("S_MV r6, r5");
          a.loop_reg("r8", stem, [&] {
            op();
            a.op("S_ADDI r6, r6, 1");
          });
          op();
        };
        if (scale) pass("scale", [&] { a.op("V_MUL_VF r6, r6, f10, 0"); });
        if (j.rel_bias) {
          // The bias rows of this query are VLEN rows apart; r11 walks them (the diagonal chunk's
          // lanes after the query hold -inf: the mask).
          a.op("S_MV r11, r13");
          pass("bias", [&] {
            a.op("V_ADD_VV r6, r6, r11, 0");
            a.op("S_ADDI r11, r11, {}", vlen);
          });
        } else {
          if (!scale) a.op("S_ADD r6, r5, r8");  // no pass left r6 at the diagonal chunk
          a.op("V_ADD_VV r6, r6, r7, 0");
        }
        a.op("S_LI_FP f1, -inf");
        pass("max", [&] { a.op("V_RED_MAX f1, r6, 0"); });
        a.op("S_LI_FP f5, 0.0");
        pass("exp", [&] {
          a.op("V_EXP_VF r6, r6, f1, 0");
          a.op("V_RED_SUM f5, r6, 0");
        });
        a.op("S_RECI_FP f9, f5");
        pass("norm", [&] { a.op("V_MUL_VF r6, r6, f9, 0"); });
        a.op("S_ADDI r6, r6, 1");
        a.loop_reg("r9", "zero", [&] {
          a.op("V_BCAST_F r6, f0, 0");
          a.op("S_ADDI r6, r6, 1");
        });
        if (j.rel_bias) {
          a.op("S_ADDI r13, r13, -1");
        } else {
          a.op("S_ADDI r7, r7, -1");
        }
      }
      a.op("S_ADDI r5, r5, {}", chunks);
    });
    a.op("H_STORE_V r4, r2, r3, {}", tile);
    a.add_const("r2", tile * row_bytes, "r15");
    if (causal) {
      a.op("S_ADDI r8, r8, 1");
      a.op("S_ADDI r9, r9, -1");
    }
  });
}

}  // namespace

void emit_causal_mask(Asm& a, const Params& p, const Src& tmp) {
  const int64_t vlen = p.vlen;
  a.comment("causal masks: VSRAM rows VLEN-1-r (query r of a VLEN block), built through DRAM");
  a.op("S_LI_FP f1, -inf");
  a.op("S_LI r5, {}", vlen);
  a.op("V_BCAST_F r5, f0, 0");
  a.op("V_BCAST_F r5, f1, 1");
  set_addr(a, "r1", tmp);
  a.op("S_LI r3, {}", 2 * vlen);
  a.op("H_STORE_V r5, r1, r3, 2");
  a.op("S_LI r2, 2");
  a.op("S_LI r4, 0");
  a.op("H_LOAD_V r4, r1, r2, {}", vlen);
}

void emit_attention_head(Asm& a, const Params& p, const AttentionJob& j, const Src& q, int64_t ldq,
                         const Src& k, int64_t ldk, const Src& v, int64_t ldv, const Src& o, int64_t ldo) {
  const int64_t s = j.s, d = j.d;
  MatmulJob scores;
  scores.a = q;
  scores.b = k;
  scores.c = j.scores;
  scores.m = s, scores.k = d, scores.n = s, scores.lda = ldq, scores.ldb = ldk, scores.ldc = s * 2;
  scores.b_transposed = true;
  scores.block = j.block, scores.unroll = j.unroll, scores.dbl = j.dbl;
  MatmulJob pv = scores;
  pv.a = j.scores;
  pv.b = v;
  pv.c = o;
  pv.k = s, pv.n = d, pv.lda = s * 2, pv.ldb = ldv, pv.ldc = ldo, pv.b_transposed = false;
  emit_matmul(a, p, scores, j.work);
  emit_attention_softmax(a, p, j);
  emit_matmul(a, p, pv, j.work);
}

int64_t flash_block_size(const Params& p, const tasks::ResolvedConfig& cfg) {
  const int64_t s = cfg.dim("S"), d = cfg.dim("D");
  const int64_t budget = static_cast<int64_t>(cfg.param("score_budget_bytes"));
  for (int64_t b = 64; b >= static_cast<int64_t>(p.mlen); b /= 2) {
    const bool fits =
        s % b == 0 && b * b * 2 <= budget && 2 * b <= static_cast<int64_t>(p.fpsram_words) &&
        (d / p.mlen + d / p.vlen) * b <= static_cast<int64_t>(p.msram_rows) &&
        b <= static_cast<int64_t>(p.acc_rows) &&
        (d / p.mlen + 3 * d / p.vlen + 2 * b / p.vlen) * b + 3 * p.vlen <= static_cast<int64_t>(p.vsram_rows);
    if (fits) return b;
  }
  return 0;
}

// ------------------------------------------------- task templates: attention, mha, gqa, mqa, flash_attention

GeneratedKernel Generator::attention() {
  const int64_t s = cfg.dim("S"), d = cfg.dim("D");
  const std::string& t = cfg.task;
  const int64_t heads = t == "attention" ? 1 : cfg.dim("HEADS");
  const int64_t kv_heads = t == "gqa" ? cfg.dim("KV_HEADS") : t == "mqa" ? 1 : heads;
  const int64_t group = heads / kv_heads;
  const int64_t head_bytes = s * d * 2;
  AttentionJob j;
  j.s = s, j.d = d;
  j.causal = cfg.dim("CAUSAL") != 0;
  j.scale = cfg.param("scale");
  j.scores = {scratch_sym(), 0};
  j.work = 4 * vlen;  // VSRAM: causal mask rows, then everything else
  MatmulJob probe;
  probe.m = s, probe.k = d, probe.n = s, probe.b_transposed = true;
  mm_knobs(probe);
  j.block = probe.block, j.unroll = probe.unroll, j.dbl = probe.dbl;
  // O[h] and V[h/G] at fixed offsets from Q[h] (r14) and K[h/G] (r12).
  const int64_t v_minus_k = static_cast<int64_t>(layout.region("V").address - layout.region("K").address);
  const int64_t o_minus_q = static_cast<int64_t>(layout.region("O").address - layout.region("Q").address);
  out.summary = fmt::format(
      "per head: scores = Q K^T into scratch, {}softmax(scale * scores) in place, O = P V; {} head(s), "
      "{} per key/value head",
      j.causal ? "causal " : "", heads, group);
  if (j.causal) emit_causal_mask(a, p_, j.scores);
  auto one_head = [&] {
    emit_attention_head(a, p_, j, {"r14", 0}, d * 2, {"r12", 0}, d * 2, {"r12", v_minus_k}, d * 2,
                        {"r14", o_minus_q}, d * 2);
    a.add_const("r14", head_bytes, "r15");
  };
  a.comment("r14 = Q[h] (and O[h] at a fixed offset), r12 = K[h/G] (and V[h/G])");
  a.op("S_LI r14, {}", addr("Q"));
  a.op("S_LI r12, {}", addr("K"));
  a.loop(kv_heads, "kvhead", [&] {
    a.loop(group, "qhead", one_head);
    if (kv_heads > 1) a.add_const("r12", head_bytes, "r15");
  });
  return finish();
}

namespace {

// flash_attention's blocks (see Generator::flash_attention): the registers and the causal mask of the
// diagonal block (set_up), then per query block its Q rows, every key block (key_block) and O / l (run).
class FlashBlocks {
 public:
  FlashBlocks(Asm& assembler, const Params& p, const tasks::ResolvedConfig& config,
              const tasks::DramLayout& dram)
      : a(assembler),
        cfg(config),
        layout(dram),
        vlen(p.vlen),
        mlen(p.mlen),
        blen(p.blen),
        row_bytes(2 * vlen),
        b(flash_block_size(p, config)) {}

  std::string summary() const {
    return fmt::format("{} query blocks x {} key blocks of {} ({}), online softmax", s / b, s / b, b,
                       causal ? "causal: blocks above the diagonal skipped" : "all");
  }

  void set_up() {
    a.op("S_LI r3, {}", d * 2);
    a.op("S_LI r13, {}", row_bytes);
    a.op("S_LI_FP f1, -inf");
    a.op("S_LI_FP f10, {}", fmt::format("{:.9g}", cfg.param("scale")));
    if (causal) {
      a.comment(
          "causal mask of the diagonal block (0 / -inf), built through O's DRAM region before O is written");
      a.op("S_LI r5, {}", mask_rows + vlen);
      a.op("V_BCAST_F r5, f0, 0");
      a.op("V_BCAST_F r5, f1, 1");
      a.op("S_LI r1, {}", addr("O"));
      a.op("H_STORE_V r5, r1, r13, 2");
      a.op("S_LI r2, 2");
      a.op("S_LI r4, {}", mask_rows);
      a.op("H_LOAD_V r4, r1, r2, {}", vlen);
      // Row c*B + q of the block: chunk c of query q's mask (whole chunks left of the diagonal 0, the
      // diagonal chunk the mask row for q % VLEN, chunks right of it -inf).
      a.op("S_LI r6, {}", mask_blk);
      for (int64_t c = 0; c < sc; ++c) {
        for (int64_t q = 0; q < b; ++q) {
          const int64_t row = c * b + q;
          if (c < q / vlen) {
            a.op("V_BCAST_F r6, f0, {}", row);
          } else if (c > q / vlen) {
            a.op("V_BCAST_F r6, f1, {}", row);
          } else {
            a.op("S_LI r7, {}", mask_rows + vlen - 1 - q % vlen - row);
            a.op("V_ADD_VF r6, r7, f0, {}", row);
          }
          if (row == 511) {
            a.op("S_ADDI r6, r6, 512");
          }
        }
      }
    }
  }

  void run() {
    a.op("S_LI r1, {}", addr("Q"));
    if (causal) a.op("S_LI r14, 0");
    a.loop(s / b, "qblock", [&] {
      a.op("S_LI r6, {}", q_row);
      a.op("S_MV r11, r1");
      a.loop(kt, "qload", [&] {
        a.op("H_LOAD_V r6, r11, r3, {}", b);
        a.op("S_ADDI r6, r6, {}", b);
        a.op("S_ADDI r11, r11, {}", vlen * 2);
      });
      a.op("S_LI r6, {}", o_row);
      a.loop(dch * b / 4, "ozero", [&] {
        for (int u = 0; u < 4; ++u) a.op("V_BCAST_F r6, f0, {}", u);
        a.op("S_ADDI r6, r6, 4");
      });
      a.op("S_LI r10, 0");
      a.loop(b, "state", [&] {
        a.op("S_ST_FP f1, r10, 0");
        a.op("S_ST_FP f0, r10, {}", b);
        a.op("S_ADDI r10, r10, 1");
      });
      a.op("S_LI r4, {}", addr("K"));
      if (causal) {
        a.loop_reg("r14", "kblock", [&] { key_block(false); });
        key_block(true);
      } else {
        a.loop(s / b, "kblock", [&] { key_block(false); });
      }
      a.comment("O / l, then store");
      a.op("S_LI r7, {}", o_row);
      a.op("S_LI r10, 0");
      a.loop(b, "norm", [&] {
        a.op("S_LD_FP f2, r10, {}", b);
        a.op("S_RECI_FP f2, f2");
        for (int64_t c = 0; c < dch; ++c) a.op("V_MUL_VF r7, r7, f2, {}", c * b);
        a.op("S_ADDI r7, r7, 1");
        a.op("S_ADDI r10, r10, 1");
      });
      a.add_const_to("r11", "r1", q_to_o, "r15");
      a.op("S_LI r6, {}", o_row);
      a.loop(dch, "ostore", [&] {
        a.op("H_STORE_V r6, r11, r3, {}", b);
        a.op("S_ADDI r6, r6, {}", b);
        a.op("S_ADDI r11, r11, {}", vlen * 2);
      });
      a.add_const("r1", b * d * 2, "r15");
      if (causal) a.op("S_ADDI r14, r14, 1");
    });
  }

 private:
  void stream(const char* mm, int64_t acc, int64_t vrow) {
    a.op("S_LI r8, {}", acc);
    a.op("S_LI r9, {}", vrow);
    a.loop_last(steps / 2, "mm", [&] {
      a.op("{} r8, r9, 0", mm);
      a.op("{} r8, r9, {}", mm, blen);
      a.op("S_ADDI r8, r8, {}", 2 * blen);
      a.op("S_ADDI r9, r9, {}", 2 * blen);
    });
  }

  // Output columns of MLEN features, one at a time: load the weight tile at r7 (`ldw`: M_LDW or
  // M_LDWT), stream the input rows from `src`, accumulate the remaining `pieces` - 1 tiles (r11 steps
  // by `tile_step`, r9 continues into the next input chunk), write the column to `dst` + B per column.
  // The scores (Q K^T) and P V products differ only in these operands.
  void block_product(const char* ldw, int64_t w0, int64_t tile_step, int64_t column_step, int64_t src,
                     int64_t dst, int64_t columns, int64_t pieces, const std::array<const char*, 4>& stems) {
    a.op("S_LI r7, {}", w0);
    a.op("S_LI r12, {}", dst);
    a.loop(columns, stems[0], [&] {
      a.op("S_MV r11, r7");
      a.op("{} r11", ldw);
      stream("M_MM", 0, src);
      a.loop(pieces - 1, stems[1], [&] {
        a.op("S_ADDI r11, r11, {}", tile_step);
        a.op("{} r11", ldw);
        a.op("S_LI r8, 0");
        a.loop_last(steps / 2, stems[2], [&] {
          a.op("M_MMA r8, r9, 0");
          a.op("M_MMA r8, r9, {}", blen);
          a.op("S_ADDI r8, r8, {}", 2 * blen);
          a.op("S_ADDI r9, r9, {}", 2 * blen);
        });
      });
      a.op("S_MV r10, r12");
      a.op("S_LI r8, 0");
      a.loop_last(steps, stems[3], [&] {
        a.op("M_WO r10, r8, 0");
        a.op("S_ADDI r10, r10, {}", blen);
        a.op("S_ADDI r8, r8, {}", blen);
      });
      a.op("S_ADDI r12, r12, {}", b);
      a.op("S_ADDI r7, r7, {}", column_step);
    });
  }

  // rows [first, first + count) of VSRAM, 4 per iteration: op(d_reg, offset)
  void rows_loop(int64_t first, int64_t count, const std::string& stem,
                 const std::function<void(int64_t)>& op) {
    a.op("S_LI r6, {}", first);
    a.loop(count / 4, stem, [&] {
      for (int64_t u = 0; u < 4; ++u) op(u);
      a.op("S_ADDI r6, r6, 4");
      a.op("S_ADDI r7, r7, 4");
    });
  }

  void key_block(bool masked) {
    a.op("S_LI r6, 0");
    a.op("S_MV r11, r4");
    a.loop(kt, "kload", [&] {
      a.op("H_LOAD_M r6, r11, r3, {}", b);
      a.op("S_ADDI r6, r6, {}", b);
      a.op("S_ADDI r11, r11, {}", mlen * 2);
    });
    a.add_const_to("r11", "r4", k_to_v, "r15");
    a.op("S_LI r6, {}", v_ms);
    a.loop(dch, "vload", [&] {
      a.op("H_LOAD_M r6, r11, r3, {}", b);
      a.op("S_ADDI r6, r6, {}", b);
      a.op("S_ADDI r11, r11, {}", mlen * 2);
    });
    a.comment("scores, one column of MLEN keys at a time");
    block_product("M_LDWT", 0, b, mlen, q_row, s_row, b / mlen, kt, {"kcol", "kc", "mma", "swo"});
    a.op("S_LI r7, {}", mask_blk);
    rows_loop(s_row, sc * b, "scale", [&](int64_t u) { a.op("V_MUL_VF r6, r6, f10, {}", u); });
    if (masked) {
      a.op("S_LI r7, {}", mask_blk);
      rows_loop(s_row, sc * b, "mask", [&](int64_t u) { a.op("V_ADD_VV r6, r6, r7, {}", u); });
    }
    a.comment("online softmax, query row by row");
    a.op("S_LI r6, {}", s_row);
    a.op("S_LI r7, {}", o_row);
    a.op("S_LI r10, 0");
    a.loop(b, "qrow", [&] {
      a.op("S_LD_FP f2, r10, 0");
      a.op("S_LD_FP f3, r10, {}", b);
      a.op("S_ADD_FP f4, f2, f0");
      for (int64_t c = 0; c < sc; ++c) a.op("V_RED_MAX f4, r6, {}", c * b);
      a.op("S_SUB_FP f5, f2, f4");
      a.op("S_EXP_FP f5, f5");
      a.op("S_ST_FP f4, r10, 0");
      for (int64_t c = 0; c < sc; ++c) a.op("V_EXP_VF r6, r6, f4, {}", c * b);
      a.op("S_MUL_FP f6, f3, f5");
      for (int64_t c = 0; c < sc; ++c) a.op("V_RED_SUM f6, r6, {}", c * b);
      for (int64_t c = 0; c < dch; ++c) a.op("V_MUL_VF r7, r7, f5, {}", c * b);
      a.op("S_ST_FP f6, r10, {}", b);
      a.op("S_ADDI r6, r6, 1");
      a.op("S_ADDI r7, r7, 1");
      a.op("S_ADDI r10, r10, 1");
    });
    a.comment("T = P V_blk, one column of MLEN output features at a time; O += T");
    block_product("M_LDW", v_ms, mlen, b, s_row, t_row, dch, sc, {"dcol", "pc", "pmma", "pwo"});
    a.op("S_LI r7, {}", t_row);
    rows_loop(o_row, dch * b, "oadd", [&](int64_t u) { a.op("V_ADD_VV r6, r6, r7, {}", u); });
    a.add_const("r4", b * d * 2, "r15");
  }

  Asm& a;
  const tasks::ResolvedConfig& cfg;
  const tasks::DramLayout& layout;
  const int64_t vlen, mlen, blen, row_bytes;
  const int64_t s = cfg.dim("S"), d = cfg.dim("D");
  const bool causal = cfg.dim("CAUSAL") != 0;
  const int64_t b;
  const int64_t kt = d / mlen, dch = d / vlen, sc = b / vlen;  // score chunks per row
  const int64_t steps = b / blen;
  const int64_t q_row = 0, s_row = kt * b, o_row = s_row + sc * b, t_row = o_row + dch * b,
                mask_blk = t_row + dch * b, mask_rows = mask_blk + sc * b;
  const int64_t v_ms = kt * b;  // MSRAM: K block (kt x B rows), then V block (dch x B rows)
  const int64_t k_to_v = static_cast<int64_t>(layout.region("V").address - layout.region("K").address);
  const int64_t q_to_o = static_cast<int64_t>(layout.region("O").address - layout.region("Q").address);
};

}  // namespace

GeneratedKernel Generator::flash_attention() {
  // Blocks of B queries against blocks of B keys, the B x B score block (the budget) in VSRAM:
  // scores = Q_blk K_blk^T (K tiles loaded transposed), scale (and the causal mask on the diagonal
  // block), then per query row the online softmax: m_new = max(m, row max), alpha = exp(m - m_new),
  // p = exp(s - m_new) in place, l = l alpha + sum p, O *= alpha (m and l in FPSRAM); then O += P V_blk.
  // O (unnormalised, BF16 in VSRAM) is divided by l after the last key block and stored.
  FlashBlocks blocks(a, p_, cfg, layout);
  out.knobs = {};
  out.summary = blocks.summary();
  blocks.set_up();
  blocks.run();
  return finish();
}
}  // namespace kcraft::systolic::template_detail
