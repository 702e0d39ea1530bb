#include "tasks/common/compare.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace kcraft::tasks {

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

struct Candidate {
  double score;
  int64_t index;
};

// a is a worse element than b: larger error/allowed ratio, earlier index on ties.
bool worse(const Candidate& a, const Candidate& b) {
  return a.score > b.score || (a.score == b.score && a.index < b.index);
}

std::string number(double value) {
  if (std::isnan(value)) return "nan";
  if (std::isinf(value)) return value > 0 ? "inf" : "-inf";
  return fmt::format("{:.6g}", value);
}

std::string error_text(double value) {
  if (std::isnan(value)) return "nan";
  if (std::isinf(value)) return value > 0 ? "inf" : "-inf";
  return fmt::format("{:.2e}", value);
}

std::string index_text(const std::vector<int64_t>& index) {
  return format_shape(index);
}

// "3, 17-31, 40" for sorted row numbers, at most `max_ranges` ranges.
std::string ranges_text(const std::vector<int64_t>& rows, std::size_t max_ranges) {
  std::vector<std::pair<int64_t, int64_t>> ranges;
  for (int64_t row : rows) {
    if (!ranges.empty() && ranges.back().second + 1 == row) {
      ranges.back().second = row;
    } else {
      ranges.emplace_back(row, row);
    }
  }
  std::string text;
  for (std::size_t i = 0; i < ranges.size() && i < max_ranges; ++i) {
    if (i > 0) text += ", ";
    text += ranges[i].first == ranges[i].second ? std::to_string(ranges[i].first)
                                                : fmt::format("{}-{}", ranges[i].first, ranges[i].second);
  }
  if (ranges.size() > max_ranges) text += fmt::format(", ... ({} more ranges)", ranges.size() - max_ranges);
  return text;
}

std::vector<std::size_t> select_rows(const CompareResult& result, std::size_t max_rows, bool errors_only) {
  std::vector<std::size_t> selected;
  for (std::size_t i = 0; i < result.rows.size() && selected.size() < max_rows; ++i) {
    if (result.rows[i].outside > 0) selected.push_back(i);
  }
  if (!errors_only) {
    for (std::size_t i = 0; i < result.rows.size() && selected.size() < max_rows; ++i) {
      if (result.rows[i].outside == 0) selected.push_back(i);
    }
    std::sort(selected.begin(), selected.end());
  }
  return selected;
}

}  // namespace

