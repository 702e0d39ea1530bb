#include "tasks/vliw/templates.h"

#include <algorithm>
#include <stdexcept>

#include <fmt/format.h>

namespace kcraft::vliw::template_detail {

// ---------------------------------------------------------------- level 3: composite blocks
//
// The level-3 blocks are sequences of the family templates (templates.h), each reading and writing DRAM
// regions at byte offsets, with every intermediate in the scratch region (docs/vliw.md "Composite baselines"
// lists where). Each step waits for its own stores before the next one starts, and DM holds nothing across
// steps. A phase starts with begin_phase: when the layout has a region phase_<name>, one DMA store of a DM
// row to it (waited for) marks the phase for the DRAM model's cycle attribution.

namespace {

void begin_phase(Ctx& c, const std::string& name) {
  c.k.comment("phase " + name);
  const std::string region = tasks::phase_region_name(name);
  if (c.layout.find(region) == nullptr) return;
  c.li_addr(13, region);
  c.k.li(14, 1);
  // waited for (lock 12): a DMA store reaches DRAM when the engine gets to it, which may be late in a
  // load-heavy phase, and the mark must be timed at the phase's start
  c.k.op("C_DMAST 0, r0, r13, r0, r14, 12", {{}, {}, -1, true});
  c.k.op("C_ACQ 12", {{}, {}, -1, true});
}

// y = max(c * scale[f] + shift[f] (+ x), 0) over [pixels, F] rows: batch-norm (inference), the optional
// residual and ReLU in FP32 with one rounding. The tensor streams through DM in tiles of whole pixels;
// scale and shift (F/VLEN rows each) stay in DM; the residual x is the stream's pair.
struct ChannelAffineJob {
  int64_t pixels = 0, f = 0;
  std::string in, out, scale = "scale", shift = "shift", residual;  // residual "": none
  int64_t in_offset = 0;
  bool last = true;      // false: wait for the stores at the end
  bool compact = false;  // stream_compact (needs last = false)
};

GeneratedKernel channel_affine_relu(Ctx& c, const ChannelAffineJob& job) {
  KernelBuilder& k = c.k;
  const int64_t fv = job.f / c.vlen, rb = c.rb;
  const bool residual = !job.residual.empty();
  auto round_up = [&](int64_t rows) { return (rows + c.banks - 1) / c.banks * c.banks; };
  const int64_t scale_row = 0, shift_row = round_up(fv), base = round_up(shift_row + fv);
  const int64_t buffers = 2;
  const int64_t room = (c.dm_rows - base) / buffers / (residual ? 2 : 1) / fv;
  if (room < 1) throw std::invalid_argument("channel affine: a pixel does not fit DM");
  const int64_t pixels = divisor_at_most(job.pixels, std::min<int64_t>(room, 64));
  const int64_t tile = pixels * fv;
  const int64_t unroll = fv * std::max<int64_t>(1, 4 / fv);
  GeneratedKernel out;
  out.summary = fmt::format(
      "{} tiles of {} pixels through 2 DM buffers; per row c * scale + shift{} in FP32, ReLU on the BF16 "
      "result; scale and shift resident in DM",
      job.pixels / pixels, pixels, residual ? " + x" : "");
  k.comment(fmt::format("scale and shift in DM rows {} and {}; v0 = +0.0", scale_row, shift_row));
  k.op("V_BCST v0, r0");
  k.li(11, rb);
  k.li(14, fv);
  c.li_addr(13, job.scale);
  k.li(12, scale_row * rb);
  k.op(fmt::format("C_DMALD {}, r12, r13, r11, r14, 15", c.ch(2)));
  c.li_addr(13, job.shift);
  k.li(12, shift_row * rb);
  k.op(fmt::format("C_DMALD {}, r12, r13, r11, r14, 15", c.ch(2)));
  k.op("C_ACQ 15", {{}, {kGamma}});
  k.op("C_ACQ 15", {{}, {kGamma}});
  Stream s;
  s.tiles = job.pixels / pixels;
  s.tile_rows = tile;
  s.buffers = buffers;
  s.base_row = base;
  s.in_offset = job.in_offset;
  s.fence_lock = job.last ? -1 : 14;
  s.compact = job.compact;
  if (residual) {
    s.paired = true;
    s.pair_offset = c.addr(job.residual) - c.addr(job.in) - job.in_offset;
  }
  stream(c, s, job.in, job.out, [&](int64_t b) {
    const int acq = static_cast<int>(kAcqBase + b), st = static_cast<int>(kOutBase + b);
    k.op(fmt::format("S_PMOV p0, {}", R(5 + b)));
    k.op(fmt::format("S_PMOV p1, {}", R(5 + b)));
    if (residual) {
      k.li(12, tile * rb);
      k.op(fmt::format("S_ADD r12, {}, r12", R(5 + b)));
      k.op("S_PMOV p4, r12");
    }
    k.li(12, scale_row * rb);
    k.op("S_PMOV p2, r12");
    k.li(12, shift_row * rb);
    k.op("S_PMOV p3, r12");
    pipeline(k, tile, 3, unroll, [&](int stage, int64_t u) {
      const int64_t set = u % 2, x = 1 + 5 * set, sc = x + 1, sh = x + 2, res = x + 3, y = x + 4;
      const int64_t t = 2 * set, w = 2 * set + 1;
      const int64_t tinc = (u % fv == fv - 1 ? 1 - fv : 1) * rb;
      if (stage == 0) {
        k.op(fmt::format("L_VLD {}, p0, {}", V(x), rb), {{acq}, {}, -1});
        k.op(fmt::format("L_VLD {}, p2, {}", V(sc), tinc), {{kGamma}, {}, -1});
        k.op(fmt::format("L_VLD {}, p3, {}", V(sh), tinc), {{kGamma}, {}, -1});
        if (residual) k.op(fmt::format("L_VLD {}, p4, {}", V(res), rb), {{acq}, {}, -1});
      } else if (stage == 1) {
        k.op(fmt::format("A_VMUL {}, {}, {}", A(t), V(x), V(sc)));  // exact
        k.op(fmt::format("A_UPS {}, {}", A(w), V(sh)));
        k.op(fmt::format("A_ADD {}, {}, {}", A(t), A(t), A(w)));
        if (residual) {
          k.op(fmt::format("A_UPS {}, {}", A(w), V(res)));
          k.op(fmt::format("A_ADD {}, {}, {}", A(t), A(t), A(w)));
        }
        k.op(fmt::format("V_SRS {}, {}", V(y), A(t)));
        k.op(fmt::format("V_MAX {}, {}, v0", V(y), V(y)));
      } else {
        k.op(fmt::format("L_VST {}, p1, {}", V(y), rb), {{}, {st}, -1});
      }
    });
  });
  if (job.last) k.op("C_HALT", {{}, {}, -1, true});
  return out;
}

// Where a decoder block's intermediates live: byte offsets into the scratch region.
struct DecoderScratch {
  int64_t h = 0, x2 = 0, n2 = 0, q = 0, k = 0, v = 0, a = 0, scores = 0, ffn = 0, end = 0;
};

DecoderScratch decoder_scratch(const tasks::ResolvedConfig& cfg) {
  const int64_t s = cfg.dim("S"), d = cfg.dim("D"), heads = cfg.dim("HEADS"), dh = cfg.dim("DH");
  const bool llama = cfg.task == "decoder_block_llama";
  const int64_t kv = llama ? cfg.dim("KV_HEADS") : heads, f = cfg.dim("F");
  DecoderScratch o;
  int64_t at = 0;
  auto take = [&](int64_t bytes) {
    const int64_t r = at;
    at += bytes;
    return r;
  };
  o.h = take(s * d * 2);
  o.x2 = take(s * d * 2);
  o.n2 = take(s * d * 2);
  o.q = take(s * heads * dh * 2);  // q, k, v head-major and adjacent: one loop of projections, one RoPE
  o.k = take(s * kv * dh * 2);
  o.v = take(s * kv * dh * 2);
  o.a = take(s * heads * dh * 2);  // token-major [S, HEADS*DH], the output projection's A
  o.scores = take(s * s * 2);
  o.ffn = take((llama ? 2 : 1) * s * f * 2);  // LLaMA: g then u; T5: the hidden tensor
  o.end = at;
  return o;
}

}  // namespace

GeneratedKernel conv_block(Ctx& c, const KnobValues& values, const std::vector<Knob>& knobs) {
  const ConvShape d = conv_shape(c.cfg);
  const bool residual = c.cfg.dim("RESIDUAL") != 0;
  if (residual && (d.f != d.c || d.oh != d.h || d.ow != d.w))
    throw std::invalid_argument("conv_block: RESIDUAL = 1 needs F = C and an output the size of the input");
  const int64_t c_offset = d.m * d.k * 2;  // scratch: the im2col matrix, then c
  begin_phase(c, "conv");
  ConvJob conv;
  conv.out = "scratch";
  conv.out_offset = c_offset;
  conv.last = false;
  GeneratedKernel out = conv2d(c, conv, values, knobs);
  begin_phase(c, "batch_norm_relu");
  ChannelAffineJob bn;
  bn.pixels = d.m;
  bn.f = d.f;
  bn.in = "scratch";
  bn.in_offset = c_offset;
  bn.out = "y";
  if (residual) bn.residual = "x";
  bn.last = false;
  bn.compact = true;  // less code: the small tile's IMEM holds C4 and C5 then
  const GeneratedKernel a = channel_affine_relu(c, bn);
  c.k.op("C_HALT", {{}, {}, -1, true});
  out.summary = fmt::format("phase conv: {}; the product into scratch (c); phase batch_norm_relu: {}",
                            out.summary, a.summary);
  return out;
}

namespace {

// A decoder block, phase by phase: attention_half() (attn_norm, qkv, rope, attention, out_proj with the
// residual), ffn_half() (ffn_norm, ffn with the residual), finish() (the summary and knobs). The norms,
// residual adds and products of the phases are its helpers.
class DecoderBlock {
 public:
  DecoderBlock(Ctx& ctx, const KnobValues& knob_values, const std::vector<Knob>& all_knobs)
      : c(ctx), k(ctx.k), values(knob_values), knobs(all_knobs) {
    if (static_cast<uint64_t>(at.end) > c.layout.region("scratch").bytes)
      throw std::logic_error("decoder block: the intermediates exceed the scratch region");
  }

