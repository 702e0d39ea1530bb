#include "tasks/rvv/composite.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <map>
#include <stdexcept>

#include "tasks/golden/references.h"
#include "tasks/rvv/kernel_math.h"
#include "tasks/rvv/scalar_pieces.h"
#include "tasks/rvv/vector_kernels.h"

namespace kcraft::rvv::composite {

namespace {

using tasks::ResolvedConfig;

std::string upper(std::string s) {
  for (char& c : s) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return s;
}

struct TaskInfo {
  std::vector<std::string> phases;
  std::vector<std::string> tensors;  // the tensors the kernel names
  std::vector<std::string> pieces;   // the scalar references it calls (tasks/rvv/scalar_pieces.h)
  std::string summary;               // what is composed, for the kernel's first comment
};

const std::map<std::string, TaskInfo>& infos() {
  static const std::map<std::string, TaskInfo> m = {
      {"conv_block",
       {{"conv", "batch_norm_relu"},
        {"x", "w", "scale", "shift", "y"},
        {"conv2d_nhwc", "scale_shift_channels", "add_elements", "relu_elements"},
        "conv2d, then the per-channel scale and shift, the residual add (RESIDUAL = 1) and relu"}},
      {"decoder_block_llama",
       {{"attn_norm", "qkv", "rope", "attention", "out_proj", "ffn_norm", "ffn"},
        {"x", "g_attn", "Wq", "Wk", "Wv", "Wo", "cos", "sin", "g_ffn", "Wg", "Wu", "Wd", "y"},
        {"rms_norm_rows", "linear_rows", "rope_heads", "gqa_heads", "add_elements", "swiglu_rows"},
        "rms_norm, the q/k/v linear layers, rope on q and k, causal gqa, the output linear layer and "
        "residual, rms_norm, swiglu and residual"}},
      {"decoder_block_t5",
       {{"attn_norm", "qkv", "attention", "out_proj", "ffn_norm", "ffn"},
        {"x", "g_attn", "Wq", "Wk", "Wv", "Wo", "bias", "g_ffn", "Wi", "Wo_ff", "y"},
        {"rms_norm_rows", "linear_rows", "gqa_heads", "add_elements", "relu_elements"},
        "rms_norm (T5's LayerNorm), the q/k/v linear layers, causal attention with the relative-position "
        "bias and no 1/sqrt(DH), the output linear layer and residual, rms_norm, linear, relu, linear and "
        "residual"}},
  };
  return m;
}

const TaskInfo& info(const std::string& task) {
  const auto it = infos().find(task);
  if (it == infos().end())
    throw std::invalid_argument("rvv composite: '" + task + "' is not a composite task");
  return it->second;
}

struct BufferSpec {
  std::string name;
  int64_t floats;
  std::string shape;
  std::string what;
};

// Every intermediate gets a buffer of its own (none is reused): the spec's scratch size, which also counts
// an [S, S] score matrix and the FFN's g and u apart, leaves room (unsupported_reason checks it).
std::vector<BufferSpec> buffer_specs(const ResolvedConfig& cfg) {
  if (cfg.task == "conv_block") {
    const auto& y = cfg.tensor("y").shape;
    return {{"conv", y[0] * y[1] * y[2], "[OH, OW, F]",
             "the convolution's output c (conv2d writes it, batch_norm_relu reads it; the direct convolution "
             "needs no im2col matrix)"}};
  }
  const int64_t s = cfg.dim("S"), d = cfg.dim("D"), heads = cfg.dim("HEADS"), dh = cfg.dim("DH"),
                f = cfg.dim("F");
  const int64_t q_width = heads * dh;
  if (cfg.task == "decoder_block_llama") {
    const int64_t kv_width = cfg.dim("KV_HEADS") * dh;
    return {
        {"h", s * d, "[S, D]", "attn_norm's output"},
        {"q_proj", s * q_width, "[S, HEADS*DH]", "h Wq^T, before RoPE"},
        {"k_proj", s * kv_width, "[S, KV_HEADS*DH]", "h Wk^T, before RoPE"},
        {"v", s * kv_width, "[S, KV_HEADS*DH]", "h Wv^T"},
        {"q", s * q_width, "[S, HEADS*DH]", "q after RoPE"},
        {"k", s * kv_width, "[S, KV_HEADS*DH]", "k after RoPE"},
        {"a", s * q_width, "[S, HEADS*DH]", "the attention's output"},
        {"x2", s * d, "[S, D]", "x + a Wo^T, the residual stream"},
        {"n2", s * d, "[S, D]", "ffn_norm's output"},
        {"hidden", s * f, "[S, F]", "swiglu's silu(g) * u"},
    };
  }
  if (cfg.task == "decoder_block_t5") {
    return {
        {"h", s * d, "[S, D]", "attn_norm's output"},
        {"q", s * q_width, "[S, HEADS*DH]", "h Wq^T"},
        {"k", s * q_width, "[S, HEADS*DH]", "h Wk^T"},
        {"v", s * q_width, "[S, HEADS*DH]", "h Wv^T"},
        {"a", s * q_width, "[S, HEADS*DH]", "the attention's output"},
        {"x2", s * d, "[S, D]", "x + a Wo^T, the residual stream"},
        {"n2", s * d, "[S, D]", "ffn_norm's output"},
        {"hidden", s * f, "[S, F]", "relu(n2 Wi^T)"},
    };
  }
  throw std::invalid_argument("rvv composite: '" + cfg.task + "' is not a composite task");
}

// Buffers start on 64-byte boundaries (a cache line), like the layout's regions.
constexpr uint64_t kBufferAlignment = 64;

std::vector<ScratchBuffer> allocate(const ResolvedConfig& cfg) {
  std::vector<ScratchBuffer> out;
  uint64_t cursor = 0;
  for (const auto& b : buffer_specs(cfg)) {
    const uint64_t bytes = static_cast<uint64_t>(b.floats) * 4;
    out.push_back({b.name, cursor, bytes, b.shape, b.what});
    cursor = (cursor + bytes + kBufferAlignment - 1) / kBufferAlignment * kBufferAlignment;
  }
  return out;
}

// The kernel body, phase by phase.
class Body {
 public:
  explicit Body(const tasks::DramLayout& layout) : layout_(layout) {}

