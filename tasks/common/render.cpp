#include "tasks/common/render.h"

#include <fmt/format.h>

#include <cctype>

#include <algorithm>
#include <stdexcept>

#include "tasks/common/compare.h"

namespace kcraft::tasks {

namespace {

std::string upper_name(std::string name) {
  for (char& c : name) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return name;
}

std::string trim(const std::string& text) {
  const auto begin = text.find_first_not_of(" \t\r\n");
  if (begin == std::string::npos) return "";
  const auto end = text.find_last_not_of(" \t\r\n");
  return text.substr(begin, end - begin + 1);
}

std::string num(double value) {
  return shortest_double(value);
}

std::string symbolic_shape(const std::vector<Expr>& shape) {
  std::string text = "[";
  for (std::size_t i = 0; i < shape.size(); ++i) text += (i > 0 ? ", " : "") + shape[i].text();
  return text + "]";
}

bool stress_differs(const ResolvedTensor& t) {
  return t.stress_dist != t.dist || t.stress_a != t.init_a || t.stress_b != t.init_b;
}

ResolvedTensor stressed(ResolvedTensor tensor) {
  tensor.dist = tensor.stress_dist;
  tensor.init_a = tensor.stress_a;
  tensor.init_b = tensor.stress_b;
  return tensor;
}

std::vector<std::string> split_lines(const std::string& text) {
  std::vector<std::string> lines;
  std::size_t start = 0;
  while (start <= text.size()) {
    const std::size_t end = text.find('\n', start);
    lines.push_back(text.substr(start, end == std::string::npos ? std::string::npos : end - start));
    if (end == std::string::npos) break;
    start = end + 1;
  }
  return lines;
}

// `plain`: fmt's shortest decimal form (50, 0.001) rather than shortest_double's.
std::string init_text(const ResolvedTensor& tensor, bool plain = false) {
  auto n = [plain](double v) { return plain ? fmt::format("{}", v) : num(v); };
  switch (tensor.dist) {
    case InitDist::normal:
      return fmt::format("normal(mean {}, std {})", n(tensor.init_a), n(tensor.init_b));
    case InitDist::uniform:
      return fmt::format("uniform[{}, {})", n(tensor.init_a), n(tensor.init_b));
    case InitDist::constant:
      return fmt::format("constant {}", n(tensor.init_a));
    case InitDist::rope_cos:
      return fmt::format("the rotary table cos(s * {}^(-2*(d mod D/2)/D)) at [s, d] (fixed, not random)",
                         tensor.init_a);  // fmt's shortest form: 10000, not 1e+04
    case InitDist::rope_sin:
      return fmt::format("the rotary table sin(s * {}^(-2*(d mod D/2)/D)) at [s, d] (fixed, not random)",
                         tensor.init_a);  // fmt's shortest form: 10000, not 1e+04
  }
  return "?";
}

std::string flops_text(double flops) {
  // Thousands separators keep large counts readable.
  std::string digits = fmt::format("{:.0f}", flops);
  std::string text;
  for (std::size_t i = 0; i < digits.size(); ++i) {
    if (i > 0 && (digits.size() - i) % 3 == 0) text += ',';
    text += digits[i];
  }
  return text;
}

}  // namespace

std::string render_task(const TaskSpec& spec, const std::string& config, DType dtype,
                        const DramLayout& layout) {
  const ResolvedConfig resolved = spec.resolve(config, dtype);
  if (layout.task != spec.name || layout.config != config || layout.dtype != dtype) {
    throw std::invalid_argument(fmt::format("render_task: layout is for {} {} {}, not {} {} {}", layout.task,
                                            layout.config, dtype_name(layout.dtype), spec.name, config,
                                            dtype_name(dtype)));
  }
  std::string text = fmt::format("Task {}: {} (level {}, config {}, complexity {:.2f})\n\n", spec.name,
                                 spec.title, spec.level, config, resolved.complexity);
  text += trim(spec.description) + "\n\n";

  // One line when no dimension needs explaining, else one line each with its meaning.
  const bool described = std::any_of(spec.dims.begin(), spec.dims.end(),
                                     [](const DimSpec& dim) { return !dim.description.empty(); });
  text += "Dimensions:";
  for (std::size_t i = 0; i < resolved.dims.size(); ++i) {
    if (described) {
      text += fmt::format("\n  {} = {}", resolved.dims[i].first, resolved.dims[i].second);
      if (!spec.dims[i].description.empty()) text += ": " + trim(spec.dims[i].description);
    } else {
      text += fmt::format("{} {} = {}", i > 0 ? "," : "", resolved.dims[i].first, resolved.dims[i].second);
    }
  }
  text += "\n";
  if (!resolved.params.empty()) {
    text += "Parameters:\n";
    for (std::size_t i = 0; i < resolved.params.size(); ++i) {
      text += fmt::format("  {} = {}", resolved.params[i].first, num(resolved.params[i].second));
      if (!spec.params[i].description.empty()) text += "  (" + trim(spec.params[i].description) + ")";
      text += "\n";
    }
  }
  text += fmt::format(
      "Data type: {} ({} bytes per element, little-endian); every tensor is dense and row-major.\n",
      dtype_name(dtype), dtype_bytes(dtype));

  text += "Inputs:\n";
  for (std::size_t i = 0; i < resolved.inputs.size(); ++i) {
    const ResolvedTensor& tensor = resolved.inputs[i];
    text += fmt::format("  {} {} = {}, {}, values ~ {}", tensor.name, symbolic_shape(spec.inputs[i].shape),
                        format_shape(tensor.shape), role_name(tensor.role), init_text(tensor));
    if (!tensor.description.empty()) text += ": " + trim(tensor.description);
    text += "\n";
  }
  if (resolved.has_range_stress) {
    text +=
        "Range stress (one of the hidden scoring seeds draws this set instead; `--range-stress` runs it):\n";
    for (const std::string& line : split_lines(trim(resolved.range_stress))) text += "  " + line + "\n";
    std::size_t same = 0;
    for (const ResolvedTensor& tensor : resolved.inputs) {
      if (stress_differs(tensor)) {
        text += fmt::format("  {} ~ {}\n", tensor.name, init_text(stressed(tensor), true));
      } else {
        ++same;
      }
    }
    if (same == resolved.inputs.size()) {
      text += fmt::format(
          "  in {} (this platform's element type) the set draws every input from its ordinary distribution "
          "under Inputs, not the values this description names: it is another ordinary seed\n",
          dtype_name(dtype));
    } else if (same > 0) {
      text += "  other inputs from their ordinary distributions under Inputs\n";
    }
  }
  text += "Outputs:\n";
  for (std::size_t i = 0; i < resolved.outputs.size(); ++i) {
    const ResolvedTensor& tensor = resolved.outputs[i];
    text += fmt::format("  {} {} = {}", tensor.name, symbolic_shape(spec.outputs[i].shape),
                        format_shape(tensor.shape));
    if (!tensor.description.empty()) text += ": " + trim(tensor.description);
    text += "\n";
  }
  text += "\n" + format_layout(layout) + "\n";
  if (!spec.composed_of.empty()) {
    std::string parts;
    for (const auto& part : spec.composed_of) parts += (parts.empty() ? "" : ", ") + part;
    text += fmt::format(
        "Composed of the tasks {} (`kcraft task show NAME` for each): a kernel may be built from kernels of\n"
        "those, with intermediates in the scratch region.\n\n",
        parts);
  }
  if (!resolved.phases.empty()) {
    text += fmt::format(
        "Phases (optional markers; `eval` splits the cycles by phase): at the start of a phase, write "
        "anything\n"
        "(one store of at most {} bytes) to the start of its marker region, ADDR_PHASE_<NAME>. The cycles\n"
        "from that write reaching DRAM to the next marker's belong to that phase; a phase may be marked\n"
        "again (e.g. once per head). Markers do not affect correctness.\n",
        kPhaseMarkerBytes);
    for (const PhaseSpec& phase : resolved.phases) {
      text += fmt::format("  {:<12} ADDR_PHASE_{}", phase.name, upper_name(phase.name));
      if (!phase.description.empty()) text += ": " + trim(phase.description);
      text += "\n";
    }
    text += "\n";
  }

  const Tolerance& tol = resolved.tolerance;
  text += fmt::format(
      "Correctness (reference computed in FP64 from the stored inputs), for every output:\n"
      "  every element: |out - ref| <= {} + {}*|ref|; NaN/Inf exactly where the reference has them;\n"
      "  relative L2 error ||out - ref|| / ||ref|| <= {}.\n"
      "Input values come from a seed and change between runs: do not depend on particular values.\n"
      "The development seed draws the ordinary values above; scoring re-runs the kernel on hidden seeds{}.\n",
      num(tol.atol), num(tol.rtol), num(tol.rel_l2),
      resolved.has_range_stress ? ", one of them the range-stress set" : "");
  text += fmt::format("Work: {} = {} FLOPs", spec.flops.text(), flops_text(resolved.flops));
  if (spec.essential_flops && resolved.essential_flops < resolved.flops)
    text += fmt::format("; a kernel may skip all but {} = {} of them (the bounds count these)",
                        spec.essential_flops->text(), flops_text(resolved.essential_flops));
  text += ".\n";
  return text;
}

nlohmann::json init_to_json(const ResolvedTensor& tensor) {
  nlohmann::json init = {{"dist", dist_name(tensor.dist)}};
  if (tensor.dist == InitDist::normal) {
    init["mean"] = tensor.init_a;
    init["std"] = tensor.init_b;
  } else if (tensor.dist == InitDist::uniform) {
    init["lo"] = tensor.init_a;
    init["hi"] = tensor.init_b;
  } else if (tensor.dist == InitDist::rope_cos || tensor.dist == InitDist::rope_sin) {
    init["base"] = tensor.init_a;
  } else {
    init["value"] = tensor.init_a;
  }
  return init;
}

nlohmann::json task_to_json(const TaskSpec& spec, const std::string& config, DType dtype,
                            const DramLayout& layout) {
  const ResolvedConfig resolved = spec.resolve(config, dtype);
  nlohmann::json dims = nlohmann::json::object();
  for (const auto& [name, value] : resolved.dims) dims[name] = value;
  // What each dim means, in spec order (the dims object above is keyed by name, so unordered).
  nlohmann::json dim_list = nlohmann::json::array();
  for (std::size_t i = 0; i < resolved.dims.size(); ++i) {
    dim_list.push_back({{"name", resolved.dims[i].first},
                        {"value", resolved.dims[i].second},
                        {"description", trim(spec.dims[i].description)}});
  }
  nlohmann::json params = nlohmann::json::array();
  for (std::size_t i = 0; i < resolved.params.size(); ++i) {
    params.push_back({{"name", resolved.params[i].first},
                      {"value", resolved.params[i].second},
                      {"description", spec.params[i].description}});
  }
  auto tensors = [](const std::vector<ResolvedTensor>& list, const auto& specs) {
    nlohmann::json array = nlohmann::json::array();
    for (std::size_t i = 0; i < list.size(); ++i) {
      nlohmann::json entry = {{"name", list[i].name},
                              {"shape", list[i].shape},
                              {"shape_dims", nlohmann::json::array()},
                              {"description", list[i].description}};
      for (const Expr& e : specs[i].shape) entry["shape_dims"].push_back(e.text());
      if (!list[i].is_output) {
        entry["role"] = role_name(list[i].role);
        entry["init"] = init_to_json(list[i]);
      }
      array.push_back(entry);
    }
    return array;
  };
  nlohmann::json stress = nullptr;
  if (resolved.has_range_stress) {
    stress = {{"description", trim(resolved.range_stress)}, {"inputs", nlohmann::json::array()}};
    for (const ResolvedTensor& tensor : resolved.inputs) {
      stress["inputs"].push_back({{"name", tensor.name},
                                  {"init", init_to_json(stressed(tensor))},
                                  {"stressed", stress_differs(tensor)}});
    }
  }
  return {{"name", spec.name},
          {"title", spec.title},
          {"level", spec.level},
          {"config", config},
          {"range_stress", stress},
          {"dtype", dtype_name(dtype)},
          {"description", trim(spec.description)},
          {"dims", dims},
          {"dim_list", dim_list},
          {"params", params},
          {"inputs", tensors(resolved.inputs, spec.inputs)},
          {"outputs", tensors(resolved.outputs, spec.outputs)},
          {"layout", to_json(layout)},
          {"tolerance", to_json(resolved.tolerance)},
          {"flops", resolved.flops},
          {"flops_expr", spec.flops.text()},
          {"essential_flops", resolved.essential_flops},
          {"macs", resolved.macs},
          {"essential_macs", resolved.essential_macs},
          {"complexity", resolved.complexity}};
}

nlohmann::json task_summary_json(const TaskSpec& spec) {
  nlohmann::json configs = nlohmann::json::array();
  for (const ConfigSpec& config : spec.configs) {
    const ResolvedConfig resolved = spec.resolve(config.name, DType::bf16);
    nlohmann::json dims = nlohmann::json::object();
    for (const auto& [name, value] : resolved.dims) dims[name] = value;
    configs.push_back({{"name", config.name},
                       {"dims", dims},
                       {"flops", resolved.flops},
                       {"complexity", resolved.complexity}});
  }
  return {{"name", spec.name},
          {"title", spec.title},
          {"level", spec.level},
          {"golden", spec.golden},
          {"configs", configs}};
}

}  // namespace kcraft::tasks