  void attention_half() {
    begin_phase(c, "attn_norm");
    k.comment("h = rms_norm(x, g_attn) into scratch");
    parts.push_back("h = rms_norm(x) (" + norm("x", 0, at.h, "g_attn") + ")");

    begin_phase(c, "qkv");
    // Wq, Wk, Wv are adjacent in DRAM (declaration order, sizes multiples of the alignment) and so are q, k,
    // v in scratch: one loop of HEADS + 2 KV_HEADS head projections, each h W_head^T [S, DH].
    if (c.addr("Wk") != c.addr("Wq") + heads * dh * d * 2 || c.addr("Wv") != c.addr("Wk") + kv * dh * d * 2)
      throw std::logic_error("decoder block: Wq, Wk, Wv are not adjacent in DRAM");
    parts.push_back(fmt::format("q, k, v head-major by {} head projections h W_head^T ({})", heads + 2 * kv,
                                looped_linear("scratch", at.h, "Wq", s, d, dh, at.q, heads + 2 * kv)));

    if (llama) {
      begin_phase(c, "rope");
      k.comment("RoPE on q and k in place (adjacent: HEADS + KV_HEADS heads)");
      RopeJob rj;
      rj.heads = heads + kv;
      rj.seq = s;
      rj.d = dh;
      rj.in = rj.out = "scratch";
      rj.in_offset = rj.out_offset = at.q;
      rj.last = false;
      rj.compact = true;
      parts.push_back("RoPE (" +
                      rope(c, rj, {{"unroll", knob(values, knobs, "norm_unroll")}}, rope_knobs()).summary +
                      ")");
    }

    begin_phase(c, "attention");
    AttnJob aj;
    aj.heads = heads;
    aj.kv_heads = kv;
    aj.seq = s;
    aj.d = dh;
    aj.causal = true;
    aj.scale = llama ? cfg.param("scale") : 1.0;
    aj.q = aj.k = aj.v = aj.o = aj.scores = "scratch";
    aj.q_offset = at.q;
    aj.k_offset = at.k;
    aj.v_offset = at.v;
    aj.o_offset = at.a;
    aj.scores_offset = at.scores;
    aj.o_ldc = heads * dh * 2;
    if (!llama) {
      aj.pos_bias = "bias";
      aj.bmat = "scratch";
      aj.bmat_offset = at.ffn;  // the FFN's hidden tensor is free until the FFN
      aj.num_buckets = static_cast<int64_t>(cfg.param("num_buckets"));
      aj.max_distance = static_cast<int64_t>(cfg.param("max_distance"));
      if (s * s * 2 + 4 * s > s * f * 2)
        throw std::invalid_argument("decoder_block_t5: the bias matrix does not fit the FFN's hidden tensor");
    }
    aj.last = false;
    aj.compact = true;
    attn = attention(c, aj, values, knobs);
    parts.push_back("attention into scratch, token-major (" + attn.summary + ")");

    begin_phase(c, "out_proj");
    k.comment("x2 = a Wo^T + x");
    linear("scratch", at.a, "Wo", s, heads * dh, d, "scratch", at.x2);
    residual("scratch", at.x2, c.addr("x"), s * d / c.vlen);
    parts.push_back("x2 = a Wo^T, + x");
  }

