#include "tasks/vliw/templates.h"

#include <algorithm>
#include <array>
#include <functional>
#include <stdexcept>
#include <utility>

#include <fmt/format.h>

#include "isa/common/arith/fp_arith.h"
#include "tasks/golden/references.h"

namespace kcraft::vliw::template_detail {

// ---------------------------------------------------------------- attention, mha, gqa, mqa
//
// Per head: scores = Q K^T (linear form) into the scratch region, the row softmax of scale * scores (causal:
// masked) in place, then O = P V (gemm form). Heads loop in hardware; the DRAM addresses of the head's Q,
// K, V and O live in DM words (the last DM row) that the products read, and advance after each head (K
// and V every HEADS / KV_HEADS heads). With a head loop each product keeps one strip per panel, which
// keeps the loops within LOOP_DEPTH.

namespace {

// T5: the biased causal mask of the head whose bias row's DRAM address is the DM word at `bias_word`, into
// the bmat region as [seq, seq]. Row i is a window of one row E of 2 * seq elements, E[u] =
// bias[bucket(seq - 1 - u)] for u < seq and -inf after: row i = E[seq - 1 - i .. 2 seq - 1 - i]. E is built
// in DM (L_VLDB broadcasts a bucket's element, V_ALIGN shifts in its run), stored after the matrix, and each
// matrix row is one DMA gather of its window and one store. Locks 3 and 4.
void t5_bias_matrix(Ctx& c, const AttnJob& job, int64_t bias_word) {
  KernelBuilder& k = c.k;
  const int64_t seq = job.seq, rb = c.rb, sv = seq / c.vlen;
  auto round_up = [&](int64_t rows) { return (rows + c.banks - 1) / c.banks * c.banks; };
  const int64_t table_rows = (job.num_buckets * 2 + rb - 1) / rb;
  const int64_t table = 0, e_row = round_up(table_rows), buf = round_up(e_row + 2 * sv);
  if (buf + sv > c.dm_rows) throw std::invalid_argument("T5 bias: a row of the mask matrix does not fit DM");
  const int64_t matrix = c.addr(job.bmat) + job.bmat_offset, e_dram = matrix + seq * seq * 2;
  auto bucket = [&](int64_t distance) {
    return tasks::golden::t5_relative_bucket(distance, job.num_buckets, job.max_distance);
  };
  k.comment("T5 bias: the head's bias row into DM, E built from it, stored, then one window per row");
  k.li(12, bias_word);
  k.op("S_PMOV p4, r12");
  k.op("L_SLD r13, p4, 0", {{kState}, {}, -1});
  k.li(12, table * rb);
  k.li(5, rb);
  k.li(14, table_rows);
  k.op("C_DMALD 0, r12, r13, r5, r14, 3");
  k.op("C_ACQ 3", {{}, {kBias}});
  k.li(12, table * rb + bucket(seq - 1) * 2);
  k.op("S_PMOV p0, r12");
  k.li(12, e_row * rb);
  k.op("S_PMOV p1, r12");
  // runs of equal buckets within a DM row: one broadcast and one V_ALIGN shifting in that many lanes
  int64_t lane = 0, runs = 0;
  for (int64_t u = 0; u < seq; ++runs) {
    const int64_t b = bucket(seq - 1 - u);
    int64_t len = 1;
    while (u + len < seq && lane + len < c.vlen && bucket(seq - 1 - u - len) == b) ++len;
    const int64_t next = u + len < seq ? bucket(seq - 1 - u - len) : b;
    const int64_t x = 1 + runs % 4;
    k.op(fmt::format("L_VLDB {}, p0, {}", V(x), (next - b) * 2), {{kBias}, {}, -1});
    if (len == c.vlen) {
      k.op(fmt::format("V_ALIGN v8, {}, {}, 0", V(x), V(x)));
    } else {
      k.op(fmt::format("V_ALIGN v8, v8, {}, {}", V(x), len));
    }
    u += len;
    lane += len;
    if (lane == c.vlen) {
      k.op(fmt::format("L_VST v8, p1, {}", rb), {{}, {kMask}, -1});
      lane = 0;
    }
  }
  k.li(12, static_cast<int64_t>(0xFF800000u));  // -inf
  k.op("V_BCST v9, r12");
  k.loop(sv, [&] { k.op(fmt::format("L_VST v9, p1, {}", rb), {{}, {kMask}, -1}); });
  k.li(12, e_row * rb);
  k.li(13, e_dram);
  k.li(14, 2 * sv);
  k.op("C_DMAST 0, r12, r13, r5, r14, 3", {{kMask}, {}, -1});
  k.op("C_ACQ 3", {{}, {}, -1, true});
  // r1: row i's window in E, r2: row i of the matrix, r6: the buffer, r7: rows per matrix row
  k.li(1, e_dram + (seq - 1) * 2);
  k.li(2, matrix);
  k.li(6, buf * rb);
  k.li(7, sv);
  auto row = [&](bool last) {
    k.op("C_DMALD 0, r6, r1, r5, r7, 3", {{}, {kOutStage}, -1});
    k.op("C_ACQ 3", {{}, {kOutStage}});
    // the next load into the buffer queues behind this store on channel 0 (a channel works in order)
    k.op(fmt::format("C_DMAST 0, r6, r2, r5, r7{}", last ? ", 4" : ""), {{kOutStage}, {}, -1});
    k.op("S_ADDI r1, r1, -2");
    c.add(2, seq * 2, 14);
  };
  k.loop(seq - 1, [&] { row(false); });
  row(true);
  k.op("C_ACQ 4", {{}, {}, -1, true});
}

}  // namespace

GeneratedKernel attention(Ctx& c, const AttnJob& job, const KnobValues& values,
                          const std::vector<Knob>& knobs) {
  KernelBuilder& k = c.k;
  const int64_t seq = job.seq, d = job.d;
  const bool causal = job.causal, t5 = !job.pos_bias.empty();
  const int64_t heads = job.heads, kv_heads = job.kv_heads;
  if (kv_heads < 1 || heads % kv_heads != 0) throw std::invalid_argument("KV_HEADS must divide HEADS");
  const int64_t group = heads / kv_heads, head_bytes = seq * d * 2;
  const int64_t o_step = job.o_ldc > 0 ? d * 2 : head_bytes;
  const bool multi = heads > 1;
  if ((t5 || job.o_ldc > 0) && !multi)
    throw std::logic_error("attention: T5 bias or O's stride with one head");
  int64_t state = 0;
  if (multi) {
    c.dm_rows -= (24 + c.rb - 1) / c.rb;  // six words
    state = c.dm_rows * c.rb;
    k.comment(fmt::format("DM words at {}: the heads left in its kv group, the head's Q, K, V, O in DRAM{}",
                          state, t5 ? " and its bias row" : ""));
    k.li(12, state);
    k.op("S_PMOV p4, r12");
    k.op("L_SST r0, p4, 4", {{}, {kState}, -1});
    const std::pair<const std::string*, int64_t> bases[] = {
        {&job.q, job.q_offset}, {&job.k, job.k_offset}, {&job.v, job.v_offset}, {&job.o, job.o_offset}};
    for (const auto& [name, offset] : bases) {
      c.li_addr(12, *name, offset);
      k.op("L_SST r12, p4, 4", {{}, {kState}, -1});
    }
    if (t5) {
      c.li_addr(12, job.pos_bias);
      k.op("L_SST r12, p4, 0", {{}, {kState}, -1});
    }
  }
  GeneratedKernel out, part;
  const std::vector<Knob> rknobs = rowwise_knobs();
  const KnobValues rvalues = {{"unroll", knob(values, knobs, "softmax_unroll")}};
  std::string softmax_summary;
  int64_t softmax_unroll = 0;
  auto head = [&] {
    MatJob scores;
    scores.weights_nk = true;
    scores.m = seq;
    scores.k = d;
    scores.n = seq;
    scores.a = job.q;
    scores.a_offset = job.q_offset;
    scores.b = job.k;
    scores.b_offset = job.k_offset;
    scores.c = job.scores;
    scores.c_offset = job.scores_offset;
    scores.last = false;
    MatJob pv;
    pv.m = seq;
    pv.k = seq;
    pv.n = d;
    pv.a = job.scores;
    pv.a_offset = job.scores_offset;
    pv.b = job.v;
    pv.b_offset = job.v_offset;
    pv.c = job.o;
    pv.c_offset = job.o_offset;
    pv.ldc = job.o_ldc;
    pv.last = !multi && job.last;
    if (multi) {
      scores.a_word = state + 4;
      scores.b_word = state + 8;
      pv.b_word = state + 12;
      pv.c_word = state + 16;
      scores.max_strips = pv.max_strips = 1;
    }
    if (t5) t5_bias_matrix(c, job, state + 20);
    k.comment("scores = Q K^T into scratch");
    out = matmul(c, scores, values, knobs);
    RowJob sm;
    sm.op = "softmax";
    sm.m = sm.n = seq;
    sm.in = sm.out = job.scores;
    sm.in_offset = sm.out_offset = job.scores_offset;
    sm.scale = job.scale;
    sm.causal = causal && !t5;
    sm.add_pair = t5;  // the biased mask streams in with the scores
    if (t5) sm.pair_offset = c.addr(job.bmat) + job.bmat_offset - c.addr(job.scores) - job.scores_offset;
    sm.last = false;
    sm.compact = job.compact;
    k.comment(t5       ? "P = softmax(scores + the biased mask) in place"
              : causal ? "P = softmax(scale * scores + causal mask) in place"
                       : "P = softmax(scale * scores) in place");
    const GeneratedKernel sk = rowwise(c, sm, rvalues, rknobs);
    softmax_summary = sk.summary;
    softmax_unroll = sk.knobs.at("unroll");
    k.comment("O = P V");
    part = matmul(c, pv, values, knobs);
    if (!multi) return;
    k.comment("the next head's addresses");
    k.li(12, state);
    k.op("S_PMOV p4, r12");
    k.li(13, head_bytes);
    k.op("L_SLD r5, p4, 4", {{kState}, {}, -1});  // heads done in the group
    k.op("L_SLD r1, p4, 4", {{kState}, {}, -1});  // Q
    k.op("S_ADD r1, r1, r13");
    // K and V advance when the group's last head is done: r6 = 1 then, from the count of heads done in it
    k.op("L_SLD r2, p4, 4", {{kState}, {}, -1});          // K
    k.op("L_SLD r3, p4, 4", {{kState}, {}, -1});          // V
    k.op("L_SLD r4, p4, 4", {{kState}, {}, -1});          // O
    if (t5) k.op("L_SLD r9, p4, 0", {{kState}, {}, -1});  // bias row
    k.op("S_ADDI r5, r5, 1");
    k.li(6, group - 1);
    k.op("S_SUB r6, r6, r5");
    k.op("S_SRLI r6, r6, 31");
    k.op("S_MUL r7, r6, r13");
    k.op("S_ADD r2, r2, r7");
    k.op("S_ADD r3, r3, r7");
    c.add(4, o_step, 14);
    if (t5) k.op(fmt::format("S_ADDI r9, r9, {}", job.num_buckets * 2));
    k.li(8, group);
    k.op("S_MUL r8, r8, r6");
    k.op("S_SUB r5, r5, r8");
    k.li(12, state);
    k.op("S_PMOV p4, r12");
    for (int r : {5, 1, 2, 3, 4}) k.op(fmt::format("L_SST {}, p4, 4", R(r)), {{}, {kState}, -1});
    if (t5) k.op("L_SST r9, p4, 0", {{}, {kState}, -1});
  };
  k.loop(heads, head);
  if (multi) c.dm_rows += (24 + c.rb - 1) / c.rb;
  if (multi && job.last) k.op("C_HALT", {{}, {}, -1, true});
  out.summary =
      fmt::format("{} head{}: scores = Q K^T ({}); {}{}; O = P V ({})", heads, multi ? "s" : "", out.summary,
                  t5 ? "the T5 bias matrix built per head and added in the softmax; " : "", softmax_summary,
                  part.summary);
  out.knobs["softmax_unroll"] = softmax_unroll;
  return out;
}

// ---------------------------------------------------------------- flash_attention
//
// Online softmax over blocks of keys, with no [S, S] scores anywhere. A query block is VLEN query rows, and
// every score vector runs over those queries: lane i of row j of a block's scores is q_i . k_j. Q^T of the
// block is built once (V_SHUF zips through DM), so row j is sum_d K[j, d] * Q^T[d] with K[j, d] broadcast
// (L_VLDB), eight keys in eight accumulators; K blocks sit chunk-major in DM (the eight keys of a pass in
// eight banks) and the next block's loads while the softmax and P V of this one run. Per query the running
// max m, the rescale alpha = exp(scale (m_old - m_new)) and the sum l are then lanes of one vector, and P^T
// row j is exp(scale (s_j - m_new)) in place of the scores. The output stays in natural rows: O[i, chunk] +=
// P[i, j] V[j, chunk] with P[i, j] broadcast from P^T, four chunks of one query row at a time. Between key
// blocks the FP32 accumulators, alpha and l live in DM as exact hi/mid/lo BF16 triples (the K-in-pieces
// trick of the products): hi = bf16(x), x -= hi, mid = bf16(x), x -= mid, lo = bf16(x), each subtraction
// exact. CAUSAL: a query block reads only the keys up to its diagonal (key blocks beyond it are never
// loaded, the last block is cut to the diagonal), and the diagonal VLEN x VLEN tile gets a mask table of
// -inf added.

namespace {

constexpr int64_t kFlashKeysPerTile = 8;    // score rows per pass of the Q K^T product (one per accumulator)
constexpr int64_t kFlashChunksPerPair = 4;  // output chunks of one query row accumulated at a time

struct FlashPlan {
  int64_t key_block = 0;  // keys per block (0: none fits)
  int64_t chunks = 0;     // D / VLEN
  int64_t pair_chunks = 0, groups = 0;
  // first DM rows of the buffers
  int64_t q_raw = 0, trans0 = 0, trans1 = 0, qt = 0, kblk = 0, vblk = 0, scores = 0, state = 0, mask = 0,
          partial = 0, stage = 0, rows = 0;
};

// The largest key block (a power of two dividing S, at most `want` keys, at least VLEN and one tile) whose
// scores fit the task's budget and whose buffers fit DM.
FlashPlan flash_plan(const Params& p, const tasks::ResolvedConfig& cfg, int64_t want) {
  const int64_t seq = cfg.dim("S"), d = cfg.dim("D"), vl = p.vlen, banks = p.dm_banks;
  const int64_t budget = static_cast<int64_t>(cfg.param("score_budget_bytes"));
  FlashPlan f;
  f.chunks = d / vl;
  f.pair_chunks = std::min(kFlashChunksPerPair, f.chunks);
  f.groups = f.chunks / f.pair_chunks;
  const int64_t dm_rows = p.dm_bytes / p.row_bytes();
  for (int64_t bk = pow2_divisor(seq, std::max<int64_t>(want, 1)); bk >= std::max(vl, kFlashKeysPerTile);
       bk /= 2) {
    if (bk * vl * 2 > budget) continue;
    int64_t at = 0;
    auto take = [&](int64_t rows) {
      const int64_t r = at;
      at += (rows + banks - 1) / banks * banks;
      return r;
    };
    f.q_raw = take(vl * f.chunks);
    f.trans0 = take(vl);
    f.trans1 = take(vl);
    f.qt = take(d);
    f.kblk = take(bk * f.chunks);
    f.vblk = take(bk * f.chunks);
    f.scores = take(bk);
    f.state = take(7);  // m, then alpha's and l's triples
    f.mask = take(vl);
    f.partial = take(3 * vl * f.chunks);
    f.stage = take(vl * f.chunks);
    f.rows = at;
    if (at <= dm_rows) {
      f.key_block = bk;
      return f;
    }
  }
  return f;
}

// Two-stage software pipeline over count_reg * unroll units, count_reg >= 1 read from a register (a count
// known only at run time): the steady steps are a C_LOOP of count_reg - 1 iterations. emit(stage, unit)
// gets the unit's index modulo `unroll` (even), as in pipeline().
void pipeline_reg(KernelBuilder& k, int count_reg, int temp_reg, int64_t unroll,
                  const std::function<void(int, int64_t)>& emit) {
  emit(0, 0);
  k.op(fmt::format("S_ADDI {}, {}, -1", R(temp_reg), R(count_reg)));
  k.loop_reg(temp_reg, [&] {
    for (int64_t s = 1; s <= unroll; ++s) {
      emit(1, s - 1);
      emit(0, s % unroll);
    }
  });
  for (int64_t s = 1; s <= unroll; ++s) {
    emit(1, s - 1);
    if (s < unroll) emit(0, s);
  }
}

}  // namespace

std::string flash_reason(const Params& p, const tasks::ResolvedConfig& cfg) {
  const int64_t vl = p.vlen;
  if (vl % kFlashKeysPerTile != 0)
    return fmt::format("VLEN={} is not a multiple of the {} keys of a score tile", vl, kFlashKeysPerTile);
  const FlashPlan f = flash_plan(p, cfg, cfg.dim("S"));
  if (f.chunks % f.pair_chunks != 0)
    return fmt::format("D/VLEN={} is not a multiple of {} output chunks", f.chunks, f.pair_chunks);
  if (f.key_block == 0)
    return fmt::format(
        "no key block of at least {} keys fits: Q^T, K and V blocks, the scores and the FP32 output "
        "triples of {} query rows need more than the {} bytes of DM (or the score budget)",
        std::max(vl, kFlashKeysPerTile), vl, p.dm_bytes);
  return "";
}

std::vector<Knob> flash_knobs() {
  return {{"key_block",
           "keys per block of the online softmax (scores: key_block x VLEN BF16 in DM)",
           128,
           {16, 32, 64, 128, 256}}};
}

namespace {

// flash_attention, phase by phase: plan_blocks() (the key block, the Q^T network), set_up() (registers, the
// zeroed O triples and l, the causal mask table), then per query block its Q^T, per key block the scores
// (block_scores), the online softmax (block_softmax) and P V (block_output), and O = acc / l.
class FlashAttention {
 public:
  FlashAttention(Ctx& ctx, const KnobValues& values, const std::vector<Knob>& knobs)
      : c(ctx), k(ctx.k), f(flash_plan(ctx.p, ctx.cfg, knob(values, knobs, "key_block"))) {}