  // Marks "phase `name` starts now": one word stored to the phase's DRAM region, after everything before
  // it (the memory clobber keeps the compiler from moving earlier loads and stores past the marker).
  void begin_phase(const std::string& name) {
    text_ += "\n  /* phase " + name + " */\n";
    if (const auto* region = layout_.find("phase_" + name)) {
      text_ += "  __asm__ volatile(\"\" ::: \"memory\");\n";
      text_ += "  *(volatile unsigned*)ADDR_" + upper(region->name) + " = 0;\n";
    }
  }
  void line(const std::string& text) { text_ += "  " + text + "\n"; }
  const std::string& text() const { return text_; }

 private:
  const tasks::DramLayout& layout_;
  std::string text_;
};

std::string scratch_declarations(const ResolvedConfig& cfg) {
  std::string s = "  /* Intermediates in the DRAM scratch region (offsets in floats from ADDR_SCRATCH). */\n";
  for (const auto& b : allocate(cfg))
    s += fmt::format("  float* const {} = (float*)ADDR_SCRATCH + {}; /* {} {} */\n", b.name, b.offset / 4,
                     b.shape, b.what);
  return s;
}

std::string conv_block_kernel(const ResolvedConfig& cfg, const tasks::DramLayout& layout) {
  Body body(layout);
  body.begin_phase("conv");
  body.line("conv2d_nhwc(x, w, conv, H, W, C, F, KH, KW, STRIDE, PAD);");
  body.begin_phase("batch_norm_relu");
  body.line("scale_shift_channels(conv, scale, shift, y, out_pixels, F);");
  body.line("if (RESIDUAL) add_elements(y, x, y, out_pixels * F);");
  body.line("relu_elements(y, y, out_pixels * F);");
  return R"(void kernel(void) {
  const float* const x = (const float*)ADDR_X;
  const float* const w = (const float*)ADDR_W;
  const float* const scale = (const float*)ADDR_SCALE;
  const float* const shift = (const float*)ADDR_SHIFT;
  float* const y = (float*)ADDR_Y;
  const int out_pixels = ((H + 2 * PAD - KH) / STRIDE + 1) * ((W + 2 * PAD - KW) / STRIDE + 1);
)" + scratch_declarations(cfg) +
         body.text() + "}\n";
}

std::string llama_kernel(const ResolvedConfig& cfg, const tasks::DramLayout& layout) {
  Body body(layout);
  body.begin_phase("attn_norm");
  body.line("rms_norm_rows(x, g_attn, h, S, D, PARAM_EPS);");
  body.begin_phase("qkv");
  body.line("linear_rows(h, wq, 0, q_proj, S, D, HEADS * DH);");
  body.line("linear_rows(h, wk, 0, k_proj, S, D, KV_HEADS * DH);");
  body.line("linear_rows(h, wv, 0, v, S, D, KV_HEADS * DH);");
  body.begin_phase("rope");
  body.line("rope_heads(q_proj, cos_t, sin_t, q, HEADS, S, DH, DH, HEADS * DH);");
  body.line("rope_heads(k_proj, cos_t, sin_t, k, KV_HEADS, S, DH, DH, KV_HEADS * DH);");
  body.begin_phase("attention");
  body.line("gqa_heads(&geometry, HEADS, KV_HEADS, DH, DH, 0, 0, q, k, v, a, scores);");
  body.begin_phase("out_proj");
  body.line("linear_rows(a, wo, 0, x2, S, HEADS * DH, D);");
  body.line("add_elements(x, x2, x2, S * D);");
  body.begin_phase("ffn_norm");
  body.line("rms_norm_rows(x2, g_ffn, n2, S, D, PARAM_EPS);");
  body.begin_phase("ffn");
  body.line("swiglu_rows(n2, wg, wu, wd, hidden, y, S, D, F);");
  body.line("add_elements(x2, y, y, S * D);");
  return R"(void kernel(void) {
  const float* const x = (const float*)ADDR_X;
  const float* const g_attn = (const float*)ADDR_G_ATTN;
  const float* const wq = (const float*)ADDR_WQ;
  const float* const wk = (const float*)ADDR_WK;
  const float* const wv = (const float*)ADDR_WV;
  const float* const wo = (const float*)ADDR_WO;
  const float* const cos_t = (const float*)ADDR_COS;
  const float* const sin_t = (const float*)ADDR_SIN;
  const float* const g_ffn = (const float*)ADDR_G_FFN;
  const float* const wg = (const float*)ADDR_WG;
  const float* const wu = (const float*)ADDR_WU;
  const float* const wd = (const float*)ADDR_WD;
  float* const y = (float*)ADDR_Y;
)" + scratch_declarations(cfg) +
         R"(  /* On chip: one query row's scores (the stack). Heads are DH-column slices of the token-major rows. */
  float scores[S];
  const attention_geometry geometry = {
      .seq = S, .dim = DH, .q_stride = HEADS * DH, .kv_stride = KV_HEADS * DH, .causal = 1, .scale = PARAM_SCALE};
)" + body.text() +
         "}\n";
}