CompareResult compare_tensor(const std::string& name, const Shape& shape, const std::vector<double>& out,
                             const std::vector<double>& ref, const Tolerance& tolerance,
                             const CompareOptions& options) {
  const auto count = static_cast<std::size_t>(element_count(shape));
  if (out.size() != count || ref.size() != count) {
    throw std::invalid_argument(
        fmt::format("compare {}: shape {} has {} elements, got {} outputs and {} references", name,
                    format_shape(shape), count, out.size(), ref.size()));
  }
  CompareResult result;
  result.name = name;
  result.shape = shape;
  result.tolerance = tolerance;
  result.count = static_cast<int64_t>(count);
  result.row_length = shape.empty() ? 1 : shape.back();
  const Shape leading(shape.begin(), shape.empty() ? shape.end() : shape.end() - 1);
  const int64_t row_count = result.row_length == 0 ? 0 : result.count / result.row_length;
  result.rows.resize(static_cast<std::size_t>(row_count));
  for (int64_t r = 0; r < row_count; ++r) {
    result.rows[static_cast<std::size_t>(r)].row = r;
    result.rows[static_cast<std::size_t>(r)].index = unravel_index(r, leading);
  }

  double sum_sq_error = 0.0;
  double sum_sq_ref = 0.0;
  std::vector<Candidate> heap;
  const std::size_t keep = options.worst_count;
  for (std::size_t i = 0; i < count; ++i) {
    const double o = out[i];
    const double r = ref[i];
    const double allowed = tolerance.atol + tolerance.rtol * std::fabs(r);
    double abs_error = 0.0;
    bool ok = false;
    if (std::isnan(r)) {
      ok = std::isnan(o);
      abs_error = ok ? 0.0 : kInf;
    } else if (std::isinf(r)) {
      ok = o == r;
      abs_error = ok ? 0.0 : kInf;
    } else {
      sum_sq_ref += r * r;
      if (std::isfinite(o)) {
        abs_error = std::fabs(o - r);
        ok = abs_error <= allowed;
        sum_sq_error += abs_error * abs_error;
        if (r != 0.0) result.max_rel_error = std::max(result.max_rel_error, abs_error / std::fabs(r));
      } else {
        abs_error = kInf;
        sum_sq_error = kInf;
      }
    }
    if (!ok && (!std::isfinite(o) || !std::isfinite(r))) {
      ++result.nonfinite_mismatches;
      result.max_rel_error = kInf;
    }
    result.max_abs_error = std::max(result.max_abs_error, abs_error);
    if (ok) {
      ++result.within;
    } else {
      ++result.outside;
    }

    RowStats& row = result.rows[i / static_cast<std::size_t>(result.row_length)];
    row.max_abs_error = std::max(row.max_abs_error, abs_error);
    row.mse += abs_error * abs_error;
    if (!ok) ++row.outside;

    if (keep > 0) {
      Candidate candidate{allowed > 0.0 ? abs_error / allowed : (abs_error > 0.0 ? kInf : 0.0),
                          static_cast<int64_t>(i)};
      if (heap.size() < keep) {
        heap.push_back(candidate);
        std::push_heap(heap.begin(), heap.end(), worse);
      } else if (worse(candidate, heap.front())) {
        std::pop_heap(heap.begin(), heap.end(), worse);
        heap.back() = candidate;
        std::push_heap(heap.begin(), heap.end(), worse);
      }
    }
  }
  for (RowStats& row : result.rows) row.mse /= static_cast<double>(result.row_length);

  result.percent_within =
      count == 0 ? 100.0 : 100.0 * static_cast<double>(result.within) / static_cast<double>(count);
  if (sum_sq_ref > 0.0) {
    result.rel_l2 = std::sqrt(sum_sq_error) / std::sqrt(sum_sq_ref);
  } else {
    result.rel_l2 = sum_sq_error == 0.0 ? 0.0 : kInf;
  }
  result.elements_ok = result.outside == 0;
  result.rel_l2_ok = result.rel_l2 <= tolerance.rel_l2;
  result.pass = result.elements_ok && result.rel_l2_ok;

  std::sort(heap.begin(), heap.end(), worse);
  for (const Candidate& candidate : heap) {
    const auto i = static_cast<std::size_t>(candidate.index);
    ElementError element;
    element.flat_index = candidate.index;
    element.index = unravel_index(candidate.index, shape);
    element.out = out[i];
    element.ref = ref[i];
    element.allowed = tolerance.atol + tolerance.rtol * std::fabs(ref[i]);
    const bool both_nan = std::isnan(out[i]) && std::isnan(ref[i]);
    const bool same_inf = std::isinf(ref[i]) && out[i] == ref[i];
    if (both_nan || same_inf) {
      element.abs_error = 0.0;
    } else if (!std::isfinite(out[i]) || !std::isfinite(ref[i])) {
      element.abs_error = kInf;
    } else {
      element.abs_error = std::fabs(out[i] - ref[i]);
    }
    element.rel_error =
        ref[i] != 0.0 ? element.abs_error / std::fabs(ref[i]) : (element.abs_error > 0 ? kInf : 0.0);
    element.within = both_nan || same_inf || element.abs_error <= element.allowed;
    result.worst.push_back(std::move(element));
  }
  return result;
}

TaskCompareResult compare_outputs(const ResolvedConfig& config, const std::vector<Tensor>& outputs,
                                  const std::vector<Tensor>& refs, const CompareOptions& options) {
  auto find = [](const std::vector<Tensor>& tensors, const std::string& name,
                 const char* what) -> const Tensor& {
    for (const Tensor& tensor : tensors) {
      if (tensor.name == name) return tensor;
    }
    throw std::invalid_argument(fmt::format("compare: no {} tensor named '{}'", what, name));
  };
  TaskCompareResult result;
  result.pass = true;
  for (const ResolvedTensor& output : config.outputs) {
    const Tensor& out = find(outputs, output.name, "output");
    const Tensor& ref = find(refs, output.name, "reference");
    result.outputs.push_back(
        compare_tensor(output.name, output.shape, out.data, ref.data, config.tolerance, options));
    result.pass = result.pass && result.outputs.back().pass;
  }
  return result;
}