  void ffn_half() {
    begin_phase(c, "ffn_norm");
    k.comment("n2 = rms_norm(x2, g_ffn)");
    norm("scratch", at.x2, at.n2, "g_ffn");

    begin_phase(c, "ffn");
    if (llama) {
      k.comment("g = n2 Wg^T, u = n2 Wu^T, h = silu(g) * u in place of g, y = h Wd^T + x2");
      if (c.addr("Wu") != c.addr("Wg") + f * d * 2)
        throw std::logic_error("decoder_block_llama: Wg and Wu are not adjacent in DRAM");
      looped_linear("scratch", at.n2, "Wg", s, d, f, at.ffn, 2);  // g then u
      EltJob act;
      act.op = "swiglu";
      act.rows = s * f / c.vlen;
      act.in = act.out = "scratch";
      act.in_offset = act.out_offset = at.ffn;
      act.pair_offset = s * f * 2;
      act.last = false;
      act.compact = true;
      act_unroll =
          elementwise(c, act, {{"unroll", knob(values, knobs, "act_unroll")}}, eknobs).knobs.at("unroll");
      linear("scratch", at.ffn, "Wd", s, f, d, "y", 0);
      parts.push_back("SwiGLU: g, u, silu(g) * u, h Wd^T, + x2");
    } else {
      k.comment("t = relu(n2 Wi^T) in place, y = t Wo_ff^T + x2");
      linear("scratch", at.n2, "Wi", s, d, f, "scratch", at.ffn);
      EltJob act;
      act.op = "relu";
      act.rows = s * f / c.vlen;
      act.in = act.out = "scratch";
      act.in_offset = act.out_offset = at.ffn;
      act.last = false;
      act.compact = true;
      act_unroll =
          elementwise(c, act, {{"unroll", knob(values, knobs, "act_unroll")}}, eknobs).knobs.at("unroll");
      linear("scratch", at.ffn, "Wo_ff", s, f, d, "y", 0);
      parts.push_back("ReLU FFN: relu(n2 Wi^T), t Wo_ff^T, + x2");
    }
    residual("y", 0, scratch + at.x2, s * d / c.vlen);
  }

