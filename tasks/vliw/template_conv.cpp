#include "tasks/vliw/templates.h"

#include <algorithm>
#include <stdexcept>

#include <fmt/format.h>

namespace kcraft::vliw::template_detail {

// ---------------------------------------------------------------- conv2d
//
// im2col through the scratch region, then the gemm template: A = im2col [OH*OW, KH*KW*C] (scratch), B = w
// viewed as [KH*KW*C, F], C = y. Row (oh, ow) of the im2col matrix holds x[oh*S + i - P, ow*S + j - P, :]
// at columns (i*KW + j)*C.. (zeros outside the image). Per output row oh and tap (i, j) and channel chunk,
// one DMA gathers the valid pixels' chunk (DRAM stride S*C*2) into a DM buffer and one stores it into
// the im2col rows (DRAM stride K*2); the pixels in the padding get rows of zeros from a zero region. Two
// buffers alternate, buffer b's load and store on channel b (a channel works in order, so the store has
// read the buffer before the next load into it writes); a tap's load is issued before the previous tap's
// store waits for its data. Output rows whose taps all lie inside the image are one hardware loop.

ConvShape conv_shape(const tasks::ResolvedConfig& cfg) {
  ConvShape d;
  d.h = cfg.dim("H");
  d.w = cfg.dim("W");
  d.c = cfg.dim("C");
  d.f = cfg.dim("F");
  d.kh = cfg.dim("KH");
  d.kw = cfg.dim("KW");
  d.s = cfg.dim("STRIDE");
  d.pad = cfg.dim("PAD");
  d.oh = (d.h + 2 * d.pad - d.kh) / d.s + 1;
  d.ow = (d.w + 2 * d.pad - d.kw) / d.s + 1;
  d.m = d.oh * d.ow;
  d.k = d.kh * d.kw * d.c;
  return d;
}

MatJob conv_product(const ConvShape& d) {
  MatJob job;
  job.m = d.m;
  job.k = d.k;
  job.n = d.f;
  job.a = "scratch";
  job.b = "w";
  job.c = "y";
  return job;
}

int64_t conv_bands(const Params& p, const ConvShape& d) {
  const int64_t dm_rows = p.dm_bytes / p.row_bytes();
  for (int64_t bands = 1; bands <= d.oh; ++bands) {
    if (d.oh % bands != 0) continue;
    MatJob job = conv_product(d);
    job.m = d.m / bands;
    if (job.m % p.mmul_m() != 0) continue;
    const MatPlan plan = matmul_plan(p, job, 1);
    if (plan.chunks == 0) continue;
    if (matmul_dm_rows(p, job, plan.tm, 1, plan.chunks) <= dm_rows - (bands > 1 ? 1 : 0)) return bands;
  }
  return 0;
}

namespace {

// conv2d's im2col phase: the im2col matrix [OH*OW, KH*KW*C] in scratch, gathered and scattered by DMA
// output row by output row (emit()), with every store waited for at the end.
class Im2col {
 public:
  Im2col(Ctx& ctx, const ConvJob& job, const ConvShape& shape) : c(ctx), k(ctx.k), cjob(job), d(shape) {}

