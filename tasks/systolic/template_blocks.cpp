#include "tasks/systolic/templates.h"

#include <algorithm>

#include <fmt/format.h>

#include "tasks/golden/references.h"

namespace kcraft::systolic::template_detail {

// ---------------------------------------------------------------- level 3: conv_block's tail, T5's bias

namespace {

// y = max(c * scale + shift (+ x), 0) per pixel row of F channels (scale, shift [F]), the batch-norm
// and ReLU of conv_block; c, x and y dense [pixels, F]. A tile of pixels at a time, double buffered.
void emit_bn_relu(Asm& a, const Params& p, const Src& c, const Src& x, bool residual,
                  const std::string& scale, const std::string& shift, const Src& y, int64_t pixels,
                  int64_t f) {
  const int64_t vlen = p.vlen, row_bytes = 2 * vlen, chunks = f / vlen;
  int64_t per_tile = 1;  // pixels per tile: the largest divisor of `pixels` within 512 VSRAM rows
  for (int64_t d = 1; d <= pixels && d * chunks <= 512; ++d) {
    if (pixels % d == 0) per_tile = d;
  }
  const int64_t tile = per_tile * chunks;
  const int64_t scale_row = 0, shift_row = chunks, cbuf[2] = {2 * chunks, 2 * chunks + tile},
                xbuf[2] = {2 * chunks + 2 * tile, 2 * chunks + 3 * tile};
  a.comment(fmt::format("{} tiles of {} pixels: c * scale + shift{}, ReLU", pixels / per_tile, per_tile,
                        residual ? " + x" : ""));
  a.op("S_LI r3, {}", row_bytes);
  a.op("S_LI r9, {}", scale_row);
  a.op("S_LI r5, {}", scale);
  a.op("H_LOAD_V r9, r5, r3, {}", chunks);
  a.op("S_LI r10, {}", shift_row);
  a.op("S_LI r5, {}", shift);
  a.op("H_LOAD_V r10, r5, r3, {}", chunks);
  set_addr(a, "r1", c);
  set_addr(a, "r2", x);
  set_addr(a, "r4", y);
  auto load = [&](int b) {
    a.op("S_LI r5, {}", cbuf[b]);
    a.op("H_LOAD_V r5, r1, r3, {}", tile);
    a.add_const("r1", tile * row_bytes, "r15");
    if (residual) {
      a.op("S_LI r6, {}", xbuf[b]);
      a.op("H_LOAD_V r6, r2, r3, {}", tile);
      a.add_const("r2", tile * row_bytes, "r15");
    }
  };
  auto compute_store = [&](int b) {
    a.op("S_LI r5, {}", cbuf[b]);
    a.op("S_LI r6, {}", xbuf[b]);
    a.loop(per_tile, "pixel", [&] {
      // r9/r10 stay at scale/shift: the shared row offset picks the channel chunk in all three rows.
      for (int64_t cc = 0; cc < chunks; ++cc) a.op("V_MUL_VV r5, r5, r9, {}", cc);
      for (int64_t cc = 0; cc < chunks; ++cc) a.op("V_ADD_VV r5, r5, r10, {}", cc);
      if (residual) {
        for (int64_t cc = 0; cc < chunks; ++cc) a.op("V_ADD_VV r5, r5, r6, {}", cc);
      }
      for (int64_t cc = 0; cc < chunks; ++cc) a.op("V_MAX_VF r5, r5, f0, {}", cc);
      a.op("S_ADDI r5, r5, {}", chunks);
      a.op("S_ADDI r6, r6, {}", chunks);
    });
    a.op("S_LI r5, {}", cbuf[b]);
    a.op("H_STORE_V r5, r4, r3, {}", tile);
    a.add_const("r4", tile * row_bytes, "r15");
  };
  stream_tiles(a, pixels / per_tile, true, load, compute_store);
}

// T5's relative-position bias as one table per head in DRAM (tables + n * table_stride): T[t] =
// bias[n, bucket(S-1-t)] for t < S and -inf for S <= t < 2S, so row i of the head's [S, S] bias (with
// the causal mask) is T[S-1-i ..]; emit_attention_softmax reads it VLEN rows at a time at a stride of
// one element. Every bias[n, b] is broadcast into VSRAM rows (lane 0 of the row loaded at bias[n, b],
// the others masked to -inf by mask row VLEN-1, then a max reduction), and each run of equal buckets is
// one store of those rows; the runs go out in address order, each overwriting the previous one's
// overhang, the -inf rows last. VSRAM rows from `vbase`; the causal mask rows must be built.
void emit_rel_bias_tables(Asm& a, const Params& p, int64_t s, int64_t heads, const std::string& bias,
                          const Src& tables, int64_t table_stride, int64_t num_buckets, int64_t max_distance,
                          int64_t vbase) {
  const int64_t vlen = p.vlen;
  struct Run {
    int64_t bucket, t_lo, len;
  };
  std::vector<Run> runs;  // in increasing t, i.e. decreasing distance p = S-1-t
  for (int64_t dist = s - 1; dist >= 0; --dist) {
    const int64_t b = tasks::golden::t5_relative_bucket(dist, num_buckets, max_distance);
    if (!runs.empty() && runs.back().bucket == b) {
      ++runs.back().len;
    } else {
      runs.push_back({b, s - 1 - dist, 1});
    }
  }
  int64_t copies = 1;
  for (const auto& r : runs) copies = std::max(copies, (r.len + vlen - 1) / vlen);
  const int64_t entries = heads * num_buckets;
  const int64_t loaded = vbase, bcast = loaded + entries, tmp = bcast + entries * copies, neg_inf = tmp + 1;
  a.comment(fmt::format("relative-bias tables: {} runs of equal buckets per head", runs.size()));
  a.op("S_LI r1, {}", bias);
  a.op("S_LI r2, 2");
  a.op("S_LI r5, {}", loaded);
  a.op("H_LOAD_V r5, r1, r2, {}", entries);
  a.op("S_LI r6, {}", bcast);
  a.op("S_LI r7, {}", vlen - 1);
  a.op("S_LI r8, {}", tmp);
  a.loop(entries, "entry", [&] {
    a.op("V_ADD_VV r8, r5, r7, 0");
    a.op("S_LI_FP f1, -inf");
    a.op("V_RED_MAX f1, r8, 0");
    for (int64_t c = 0; c < copies; ++c) a.op("V_BCAST_F r6, f1, {}", c);
    a.op("S_ADDI r5, r5, 1");
    a.op("S_ADDI r6, r6, {}", copies);
  });
  a.op("S_LI_FP f1, -inf");
  a.op("S_LI r6, {}", neg_inf);
  for (int64_t c = 0; c < s / vlen; ++c) a.op("V_BCAST_F r6, f1, {}", c);
  a.op("S_LI r3, {}", 2 * vlen);
  a.op("S_LI r9, {}", bcast);
  set_addr(a, "r10", tables);
  a.loop(heads, "table", [&] {
    for (const auto& r : runs) {
      a.op("S_ADDI r6, r9, {}", r.bucket * copies);
      a.op("S_ADDI r7, r10, {}", r.t_lo * 2);
      a.op("H_STORE_V r6, r7, r3, {}", (r.len + vlen - 1) / vlen);
    }
    a.op("S_LI r6, {}", neg_inf);
    a.add_const_to("r7", "r10", s * 2, "r15");
    a.op("H_STORE_V r6, r7, r3, {}", s / vlen);
    a.op("S_ADDI r9, r9, {}", num_buckets * copies);
    a.add_const("r10", table_stride, "r15");
  });
}

}  // namespace

// ---------------------------------------------------------------- level 3: composites
//
// The L1/L2 pieces (templates.h) in sequence, intermediates in the scratch region (offsets below), each phase
// announced by a store to its marker region when the layout has one.
void Generator::begin_phase(const std::string& name) {
  a.blank();
  a.comment("---- phase " + name);
  const std::string region = tasks::phase_region_name(name);
  if (layout.find(region) == nullptr) return;
  a.op("S_LI r15, {}", addr(region));
  a.op("H_STORE_V r0, r15, r0, 1");  // any one row marks the start
}

void Generator::composite_matmul(MatmulJob& j) const {
  j.block = knob(values, all_knobs, "block_rows");
  j.unroll = knob(values, all_knobs, "unroll");
  j.dbl = knob(values, all_knobs, "double_buffer") != 0;
}

Src Generator::at(int64_t offset) const {
  return Src{scratch_sym(), offset};
}

GeneratedKernel Generator::conv_block() {
  const auto g = conv_geometry(cfg);
  const int64_t c = cfg.dim("C"), f = cfg.dim("F"), pixels = g.oh * g.ow;
  const int64_t k = g.kh * g.kw * c;
  const bool residual = cfg.dim("RESIDUAL") != 0;
  // Scratch: the im2col matrix [OH*OW, K], then the convolution's output c [OH*OW, F].
  const int64_t conv_out = pixels * k * 2;
  MatmulJob j;
  j.a = at(0);
  j.b = {addr("w"), 0};
  j.c = at(conv_out);
  j.m = pixels, j.k = k, j.n = f, j.lda = k * 2, j.ldc = f * 2;
  mm_knobs(j);
  out.summary = fmt::format(
      "conv2d (im2col [{} x {}] and a {}x{}x{} product) into scratch, then c * scale + shift{}, ReLU", pixels,
      k, pixels, k, f, residual ? " + x" : "");
  begin_phase("conv");
  emit_im2col(a, p_, g, c, {addr("x"), 0}, at(0));
  emit_matmul(a, p_, j);
  begin_phase("batch_norm_relu");
  emit_bn_relu(a, p_, at(conv_out), {addr("x"), 0}, residual, addr("scale"), addr("shift"), {addr("y"), 0},
               pixels, f);
  return finish();
}

GeneratedKernel Generator::decoder_block() {
  const bool llama = cfg.task == "decoder_block_llama";
  const int64_t s = cfg.dim("S"), d = cfg.dim("D"), heads = cfg.dim("HEADS"), dh = cfg.dim("DH"),
                f = cfg.dim("F");
  const int64_t kv_heads = llama ? cfg.dim("KV_HEADS") : heads;
  const int64_t group = heads / kv_heads, hd = heads * dh;
  // Scratch, in bytes: h, x2, the second norm's output n2 ([S, D] each), q and the attention output o
  // (head-major [HEADS, S, DH] each, o at a fixed distance from q), k and v (head-major [KV_HEADS, S,
  // DH]), the [S, S] scores, then the FFN's hidden tensors (LLaMA: g and u, T5: one [S, F]; T5's
  // relative-bias tables live there during the attention, one per head_bytes).
  const int64_t sd = s * d * 2, head_bytes = s * dh * 2;
  const int64_t h_at = 0, x2_at = sd, n2_at = 2 * sd, q_at = 3 * sd, o_at = q_at + heads * head_bytes,
                k_at = o_at + heads * head_bytes, v_at = k_at + kv_heads * head_bytes,
                scores_at = v_at + kv_heads * head_bytes, hidden_at = scores_at + s * s * 2,
                hidden2_at = hidden_at + s * f * 2;
  MatmulJob knobs_probe;
  knobs_probe.m = s, knobs_probe.k = d, knobs_probe.n = f, knobs_probe.b_transposed = true;
  mm_knobs(knobs_probe);
  out.summary = fmt::format(
      "{} norm, q/k/v projections per head, {}causal attention per head (as gqa), Wo + residual, norm, "
      "{} FFN + residual; intermediates in scratch",
      llama ? "RMS" : "T5 RMS-style", llama ? "RoPE, " : "relative-bias ", llama ? "SwiGLU" : "ReLU");
  auto norm = [&](const Src& x, const std::string& gamma, const Src& y) {
    RowNormJob j;
    j.kind = "rms_norm";
    j.x = x, j.y = y, j.gamma = gamma;
    j.m = s, j.n = d, j.eps = cfg.param("eps");
    emit_row_norm(a, p_, j);
  };
  // y = x W^T, x [S, k] (row stride lda), W [n, k] nn.Linear weights at w, y [S, n] (row stride ldc).
  auto project = [&](const Src& x, int64_t k, int64_t lda, const Src& w, int64_t ldw, int64_t n, const Src& y,
                     int64_t ldc) {
    MatmulJob j;
    j.a = x, j.b = w, j.c = y;
    j.m = s, j.k = k, j.n = n, j.lda = lda, j.ldb = ldw, j.ldc = ldc, j.b_transposed = true;
    composite_matmul(j);
    return j;
  };

  begin_phase("attn_norm");
  norm({addr("x"), 0}, addr("g_attn"), at(h_at));

  begin_phase("qkv");
  // Head by head: r12 walks the weights' row blocks of DH rows, r14 the head-major outputs.
  auto project_heads = [&](const std::string& w, int64_t count, int64_t dst) {
    a.comment(fmt::format("{} heads of h {}^T", count, w));
    a.op("S_LI r12, {}", w);
    set_addr(a, "r14", at(dst));
    a.loop(count, "proj", [&] {
      emit_matmul(a, p_, project(at(h_at), d, d * 2, {"r12", 0}, d * 2, dh, {"r14", 0}, dh * 2));
      a.add_const("r12", dh * d * 2, "r15");
      a.add_const("r14", head_bytes, "r15");
    });
  };
  project_heads(addr("Wq"), heads, q_at);
  project_heads(addr("Wk"), kv_heads, k_at);
  project_heads(addr("Wv"), kv_heads, v_at);

  if (llama) {
    begin_phase("rope");
    RopeJob r;
    r.cos = addr("cos"), r.sin = addr("sin");
    r.s = s, r.d = dh;
    r.x = r.y = at(q_at);
    r.heads = heads;
    emit_rope(a, p_, r);
    r.x = r.y = at(k_at);
    r.heads = kv_heads;
    emit_rope(a, p_, r);
  }

  begin_phase("attention");
  AttentionJob att;
  att.s = s, att.d = dh, att.causal = true;
  att.scale = llama ? cfg.param("scale") : 1.0;
  att.scores = at(scores_at);
  att.work = 4 * vlen;
  att.block = knobs_probe.block, att.unroll = knobs_probe.unroll, att.dbl = knobs_probe.dbl;
  emit_causal_mask(a, p_, at(scores_at));
  if (!llama) {
    // Head n's table at hidden + n * head_bytes: a fixed distance from q[n] (r14).
    emit_rel_bias_tables(a, p_, s, heads, addr("bias"), at(hidden_at), head_bytes,
                         static_cast<int64_t>(cfg.param("num_buckets")),
                         static_cast<int64_t>(cfg.param("max_distance")), att.work);
    att.rel_bias = true;
    att.rel_table = {"r14", hidden_at - q_at};
  }
  // As the gqa template: r14 = q[n] (o[n] at a fixed distance), r12 = k[n/G] (v[n/G] likewise).
  auto one_head = [&] {
    emit_attention_head(a, p_, att, {"r14", 0}, dh * 2, {"r12", 0}, dh * 2, {"r12", v_at - k_at}, dh * 2,
                        {"r14", o_at - q_at}, dh * 2);
    a.add_const("r14", head_bytes, "r15");
  };
  set_addr(a, "r14", at(q_at));
  set_addr(a, "r12", at(k_at));
  if (group == 1) {
    a.loop(heads, "head", [&] {
      one_head();
      a.add_const("r12", head_bytes, "r15");
    });
  } else {
    // One loop level for the heads of a group (the causal softmax needs the other three).
    for (int64_t g = 0; g < kv_heads; ++g) {
      if (g > 0) a.add_const("r12", head_bytes, "r15");
      a.loop(group, "qhead", one_head);
    }
  }

  begin_phase("out_proj");
  a.comment("x2 = x + o Wo^T (the product through y, written again by the FFN)");
  auto out_proj = project(at(o_at), hd, dh * 2, {addr("Wo"), 0}, hd * 2, d, {addr("y"), 0}, d * 2);
  out_proj.a_panel_cols = dh, out_proj.a_panel_stride = head_bytes;  // o is head-major
  emit_matmul(a, p_, out_proj);
  emit_binary(a, p_, "V_ADD_VV", {addr("x"), 0}, {addr("y"), 0}, at(x2_at), s * d / vlen);

  begin_phase("ffn_norm");
  norm(at(x2_at), addr("g_ffn"), at(n2_at));

  begin_phase("ffn");
  FfnJob ffn;
  ffn.m = s, ffn.d = d, ffn.f = f;
  ffn.x = at(n2_at), ffn.y = {addr("y"), 0}, ffn.hidden = at(hidden_at);
  ffn.block = knobs_probe.block, ffn.unroll = knobs_probe.unroll, ffn.dbl = knobs_probe.dbl;
  if (llama) {
    ffn.activation = "swiglu";
    ffn.hidden2 = at(hidden2_at);
    ffn.w_gate = addr("Wg"), ffn.w_up = addr("Wu"), ffn.w_down = addr("Wd");
  } else {
    ffn.activation = "relu";
    ffn.w_up = addr("Wi"), ffn.w_down = addr("Wo_ff");
  }
  emit_ffn(a, p_, ffn);
  a.comment("y = x2 + FFN");
  emit_binary(a, p_, "V_ADD_VV", at(x2_at), {addr("y"), 0}, {addr("y"), 0}, s * d / vlen);
  return finish();
}
}  // namespace kcraft::systolic::template_detail
