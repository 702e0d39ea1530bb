// `kcraft task dump`: a task's inputs and references as .npy files plus a manifest.
#pragma once

#include <cstdint>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "tasks/common/task_spec.h"

namespace kcraft::tasks {

struct DumpOptions {
  bool raw_bits = false;  // also write <input>.bits.npy: '<u2' BF16 or '<u4' FP32 bit patterns
  uint64_t alignment = 64;
};

struct DumpResult {
  std::vector<std::filesystem::path> files;  // every file written, manifest last
  nlohmann::json manifest;
};

// Writes into out_dir (created if missing): <input>.npy ('<f4', the exact stored values), <output>.ref.npy
// ('<f8', the FP64 reference) and manifest.json (task, config, seed, dtype, dims, params, shapes, init,
// layout, tolerance, file names). Throws std::runtime_error on I/O failure.
DumpResult dump_task(const TaskSpec& spec, const std::string& config, uint64_t seed, DType dtype,
                     const std::filesystem::path& out_dir, const DumpOptions& options = {});

}  // namespace kcraft::tasks
