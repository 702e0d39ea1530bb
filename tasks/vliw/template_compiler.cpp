#include "tasks/vliw/template_compiler.h"

#include <map>
#include <mutex>
#include <set>
#include <stdexcept>

#include <fmt/format.h>

#include "tasks/common/layout.h"
#include "tasks/vliw/templates.h"

namespace kcraft::vliw {

using namespace template_detail;  // NOLINT(google-build-using-namespace): the templates dispatched to

std::string vector_dims_reason(const tasks::ResolvedConfig& cfg, int64_t vlen) {
  // Counts (batch, heads, image height and width, kernel taps, stride, padding, the causal flag) index
  // rows or whole tensors; every other dimension runs along DM rows and must fill whole vectors.
  static const std::set<std::string> counts = {"BATCH", "HEADS", "KV_HEADS", "CAUSAL", "H",       "W",
                                               "KH",    "KW",    "STRIDE",   "PAD",    "RESIDUAL"};
  for (const auto& [name, value] : cfg.dims) {
    if (counts.count(name) == 0 && value % vlen != 0)
      return fmt::format("dimension {}={} is not a multiple of the vector width VLEN={}", name, value, vlen);
  }
  return "";
}

std::vector<std::string> TemplateCompiler::supported_tasks() const {
  return {"relu",
          "silu",
          "gelu",
          "softmax",
          "rms_norm",
          "layer_norm",
          "gemv",
          "gemm",
          "batch_matmul",
          "linear",
          "ffn",
          "swiglu",
          "attention",
          "mha",
          "gqa",
          "mqa",
          "rope",
          "depthwise_conv",
          "conv2d",
          "flash_attention",
          "conv_block",
          "decoder_block_llama",
          "decoder_block_t5"};
}

std::string TemplateCompiler::unsupported_reason(const tasks::ResolvedConfig& cfg) const {
  if (!supports(cfg.task)) return "no template for task " + cfg.task;
  const int64_t vlen = p_.vlen;
  if (auto why = vector_dims_reason(cfg, vlen); !why.empty()) return why;
  if (cfg.task == "flash_attention") return flash_reason(p_, cfg);
  // The matrix products: one B^T strip, the A^T tiles and the double-buffered raw blocks must fit DM.
  std::vector<MatJob> products;
  auto product = [&](bool nk, bool bias, int64_t m, int64_t k, int64_t n) {
    MatJob j;
    j.weights_nk = nk;
    j.m = m;
    j.k = k;
    j.n = n;
    if (bias) j.bias = "b";
    products.push_back(j);
  };
  const std::string& t = cfg.task;
  if (t == "gemm" || t == "batch_matmul") product(false, false, cfg.dim("M"), cfg.dim("K"), cfg.dim("N"));
  if (t == "linear") product(true, true, cfg.dim("M"), cfg.dim("K"), cfg.dim("N"));
  if (t == "ffn" || t == "swiglu") {
    product(true, t == "ffn", cfg.dim("M"), cfg.dim("D"), cfg.dim("F"));
    product(true, t == "ffn", cfg.dim("M"), cfg.dim("F"), cfg.dim("D"));
  }
  if (t == "attention" || t == "mha" || t == "gqa" || t == "mqa") {
    product(true, false, cfg.dim("S"), cfg.dim("D"), cfg.dim("S"));
    product(false, false, cfg.dim("S"), cfg.dim("S"), cfg.dim("D"));
  }
  if (t == "decoder_block_llama" || t == "decoder_block_t5") {
    const int64_t s = cfg.dim("S"), d = cfg.dim("D"), heads = cfg.dim("HEADS"), dh = cfg.dim("DH");
    const int64_t f = cfg.dim("F");
    if (t == "decoder_block_llama" && dh % (2 * vlen) != 0)
      return fmt::format("DH={} is not a multiple of 2*VLEN={} (RoPE's halves)", dh, 2 * vlen);
    product(true, false, s, d, dh);          // a head's q, k or v (DRAM bases in DM: K in one piece)
    product(true, false, s, dh, s);          // scores
    product(false, false, s, s, dh);         // P V
    product(true, false, s, heads * dh, d);  // out_proj
    product(true, false, s, d, f);
    product(true, false, s, f, d);
  }
  if (t == "conv2d" || t == "conv_block") {
    const ConvShape d = conv_shape(cfg);
    if (t == "conv_block" && cfg.dim("RESIDUAL") != 0 && (d.f != d.c || d.oh != d.h || d.ow != d.w))
      return "RESIDUAL = 1 needs F = C and an output the size of the input";
    if (d.m % p_.mmul_m() != 0)
      return fmt::format("OH*OW={} output pixels are not a multiple of MMUL_M={}", d.m, p_.mmul_m());
    if (d.c % vlen != 0) return fmt::format("C={} is not a multiple of VLEN={}", d.c, vlen);
    if (3 * d.ow * p_.row_bytes() > p_.dm_bytes / 4)
      return fmt::format("OW={} pixels: the im2col buffers would take more than a quarter of DM", d.ow);
    const int64_t bands = conv_bands(p_, d);
    if (bands == 0) products.push_back(conv_product(d));  // for the reason below
    if (bands > 1) {
      // the banded product with K in many pieces may exceed IMEM: only generating it tells
      try {
        generate_kernel(cfg, tasks::compute_layout(cfg, 64), {});
      } catch (const std::invalid_argument& e) {
        return fmt::format("the product in {} bands of output rows, K in pieces: {}", bands, e.what());
      }
    }
  }
  if (t == "depthwise_conv") {
    const DepthwiseShape d = depthwise_shape(p_, cfg);
    if (d.total_rows * p_.row_bytes() > p_.dm_bytes)
      return fmt::format(
          "a ring of {} image rows ({} bytes each with padding{}) and two output rows need {} bytes "
          "of DM; DM has {}",
          d.ring, d.slot_rows * p_.row_bytes(), d.groups > 1 ? ", one chunk of channels per pass" : "",
          d.total_rows * p_.row_bytes(), p_.dm_bytes);
    if (d.cv > 8) return fmt::format("C={} is more than 8 vectors of channels (the accumulators)", d.c);
  }
  // K may run in pieces (FP32 partial sums in DM), except in the attention products (per-head DRAM bases)
  // and a decoder block's first five (products in loops that read their DRAM bases from DM).
  const bool decoder = t == "decoder_block_llama" || t == "decoder_block_t5";
  for (size_t i = 0; i < products.size(); ++i) {
    const MatJob& j = products[i];
    const bool pieces_allowed =
        !(t == "attention" || t == "mha" || t == "gqa" || t == "mqa") && !(decoder && i < 5);
    const MatPlan plan = matmul_plan(p_, j, 1);
    if (plan.chunks == 0 || (plan.pieces > 1 && !pieces_allowed)) {
      const int64_t chunks = pieces_allowed ? 1 : j.k / vlen;
      return fmt::format(
          "a product with M={}, K={} needs {} bytes of DM for one strip of B^T tiles over {} of K, its "
          "double-buffered raw blocks{}; DM has {}",
          j.m, j.k, matmul_dm_rows(p_, j, 1, 1, chunks) * p_.row_bytes(), chunks * vlen,
          pieces_allowed ? fmt::format(" and the FP32 partial sums of M x VLEN outputs ({} bytes)",
                                       matmul_partial_rows(p_, j, 1) * p_.row_bytes())
                         : "",
          p_.dm_bytes);
    }
  }
  if (cfg.level >= 3) {
    // A composite's size (IMEM) and buffers (DM) are known once generated (~0.1 s: remembered per
    // configuration and machine, as `kcraft tasks` and the sweep plan ask for every cell).
    static std::mutex mutex;
    static std::map<std::string, std::string> reasons;
    std::string key = fmt::format("{} {} {} {} {} {} {}", cfg.task, p_.vlen, p_.imem_words, p_.dm_bytes,
                                  p_.dm_banks, p_.loop_depth, p_.dma_channels);
    for (const auto& [name, value] : cfg.dims) key += fmt::format(" {}={}", name, value);
    {
      const std::lock_guard<std::mutex> lock(mutex);
      if (auto it = reasons.find(key); it != reasons.end()) return it->second;
    }
    std::string why;
    try {
      generate_kernel(cfg, tasks::compute_layout(cfg, 64), {});
    } catch (const std::invalid_argument& e) {
      why = e.what();
    }
    const std::lock_guard<std::mutex> lock(mutex);
    reasons.emplace(key, why);
    return why;
  }
  return "";
}

std::vector<Knob> TemplateCompiler::knobs(const tasks::ResolvedConfig& cfg) const {
  const std::string& t = cfg.task;
  if (t == "relu" || t == "silu" || t == "gelu") return stream_knobs();
  if (t == "gemv") {
    return {{"tile_rows", "rows of A per DMA tile", 4, {1, 2, 4, 8, 16}},
            {"unroll", "chunks (VLEN elements) per loop iteration of a row's dot product", 8, {2, 4, 8, 16}},
            {"buffers", "DM tile buffers in flight (2: double buffering)", 2, {2, 3}}};
  }
  if (t == "softmax" || t == "rms_norm" || t == "layer_norm") return rowwise_knobs();
  if (t == "depthwise_conv")
    return {{"unroll",
             "output pixels per loop iteration (at least one period of the DM banks)",
             4,
             {1, 2, 4, 8}}};
  if (t == "rope") return rope_knobs();
  if (t == "attention" || t == "mha" || t == "gqa" || t == "mqa") {
    auto k = matmul_knobs();
    k.push_back({"softmax_unroll", "chunks per loop iteration of the softmax passes", 8, {2, 4, 8}});
    return k;
  }
  if (t == "batch_matmul") return matmul_knobs();
  if (t == "flash_attention") return flash_knobs();
  if (t == "gemm" || t == "linear" || t == "conv2d" || t == "conv_block") return matmul_knobs(true);
  if (t == "decoder_block_llama" || t == "decoder_block_t5") {
    auto k = matmul_knobs();
    k.push_back({"softmax_unroll", "chunks per loop iteration of the softmax passes", 8, {2, 4, 8}});
    k.push_back({"act_unroll",
                 "rows per loop iteration of the FFN activation's and the residual adds' loops",
                 8,
                 {2, 4, 8, 16}});
    k.push_back({"norm_unroll", "chunks per loop iteration of the RMSNorm passes and RoPE", 8, {2, 4, 8}});
    return k;
  }
  if (t == "ffn" || t == "swiglu") {
    auto k = matmul_knobs(true);
    k.push_back({"act_unroll",
                 "rows per loop iteration of the activation's software-pipelined loop",
                 8,
                 {2, 4, 8, 16}});
    return k;
  }
  throw std::invalid_argument("no template for task " + t);
}

GeneratedKernel TemplateCompiler::generate(const tasks::ResolvedConfig& cfg, const tasks::DramLayout& layout,
                                           const KnobValues& values) const {
  if (auto why = unsupported_reason(cfg); !why.empty())
    throw std::invalid_argument(fmt::format("{} {} on vliw: {}", cfg.task, cfg.config, why));
  return generate_kernel(cfg, layout, values);
}

GeneratedKernel TemplateCompiler::generate_kernel(const tasks::ResolvedConfig& cfg,
                                                  const tasks::DramLayout& layout,
                                                  const KnobValues& values) const {
  const auto all = knobs(cfg);
  // Knob values whose kernel does not fit IMEM_WORDS give way: pieces of K beyond what DM needs first,
  // then the activation's unroll (ffn, swiglu) and unroll halve, then the A-block tiles of the products, the
  // buffer count and the tile size.
  KnobValues v = values;
  for (const auto& k : all) v.emplace(k.name, k.baseline);
  const KnobValues start = v;
  KnobValues tried;  // the knobs of the last kernel that did not fit
  // The last resort is not a knob, but tests may ask for it: value "force_loop_pieces" (a kernel's own knob
  // line says loop_pieces=1, which, fed back as by the tuner, is ignored like compact_loops=1).
  bool loop_pieces = values.count("force_loop_pieces") != 0 && values.at("force_loop_pieces") != 0,
       compact = loop_pieces;
  for (;;) {
    Ctx c(p_, cfg, layout);
    c.k.set_compact_loops(compact);
    c.loop_pieces = loop_pieces;
    GeneratedKernel out;
    if (cfg.task == "relu" || cfg.task == "silu" || cfg.task == "gelu") {
      EltJob job;
      job.op = cfg.task;
      job.rows = cfg.dim("M") * cfg.dim("N") / p_.vlen;
      job.in = cfg.inputs[0].name;
      job.out = cfg.outputs[0].name;
      out = elementwise(c, job, v, all);
    } else if (cfg.task == "softmax" || cfg.task == "rms_norm" || cfg.task == "layer_norm") {
      RowJob job;
      job.op = cfg.task;
      job.m = cfg.dim("M");
      job.n = cfg.dim("N");
      job.in = "x";
      job.out = "y";
      if (cfg.task != "softmax") job.eps = cfg.param("eps");
      out = rowwise(c, job, v, all);
    } else if (cfg.task == "gemv") {
      out = gemv(c, v, all);
    } else if (cfg.task == "depthwise_conv") {
      out = depthwise(c, v, all);
    } else if (cfg.task == "conv2d") {
      out = conv2d(c, ConvJob{}, v, all);
    } else if (cfg.task == "conv_block") {
      out = conv_block(c, v, all);
    } else if (cfg.task == "decoder_block_llama" || cfg.task == "decoder_block_t5") {
      out = decoder_block(c, v, all);
    } else if (cfg.task == "rope") {
      RopeJob job;
      job.heads = cfg.dim("HEADS");
      job.seq = cfg.dim("S");
      job.d = cfg.dim("D");
      out = rope(c, job, v, all);
    } else if (cfg.task == "ffn" || cfg.task == "swiglu") {
      out = feed_forward(c, v, all);
    } else if (cfg.task == "attention" || cfg.task == "mha" || cfg.task == "gqa" || cfg.task == "mqa") {
      AttnJob job;
      const std::string& t = cfg.task;
      job.seq = cfg.dim("S");
      job.d = cfg.dim("D");
      job.causal = cfg.dim("CAUSAL") != 0;
      job.scale = cfg.param("scale");
      job.heads = t == "attention" ? 1 : cfg.dim("HEADS");
      job.kv_heads = t == "gqa" ? cfg.dim("KV_HEADS") : (t == "mha" ? job.heads : 1);
      out = attention(c, job, v, all);
    } else if (cfg.task == "flash_attention") {
      out = flash_attention(c, v, all);
    } else {
      MatJob job;
      job.weights_nk = cfg.task == "linear";
      job.m = cfg.dim("M");
      job.k = cfg.dim("K");
      job.n = cfg.dim("N");
      job.batch = cfg.task == "batch_matmul" ? cfg.dim("BATCH") : 1;
      job.a = job.weights_nk ? "x" : "A";
      job.b = job.weights_nk ? "W" : "B";
      job.c = job.weights_nk ? "y" : "C";
      if (cfg.task == "linear") job.bias = "b";
      out = matmul(c, job, v, all);
    }
    if (compact) out.knobs["compact_loops"] = 1;    // not a knob: the generator's last resort, shown
    if (loop_pieces) out.knobs["loop_pieces"] = 1;  // likewise, after compact loops
    size_t words = 0;
    const std::string body = c.k.text(p_.loop_depth, &words);
    if (words > p_.imem_words && out.knobs == tried)  // giving way changed nothing
      throw std::invalid_argument(fmt::format("{} {} on vliw: the kernel needs {} words, IMEM_WORDS is {}",
                                              cfg.task, cfg.config, words, p_.imem_words));
    if (words > p_.imem_words) {
      tried = out.knobs;
      const int64_t floor_unroll = out.knobs.count("strips") != 0 ? 2 : 1;  // the matrix products
      if (out.knobs.count("k_pieces") != 0 && v["k_pieces"] > 1) {  // pieces beyond what DM needs go first
        v["k_pieces"] = std::min(v["k_pieces"], out.knobs["k_pieces"]) - 1;
        continue;
      }
      if (out.knobs.count("act_unroll") != 0 && out.knobs["act_unroll"] > 2) {
        v["act_unroll"] = out.knobs["act_unroll"] / 2;
        continue;
      }
      if (out.knobs.count("norm_unroll") != 0 && out.knobs["norm_unroll"] > 2) {
        v["norm_unroll"] = out.knobs["norm_unroll"] / 2;
        continue;
      }
      if (out.knobs.count("softmax_unroll") != 0 && out.knobs["softmax_unroll"] > 2) {
        v["softmax_unroll"] = out.knobs["softmax_unroll"] / 2;
        continue;
      }
      if (out.knobs["unroll"] > floor_unroll) {
        v["unroll"] = out.knobs["unroll"] / 2;
        continue;
      }
      if (out.knobs.count("m_tiles") != 0 && out.knobs["m_tiles"] > 1) {  // fewer accumulators to handle
        v["m_tiles"] = out.knobs["m_tiles"] / 2;
        continue;
      }
      if (v.count("buffers") && out.knobs["buffers"] > 2) {
        v["buffers"] = out.knobs["buffers"] - 1;
        continue;
      }
      if (v.count("tile_rows") && out.knobs["tile_rows"] > 1) {
        v["tile_rows"] = out.knobs["tile_rows"] / 2;
        continue;
      }
      if (!compact && !loop_pieces) {
        // last: loops without software pipelining (slower, much less code), the knobs giving way again
        // from the start in the same order
        compact = true;
        v = start;
        tried.clear();
        continue;
      }
      if (!loop_pieces) {
        // and then the very last resort (Ctx::loop_pieces), first with software-pipelined loops again, then
        // compact
        loop_pieces = true;
        compact = false;
        v = start;
        tried.clear();
        continue;
      }
      if (!compact) {
        compact = true;
        v = start;
        tried.clear();
        continue;
      }
      throw std::invalid_argument(fmt::format("{} {} on vliw: the kernel needs {} words, IMEM_WORDS is {}",
                                              cfg.task, cfg.config, words, p_.imem_words));
    }
    std::string head =
        "; Generated by kcraft's template compiler for the vliw tile. The symbols ADDR_<TENSOR>, the task's\n"
        "; dimensions and the hardware parameters are predefined; bundles are packed by the compiler.\n";
    head += fmt::format("; {} {}: {}\n;", cfg.task, cfg.config, out.summary);
    for (const auto& [name, value] : out.knobs) head += fmt::format(" {}={}", name, value);
    out.source = head + "\n" + body;
    return out;
  }
}

}  // namespace kcraft::vliw