  void emit() {
    k.comment(
        fmt::format("im2col into scratch: DM rows of zeros {}, gather buffers {} and {}", zero, buf0, buf1));
    k.li(12, zero * rb);
    k.op("S_PMOV p0, r12");
    k.op("V_BCST v0, r0");
    k.loop(d.ow, [&] { k.op(fmt::format("L_VST v0, p0, {}", rb), {{}, {kState}, -1}); });
    k.comment("r1: x at image row oh*S - P, r2: the im2col row of pixel (oh, 0), r3: S*C*2, r4: K*2,");
    k.comment("r6/r7: the buffers, r8: the zeros");
    k.li(1, c.addr("x") - d.pad * d.w * d.c * 2);
    k.li(2, c.addr("scratch"), c.sym("scratch"));
    k.li(3, d.s * d.c * 2);
    k.li(4, d.k * 2);
    k.li(6, buf0 * rb);
    k.li(7, buf1 * rb);
    k.li(8, zero * rb);
    if (c.loop_pieces && cv > 0) {
      looped_rows();
    } else {
      // output rows whose tap rows all lie in the image: oh*S - P >= 0 and oh*S - P + KH - 1 < H
      auto inside = [&](int64_t oh) { return oh * d.s - d.pad >= 0 && oh * d.s - d.pad + d.kh - 1 < d.h; };
      for (int64_t oh = 0; oh < d.oh;) {
        if (inside(oh)) {
          int64_t n = 0;
          while (oh + n < d.oh && inside(oh + n)) ++n;
          k.comment(fmt::format("output rows {}..{}: every tap row in the image", oh, oh + n - 1));
          emit_rows([](int64_t) { return true; }, n);
          oh += n;
        } else {
          k.comment(fmt::format("output row {}", oh));
          emit_rows(
              [&](int64_t i) {
                const int64_t ih = oh * d.s - d.pad + i;
                return ih >= 0 && ih < d.h;
              },
              1);
          ++oh;
        }
      }
    }
    k.comment("wait for every im2col store (the last of each output row on each channel releases a lock)");
    for (int ch = 0; ch < 2; ++ch)
      k.loop(fences[ch], [&] { k.op(fmt::format("C_ACQ {}", 5 + ch), {{}, {}, -1, true}); });
  }

 private:
  struct Xfer {
    bool load = false;
    int ch = 0, dm_reg = 8;
    int64_t offset = 0, rows = 0;  // bytes from r1 (load) or r2 (store)
    int lock = -1;
  };

  // One output row's transfers; valid_row(i): tap row i inside the image (all of them in the loop).
  void out_row(const std::function<bool(int64_t)>& valid_row, int64_t times) {
    std::vector<Xfer> xs;
    int64_t tap = 0;
    int pending = -1;  // index in xs of the data store waiting for its load
    for (int64_t i = 0; i < d.kh; ++i) {
      for (int64_t j = 0; j < d.kw; ++j) {
        // pixels ow with 0 <= ow*S + j - P < W
        const int64_t lo = std::max<int64_t>(0, (d.pad - j + d.s - 1) / d.s);
        const int64_t hi = std::min<int64_t>(d.ow - 1, (d.w - 1 + d.pad - j) / d.s);
        const bool any = valid_row(i) && hi >= lo;
        for (int64_t cc = 0; cc < cv; ++cc) {
          const int64_t col = (i * d.kw + j) * d.c * 2 + cc * rb;
          if (!any) {
            xs.push_back({false, 0, 8, col, d.ow});
            continue;
          }
          if (lo > 0) xs.push_back({false, 0, 8, col, lo});
          if (hi < d.ow - 1) xs.push_back({false, 0, 8, (hi + 1) * d.k * 2 + col, d.ow - 1 - hi});
          const int b = static_cast<int>(tap++ % 2);
          xs.push_back({true, b, 6 + b, (i * d.w + lo * d.s + j - d.pad) * d.c * 2 + cc * rb, hi - lo + 1});
          if (pending >= 0) {
            const Xfer st = xs[static_cast<size_t>(pending)];
            xs.erase(xs.begin() + pending);
            xs.push_back(st);
          }
          xs.push_back({false, b, 6 + b, lo * d.k * 2 + col, hi - lo + 1});
          pending = static_cast<int>(xs.size()) - 1;
        }
      }
    }
    for (int ch = 0; ch < 2; ++ch) {
      for (size_t x = xs.size(); x-- > 0;) {
        if (!xs[x].load && xs[x].ch == ch) {
          xs[x].lock = 5 + ch;
          fences[ch] += times;
          break;
        }
      }
    }
    auto body = [&] {
      for (const Xfer& x : xs) {
        if (x.load) {
          k.li(13, x.offset);
          k.op("S_ADD r13, r13, r1");
          k.li(12, x.rows);
          k.op(fmt::format("C_DMALD {}, {}, r13, r3, r12, {}", x.ch, R(x.dm_reg), 3 + x.ch),
               {{}, {kOutBase + x.ch}});
          continue;
        }
        if (x.dm_reg != 8) k.op(fmt::format("C_ACQ {}", 3 + x.ch), {{}, {kOutBase + x.ch}});
        k.li(14, x.offset);
        k.op("S_ADD r14, r14, r2");
        k.li(5, x.rows);
        k.op(fmt::format("C_DMAST {}, {}, r14, r4, r5{}", x.ch, R(x.dm_reg),
                         x.lock >= 0 ? fmt::format(", {}", x.lock) : ""),
             {{x.dm_reg == 8 ? kState : kOutBase + x.ch}, {}, -1});
      }
      c.add(1, d.s * d.w * d.c * 2, 14);
      c.add(2, d.ow * d.k * 2, 14);
    };
    k.loop(times, body);
  }