std::string t5_kernel(const ResolvedConfig& cfg, const tasks::DramLayout& layout) {
  const auto num_buckets = static_cast<int64_t>(cfg.param("num_buckets"));
  const auto max_distance = static_cast<int64_t>(cfg.param("max_distance"));
  std::string table;
  for (int64_t p = 0; p < cfg.dim("S"); ++p)
    table += fmt::format("{}{}", p == 0 ? "" : (p % 16 == 0 ? ",\n    " : ", "),
                         tasks::golden::t5_relative_bucket(p, num_buckets, max_distance));
  Body body(layout);
  body.begin_phase("attn_norm");
  body.line("rms_norm_rows(x, g_attn, h, S, D, PARAM_EPS);");
  body.begin_phase("qkv");
  body.line("linear_rows(h, wq, 0, q, S, D, HEADS * DH);");
  body.line("linear_rows(h, wk, 0, k, S, D, HEADS * DH);");
  body.line("linear_rows(h, wv, 0, v, S, D, HEADS * DH);");
  body.begin_phase("attention");
  body.line(
      fmt::format("gqa_heads(&geometry, HEADS, HEADS, DH, DH, bias, {}, q, k, v, a, scores);", num_buckets));
  body.begin_phase("out_proj");
  body.line("linear_rows(a, wo, 0, x2, S, HEADS * DH, D);");
  body.line("add_elements(x, x2, x2, S * D);");
  body.begin_phase("ffn_norm");
  body.line("rms_norm_rows(x2, g_ffn, n2, S, D, PARAM_EPS);");
  body.begin_phase("ffn");
  body.line("linear_rows(n2, wi, 0, hidden, S, D, F);");
  body.line("relu_elements(hidden, hidden, S * F);");
  body.line("linear_rows(hidden, wo_ff, 0, y, S, F, D);");
  body.line("add_elements(x2, y, y, S * D);");
  return fmt::format(
             R"(/* T5's unidirectional bucket of each distance i - j in [0, S) (num_buckets {}, max_distance {}):
 * a function of the shapes only, computed by the generator with Hugging Face's formula. */
static const unsigned char t5_bucket[S] = {{
    {}}};

)",
             num_buckets, max_distance, table) +
         R"(void kernel(void) {
  const float* const x = (const float*)ADDR_X;
  const float* const g_attn = (const float*)ADDR_G_ATTN;
  const float* const wq = (const float*)ADDR_WQ;
  const float* const wk = (const float*)ADDR_WK;
  const float* const wv = (const float*)ADDR_WV;
  const float* const wo = (const float*)ADDR_WO;
  const float* const bias = (const float*)ADDR_BIAS;
  const float* const g_ffn = (const float*)ADDR_G_FFN;
  const float* const wi = (const float*)ADDR_WI;
  const float* const wo_ff = (const float*)ADDR_WO_FF;
  float* const y = (float*)ADDR_Y;
)" + scratch_declarations(cfg) +
         R"(  /* On chip: one query row's scores (the stack). Heads are DH-column slices of the token-major rows;
   * no 1/sqrt(DH) (T5 folds it into Wq), each head's bias row added by distance bucket. */
  float scores[S];
  const attention_geometry geometry = {
      .seq = S, .dim = DH, .q_stride = HEADS * DH, .kv_stride = HEADS * DH, .causal = 1, .scale = 1.0f,
      .bucket = t5_bucket};
)" + body.text() +
         "}\n";
}

}  // namespace