std::string format_compare(const CompareResult& result, const FormatOptions& options) {
  std::string text =
      fmt::format("{} {}: {}", result.name, format_shape(result.shape), result.pass ? "PASS" : "FAIL");
  std::vector<std::string> reasons;
  if (result.outside > 0) reasons.push_back(fmt::format("{} elements outside tolerance", result.outside));
  if (result.nonfinite_mismatches > 0)
    reasons.push_back(fmt::format("{} NaN/Inf mismatches", result.nonfinite_mismatches));
  if (!result.rel_l2_ok) {
    reasons.push_back(
        fmt::format("rel L2 {} > {}", error_text(result.rel_l2), number(result.tolerance.rel_l2)));
  }
  if (!reasons.empty()) {
    text += " (";
    for (std::size_t i = 0; i < reasons.size(); ++i) text += (i > 0 ? "; " : "") + reasons[i];
    text += ")";
  }
  text += "\n";
  const Tolerance& tol = result.tolerance;
  text += fmt::format(
      "  within tolerance: {}/{} ({:.3f}%)   rule: |out-ref| <= {} + {}*|ref|, rel L2 <= {}\n", result.within,
      result.count, result.percent_within, number(tol.atol), number(tol.rtol), number(tol.rel_l2));
  text += fmt::format("  max abs error {}, max rel error {}, rel L2 {}\n", error_text(result.max_abs_error),
                      error_text(result.max_rel_error), error_text(result.rel_l2));

  if (!result.worst.empty() && options.max_worst > 0) {
    text += "  worst elements (by error/allowed):\n";
    text +=
        fmt::format("    {:<16} {:>13} {:>13} {:>10} {:>10}\n", "index", "out", "ref", "abs err", "allowed");
    for (std::size_t i = 0; i < result.worst.size() && i < options.max_worst; ++i) {
      const ElementError& e = result.worst[i];
      text +=
          fmt::format("    {:<16} {:>13} {:>13} {:>10} {:>10}{}\n", index_text(e.index), number(e.out),
                      number(e.ref), error_text(e.abs_error), error_text(e.allowed), e.within ? "" : "  *");
    }
  }

  std::vector<int64_t> error_rows;
  for (const RowStats& row : result.rows) {
    if (row.outside > 0) error_rows.push_back(row.row);
  }
  if (!error_rows.empty() && options.max_rows > 0) {
    text += fmt::format("  rows with errors: {} ({} of {} rows; a row is the last dimension, {} elements)\n",
                        ranges_text(error_rows, 8), error_rows.size(), result.rows.size(), result.row_length);
    text += fmt::format("    {:<16} {:>12} {:>12} {:>8}\n", "row", "max abs err", "mse", "outside");
    const std::vector<std::size_t> shown = select_rows(result, options.max_rows, true);
    for (std::size_t i : shown) {
      const RowStats& row = result.rows[i];
      std::string label = std::to_string(row.row);
      if (row.index.size() > 1) label += " " + index_text(row.index);
      text += fmt::format("    {:<16} {:>12} {:>12} {:>8}\n", label, error_text(row.max_abs_error),
                          error_text(row.mse), row.outside);
    }
    if (shown.size() < error_rows.size()) {
      text += fmt::format("    ... {} more rows with errors not shown\n", error_rows.size() - shown.size());
    }
  }
  return text;
}

std::string format_compare(const TaskCompareResult& result, const FormatOptions& options) {
  std::string text = result.pass ? "PASS\n" : "FAIL\n";
  for (const CompareResult& output : result.outputs) text += format_compare(output, options);
  return text;
}

nlohmann::json json_number(double value) {
  if (std::isnan(value)) return "nan";
  if (std::isinf(value)) return value > 0 ? "inf" : "-inf";
  return value;
}

nlohmann::json to_json(const Tolerance& tolerance) {
  return {{"atol", tolerance.atol}, {"rtol", tolerance.rtol}, {"rel_l2", tolerance.rel_l2}};
}