  // One channel chunk of one tap in the im2col buffer (r10: its column, r9: its image pixels): zero rows
  // where the tap falls outside the image, the gathered pixels stored between them; `fence` releases the
  // lock on the last store.
  void store_tap_chunk(bool any, int64_t lo, int64_t hi, const std::string& fence) {
    if (!any) {
      k.li(5, d.ow);
      k.op("C_DMAST 0, r8, r10, r4, r5" + fence, {{kState}, {}, -1});
      return;
    }
    if (lo > 0) {
      k.li(5, lo);
      k.op("C_DMAST 0, r8, r10, r4, r5", {{kState}, {}, -1});
    }
    if (hi < d.ow - 1) {
      k.li(14, (hi + 1) * d.k * 2);
      k.op("S_ADD r14, r14, r10");
      k.li(5, d.ow - 1 - hi);
      k.op("C_DMAST 0, r8, r14, r4, r5", {{kState}, {}, -1});
    }
    k.li(12, hi - lo + 1);
    k.op("C_DMALD 0, r6, r9, r3, r12, 3", {{}, {kOutBase}});
    k.op("C_ACQ 3", {{}, {kOutBase}});
    k.li(14, lo * d.k * 2);
    k.op("S_ADD r14, r14, r10");
    k.li(5, hi - lo + 1);
    k.op("C_DMAST 0, r6, r14, r4, r5" + fence, {{kOutBase}, {}, -1});
    k.op(fmt::format("S_ADDI r9, r9, {}", rb));
  }

  // With several channel chunks per pixel, a hardware loop over the chunks of each tap keeps the code
  // small: all on channel 0, the gather waited for before its scatter; r9/r10 walk the tap's chunks.
  void out_row_chunked(const std::function<bool(int64_t)>& valid_row, int64_t times) {
    k.loop(times, [&] {
      for (int64_t i = 0; i < d.kh; ++i) {
        for (int64_t j = 0; j < d.kw; ++j) {
          const int64_t lo = std::max<int64_t>(0, (d.pad - j + d.s - 1) / d.s);
          const int64_t hi = std::min<int64_t>(d.ow - 1, (d.w - 1 + d.pad - j) / d.s);
          const bool any = valid_row(i) && hi >= lo, last = i == d.kh - 1 && j == d.kw - 1;
          const std::string fence = last ? ", 5" : "";
          if (any) {
            k.li(14, (i * d.w + lo * d.s + j - d.pad) * d.c * 2);
            k.op("S_ADD r9, r14, r1");
          }
          k.li(14, (i * d.kw + j) * d.c * 2);
          k.op("S_ADD r10, r14, r2");
          k.loop(cv, [&] {
            store_tap_chunk(any, lo, hi, fence);
            k.op(fmt::format("S_ADDI r10, r10, {}", rb));
          });
        }
      }
      c.add(1, d.s * d.w * d.c * 2, 14);
      c.add(2, d.ow * d.k * 2, 14);
    });
    fences[0] += cv * times;
  }

  void emit_rows(const std::function<bool(int64_t)>& valid_row, int64_t times) {
    if (cv > 1) {
      out_row_chunked(valid_row, times);
    } else {
      out_row(valid_row, times);
    }
  }

