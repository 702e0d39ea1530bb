#include "agent/common/replay.h"

#include <fmt/format.h>

#include <map>
#include <optional>

#include "agent/common/transcript.h"

namespace kcraft::agent {

namespace {

using nlohmann::json;

Verdict recorded_verdict(const std::string& name) {
  try {
    return verdict_from_name(name);
  } catch (const std::invalid_argument& e) {
    throw std::runtime_error(std::string(e.what()) + " in transcript");
  }
}

}  // namespace

std::string ReplayResult::summary() const {
  std::string s = fmt::format(
      "replayed {} tool calls of {} on {} {} ({}/{}): {}\n", tool_calls, agent, context.task, context.config,
      context.platform, context.hw_config,
      mismatches.empty() ? "every result reproduced" : fmt::format("{} differ", mismatches.size()));
  if (not_replayable > 0) {
    s += fmt::format(
        "  not replayed: {} search candidates whose evaluation crashed or hung (the transcript has no tool "
        "calls of theirs)\n",
        not_replayable);
  }
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
  // Every field is checked before it is read: a transcript from another version, edited by hand or cut
  // short is a malformed transcript (std::runtime_error naming the file and the event), never an
  // exception of the JSON library.
  auto malformed = [&](size_t index, const std::string& what) -> std::runtime_error {
    return std::runtime_error(fmt::format("{}: event {}: {}", source, index + 1, what));
  };
  auto type_of = [&](size_t index) {
    const json& e = events[index];
    if (!e.is_object()) throw malformed(index, "not a JSON object");
    if (!e.contains("type")) return std::string();
    if (!e["type"].is_string()) throw malformed(index, "\"type\" is not a string");
    return e["type"].get<std::string>();
  };
  // The text field `key` of event `index` (`fallback` when absent; required when there is none).
  auto text = [&](size_t index, const json& object, const char* key,
                  const std::optional<std::string>& fallback = std::nullopt) {
    if (!object.contains(key) && fallback) return *fallback;
    if (!object.contains(key)) throw malformed(index, fmt::format("no \"{}\"", key));
    if (!object[key].is_string()) throw malformed(index, fmt::format("\"{}\" is not a string", key));
    return object[key].get<std::string>();
  };
  auto whole = [&](size_t index, const json& object, const char* key, std::optional<uint64_t> fallback) {
    if (!object.contains(key) && fallback) return *fallback;
    if (!object.contains(key) || !object[key].is_number_unsigned()) {
      throw malformed(index, fmt::format("\"{}\" is not a non-negative integer", key));
    }
    return object[key].get<uint64_t>();
  };

  ReplayResult out;
  size_t start = 0;
  while (start < events.size() && type_of(start) != "run_start") ++start;
  if (start == events.size()) throw std::runtime_error(source + ": no run_start event");
  const json& run_start = events[start];
  if (!run_start.contains("context") || !run_start["context"].is_object()) {
    throw malformed(start, "run_start has no \"context\" object");
  }
  const json& c = run_start["context"];
  out.context.platform = text(start, c, "platform");
  out.context.hw_config = text(start, c, "hw_config");
  out.context.task = text(start, c, "task");
  out.context.config = text(start, c, "config");
  out.context.dev_seed = whole(start, c, "dev_seed", std::nullopt);
  out.context.library = text(start, c, "library", "");
  if (c.contains("library_allows_scored_cell")) {
    if (!c["library_allows_scored_cell"].is_boolean())
      throw malformed(start, "\"library_allows_scored_cell\" is not a boolean");
    out.context.library_allows_scored_cell = c["library_allows_scored_cell"].get<bool>();
  }
  // Transcripts from before documentation levels served everything: `full`.
  try {
    out.context.docs = parse_docs_level(text(start, c, "docs", "full"));
  } catch (const std::invalid_argument& e) {
    throw malformed(start, e.what());
  }
  out.agent = text(start, run_start, "agent", "");

  ToolSession session(out.context);
  std::map<std::string, json> pending;  // id -> replayed result of a tool_call awaiting its recorded result
  std::string last_code, last_language;
  for (size_t index = 0; index < events.size(); ++index) {
    const std::string type = type_of(index);
    const json& e = events[index];
    if (type == "tool_call") {
      ToolResult r = session.call_text(text(index, e, "name"), text(index, e, "arguments"));
      ++out.tool_calls;
      pending[text(index, e, "id", "")] = json{{"is_error", r.is_error}, {"data", r.data}};
    } else if (type == "tool_result") {
      auto it = pending.find(text(index, e, "id", ""));
      if (it == pending.end()) continue;
      if (e.contains("is_error") && !e["is_error"].is_boolean())
        throw malformed(index, "\"is_error\" is not a boolean");
      const json recorded = {{"is_error", e.value("is_error", false)},
                             {"data", e.contains("data") ? e["data"] : json(nullptr)}};
      if (recorded != it->second) {
        out.mismatches.push_back(
            {whole(index, e, "seq", index), text(index, e, "name", ""), recorded.dump(), it->second.dump()});
      }
      pending.erase(it);
    } else if (type == "candidate") {
      if (e.contains("replayable") && e["replayable"].is_boolean() && !e["replayable"].get<bool>())
        ++out.not_replayable;
    } else if (type == "score") {
      if (!e.contains("score") || !e["score"].is_object())
        throw malformed(index, "score has no \"score\" object");
      const json& s = e["score"];
      Score recorded;
      try {
        recorded.verdict = recorded_verdict(text(index, s, "verdict"));
      } catch (const std::runtime_error& unknown) {
        throw malformed(index, unknown.what());
      }
      recorded.cycles = whole(index, s, "cycles", 0);
      out.recorded_score = recorded;
      last_code = text(index, e, "code", "");
      last_language = text(index, e, "language", "");  // absent before kernels had languages: the default
    }
  }
  if (out.recorded_score) {
    out.replayed_score = last_code.empty() ? score_kernel(out.context, session.code(), session.language())
                                           : score_kernel(out.context, last_code, last_language);
    out.score_matches = out.replayed_score->verdict == out.recorded_score->verdict &&
                        out.replayed_score->cycles == out.recorded_score->cycles;
  }
  return out;
}

}  // namespace kcraft::agent