  GeneratedKernel finish() {
    k.op("C_HALT", {{}, {}, -1, true});
    std::string summary;
    for (const auto& p : parts) summary += (summary.empty() ? "" : "; ") + p;
    out.summary = summary + "; products: " + out.summary;
    out.knobs["softmax_unroll"] = attn.knobs.at("softmax_unroll");
    // the products' requested A-block tiles (the last product's may be fewer, for DM), so that giving way
    // for IMEM halves them for every product
    out.knobs["m_tiles"] = matmul_m_tiles(c.p, knob(values, knobs, "m_tiles"));
    out.knobs["act_unroll"] = act_unroll;
    out.knobs["norm_unroll"] = norm_unroll;
    return out;
  }

 private:
  std::string norm(const std::string& in, int64_t in_offset, int64_t out_offset, const std::string& gamma) {
    RowJob job;
    job.op = "rms_norm";
    job.m = s;
    job.n = d;
    job.in = in;
    job.in_offset = in_offset;
    job.out = "scratch";
    job.out_offset = out_offset;
    job.gamma = gamma;
    job.eps = cfg.param("eps");
    job.last = false;
    job.compact = true;
    const GeneratedKernel g = rowwise(c, job, {{"unroll", knob(values, knobs, "norm_unroll")}}, rknobs);
    norm_unroll = g.knobs.at("unroll");
    return g.summary;
  }

  // dst += the region `src` (same shape, `rows` DM rows)
  void residual(const std::string& dst, int64_t dst_offset, int64_t src_address, int64_t rows) {
    EltJob job;
    job.op = "add";
    job.compact = true;
    job.rows = rows;
    job.in = job.out = dst;
    job.in_offset = job.out_offset = dst_offset;
    job.pair_offset = src_address - c.addr(dst) - dst_offset;
    job.last = false;
    elementwise(c, job, act_values, eknobs);
  }