  // The last resort for IMEM (Ctx::loop_pieces): one copy of the row code for every output row, in one
  // hardware loop. Per row, the tap rows above the image (top), inside it (mid) and below it (bot) are
  // counts computed from r11 = oh * S - P, each section a loop: zero stores for top and bot, the taps of one
  // tap row (r7: its image row in DRAM) for mid. r10 walks the im2col columns (consecutive: tap after tap,
  // chunk after chunk); everything is on channel 0, in order, so one store of a zero row to the output
  // region (overwritten by the product later) releases the lock after the last im2col store.
  void looped_rows() {
    k.comment("every output row: tap rows above the image, in it and below it (r11 = oh * S - P)");
    k.li(11, -d.pad);
    auto top = [&] {  // r12 = max(0, -r11)
      k.op("S_SUB r12, r0, r11");
      k.op("S_SRLI r14, r11, 31");
      k.op("S_MUL r12, r12, r14");
    };
    auto bot = [&](int dst, int tmp) {  // dst = max(0, r11 + KH - H)
      k.op(fmt::format("S_ADDI {}, r11, {}", R(dst), d.kh - d.h));
      k.op(fmt::format("S_SUB {}, r0, {}", R(tmp), R(dst)));
      k.op(fmt::format("S_SRLI {}, {}, 31", R(tmp), R(tmp)));
      k.op(fmt::format("S_MUL {}, {}, {}", R(dst), R(dst), R(tmp)));
    };
    auto zero_tap_rows = [&] {
      k.loop_reg(12, [&] {
        k.loop(d.kw * cv, [&] {
          k.li(5, d.ow);
          k.op("C_DMAST 0, r8, r10, r4, r5", {{kState}, {}, -1});
          k.op(fmt::format("S_ADDI r10, r10, {}", rb));
        });
      });
    };
    k.loop(d.oh, [&] {
      k.op("S_ADDI r10, r2, 0");
      top();
      zero_tap_rows();
      top();
      k.li(14, d.w * d.c * 2);
      k.op("S_MUL r14, r12, r14");
      k.op("S_ADD r7, r1, r14");
      bot(14, 5);
      k.op("S_ADD r12, r12, r14");
      k.li(14, d.kh);
      k.op("S_SUB r12, r14, r12");
      k.loop_reg(12, [&] {
        for (int64_t j = 0; j < d.kw; ++j) {
          const int64_t lo = std::max<int64_t>(0, (d.pad - j + d.s - 1) / d.s);
          const int64_t hi = std::min<int64_t>(d.ow - 1, (d.w - 1 + d.pad - j) / d.s);
          const bool any = hi >= lo;
          if (any) {
            k.li(14, (lo * d.s + j - d.pad) * d.c * 2);
            k.op("S_ADD r9, r14, r7");
          }
          k.loop(cv, [&] {
            store_tap_chunk(any, lo, hi, "");
            k.op(fmt::format("S_ADDI r10, r10, {}", rb));
          });
        }
        c.add(7, d.w * d.c * 2, 14);
      });
      bot(12, 14);
      zero_tap_rows();
      c.add(1, d.s * d.w * d.c * 2, 14);
      c.add(2, d.ow * d.k * 2, 14);
      k.op(fmt::format("S_ADDI r11, r11, {}", d.s));
    });
    c.li_addr(14, cjob.out, cjob.out_offset);
    k.li(5, 1);
    k.op("C_DMAST 0, r8, r14, r4, r5, 5", {{kState}, {}, -1});
    fences[0] = 1;
    fences[1] = 0;
  }