  GeneratedKernel plan_blocks() {
    if (f.key_block == 0) throw std::invalid_argument("flash_attention: no key block fits DM");
    GeneratedKernel out;
    out.knobs = {{"key_block", bk}};
    out.summary = fmt::format(
        "{} query blocks of {} rows, keys in blocks of {}{}: Q^T of the block by V_SHUF zips; per key block "
        "S^T = K Q^T with K broadcast (8 keys per pass, VLEN head-dimension steps per loop iteration), "
        "running max, alpha and sum per query lane, P^T = exp in place; O rows += P V ({} chunks of a row at "
        "a time) kept in DM as exact FP32 triples; O = acc / l",
        qblocks, vl, bk, causal ? " up to the diagonal (causal)" : "", gc);

    // ---- Q^T network: VLEN rows of a chunk of Q (row i: Q[i, c*VLEN + l]) -> VLEN rows of Q^T (row t:
    // lanes i)
    std::vector<Labels> group, targets;
    for (int64_t i = 0; i < vl; ++i) {
      Labels row;
      for (int64_t l = 0; l < vl; ++l) row.push_back(static_cast<int>(i * vl + l));
      group.push_back(row);
    }
    for (int64_t t = 0; t < vl; ++t) {
      Labels col;
      for (int64_t i = 0; i < vl; ++i) col.push_back(static_cast<int>(i * vl + t));
      targets.push_back(col);
    }
    qnet = plan(group, targets);
    for (const ShuffleLevel& l : qnet.levels) {
      if (l.kind == ShuffleLevel::kZipLow) throw std::logic_error("flash_attention: Q^T network halves");
    }
    for (int pos : qnet.position) {
      if (pos < 0) throw std::logic_error("flash_attention: Q^T network misses a column");
    }
    return out;
  }

