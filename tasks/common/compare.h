// The pass rule (DESIGN §2.4) and the diagnostics shown to agents and humans.
//
// An output passes when
//   - every element with a finite reference satisfies |out - ref| <= atol + rtol*|ref| (out finite),
//   - NaN references are matched by NaN outputs and +-Inf references by the same infinity, and
//   - the relative L2 error ||out - ref|| / ||ref|| (over finite-reference elements) is <= rel_l2; an
//     all-zero reference only accepts an exact match, so an all-zero output never passes a non-zero task.
#pragma once

#include <cstdint>
#include <limits>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "tasks/common/task_spec.h"
#include "tasks/common/tensor.h"

namespace kcraft::tasks {

struct ElementError {
  int64_t flat_index = 0;
  std::vector<int64_t> index;
  double out = 0.0;
  double ref = 0.0;
  double abs_error = 0.0;  // inf when exactly one of out/ref is non-finite or they differ in kind
  double rel_error = 0.0;  // abs_error / |ref|; inf for ref == 0 and out != 0
  double allowed = 0.0;    // atol + rtol*|ref|
  bool within = false;
};

// One row = one position of the leading dimensions; statistics over the last dimension.
struct RowStats {
  int64_t row = 0;
  std::vector<int64_t> index;  // the leading-dimension index of the row
  double max_abs_error = 0.0;
  double mse = 0.0;  // mean of (out-ref)^2 over the row; inf when a non-finite mismatch is in it
  int64_t outside = 0;
};

struct CompareResult {
  std::string name;
  Shape shape;
  Tolerance tolerance;
  bool pass = false;
  bool elements_ok = false;  // every element within atol + rtol*|ref| (with NaN/Inf matching)
  bool rel_l2_ok = false;
  int64_t count = 0;
  int64_t within = 0;
  int64_t outside = 0;
  int64_t nonfinite_mismatches = 0;  // NaN/Inf where the reference differs, or vice versa
  double percent_within = 0.0;
  double max_abs_error = 0.0;
  double max_rel_error = 0.0;  // over elements with a finite non-zero reference
  double rel_l2 = 0.0;
  std::vector<ElementError> worst;  // sorted by abs_error/allowed, worst first
  int64_t row_length = 0;
  std::vector<RowStats> rows;
};

struct CompareOptions {
  std::size_t worst_count = 10;
};

// Throws std::invalid_argument when sizes do not match the shape.
CompareResult compare_tensor(const std::string& name, const Shape& shape, const std::vector<double>& out,
                             const std::vector<double>& ref, const Tolerance& tolerance,
                             const CompareOptions& options = {});

struct TaskCompareResult {
  bool pass = false;
  std::vector<CompareResult> outputs;
};

// Compares outputs with references by name, in the config's output order, with its tolerance.
TaskCompareResult compare_outputs(const ResolvedConfig& config, const std::vector<Tensor>& outputs,
                                  const std::vector<Tensor>& refs, const CompareOptions& options = {});

struct FormatOptions {
  std::size_t max_worst = 8;
  std::size_t max_rows = 16;
};

// Compact text: verdict, counts, errors, worst elements, rows with errors (truncated with a note).
std::string format_compare(const CompareResult& result, const FormatOptions& options = {});
std::string format_compare(const TaskCompareResult& result, const FormatOptions& options = {});

// JSON; non-finite numbers become the strings "nan", "inf", "-inf". `max_rows` limits the row list
// (rows with errors first); the object then carries "rows_truncated".
nlohmann::json to_json(const CompareResult& result,
                       std::size_t max_rows = std::numeric_limits<std::size_t>::max());
nlohmann::json to_json(const TaskCompareResult& result,
                       std::size_t max_rows = std::numeric_limits<std::size_t>::max());
nlohmann::json json_number(double value);
nlohmann::json to_json(const Tolerance& tolerance);

// The inverse of to_json with every row (the default max_rows): the same result, field for field (the
// evaluation cache stores results this way). Throws nlohmann::json::exception on a malformed object.
CompareResult compare_result_from_json(const nlohmann::json& json);
TaskCompareResult task_compare_result_from_json(const nlohmann::json& json);
double number_from_json(const nlohmann::json& value);  // json_number's inverse

}  // namespace kcraft::tasks
