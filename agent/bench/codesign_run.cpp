#include "agent/bench/codesign_run.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <filesystem>
#include <stdexcept>

#include "agent/bench/explore.h"
#include "agent/bench/store.h"
#include "tb/common/platform.h"

namespace kcraft::bench::codesign {

namespace {

struct KernelChoice {
  std::string source, filename, from;
  uint64_t cycles = 0;  // as recorded (0: the baseline, tried last)
};

std::vector<KernelChoice> stored_kernels(const Platform& platform, const std::string& hw,
                                         const WorkloadItem& item, const ResultStore* store) {
  std::vector<KernelChoice> out;
  if (store == nullptr) return out;
  for (const auto& k : store->kernels()) {
    if (k.platform != platform.name() || k.hw_config != hw || k.task != item.task || k.config != item.config)
      continue;
    out.push_back({k.source, platform.kernel_file_name(k.language), "library (" + k.agent + ")", k.cycles});
  }
  for (const auto& t : store->tuned_baselines()) {
    const auto& key = t.key;
    if (key.platform != platform.name() || key.hw_config != hw || key.task != item.task ||
        key.config != item.config || t.cycles == 0 || t.kernel.empty())
      continue;
    out.push_back({t.kernel, platform.kernel_file_name(), "tuned baseline", t.cycles});
  }
  std::stable_sort(out.begin(), out.end(),
                   [](const KernelChoice& a, const KernelChoice& b) { return a.cycles < b.cycles; });
  return out;
}

}  // namespace

WeightedProfile run_workload(const RunOptions& o, const tasks::TaskRegistry& registry, std::ostream& log) {
  const Platform& platform = kcraft::platform(o.platform);  // throws naming the platforms
  platform.hw_config(o.hw);                                 // throws naming the configurations
  const CodesignRules rules = platform.codesign_rules(o.hw);
  std::unique_ptr<ResultStore> store;
  if (!o.db.empty() && std::filesystem::exists(o.db)) store = std::make_unique<ResultStore>(o.db);
  const auto compiler = platform.baseline_compiler(o.hw);
  std::vector<RunProfile> runs;
  std::vector<std::string> skipped;
  for (const auto& item : o.workload) {
    const tasks::TaskSpec* spec = registry.find(item.task);
    if (spec == nullptr) throw std::invalid_argument("unknown task '" + item.task + "' in the workload");
    const tasks::ResolvedConfig cfg = spec->resolve(item.config, platform.dtype());  // throws for a bad name
    const std::string cell = item.task + " " + item.config;
    if (const auto why = platform.unsupported_reason(cfg, o.hw); !why.empty()) {
      skipped.push_back(cell + ": unsupported: " + why);
      continue;
    }
    auto choices = stored_kernels(platform, o.hw, item, store.get());
    if (compiler != nullptr && compiler->supports(item.task) && compiler->unsupported_reason(cfg).empty()) {
      const auto kernel = compiler->generate(cfg, platform.layout(cfg));
      choices.push_back({kernel.source, platform.kernel_file_name(kernel.language), "baseline", 0});
    }
    bool done = false;
    std::string last;
    for (const auto& k : choices) {
      EvalRequest request;
      request.platform = platform.name();
      request.hw_config = o.hw;
      request.task = item.task;
      request.config = item.config;
      request.seed = o.seed;
      request.source = k.source;
      request.filename = k.filename;
      request.timeline = true;
      request.check_model = false;
      const EvalReport report = platform.evaluate(request, registry);
      if (report.verdict != Verdict::kPass || report.timeline == nullptr) {
        last = std::string(verdict_name(report.verdict)) + " (" + k.from + ")";
        continue;
      }
      RunTrace trace = trace_from_timeline(*report.timeline, rules);
      trace.task = item.task;
      trace.config = item.config;
      trace.kernel_from = k.from;
      trace.weight = item.weight;
      trace.cycles = report.cycles;  // the run's cycles as kcraft reports them: what the charges add up to
      runs.push_back(profile_run(
          trace, [&](const std::string& text) { return platform.dataflow(text); }, rules));
      log << fmt::format("codesign: {} {}: {} cycles ({}, {:.1f} s)\n", item.task, item.config, report.cycles,
                         k.from, report.wall_seconds);
      done = true;
      break;
    }
    if (!done) skipped.push_back(cell + ": no passing kernel" + (last.empty() ? "" : ": last " + last));
  }
  WeightedProfile w = combine(std::move(runs), platform.name(), o.hw, rules, platform.instruction_names());
  w.skipped = std::move(skipped);
  return w;
}

void fill_cells_added(const WeightedProfile& w, std::vector<Candidate>& candidates, bool synthesize,
                      std::ostream* log) {
  for (auto& c : candidates) {
    if (c.kind != "parameter") continue;
    try {
      const auto set = parse_parameter_values(
          fmt::format("{}={}", c.evidence.at("parameter").get<std::string>(),
                      fmt::join(c.evidence.at("values").get<std::vector<std::string>>(), ",")));
      std::string error;
      if (synthesize && log != nullptr)
        *log << "codesign: synthesizing " << set.text() << " = "
             << fmt::format("{}", fmt::join(set.values, ", ")) << " (yosys)\n";
      const auto cells = synthesize ? synthesized_cells(w.platform, w.hw_config, set, error)
                                    : cached_cells(w.platform, w.hw_config, set);
      if (!error.empty() && log != nullptr) *log << "codesign: " << set.text() << ": " << error << "\n";
      if (cells.size() >= 2 && cells.front() && cells.back())
        c.cells_added = static_cast<int64_t>(*cells.back()) - static_cast<int64_t>(*cells.front());
    } catch (const std::exception& e) {
      // No variant build information or configuration: the size stays unknown (said when asked for).
      if (synthesize && log != nullptr)
        *log << "codesign: no size for " << c.title << ": " << e.what() << "\n";
    }
  }
}

}  // namespace kcraft::bench::codesign
