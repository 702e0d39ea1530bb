#include "tasks/golden/golden.h"

#include <deque>
#include <mutex>

#include "tasks/golden/references.h"

namespace kcraft::tasks {

namespace {
struct Registry {
  std::mutex mutex;
  std::deque<GoldenEntry> entries;  // a deque keeps references stable as entries are added
};

Registry& registry() {
  // Listed explicitly (no static self-registration) so nothing depends on link order.
  static Registry instance{
      {},
      {
          {"relu", {"x"}, {"y"}, {}, golden::relu},
          {"silu", {"x"}, {"y"}, {}, golden::silu},
          {"softmax", {"x"}, {"y"}, {}, golden::softmax},
          {"rms_norm", {"x", "gamma"}, {"y"}, {"eps"}, golden::rms_norm},
          {"gemm", {"A", "B"}, {"C"}, {}, golden::gemm},
          {"linear", {"x", "W", "b"}, {"y"}, {}, golden::linear},
          {"gelu", {"x"}, {"y"}, {}, golden::gelu},
          {"layer_norm", {"x", "gamma", "beta"}, {"y"}, {"eps"}, golden::layer_norm},
          {"gemv", {"A", "x"}, {"y"}, {}, golden::gemv},
          {"batch_matmul", {"A", "B"}, {"C"}, {}, golden::batch_matmul},
          {"conv2d", {"x", "w"}, {"y"}, {}, golden::conv2d, {"STRIDE", "PAD"}},
          {"depthwise_conv", {"x", "w"}, {"y"}, {}, golden::depthwise_conv, {"STRIDE", "PAD"}},
          {"rope", {"x", "cos", "sin"}, {"y"}, {}, golden::rope},
          {"ffn", {"x", "W1", "b1", "W2", "b2"}, {"y"}, {}, golden::ffn},
          {"swiglu", {"x", "Wg", "Wu", "Wd"}, {"y"}, {}, golden::swiglu},
          {"attention", {"Q", "K", "V"}, {"O"}, {"scale"}, golden::attention, {"CAUSAL"}},
          {"flash_attention",
           {"Q", "K", "V"},
           {"O"},
           {"scale", "score_budget_bytes"},
           golden::attention,
           {"CAUSAL"}},
          {"mha", {"Q", "K", "V"}, {"O"}, {"scale"}, golden::mha, {"CAUSAL"}},
          {"gqa", {"Q", "K", "V"}, {"O"}, {"scale"}, golden::gqa, {"CAUSAL"}},
          {"mqa", {"Q", "K", "V"}, {"O"}, {"scale"}, golden::mqa, {"CAUSAL"}},
          {"conv_block",
           {"x", "w", "scale", "shift"},
           {"y"},
           {},
           golden::conv_block,
           {"STRIDE", "PAD", "RESIDUAL"}},
          {"decoder_block_llama",
           {"x", "g_attn", "Wq", "Wk", "Wv", "Wo", "cos", "sin", "g_ffn", "Wg", "Wu", "Wd"},
           {"y"},
           {"eps", "scale"},
           golden::decoder_block_llama,
           {"HEADS", "KV_HEADS", "DH"}},
          {"decoder_block_t5",
           {"x", "g_attn", "Wq", "Wk", "Wv", "Wo", "bias", "g_ffn", "Wi", "Wo_ff"},
           {"y"},
           {"eps", "num_buckets", "max_distance"},
           golden::decoder_block_t5,
           {"HEADS", "DH"}},
      }};
  return instance;
}
}  // namespace

std::vector<GoldenEntry> golden_registry() {
  Registry& r = registry();
  std::lock_guard<std::mutex> lock(r.mutex);
  return {r.entries.begin(), r.entries.end()};
}

const GoldenEntry* find_golden(std::string_view name) {
  Registry& r = registry();
  std::lock_guard<std::mutex> lock(r.mutex);
  for (const GoldenEntry& entry : r.entries) {
    if (entry.name == name) return &entry;
  }
  return nullptr;
}

void register_golden(GoldenEntry entry) {
  if (entry.name.empty() || entry.fn == nullptr) {
    throw std::invalid_argument("register_golden: a reference needs a name and a function");
  }
  if (find_golden(entry.name) != nullptr) {
    throw std::invalid_argument("register_golden: '" + entry.name + "' is already registered");
  }
  Registry& r = registry();
  std::lock_guard<std::mutex> lock(r.mutex);
  r.entries.push_back(std::move(entry));
}

std::vector<Tensor> compute_reference(const ResolvedConfig& config, const std::string& golden,
                                      const std::vector<Tensor>& inputs) {
  const GoldenEntry* entry = find_golden(golden);
  if (entry == nullptr) throw GoldenError(config.task + ": unknown golden reference '" + golden + "'");
  // The inputs must be the ones the spec declares, with the config's shapes.
  if (inputs.size() != config.inputs.size()) {
    throw GoldenError(config.task + " " + config.config + ": expected " +
                      std::to_string(config.inputs.size()) + " inputs, got " + std::to_string(inputs.size()));
  }
  for (std::size_t i = 0; i < inputs.size(); ++i) {
    const ResolvedTensor& expected = config.inputs[i];
    if (inputs[i].name != expected.name || inputs[i].shape != expected.shape ||
        static_cast<int64_t>(inputs[i].data.size()) != expected.elements) {
      throw GoldenError(config.task + " " + config.config + ": input " + std::to_string(i) + " is " +
                        inputs[i].name + " " + format_shape(inputs[i].shape) + ", expected " + expected.name +
                        " " + format_shape(expected.shape));
    }
  }
  GoldenContext context(config, inputs);
  entry->fn(context);
  return std::move(context.outputs());
}

}  // namespace kcraft::tasks