  void set_up() {
    // ---- registers: r1 keys of this query block, r2 keys from this key block on, r3 its tiles of 8 keys,
    // r4 / r5 the K / V block in DRAM, r6 / r7 this query block's Q / O in DRAM, r8 loop counts, r9
    // ROW_BYTES, r10 1 on the last key block, r11 the (query row, chunk group) pair, r12-r14 temporaries.
    // Locks: 0 Q, 1 K block, 2 V block, 3 the output staging rows free.
    k.comment(fmt::format(
        "DM rows: Q {}, Q^T {}, K block {}, V block {}, scores {}, m / alpha / l {}, mask {}, O triples {}, "
        "staging {}",
        f.q_raw, f.qt, f.kblk, f.vblk, f.scores, f.state, f.mask, f.partial, f.stage));
    k.li(9, rb);
    k.li(6, c.addr("Q"), c.sym("Q"));
    k.li(7, c.addr("O"), c.sym("O"));
    k.li(1, causal ? vl : seq);
    k.op("C_REL 3");
    k.comment("zero the O triples and l once (later query blocks start with alpha = 0)");
    k.op("V_BCST v0, r0");
    k.li(12, f.state * rb);
    k.op("S_PMOV p0, r12");
    k.loop(7, [&] { k.op(fmt::format("L_VST v0, p0, {}", rb), {{}, {kState}, -1}); });
    k.li(12, f.partial * rb);
    k.op("S_PMOV p0, r12");
    k.loop(3 * vl * ch, [&] { k.op(fmt::format("L_VST v0, p0, {}", rb), {{}, {kOTriples}, -1}); });
    if (causal) {
      k.comment("mask table: row r (key r of the diagonal tile) is -inf at the lanes (queries) i < r");
      k.li(12, static_cast<int64_t>(0xFF800000u));
      k.op("V_BCST v1, r12");
      k.li(12, f.mask * rb);
      k.op("S_PMOV p0, r12");
      k.op(fmt::format("L_VST v0, p0, {}", rb), {{}, {kMask}, -1});
      for (int64_t r = 1; r < vl; ++r) {
        const int reg = static_cast<int>(2 + r % 4);
        k.op(fmt::format("V_ALIGN {}, v1, v0, {}", V(reg), vl - r));  // lanes < r: -inf, the rest 0
        k.op(fmt::format("L_VST {}, p0, {}", V(reg), rb), {{}, {kMask}, -1});
      }
    }
  }

