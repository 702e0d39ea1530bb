#include "tasks/common/inputs.h"

#include "tasks/common/rng.h"

namespace kcraft::tasks {

std::vector<Tensor> make_inputs(const ResolvedConfig& config, uint64_t seed) {
  std::vector<Tensor> tensors;
  const bool stress = is_range_stress_seed(seed);
  for (const ResolvedTensor& resolved : config.inputs) {
    ResolvedTensor spec = resolved;
    if (stress) {
      spec.dist = resolved.stress_dist;
      spec.init_a = resolved.stress_a;
      spec.init_b = resolved.stress_b;
    }
    Tensor tensor(spec.name, spec.shape);
    if (spec.dist == InitDist::rope_cos || spec.dist == InitDist::rope_sin) {
      // A fixed table, not random: the loader guarantees a 2-D shape with an even last extent.
      const std::vector<double> table =
          rope_table(spec.shape[0], spec.shape[1], spec.init_a, spec.dist == InitDist::rope_sin);
      for (std::size_t i = 0; i < table.size(); ++i) tensor.data[i] = round_to_dtype(table[i], config.dtype);
      tensors.push_back(std::move(tensor));
      continue;
    }
    NormalSampler sampler(stream_key(seed, config.task, config.config, spec.name));
    for (double& value : tensor.data) {
      double raw = spec.init_a;
      if (spec.dist == InitDist::normal) {
        raw = spec.init_a + spec.init_b * sampler.next();
      } else if (spec.dist == InitDist::uniform) {
        raw = spec.init_a + (spec.init_b - spec.init_a) * sampler.uniform();
      }
      value = round_to_dtype(raw, config.dtype);
    }
    tensors.push_back(std::move(tensor));
  }
  return tensors;
}

std::vector<Tensor> make_inputs(const TaskSpec& spec, const std::string& config, uint64_t seed, DType dtype) {
  return make_inputs(spec.resolve(config, dtype), seed);
}

}  // namespace kcraft::tasks
