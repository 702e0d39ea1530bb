#include "agent/bench/compare.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <iterator>
#include <map>
#include <stdexcept>

#include "agent/bench/report.h"
#include "agent/bench/store.h"

namespace kcraft::bench {

using nlohmann::json;

namespace {

bool looks_like_sqlite(const std::filesystem::path& file) {
  std::ifstream in(file, std::ios::binary);
  char magic[16] = {};
  in.read(magic, sizeof magic);
  return in.gcount() == sizeof magic &&
         std::string(magic, sizeof magic) == std::string("SQLite format 3\0", 16);
}

std::string run_label(const RunKey& k) {
  return fmt::format("{}/{} {} {} {}{}", k.platform, k.hw_config, k.task, k.config, k.agent,
                     k.attempt > 1 ? fmt::format(" #{}", k.attempt) : "");
}

std::string cycles_text(const std::optional<RunRecord>& r) {
  if (!r) return "-";
  return r->correct() ? fmt::format("{}", r->cycles) : "";
}

std::string verdict_text(const std::optional<RunRecord>& r) {
  return r ? r->verdict : "-";
}

// "a, b, c and 4 more": the summary line names the first few runs.
std::string first_labels(const std::vector<std::string>& labels) {
  constexpr size_t kShown = 5;
  std::string s;
  for (size_t i = 0; i < labels.size() && i < kShown; ++i) s += (i ? "; " : "") + labels[i];
  if (labels.size() > kShown) s += fmt::format("; and {} more", labels.size() - kShown);
  return s;
}

std::string pct_text(double pct) {
  return fmt::format("{:+.1f}%", pct);
}

}  // namespace

const char* change_name(Change c) {
  switch (c) {
    case Change::kSlower:
      return "slower";
    case Change::kBroken:
      return "broken";
    case Change::kFaster:
      return "faster";
    case Change::kFixed:
      return "fixed";
    case Change::kSame:
      return "same";
    case Change::kOnlyOld:
      return "missing";
    case Change::kOnlyNew:
      return "new";
  }
  return "?";
}

std::vector<RunRecord> load_runs_for_compare(const std::filesystem::path& file) {
  if (!std::filesystem::is_regular_file(file)) throw std::runtime_error("no such file: " + file.string());
  if (looks_like_sqlite(file)) {
    // Opening a store upgrades an older schema in place (as `kcraft report` does); runs are only read.
    const ResultStore store(file);
    return store.runs();
  }
  std::ifstream in(file, std::ios::binary);
  const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  return runs_from_report_json(text, file.string());
}

std::vector<RunRecord> runs_from_report_json(const std::string& text, const std::string& source) {
  const json j = json::parse(text, nullptr, false);
  if (j.is_discarded()) {
    throw std::runtime_error(
        source + ": neither a results database (SQLite) nor JSON (a `kcraft --json report` file)");
  }
  if (!j.is_object() || !j.contains("runs") || !j["runs"].is_array()) {
    throw std::runtime_error(source +
                             ": JSON without a \"runs\" array (expected `kcraft --json report` output)");
  }
  std::vector<RunRecord> runs;
  for (size_t i = 0; i < j["runs"].size(); ++i) {
    try {
      runs.push_back(RunRecord::from_json(j["runs"][i]));
    } catch (const std::exception& e) {
      throw std::runtime_error(fmt::format("{}: runs[{}]: {}", source, i, e.what()));
    }
  }
  return runs;
}

CompareResult compare_runs(const std::vector<RunRecord>& old_runs, const std::vector<RunRecord>& new_runs,
                           const CompareOptions& options) {
  if (!(options.threshold_pct >= 0)) throw std::invalid_argument("the threshold must be a percentage >= 0");
  std::map<RunKey, ComparedRun> by_key;
  for (const auto& r : old_runs) by_key[r.key].old_run = r;
  for (const auto& r : new_runs) by_key[r.key].new_run = r;
  CompareResult result;
  double log_sum = 0;
  for (auto& [key, c] : by_key) {
    c.key = key;
    if (!c.new_run) {
      c.change = Change::kOnlyOld;
      ++result.only_old;
      if (options.missing_is_regression) result.regressed = true;
    } else if (!c.old_run) {
      c.change = Change::kOnlyNew;
      ++result.only_new;
    } else {
      const RunRecord &before = *c.old_run, &after = *c.new_run;
      c.hardware_changed = before.hardware_id != after.hardware_id;
      c.kernel_changed = before.kernel != after.kernel;
      if (before.correct() && after.correct() && before.cycles > 0) {
        const double ratio = static_cast<double>(after.cycles) / static_cast<double>(before.cycles);
        c.cycles_change_pct = (ratio - 1) * 100;
        log_sum += std::log(ratio);
        ++result.compared_cycles;
        // A margin below any cycle count's resolution: 1020 cycles after 1000 is 2%, not "more than 2%".
        constexpr double kRounding = 1e-9;
        if (c.cycles_change_pct > options.threshold_pct + kRounding) {
          c.change = Change::kSlower;
          ++result.slower;
          result.regressed = true;
        } else if (-c.cycles_change_pct > options.threshold_pct + kRounding) {
          c.change = Change::kFaster;
          ++result.faster;
        } else {
          ++result.same;
        }
      } else if (before.correct() && !after.correct()) {
        c.change = Change::kBroken;
        ++result.broken;
        result.regressed = true;
      } else if (!before.correct() && after.correct()) {
        c.change = Change::kFixed;
        ++result.fixed;
      } else {
        ++result.same;
      }
    }
    result.runs.push_back(std::move(c));
  }
  if (result.compared_cycles > 0) {
    result.geomean_ratio = std::exp(log_sum / static_cast<double>(result.compared_cycles));
  }
  return result;
}

std::string compare_text(const CompareResult& r, const CompareOptions& o, bool all) {
  std::vector<std::string> slower, broken, missing;
  for (const auto& c : r.runs) {
    if (c.change == Change::kSlower)
      slower.push_back(run_label(c.key) + " (" + pct_text(c.cycles_change_pct) + ")");
    if (c.change == Change::kBroken)
      broken.push_back(
          fmt::format("{} ({} -> {})", run_label(c.key), c.old_run->verdict, c.new_run->verdict));
    if (c.change == Change::kOnlyOld) missing.push_back(run_label(c.key));
  }
  std::string out;
  const std::string threshold = fmt::format("{:g}%", o.threshold_pct);
  if (!slower.empty()) {
    out += fmt::format("{} run{} got slower than {}: {}\n", slower.size(), slower.size() == 1 ? "" : "s",
                       threshold, first_labels(slower));
  }
  if (!broken.empty()) {
    out +=
        fmt::format("{} run{} correct before {} not now: {}\n", broken.size(), broken.size() == 1 ? "" : "s",
                    broken.size() == 1 ? "is" : "are", first_labels(broken));
  }
  if (!missing.empty()) {
    out += fmt::format("{} run{} of OLD {} missing from NEW{}: {}\n", missing.size(),
                       missing.size() == 1 ? "" : "s", missing.size() == 1 ? "is" : "are",
                       o.missing_is_regression ? " (counted as regressions)" : "", first_labels(missing));
  }
  out += fmt::format(
      "{} runs compared: {} slower, {} broken, {} faster, {} fixed, {} unchanged (threshold {}), {} missing, "
      "{} "
      "new; cycles new/old, geometric mean over {} runs correct in both: {:.4f}\n",
      r.runs.size(), r.slower, r.broken, r.faster, r.fixed, r.same, threshold, r.only_old, r.only_new,
      r.compared_cycles, r.geomean_ratio);
  out += r.regressed ? "REGRESSED\n" : "no regression\n";

  // The table: changed runs (every run with `all`), regressions first.
  std::vector<const ComparedRun*> rows;
  for (const auto& c : r.runs) {
    if (all || c.change != Change::kSame) rows.push_back(&c);
  }
  auto rank = [](Change c) {
    switch (c) {
      case Change::kBroken:
        return 0;
      case Change::kSlower:
        return 1;
      case Change::kOnlyOld:
        return 2;
      case Change::kFixed:
        return 3;
      case Change::kFaster:
        return 4;
      case Change::kOnlyNew:
        return 5;
      case Change::kSame:
        return 6;
    }
    return 7;
  };
  std::stable_sort(rows.begin(), rows.end(), [&](const ComparedRun* a, const ComparedRun* b) {
    return rank(a->change) < rank(b->change);
  });
  if (rows.empty()) return out;
  std::vector<std::vector<std::string>> table = {{"change", "target", "task", "config", "agent",
                                                  "old verdict", "new verdict", "old cycles", "new cycles",
                                                  "cycles", "note"}};
  for (const ComparedRun* c : rows) {
    std::string note;
    if (c->hardware_changed) note += "hardware changed";
    if (c->kernel_changed) note += std::string(note.empty() ? "" : ", ") + "kernel changed";
    const bool both_correct = c->old_run && c->new_run && c->old_run->correct() && c->new_run->correct();
    table.push_back({change_name(c->change), c->key.target(), c->key.task, c->key.config,
                     c->key.agent + (c->key.attempt > 1 ? fmt::format(" #{}", c->key.attempt) : ""),
                     verdict_text(c->old_run), verdict_text(c->new_run), cycles_text(c->old_run),
                     cycles_text(c->new_run), both_correct ? pct_text(c->cycles_change_pct) : "", note});
  }
  std::vector<size_t> width(table.front().size(), 0);
  for (const auto& row : table) {
    for (size_t i = 0; i < row.size(); ++i) width[i] = std::max(width[i], row[i].size());
  }
  out += "\n";
  for (const auto& row : table) {
    std::string line;
    for (size_t i = 0; i < row.size(); ++i) {
      const bool numeric = i >= 7 && i <= 9;
      line += numeric ? fmt::format("{:>{}}", row[i], width[i]) : fmt::format("{:<{}}", row[i], width[i]);
      line += i + 1 < row.size() ? "  " : "";
    }
    while (!line.empty() && line.back() == ' ') line.pop_back();
    out += line + "\n";
  }
  return out;
}

json compare_json(const CompareResult& r, const CompareOptions& o) {
  json runs = json::array();
  for (const auto& c : r.runs) {
    json j = c.key.to_json();
    j["change"] = change_name(c.change);
    auto side = [](const std::optional<RunRecord>& run) -> json {
      if (!run) return nullptr;
      return {{"verdict", run->verdict},
              {"cycles", run->cycles},
              {"git_commit", run->git_commit},
              {"hardware_id", run->hardware_id}};
    };
    j["old"] = side(c.old_run);
    j["new"] = side(c.new_run);
    if (c.old_run && c.new_run && c.old_run->correct() && c.new_run->correct())
      j["cycles_change_pct"] = c.cycles_change_pct;
    j["hardware_changed"] = c.hardware_changed;
    j["kernel_changed"] = c.kernel_changed;
    runs.push_back(j);
  }
  return {{"threshold_pct", o.threshold_pct},
          {"missing_is_regression", o.missing_is_regression},
          {"regressed", r.regressed},
          {"counts",
           {{"slower", r.slower},
            {"broken", r.broken},
            {"faster", r.faster},
            {"fixed", r.fixed},
            {"same", r.same},
            {"missing", r.only_old},
            {"new", r.only_new}}},
          {"geomean_cycles_ratio", r.geomean_ratio},
          {"runs_correct_in_both", r.compared_cycles},
          {"runs", runs}};
}

void write_compare_csv(const CompareResult& r, const std::filesystem::path& file) {
  if (file.has_parent_path()) std::filesystem::create_directories(file.parent_path());
  std::ofstream out(file, std::ios::binary);
  out << "platform,hw_config,task,config,agent,attempt,change,old_verdict,new_verdict,old_cycles,new_cycles,"
         "cycles_change_pct,hardware_changed,kernel_changed\n";
  for (const auto& c : r.runs) {
    const bool both_correct = c.old_run && c.new_run && c.old_run->correct() && c.new_run->correct();
    out << fmt::format("{},{},{},{},{},{},{},{},{},{},{},{},{},{}\n", csv_field(c.key.platform),
                       csv_field(c.key.hw_config), csv_field(c.key.task), csv_field(c.key.config),
                       csv_field(c.key.agent), c.key.attempt, change_name(c.change),
                       c.old_run ? c.old_run->verdict : "", c.new_run ? c.new_run->verdict : "",
                       c.old_run ? fmt::format("{}", c.old_run->cycles) : "",
                       c.new_run ? fmt::format("{}", c.new_run->cycles) : "",
                       both_correct ? fmt::format("{:.4f}", c.cycles_change_pct) : "",
                       c.hardware_changed ? 1 : 0, c.kernel_changed ? 1 : 0);
  }
  if (!out) throw std::runtime_error("cannot write " + file.string());
}

}  // namespace kcraft::bench