  void run() {
    k.comment("the first block of K");
    k.li(12, std::min(bk, causal ? vl : seq));
    k.li(14, c.addr("K"), c.sym("K"));
    load_k(0, ch);
    k.loop(qblocks, [&] { query_block(); });
    k.op("C_HALT", {{}, {}, -1, true});
  }

 private:
  static int64_t log2(int64_t x) {
    int64_t l = 0;
    while ((int64_t{1} << l) < x) ++l;
    return l;
  }

  // Emits one level of the Q^T network through DM: pairs of rows from `src` offsets to `dst` offsets
  // (bytes from p0 and p1), with the post-increments walking from each access to the next.
  void walk(const std::string& fmt_op, int preg, const std::vector<int64_t>& offsets, size_t at,
            const std::string& reg, const MemUse& mem) {
    const int64_t next = at + 1 < offsets.size() ? offsets[at + 1] : offsets[0];
    const int64_t inc = next - offsets[at];
    if (inc >= -2048 && inc <= 2047) {
      k.op(fmt::format("{} {}, {}, {}", fmt_op, reg, P(preg), inc), mem);
    } else {
      k.op(fmt::format("{} {}, {}, 0", fmt_op, reg, P(preg)), mem);
      k.op(fmt::format("S_PADDI {}, {}", P(preg), inc));
    }
  }