const std::vector<std::string>& tasks() {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> n;
    for (const auto& [name, i] : infos()) n.push_back(name);
    return n;
  }();
  return names;
}

bool is_composite(const std::string& task) {
  return infos().count(task) != 0;
}

const std::vector<std::string>& phases(const std::string& task) {
  return info(task).phases;
}

std::vector<ScratchBuffer> scratch_buffers(const ResolvedConfig& cfg) {
  info(cfg.task);
  return allocate(cfg);
}

std::string unsupported_reason(const ResolvedConfig& cfg) {
  if (!is_composite(cfg.task)) return "'" + cfg.task + "' is not a composite task";
  for (const auto& name : info(cfg.task).tensors) {
    bool found = false;
    for (const auto& t : cfg.inputs) found = found || t.name == name;
    for (const auto& t : cfg.outputs) found = found || t.name == name;
    if (!found) return "the rvv composite for " + cfg.task + " expects a tensor named '" + name + "'";
  }
  if (cfg.task == "conv_block") {
    const int64_t residual = cfg.dim("RESIDUAL");
    if (residual != 0 && residual != 1) return fmt::format("RESIDUAL must be 0 or 1, got {}", residual);
    if (residual == 1 && cfg.tensor("y").shape != cfg.tensor("x").shape)
      return "the residual add needs the output to be the input's shape";
  } else {
    if (cfg.dim("DH") % 2 != 0) return fmt::format("the head dimension DH = {} must be even", cfg.dim("DH"));
    if (cfg.task == "decoder_block_llama" && cfg.dim("HEADS") % cfg.dim("KV_HEADS") != 0)
      return fmt::format("HEADS = {} must be a multiple of KV_HEADS = {}", cfg.dim("HEADS"),
                         cfg.dim("KV_HEADS"));
    if (cfg.task == "decoder_block_t5") {
      const double buckets = cfg.param("num_buckets");
      const auto& bias = cfg.tensor("bias").shape;
      if (buckets != std::floor(buckets) || buckets < 2 || buckets > 256)
        return fmt::format("num_buckets = {} must be an integer in [2, 256] (the bucket table is bytes)",
                           buckets);
      if (bias.size() != 2 || bias[1] != static_cast<int64_t>(buckets))
        return fmt::format("the bias table's rows must be num_buckets = {} wide", buckets);
      if (cfg.param("max_distance") <= buckets / 2) return "max_distance must exceed num_buckets / 2";
    }
  }
  const auto buffers = allocate(cfg);
  const uint64_t needed = buffers.back().offset + buffers.back().bytes;
  if (needed > cfg.scratch_bytes) {
    return fmt::format(
        "the rvv composite for {} keeps its intermediates in {} bytes of scratch; the spec sizes {}",
        cfg.task, needed, cfg.scratch_bytes);
  }
  return "";
}