  Ctx& c;
  KernelBuilder& k;
  const ConvJob& cjob;
  const ConvShape d;
  const int64_t rb = c.rb, cv = d.c / c.vlen;
  // DM rows: zeros (OW rows), two gather buffers (OW rows each). Locks 3/4: buffer loads landed; 5/6: the
  // last store of an output row on channel 0/1 has been written.
  const int64_t zero = 0, buf0 = d.ow, buf1 = 2 * d.ow;
  int64_t fences[2] = {0, 0};  // fence releases per channel over the whole im2col
};

}  // namespace

GeneratedKernel conv2d(Ctx& c, const ConvJob& cjob, const KnobValues& values,
                       const std::vector<Knob>& knobs) {
  KernelBuilder& k = c.k;
  const ConvShape d = conv_shape(c.cfg);
  Im2col(c, cjob, d).emit();
  const int64_t bands = conv_bands(c.p, d);
  if (bands == 0) throw std::invalid_argument("conv2d: the product does not fit DM");
  GeneratedKernel out;
  if (bands == 1) {
    k.comment("y = im2col w");
    MatJob job = conv_product(d);
    job.c = cjob.out;
    job.c_offset = cjob.out_offset;
    job.last = cjob.last;
    out = matmul(c, job, values, knobs);
  } else {
    // The product in bands of output rows (a hardware loop): the band's im2col rows and y rows are DRAM
    // addresses in DM words that the product reads, advanced after each band.
    c.dm_rows -= 1;
    const int64_t state = c.dm_rows * c.rb, band_m = d.m / bands;
    k.comment(fmt::format("y = im2col w in {} bands of {} rows; DM words at {}: the band's A and y", bands,
                          band_m, state));
    k.li(12, state);
    k.op("S_PMOV p4, r12");
    k.li(12, c.addr("scratch"), c.sym("scratch"));
    k.op("L_SST r12, p4, 4", {{}, {kState}, -1});
    c.li_addr(12, cjob.out, cjob.out_offset);
    k.op("L_SST r12, p4, 0", {{}, {kState}, -1});
    MatJob job = conv_product(d);
    job.m = band_m;
    job.a_word = state;
    job.c_word = state + 4;
    job.max_strips = 1;  // one loop level fewer
    job.last = false;
    k.loop(bands, [&] {
      out = matmul(c, job, values, knobs);
      k.li(12, state);
      k.op("S_PMOV p4, r12");
      k.op("L_SLD r1, p4, 4", {{kState}, {}, -1});
      k.op("L_SLD r2, p4, -4", {{kState}, {}, -1});
      k.li(13, band_m * d.k * 2);
      k.op("S_ADD r1, r1, r13");
      k.li(13, band_m * d.f * 2);
      k.op("S_ADD r2, r2, r13");
      k.op("L_SST r1, p4, 4", {{}, {kState}, -1});
      k.op("L_SST r2, p4, 0", {{}, {kState}, -1});
    });
    c.dm_rows += 1;
    if (cjob.last) k.op("C_HALT", {{}, {}, -1, true});
    out.summary = fmt::format("{} bands of {} output pixels: {}", bands, band_m, out.summary);
  }
  out.summary = fmt::format(
      "im2col of the {}x{} taps into scratch by DMA (one gather and one scatter per output row, tap and "
      "channel chunk; zero rows for the padding); then {}",
      d.kh, d.kw, out.summary);
  return out;
}

// ---------------------------------------------------------------- depthwise_conv
//
// Image rows go through a ring of R = KH + STRIDE row slots in DM (each input row read once; slots keep PAD
// zero pixels on both sides, and rows above or below the image are zero slots), so output row oh reads its
// KH input rows from slots (oh * STRIDE + i) mod R. Per output pixel and channel chunk: KH * KW A_VMACs of
// the tap's x and w rows (two partial accumulators when few chunks), V_SRS, into a double-buffered output
// row stored by DMA. The next rows load while a row computes. When the ring of whole pixels does not fit
// DM, the image is convolved one chunk of channels (VLEN) at a time: `groups` passes over the image, each
// with one chunk per pixel in DM (the DMA gathers it with the pixel stride C * 2).

DepthwiseShape depthwise_shape(const Params& p, const tasks::ResolvedConfig& cfg) {
  DepthwiseShape d{};
  d.h = cfg.dim("H");
  d.w = cfg.dim("W");
  d.c = cfg.dim("C");
  d.kh = cfg.dim("KH");
  d.kw = cfg.dim("KW");
  d.stride = cfg.dim("STRIDE");
  d.pad = cfg.dim("PAD");
  d.oh = (d.h + 2 * d.pad - d.kh) / d.stride + 1;
  d.ow = (d.w + 2 * d.pad - d.kw) / d.stride + 1;
  d.cv = d.c / static_cast<int64_t>(p.vlen);
  d.ring = d.kh + d.stride;
  const int64_t banks = p.dm_banks;
  auto round_up = [&](int64_t rows) { return (rows + banks - 1) / banks * banks; };
  auto rows = [&] {
    d.slot_rows = round_up((d.w + 2 * d.pad) * d.cv);
    d.w_rows = round_up(d.kh * d.kw * d.cv);
    d.out_rows = round_up(d.ow * d.cv);
    d.total_rows = d.w_rows + d.ring * d.slot_rows + 2 * d.out_rows;
  };
  rows();
  d.whole_rows = d.total_rows;
  if (d.total_rows * p.row_bytes() > p.dm_bytes && d.cv > 1) {  // one chunk of channels per pass
    d.groups = d.cv;
    d.cv = 1;
    rows();
  }
  return d;
}

namespace {

// depthwise_conv, phase by phase: plan() (the unroll, the banks), set_up() (the ring, the taps, the
// registers, the first window's rows) and run() (the image's output rows, in passes of one chunk of channels
// when the ring of whole pixels does not fit DM).
class Depthwise {
 public:
  explicit Depthwise(Ctx& ctx) : c(ctx), k(ctx.k), d(depthwise_shape(ctx.p, ctx.cfg)) {}