  void transpose_level(const ShuffleLevel& l, const std::vector<int64_t>& src,
                       const std::vector<int64_t>& dst, int src_token, int dst_token) {
    const size_t stride = size_t{1} << l.bit;
    const unsigned lo = l.kind == ShuffleLevel::kUnzip ? 2 : 0;
    std::vector<size_t> firsts;
    for (size_t i = 0; i < static_cast<size_t>(vl); ++i) {
      if (!(i & stride)) firsts.push_back(i);
    }
    std::vector<int64_t> loads, stores;
    for (size_t i : firsts) {
      loads.push_back(src[i]);
      loads.push_back(src[i | stride]);
      stores.push_back(dst[i]);
      stores.push_back(dst[i | stride]);
    }
    // p0 and p1 hold the bases; the walks start at the first offsets
    if (loads[0] != 0) k.op(fmt::format("S_PADDI p0, {}", loads[0]));
    if (stores[0] != 0) k.op(fmt::format("S_PADDI p1, {}", stores[0]));
    for (size_t n = 0; n < firsts.size(); ++n) {
      const int base = static_cast<int>(4 * (n % 4));
      walk("L_VLD", 0, loads, 2 * n, V(base), {{src_token}, {}, -1});
      walk("L_VLD", 0, loads, 2 * n + 1, V(base + 1), {{src_token}, {}, -1});
      k.op(fmt::format("V_SHUF {}, {}, {}, {}", V(base + 2), V(base), V(base + 1), lo));
      k.op(fmt::format("V_SHUF {}, {}, {}, {}", V(base + 3), V(base), V(base + 1), lo + 1));
      walk("L_VST", 1, stores, 2 * n, V(base + 2), {{}, {dst_token}, -1});
      walk("L_VST", 1, stores, 2 * n + 1, V(base + 3), {{}, {dst_token}, -1});
    }
  }

  // Restores the FP32 value of a triple (three loaded BF16 rows) into `acc`, with `temp` for the parts.
  void restore(int acc, int temp, int hi, int mid, int lo) {
    k.op(fmt::format("A_UPS {}, {}", A(acc), V(hi)));
    k.op(fmt::format("A_UPS {}, {}", A(temp), V(mid)));
    k.op(fmt::format("A_ADD {}, {}, {}", A(acc), A(acc), A(temp)));
    k.op(fmt::format("A_UPS {}, {}", A(temp), V(lo)));
    k.op(fmt::format("A_ADD {}, {}, {}", A(acc), A(acc), A(temp)));
  }

  // Splits `acc` (destroyed) into the triple hi, mid, lo (vector registers).
  void split(int acc, int temp, int hi, int mid, int lo) {
    k.op(fmt::format("V_SRS {}, {}", V(hi), A(acc)));
    k.op(fmt::format("A_UPS {}, {}", A(temp), V(hi)));
    k.op(fmt::format("A_SUB {}, {}, {}", A(acc), A(acc), A(temp)));
    k.op(fmt::format("V_SRS {}, {}", V(mid), A(acc)));
    k.op(fmt::format("A_UPS {}, {}", A(temp), V(mid)));
    k.op(fmt::format("A_SUB {}, {}, {}", A(acc), A(acc), A(temp)));
    k.op(fmt::format("V_SRS {}, {}", V(lo), A(acc)));
  }

  // p3 = the DM byte address `row` * ROW_BYTES + 2 * (query row of pair r11): lane i of a state row.
  void lane_pointer(int preg, int64_t row) {
    k.op(fmt::format("S_SRLI r12, r11, {}", log2(groups)));
    k.op("S_SLLI r12, r12, 1");
    k.li(13, row * rb);
    k.op("S_ADD r13, r13, r12");
    k.op(fmt::format("S_PMOV {}, r13", P(preg)));
  }

  // a4 = the FP32 triple at `row` (hi, mid, lo in consecutive rows), lane of the pair's query row, in all
  // lanes.
  void broadcast_triple(int64_t row) {
    lane_pointer(3, row);
    k.op(fmt::format("L_VLDB v12, p3, {}", rb), {{kState}, {}, -1});
    k.op(fmt::format("L_VLDB v13, p3, {}", rb), {{kState}, {}, -1});
    k.op("L_VLDB v14, p3, 0", {{kState}, {}, -1});
    restore(4, 5, 12, 13, 14);
  }

  // The pair's gc accumulators a0.. from their triples (p6 walks the triples in pair order).
  void restore_pair() {
    for (int64_t cc = 0; cc < gc; ++cc) {
      const int base = static_cast<int>(3 * cc);
      for (int part = 0; part < 3; ++part)
        k.op(fmt::format("L_VLD {}, p6, {}", V(base + part), rb), {{kOTriples}, {}, -1});
      restore(static_cast<int>(cc), static_cast<int>(5 + cc % 3), base, base + 1, base + 2);
    }
  }

  // K chunk-major: chunk cc's column of the block's r12 keys (DRAM r14 on) from DM row kblk + cc * key_block
  // on, so key j + t of a tile is in bank t. Chunks [from, to), round-robin over the channels; each
  // releases lock 1 (the block start acquires it once per chunk).
  void load_k(int64_t from, int64_t to) {
    if (from >= to) return;
    k.li(11, d * 2);
    k.li(13, (f.kblk + from * bk) * rb);
    c.add(14, from * rb, 8);
    for (int64_t cc = from; cc < to; ++cc) {
      k.op(fmt::format("C_DMALD {}, r13, r14, r11, r12, 1", c.ch(1 + cc)), {{}, {kKblk}});
      if (cc + 1 == to) break;
      c.add(13, bk * rb, 8);
      k.op(fmt::format("S_ADDI r14, r14, {}", rb));
    }
  }

  // r12 = the keys of the next block (on the last block, of the next query block's first), r14 its K rows
  // in DRAM (r2, r4 have moved past this block; r10 = 1 on the last)
  void next_k() {
    k.li(11, causal ? vl : 0);
    k.op("S_ADD r11, r1, r11");
    k.op("S_SUB r11, r11, r2");
    k.op("S_MUL r11, r11, r10");
    k.op("S_ADD r12, r2, r11");  // keys from the next block on
    k.li(13, bk);
    k.op("S_SUB r13, r13, r12");
    k.op("S_SRLI r14, r13, 31");
    k.op("S_MUL r13, r13, r14");
    k.op("S_ADD r12, r12, r13");  // min(key_block, those)
    k.li(14, c.addr("K"), c.sym("K"));
    k.op("S_SUB r14, r14, r4");
    k.op("S_MUL r14, r14, r10");
    k.op("S_ADD r14, r14, r4");
  }

