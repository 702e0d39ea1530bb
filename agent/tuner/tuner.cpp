#include "agent/tuner/tuner.h"

#include <fmt/format.h>

#include <chrono>
#include <set>

#include "agent/common/environment.h"

namespace kcraft::agent {

namespace {

using nlohmann::json;

std::string knob_text(const tasks::KnobValues& knobs) {
  std::string s;
  for (const auto& [k, v] : knobs) s += fmt::format("{}{}={}", s.empty() ? "" : " ", k, v);
  return s;
}

// Bump when the search itself changes (order of knobs, acceptance rule): stored tuned baselines made by
// another search are then not reused.
constexpr const char* kTunerSearchVersion = "coordinate-descent/1";

// The run's opening record, as every agent writes it.
void write_run_start(const AgentResult& result, const TaskContext& ctx, Transcript& transcript) {
  transcript.write({{"type", "run_start"},
                    {"agent", result.agent},
                    {"context", transcript_context(ctx)},
                    {"budget", {{"iterations", result.budget}, {"tokens", 0}}}});
}

// The template compiler for the context, or nullptr (and result set to no_kernel) when it has no kernel.
std::unique_ptr<tasks::BaselineCompiler> compiler_for(const TaskContext& ctx,
                                                      const tasks::ResolvedConfig& cfg, AgentResult& result) {
  auto compiler_ptr = kcraft::platform(ctx.platform).baseline_compiler(ctx.hw_config);
  if (compiler_ptr == nullptr || !compiler_ptr->supports(ctx.task) ||
      !compiler_ptr->unsupported_reason(cfg).empty()) {
    result.status = "no_kernel";
    result.error = "the template compiler has no kernel for this task and configuration";
    return nullptr;
  }
  return compiler_ptr;
}

// Records a tool call and its result in the transcript.
ToolResult traced_call(ToolSession& session, Transcript& transcript, unsigned iteration,
                       const std::string& id, const std::string& name, const json& args) {
  transcript.write({{"type", "tool_call"},
                    {"iteration", iteration},
                    {"id", id},
                    {"name", name},
                    {"arguments", args.dump()}});
  ToolResult r = session.call(name, args);
  transcript.write({{"type", "tool_result"},
                    {"iteration", iteration},
                    {"id", id},
                    {"name", name},
                    {"text", r.text},
                    {"is_error", r.is_error},
                    {"data", r.data}});
  return r;
}

}  // namespace

std::string tuner_search_space_id(const TaskContext& ctx) {
  const auto& spec = task_registry().get(ctx.task);
  const Platform& platform = kcraft::platform(ctx.platform);
  const auto cfg = spec.resolve(ctx.config, platform.dtype());
  const auto compiler_ptr = platform.baseline_compiler(ctx.hw_config);
  if (compiler_ptr == nullptr || !compiler_ptr->supports(ctx.task) ||
      !compiler_ptr->unsupported_reason(cfg).empty())
    return "";
  const tasks::BaselineCompiler& compiler = *compiler_ptr;
  std::string text = fmt::format("{}\nbudget={}\ndev_seed={}\n", kTunerSearchVersion,
                                 default_iterations(spec.level), kTunedBaselineDevSeed);
  for (const auto& knob : compiler.knobs(cfg)) {
    text += fmt::format("knob {} baseline={} candidates=", knob.name, knob.baseline);
    for (int64_t v : knob.candidates) text += fmt::format("{},", v);
    text += "\n";
  }
  const auto baseline = compiler.generate(cfg, platform.layout(cfg));
  text += baseline.source;
  if (!baseline.language.empty()) text += "\nlanguage=" + baseline.language;
  uint64_t hash = 1469598103934665603ull;  // FNV-1a: stable across compilers and runs
  for (unsigned char c : text) {
    hash ^= c;
    hash *= 1099511628211ull;
  }
  return fmt::format("{:016x}", hash);
}

AgentResult run_tuner(const TaskContext& ctx, const AgentBudget& budget, Transcript& transcript) {
  const auto t0 = std::chrono::steady_clock::now();
  AgentResult result;
  result.agent = "tuner";
  result.context = ctx;
  const auto& spec = task_registry().get(ctx.task);
  result.budget = budget.max_iterations != 0 ? budget.max_iterations : default_iterations(spec.level);
  ToolSession session(ctx);
  write_run_start(result, ctx, transcript);

  const Platform& platform = kcraft::platform(ctx.platform);
  auto cfg = spec.resolve(ctx.config, platform.dtype());
  const auto layout = platform.layout(cfg);
  const auto compiler_ptr = compiler_for(ctx, cfg, result);
  if (compiler_ptr == nullptr) {
    result.wall_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    finish_run(result, transcript);
    return result;
  }
  const tasks::BaselineCompiler& compiler = *compiler_ptr;
  const auto knobs = compiler.knobs(cfg);
  if (knobs.empty()) {
    // A template without knobs has one candidate: a development run could not change what is submitted, so
    // the kernel goes to scoring unevaluated, as the baseline agent's does (scoring's hidden seeds judge it).
    const auto kernel = compiler.generate(cfg, layout);
    json write_args = {{"code", kernel.source}};
    if (!kernel.language.empty()) write_args["language"] = kernel.language;
    transcript.write(
        {{"type", "note"},
         {"text", "the template has no knobs: its one kernel is submitted without a development run"}});
    traced_call(session, transcript, 1, "tuner-1", "write_code", write_args);
    traced_call(session, transcript, 1, "tuner-2", "submit", json::object());
    result.status = "submitted";
    result.iterations = 1;
    result.final_code = kernel.source;
    result.final_language = kernel.language;
    result.wall_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    finish_run(result, transcript);
    return result;
  }

  tasks::KnobValues best_knobs;
  for (const auto& k : knobs) best_knobs[k.name] = k.baseline;
  std::string best_code, best_language;
  uint64_t best_cycles = 0;
  std::set<std::string> tried;  // generated sources: clamped knobs often give the same kernel
  unsigned call_id = 0;

  // One iteration: save a candidate and evaluate it, as an LLM would through the tools.
  auto try_candidate = [&](unsigned iteration, const tasks::KnobValues& candidate, const std::string& why) {
    tasks::GeneratedKernel kernel;
    try {
      kernel = compiler.generate(cfg, layout, candidate);
    } catch (const std::invalid_argument&) {
      // A knob point the template cannot build on this hardware (e.g. a kernel that outgrows instruction
      // memory) is not a kernel: the search moves on. The baseline's own knobs must build.
      if (why == "baseline") throw;
      return false;
    }
    if (!tried.insert(kernel.source).second) return false;
    const std::string id_write = fmt::format("tuner-{}", ++call_id),
                      id_eval = fmt::format("tuner-{}", ++call_id);
    // The language only when the template says: transcripts of single-language platforms stay as they were.
    json write_args = {{"code", kernel.source}};
    if (!kernel.language.empty()) write_args["language"] = kernel.language;
    transcript.write(
        {{"type", "llm_response"},
         {"iteration", iteration},
         {"message",
          {{"role", "assistant"},
           {"content", fmt::format("{}: {}", why, knob_text(kernel.knobs))},
           {"tool_calls",
            json::array({{{"id", id_write}, {"name", "write_code"}, {"arguments", write_args.dump()}},
                         {{"id", id_eval}, {"name", "run_eval"}, {"arguments", "{}"}}})}}},
         {"usage", {{"prompt_tokens", 0}, {"completion_tokens", 0}, {"reasoning_tokens", 0}}}});
    for (const auto& [id, name, args] : {std::tuple{id_write, std::string("write_code"), write_args},
                                         std::tuple{id_eval, std::string("run_eval"), json::object()}}) {
      ToolResult r = traced_call(session, transcript, iteration, id, name, args);
      record_progress(result, iteration, name, r);
      if (name == "run_eval" && r.data.value("verdict", "") == "pass") {
        const auto cycles = r.data.value("cycles", uint64_t{0});
        if (best_code.empty() || cycles < best_cycles) {
          best_cycles = cycles;
          best_code = kernel.source;
          best_language = kernel.language;
          best_knobs = kernel.knobs;
        }
      }
    }
    result.iterations = iteration;
    return true;
  };

  unsigned iteration = 0;
  if (try_candidate(++iteration, best_knobs, "baseline")) {
    // Coordinate descent: vary one knob at a time around the best kernel so far, while budget lasts.
    bool improved = true;
    while (improved && iteration < result.budget) {
      improved = false;
      for (const auto& knob : knobs) {
        for (int64_t value : knob.candidates) {
          if (iteration >= result.budget) break;
          if (value == best_knobs[knob.name]) continue;
          tasks::KnobValues candidate = best_knobs;
          candidate[knob.name] = value;
          const uint64_t before = best_cycles;
          if (try_candidate(iteration + 1, candidate, "vary " + knob.name)) {
            ++iteration;
            if (best_cycles < before) improved = true;
          }
        }
      }
    }
  }
  result.status = "submitted";
  if (!best_code.empty()) {
    json final_write = {{"code", best_code}};
    if (!best_language.empty()) final_write["language"] = best_language;
    const json final_calls[2][2] = {{"write_code", final_write}, {"submit", json::object()}};
    for (const auto& [name, args] : final_calls)
      traced_call(session, transcript, iteration, fmt::format("tuner-{}", ++call_id), name.get<std::string>(),
                  args);
    transcript.write({{"type", "note"},
                      {"text", fmt::format("best kernel: {} ({} cycles on the development inputs)",
                                           knob_text(best_knobs), best_cycles)},
                      {"knobs", best_knobs}});
  } else {
    result.status = "no_kernel";
    result.error = "no candidate passed";
  }
  result.final_code = best_code;
  result.final_language = best_language;
  result.evaluations = session.evaluations();
  result.wall_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  finish_run(result, transcript);
  return result;
}

}  // namespace kcraft::agent

namespace kcraft::agent {

AgentResult run_baseline(const TaskContext& ctx, Transcript& transcript) {
  const auto t0 = std::chrono::steady_clock::now();
  AgentResult result;
  result.agent = "baseline";
  result.context = ctx;
  ToolSession session(ctx);
  write_run_start(result, ctx, transcript);
  const Platform& platform = kcraft::platform(ctx.platform);
  const auto cfg = task_registry().get(ctx.task).resolve(ctx.config, platform.dtype());
  if (const auto compiler = compiler_for(ctx, cfg, result)) {
    const auto kernel = compiler->generate(cfg, platform.layout(cfg));
    json write_args = {{"code", kernel.source}};
    if (!kernel.language.empty()) write_args["language"] = kernel.language;
    traced_call(session, transcript, 0, "baseline-1", "write_code", write_args);
    traced_call(session, transcript, 0, "baseline-2", "submit", json::object());
    result.status = "submitted";
    result.final_code = kernel.source;
    result.final_language = kernel.language;
  }
  result.wall_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  finish_run(result, transcript);
  return result;
}

}  // namespace kcraft::agent
