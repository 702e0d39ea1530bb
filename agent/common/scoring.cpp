#include "agent/common/scoring.h"

#include <atomic>
#include <map>
#include <mutex>
#include <optional>
#include <tuple>

#include "agent/common/environment.h"
#include "agent/common/eval_cache.h"

namespace kcraft::agent {

namespace {

EvalRequest request_for(const TaskContext& ctx, const std::string& code, const std::string& language,
                        uint64_t seed) {
  EvalRequest req;
  req.platform = ctx.platform;
  req.hw_config = ctx.hw_config;
  req.task = ctx.task;
  req.config = ctx.config;
  req.seed = seed;
  req.max_cycles = ctx.max_cycles;
  req.source = code;
  req.filename = platform(ctx.platform).kernel_file_name(language);
  return req;
}

EvalReport evaluate(const TaskContext& ctx, const std::string& code, const std::string& language,
                    uint64_t seed) {
  return agent::evaluate(request_for(ctx, code, language, seed), task_registry());  // through the cache
}

// FNV-1a over the text: stable across compilers and runs.
uint64_t stable_hash(const std::string& s) {
  uint64_t h = 1469598103934665603ull;
  for (unsigned char c : s) {
    h ^= c;
    h *= 1099511628211ull;
  }
  return h;
}

}  // namespace

void Score::set_tuned_baseline(uint64_t tuned_cycles) {
  tuned_baseline_cycles = tuned_cycles;
  tuned_speedup = verdict == Verdict::kPass && cycles > 0 && tuned_cycles > 0
                      ? static_cast<double>(tuned_cycles) / static_cast<double>(cycles)
                      : 0;
}

nlohmann::json Score::to_json() const {
  nlohmann::json seeds_json = nlohmann::json::array();
  for (const auto& s : seeds)
    seeds_json.push_back({{"seed", s.seed}, {"verdict", verdict_name(s.verdict)}, {"headline", s.headline}});
  nlohmann::json j = {
      {"verdict", verdict_name(verdict)},   {"seeds", seeds_json}, {"cycles", cycles},
      {"baseline_cycles", baseline_cycles}, {"speedup", speedup},  {"utilization", utilization}};
  if (compiler_baseline_cycles > 0) {
    j["compiler_baseline_cycles"] = compiler_baseline_cycles;
    j["compiler_speedup"] = compiler_speedup;
  }
  if (compiler_baseline_not_simulated) j["compiler_baseline"] = "not simulated";
  if (tuned_baseline_cycles) {
    j["tuned_baseline_cycles"] = *tuned_baseline_cycles;
    j["tuned_speedup"] = tuned_speedup;
  }
  if (!phases.empty()) j["phases"] = phases_json();
  return j;
}

nlohmann::json Score::phases_json() const {
  if (phases.empty()) return nlohmann::json::object();
  nlohmann::json list = nlohmann::json::array();
  for (const auto& p : phases) list.push_back({{"name", p.name}, {"cycles", p.cycles}, {"marks", p.marks}});
  return {{"unmarked_cycles", unmarked_cycles}, {"phases", std::move(list)}};
}

std::vector<uint64_t> hidden_seeds(const TaskContext& ctx) {
  std::vector<uint64_t> seeds;
  const uint64_t base = stable_hash("hidden/" + ctx.task + "/" + ctx.config);
  for (uint64_t i = 0; seeds.size() < 2; ++i) {
    const uint64_t s = (base + 0x9E3779B97F4A7C15ull * (i + 1)) >> 16;
    if (s != ctx.dev_seed) seeds.push_back(s);
  }
  // Tasks whose numerics depend on the input range add their stated range-stress set as one more seed
  // (tasks/README.md, Range-stress inputs); the hashes above are below 2^48, so the stress bit never collides
  // with them.
  const tasks::TaskSpec* spec = task_registry().find(ctx.task);
  if (spec != nullptr && spec->range_stress) {
    const uint64_t s = (base + 0x9E3779B97F4A7C15ull * 7) >> 16;
    seeds.push_back(tasks::range_stress_seed(s));
  }
  return seeds;
}

namespace {

// (which reference: "template" or "compiler", platform, hardware configuration, task, config, seed)
using BaselineKey = std::tuple<std::string, std::string, std::string, std::string, std::string, uint64_t>;

std::mutex& cache_mutex() {
  static std::mutex m;
  return m;
}

std::map<BaselineKey, uint64_t>& cache() {
  static std::map<BaselineKey, uint64_t> c;
  return c;
}

// A submitted kernel that is the baseline itself gives the baseline's cycles for free.
void remember_if_baseline(const TaskContext& ctx, const std::string& code, const std::string& language,
                          uint64_t seed, uint64_t cycles) {
  const auto baseline = baseline_kernel(ctx);
  if (code != baseline.source || platform(ctx.platform).language(language).name != baseline.language) return;
  std::lock_guard<std::mutex> lock(cache_mutex());
  cache().emplace(BaselineKey{"template", ctx.platform, ctx.hw_config, ctx.task, ctx.config, seed}, cycles);
}

}  // namespace

namespace {

enum class Reference { kTemplate, kCompiler };

tasks::GeneratedKernel reference_kernel(const TaskContext& ctx, Reference which) {
  const Platform& p = platform(ctx.platform);
  const auto compiler = p.baseline_compiler(ctx.hw_config);
  if (compiler == nullptr || !compiler->supports(ctx.task)) return {};
  auto cfg = task_registry().get(ctx.task).resolve(ctx.config, p.dtype());
  if (!compiler->unsupported_reason(cfg).empty()) return {};
  auto kernel = which == Reference::kTemplate ? compiler->generate(cfg, p.layout(cfg))
                                              : compiler->compiler_baseline(cfg, p.layout(cfg));
  if (kernel.source.empty()) return {};
  kernel.language = p.language(kernel.language).name;
  return kernel;
}

std::atomic<CompilerBaselinePolicy>& policy() {
  static std::atomic<CompilerBaselinePolicy> p{CompilerBaselinePolicy::kSimulate};
  return p;
}

// nullopt: `simulate` is false and neither the process nor the evaluation cache knows the cycles.
std::optional<uint64_t> reference_cycles(const TaskContext& ctx, uint64_t seed, Reference which,
                                         bool simulate) {
  const BaselineKey key{which == Reference::kTemplate ? "template" : "compiler",
                        ctx.platform,
                        ctx.hw_config,
                        ctx.task,
                        ctx.config,
                        seed};
  {
    std::lock_guard<std::mutex> lock(cache_mutex());
    if (auto it = cache().find(key); it != cache().end()) return it->second;
  }
  uint64_t cycles = 0;
  if (const auto kernel = reference_kernel(ctx, which); !kernel.source.empty()) {
    std::optional<EvalReport> report;
    if (simulate) {
      report = evaluate(ctx, kernel.source, kernel.language, seed);
    } else {
      EvalCache* store = evaluation_cache();
      const EvalRequest req = request_for(ctx, kernel.source, kernel.language, seed);
      const std::string eval_key = store == nullptr ? "" : evaluation_key(req, task_registry());
      if (!eval_key.empty()) report = store->find(eval_key);
      if (!report) return std::nullopt;  // not remembered: a later simulating call may still fill it
    }
    if (report->verdict == Verdict::kPass) cycles = report->cycles;
  }
  std::lock_guard<std::mutex> lock(cache_mutex());
  cache()[key] = cycles;
  return cycles;
}

double ratio(uint64_t reference, uint64_t cycles) {
  return reference > 0 && cycles > 0 ? static_cast<double>(reference) / static_cast<double>(cycles) : 0;
}

}  // namespace

tasks::GeneratedKernel baseline_kernel(const TaskContext& ctx) {
  return reference_kernel(ctx, Reference::kTemplate);
}

uint64_t baseline_cycles(const TaskContext& ctx, uint64_t seed) {
  return *reference_cycles(ctx, seed, Reference::kTemplate, true);
}

std::string compiler_baseline_name(const std::string& platform_name, const std::string& hw_config) {
  const auto compiler = platform(platform_name).baseline_compiler(hw_config);
  return compiler == nullptr ? "" : compiler->compiler_baseline_name();
}

uint64_t compiler_baseline_cycles(const TaskContext& ctx, uint64_t seed) {
  return *reference_cycles(ctx, seed, Reference::kCompiler, true);
}

void set_compiler_baseline_policy(CompilerBaselinePolicy p) {
  policy() = p;
}
CompilerBaselinePolicy compiler_baseline_policy() {
  return policy();
}

std::optional<uint64_t> find_compiler_baseline_cycles(const TaskContext& ctx, uint64_t seed) {
  return reference_cycles(ctx, seed, Reference::kCompiler, policy() == CompilerBaselinePolicy::kSimulate);
}

Score score_kernel(const TaskContext& ctx, const std::string& code, const std::string& language) {
  Score score;
  score.verdict = Verdict::kPass;
  if (code.empty()) {
    score.verdict = Verdict::kBuildError;
    return score;
  }
  for (uint64_t seed : hidden_seeds(ctx)) {
    auto report = evaluate(ctx, code, language, seed);
    score.seeds.push_back({seed, report.verdict, report.headline});
    if (score.seeds.size() == 1) {
      score.cycles = report.cycles;
      score.utilization = report.utilization;
      for (const auto& c : report.counters) score.counters.emplace_back(c.name, c.value);
      score.phases = report.phases;
      score.unmarked_cycles = report.unmarked_cycles;
    }
    if (report.verdict != Verdict::kPass && score.verdict == Verdict::kPass) score.verdict = report.verdict;
  }
  if (score.verdict == Verdict::kPass) {
    remember_if_baseline(ctx, code, language, score.seeds.front().seed, score.cycles);
    score.baseline_cycles = baseline_cycles(ctx, score.seeds.front().seed);
    score.speedup = ratio(score.baseline_cycles, score.cycles);
    const auto compiler = find_compiler_baseline_cycles(ctx, score.seeds.front().seed);
    score.compiler_baseline_not_simulated = !compiler.has_value();
    score.compiler_baseline_cycles = compiler.value_or(0);
    score.compiler_speedup = ratio(score.compiler_baseline_cycles, score.cycles);
  }
  return score;
}

}  // namespace kcraft::agent