  // One query block: its Q^T, every key block up to the diagonal, O = acc / l.
  void query_block() {
    k.comment("this query block's rows of Q into DM");
    k.li(12, f.q_raw * rb);
    k.li(13, vl * ch);
    k.op("C_DMALD 0, r12, r6, r9, r13, 0", {{}, {kQraw}});
    c.add(6, vl * d * 2, 14);
    k.op("C_ACQ 0", {{}, {kQraw}});
    k.comment("Q^T, chunk by chunk: the zip network level by level through DM");
    k.li(13, f.q_raw * rb);
    k.li(14, f.qt * rb);
    k.loop(ch, [&] {
      const size_t levels = qnet.levels.size();
      for (size_t li = 0; li < levels; ++li) {
        std::vector<int64_t> src, dst;
        const bool first = li == 0, final = li + 1 == levels;
        const int64_t from = (li % 2 == 0 ? f.trans1 : f.trans0) * rb,
                      to = (li % 2 == 0 ? f.trans0 : f.trans1) * rb;
        for (int64_t i = 0; i < vl; ++i) {
          src.push_back(first ? i * ch * rb : from + i * rb);
          dst.push_back(final ? 0 : to + i * rb);
        }
        if (final) {
          for (int64_t t = 0; t < vl; ++t)
            dst[static_cast<size_t>(qnet.position[static_cast<size_t>(t)])] = t * rb;
        }
        k.op(fmt::format("S_PMOV p0, {}", first ? "r13" : "r0"));
        k.op(fmt::format("S_PMOV p1, {}", final ? "r14" : "r0"));
        transpose_level(qnet.levels[li], src, dst, first ? kQraw : (li % 2 == 0 ? kTrans1 : kTrans0),
                        final ? kQt : (li % 2 == 0 ? kTrans0 : kTrans1));
      }
      k.op(fmt::format("S_ADDI r13, r13, {}", rb));
      k.op(fmt::format("S_ADDI r14, r14, {}", vl * rb));
    });
    k.comment("m = -inf; K and V from their first rows; r8 = key blocks up to the diagonal");
    k.li(12, static_cast<int64_t>(0xFF800000u));
    k.op("V_BCST v0, r12");
    k.li(12, m_row * rb);
    k.op("S_PMOV p0, r12");
    k.op("L_VST v0, p0, 0", {{}, {kState}, -1});
    k.op("S_ADDI r2, r1, 0");
    k.li(4, c.addr("K"), c.sym("K"));
    k.li(5, c.addr("V"), c.sym("V"));
    k.op(fmt::format("S_ADDI r8, r1, {}", bk - 1));
    k.op(fmt::format("S_SRLI r8, r8, {}", log2(bk)));
    k.loop_reg(8, [&] {
      block_scores();
      block_softmax();
      block_output();
    });
    k.comment("O = acc / l into the staging rows, then to DRAM");
    k.op("C_ACQ 3", {{}, {kOutStage}});
    k.op("S_ADDI r11, r0, 0");
    k.li(12, f.partial * rb);
    k.op("S_PMOV p6, r12");
    k.li(12, f.stage * rb);
    k.op("S_PMOV p7, r12");
    k.loop(pairs, [&] {
      broadcast_triple(l_row);
      k.op("A_RECI a4, a4");
      restore_pair();
      for (int64_t cc = 0; cc < gc; ++cc) {
        k.op(fmt::format("A_MUL {}, {}, a4", A(cc), A(cc)));
        k.op(fmt::format("V_SRS {}, {}", V(12 + cc % 4), A(cc)));
        k.op(fmt::format("L_VST {}, p7, {}", V(12 + cc % 4), rb), {{}, {kOutStage}, -1});
      }
      k.op("S_ADDI r11, r11, 1");
    });
    k.li(12, f.stage * rb);
    k.li(13, vl * ch);
    k.op(fmt::format("C_DMAST {}, r12, r7, r9, r13, 3", c.ch(3)), {{kOutStage}, {}, -1});
    c.add(7, vl * d * 2, 14);
    if (causal) k.op(fmt::format("S_ADDI r1, r1, {}", vl));
  }