  GeneratedKernel plan(const KnobValues& values, const std::vector<Knob>& knobs) {
    if (d.total_rows > c.dm_rows) throw std::invalid_argument("the depthwise ring does not fit DM");
    if (d.cv > 8) throw std::invalid_argument("depthwise: more channel chunks than accumulators");
    for (int64_t g = 1; g <= c.banks; g *= 2) {
      if ((g * d.stride * d.cv) % c.banks == 0) {
        unit_period = g;
        break;
      }
    }
    unroll = std::max<int64_t>(sets, std::clamp<int64_t>(knob(values, knobs, "unroll"), 1, 8));
    banks_known = unroll % unit_period == 0 && unroll % sets == 0;
    GeneratedKernel out;
    out.knobs = {{"unroll", unroll}};
    out.summary = fmt::format(
        "input rows through a ring of {} DM slots (each read once; zero padding in DM), output rows "
        "double-buffered; per pixel and chunk {} A_VMACs, {} pixels per loop iteration",
        d.ring, d.kh * d.kw, unroll);
    if (grouped)
      out.summary += fmt::format(
          "; {} passes over the image, one chunk of {} channels each (the whole pixels' ring needs {} "
          "bytes of DM)",
          d.groups, c.vlen, d.whole_rows * rb);
    return out;
  }

  void set_up() {
    k.comment(fmt::format("DM rows: w {}, ring {} ({} slots of {}), output {}/{}", w_base, ring_base, d.ring,
                          d.slot_rows, out0, out1));
    if (grouped) {
      k.comment("r7: the DRAM stride of a chunk's pixels (C * 2); p5: this pass's chunk of w in DRAM");
      k.li(7, d.c * 2);
      k.li(12, c.addr("w"), c.sym("w"));
      k.op("S_PMOV p5, r12");
    } else {
      zero_ring();
      k.li(12, c.addr("w"), c.sym("w"));
      k.li(13, w_base * rb);
      k.li(7, rb);
      k.li(14, d.kh * d.kw * d.cv);
      k.op(fmt::format("C_DMALD {}, r13, r12, r7, r14, 15", c.ch(1)));
      k.op("C_ACQ 15", {{}, {kGamma}});
    }
    k.comment("r1 next image row in DRAM, r2 next output row, r3 (oh * STRIDE) mod R, r4 next slot to fill,");
    k.comment(
        "r5 output buffer, r6 its swap mask, r7 ROW_BYTES, r8 DM rows per image row, r9 per output row");
    k.li(1, c.addr("x"), c.sym("x"));
    k.li(2, c.addr("y"), c.sym("y"));
    if (!grouped) {
      k.li(3, 0);
      k.li(4, 0);
    }
    k.li(5, out0 * rb);
    k.li(6, (out0 ^ out1) * rb);
    k.li(8, d.w * d.cv);
    k.li(9, d.ow * d.cv);
    k.op("C_REL 2");
    k.op("C_REL 2");
    if (!grouped) prologue();
  }

  void run() {
    if (grouped) {
      k.loop(d.groups, [&] {
        k.comment(
            "a pass: the ring zeroed, this chunk's taps, then the image (r1, r2 at the chunk's pixels)");
        zero_ring();
        k.op("S_PGET r12, p5");
        load_w();
        k.op(fmt::format("S_PADDI p5, {}", rb));
        k.li(3, 0);
        k.li(4, 0);
        prologue();
        image();
        c.add(1, rb - d.h * row_bytes_dram, 14);
        c.add(2, rb - d.oh * d.ow * d.c * 2, 14);
      });
    } else {
      image();
    }
    k.op("C_HALT", {{}, {}, -1, true});
  }

