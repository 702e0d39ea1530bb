#include "agent/common/replay.h"

#include <fmt/format.h>

#include <map>

#include "agent/common/transcript.h"

namespace kcraft::agent {

namespace {

using nlohmann::json;

Verdict verdict_from_name(const std::string& name) {
  for (Verdict v : {Verdict::kPass, Verdict::kMismatch, Verdict::kBuildError, Verdict::kRuntimeError,
                    Verdict::kTimeout, Verdict::kHardwareBug, Verdict::kInputError}) {
    if (name == verdict_name(v)) return v;
  }
  throw std::runtime_error("unknown verdict '" + name + "' in transcript");
}

}  // namespace

std::string ReplayResult::summary() const {
  std::string s = fmt::format(
      "replayed {} tool calls of {} on {} {} (systolic/{}): {}\n", tool_calls, agent, context.task,
      context.config, context.hw_config,
      mismatches.empty() ? "every result reproduced" : fmt::format("{} differ", mismatches.size()));
  for (const auto& m : mismatches) {
    s += fmt::format("  event {} ({}): recorded {} / replayed {}\n", m.seq, m.tool, m.recorded, m.replayed);
  }
  if (recorded_score && replayed_score) {
    s += fmt::format("score: recorded {} {} cycles, replayed {} {} cycles{}\n",
                     verdict_name(recorded_score->verdict), recorded_score->cycles,
                     verdict_name(replayed_score->verdict), replayed_score->cycles,
                     score_matches ? "" : "  <-- differs");
  }
  return s;
}

ReplayResult replay_transcript(const std::filesystem::path& path) {
  return replay_events(read_transcript(path), path.string());
}

ReplayResult replay_events(const std::vector<nlohmann::json>& events, const std::string& source) {
  const std::filesystem::path path = source;  // names the transcript in messages
  ReplayResult out;
  auto start = std::find_if(events.begin(), events.end(),
                            [](const json& e) { return e.value("type", "") == "run_start"; });
  if (start == events.end()) throw std::runtime_error(path.string() + ": no run_start event");
  try {
    const json& c = (*start)["context"];
    out.context.platform = c.at("platform");
    out.context.hw_config = c.at("hw_config");
    out.context.task = c.at("task");
    out.context.config = c.at("config");
    out.context.dev_seed = c.at("dev_seed");
    out.agent = start->value("agent", "");
  } catch (const json::exception& e) {
    throw std::runtime_error(path.string() + ": run_start has no complete context (" + e.what() + ")");
  }
  ToolSession session(out.context);
  std::map<std::string, json> pending;  // id -> replayed result of a tool_call awaiting its recorded result
  std::string last_code;
  for (const auto& e : events) {
    const std::string type = e.value("type", "");
    if (type == "tool_call") {
      ToolResult r = session.call_text(e.at("name").get<std::string>(), e.at("arguments").get<std::string>());
      ++out.tool_calls;
      pending[e.value("id", "")] = json{{"is_error", r.is_error}, {"data", r.data}};
    } else if (type == "tool_result") {
      auto it = pending.find(e.value("id", ""));
      if (it == pending.end()) continue;
      const json recorded = {{"is_error", e.value("is_error", false)},
                             {"data", e.value("data", json(nullptr))}};
      if (recorded != it->second) {
        out.mismatches.push_back(
            {e.value("seq", size_t{0}), e.value("name", ""), recorded.dump(), it->second.dump()});
      }
      pending.erase(it);
    } else if (type == "score") {
      const json& s = e.at("score");
      Score recorded;
      recorded.verdict = verdict_from_name(s.at("verdict"));
      recorded.cycles = s.value("cycles", uint64_t{0});
      out.recorded_score = recorded;
      last_code = e.value("code", "");
    }
  }
  if (out.recorded_score) {
    out.replayed_score = score_kernel(out.context, last_code.empty() ? session.code() : last_code);
    out.score_matches = out.replayed_score->verdict == out.recorded_score->verdict &&
                        out.replayed_score->cycles == out.recorded_score->cycles;
  }
  return out;
}

}  // namespace kcraft::agent