  // The key block's V load and S^T = K Q^T into the scores rows.
  void block_scores() {
    k.comment("keys of this block: min(r2, key_block); r10 = 1 on the last block");
    k.li(12, bk);
    k.op("S_SUB r12, r12, r2");
    k.op("S_SRLI r13, r12, 31");
    k.op("S_ADDI r10, r0, 1");
    k.op("S_SUB r10, r10, r13");
    k.op("S_MUL r14, r12, r10");
    k.li(12, bk);
    k.op("S_SUB r12, r12, r14");
    k.op(fmt::format("S_SRLI r3, r12, {}", log2(kFlashKeysPerTile)));
    k.comment("V in its natural rows (this block's K was loaded after the previous block's scores)");
    k.op(fmt::format("S_SLLI r13, r12, {}", log2(ch)));
    k.li(14, f.vblk * rb);
    k.op(fmt::format("C_DMALD {}, r14, r5, r9, r13, 2", c.ch(2)), {{}, {kVblk}});
    c.add(4, bk * d * 2, 14);
    c.add(5, bk * d * 2, 14);
    c.add(2, -bk, 14);
    for (int64_t cc = 0; cc < ch; ++cc) k.op("C_ACQ 1", {{}, {kKblk}});

    k.comment("S^T rows = K Q^T: per tile of 8 keys, a0..a7 += K[j + t, dd] (broadcast) * Q^T[dd]");
    k.li(12, f.kblk * rb);
    k.op("S_PMOV p1, r12");
    k.li(12, f.scores * rb);
    k.op("S_PMOV p2, r12");
    k.loop_reg(3, [&] {
      k.li(12, f.qt * rb);
      k.op("S_PMOV p0, r12");
      pipeline(
          k, d, 2, vl,
          [&](int stage, int64_t u) {
            if (stage == 0) {
              // u mod VLEN is d mod VLEN (the loop runs VLEN steps an iteration): the banks and the
              // jump to the next chunk's column are known
              const int64_t dd = u % vl;
              // Q^T rows alternate between v8 and v9, so the next one loads while this one is still read
              k.op(fmt::format("L_VLD {}, p0, {}", V(8 + u % 2), rb),
                   {{kQt}, {}, static_cast<int>((f.qt + dd) % c.banks)});
              for (int64_t t = 0; t < kFlashKeysPerTile; ++t) {
                const int64_t back = -(kFlashKeysPerTile - 1) * rb;
                const int64_t inc = t + 1 < kFlashKeysPerTile ? rb
                                    : dd + 1 < vl             ? back + 2
                                                              : back + bk * rb - 2 * (vl - 1);
                const MemUse mem = {{kKblk}, {}, static_cast<int>(t % c.banks)};
                if (inc >= -2048 && inc <= 2047) {
                  k.op(fmt::format("L_VLDB {}, p1, {}", V(t), inc), mem);
                } else {
                  k.op(fmt::format("L_VLDB {}, p1, 0", V(t)), mem);
                  k.op(fmt::format("S_PADDI p1, {}", inc));
                }
              }
              return;
            }
            for (int64_t t = 0; t < kFlashKeysPerTile; ++t)
              k.op(fmt::format("{} {}, {}, {}", u == 0 ? "A_VMUL" : "A_VMAC", A(t), V(t), V(8 + u % 2)));
          },
          1);
      // p1 is past the last chunk's column: back to chunk 0, eight keys on
      k.li(12, kFlashKeysPerTile * rb - ch * bk * rb);
      k.op("S_PADD p1, r12");
      for (int64_t t = 0; t < kFlashKeysPerTile; ++t) {
        const int reg = static_cast<int>(10 + t % 6);
        k.op(fmt::format("V_SRS {}, {}", V(reg), A(t)));
        k.op(fmt::format("L_VST {}, p2, {}", V(reg), rb), {{}, {kScores}, -1});
      }
    });
  }

  // The next K block's first half, the diagonal's mask, the running max, alpha, l and P^T.
  void block_softmax() {
    k.comment("K is free: load the next block's (on the last block, the next query block's first), half");
    k.comment("of its chunks now and half before P V, so that few transfers wait for a queue slot");
    next_k();
    load_k(0, ch / 2);
    if (causal) {
      k.comment("the diagonal tile (the last VLEN keys of the last block) + the mask table");
      k.loop_reg(10, [&] {
        k.op(fmt::format("S_SLLI r12, r3, {}", log2(kFlashKeysPerTile)));
        k.op(fmt::format("S_ADDI r12, r12, {}", f.scores - vl));
        k.op(fmt::format("S_SLLI r12, r12, {}", log2(rb)));
        k.op("S_PMOV p3, r12");
        k.op("S_PMOV p4, r12");
        k.li(12, f.mask * rb);
        k.op("S_PMOV p5, r12");
        for (int64_t r = 0; r < vl; ++r) {
          const int s = static_cast<int>(r % 4);
          k.op(fmt::format("L_VLD {}, p3, {}", V(s), rb), {{kScores}, {}, -1});
          k.op(fmt::format("L_VLD {}, p5, {}", V(4 + s), rb), {{kMask}, {}, -1});
          k.op(fmt::format("V_ADD {}, {}, {}", V(8 + s), V(s), V(4 + s)));
          k.op(fmt::format("L_VST {}, p4, {}", V(8 + s), rb), {{}, {kScores}, -1});
        }
      });
    }
    k.comment("m_new = max(m, the block's rows) (two partial maxima)");
    k.li(12, m_row * rb);
    k.op("S_PMOV p3, r12");
    k.op("L_VLD v10, p3, 0", {{kState}, {}, -1});
    k.op("L_VLD v12, p3, 0", {{kState}, {}, -1});
    k.op("L_VLD v13, p3, 0", {{kState}, {}, -1});
    k.li(12, f.scores * rb);
    k.op("S_PMOV p4, r12");
    k.loop_reg(3, [&] {
      for (int64_t r = 0; r < kFlashKeysPerTile; ++r) {
        const int s = static_cast<int>(r % 4), part = static_cast<int>(12 + r % 2);
        k.op(fmt::format("L_VLD {}, p4, {}", V(s), rb), {{kScores}, {}, -1});
        k.op(fmt::format("V_MAX {}, {}, {}", V(part), V(part), V(s)));
      }
    });
    k.op("V_MAX v14, v12, v13");
    k.op("L_VST v14, p3, 0", {{}, {kState}, -1});
    k.comment("alpha = exp(scale (m - m_new)); l *= alpha; a6 = m_new, a7 = scale");
    k.li(12, static_cast<int64_t>(arith::double_to_fp32(c.cfg.param("scale"))));
    k.op("A_BCST a7, r12");
    k.op("A_UPS a6, v14");
    k.op("A_UPS a0, v10");
    k.op("A_SUB a0, a0, a6");
    k.op("A_MUL a0, a0, a7");
    k.op("A_EXP a0, a0");
    k.li(12, l_row * rb);
    k.op("S_PMOV p3, r12");
    for (int part = 0; part < 3; ++part)
      k.op(fmt::format("L_VLD {}, p3, {}", V(part), rb), {{kState}, {}, -1});
    restore(1, 2, 0, 1, 2);
    k.op("A_MUL a1, a1, a0");
    split(0, 2, 3, 4, 5);
    k.li(12, alpha_row * rb);
    k.op("S_PMOV p3, r12");
    for (int part = 0; part < 3; ++part)
      k.op(fmt::format("L_VST {}, p3, {}", V(3 + part), rb), {{}, {kState}, -1});
    k.comment("P^T = exp(scale (S^T - m_new)) in place, summed into l (a1, a3)");
    k.op("A_BCST a3, r0");
    k.li(12, f.scores * rb);
    k.op("S_PMOV p4, r12");
    k.op("S_PMOV p5, r12");
    k.loop_reg(3, [&] {
      for (int64_t r = 0; r < kFlashKeysPerTile; ++r) {
        const int s = static_cast<int>(r % 4);
        const int w = static_cast<int>(std::array<int, 4>{0, 2, 4, 5}[static_cast<size_t>(s)]);
        const int sum = r % 2 == 0 ? 1 : 3;
        // no buffer token: in place, each row is read before its own store and after the earlier
        // passes (blocks before this loop), so the rows need not wait for each other's stores
        k.op(fmt::format("L_VLD {}, p4, {}", V(s), rb));
        k.op(fmt::format("A_UPS {}, {}", A(w), V(s)));
        k.op(fmt::format("A_SUB {}, {}, a6", A(w), A(w)));
        k.op(fmt::format("A_MUL {}, {}, a7", A(w), A(w)));
        k.op(fmt::format("A_EXP {}, {}", A(w), A(w)));
        k.op(fmt::format("A_ADD {}, {}, {}", A(sum), A(sum), A(w)));
        k.op(fmt::format("V_SRS {}, {}", V(4 + s), A(w)));
        k.op(fmt::format("L_VST {}, p5, {}", V(4 + s), rb), {{}, {kScores}, -1});
      }
    });
    k.op("A_ADD a1, a1, a3");
    split(1, 2, 8, 9, 10);
    k.li(12, l_row * rb);
    k.op("S_PMOV p3, r12");
    for (int part = 0; part < 3; ++part)
      k.op(fmt::format("L_VST {}, p3, {}", V(8 + part), rb), {{}, {kState}, -1});
  }

