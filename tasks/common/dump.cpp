#include "tasks/common/dump.h"

#include <fstream>
#include <stdexcept>

#include "tasks/common/compare.h"
#include "tasks/common/inputs.h"
#include "tasks/common/layout.h"
#include "tasks/common/npy.h"
#include "tasks/common/render.h"
#include "tasks/golden/golden.h"

namespace kcraft::tasks {

DumpResult dump_task(const TaskSpec& spec, const std::string& config, uint64_t seed, DType dtype,
                     const std::filesystem::path& out_dir, const DumpOptions& options) {
  const ResolvedConfig resolved = spec.resolve(config, dtype);
  const std::vector<Tensor> inputs = make_inputs(resolved, seed);
  const std::vector<Tensor> refs = compute_reference(resolved, spec.golden, inputs);
  const DramLayout layout = compute_layout(resolved, options.alignment);

  std::error_code error;
  std::filesystem::create_directories(out_dir, error);
  if (error) throw std::runtime_error(out_dir.string() + ": cannot create directory: " + error.message());

  DumpResult result;
  nlohmann::json manifest;
  manifest["task"] = spec.name;
  manifest["config"] = config;
  manifest["seed"] = seed;
  manifest["range_stress"] = is_range_stress_seed(seed) && resolved.has_range_stress;
  manifest["dtype"] = dtype_name(dtype);
  manifest["level"] = spec.level;
  manifest["golden"] = spec.golden;
  nlohmann::json dims = nlohmann::json::object();
  for (const auto& [name, value] : resolved.dims) dims[name] = value;
  manifest["dims"] = dims;
  nlohmann::json params = nlohmann::json::object();
  for (const auto& [name, value] : resolved.params) params[name] = value;
  manifest["params"] = params;
  manifest["flops"] = resolved.flops;
  manifest["complexity"] = resolved.complexity;

  nlohmann::json input_entries = nlohmann::json::array();
  for (std::size_t i = 0; i < inputs.size(); ++i) {
    const ResolvedTensor& spec_tensor = resolved.inputs[i];
    const std::string file = inputs[i].name + ".npy";
    write_npy(out_dir / file, inputs[i].shape, inputs[i].data, NpyElement::f32);
    result.files.push_back(out_dir / file);
    nlohmann::json entry = {{"name", inputs[i].name},
                            {"role", role_name(spec_tensor.role)},
                            {"shape", inputs[i].shape},
                            {"file", file}};
    // The init the values were drawn from: the range-stress one for a stress seed.
    ResolvedTensor drawn = spec_tensor;
    if (is_range_stress_seed(seed)) {
      drawn.dist = spec_tensor.stress_dist;
      drawn.init_a = spec_tensor.stress_a;
      drawn.init_b = spec_tensor.stress_b;
    }
    entry["init"] = init_to_json(drawn);
    if (options.raw_bits) {
      const std::string bits_file = inputs[i].name + ".bits.npy";
      write_npy(out_dir / bits_file, inputs[i].shape, inputs[i].data,
                dtype == DType::bf16 ? NpyElement::bf16_bits : NpyElement::fp32_bits);
      result.files.push_back(out_dir / bits_file);
      entry["bits_file"] = bits_file;
    }
    input_entries.push_back(entry);
  }
  manifest["inputs"] = input_entries;

  nlohmann::json output_entries = nlohmann::json::array();
  for (const Tensor& ref : refs) {
    const std::string file = ref.name + ".ref.npy";
    write_npy(out_dir / file, ref.shape, ref.data, NpyElement::f64);
    result.files.push_back(out_dir / file);
    output_entries.push_back({{"name", ref.name}, {"shape", ref.shape}, {"ref_file", file}});
  }
  manifest["outputs"] = output_entries;
  manifest["layout"] = to_json(layout);
  manifest["tolerance"] = to_json(resolved.tolerance);

  const std::filesystem::path manifest_path = out_dir / "manifest.json";
  std::ofstream stream(manifest_path, std::ios::trunc);
  if (!stream) throw std::runtime_error(manifest_path.string() + ": cannot open for writing");
  stream << manifest.dump(2) << "\n";
  if (!stream) throw std::runtime_error(manifest_path.string() + ": write failed");
  result.files.push_back(manifest_path);
  result.manifest = std::move(manifest);
  return result;
}

}  // namespace kcraft::tasks