nlohmann::json to_json(const CompareResult& result, std::size_t max_rows) {
  nlohmann::json json = {
      {"name", result.name},
      {"shape", result.shape},
      {"pass", result.pass},
      {"elements_ok", result.elements_ok},
      {"rel_l2_ok", result.rel_l2_ok},
      {"count", result.count},
      {"within", result.within},
      {"outside", result.outside},
      {"nonfinite_mismatches", result.nonfinite_mismatches},
      {"percent_within", result.percent_within},
      {"max_abs_error", json_number(result.max_abs_error)},
      {"max_rel_error", json_number(result.max_rel_error)},
      {"rel_l2", json_number(result.rel_l2)},
      {"tolerance", to_json(result.tolerance)},
      {"row_length", result.row_length},
  };
  nlohmann::json worst = nlohmann::json::array();
  for (const ElementError& e : result.worst) {
    worst.push_back({{"flat_index", e.flat_index},
                     {"index", e.index},
                     {"out", json_number(e.out)},
                     {"ref", json_number(e.ref)},
                     {"abs_error", json_number(e.abs_error)},
                     {"rel_error", json_number(e.rel_error)},
                     {"allowed", json_number(e.allowed)},
                     {"within", e.within}});
  }
  json["worst"] = std::move(worst);
  int64_t rows_with_errors = 0;
  for (const RowStats& row : result.rows) rows_with_errors += row.outside > 0 ? 1 : 0;
  json["rows_with_errors"] = rows_with_errors;
  nlohmann::json rows = nlohmann::json::array();
  for (std::size_t i : select_rows(result, max_rows, false)) {
    const RowStats& row = result.rows[i];
    rows.push_back({{"row", row.row},
                    {"index", row.index},
                    {"max_abs_error", json_number(row.max_abs_error)},
                    {"mse", json_number(row.mse)},
                    {"outside", row.outside}});
  }
  json["rows_truncated"] = rows.size() < result.rows.size();
  json["rows"] = std::move(rows);
  return json;
}

nlohmann::json to_json(const TaskCompareResult& result, std::size_t max_rows) {
  nlohmann::json outputs = nlohmann::json::array();
  for (const CompareResult& output : result.outputs) outputs.push_back(to_json(output, max_rows));
  return {{"pass", result.pass}, {"outputs", std::move(outputs)}};
}

double number_from_json(const nlohmann::json& value) {
  if (value.is_string()) {
    const auto& text = value.get_ref<const std::string&>();
    if (text == "nan") return std::numeric_limits<double>::quiet_NaN();
    if (text == "inf") return std::numeric_limits<double>::infinity();
    if (text == "-inf") return -std::numeric_limits<double>::infinity();
    throw std::invalid_argument("not a number: " + text);
  }
  return value.get<double>();
}

CompareResult compare_result_from_json(const nlohmann::json& json) {
  CompareResult r;
  r.name = json.at("name").get<std::string>();
  r.shape = json.at("shape").get<Shape>();
  const auto& t = json.at("tolerance");
  r.tolerance =
      Tolerance{t.at("atol").get<double>(), t.at("rtol").get<double>(), t.at("rel_l2").get<double>()};
  r.pass = json.at("pass").get<bool>();
  r.elements_ok = json.at("elements_ok").get<bool>();
  r.rel_l2_ok = json.at("rel_l2_ok").get<bool>();
  r.count = json.at("count").get<int64_t>();
  r.within = json.at("within").get<int64_t>();
  r.outside = json.at("outside").get<int64_t>();
  r.nonfinite_mismatches = json.at("nonfinite_mismatches").get<int64_t>();
  r.percent_within = json.at("percent_within").get<double>();
  r.max_abs_error = number_from_json(json.at("max_abs_error"));
  r.max_rel_error = number_from_json(json.at("max_rel_error"));
  r.rel_l2 = number_from_json(json.at("rel_l2"));
  r.row_length = json.at("row_length").get<int64_t>();
  for (const auto& e : json.at("worst")) {
    ElementError w;
    w.flat_index = e.at("flat_index").get<int64_t>();
    w.index = e.at("index").get<std::vector<int64_t>>();
    w.out = number_from_json(e.at("out"));
    w.ref = number_from_json(e.at("ref"));
    w.abs_error = number_from_json(e.at("abs_error"));
    w.rel_error = number_from_json(e.at("rel_error"));
    w.allowed = number_from_json(e.at("allowed"));
    w.within = e.at("within").get<bool>();
    r.worst.push_back(std::move(w));
  }
  if (json.value("rows_truncated", false))
    throw std::invalid_argument("compare result " + r.name + ": its rows were truncated");
  for (const auto& row : json.at("rows")) {
    RowStats s;
    s.row = row.at("row").get<int64_t>();
    s.index = row.at("index").get<std::vector<int64_t>>();
    s.max_abs_error = number_from_json(row.at("max_abs_error"));
    s.mse = number_from_json(row.at("mse"));
    s.outside = row.at("outside").get<int64_t>();
    r.rows.push_back(std::move(s));
  }
  return r;
}

TaskCompareResult task_compare_result_from_json(const nlohmann::json& json) {
  TaskCompareResult r;
  r.pass = json.at("pass").get<bool>();
  for (const auto& output : json.at("outputs")) r.outputs.push_back(compare_result_from_json(output));
  return r;
}

}  // namespace kcraft::tasks
