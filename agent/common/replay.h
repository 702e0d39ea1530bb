// Replaying a transcript: re-execute every recorded tool call against the testbench, in order, and check
// that each tool gives the same structured result (verdicts, cycles, counts) and the final kernel the
// same score. The simulator is deterministic, so any difference is a finding.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "agent/common/scoring.h"

namespace kcraft::agent {

struct ReplayMismatch {
  size_t seq = 0;  // the tool_result event's sequence number
  std::string tool;
  std::string recorded;  // JSON of the recorded data
  std::string replayed;
};

struct ReplayResult {
  TaskContext context;
  std::string agent;
  size_t tool_calls = 0;
  // A search's candidates whose evaluation crashed or hung: they left no tool calls to re-execute.
  size_t not_replayable = 0;
  std::vector<ReplayMismatch> mismatches;
  std::optional<Score> recorded_score;
  std::optional<Score> replayed_score;
  bool score_matches = true;
  bool ok() const { return mismatches.empty() && score_matches; }
  std::string summary() const;
};

// Throws std::runtime_error for an unreadable or malformed transcript.
ReplayResult replay_transcript(const std::filesystem::path& path);
// The same for events already read (read_transcript, parse_transcript); `source` names them in messages.
ReplayResult replay_events(const std::vector<nlohmann::json>& events, const std::string& source);

}  // namespace kcraft::agent
