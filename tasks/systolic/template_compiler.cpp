#include "tasks/systolic/template_compiler.h"

#include <stdexcept>

#include <fmt/format.h>

#include "tasks/systolic/templates.h"

namespace kcraft::systolic {

using namespace template_detail;  // NOLINT(google-build-using-namespace): the templates dispatched to

std::vector<std::string> TemplateCompiler::supported_tasks() const {
  return {"relu",
          "silu",
          "gelu",
          "softmax",
          "rms_norm",
          "layer_norm",
          "gemm",
          "linear",
          "gemv",
          "batch_matmul",
          "ffn",
          "swiglu",
          "attention",
          "mha",
          "gqa",
          "mqa",
          "rope",
          "conv2d",
          "depthwise_conv",
          "flash_attention",
          "conv_block",
          "decoder_block_llama",
          "decoder_block_t5"};
}

std::string TemplateCompiler::unsupported_reason(const tasks::ResolvedConfig& cfg) const {
  if (!supports(cfg.task)) return "no template for task " + cfg.task;
  const int64_t vlen = p_.vlen, mlen = p_.mlen;
  // Every tensor moves as rows of VLEN elements; counts such as heads, batch or CAUSAL need not.
  for (const auto* list : {&cfg.inputs, &cfg.outputs}) {
    for (const auto& t : *list) {
      if (!t.shape.empty() && t.shape.back() % vlen != 0)
        return fmt::format("tensor {}'s rows of {} elements are not a multiple of VLEN={}", t.name,
                           t.shape.back(), vlen);
    }
  }
  const std::string& t = cfg.task;
  if (t == "gemm" || t == "linear") {
    const int64_t k = cfg.dim("K");
    if (2 * k > p_.msram_rows) {
      return fmt::format("K={} needs {} MSRAM rows for double-buffered weight columns, MSRAM_ROWS={}", k,
                         2 * k, p_.msram_rows);
    }
    const int64_t kt = k / mlen;
    if (kt + 3 > p_.vsram_rows / p_.blen) return fmt::format("K={} leaves no VSRAM for an A block", k);
  }
  if (t == "softmax" || t == "rms_norm" || t == "layer_norm") {
    const int64_t d = cfg.dim("N") / vlen;
    if (4 * d + 2 * d > p_.vsram_rows)
      return fmt::format("a row of N={} does not fit VSRAM four times", cfg.dim("N"));
  }
  if (t == "gemv") {
    const int64_t m = cfg.dim("M"), k = cfg.dim("K");
    if (m % mlen != 0) return fmt::format("M={} is not a multiple of MLEN={}", m, mlen);
    if (m / mlen * p_.blen > p_.acc_rows || k / vlen + m / mlen + 2 * p_.blen > p_.vsram_rows)
      return fmt::format("M={}, K={} do not fit the accumulators and VSRAM", m, k);
  }
  if (t == "batch_matmul") return matmul_unsupported(p_, cfg.dim("M"), cfg.dim("K"), cfg.dim("N"));
  if (t == "ffn" || t == "swiglu") {
    auto why = matmul_unsupported(p_, cfg.dim("M"), cfg.dim("D"), cfg.dim("F"));
    return why.empty() ? matmul_unsupported(p_, cfg.dim("M"), cfg.dim("F"), cfg.dim("D")) : why;
  }
  if (t == "attention" || t == "mha" || t == "gqa" || t == "mqa") {
    const int64_t s = cfg.dim("S"), d = cfg.dim("D");
    auto why = matmul_unsupported(p_, s, d, s);
    if (why.empty()) why = matmul_unsupported(p_, s, s, d);
    if (why.empty() && (s / vlen) * vlen + 4 * vlen > p_.vsram_rows)
      why = fmt::format("a tile of {} score rows does not fit VSRAM", vlen);
    if (why.empty() && t == "gqa" && cfg.dim("HEADS") % cfg.dim("KV_HEADS") != 0)
      why = "KV_HEADS does not divide HEADS";
    return why;
  }
  if (t == "flash_attention" && flash_block_size(p_, cfg) == 0)
    return "no query/key block fits the score budget, FPSRAM, MSRAM and VSRAM together";
  if (t == "conv2d" || t == "depthwise_conv") {
    const auto g = conv_geometry(cfg);
    const int64_t chunks = cfg.dim("C") / vlen;
    if (t == "conv2d") {
      auto why = matmul_unsupported(p_, g.oh * g.ow, g.kh * g.kw * cfg.dim("C"), cfg.dim("F"));
      if (!why.empty()) return why;
      if ((g.kw * chunks + 1) * g.ow > p_.vsram_rows) return "the im2col buffers do not fit VSRAM";
    } else {
      const int64_t taps = g.kh * g.kw, owp = (g.ow + p_.blen - 1) / p_.blen * p_.blen;
      if (taps * chunks * mlen > p_.msram_rows)
        return fmt::format("{} diagonal weight tiles do not fit MSRAM", taps * chunks);
      if (owp > p_.acc_rows) return fmt::format("OW={} output rows do not fit the accumulators", g.ow);
      if ((taps + 1) * owp + 3 * vlen + taps * chunks * (vlen + 1) > p_.vsram_rows)
        return fmt::format("{} taps x OW={} rows of buffers do not fit VSRAM", taps, g.ow);
    }
  }
  if (t == "conv_block") {
    const auto g = conv_geometry(cfg);
    auto why = matmul_unsupported(p_, g.oh * g.ow, g.kh * g.kw * cfg.dim("C"), cfg.dim("F"));
    if (!why.empty()) return why;
    if ((g.kw * cfg.dim("C") / vlen + 1) * g.ow > p_.vsram_rows) return "the im2col buffers do not fit VSRAM";
    if (cfg.dim("RESIDUAL") != 0 && (cfg.dim("F") != cfg.dim("C") || g.oh != g.h || g.ow != g.w))
      return "the residual needs F = C and an output the size of the input";
  }
  if (t == "decoder_block_llama" || t == "decoder_block_t5") {
    const int64_t s = cfg.dim("S"), d = cfg.dim("D"), dh = cfg.dim("DH"), f = cfg.dim("F");
    const int64_t hd = cfg.dim("HEADS") * dh;
    for (const auto& [m, k, n] : std::vector<std::array<int64_t, 3>>{
             {s, d, dh}, {s, dh, s}, {s, s, dh}, {s, hd, d}, {s, d, f}, {s, f, d}}) {
      if (auto why = matmul_unsupported(p_, m, k, n); !why.empty()) return why;
    }
    if (t == "decoder_block_llama") {
      if (cfg.dim("HEADS") % cfg.dim("KV_HEADS") != 0) return "KV_HEADS does not divide HEADS";
      if (dh % (2 * vlen) != 0) return fmt::format("DH={} is not a multiple of 2*VLEN={}", dh, 2 * vlen);
    }
    // The causal masks, a tile of VLEN score rows and (T5) its relative-bias rows.
    if (4 * vlen + 2 * s > p_.vsram_rows)
      return fmt::format("a tile of {} score rows does not fit VSRAM", vlen);
    if (t == "decoder_block_t5" && f < hd) return "the relative-bias tables need F >= HEADS*DH";
    if (6 * d / vlen > p_.vsram_rows) return fmt::format("a row of D={} does not fit VSRAM four times", d);
  }
  if (t == "rope") {
    const int64_t d = cfg.dim("D");
    if (d % (2 * vlen) != 0) return fmt::format("D={} is not a multiple of 2*VLEN={}", d, 2 * vlen);
  }
  return "";
}

std::vector<Knob> TemplateCompiler::knobs(const tasks::ResolvedConfig& cfg) const {
  const std::string& t = cfg.task;
  if (t == "relu" || t == "silu" || t == "gelu") {
    return {{"tile_rows", "VSRAM rows per DMA tile", 64, {16, 32, 64, 128, 256, 512, 1024}},
            {"unroll", "rows per hardware-loop iteration", 2, {1, 2, 4, 8, 16}},
            {"double_buffer", "overlap the next tile's load with this tile's compute (0/1)", 1, {0, 1}}};
  }
  if (t == "softmax" || t == "rms_norm" || t == "layer_norm") {
    return {{"tile_rows", "tensor rows per DMA tile", 4, {1, 2, 4, 8, 16, 32}},
            {"unroll", "row chunks per hardware-loop iteration", 2, {1, 2, 4, 8}},
            {"accumulators", "FP registers the reductions rotate through", 1, {1, 2, 4}},
            {"double_buffer", "overlap the next tile's load with this tile's compute (0/1)", 1, {0, 1}}};
  }
  if (t == "gemv") {
    return {{"double_buffer", "load the next K chunk of A while this one multiplies (0/1)", 1, {0, 1}}};
  }
  if (t == "rope") {
    return {{"tile_rows", "VSRAM rows per tile of positions", 256, {64, 128, 256, 512, 1024}},
            {"double_buffer", "load the next head's tile while this one computes (0/1)", 1, {0, 1}}};
  }
  if (t == "flash_attention") return {};
  if (t == "depthwise_conv") return {};
  if (t == "conv2d" || t == "batch_matmul" || t == "ffn" || t == "swiglu" || t == "attention" || t == "mha" ||
      t == "gqa" || t == "mqa" || t == "conv_block" || t == "decoder_block_llama" ||
      t == "decoder_block_t5") {
    return {{"block_rows",
             "rows of A per block kept in VSRAM and the accumulators",
             256,
             {16, 32, 64, 128, 256, 512}},
            {"unroll", "M_MM instructions per hardware-loop iteration", 2, {1, 2, 4, 8}},
            {"double_buffer", "prefetch the next weight column while computing (0/1)", 1, {0, 1}}};
  }
  if (t == "gemm" || t == "linear") {
    return {{"block_rows",
             "rows of A (and C) per block kept in VSRAM and the accumulators",
             64,
             {16, 32, 64, 128, 256, 512}},
            {"unroll", "M_MM instructions per hardware-loop iteration", 1, {1, 2, 4, 8}},
            {"double_buffer",
             "prefetch the next weight column and store outputs while computing (0/1)",
             1,
             {0, 1}}};
  }
  throw std::invalid_argument("no template for task " + t);
}

GeneratedKernel TemplateCompiler::generate(const tasks::ResolvedConfig& cfg, const tasks::DramLayout& layout,
                                           const KnobValues& values) const {
  if (auto why = unsupported_reason(cfg); !why.empty()) {
    throw std::invalid_argument(fmt::format("{} {} on systolic: {}", cfg.task, cfg.config, why));
  }
  Generator g(p_, cfg, layout, values, knobs(cfg));
  if (cfg.task == "relu" || cfg.task == "silu" || cfg.task == "gelu") return g.elementwise();
  if (cfg.task == "gemv") return g.gemv();
  if (cfg.task == "batch_matmul") return g.batch_matmul();
  if (cfg.task == "ffn" || cfg.task == "swiglu") return g.ffn();
  if (cfg.task == "attention" || cfg.task == "mha" || cfg.task == "gqa" || cfg.task == "mqa")
    return g.attention();
  if (cfg.task == "conv_block") return g.conv_block();
  if (cfg.task == "decoder_block_llama" || cfg.task == "decoder_block_t5") return g.decoder_block();
  if (cfg.task == "conv2d") return g.conv2d();
  if (cfg.task == "depthwise_conv") return g.depthwise_conv();
  if (cfg.task == "flash_attention") return g.flash_attention();
  if (cfg.task == "rope") return g.rope();
  if (cfg.task == "softmax" || cfg.task == "rms_norm" || cfg.task == "layer_norm") return g.row_norm();
  return g.gemm();  // gemm, linear
}

}  // namespace kcraft::systolic