 private:
  // zero the ring (padding and the rows outside the image)
  void zero_ring() {
    k.op("V_BCST v0, r0");
    k.li(12, ring_base * rb);
    k.op("S_PMOV p0, r12");
    k.loop(d.ring * d.slot_rows, [&] { k.op(fmt::format("L_VST v0, p0, {}", rb), {{}, {kRes}, -1}); });
  }

  // the filter taps (of this pass's chunk: DRAM address in r12, rows C * 2 apart)
  void load_w() {
    k.li(13, w_base * rb);
    k.li(14, d.kh * d.kw * d.cv);
    k.op(fmt::format("C_DMALD {}, r13, r12, r7, r14, 15", c.ch(1)));
    k.op("C_ACQ 15", {{}, {kGamma}});
  }

  void wrap(int reg) {  // reg (< 2R) mod R
    k.li(12, d.ring - 1);
    k.op(fmt::format("S_SUB r12, r12, {}", R(reg)));
    k.op("S_SRLI r12, r12, 31");
    k.li(13, d.ring);
    k.op("S_MUL r12, r12, r13");
    k.op(fmt::format("S_SUB {}, {}, r12", R(reg), R(reg)));
  }

  void slot_addr(int reg, int to) {  // r<to> = DM address of slot r<reg>'s first image pixel
    k.li(13, d.slot_rows * rb);
    k.op(fmt::format("S_MUL {}, {}, r13", R(to), R(reg)));
    k.li(13, (ring_base + d.pad * d.cv) * rb);
    k.op(fmt::format("S_ADD {}, {}, r13", R(to), R(to)));
  }

  // Fills slot r4 with the next image row (DMA, lock 0) or zeros (below the image), then advances r4.
  void fill(bool valid) {
    slot_addr(4, 10);
    if (valid) {
      k.op("C_DMALD 0, r10, r1, r7, r8, 0", {{}, {kRes}, -1});
      c.add(1, row_bytes_dram, 14);
    } else {
      k.op("S_PMOV p0, r10");
      k.loop(d.w * d.cv, [&] { k.op(fmt::format("L_VST v0, p0, {}", rb), {{}, {kRes}, -1}); });
    }
    k.op("S_ADDI r4, r4, 1");
    wrap(4);
  }

  // rows q = r + PAD of the ring order; row r valid when 0 <= r < H
  bool valid_row(int64_t q) const { return q - d.pad >= 0 && q - d.pad < d.h; }
  int64_t needed(int64_t oh) {  // image rows loaded for windows 0..oh
    return std::clamp<int64_t>(oh * d.stride + d.kh - d.pad, 0, d.h);
  }

  // Prologue: window 0's rows (those above the image are the ring's zeros: their slots are first used
  // for them); fill-order position q starts at PAD for the image's first row.
  void prologue() {
    for (int64_t q = 0; q < d.kh; ++q) {
      if (valid_row(q)) {
        fill(true);
      } else {
        k.op("S_ADDI r4, r4, 1");
        wrap(4);
      }
    }
  }

  struct Sig {
    int64_t acquire, loads, zeros;
    bool operator==(const Sig& o) const {
      return acquire == o.acquire && loads == o.loads && zeros == o.zeros;
    }
  };
  Sig sig(int64_t oh) {
    Sig g{needed(oh) - (oh > 0 ? needed(oh - 1) : 0), 0, 0};
    if (oh + 1 < d.oh) {
      for (int64_t q = oh * d.stride + d.kh; q < (oh + 1) * d.stride + d.kh; ++q) {
        if (valid_row(q)) {
          ++g.loads;
        } else if (q >= d.h + d.pad) {
          ++g.zeros;
        } else {  // above the image: a zero slot already
          ++g.zeros;
        }
      }
    }
    return g;
  }