  std::string linear(const std::string& a, int64_t a_offset, const std::string& w, int64_t m, int64_t kk,
                     int64_t n, const std::string& dst, int64_t dst_offset) {
    MatJob job;
    job.weights_nk = true;
    job.m = m;
    job.k = kk;
    job.n = n;
    job.a = a;
    job.a_offset = a_offset;
    job.b = w;
    job.c = dst;
    job.c_offset = dst_offset;
    job.last = false;
    out = matmul(c, job, values, knobs);
    return out.summary;
  }

  // `count` products h W_i^T [m, n] from the A rows at a_offset into scratch (from c_offset on), W_i and
  // C_i consecutive from w on: one copy of the code in a hardware loop, the DRAM bases in DM words.
  std::string looped_linear(const std::string& a, int64_t a_offset, const std::string& w, int64_t m,
                            int64_t kk, int64_t n, int64_t c_offset, int64_t count) {
    c.dm_rows -= 1;
    const int64_t state = c.dm_rows * c.rb;
    k.comment(fmt::format("{} products; DM words at {}: the product's W and output in DRAM", count, state));
    k.li(12, state);
    k.op("S_PMOV p4, r12");
    c.li_addr(12, w);
    k.op("L_SST r12, p4, 4", {{}, {kState}, -1});
    k.li(12, scratch + c_offset);
    k.op("L_SST r12, p4, 0", {{}, {kState}, -1});
    MatJob job;
    job.weights_nk = true;
    job.m = m;
    job.k = kk;
    job.n = n;
    job.a = a;
    job.a_offset = a_offset;
    job.b = w;
    job.c = "scratch";
    job.b_word = state;
    job.c_word = state + 4;
    // The loop takes a level: one strip per panel, unless every strip fits one panel (no panel loop then),
    // which builds A's tiles once per product instead of once per strip.
    const int64_t strips = n / c.vlen;
    const MatPlan plan = matmul_plan(c.p, job, knob(values, knobs, "m_tiles"));
    const bool one_panel = plan.pieces == 1 && knob(values, knobs, "strips") >= strips &&
                           matmul_dm_rows(c.p, job, plan.tm, strips, plan.chunks) <= c.dm_rows;
    job.max_strips = one_panel ? strips : 1;
    job.last = false;
    std::string summary;
    k.loop(count, [&] {
      out = matmul(c, job, values, knobs);
      summary = out.summary;
      k.li(12, state);
      k.op("S_PMOV p4, r12");
      k.op("L_SLD r1, p4, 4", {{kState}, {}, -1});
      k.op("L_SLD r2, p4, -4", {{kState}, {}, -1});
      c.add(1, n * kk * 2, 13);
      c.add(2, m * n * 2, 13);
      k.op("L_SST r1, p4, 4", {{}, {kState}, -1});
      k.op("L_SST r2, p4, 0", {{}, {kState}, -1});
    });
    c.dm_rows += 1;
    return summary;
  }

  Ctx& c;
  KernelBuilder& k;
  const KnobValues& values;
  const std::vector<Knob>& knobs;
  const tasks::ResolvedConfig& cfg = c.cfg;
  const bool llama = cfg.task == "decoder_block_llama";
  const int64_t s = cfg.dim("S"), d = cfg.dim("D"), heads = cfg.dim("HEADS"), dh = cfg.dim("DH");
  const int64_t kv = llama ? cfg.dim("KV_HEADS") : heads, f = cfg.dim("F");
  const DecoderScratch at = decoder_scratch(cfg);
  const int64_t scratch = c.addr("scratch");
  const std::vector<Knob> rknobs = rowwise_knobs(), eknobs = stream_knobs();
  const KnobValues act_values = {{"unroll", knob(values, knobs, "act_unroll")}};
  std::vector<std::string> parts;
  GeneratedKernel out, attn;
  int64_t norm_unroll = 0, act_unroll = 0;
};

}  // namespace

GeneratedKernel decoder_block(Ctx& c, const KnobValues& values, const std::vector<Knob>& knobs) {
  DecoderBlock block(c, values, knobs);
  block.attention_half();
  block.ffn_half();
  return block.finish();
}

}  // namespace kcraft::vliw::template_detail