  // The next K block's second half and the O rows: acc = alpha * acc + P V.
  void block_output() {
    next_k();
    load_k(ch / 2, ch);
    k.comment("O rows: per (query row, chunk group): acc = alpha * acc + sum_j P[i, j] V[j, chunks]");
    k.op("C_ACQ 2", {{}, {kVblk}});
    k.op("S_ADDI r11, r0, 0");
    k.li(12, f.partial * rb);
    k.op("S_PMOV p6, r12");
    k.op("S_PMOV p7, r12");
    k.loop(pairs, [&] {
      broadcast_triple(alpha_row);
      lane_pointer(4, f.scores);  // P^T column of the query row
      // p5: V[0, the group's first chunk]
      k.li(13, groups - 1);
      k.op("S_AND r12, r11, r13");
      k.op(fmt::format("S_SLLI r12, r12, {}", log2(gc * rb)));
      k.li(13, f.vblk * rb);
      k.op("S_ADD r12, r12, r13");
      k.op("S_PMOV p5, r12");
      // p0: the second half of the group's chunks (two pointers, so two V loads can share a bundle)
      k.op(fmt::format("S_ADDI r12, r12, {}", half * rb));
      k.op("S_PMOV p0, r12");
      restore_pair();
      for (int64_t cc = 0; cc < gc; ++cc) k.op(fmt::format("A_MUL {}, {}, a4", A(cc), A(cc)));
      pipeline_reg(k, 3, 8, kFlashKeysPerTile, [&](int stage, int64_t u) {
        const int set = static_cast<int>(u % 2);
        if (stage == 0) {
          // key j = u mod 8 (blocks start at multiples of 8 keys): P^T row j is in bank j; with one
          // chunk group V[j, cc] is in bank j * ch + cc. With more, the group's bank offset is not known
          // here, but its chunks are in consecutive banks: their banks relative to the first chunk let
          // them pair with each other (P^T's row, bank unknown relative to them, then pairs with none).
          const bool known = groups == 1;
          k.op(fmt::format("L_VLDB {}, p4, {}", V(10 + set), rb),
               {{kScores}, {}, known ? static_cast<int>((f.scores + u) % c.banks) : -1});
          for (int64_t cc = 0; cc < gc; ++cc) {
            const bool second = cc >= half;
            const int64_t last = second ? gc - 1 : half - 1;  // the half's last chunk: on to the next key
            k.op(fmt::format("L_VLD {}, {}, {}", V(set * gc + cc), second ? "p0" : "p5",
                             cc < last ? rb : (ch - (last - (second ? half : 0))) * rb),
                 {{kVblk}, {}, static_cast<int>((known ? f.vblk + u * ch + cc : cc) % c.banks)});
          }
          return;
        }
        for (int64_t cc = 0; cc < gc; ++cc)
          k.op(fmt::format("A_VMAC {}, {}, {}", A(cc), V(10 + set), V(set * gc + cc)));
      });
      for (int64_t cc = 0; cc < gc; ++cc) {
        const int base = static_cast<int>(3 * (cc % 4));
        split(static_cast<int>(cc), static_cast<int>(5 + cc % 3), base, base + 1, base + 2);
        for (int part = 0; part < 3; ++part)
          k.op(fmt::format("L_VST {}, p7, {}", V(base + part), rb), {{}, {kOTriples}, -1});
      }
      k.op("S_ADDI r11, r11, 1");
    });
  }

  Ctx& c;
  KernelBuilder& k;
  const FlashPlan f;
  const int64_t seq = c.cfg.dim("S"), d = c.cfg.dim("D");
  const bool causal = c.cfg.dim("CAUSAL") != 0;
  const int64_t vl = c.vlen, rb = c.rb;
  const int64_t bk = f.key_block, ch = f.chunks, gc = f.pair_chunks, groups = f.groups;
  const int64_t half = (gc + 1) / 2;  // chunks of a group loaded through p5; the rest through p0
  const int64_t qblocks = seq / vl, pairs = vl * groups;
  const int64_t m_row = f.state, alpha_row = f.state + 1, l_row = f.state + 4;
  static constexpr int kQraw = kAcqBase + 0, kKblk = kAcqBase + 1, kVblk = kAcqBase + 2;
  enum : int { kQt = 300, kScores, kTrans0, kTrans1, kOTriples };
  Network qnet;
};

}  // namespace

GeneratedKernel flash_attention(Ctx& c, const KnobValues& values, const std::vector<Knob>& knobs) {
  FlashAttention flash(c, values, knobs);
  GeneratedKernel out = flash.plan_blocks();
  flash.set_up();
  flash.run();
  return out;
}

}  // namespace kcraft::vliw::template_detail