  void row(const Sig& g) {
    for (int64_t i = 0; i < g.acquire; ++i) k.op("C_ACQ 0", {{}, {kRes}});
    for (int64_t i = 0; i < g.loads; ++i) fill(true);
    for (int64_t i = 0; i < g.zeros; ++i) fill(false);
    k.op("C_ACQ 2", {{}, {kOutStage}});
    k.op("S_PMOV p7, r5");
    k.li(11, w_base * rb);
    k.op("S_PMOV p6, r11");
    for (int64_t i = 0; i < d.kh; ++i) {
      k.op(fmt::format("S_ADDI r11, r3, {}", i));
      wrap(11);
      slot_addr(11, 11);
      k.li(13, d.pad * d.cv * rb);
      k.op("S_SUB r11, r11, r13");  // the slot's first (padding) pixel
      k.op(fmt::format("S_PMOV {}, r11", P(i)));
    }
    const int64_t taps = d.kh * d.kw * d.cv;
    pipeline(k, d.ow, 2, unroll, [&](int stage, int64_t u) {
      const int64_t set = u % sets, abase = set * d.cv * parts;
      if (stage == 0) {
        int64_t t = 0;
        for (int64_t i = 0; i < d.kh; ++i) {
          for (int64_t j = 0; j < d.kw; ++j) {
            for (int64_t cc = 0; cc < d.cv; ++cc, ++t) {
              const bool last_of_row = j + 1 == d.kw && cc + 1 == d.cv;
              const int64_t xinc = last_of_row ? (d.stride * d.cv - d.kw * d.cv + 1) * rb : rb;
              const int64_t winc = t + 1 == taps ? -(taps - 1) * rb : rb;
              const int64_t xv = 1 + t % 6, wv = 7 + t % 6;
              const int xbank =
                  banks_known ? static_cast<int>(((u * d.stride + j) * d.cv + cc) % c.banks) : -1;
              k.op(fmt::format("L_VLD {}, {}, {}", V(xv), P(i), xinc), {{kRes}, {}, xbank});
              k.op(fmt::format("L_VLD {}, p6, {}", V(wv), winc),
                   {{kGamma}, {}, static_cast<int>((w_base + t) % c.banks)});
              const int64_t part = parts == 2 ? (i * d.kw + j) % 2 : 0;
              const int64_t acc = abase + part * d.cv + cc;
              const bool first = i * d.kw + j < parts;
              k.op(fmt::format("{} {}, {}, {}", first ? "A_VMUL" : "A_VMAC", A(acc), V(xv), V(wv)));
            }
          }
        }
      } else {
        for (int64_t cc = 0; cc < d.cv; ++cc) {
          const int64_t acc = abase + cc;
          if (parts == 2) k.op(fmt::format("A_ADD {}, {}, {}", A(acc), A(acc), A(acc + d.cv)));
          k.op(fmt::format("V_SRS {}, {}", V(13 + cc % 3), A(acc)));
          k.op(fmt::format("L_VST {}, p7, {}", V(13 + cc % 3), rb), {{}, {kOutStage}, -1});
        }
      }
    });
    k.op("C_DMAST 1, r5, r2, r7, r9, 2", {{kOutStage}, {}, -1});
    c.add(2, d.ow * d.c * 2, 14);
    k.op("S_XOR r5, r5, r6");
    k.op(fmt::format("S_ADDI r3, r3, {}", d.stride));
    wrap(3);
  }

  void image() {
    for (int64_t oh = 0; oh < d.oh;) {
      const Sig g = sig(oh);
      int64_t run = 1;
      while (oh + run < d.oh && sig(oh + run) == g) ++run;
      k.loop(run, [&] { row(g); });
      oh += run;
    }
  }

  Ctx& c;
  KernelBuilder& k;
  const DepthwiseShape d;
  const int64_t rb = c.rb, w_base = 0, ring_base = d.w_rows, out0 = ring_base + d.ring * d.slot_rows,
                out1 = out0 + d.out_rows;
  const int64_t parts = d.cv <= 2 && d.kh * d.kw >= 2 ? 2 : 1;  // partial sums per chunk (A_VMAC latency 3)
  const int64_t sets = 2 * d.cv * parts <= 8 ? 2 : 1;           // accumulator sets for consecutive pixels
  int64_t unit_period = c.banks;                                // pixels after which the x rows' banks repeat
  int64_t unroll = 0;
  bool banks_known = false;
  const bool grouped = d.groups > 1;
  const int64_t row_bytes_dram = d.w * d.c * 2;
};

}  // namespace

GeneratedKernel depthwise(Ctx& c, const KnobValues& values, const std::vector<Knob>& knobs) {
  Depthwise conv(c);
  GeneratedKernel out = conv.plan(values, knobs);
  conv.set_up();
  conv.run();
  return out;
}

}  // namespace kcraft::vliw::template_detail