std::string kernel_source(const ResolvedConfig& cfg, const tasks::DramLayout& layout, int lmul,
                          int64_t block_bytes) {
  if (const std::string why = unsupported_reason(cfg); !why.empty()) throw std::invalid_argument(why);
  const TaskInfo& i = info(cfg.task);
  std::string s =
      lmul > 0 ? fmt::format(
                     "/* {} {}: the composite with its matrix products and convolution in RVV intrinsics\n"
                     " * (LMUL={}), the other level-1/2 pieces as scalar C, intermediates in DRAM scratch:\n",
                     cfg.task, cfg.config, lmul)
               : fmt::format(
                     "/* {} {}: the composite baseline (clang -O2 with auto-vectorisation): the level-1/2\n"
                     " * tasks' scalar C references called in sequence, intermediates in DRAM scratch:\n",
                     cfg.task, cfg.config);
  std::string line = " *";
  for (size_t at = 0; at < i.summary.size();) {  // the summary, wrapped at 100 columns
    size_t end = i.summary.find(' ', at);
    if (end == std::string::npos) end = i.summary.size();
    const std::string word = i.summary.substr(at, end - at);
    if (line.size() + 1 + word.size() > 100) {
      s += line + "\n";
      line = " *";
    }
    line += " " + word;
    at = end + 1;
  }
  s += line + ". */\n";
  std::map<std::string, std::string> vectorised;
  if (lmul > 0) {
    s += "#include <riscv_vector.h>\n";
    for (const auto& [name, text] : vector::composite_pieces()) {
      // The convolution's strips run along 16-64 filters: LMUL 8 would leave half of each group idle at
      // VLEN 128 (conv_block C1 on default: 278k cycles at 8, 149k at 4).
      const int piece_lmul = name == "conv2d_nhwc" ? std::min(lmul, 4) : lmul;
      vectorised.emplace(name, vector::subst(text, {{"L", std::to_string(piece_lmul)},
                                                    {"XB", std::to_string(block_bytes)},
                                                    // the mask type of LMUL's comparisons
                                                    {"B", std::to_string(32 / piece_lmul)}}));
    }
  }
  if (scalar::pieces_need_math(i.pieces)) s += math_header() + "\n";
  s += scalar::pieces_source(i.pieces, vectorised);
  if (cfg.task == "conv_block") return s + conv_block_kernel(cfg, layout);
  if (cfg.task == "decoder_block_llama") return s + llama_kernel(cfg, layout);
  return s + t5_kernel(cfg, layout);
}

}  // namespace kcraft::rvv::composite
